"""What a seat's draw at its turn tells the table: each strategy's ``DRAW_SHOWS``.

A seat that drew at its turn while colour c was in play, and plays no card now but perhaps the
one it drew, has shown something about its hand, and how much depends on its strategy: one
that draws only for want of a legal card holds no legal card. Each strategy module declares
what its draw shows as ``DRAW_SHOWS``, a combination of the flags below; the policy home
gathers them per strategy id (``policy.DRAW_SHOWS``) and the turn (``turn.mark_void``) ORs the
matching bits into the hand's ``layout.VOID`` column, which search's determinization reads:

- :data:`SHOWS_COLOUR`: no card of colour c (bit c);
- :data:`SHOWS_FACE`: when the top card is coloured, of face f, no card of that face (bit
  ``VOID_FACE + f``: a card of the same number or symbol is legal);
- :data:`SHOWS_WILD`: no wild (bit ``WILD_COLOUR``: every wild but a Wild Draw Four is always
  legal, and a Wild Draw Four is legal to a hand without colour c and without other wilds).

Data, not code: the turn reads a number per strategy, so no strategy id is tested there.
"""

#: flags of DRAW_SHOWS
SHOWS_COLOUR, SHOWS_FACE, SHOWS_WILD = 1, 2, 4

#: a draw for want of a legal card, wilds kept aside (hoarder also draws when its only legal
#: cards are wilds it keeps): no card of colour c, none of the top card's face
NO_LEGAL_CARD = SHOWS_COLOUR | SHOWS_FACE
#: a draw only for want of a legal card (random, heuristic and every strategy that plays a
#: legal card when it has one): no legal card, and no wild
NO_LEGAL_CARD_NOR_WILD = SHOWS_COLOUR | SHOWS_FACE | SHOWS_WILD
#: a draw that shows nothing: the seat may draw by choice (search)
NOTHING = 0
