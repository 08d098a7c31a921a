"""The codes the kernel compiles in for the bots: strategy ids and the bots array's columns.

A seat's bot reaches the kernel as a row of :func:`bots_array`: its strategy id (the index
of its name in :data:`STRATEGIES`, which ``engine/policy/`` dispatches on) and its knobs,
one column each (``B_*``). ``bots.py`` parses and describes bot strings and re-exports these
names. The compiled-code cache hashes this file whole (``cache_key.py``): keep here only
what the kernel reads.
"""

from __future__ import annotations

import numpy as np

__all__ = [
    "B_ATTACK",
    "B_BLUFF",
    "B_CATCH",
    "B_CHALLENGE",
    "B_COLOURS",
    "B_EXTEND",
    "B_FORGET",
    "B_HOLD_WILDS",
    "B_HORIZON",
    "B_INFER",
    "B_JUMP",
    "B_NAME_COLOUR",
    "B_PEEK",
    "B_REFLEX",
    "B_ROLLOUTS",
    "B_STRATEGY",
    "B_VALUE_WHEEL",
    "B_W_ACTION",
    "B_W_ATTACK",
    "B_W_COLOUR",
    "B_W_NAME_VOID",
    "B_W_POINTS",
    "B_W_VOID",
    "B_W_WD4",
    "B_W_WD4_ATTACK",
    "B_W_WILD",
    "B_W_WILD_ATTACK",
    "STRATEGIES",
    "STRATEGY_AGGRESSOR",
    "STRATEGY_COLOUR_KEEPER",
    "STRATEGY_GREEDY",
    "STRATEGY_HEURISTIC",
    "STRATEGY_HOARDER",
    "STRATEGY_RANDOM",
    "STRATEGY_SEARCH",
    "STRATEGY_SPIN_AWARE",
    "STRATEGY_TUNED",
    "bots_array",
]

#: the strategy registry: names; the index is the strategy id the engine dispatches on
#: (engine/policy/). A name here without an implementation there is refused by encode.
#: Append only: the ids of the existing strategies must never change.
STRATEGIES = (
    "random",
    "heuristic",
    "greedy",
    "hoarder",
    "colour_keeper",
    "aggressor",
    "spin_aware",
    "search",
    "tuned",
)
STRATEGY_RANDOM = STRATEGIES.index("random")
STRATEGY_HEURISTIC = STRATEGIES.index("heuristic")
STRATEGY_GREEDY = STRATEGIES.index("greedy")
STRATEGY_HOARDER = STRATEGIES.index("hoarder")
STRATEGY_COLOUR_KEEPER = STRATEGIES.index("colour_keeper")
STRATEGY_AGGRESSOR = STRATEGIES.index("aggressor")
STRATEGY_SPIN_AWARE = STRATEGIES.index("spin_aware")
STRATEGY_SEARCH = STRATEGIES.index("search")
STRATEGY_TUNED = STRATEGIES.index("tuned")

#: columns of :func:`bots_array`
# fmt: off
(B_STRATEGY, B_FORGET, B_CATCH, B_BLUFF, B_CHALLENGE, B_REFLEX, B_JUMP, B_ROLLOUTS, B_PEEK,
 B_HORIZON, B_COLOURS, B_INFER, B_W_POINTS, B_W_COLOUR, B_W_ATTACK, B_W_ACTION, B_W_WILD,
 B_W_WILD_ATTACK, B_W_WD4, B_W_WD4_ATTACK, B_W_VOID, B_W_NAME_VOID, B_EXTEND,
 B_NAME_COLOUR, B_HOLD_WILDS, B_ATTACK, B_VALUE_WHEEL) = range(27)
# fmt: on
N_BOT_COLUMNS = 27
#: the knob each column after :data:`B_STRATEGY` holds, in column order (a bot spec's
#: attribute; ``bots.KNOBS`` names them all, ``bots.TUNED_WEIGHTS`` the weights in this order)
COLUMN_KNOBS = (
    "forget",
    "catch",
    "bluff",
    "challenge",
    "reflex",
    "jump",
    "rollouts",
    "peek",
    "horizon",
    "colours",
    "infer",
    "w_points",
    "w_colour",
    "w_attack",
    "w_action",
    "w_wild",
    "w_wild_attack",
    "w_wd4",
    "w_wd4_attack",
    "w_void",
    "w_name_void",
    "extend",
    "name_colour",
    "hold_wilds",
    "attack",
    "value_wheel",
)


def bots_array(specs) -> np.ndarray:
    """Bot parameters for the engine.

    Parameters
    ----------
    specs : sequence of bots.BotSpec
        One per seat.

    Returns
    -------
    numpy.ndarray
        ``float64[P, N_BOT_COLUMNS]`` with columns :data:`B_STRATEGY` (strategy id),
        :data:`B_FORGET`, :data:`B_CATCH`, :data:`B_BLUFF`, :data:`B_CHALLENGE`,
        :data:`B_REFLEX`, :data:`B_JUMP`, :data:`B_ROLLOUTS`, :data:`B_PEEK`,
        :data:`B_HORIZON`, :data:`B_COLOURS`, :data:`B_INFER`, then ``tuned``'s weights
        :data:`B_W_POINTS` .. :data:`B_W_NAME_VOID`, then search's :data:`B_EXTEND`
        then ``spin_aware``'s skills :data:`B_NAME_COLOUR`, :data:`B_HOLD_WILDS`,
        :data:`B_ATTACK`, :data:`B_VALUE_WHEEL` (:data:`COLUMN_KNOBS`).
    """
    out = np.empty((len(specs), N_BOT_COLUMNS), dtype=np.float64)
    for i, s in enumerate(specs):
        out[i] = (s.strategy_id, *(getattr(s, k) for k in COLUMN_KNOBS))
    return out
