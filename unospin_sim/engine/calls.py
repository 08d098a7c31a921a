"""What players announce: the colour named for a wild, UNO calls, catches and their penalty."""

from . import policy
from .events import ev
from .jit import inl
from .layout import (
    EV_CAUGHT,
    EV_COLOUR,
    EV_FORGET,
    EV_PENALTY,
    EV_UNO,
    HSIZE,
    PEND,
    R_UNO_PENALTY,
    S_COLOUR,
    S_NP,
    S_PENDING,
    S_WINNER,
)
from .legal import partner_of
from .piles import draw_n


@inl
def name_colour(st, bots, p):
    """Seat p names the colour in play for the wild it played."""
    c = policy.choose_colour(st, bots, p)
    st.s[S_COLOUR] = c
    ev(st, EV_COLOUR, p, c, 0)


@inl
def uno_check(st, bots, p):
    """Seat p's hand just dropped to one card: call UNO, or forget and maybe be caught (the
    first other seat in seat order that catches; the penalty waits for apply_penalties).
    Every caught forgetting counts: caught twice in one action, p draws the penalty twice. Under
    partners the partner never catches (it would hurt its own team)."""
    if st.hand[p, HSIZE] != 1:
        return
    if policy.forgets_uno(st, bots, p):
        ev(st, EV_FORGET, p, 0, 0)
        pp = partner_of(st, p)
        for q in range(st.s[S_NP]):
            if q != p and q != pp:
                if policy.catches(st, bots, q):
                    st.hand[p, PEND] += 1
                    st.s[S_PENDING] = 1
                    ev(st, EV_CAUGHT, p, q, 0)
                    break
    else:
        ev(st, EV_UNO, p, 0, 0)


@inl
def uno_check_all(st, bots):
    """The UNO check for every seat, in seat order (after hands changed seats)."""
    for q in range(st.s[S_NP]):
        uno_check(st, bots, q)


@inl
def apply_penalties(st, r):
    """Caught players draw ``uno_penalty`` cards (R_UNO_PENALTY) per caught forgetting, at
    the end of the action, unless the round is over."""
    if st.s[S_PENDING] == 0:
        return
    st.s[S_PENDING] = 0
    for p in range(st.s[S_NP]):
        if st.hand[p, PEND]:
            n = st.hand[p, PEND]
            st.hand[p, PEND] = 0
            if st.s[S_WINNER] < 0:
                for _ in range(n):
                    ev(st, EV_PENALTY, p, 0, 0)
                    draw_n(st, p, r[R_UNO_PENALTY])
