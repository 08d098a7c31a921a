"""Strategy ``hoarder``: keeps its wilds and Wild Draw Fours until its hand is small
(<= HOARD_UNTIL cards), and draws instead of playing one while its only legal cards are
wilds it keeps (the official rules allow drawing instead of playing; docs/BOTS.md).

The functions read the state; they change nothing else.
"""

from ...rules.cards import FIRST_WILD, KIND_COLOUR, KIND_FACE, N_KINDS, WILD_DRAW_FOUR
from ..jit import inl
from ..layout import CC, HSIZE, S_COLOUR, S_DISC_N, S_DRAW_N, S_TOP
from .scan import N_SCAN, candidate

#: the hand size from which it plays wilds like any other card
HOARD_UNTIL = 3


@inl
def choose_card(st, pts, p, wd4_ok, may_hold):
    """A coloured legal card (points + 2 x cards held of its colour, first on ties); a wild
    only when the hand is small (then the most points first), or when it may not draw
    instead (``may_hold`` False, e.g. rlcard) or nothing is left to draw. -1: draw (holding
    legal wilds it keeps, or no legal card)."""
    c = st.s[S_COLOUR]
    f = KIND_FACE[st.s[S_TOP]]
    small = st.hand[p, HSIZE] <= HOARD_UNTIL
    best = -1
    best_score = -1e18
    wild = -1
    for j in range(N_SCAN):
        k = candidate(st, p, j, c, f, wd4_ok)
        if k < 0:
            continue
        if k >= FIRST_WILD:
            if small:
                sc = pts[k] + 0.0
            else:
                # kept: remember the cheapest-to-give-up wild (a plain wild before a WD4)
                if wild < 0 or (wild == WILD_DRAW_FOUR and k != WILD_DRAW_FOUR):
                    wild = k
                continue
        else:
            sc = pts[k] + 2.0 * st.hand[p, CC + KIND_COLOUR[k]]
        if sc > best_score:
            best_score = sc
            best = k
    if best >= 0:
        return best
    if may_hold and st.s[S_DRAW_N] + st.s[S_DISC_N] > 0:
        return -1
    return wild


@inl
def race_discard(st, pts, w):
    """UNO Spin race winner's discard: the coloured card worth the most points; a wild only
    when it holds nothing else."""
    k = -1
    best = -1
    for k2 in range(N_KINDS):
        if st.hand[w, k2] > 0:
            sc = pts[k2] if k2 < FIRST_WILD else -1 - k2 + FIRST_WILD - 100
            if k < 0 or sc > best:
                best = sc
                k = k2
    return k
