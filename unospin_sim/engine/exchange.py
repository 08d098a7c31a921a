"""Whole hands changing seats (2025 Swap Hands, 2005 Trade Hands, seven_o, Wild Swap and
Shuffle Hands), each followed by the UNO checks of the seats left holding one card."""

from . import policy
from .calls import uno_check, uno_check_all
from .events import ev
from .jit import hot
from .layout import EV_SWAP, EV_TRADE, EV_ZERO_PASS, S_DIR
from .piles import pass_hands, swap_rows


@hot
def swap_hands(st, bots, p):
    """Seat p swaps hands with a seat of its choice; returns that seat."""
    q = policy.swap_target(st, bots, p)
    swap_rows(st, p, q)
    ev(st, EV_SWAP, p, q, 0)
    uno_check(st, bots, p)
    uno_check(st, bots, q)
    return q


@hot
def trade_hands(st, bots):
    """2005 Trade Hands: every hand passes one seat clockwise (seat q gets q - 1's)."""
    pass_hands(st, 1)
    ev(st, EV_TRADE, 0, 0, 0)
    uno_check_all(st, bots)


@hot
def zero_pass(st, bots):
    """seven_o: a 0 passes every hand one seat in the direction of play."""
    d = st.s[S_DIR]
    pass_hands(st, d)
    ev(st, EV_ZERO_PASS, d, 0, 0)
    uno_check_all(st, bots)
