"""Strategy ``colour_keeper``: keeps the colour it holds most in play, and moves play to it
(docs/BOTS.md).

Its *best colour* is the colour it holds most cards of (first on ties). It plays a card of
its best colour when it can; when another colour is in play it switches to its best colour,
by a card of that colour matching the top card's face, or else by a wild naming it; it keeps
its wilds while its best colour is in play.

The functions read the state; they change nothing else.
"""

from ...rules.cards import (FIRST_WILD, KIND_COLOUR, KIND_FACE, KINDS_PER_COLOUR, N_KINDS,
                            WILD_DRAW_FOUR)
from ..jit import inl
from ..layout import CC, S_COLOUR, S_TOP, TMP
from ..legal import face_kind
from .scan import colour_run, holds_other_colours, spin_face


@inl
def best_colour(st, p):
    """The colour seat p holds most cards of (first on ties)."""
    b = 0
    for c in range(1, 4):
        if st.hand[p, CC + c] > st.hand[p, CC + b]:
            b = c
    return b


@inl
def choose_card(st, pts, p, wd4_ok):
    """The legal card of best score (first in scan order on ties), -1 when none: a card of
    its best colour 200 + points; another coloured card points + 2 x cards held of its
    colour; a wild 150 (Wild Draw Four 140) when play is in another colour, else -100
    (-200). Scan order and early exits: scan.py."""
    h = st.hand
    b = best_colour(st, p)
    c = st.s[S_COLOUR]
    f = KIND_FACE[st.s[S_TOP]]
    off = c != b
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
            if off:
                sc = pts[k] + col
            else:
                sc = 200.0 + pts[k]
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
                    if c2 == b:
                        sc = 200.0 + pts[k]
                    else:
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
                sc = 140.0 if off else -200.0
            else:
                sc = 150.0 if off else -100.0
            if sc > best_score:
                best_score = sc
                best = k
    return best


@inl
def held_colour(st, p):
    """Discard by colour: the colour it holds most cards of (sheds the most cards)."""
    return best_colour(st, p)


@inl
def almost_uno_keep(st, p, n):
    """Almost UNO: keep wilds first, then cards of its best colour, then the last listed
    (st.cards[TMP:TMP+n] lists the hand; the two kept end up last)."""
    b = best_colour(st, p)
    keep = 0
    for want in range(2):
        for i in range(n - 1 - keep, -1, -1):
            if keep >= 2:
                break
            k = st.cards[TMP + i]
            hit = k >= FIRST_WILD if want == 0 else (k < FIRST_WILD and KIND_COLOUR[k] == b)
            if hit:
                j = n - 1 - keep
                st.cards[TMP + i] = st.cards[TMP + j]
                st.cards[TMP + j] = k
                keep += 1


@inl
def race_discard(st, pts, w):
    """UNO Spin race winner's discard: the dearest card not of its best colour, wilds last
    (a card of its best colour only when it holds nothing else coloured)."""
    b = best_colour(st, w)
    k = -1
    best = -1000
    for k2 in range(N_KINDS):
        if st.hand[w, k2] > 0:
            if k2 >= FIRST_WILD:
                sc = -500
            elif KIND_COLOUR[k2] == b:
                sc = -100 + pts[k2]
            else:
                sc = pts[k2]
            if k < 0 or sc > best:
                best = sc
                k = k2
    return k
