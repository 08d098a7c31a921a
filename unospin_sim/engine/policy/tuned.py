"""Strategy ``tuned``: heuristic's card ranking with weights an optimiser chose (docs/BOTS.md).

Its card is the legal one of best score, the first in scan order on ties. The score is a
weighted sum whose weights are its seat's knobs (``bots.TUNED_WEIGHTS``, columns
``bot_codes.B_W_*``), so an optimiser can try weights without compiling anything
(``python -m unospin_sim tune``):

- a coloured card: ``w_points`` x its points + ``w_colour`` x the cards held of its colour,
  plus ``w_attack`` for a Skip, Reverse or Draw Two while the next seat holds 2 cards or
  fewer (``w_action`` for one otherwise), plus ``w_void`` when the next seat is known to
  lack the card's colour (it drew for want of it: the VOID column, known to every seat);
- a wild: ``w_wild_attack`` while the next seat holds 2 cards or fewer, else ``w_wild``
  (``w_wd4_attack`` and ``w_wd4`` for a Wild Draw Four).

The colour it names for a wild is the one of best score, the first on ties: the cards held of
it, plus ``w_name_void`` when the next seat is known to lack it. Everything else is
``heuristic``'s choice. With ``bots.HEURISTIC_WEIGHTS`` it plays exactly as ``heuristic``
(tests/test_policy.py).

Its answers are called functions (``hot``), each compiled once: inlined into the dispatch
(``inl``) they cost a first run about 10% more compile time (docs/PERFORMANCE.md).

The functions read the state; they change nothing else.
"""

from ...rules.card_codes import FACE_SKIP, KIND_FACE, WILD_DRAW_FOUR
from ..bot_codes import (
    B_W_ACTION,
    B_W_ATTACK,
    B_W_COLOUR,
    B_W_NAME_VOID,
    B_W_POINTS,
    B_W_VOID,
    B_W_WD4,
    B_W_WD4_ATTACK,
    B_W_WILD,
    B_W_WILD_ATTACK,
)
from ..jit import hot, inl
from ..layout import CC, HSIZE
from ..piles import known_void, seat_after
from . import heuristic as H
from .scan import best_kind


@inl
def coloured_score(st, pts, p, k, c, n, ctx):
    """Score of coloured kind k, colour c, n cards of it held (``ctx``: (bots, next seat
    holds 2 cards or fewer, the next seat's VOID bits)), for scan.best_kind."""
    bots, next_small, void = ctx
    sc = bots[p, B_W_POINTS] * pts[k] + bots[p, B_W_COLOUR] * n
    if KIND_FACE[k] >= FACE_SKIP:
        sc += bots[p, B_W_ATTACK] if next_small else bots[p, B_W_ACTION]
    if (void >> c) & 1:
        sc += bots[p, B_W_VOID]
    return sc, ctx


@inl
def wild_score(st, pts, p, k, ctx):
    """Score of wild kind k (``ctx`` as :func:`coloured_score`), for scan.best_kind."""
    bots, next_small, void = ctx
    if k == WILD_DRAW_FOUR:
        return (bots[p, B_W_WD4_ATTACK] if next_small else bots[p, B_W_WD4]), ctx
    return (bots[p, B_W_WILD_ATTACK] if next_small else bots[p, B_W_WILD]), ctx


@inl
def _context(st, bots, p):
    """What the scores read besides the card: (bots, next seat small, its VOID bits)."""
    q = seat_after(st, p)
    return bots, st.hand[q, HSIZE] <= 2, known_void(st, q)


# ==================================================================== its decisions
# One function per question of policy.decisions.DECISIONS, with the question's parameters
# (and ``bots`` before the seat where it reads its weights); a question not answered below
# is answered by heuristic.


@hot
def choose_card(st, r, pts, cum, bots, p, wd4_ok):
    """The legal card of best score (first in scan order on ties), -1 when none."""
    return best_kind(st, pts, p, wd4_ok, coloured_score, wild_score, _context(st, bots, p), -1e18)[
        0
    ]


@hot
def choose_card_rl(st, pts, bots, p):
    """rlcard: :func:`choose_card`, never a Wild Draw Four."""
    return best_kind(st, pts, p, False, coloured_score, wild_score, _context(st, bots, p), -1e18)[0]


@hot
def choose_colour(st, bots, p):
    """Colour named for a wild: the best of (cards held of it + ``w_name_void`` when the next
    seat is known to lack it), the first on ties."""
    void = known_void(st, seat_after(st, p))
    w = bots[p, B_W_NAME_VOID]
    best = 0
    best_score = -1e18
    for c in range(4):
        sc = st.hand[p, CC + c] + (w if (void >> c) & 1 else 0.0)
        if sc > best_score:
            best_score = sc
            best = c
    return best


# everything else: heuristic's choice
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
#: what its draw shows (reveals.py): like heuristic, it draws only for want of a legal card
DRAW_SHOWS = H.DRAW_SHOWS
