"""Strategy ``aggressor``: aims Skips, Draw Twos and Wild Draw Fours at a next player low on
cards (<= THREAT cards); otherwise plays like ``heuristic`` (docs/BOTS.md).

The functions read the state; they change nothing else.
"""

from ...rules.cards import (FACE_DRAW_TWO, FACE_REVERSE, FACE_SKIP, FIRST_WILD, KIND_FACE,
                            WILD_DRAW_FOUR)
from ..jit import inl
from ..layout import HSIZE, S_COLOUR, S_NP, S_TOP
from ..piles import seat_after
from .scan import N_SCAN, candidate, card_score

#: a next player holding this many cards or fewer is attacked
THREAT = 3


@inl
def choose_card(st, pts, p, wd4_ok):
    """Next player at <= THREAT cards: Wild Draw Four first, then Draw Two, then Skip (and
    Reverse with two players, where it skips), the dearest first; else heuristic's card
    score. Otherwise exactly heuristic's choice (its score and scan order, in
    one pass). -1 when no card is legal."""
    nxt = seat_after(st, p)
    h = st.hand[nxt, HSIZE]
    threat = h <= THREAT
    next_small = h <= 2
    two = st.s[S_NP] == 2
    c = st.s[S_COLOUR]
    ft = KIND_FACE[st.s[S_TOP]]
    best = -1
    best_score = -1e18
    for j in range(N_SCAN):
        k = candidate(st, p, j, c, ft, wd4_ok)
        if k < 0:
            continue
        f = KIND_FACE[k]
        if not threat:
            sc = card_score(st, pts, p, k, next_small)
        elif k == WILD_DRAW_FOUR:
            sc = 3000.0
        elif k < FIRST_WILD and f == FACE_DRAW_TWO:
            sc = 2000.0 + pts[k]
        elif k < FIRST_WILD and (f == FACE_SKIP or (f == FACE_REVERSE and two)):
            sc = 1000.0 + pts[k]
        else:
            sc = card_score(st, pts, p, k, next_small)
        if sc > best_score:
            best_score = sc
            best = k
    return best
