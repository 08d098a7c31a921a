"""Strategy ``hoarder``: keeps its wilds and Wild Draw Fours until its hand is small
(<= HOARD_UNTIL cards), and draws instead of playing one while its only legal cards are
wilds it keeps (the official rules allow drawing instead of playing; docs/BOTS.md).

The functions read the state; they change nothing else.
"""

from ...rules.cards import FIRST_WILD, KIND_FACE, KINDS_PER_COLOUR, N_KINDS, WILD_DRAW_FOUR
from ..jit import inl
from ..layout import CC, HSIZE, S_COLOUR, S_DISC_N, S_DRAW_N, S_TOP
from ..legal import face_kind
from .scan import colour_run, holds_other_colours, spin_face

#: the hand size from which it plays wilds like any other card
HOARD_UNTIL = 3


@inl
def choose_card(st, pts, p, wd4_ok, may_hold):
    """A coloured legal card (points + 2 x cards held of its colour, first on ties); a wild
    only when the hand is small (then the most points first), or when it may not draw
    instead (``may_hold`` False, e.g. rlcard) or nothing is left to draw. -1: draw (holding
    legal wilds it keeps, or no legal card). Scan order and early exits: scan.py."""
    h = st.hand
    c = st.s[S_COLOUR]
    f = KIND_FACE[st.s[S_TOP]]
    small = h[p, HSIZE] <= HOARD_UNTIL
    best = -1
    best_score = -1e18
    wild = -1
    left = h[p, CC + c]  # the colour in play
    if left > 0:
        col = 2.0 * left
        base = colour_run(c)
        for k in range(base, base + KINDS_PER_COLOUR):
            m = h[p, k]
            if m == 0:
                continue
            sc = pts[k] + col
            if sc > best_score:
                best_score = sc
                best = k
            left -= m
            if left == 0:
                break
    if holds_other_colours(st, p, c, f):  # the other colours' cards of the top face
        n_kinds = 2 if spin_face(f) else 1
        for c2 in range(4):
            if c2 == c or h[p, CC + c2] == 0:
                continue
            col = 2.0 * h[p, CC + c2]
            for spin in range(n_kinds):
                k = face_kind(c2, f, spin)
                if h[p, k] > 0:
                    sc = pts[k] + col
                    if sc > best_score:
                        best_score = sc
                        best = k
    if h[p, CC + 4] > 0:  # the wilds
        for k in range(FIRST_WILD, N_KINDS):
            if h[p, k] == 0 or (k == WILD_DRAW_FOUR and not wd4_ok):
                continue
            if small:
                sc = pts[k] + 0.0
                if sc > best_score:
                    best_score = sc
                    best = k
            # kept: remember the cheapest-to-give-up wild (a plain wild before a WD4)
            elif wild < 0 or (wild == WILD_DRAW_FOUR and k != WILD_DRAW_FOUR):
                wild = k
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
