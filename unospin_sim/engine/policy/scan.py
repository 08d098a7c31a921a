"""The card choice of heuristic and the added strategies: one scan skeleton, a score each.

Every such strategy picks the legal card kind of best score, the first in *scan order* on
ties (the order of ``legal.nth_legal``): the kinds of the colour in play (kind order), then
the other colours' kinds matching the top card's face (red, yellow, green, blue; a plain
number before the Spin card of that number), then the wilds (kind order; the Wild Draw Four
only when ``wd4_ok``). :func:`best_kind` is that scan, written once, in three straight
sections with these early exits, which skip only kinds not held:

- colour in play: skipped when the hand holds none of that colour (``hand[p, CC + c]``); it
  stops once all of them were seen (:func:`colour_run`);
- face matches: only when the top card's face is a coloured one (``f <= 12``), and per
  other colour only when the hand holds that colour;
- wilds: only when the hand holds a wild (``hand[p, CC + 4]``).

A strategy gives it two score functions, ``coloured`` for the kinds of a colour and
``wild`` for the wilds (``inl`` functions: numba inlines the skeleton and both scores into
the strategy's ``choose_card``, so each strategy still compiles to straight loops with its
score in them, and the scores know their section without a branch), and a tuple ``ctx`` of
what they need besides the card (the next player's hand size, the best colour...). A score
returns ``(score, ctx)``: a score that computes something once per choice (spin_aware's
spin bonus) or notes a kind it does not score (hoarder's kept wild) returns the new ctx,
which the skeleton passes to the next call and returns with the choice.

This shape replaced six copies of the three sections (one per strategy, each with its score
written into the loops), which had replaced a fixed 30-slot loop (``candidate(j)`` per slot,
a branch on the section in each). Each time the choices stayed identical (the same kinds in
the same order; the scores computed by the same float operations):
``benchmarks/identity.py kernel --strategies ...`` proves it.
"""

from ...rules.card_codes import (
    FIRST_WILD,
    KIND_FACE,
    KINDS_PER_COLOUR,
    MAX_SPIN_NUMBER,
    N_KINDS,
    WILD_DRAW_FOUR,
)
from ..jit import inl
from ..layout import CC, HSIZE, S_COLOUR, S_TOP
from ..legal import face_kind

#: the faces that have a Spin card besides the plain number (1-9; 6-9 under spin_cards >= 6)
SPIN_FACE_MIN, SPIN_FACE_MAX = 1, MAX_SPIN_NUMBER
#: the score of a kind a strategy will not play now (hoarder's kept wilds): never the best,
#: not even against the skeleton's start value
NEVER = -float("inf")


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
    """Has face f a Spin card of that number too (1-9)?"""
    return SPIN_FACE_MIN <= f <= SPIN_FACE_MAX


@inl
def best_kind(st, pts, p, wd4_ok, coloured, wild, ctx, lo):
    """The legal kind in seat p's hand of best score, the first in scan order on ties; -1
    when no kind scores above ``lo`` (none legal). Returns (kind, ctx after the scan).

    Parameters
    ----------
    coloured : inl function ``(st, pts, p, k, c, n, ctx) -> (score, ctx)``
        Score of coloured kind k of colour c; n: the cards of colour c seat p holds.
    wild : inl function ``(st, pts, p, k, ctx) -> (score, ctx)``
        Score of wild kind k (the Wild Draw Four only when ``wd4_ok``).
    ctx : tuple
        What the scores read besides the card; threaded through every call, in scan order.
    lo : float or int
        Start value of the best score: a kind is taken only when its score is greater
        (its type is the scores' type: greedy compares integer points).
    """
    h = st.hand
    c = st.s[S_COLOUR]
    f = KIND_FACE[st.s[S_TOP]]
    best = -1
    best_score = lo
    n = h[p, CC + c]  # the colour in play
    if n > 0:
        left = n
        base = colour_run(c)
        for k in range(base, base + KINDS_PER_COLOUR):
            m = h[p, k]
            if m == 0:
                continue
            sc, ctx = coloured(st, pts, p, k, c, n, ctx)
            if sc > best_score:
                best_score = sc
                best = k
            left -= m
            if left == 0:
                break
    if holds_other_colours(st, p, c, f):  # the other colours' cards of the top face
        two_kinds = spin_face(f)
        for c2 in range(4):
            n = h[p, CC + c2]
            if c2 == c or n == 0:
                continue
            k = face_kind(c2, f, 0)
            if h[p, k] > 0:
                sc, ctx = coloured(st, pts, p, k, c2, n, ctx)
                if sc > best_score:
                    best_score = sc
                    best = k
            if two_kinds:
                k = face_kind(c2, f, 1)  # the Spin card of that number
                if h[p, k] > 0:
                    sc, ctx = coloured(st, pts, p, k, c2, n, ctx)
                    if sc > best_score:
                        best_score = sc
                        best = k
    if h[p, CC + 4] > 0:  # the wilds
        for k in range(FIRST_WILD, N_KINDS):
            if h[p, k] == 0 or (k == WILD_DRAW_FOUR and not wd4_ok):
                continue
            sc, ctx = wild(st, pts, p, k, ctx)
            if sc > best_score:
                best_score = sc
                best = k
    return best, ctx
