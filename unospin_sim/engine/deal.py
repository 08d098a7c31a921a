"""The start of a round: a fresh state, the deal, the first discard and its effect.

Shared by every rule set; ``round.setup_round`` (default rules and house rules) and
``rlcard.setup_round_rl`` differ only in what a first wild or first Draw Two does.
"""

import numpy as np

from ..rules.card_codes import (
    FACE_DRAW_TWO,
    FACE_REVERSE,
    FACE_SKIP,
    FIRST_WILD,
    KIND_COLOUR,
    KIND_FACE,
    WILD_DRAW_FOUR,
)
from .events import ev
from .jit import inl
from .layout import (
    EV_DEAL,
    EV_FIRST,
    EV_REVERSE,
    EV_SET_ASIDE,
    EV_SKIPPED,
    FIRST_NUMBERS_ONLY,
    N_RESET_SCALARS,
    PILE,
    R_DECK_N,
    R_DRAW_TWO_N,
    R_FIRST_RULE,
    R_HAND_SIZE,
    R_NP,
    S_COLOUR,
    S_CUR,
    S_DIR,
    S_DRAW_N,
    S_FIRST,
    S_LOG_ON,
    S_NP,
    S_RNG,
    S_TOP,
    S_WINNER,
    TMP,
)
from .piles import add_card, draw_n, put_in_pile, take_from_pile


@inl
def deal(st, r, deck, gseed):
    """Reset the state for a round seeded ``gseed`` and deal R_HAND_SIZE cards to every seat,
    one at a time, starting left of the dealer (the last seat)."""
    s = st.s
    np_ = r[R_NP]
    st.hand[:np_, :] = 0
    s[:N_RESET_SCALARS] = 0  # the replay's forcing fields stay
    s[S_LOG_ON] = 1 if st.log.shape[0] > 1 else 0
    s[S_NP] = np_
    s[S_WINNER] = -1
    s[S_DIR] = 1
    s[S_RNG] = np.int64(gseed)
    n = r[R_DECK_N]
    for i in range(n):
        st.cards[PILE + i] = deck[i]
    s[S_DRAW_N] = n
    dealer = np_ - 1
    for _ in range(r[R_HAND_SIZE]):
        for j in range(np_):
            p = (dealer + 1 + j) % np_
            k = take_from_pile(st)
            add_card(st, p, k)
            ev(st, EV_DEAL, p, k, 0)


@inl
def turn_first_card(st, r):
    """Turn the first discard (rule option first_card: a Wild Draw Four goes back, or
    everything but a number card goes back); returns its kind."""
    s = st.s
    if r[R_FIRST_RULE] == FIRST_NUMBERS_ONLY:
        m = 0
        while True:
            k = take_from_pile(st)
            if k < FIRST_WILD and KIND_FACE[k] <= 9:
                break
            ev(st, EV_SET_ASIDE, k, 0, 0)
            st.cards[TMP + m] = k
            m += 1
        for i in range(m):
            put_in_pile(st, st.cards[TMP + i])
    else:
        while True:
            k = take_from_pile(st)
            if k != WILD_DRAW_FOUR:
                break
            ev(st, EV_SET_ASIDE, k, 0, 0)
            put_in_pile(st, k)
    s[S_TOP] = k
    ev(st, EV_FIRST, k, 0, 0)
    return k


@inl
def first_card_action(st, r, k, draw_two_skips):
    """The effect of a first discard ``k`` that is not a wild on seat 0, who would play
    first; returns the seat that plays first. ``draw_two_skips``: a first Draw Two also
    skips seat 0 (RLCard: it does not). Seat 0 draws ``draw_two_draws``
    (R_DRAW_TWO_N) for a first Draw Two."""
    s = st.s
    np_ = s[S_NP]
    first = 0
    s[S_COLOUR] = KIND_COLOUR[k]
    f = KIND_FACE[k]
    if f == FACE_SKIP:
        ev(st, EV_SKIPPED, first, 0, 0)
        first = 1 % np_
    elif f == FACE_REVERSE:
        s[S_DIR] = -1
        ev(st, EV_REVERSE, -1, 0, 0)
        first = np_ - 1  # the dealer
    elif f == FACE_DRAW_TWO:
        draw_n(st, first, r[R_DRAW_TWO_N])
        if draw_two_skips:
            ev(st, EV_SKIPPED, first, 0, 0)
            first = 1 % np_
    return first


@inl
def start_at(st, first):
    st.s[S_CUR] = first
    st.s[S_FIRST] = first
