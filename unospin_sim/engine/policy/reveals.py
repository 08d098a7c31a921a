"""What a seat's draw at its turn tells the table: the ``draw_reveals`` decision's answers.

A seat that drew at its turn while colour c was in play, and plays no card now but perhaps the
one it drew, has shown something about its hand, and how much depends on its strategy: one
that draws only for want of a legal card holds no legal card. The answer is a mask of the bits
of ``layout.VOID`` (the turn ORs it into the hand's VOID column; search's determinization reads
it): bit c, no card of colour c; bit ``VOID_FACE + f``, no card of face f (when the top card
is coloured, of face f, a card of that face is legal); bit ``WILD_COLOUR``, no wild (every wild
but a Wild Draw Four is always legal, and a Wild Draw Four is legal to a hand without colour c
and without other wilds).

Each strategy module names one of these as its ``draw_reveals``.
"""

from ...rules.cards import FIRST_WILD, KIND_FACE, WILD_COLOUR
from ..jit import inl
from ..layout import S_TOP, VOID_FACE


@inl
def no_legal_card(st, p, c):
    """The bits of a draw for want of a legal card, wilds kept aside (hoarder also draws
    when its only legal cards are wilds it keeps): colour c and, when the top card is
    coloured, its face."""
    m = 1 << c
    top = st.s[S_TOP]
    if top < FIRST_WILD:
        m |= 1 << (VOID_FACE + KIND_FACE[top])
    return m


@inl
def no_legal_card_nor_wild(st, p, c):
    """The bits of a draw only for want of a legal card (random, heuristic and every
    strategy that plays a legal card when it has one): :func:`no_legal_card` and no wild."""
    m = (1 << c) | (1 << WILD_COLOUR)
    top = st.s[S_TOP]
    if top < FIRST_WILD:
        m |= 1 << (VOID_FACE + KIND_FACE[top])
    return m


@inl
def nothing(st, p, c):
    """A draw that shows nothing: the seat may draw by choice (search)."""
    return 0
