"""Strategy ``aggressor``: aims Skips, Draw Twos and Wild Draw Fours at a next player low on
cards (<= THREAT cards); otherwise plays like ``heuristic`` (docs/BOTS.md).

The functions read the state; they change nothing else.
"""

from ...rules.card_codes import FACE_DRAW_TWO, FACE_REVERSE, FACE_SKIP, KIND_FACE, WILD_DRAW_FOUR
from ..jit import inl
from ..layout import HSIZE, S_NP
from ..piles import seat_after
from . import heuristic as H
from .scan import best_kind

#: a next player holding this many cards or fewer is attacked
THREAT = 3


@inl
def coloured_score(st, pts, p, k, c, n, ctx):
    """Score of coloured kind k, colour c, n cards of it held (``ctx``: (threat, two,
    next_small); ``two``: two players), for scan.best_kind: the attack scores when
    ``threat``, else heuristic's card score (a Spin card's face is its number)."""
    threat, two, next_small = ctx
    f = KIND_FACE[k]
    if threat:
        if f == FACE_DRAW_TWO:
            return 2000.0 + pts[k], ctx
        if f == FACE_SKIP or (f == FACE_REVERSE and two):
            return 1000.0 + pts[k], ctx
    sc = pts[k] + 2.0 * n
    if f >= FACE_SKIP and next_small:
        sc += 100.0
    return sc, ctx


@inl
def wild_score(st, pts, p, k, ctx):
    """Score of wild kind k (``ctx``: (threat, two, next_small)), for scan.best_kind: a Wild
    Draw Four 3000 when ``threat``, else heuristic's card score."""
    threat, two, next_small = ctx
    if k == WILD_DRAW_FOUR:
        if threat:
            return 3000.0, ctx
        return (300.0 if next_small else -200.0), ctx
    return (250.0 if next_small else -100.0), ctx


@inl
def choose_card(st, r, pts, cum, p, wd4_ok):
    """Next player at <= THREAT cards: Wild Draw Four first, then Draw Two, then Skip (and
    Reverse with two players, where it skips), the dearest first; else heuristic's card
    score. Otherwise exactly heuristic's choice (its score and scan order, in
    one pass). -1 when no card is legal. Scan order and early exits: scan.best_kind."""
    hn = st.hand[seat_after(st, p), HSIZE]
    ctx = (hn <= THREAT, st.s[S_NP] == 2, hn <= 2)
    return best_kind(st, pts, p, wd4_ok, coloured_score, wild_score, ctx, -1e18)[0]


# ==================================================================== its decisions
# One function per question of policy.decisions.DECISIONS, with the question's parameters;
# a question not answered below is answered above, under its name.


@inl
def choose_card_rl(st, pts, p):
    """rlcard: :func:`choose_card`, never a Wild Draw Four."""
    hn = st.hand[seat_after(st, p), HSIZE]
    ctx = (hn <= THREAT, st.s[S_NP] == 2, hn <= 2)
    return best_kind(st, pts, p, False, coloured_score, wild_score, ctx, -1e18)[0]


# everything else: heuristic's choice
choose_colour = H.choose_colour
colour_to_discard = H.colour_to_discard
colour_to_draw = H.colour_to_draw
number_to_discard = H.number_to_discard
almost_uno_keep = H.almost_uno_keep
race_discard = H.race_discard
card_to_give = H.card_to_give
draw_two_to_stack = H.draw_two_to_stack
swap_target = H.swap_target
web_swing_target = H.web_swing_target
jumps_in = H.jumps_in
rl_action = H.rl_action
DRAW_SHOWS = H.DRAW_SHOWS
