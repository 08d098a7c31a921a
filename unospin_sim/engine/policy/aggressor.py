"""Strategy ``aggressor``: aims Skips, Draw Twos and Wild Draw Fours at a next player low on
cards (<= THREAT cards); otherwise plays like ``heuristic`` (docs/BOTS.md).

The functions read the state; they change nothing else.
"""

from ...rules.cards import (FACE_DRAW_TWO, FACE_REVERSE, FACE_SKIP, FIRST_WILD, KIND_FACE,
                            KINDS_PER_COLOUR, N_KINDS, WILD_DRAW_FOUR)
from ..jit import inl
from ..layout import CC, HSIZE, S_COLOUR, S_NP, S_TOP
from ..legal import face_kind
from ..piles import seat_after
from .scan import colour_run, holds_other_colours, spin_face

#: a next player holding this many cards or fewer is attacked
THREAT = 3


@inl
def coloured_score(pts, k, col, threat, two, next_small):
    """Score of coloured kind k (``col``: 2.0 x cards held of its colour): the attack scores
    when ``threat``, else heuristic's card score."""
    f = KIND_FACE[k]
    if threat:
        if f == FACE_DRAW_TWO:
            return 2000.0 + pts[k]
        if f == FACE_SKIP or (f == FACE_REVERSE and two):
            return 1000.0 + pts[k]
    sc = pts[k] + col
    if f >= FACE_SKIP and next_small:
        sc += 100.0
    return sc


@inl
def choose_card(st, pts, p, wd4_ok):
    """Next player at <= THREAT cards: Wild Draw Four first, then Draw Two, then Skip (and
    Reverse with two players, where it skips), the dearest first; else heuristic's card
    score. Otherwise exactly heuristic's choice (its score and scan order, in
    one pass). -1 when no card is legal. Scan order and early exits: scan.py."""
    h = st.hand
    nxt = seat_after(st, p)
    hn = h[nxt, HSIZE]
    threat = hn <= THREAT
    next_small = hn <= 2
    two = st.s[S_NP] == 2
    c = st.s[S_COLOUR]
    ft = KIND_FACE[st.s[S_TOP]]
    best = -1
    best_score = -1e18
    left = h[p, CC + c]  # the colour in play
    if left > 0:
        col = 2.0 * left
        base = colour_run(c)
        for k in range(base, base + KINDS_PER_COLOUR):
            m = h[p, k]
            if m == 0:
                continue
            sc = coloured_score(pts, k, col, threat, two, next_small)
            if sc > best_score:
                best_score = sc
                best = k
            left -= m
            if left == 0:
                break
    if holds_other_colours(st, p, c, ft):  # the other colours' cards of the top face
        two_kinds = spin_face(ft)
        for c2 in range(4):
            if c2 == c or h[p, CC + c2] == 0:
                continue
            col = 2.0 * h[p, CC + c2]
            k = face_kind(c2, ft, 0)
            if h[p, k] > 0:
                sc = coloured_score(pts, k, col, threat, two, next_small)
                if sc > best_score:
                    best_score = sc
                    best = k
            if two_kinds:
                k = face_kind(c2, ft, 1)  # a Spin card: a number's score
                if h[p, k] > 0:
                    sc = pts[k] + col
                    if sc > best_score:
                        best_score = sc
                        best = k
    if h[p, CC + 4] > 0:  # the wilds
        for k in range(FIRST_WILD, N_KINDS):
            if h[p, k] == 0:
                continue
            if k == WILD_DRAW_FOUR:
                if not wd4_ok:
                    continue
                if threat:
                    sc = 3000.0
                else:
                    sc = 300.0 if next_small else -200.0
            else:
                sc = 250.0 if next_small else -100.0
            if sc > best_score:
                best_score = sc
                best = k
    return best
