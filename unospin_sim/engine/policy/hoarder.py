"""Strategy ``hoarder``: keeps its wilds and Wild Draw Fours until its hand is small
(<= HOARD_UNTIL cards), and draws instead of playing one while its only legal cards are
wilds it keeps (the official rules allow drawing instead of playing; docs/BOTS.md).

The functions read the state; they change nothing else.
"""

from ...rules.card_codes import FIRST_WILD, N_KINDS, WILD_DRAW_FOUR
from ..jit import inl
from ..layout import HSIZE, S_DISC_N, S_DRAW_N
from . import heuristic as H
from . import reveals
from .scan import NEVER, best_kind

#: the hand size from which it plays wilds like any other card
HOARD_UNTIL = 3


@inl
def coloured_score(st, pts, p, k, c, n, ctx):
    """Score of coloured kind k, colour c, n cards of it held: points + 2 x n, for
    scan.best_kind."""
    return pts[k] + 2.0 * n, ctx


@inl
def wild_score(st, pts, p, k, ctx):
    """Score of wild kind k (``ctx``: (small, kept)), for scan.best_kind: its points when
    the hand is small; else scan.NEVER, and ``kept`` notes the cheapest-to-give-up legal wild
    seen (a plain wild before a Wild Draw Four; -1: none yet)."""
    small, kept = ctx
    if small:
        return pts[k] + 0.0, ctx
    if kept < 0 or (kept == WILD_DRAW_FOUR and k != WILD_DRAW_FOUR):
        kept = k
    return NEVER, (small, kept)


@inl
def best_card(st, pts, p, wd4_ok, may_hold):
    """A coloured legal card (points + 2 x cards held of its colour, first on ties); a wild
    only when the hand is small (then the most points first), or when it may not draw
    instead (``may_hold`` False, e.g. rlcard) or nothing is left to draw. -1: draw (holding
    legal wilds it keeps, or no legal card). Scan order and early exits: scan.best_kind."""
    small = st.hand[p, HSIZE] <= HOARD_UNTIL
    best, ctx = best_kind(st, pts, p, wd4_ok, coloured_score, wild_score, (small, -1), -1e18)
    if best >= 0:
        return best
    if may_hold and st.s[S_DRAW_N] + st.s[S_DISC_N] > 0:
        return -1
    return ctx[1]  # the kept wild, -1 when none


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


@inl
def card_to_give(st, pts, p, t):
    """A wheel program's give, to seat t: its UNO Spin race discard (the coloured card
    worth the most points; a wild only when it holds nothing else)."""
    return race_discard(st, pts, p)


# ==================================================================== its decisions
# One function per question of policy.decisions.DECISIONS, with the question's parameters;
# a question not answered below is answered above, under its name.


@inl
def choose_card(st, r, pts, cum, p, wd4_ok):
    """A coloured legal card, a wild only when the hand is small; -1: draw, also while its
    only legal cards are wilds it keeps: :func:`best_card` with ``may_hold``, written out
    (the turn's call compiles one inline level less)."""
    small = st.hand[p, HSIZE] <= HOARD_UNTIL
    best, ctx = best_kind(st, pts, p, wd4_ok, coloured_score, wild_score, (small, -1), -1e18)
    if best >= 0:
        return best
    if st.s[S_DRAW_N] + st.s[S_DISC_N] > 0:
        return -1
    return ctx[1]  # the kept wild, -1 when none


@inl
def choose_card_rl(st, pts, p):
    """rlcard: :func:`best_card`, never a Wild Draw Four and never a draw while a card is
    legal (RLCard offers the draw only when nothing is)."""
    return best_card(st, pts, p, False, False)


#: what its draw shows (reveals.py): it may draw while holding a legal wild it keeps, so
#: not that it holds no wild
DRAW_SHOWS = reveals.NO_LEGAL_CARD


# everything else: heuristic's choice
choose_colour = H.choose_colour
colour_to_discard = H.colour_to_discard
colour_to_draw = H.colour_to_draw
number_to_discard = H.number_to_discard
almost_uno_keep = H.almost_uno_keep
draw_two_to_stack = H.draw_two_to_stack
swap_target = H.swap_target
web_swing_target = H.web_swing_target
jumps_in = H.jumps_in
rl_action = H.rl_action
