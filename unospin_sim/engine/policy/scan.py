"""One pass over the distinct legal card kinds of a hand, for the added strategies.

``candidate(st, p, j, c, f, wd4_ok)`` for ``j`` in ``range(N_SCAN)`` visits every kind seat p
may play exactly once, in the scan order of ``legal.nth_legal`` (the colour in play, then
the other colours' cards matching the top card's face, then the wilds), and returns -1 for
the slots that are not a held legal kind. It replaces the count_legal + nth_legal(i) loop
(quadratic in the hand size) by a fixed 30-slot loop; a first-best-on-ties choice is the
same either way. ``card_score`` is heuristic's card score, inlined.
"""

from ...rules.cards import (FACE_SKIP, FIRST_WILD, KIND_COLOUR, KIND_FACE, KINDS_PER_COLOUR,
                            N_KINDS, WILD_DRAW_FOUR)
from ..jit import inl
from ..layout import CC
from ..legal import face_kind

#: slots: 18 kinds of the colour in play, 2 face matches in each other colour, the wilds
N_SCAN = KINDS_PER_COLOUR + 6 + (N_KINDS - FIRST_WILD)


@inl
def candidate(st, p, j, c, f, wd4_ok):
    """The j-th slot's kind when seat p holds it and may play it, else -1 (c: colour in
    play, f: face of the top card)."""
    if j < KINDS_PER_COLOUR:
        k = c * KINDS_PER_COLOUR + j
    elif j < KINDS_PER_COLOUR + 6:
        if f > 12:
            return -1
        i = j - KINDS_PER_COLOUR
        c2 = i >> 1
        if c2 >= c:
            c2 += 1
        spin = i & 1
        if spin and not (1 <= f <= 5):
            return -1
        k = face_kind(c2, f, spin)
    else:
        k = FIRST_WILD + j - KINDS_PER_COLOUR - 6
        if k == WILD_DRAW_FOUR and not wd4_ok:
            return -1
    if st.hand[p, k] > 0:
        return k
    return -1


@inl
def card_score(st, pts, p, k, next_small):
    """heuristic.card_score, inlined."""
    if k == WILD_DRAW_FOUR:
        return 300.0 if next_small else -200.0
    if k >= FIRST_WILD:
        return 250.0 if next_small else -100.0
    score = pts[k] + 2.0 * st.hand[p, CC + KIND_COLOUR[k]]
    if KIND_FACE[k] >= FACE_SKIP and next_small:
        score += 100.0
    return score
