"""The kernel's public door: the entry points the runner calls and the one-action functions
the rule tests drive (each a called function, compiled once: the inlined ones, such as the
default turn, are not exported, since calling one from Python compiles a copy of its own).

The engine is split into modules of one concern each (docs/ARCHITECTURE.md draws the map):
``rng``, ``events``, ``piles``, ``legal``, ``policy/``, ``calls``, ``exchange``, ``wheel``,
``wheel2005``, ``wheel2025``, ``house``, ``turn``, ``rlcard``, ``deal``, ``invariants``,
``round``, ``search`` and ``chunk``. Only arrays and numbers cross this boundary (``layout.py`` for the
state encoding, ``encode.py`` for how rule sets and bots become arrays). Nothing is
allocated inside a round; ``play_chunk`` allocates one state per chunk of games. Game ``g``
of a run seeded ``S`` draws every random number from its own SplitMix64 stream seeded from
``(S, g)``, so results never depend on the thread count or the chunking.
"""

from .calls import apply_penalties
from .chunk import (
    ENTRY_POINTS,
    LOOPS,
    loop_of,
    new_state,
    play_chunk,
    play_match_chunk,
    replay_spins,
    seat_bots,
    trace_game,
)
from .house import jump_in_seat, penalty_action
from .invariants import check_invariants
from .legal import wd4_legal
from .policy import choose_card
from .rlcard import choose_rl, play_turn_rl
from .round import play_round_default, play_round_house, run_round_search, setup_round
from .search import decide, play_round_search
from .turn import play_turn_house
from .wheel2005 import spin_2005_call

__all__ = [
    "ENTRY_POINTS",
    "LOOPS",
    "apply_penalties",
    "check_invariants",
    "choose_card",
    "choose_rl",
    "decide",
    "jump_in_seat",
    "loop_of",
    "new_state",
    "penalty_action",
    "play_chunk",
    "play_match_chunk",
    "play_round_default",
    "play_round_house",
    "play_round_search",
    "play_turn_house",
    "play_turn_rl",
    "replay_spins",
    "run_round_search",
    "seat_bots",
    "setup_round",
    "spin_2005_call",
    "trace_game",
    "wd4_legal",
]
