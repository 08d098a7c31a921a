"""The policy home: every choice the rules give a player, one function each.

Rule code asks these functions and acts on the answer; a policy function reads the state and
may draw from the game's random stream, and changes nothing else. Each function hands the
question to the seat's strategy (``bots[p, B_STRATEGY]``, ids from the registry
``unospin_sim.bots.STRATEGIES``) through the generated dispatch (``dispatch.py``): every
strategy module (``random_bot``, ``heuristic``, ...) exports one function per question of
``decisions.DECISIONS``, its own or an alias of the one it shares, so one file says what a
strategy does. A strategy id with no module falls through to a sentinel (-1, or False for
yes/no questions), never to another strategy: :data:`IMPLEMENTED` lists the strategies,
``encode`` refuses any other, and ``tests/test_policy.py`` checks every question against
every strategy's module.

The knob decisions (bluff, challenge, UNO call, catch) are the same for every strategy: the
knob is the probability.

How it compiles (engine/jit.py): the questions asked on most turns (``choose_card``,
``choose_colour``, ``draw_reveals``, the knobs) are inlined into the turn, with random's and
heuristic's answers inlined too and every other strategy's behind one called function
(``dispatch.choose_card_added``, ``dispatch.choose_colour_added``); the questions asked only
on a wheel space, under a house rule or under rlcard are called functions (``hot``), compiled
once whatever calls them.

Adding a strategy: a module beside these exporting every question of
``decisions.DECISIONS``, its name in ``bots.STRATEGIES`` and in
``decisions.STRATEGY_MODULES``, ``python -m unospin_sim.engine.policy`` to write the
dispatch, a paragraph in docs/BOTS.md, tests.
"""

from ...bots import B_BLUFF, B_CATCH, B_CHALLENGE, B_FORGET, B_JUMP, B_STRATEGY
from ..jit import hot, inl
from ..legal import partner_of
from ..rng import unif
from . import dispatch as D
from .dispatch import IMPLEMENTED

__all__ = ["IMPLEMENTED", "almost_uno_keep", "bluffs", "catches", "challenges", "choose_card",
           "choose_card_rl", "choose_colour", "colour_to_discard", "colour_to_draw",
           "draw_reveals", "draw_two_to_stack", "forgets_uno", "jumps_in", "number_to_discard",
           "race_discard", "rl_action", "swap_target", "web_swing_target"]


# ==================================================================== cards and colours
@inl
def choose_card(st, r, pts, cum, bots, p, wd4_ok):
    """The card kind seat p plays from its hand now, or -1 to draw instead. ``wd4_ok``: a
    Wild Draw Four counts as playable (legal, or a bluff the bot decided on). -1 while a
    card is legal is a choice too (``hoarder`` draws instead of playing a wild it keeps;
    the official rules allow it)."""
    return D.choose_card(bots[p, B_STRATEGY], st, r, pts, cum, p, wd4_ok)


@hot
def choose_card_rl(st, pts, bots, p):
    """Rule option rlcard, a strategy playing its own card choice (``rl_action`` -1): the
    card kind, never a Wild Draw Four (RLCard offers it only when nothing else is legal,
    ``rlcard.choose_rl`` handles that) and never a draw while a card is legal (RLCard offers
    the draw only when nothing is). rlcard is classic only: no wheel."""
    return D.choose_card_rl(bots[p, B_STRATEGY], st, pts, p)


@inl
def choose_colour(st, bots, p):
    """The colour (0-3) seat p names for a wild it played."""
    return D.choose_colour(bots[p, B_STRATEGY], st, p)


@hot
def colour_to_discard(st, pts, bots, p):
    """The colour seat p names for a wheel discard by colour (2005 Discard Color, 2025
    Color Discard)."""
    return D.colour_to_discard(bots[p, B_STRATEGY], st, pts, p)


@hot
def colour_to_draw(st, bots, p):
    """The colour seat p names for the 2025 Wild Color Draw (it draws until that colour)."""
    return D.colour_to_draw(bots[p, B_STRATEGY], st, p)


@hot
def number_to_discard(st, bots, p):
    """The number (0-9) seat p names for the 2005 Discard Number."""
    return D.number_to_discard(bots[p, B_STRATEGY], st, p)


@hot
def almost_uno_keep(st, pts, bots, p, n):
    """2005 Almost UNO: st.cards[TMP:TMP+n] lists seat p's hand; reorder it so that the two
    cards p keeps are the last two (the rest are discarded). Writes only that scratch."""
    D.almost_uno_keep(bots[p, B_STRATEGY], st, pts, p, n)


@hot
def race_discard(st, pts, bots, w):
    """The card seat w, the winner of the 2005 UNO Spin race, discards."""
    return D.race_discard(bots[w, B_STRATEGY], st, pts, w)


@hot
def draw_two_to_stack(st, bots, p, n):
    """Stacking: which of its n Draw Two instances seat p stacks (it always stacks when it
    can)."""
    return D.draw_two_to_stack(bots[p, B_STRATEGY], st, p, n)


# ==================================================================== target seats
@hot
def swap_target(st, bots, p):
    """The seat p swaps hands with (2025 Swap Hands, a 7 under seven_o, Wild Swap Hands).
    Under partners never the partner (every strategy)."""
    return D.swap_target(bots[p, B_STRATEGY], st, p, partner_of(st, p))


@hot
def web_swing_target(st, bots, p, c, n, lim):
    """Wild Web Swing: the seat among the n others holding colour c less than ``lim`` seats
    away in turn order that play jumps to (``lim``: players, or under partners the
    partner's distance when such a target exists, so that the swing does not pass over
    the partner)."""
    return D.web_swing_target(bots[p, B_STRATEGY], st, p, c, n, lim)


# ==================================================================== what a draw shows
@inl
def draw_reveals(st, bots, p, c):
    """Seat p drew at its turn while colour c was in play and plays no card now but
    perhaps the one it drew: the bits of ``layout.VOID`` this shows about its hand
    (``reveals``: no card of colour c, of the top card's face, and but for hoarder no wild;
    nothing for search, which may draw by choice)."""
    return D.draw_reveals(bots[p, B_STRATEGY], st, p, c)


# ==================================================================== jump_in
@hot
def jumps_in(st, bots, q, k):
    """jump_in: seat q, holding kind k identical to the card just played (and not the seat
    to act), plays it out of turn now. The strategy decides (never past the partner's turn
    under partners), then the knob ``jump`` is the probability."""
    if not D.jumps_in(bots[q, B_STRATEGY], st, q, k):
        return False
    pj = bots[q, B_JUMP]
    return pj >= 1.0 or (pj > 0.0 and unif(st.s) < pj)


# ==================================================================== rlcard actions
@hot
def rl_action(st, bots, p, n):
    """Rule option rlcard: the index of seat p's action among RLCard's n legal action ids,
    or -1 when the strategy plays its own card choice instead (``choose_card_rl``)."""
    return D.rl_action(bots[p, B_STRATEGY], st, p, n)


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
