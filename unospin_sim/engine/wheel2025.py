"""The 2025 wheel: the player who played a Spin card spins, then play goes on.

Spaces (``rules/spaces.py``): Color Draw red/yellow/green/blue, Wild Color Draw, Color
Discard (to the bottom of the discard pile), Swap Hands and 2X. Choices are the policy's.
"""

from ..rules import space_codes as sp
from ..rules.card_codes import KINDS_PER_COLOUR
from . import policy
from .calls import uno_check
from .events import ev
from .exchange import swap_hands
from .jit import hot, inl
from .layout import EV_NAME, EV_TWO_X, EV_WHEEL_DISCARD, HSIZE, S_TWO_X, S_WINNER
from .piles import remove_card, to_discard_under
from .program import has_program, run_program
from .wheel import begin_spin, count_discards, draw_until_colour, end_spin, set_other, spin_wheel


@inl
def color_discard(st, pts, bots, p):
    """Color Discard: every card of a colour p names goes to the bottom of the discard pile
    (the top card stays)."""
    c = policy.colour_to_discard(st, pts, bots, p)
    ev(st, EV_NAME, p, 0, c)
    base = c * KINDS_PER_COLOUR
    n = 0
    for k in range(base, base + KINDS_PER_COLOUR):
        while st.hand[p, k] > 0:
            remove_card(st, p, k)
            to_discard_under(st, k)
            ev(st, EV_WHEEL_DISCARD, p, k, 1)
            n += 1
    count_discards(st, p, n)
    if n > 0:
        if st.hand[p, HSIZE] == 0:
            st.s[S_WINNER] = p
        else:
            uno_check(st, bots, p)


@hot
def program_spin_2025(st, r, pts, bots, p, space):
    """The rest of a 2025 spin (opened by :func:`spin_2025`) on a space that runs a program:
    run it and close the spin's record. Returns the players its ``skip`` steps pass."""
    _, skips = run_program(st, r, pts, bots, p, space)
    end_spin(st, p)
    return skips


@inl
def spin_2025(st, r, pts, cum, bots, p):
    """Seat p, who just played a Spin card, spins the 2025 wheel. Returns the players a
    program's skip step passes over after the turn's own (0 for a compiled space).

    Inlined into the default turn; the house-rule turns call :func:`spin_2025_call`. A
    space that runs a program leaves at once for :func:`program_spin_2025`, so that the
    compiled spaces' path holds one call the published wheels never take."""
    space = spin_wheel(st, cum)
    begin_spin(st, p, space)
    if st.s[S_TWO_X]:
        st.s[S_TWO_X] = 0
        ev(st, EV_TWO_X, 0, 0, 0)
    if has_program(r, space):
        return program_spin_2025(st, r, pts, bots, p, space)
    if space < 0:
        pass  # layout.NONE_SPACE: a replay's control, nothing happens
    elif space <= sp.COLOR_DRAW_BLUE:
        draw_until_colour(st, r, p, space - sp.COLOR_DRAW_RED)
    elif space == sp.WILD_COLOR_DRAW:
        c = policy.colour_to_draw(st, bots, p)
        ev(st, EV_NAME, p, 0, c)
        draw_until_colour(st, r, p, c)
    elif space == sp.COLOR_DISCARD:
        color_discard(st, pts, bots, p)
    elif space == sp.SWAP_HANDS:
        set_other(st, swap_hands(st, bots, p))
    elif space == sp.TWO_X:
        st.s[S_TWO_X] = 1
        ev(st, EV_TWO_X, 1, 0, 0)
    end_spin(st, p)
    return 0


@hot
def spin_2025_call(st, r, pts, cum, bots, p):
    """:func:`spin_2025` as a called function, compiled once, for the house-rule turns
    (three of them: the house loop's, the search loop's and its noting one)."""
    return spin_2025(st, r, pts, cum, bots, p)
