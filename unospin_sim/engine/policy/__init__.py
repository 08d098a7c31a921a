"""The policy home: every choice the rules give a player, one function each.

Rule code asks these functions and acts on the answer; a policy function reads the state and
may draw from the game's random stream, and changes nothing else. The questions are listed,
with what each asks, in ``decisions.DECISIONS``; each is answered by the seat's strategy
(``bots[p, B_STRATEGY]``, ids from the registry ``engine/bot_codes.STRATEGIES``) through the
generated dispatch (``dispatch.py``, re-exported here): every strategy module
(``random_bot``, ``heuristic``, ...) exports one function per question, its own or an alias
of the one it shares, so one file says what a strategy does. A strategy id with no module
falls through to a sentinel (-1, or False for yes/no questions), never to another
strategy: :data:`IMPLEMENTED` lists the strategies, ``encode`` refuses any other, and
``tests/test_policy.py`` checks every question against every strategy's module.

The knob decisions (bluff, challenge, UNO call, catch) are the same for every strategy: the
knob is the probability.

What a strategy's draw shows about its hand is a fact, not a question: :data:`DRAW_SHOWS`,
indexed by strategy id (``reveals.py`` flags; each module's ``DRAW_SHOWS``), which the turn
reads (``turn.mark_void``).

How it compiles (engine/jit.py): the questions asked on most turns (``choose_card``,
``choose_colour``, the knobs) are inlined into the turn, with random's and
heuristic's answers inlined too and every other strategy's behind one called function
(``dispatch.choose_card_added``, ``dispatch.choose_colour_added``); the questions asked only
on a wheel space, under a house rule or under rlcard are called functions (``hot``),
compiled once whatever calls them.

Adding a strategy: a module beside these exporting every question of
``decisions.DECISIONS``, its name in ``bot_codes.STRATEGIES`` and in
``decisions.STRATEGY_MODULES``, ``python -m unospin_sim.engine.policy`` to write the
dispatch, a paragraph in docs/BOTS.md, tests.
"""

from ..bot_codes import B_BLUFF, B_CATCH, B_CHALLENGE, B_FORGET, B_JUMP
from ..jit import hot, inl
from ..rng import unif
from . import dispatch as _dispatch

# the questions, as generated (dispatch.__all__): a star import, so that a dispatch.py written
# before a question was added still imports and can be written again
from .dispatch import *  # noqa: F403
from .dispatch import IMPLEMENTED

__all__ = [
    "IMPLEMENTED",
    "bluffs",
    "catches",
    "challenges",
    "forgets_uno",
    "jumps_in",
    *(q for q in _dispatch.__all__ if q != "strategy_jumps_in"),
]


# ==================================================================== jump_in
@hot
def jumps_in(st, bots, q, k):
    """jump_in: seat q, holding kind k identical to the card just played (and not the seat
    to act), plays it out of turn now. The strategy decides (never past the partner's turn
    under partners), then the knob ``jump`` is the probability."""
    if not strategy_jumps_in(st, bots, q, k):  # noqa: F405
        return False
    pj = bots[q, B_JUMP]
    return pj >= 1.0 or (pj > 0.0 and unif(st.s) < pj)


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
