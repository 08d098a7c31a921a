"""The 2005 wheel: after a Spin card, the NEXT player spins instead of taking a turn.

Spaces (``rules/spaces.py``): Almost UNO, Discard Number, Discard Color, Draw until red /
blue, Show Hand, War, UNO Spin (the race) and Trade Hands. Choices are the policy's.
"""

from ..rules import space_codes as sp
from . import policy
from .contests import race_winner, war, war_discards
from .events import ev
from .exchange import trade_hands
from .jit import hot, inl
from .layout import EV_NAME, EV_SHOW_HAND, EV_SKIPPED, EV_WAR_WIN, HSIZE, S_CUR, S_NP, TMP
from .piles import seat_after
from .program import has_program, run_program
from .wheel import (
    begin_spin,
    draw_until_colour,
    end_spin,
    list_colour,
    list_hand,
    list_number,
    set_other,
    spin_wheel,
    wheel_discard_list,
)


@hot
def almost_uno(st, pts, bots, p):
    """Discard until two cards are left; the policy picks the two kept."""
    if st.hand[p, HSIZE] <= 2:
        return
    n = list_hand(st, p)
    policy.almost_uno_keep(st, pts, bots, p, n, 2)
    wheel_discard_list(st, bots, p, n - 2)


@hot
def discard_number(st, bots, p):
    """Discard every card of a number the player names (Spin cards count by number)."""
    v = policy.number_to_discard(st, bots, p)
    ev(st, EV_NAME, p, 1, v)
    wheel_discard_list(st, bots, p, list_number(st, p, v))


@hot
def discard_color(st, pts, bots, p):
    """Discard every card of a colour the player names."""
    c = policy.colour_to_discard(st, pts, bots, p)
    ev(st, EV_NAME, p, 0, c)
    wheel_discard_list(st, bots, p, list_colour(st, p, c))


@hot
def uno_spin_race(st, pts, bots):
    """A player drawn by reflex weight discards one card. Returns that player."""
    w = race_winner(st, bots)
    if st.hand[w, HSIZE] == 0:
        return w
    st.cards[TMP + 0] = policy.race_discard(st, pts, bots, w)
    wheel_discard_list(st, bots, w, 1)
    return w


@inl
def seat_after_cw(st, p):
    """The seat clockwise of p (Trade Hands passes p's hand there)."""
    q = p + 1
    return 0 if q >= st.s[S_NP] else q


@hot
def program_spin_2005(st, r, pts, bots, p, space):
    """The rest of a 2005 spin (opened by :func:`spin_2005`) on a space that runs a program:
    run it, close the spin's record and set S_CUR past any seats a ``skip`` step passes."""
    nxt_from, skips = run_program(st, r, pts, bots, p, space)
    end_spin(st, p)
    q = seat_after(st, nxt_from)
    for _ in range(skips):
        ev(st, EV_SKIPPED, q, 0, 0)
        q = seat_after(st, q)
    st.s[S_CUR] = q


@inl
def spin_2005(st, r, pts, cum, bots, p):
    """Seat p spins the 2005 wheel instead of its turn. Sets S_CUR to who acts next.

    Inlined into the default loop; the house-rule loops call :func:`spin_2005_call`. A
    space that runs a program leaves at once for :func:`program_spin_2005`, so that the
    compiled spaces' path holds one call the published wheels never take."""
    space = spin_wheel(st, cum)
    begin_spin(st, p, space)
    if has_program(r, space):
        program_spin_2005(st, r, pts, bots, p, space)
        return
    nxt_from = p
    if space == sp.ALMOST_UNO:
        almost_uno(st, pts, bots, p)
    elif space == sp.DISCARD_NUMBER:
        discard_number(st, bots, p)
    elif space == sp.DISCARD_COLOR:
        discard_color(st, pts, bots, p)
    elif space == sp.DRAW_RED:
        draw_until_colour(st, r, p, 0)
    elif space == sp.DRAW_BLUE:
        draw_until_colour(st, r, p, 3)
    elif space == sp.SHOW_HAND:
        ev(st, EV_SHOW_HAND, p, 0, 0)
    elif space == sp.WAR:
        w = war(st)
        ev(st, EV_WAR_WIN, w, 0, 0)
        set_other(st, w)
        if w >= 0:
            war_discards(st, bots, w)
            nxt_from = w
    elif space == sp.UNO_SPIN:
        nxt_from = uno_spin_race(st, pts, bots)
        set_other(st, nxt_from)
    elif space == sp.TRADE_HANDS:
        trade_hands(st, bots)
        set_other(st, seat_after_cw(st, p))
    end_spin(st, p)
    st.s[S_CUR] = seat_after(st, nxt_from)


@hot
def spin_2005_call(st, r, pts, cum, bots, p):
    """:func:`spin_2005` as a called function, compiled once, for the house-rule loops
    (the house loop and the search loop) and the rule tests; the default loop inlines it."""
    spin_2005(st, r, pts, cum, bots, p)
