"""Hand-built positions for the reference engine's tests (cards, a round in a chosen state)."""

from unospin_sim import reference as R
from unospin_sim.reference import Card

RED, YELLOW, GREEN, BLUE = range(4)


def N(colour, n):
    return Card(R.NUMBER, colour, n)


def SP(colour, n):
    return Card(R.SPIN, colour, n)


def SK(colour):
    return Card(R.SKIP, colour, None)


def RV(colour):
    return Card(R.REVERSE, colour, None)


def DT(colour):
    return Card(R.DRAW_TWO, colour, None)


W = Card(R.WILD, None, None)
WD4 = Card(R.WILD_DRAW_FOUR, None, None)
WSPIN = Card(R.WILD_SPIN, None, None)
WEB = Card(R.WEB_SWING, None, None)
WSWAP = Card(R.SWAP_WILD, None, None)
WSHUF = Card(R.SHUFFLE_WILD, None, None)


def make(edition, hands, top, colour=None, draw=(), seed=0, bots=None, trace=None, **options):
    """A round in a hand-built state: ``draw`` is the draw pile, its LAST card on top;
    ``options``: the fields of a ``reference.Options``."""
    r = R.Round(edition, len(hands), seed, R.Options(**options), bots, trace)
    r.hands = [list(h) for h in hands]
    r.discard = [top]
    r.colour = top.colour if colour is None else colour
    r.draw_pile = list(draw)
    return r


def one_action(r, seat):
    """Run the main loop from ``seat`` until exactly one more turn has been counted
    (uncounted actions before it, such as accepting a penalty, run too); returns ``r``."""
    r.cur = seat
    r.turn_cap = r.turns + 1
    r.run()
    return r


def big(k=3, card=N(GREEN, 1)):
    """k other hands of 4 cards (the next player is not about to win)."""
    return [[card] * 4 for _ in range(k)]
