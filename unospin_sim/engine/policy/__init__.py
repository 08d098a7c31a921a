"""The policy home: every choice the rules give a player, one function each.

Rule code asks these functions and acts on the answer; a policy function reads the state and
may draw from the game's random stream, and changes nothing else. Each function dispatches
on the seat's strategy id (``bots[p, B_STRATEGY]``, ids from the registry
``unospin_sim.bots.STRATEGIES``) to the function of the same name in the strategy's module.
Every strategy module exports the whole decision set (:data:`DECISIONS`, and the constant
``DRAW_PROVES``), with the same arguments in every module: its own choices, and under the same names the functions of the
strategy it defers to (``from .heuristic import ...``), so one file says what a strategy
does and every dispatcher here is the same chain, one branch per strategy in registry order.
A strategy id with no branch here gets a sentinel (-1, False for yes/no, 0 for a set of
bits), never another strategy's answer: :data:`IMPLEMENTED` lists the strategies,
``encode`` refuses any other, and ``tests/test_policy.py`` checks that every module exports
every decision and that every dispatcher reaches it.

The knob decisions (bluff, challenge, UNO call, catch) are the same for every strategy: the
knob is the probability.

How it compiles (engine/jit.py): the questions asked on most turns (``choose_card``,
``choose_colour``, ``void_on_draw``, the knobs) are inlined into the turn, with random's and
heuristic's answers inlined too and every added strategy behind one called function
(``*_added``); the questions asked only on a wheel space, under a house rule or under
rlcard are called functions (``hot``), compiled once whatever calls them.

Adding a strategy: a module beside these exporting every name of :data:`DECISIONS`, one
branch in each chain below, its name in ``bots.STRATEGIES`` and in :data:`IMPLEMENTED`, a
paragraph in docs/BOTS.md, tests.
"""

from ...bots import (B_BLUFF, B_CATCH, B_CHALLENGE, B_FORGET, B_JUMP, B_STRATEGY,
                     STRATEGY_AGGRESSOR,
                     STRATEGY_COLOUR_KEEPER, STRATEGY_GREEDY, STRATEGY_HEURISTIC,
                     STRATEGY_HOARDER, STRATEGY_RANDOM, STRATEGY_SEARCH, STRATEGY_SPIN_AWARE)
from ...rules.cards import FIRST_WILD, KIND_FACE, WILD_COLOUR
from ..jit import hot, inl
from ..layout import DRAW_PROVES_MATCH, DRAW_PROVES_WILD, S_TOP, VOID_FACE
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

#: the decision set every strategy module exports, each with these arguments (the policy
#: function's, without ``bots``; ``swap_target`` gets the partner ``pp`` too)
DECISIONS = {
    "choose_card": "st, r, pts, cum, p, wd4_ok",
    "choose_card_rl": "st, pts, p",
    "choose_colour": "st, p",
    "colour_to_discard": "st, pts, p",
    "colour_to_draw": "st, p",
    "number_to_discard": "st, p",
    "almost_uno_keep": "st, pts, p, n",
    "race_discard": "st, pts, w",
    "draw_two_to_stack": "st, p, n",
    "swap_target": "st, p, pp",
    "web_swing_target": "st, p, c, n, lim",
    "jumps_in": "st, q, k",
    "rl_action": "st, p, n",
}
#: and one constant: DRAW_PROVES, what the strategy's draw at its turn proves (layout bits
#: DRAW_PROVES_MATCH, DRAW_PROVES_WILD), read by :func:`void_on_draw`
# DRAW_PROVES is indexed by strategy id: the ids must run in IMPLEMENTED's order
assert (STRATEGY_RANDOM, STRATEGY_HEURISTIC, STRATEGY_GREEDY, STRATEGY_HOARDER,
        STRATEGY_COLOUR_KEEPER, STRATEGY_AGGRESSOR, STRATEGY_SPIN_AWARE,
        STRATEGY_SEARCH) == tuple(range(len(IMPLEMENTED))), "strategy ids out of order"


# ==================================================================== cards and colours
@inl
def choose_card(st, r, pts, cum, bots, p, wd4_ok):
    """The card kind seat p plays from its hand now, or -1 to draw instead. ``wd4_ok``: a
    Wild Draw Four counts as playable (legal, or a bluff the bot decided on). -1 while a
    card is legal is a choice too (``hoarder`` draws instead of playing a wild it keeps;
    the official rules allow it)."""
    sid = bots[p, B_STRATEGY]
    if sid == STRATEGY_RANDOM:
        return R.choose_card(st, r, pts, cum, p, wd4_ok)
    if sid == STRATEGY_HEURISTIC:
        return H.choose_card(st, r, pts, cum, p, wd4_ok)
    return choose_card_added(st, r, pts, cum, bots, p, wd4_ok)


@hot
def choose_card_added(st, r, pts, cum, bots, p, wd4_ok):
    """:func:`choose_card` for the strategies added after random and heuristic."""
    sid = bots[p, B_STRATEGY]
    if sid == STRATEGY_GREEDY:
        return G.choose_card(st, r, pts, cum, p, wd4_ok)
    if sid == STRATEGY_HOARDER:
        return HO.choose_card(st, r, pts, cum, p, wd4_ok)
    if sid == STRATEGY_COLOUR_KEEPER:
        return CK.choose_card(st, r, pts, cum, p, wd4_ok)
    if sid == STRATEGY_AGGRESSOR:
        return AG.choose_card(st, r, pts, cum, p, wd4_ok)
    if sid == STRATEGY_SPIN_AWARE:
        return SA.choose_card(st, r, pts, cum, p, wd4_ok)
    if sid == STRATEGY_SEARCH:
        return SE.choose_card(st, r, pts, cum, p, wd4_ok)
    return -1


@hot
def choose_card_rl(st, pts, bots, p):
    """Rule option rlcard, a strategy playing its own card choice (``rl_action`` -1): the
    card kind, never a Wild Draw Four (RLCard offers it only when nothing else is legal,
    ``rlcard.choose_rl`` handles that) and never a draw while a card is legal (RLCard offers
    the draw only when nothing is). rlcard is classic only: no wheel."""
    sid = bots[p, B_STRATEGY]
    if sid == STRATEGY_RANDOM:
        return R.choose_card_rl(st, pts, p)
    if sid == STRATEGY_HEURISTIC:
        return H.choose_card_rl(st, pts, p)
    if sid == STRATEGY_GREEDY:
        return G.choose_card_rl(st, pts, p)
    if sid == STRATEGY_HOARDER:
        return HO.choose_card_rl(st, pts, p)
    if sid == STRATEGY_COLOUR_KEEPER:
        return CK.choose_card_rl(st, pts, p)
    if sid == STRATEGY_AGGRESSOR:
        return AG.choose_card_rl(st, pts, p)
    if sid == STRATEGY_SPIN_AWARE:
        return SA.choose_card_rl(st, pts, p)
    if sid == STRATEGY_SEARCH:
        return SE.choose_card_rl(st, pts, p)
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
    if sid == STRATEGY_GREEDY:
        return G.choose_colour(st, p)
    if sid == STRATEGY_HOARDER:
        return HO.choose_colour(st, p)
    if sid == STRATEGY_COLOUR_KEEPER:
        return CK.choose_colour(st, p)
    if sid == STRATEGY_AGGRESSOR:
        return AG.choose_colour(st, p)
    if sid == STRATEGY_SPIN_AWARE:
        return SA.choose_colour(st, p)
    if sid == STRATEGY_SEARCH:
        return SE.choose_colour(st, p)
    return -1


@hot
def colour_to_discard(st, pts, bots, p):
    """The colour seat p names for a wheel discard by colour (2005 Discard Color, 2025
    Color Discard)."""
    sid = bots[p, B_STRATEGY]
    if sid == STRATEGY_RANDOM:
        return R.colour_to_discard(st, pts, p)
    if sid == STRATEGY_HEURISTIC:
        return H.colour_to_discard(st, pts, p)
    if sid == STRATEGY_GREEDY:
        return G.colour_to_discard(st, pts, p)
    if sid == STRATEGY_HOARDER:
        return HO.colour_to_discard(st, pts, p)
    if sid == STRATEGY_COLOUR_KEEPER:
        return CK.colour_to_discard(st, pts, p)
    if sid == STRATEGY_AGGRESSOR:
        return AG.colour_to_discard(st, pts, p)
    if sid == STRATEGY_SPIN_AWARE:
        return SA.colour_to_discard(st, pts, p)
    if sid == STRATEGY_SEARCH:
        return SE.colour_to_discard(st, pts, p)
    return -1


@hot
def colour_to_draw(st, bots, p):
    """The colour seat p names for the 2025 Wild Color Draw (it draws until that colour)."""
    sid = bots[p, B_STRATEGY]
    if sid == STRATEGY_RANDOM:
        return R.colour_to_draw(st, p)
    if sid == STRATEGY_HEURISTIC:
        return H.colour_to_draw(st, p)
    if sid == STRATEGY_GREEDY:
        return G.colour_to_draw(st, p)
    if sid == STRATEGY_HOARDER:
        return HO.colour_to_draw(st, p)
    if sid == STRATEGY_COLOUR_KEEPER:
        return CK.colour_to_draw(st, p)
    if sid == STRATEGY_AGGRESSOR:
        return AG.colour_to_draw(st, p)
    if sid == STRATEGY_SPIN_AWARE:
        return SA.colour_to_draw(st, p)
    if sid == STRATEGY_SEARCH:
        return SE.colour_to_draw(st, p)
    return -1


@hot
def number_to_discard(st, bots, p):
    """The number (0-9) seat p names for the 2005 Discard Number."""
    sid = bots[p, B_STRATEGY]
    if sid == STRATEGY_RANDOM:
        return R.number_to_discard(st, p)
    if sid == STRATEGY_HEURISTIC:
        return H.number_to_discard(st, p)
    if sid == STRATEGY_GREEDY:
        return G.number_to_discard(st, p)
    if sid == STRATEGY_HOARDER:
        return HO.number_to_discard(st, p)
    if sid == STRATEGY_COLOUR_KEEPER:
        return CK.number_to_discard(st, p)
    if sid == STRATEGY_AGGRESSOR:
        return AG.number_to_discard(st, p)
    if sid == STRATEGY_SPIN_AWARE:
        return SA.number_to_discard(st, p)
    if sid == STRATEGY_SEARCH:
        return SE.number_to_discard(st, p)
    return -1


@hot
def almost_uno_keep(st, pts, bots, p, n):
    """2005 Almost UNO: st.cards[TMP:TMP+n] lists seat p's hand; reorder it so that the two
    cards p keeps are the last two (the rest are discarded). Writes only that scratch."""
    sid = bots[p, B_STRATEGY]
    if sid == STRATEGY_RANDOM:
        R.almost_uno_keep(st, pts, p, n)
        return
    if sid == STRATEGY_HEURISTIC:
        H.almost_uno_keep(st, pts, p, n)
        return
    if sid == STRATEGY_GREEDY:
        G.almost_uno_keep(st, pts, p, n)
        return
    if sid == STRATEGY_HOARDER:
        HO.almost_uno_keep(st, pts, p, n)
        return
    if sid == STRATEGY_COLOUR_KEEPER:
        CK.almost_uno_keep(st, pts, p, n)
        return
    if sid == STRATEGY_AGGRESSOR:
        AG.almost_uno_keep(st, pts, p, n)
        return
    if sid == STRATEGY_SPIN_AWARE:
        SA.almost_uno_keep(st, pts, p, n)
        return
    if sid == STRATEGY_SEARCH:
        SE.almost_uno_keep(st, pts, p, n)
        return


@hot
def race_discard(st, pts, bots, w):
    """The card seat w, the winner of the 2005 UNO Spin race, discards."""
    sid = bots[w, B_STRATEGY]
    if sid == STRATEGY_RANDOM:
        return R.race_discard(st, pts, w)
    if sid == STRATEGY_HEURISTIC:
        return H.race_discard(st, pts, w)
    if sid == STRATEGY_GREEDY:
        return G.race_discard(st, pts, w)
    if sid == STRATEGY_HOARDER:
        return HO.race_discard(st, pts, w)
    if sid == STRATEGY_COLOUR_KEEPER:
        return CK.race_discard(st, pts, w)
    if sid == STRATEGY_AGGRESSOR:
        return AG.race_discard(st, pts, w)
    if sid == STRATEGY_SPIN_AWARE:
        return SA.race_discard(st, pts, w)
    if sid == STRATEGY_SEARCH:
        return SE.race_discard(st, pts, w)
    return -1


@hot
def draw_two_to_stack(st, bots, p, n):
    """Stacking: which of its n Draw Two instances seat p stacks (it always stacks when it
    can)."""
    sid = bots[p, B_STRATEGY]
    if sid == STRATEGY_RANDOM:
        return R.draw_two_to_stack(st, p, n)
    if sid == STRATEGY_HEURISTIC:
        return H.draw_two_to_stack(st, p, n)
    if sid == STRATEGY_GREEDY:
        return G.draw_two_to_stack(st, p, n)
    if sid == STRATEGY_HOARDER:
        return HO.draw_two_to_stack(st, p, n)
    if sid == STRATEGY_COLOUR_KEEPER:
        return CK.draw_two_to_stack(st, p, n)
    if sid == STRATEGY_AGGRESSOR:
        return AG.draw_two_to_stack(st, p, n)
    if sid == STRATEGY_SPIN_AWARE:
        return SA.draw_two_to_stack(st, p, n)
    if sid == STRATEGY_SEARCH:
        return SE.draw_two_to_stack(st, p, n)
    return -1


# ==================================================================== target seats

@hot
def swap_target(st, bots, p):
    """The seat p swaps hands with (2025 Swap Hands, a 7 under seven_o, Wild Swap Hands).
    Under partners never the partner (every strategy): ``pp`` is the partner, -1 without
    teams."""
    sid = bots[p, B_STRATEGY]
    pp = partner_of(st, p)
    if sid == STRATEGY_RANDOM:
        return R.swap_target(st, p, pp)
    if sid == STRATEGY_HEURISTIC:
        return H.swap_target(st, p, pp)
    if sid == STRATEGY_GREEDY:
        return G.swap_target(st, p, pp)
    if sid == STRATEGY_HOARDER:
        return HO.swap_target(st, p, pp)
    if sid == STRATEGY_COLOUR_KEEPER:
        return CK.swap_target(st, p, pp)
    if sid == STRATEGY_AGGRESSOR:
        return AG.swap_target(st, p, pp)
    if sid == STRATEGY_SPIN_AWARE:
        return SA.swap_target(st, p, pp)
    if sid == STRATEGY_SEARCH:
        return SE.swap_target(st, p, pp)
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
        return H.web_swing_target(st, p, c, n, lim)
    if sid == STRATEGY_GREEDY:
        return G.web_swing_target(st, p, c, n, lim)
    if sid == STRATEGY_HOARDER:
        return HO.web_swing_target(st, p, c, n, lim)
    if sid == STRATEGY_COLOUR_KEEPER:
        return CK.web_swing_target(st, p, c, n, lim)
    if sid == STRATEGY_AGGRESSOR:
        return AG.web_swing_target(st, p, c, n, lim)
    if sid == STRATEGY_SPIN_AWARE:
        return SA.web_swing_target(st, p, c, n, lim)
    if sid == STRATEGY_SEARCH:
        return SE.web_swing_target(st, p, c, n, lim)
    return -1


# ==================================================================== jump_in
@hot
def jumps_in(st, bots, q, k):
    """jump_in: seat q, holding kind k identical to the card just played (and not the seat
    to act), plays it out of turn now. The strategy decides (never past the partner's turn
    under partners), then the knob ``jump`` is the probability."""
    if not strategy_jumps_in(st, bots, q, k):
        return False
    pj = bots[q, B_JUMP]
    return pj >= 1.0 or (pj > 0.0 and unif(st.s) < pj)


@inl
def strategy_jumps_in(st, bots, q, k):
    """The strategy's side of :func:`jumps_in` (before the knob)."""
    sid = bots[q, B_STRATEGY]
    if sid == STRATEGY_RANDOM:
        return R.jumps_in(st, q, k)
    if sid == STRATEGY_HEURISTIC:
        return H.jumps_in(st, q, k)
    if sid == STRATEGY_GREEDY:
        return G.jumps_in(st, q, k)
    if sid == STRATEGY_HOARDER:
        return HO.jumps_in(st, q, k)
    if sid == STRATEGY_COLOUR_KEEPER:
        return CK.jumps_in(st, q, k)
    if sid == STRATEGY_AGGRESSOR:
        return AG.jumps_in(st, q, k)
    if sid == STRATEGY_SPIN_AWARE:
        return SA.jumps_in(st, q, k)
    if sid == STRATEGY_SEARCH:
        return SE.jumps_in(st, q, k)
    return False


# ==================================================================== rlcard actions

@hot
def rl_action(st, bots, p, n):
    """Rule option rlcard: the index of seat p's action among RLCard's n legal action ids,
    or -1 when the strategy plays its own card choice instead (``choose_card_rl``)."""
    sid = bots[p, B_STRATEGY]
    if sid == STRATEGY_RANDOM:
        return R.rl_action(st, p, n)
    if sid == STRATEGY_HEURISTIC:
        return H.rl_action(st, p, n)
    if sid == STRATEGY_GREEDY:
        return G.rl_action(st, p, n)
    if sid == STRATEGY_HOARDER:
        return HO.rl_action(st, p, n)
    if sid == STRATEGY_COLOUR_KEEPER:
        return CK.rl_action(st, p, n)
    if sid == STRATEGY_AGGRESSOR:
        return AG.rl_action(st, p, n)
    if sid == STRATEGY_SPIN_AWARE:
        return SA.rl_action(st, p, n)
    if sid == STRATEGY_SEARCH:
        return SE.rl_action(st, p, n)
    return -1


# ==================================================================== what a draw tells
#: per strategy id (registry order, as IMPLEMENTED): each module's DRAW_PROVES
DRAW_PROVES = (R.DRAW_PROVES, H.DRAW_PROVES, G.DRAW_PROVES, HO.DRAW_PROVES, CK.DRAW_PROVES,
               AG.DRAW_PROVES, SA.DRAW_PROVES, SE.DRAW_PROVES)


@inl
def void_on_draw(st, bots, p, c):
    """The ``layout.VOID`` bits that seat p's draw at its turn proves, colour c in play (on
    the top card ``S_TOP``), known to every seat (search's determinization uses them): what
    the strategy's module says its draws prove (``DRAW_PROVES``: random, heuristic and the
    strategies deferring to them draw only for want of a legal card; hoarder may hold wilds
    while drawing; search may draw by choice). A table, not a chain of calls: it is asked at
    every draw."""
    sid = bots[p, B_STRATEGY]
    if sid < 0 or sid >= len(DRAW_PROVES):
        return 0
    f = DRAW_PROVES[int(sid)]  # bots is a float array
    m = 0
    if f & DRAW_PROVES_MATCH:
        m = 1 << c
        top = st.s[S_TOP]
        if top < FIRST_WILD:
            m |= 1 << (VOID_FACE + KIND_FACE[top])
    if f & DRAW_PROVES_WILD:
        m |= 1 << WILD_COLOUR
    return m


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
