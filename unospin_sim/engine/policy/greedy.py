"""Strategy ``greedy``: sheds the most points first (docs/BOTS.md).

Its card is the legal one worth the most points (wilds count their points: a Wild Draw Four
or any wild 50, an action card 20, a number its value; first in scan order on ties). Its
wheel choices shed points too: it keeps its two cheapest cards at Almost UNO and discards its
dearest card after a race. Everything else is ``heuristic``'s choice.

The functions read the state; they change nothing else.
"""

from ...rules.cards import FIRST_WILD, KIND_FACE, KINDS_PER_COLOUR, N_KINDS, WILD_DRAW_FOUR
from ..jit import inl
from ..layout import CC, S_COLOUR, S_TOP, TMP
from ..legal import face_kind
from .scan import colour_run, holds_other_colours, spin_face


@inl
def choose_card(st, pts, p, wd4_ok):
    """The legal card worth the most points (first in scan order on ties), -1 when none.
    Scan order and early exits: scan.py."""
    h = st.hand
    c = st.s[S_COLOUR]
    f = KIND_FACE[st.s[S_TOP]]
    best = -1
    best_pts = -1
    left = h[p, CC + c]  # the colour in play
    if left > 0:
        base = colour_run(c)
        for k in range(base, base + KINDS_PER_COLOUR):
            m = h[p, k]
            if m == 0:
                continue
            if pts[k] > best_pts:
                best_pts = pts[k]
                best = k
            left -= m
            if left == 0:
                break
    if holds_other_colours(st, p, c, f):  # the other colours' cards of the top face
        n_kinds = 2 if spin_face(f) else 1
        for c2 in range(4):
            if c2 == c or h[p, CC + c2] == 0:
                continue
            for spin in range(n_kinds):
                k = face_kind(c2, f, spin)
                if h[p, k] > 0 and pts[k] > best_pts:
                    best_pts = pts[k]
                    best = k
    if h[p, CC + 4] > 0:  # the wilds
        for k in range(FIRST_WILD, N_KINDS):
            if h[p, k] > 0 and (k != WILD_DRAW_FOUR or wd4_ok) and pts[k] > best_pts:
                best_pts = pts[k]
                best = k
    return best


@inl
def almost_uno_keep(st, pts, n):
    """Almost UNO: keep the two cheapest cards (the dearest are discarded). Two passes of a
    selection of the minimum into the last two slots of st.cards[TMP:TMP+n]."""
    for keep in range(2):
        j = n - 1 - keep
        m = 0
        for i in range(1, j + 1):
            if pts[st.cards[TMP + i]] < pts[st.cards[TMP + m]]:
                m = i
        t = st.cards[TMP + m]
        st.cards[TMP + m] = st.cards[TMP + j]
        st.cards[TMP + j] = t


@inl
def race_discard(st, pts, w):
    """UNO Spin race winner's discard: the card worth the most points, wilds included."""
    k = -1
    best = -1
    for k2 in range(N_KINDS):
        if st.hand[w, k2] > 0 and pts[k2] > best:
            best = pts[k2]
            k = k2
    return k
