"""The policy home: every choice the rules give a player, one function each.

Rule code asks these functions and acts on the answer; a policy function reads the state and
may draw from the game's random stream, and changes nothing else. Each function dispatches
on the seat's strategy id (``bots[p, B_STRATEGY]``, ids from the registry
``unospin_sim.bots.STRATEGIES``) to the strategy's own module (``random_bot``,
``heuristic``). A strategy id with no branch here falls through to a sentinel (-1, or
False for yes/no questions), never to another strategy: :data:`IMPLEMENTED` lists the
strategies every function here handles, ``encode`` refuses any other, and
``tests/test_policy.py`` checks every function against every strategy's module.

The knob decisions (bluff, challenge, UNO call, catch) are the same for every strategy: the
knob is the probability.

How it compiles (engine/jit.py): the questions asked on most turns (``choose_card``,
``choose_colour``, the knobs) are inlined into the turn, with random's and heuristic's
answers inlined too and every added strategy behind one called function
(``choose_card_added``, ``choose_colour_added``); the questions asked only on a wheel
space, under a house rule or under rlcard are called functions (``hot``), compiled once
whatever calls them.

Adding a strategy: a module beside these with its choice functions, one branch in each
function below, its name in ``bots.STRATEGIES`` and in :data:`IMPLEMENTED`, a paragraph in
docs/BOTS.md, tests.
"""

from ...bots import (B_BLUFF, B_CATCH, B_CHALLENGE, B_FORGET, B_JUMP, B_STRATEGY, STRATEGY_AGGRESSOR,
                     STRATEGY_COLOUR_KEEPER, STRATEGY_GREEDY, STRATEGY_HEURISTIC,
                     STRATEGY_HOARDER, STRATEGY_RANDOM, STRATEGY_SEARCH, STRATEGY_SPIN_AWARE)
from ..jit import hot, inl
from ..layout import R_WHEEL
from ..legal import partner_of
from ..rng import unif
from . import aggressor as AG
from . import colour_keeper as CK
from . import greedy as G
from . import heuristic as H
from . import hoarder as HO
from . import random_bot as R
from . import search_bot as SE
from . import spin_aware as SA

#: strategies (names in bots.STRATEGIES) that every function of this module implements
IMPLEMENTED = ("random", "heuristic", "greedy", "hoarder", "colour_keeper", "aggressor",
               "spin_aware", "search")


@inl
def _added(sid):
    """A strategy added after random and heuristic (their branches come first, so the
    default bots' speed does not depend on how many strategies there are). ``search``
    makes heuristic's choice everywhere but its first card of a normal turn."""
    return STRATEGY_GREEDY <= sid <= STRATEGY_SEARCH


# ==================================================================== cards and colours
@inl
def choose_card(st, r, pts, cum, bots, p, wd4_ok):
    """The card kind seat p plays from its hand now, or -1 to draw instead. ``wd4_ok``: a
    Wild Draw Four counts as playable (legal, or a bluff the bot decided on). -1 while a
    card is legal is a choice too (``hoarder`` draws instead of playing a wild it keeps;
    the official rules allow it). random and heuristic are compiled into the turn; every
    added strategy is one called function (:func:`choose_card_added`), compiled once."""
    sid = bots[p, B_STRATEGY]
    if sid == STRATEGY_RANDOM:
        return R.choose_card(st, p, wd4_ok)
    if sid == STRATEGY_HEURISTIC:
        return H.choose_card(st, pts, p, wd4_ok)
    return choose_card_added(st, r, pts, cum, bots, p, wd4_ok)


@hot
def choose_card_added(st, r, pts, cum, bots, p, wd4_ok):
    """:func:`choose_card` for the strategies added after random and heuristic."""
    sid = bots[p, B_STRATEGY]
    if sid == STRATEGY_GREEDY:
        return G.choose_card(st, pts, p, wd4_ok)
    if sid == STRATEGY_HOARDER:
        return HO.choose_card(st, pts, p, wd4_ok, True)
    if sid == STRATEGY_COLOUR_KEEPER:
        return CK.choose_card(st, pts, p, wd4_ok)
    if sid == STRATEGY_AGGRESSOR:
        return AG.choose_card(st, pts, p, wd4_ok)
    if sid == STRATEGY_SPIN_AWARE:
        return SA.choose_card(st, pts, cum, r[R_WHEEL], p, wd4_ok)
    if sid == STRATEGY_SEARCH:
        return SE.choose_card(st, pts, p, wd4_ok)
    return -1


@hot
def choose_card_rl(st, pts, bots, p):
    """Rule option rlcard, a strategy playing its own card choice (``rl_action`` -1): the
    card kind, never a Wild Draw Four (RLCard offers it only when nothing else is legal,
    ``rlcard.choose_rl`` handles that) and never a draw while a card is legal (RLCard offers
    the draw only when nothing is). rlcard is classic only: no wheel."""
    sid = bots[p, B_STRATEGY]
    if sid == STRATEGY_RANDOM:
        return R.choose_card(st, p, False)
    # spin_aware: no Spin cards without a wheel; search: no search under rlcard: both play
    # heuristic's choice
    if sid == STRATEGY_HEURISTIC or sid == STRATEGY_SPIN_AWARE or sid == STRATEGY_SEARCH:
        return H.choose_card(st, pts, p, False)
    if sid == STRATEGY_GREEDY:
        return G.choose_card(st, pts, p, False)
    if sid == STRATEGY_HOARDER:
        return HO.choose_card(st, pts, p, False, False)
    if sid == STRATEGY_COLOUR_KEEPER:
        return CK.choose_card(st, pts, p, False)
    if sid == STRATEGY_AGGRESSOR:
        return AG.choose_card(st, pts, p, False)
    return -1


@inl
def choose_colour(st, bots, p):
    """The colour (0-3) seat p names for a wild it played."""
    sid = bots[p, B_STRATEGY]
    if sid == STRATEGY_RANDOM:
        return R.choose_colour(st, p)
    if sid == STRATEGY_HEURISTIC:
        return H.choose_colour(st, p)
    return choose_colour_added(st, bots, p)


@hot
def choose_colour_added(st, bots, p):
    """:func:`choose_colour` for the strategies added after random and heuristic."""
    sid = bots[p, B_STRATEGY]
    if sid == STRATEGY_SEARCH:  # its searched colour (knob colours), else heuristic's
        return SE.choose_colour(st, p)
    if _added(sid):  # every other added strategy: the colour it holds most (colour_keeper's best)
        return H.choose_colour(st, p)
    return -1


@hot
def colour_to_discard(st, pts, bots, p):
    """The colour seat p names for a wheel discard by colour (2005 Discard Color, 2025
    Color Discard)."""
    sid = bots[p, B_STRATEGY]
    if sid == STRATEGY_RANDOM:
        return R.held_colour(st, p)
    if sid == STRATEGY_HEURISTIC:
        return H.held_colour(st, pts, p)
    if sid == STRATEGY_COLOUR_KEEPER:
        return CK.held_colour(st, p)
    if _added(sid):
        return H.held_colour(st, pts, p)
    return -1


@hot
def colour_to_draw(st, bots, p):
    """The colour seat p names for the 2025 Wild Color Draw (it draws until that colour)."""
    sid = bots[p, B_STRATEGY]
    if sid == STRATEGY_RANDOM:
        return R.held_colour(st, p)
    if sid == STRATEGY_HEURISTIC:
        return H.colour_to_draw(st, p)
    if _added(sid):
        return H.colour_to_draw(st, p)
    return -1


@hot
def number_to_discard(st, bots, p):
    """The number (0-9) seat p names for the 2005 Discard Number."""
    sid = bots[p, B_STRATEGY]
    if sid == STRATEGY_RANDOM:
        return R.number_to_discard(st, p)
    if sid == STRATEGY_HEURISTIC:
        return H.number_to_discard(st, p)
    if _added(sid):
        return H.number_to_discard(st, p)
    return -1


@hot
def almost_uno_keep(st, pts, bots, p, n):
    """2005 Almost UNO: st.cards[TMP:TMP+n] lists seat p's hand; reorder it so that the two
    cards p keeps are the last two (the rest are discarded). Writes only that scratch."""
    sid = bots[p, B_STRATEGY]
    if sid == STRATEGY_RANDOM:
        R.fill_keep(st, n, 0)
    elif sid == STRATEGY_HEURISTIC:
        H.almost_uno_keep(st, n)
    elif sid == STRATEGY_GREEDY:
        G.almost_uno_keep(st, pts, n)
    elif sid == STRATEGY_COLOUR_KEEPER:
        CK.almost_uno_keep(st, p, n)
    elif _added(sid):
        H.almost_uno_keep(st, n)


@hot
def race_discard(st, pts, bots, w):
    """The card seat w, the winner of the 2005 UNO Spin race, discards."""
    sid = bots[w, B_STRATEGY]
    if sid == STRATEGY_RANDOM:
        return R.race_discard(st, w)
    if sid == STRATEGY_HEURISTIC:
        return H.race_discard(st, pts, w)
    if sid == STRATEGY_GREEDY:
        return G.race_discard(st, pts, w)
    if sid == STRATEGY_HOARDER:
        return HO.race_discard(st, pts, w)
    if sid == STRATEGY_COLOUR_KEEPER:
        return CK.race_discard(st, pts, w)
    if _added(sid):
        return H.race_discard(st, pts, w)
    return -1


@hot
def draw_two_to_stack(st, bots, p, n):
    """Stacking: which of its n Draw Two instances seat p stacks (it always stacks when it
    can)."""
    sid = bots[p, B_STRATEGY]
    if sid == STRATEGY_RANDOM:
        return R.draw_two_to_stack(st, p, n)
    if sid == STRATEGY_HEURISTIC:
        return H.draw_two_to_stack(st, p)
    if _added(sid):
        return H.draw_two_to_stack(st, p)
    return -1


# ==================================================================== target seats
@hot
def swap_target(st, bots, p):
    """The seat p swaps hands with (2025 Swap Hands, a 7 under seven_o, Wild Swap Hands).
    Under partners never the partner (every strategy)."""
    sid = bots[p, B_STRATEGY]
    pp = partner_of(st, p)
    if sid == STRATEGY_RANDOM:
        return R.swap_target(st, p, pp)
    if sid == STRATEGY_HEURISTIC:
        return H.swap_target(st, p, pp)
    if _added(sid):  # the leader: the smallest other (opponent's) hand
        return H.swap_target(st, p, pp)
    return -1


@hot
def web_swing_target(st, bots, p, c, n, lim):
    """Wild Web Swing: the seat among the n others holding colour c less than ``lim`` seats
    away in turn order that play jumps to (``lim``: players, or under partners the
    partner's distance when such a target exists, so that the swing does not pass over
    the partner)."""
    sid = bots[p, B_STRATEGY]
    if sid == STRATEGY_RANDOM:
        return R.web_swing_target(st, p, c, n, lim)
    if sid == STRATEGY_HEURISTIC:
        return H.web_swing_target(st, p, c, lim)
    if _added(sid):
        return H.web_swing_target(st, p, c, lim)
    return -1


# ==================================================================== jump_in
@hot
def jumps_in(st, bots, q, k):
    """jump_in: seat q, holding kind k identical to the card just played (and not the seat
    to act), plays it out of turn now. The strategy decides (never past the partner's turn
    under partners), then the knob ``jump`` is the probability."""
    sid = bots[q, B_STRATEGY]
    if sid == STRATEGY_RANDOM:
        ok = R.jumps_in(st, q, k)
    elif sid == STRATEGY_HEURISTIC or _added(sid):
        ok = H.jumps_in(st, q, k)
    else:
        return False
    if not ok:
        return False
    pj = bots[q, B_JUMP]
    return pj >= 1.0 or (pj > 0.0 and unif(st.s) < pj)


# ==================================================================== rlcard actions
@hot
def rl_action(st, bots, p, n):
    """Rule option rlcard: the index of seat p's action among RLCard's n legal action ids,
    or -1 when the strategy plays its own card choice instead (``choose_card``)."""
    sid = bots[p, B_STRATEGY]
    if sid == STRATEGY_RANDOM:
        return R.rl_action(st, n)
    return -1


# ==================================================================== knobs
@inl
def bluffs(st, bots, p):
    """Seat p, holding a Wild Draw Four it may not play, counts it as playable this turn."""
    pb = bots[p, B_BLUFF]
    return pb > 0.0 and unif(st.s) < pb


@inl
def challenges(st, bots, v):
    """Seat v challenges the Wild Draw Four played on it."""
    pc = bots[v, B_CHALLENGE]
    return pc > 0.0 and unif(st.s) < pc


@inl
def forgets_uno(st, bots, p):
    """Seat p, down to one card, forgets to call UNO."""
    pf = bots[p, B_FORGET]
    return pf > 0.0 and unif(st.s) < pf


@inl
def catches(st, bots, q):
    """Seat q catches a player who forgot to call UNO."""
    pc = bots[q, B_CATCH]
    return pc > 0.0 and unif(st.s) < pc
