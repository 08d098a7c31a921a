"""The scan order of the added strategies' card choice, in three straight sections.

Every added strategy picks the legal card kind of best score, the first in *scan order* on
ties (the order of ``legal.nth_legal``): the kinds of the colour in play (kind order), then
the other colours' kinds matching the top card's face (red, yellow, green, blue; a plain
number before the Spin card of that number), then the wilds (kind order; the Wild Draw Four
only when ``wd4_ok``). Each strategy writes the three sections as loops of its own (a score
per kind, inlined), with these early exits, which skip only kinds not held:

- colour in play: skipped when the hand holds none of that colour (``hand[p, CC + c]``); it
  stops once all of them were seen (:func:`colour_run`);
- face matches: only when the top card's face is a coloured one (``f <= 12``), and per
  other colour only when the hand holds that colour;
- wilds: only when the hand holds a wild (``hand[p, CC + 4]``).

This replaced a fixed 30-slot loop (``candidate(j)`` per slot, a branch on the section in
each): the choices are identical (the same kinds in the same order; the scores computed by
the same float operations), ``benchmarks/refactor_identity.py --strategies ...`` proves it.
"""

from ...rules.cards import KINDS_PER_COLOUR
from ..jit import inl
from ..layout import CC, HSIZE

#: the faces that have a Spin card besides the plain number (1-5)
SPIN_FACE_MIN, SPIN_FACE_MAX = 1, 5


@inl
def colour_run(c):
    """The kinds of colour c: range(colour_run(c), colour_run(c) + KINDS_PER_COLOUR)."""
    return c * KINDS_PER_COLOUR


@inl
def holds_other_colours(st, p, c, f):
    """May the face-match section find anything: a coloured top face and a card of a colour
    other than c in seat p's hand."""
    return f <= 12 and st.hand[p, HSIZE] - st.hand[p, CC + c] - st.hand[p, CC + 4] > 0


@inl
def spin_face(f):
    """Has face f a Spin card of that number too (1-5)?"""
    return SPIN_FACE_MIN <= f <= SPIN_FACE_MAX
