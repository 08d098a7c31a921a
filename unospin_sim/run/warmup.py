"""Compile (or load from the cache) every entry point of the game kernel, one at a time.

``python -m unospin_sim compile`` calls :func:`compile_all`, so that CI, container images and
cluster workers pay the first compile once, before any work, and say what it cost. Each entry
point is compiled for exactly the argument types its callers pass (rule sets and bots are
data: one compile serves every edition, house rule and strategy), and numba caches it on
disk (``engine/cache.py``), so later processes load it in well under a second.

The entry points:

========================  ================================================================
``play_chunk``            rounds: ``run``, ``simulate``, tournaments
``play_match_chunk``      whole matches (rule option ``match``)
``replay_spins``          paired replays of wheel spins (``wheel``, the report)
``trace_game``            one round with its event log (``play``, playthroughs)
========================  ================================================================

each for every round loop (``engine/chunk.py`` ``LOOPS``: default rules, house rules, rlcard,
a search seat); the first entry point of a loop pays for the loop, the others only link it.

With ``tests=True`` (``compile --tests``) also the functions the rule tests drive one action
at a time (``tests/statekit.py``): the house-rule turn and loop, the 2005 spin, penalties,
jump-ins, the rlcard turn, the search's decision and loop, the invariant check.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator

import numba
import numpy as np


def _kernel_args():
    from ..bots import parse_bots
    from ..engine.encode import encode
    from ..rules import parse_rules

    rules = parse_rules("spin2025(players=4)")
    return rules, encode(rules, parse_bots("random", rules.players)).args()


def _runtime_steps() -> list[tuple[str, Callable[[], object]]]:
    from ..engine import kernel
    from ..engine import layout as L

    rules, args = _kernel_args()
    ncols = L.n_out_columns(rules.players)
    none = np.zeros(0, np.int64)
    ids = np.zeros(1, np.int64)
    steps = []
    # every round loop's entry points, with the argument types of runner.py and
    # playthrough.py (the rule set and bots are data: one compile serves all), on zero games
    for loop in kernel.LOOPS:
        chunk, replay, match, trace = kernel.ENTRY_POINTS[loop]
        steps += [
            (
                f"play_chunk[{loop}]",
                lambda f=chunk: f(
                    *args, 0, 0, np.zeros((0, ncols), np.int64), np.zeros(0, np.uint64), False
                ),
            ),
            (f"play_match_chunk[{loop}]", lambda f=match: f(*args, 0, 0, 0, 1)),
            (
                f"replay_spins[{loop}]",
                lambda f=replay: f(
                    *args, 0, none, none, ids, False, np.zeros((0, 1, L.N_REPLAY_FIELDS), np.int64)
                ),
            ),
            # zero log rows: nothing is played (a round needs its own seats and rules)
            (
                f"trace_game[{loop}]",
                lambda f=trace: f.compile(
                    tuple(numba.typeof(a) for a in (*args, 0, 0, L.LOG_ROWS_TRACE, False))
                ),
            ),
        ]
    return steps


def _test_steps() -> list[tuple[str, Callable[[], object]]]:
    from ..engine import kernel
    from ..engine import layout as L

    _, (r, deck, pts, cum, bots) = _kernel_args()
    st = kernel.new_state(int(r[L.R_TURN_CAP]), 100_000)  # as tests/statekit.py builds it
    ty = numba.typeof
    T = {
        name: ty(v) for name, v in dict(st=st, r=r, deck=deck, pts=pts, cum=cum, bots=bots).items()
    }
    i64, u64, b1 = numba.int64, numba.uint64, numba.boolean

    def sig(*names):
        return tuple(T.get(n, n) for n in names)

    steps = [
        ("play_turn_house", kernel.play_turn_house, sig("st", "r", "pts", "cum", "bots", i64)),
        ("run_round_search", kernel.run_round_search, sig("st", "r", "deck", "pts", "cum", "bots")),
        ("decide", kernel.decide, sig("st", "st", "r", "deck", "pts", "cum", "bots")),
        ("spin_2005_call", kernel.spin_2005_call, sig("st", "r", "pts", "cum", "bots", i64)),
        ("penalty_action", kernel.penalty_action, sig("st", "r", "bots", i64)),
        ("apply_penalties", kernel.apply_penalties, sig("st")),
        ("jump_in_seat", kernel.jump_in_seat, sig("st", "r", "bots")),
        ("play_turn_rl", kernel.play_turn_rl, sig("st", "pts", "bots", i64)),
        ("setup_round", kernel.setup_round, sig("st", "r", "deck", "bots", u64)),
        ("check_invariants", kernel.check_invariants, sig("st", "r", "deck")),
        ("wd4_legal", kernel.wd4_legal, sig("st", "r", i64)),
        ("choose_card", kernel.choose_card, sig("st", "r", "pts", "cum", "bots", i64, b1)),
    ]
    return [(name, (lambda d=d, s=s: d.compile(s))) for name, d, s in steps]


def compile_all(tests: bool = False) -> Iterator[tuple[str, float]]:
    """Compile or load every kernel entry point; yields ``(name, seconds)`` as each is ready
    (the seconds of that entry point alone: what it shares with an earlier one is already
    compiled). ``tests``: also the functions the rule tests drive (see the module doc)."""
    from ..engine import kernel  # noqa: F401 - installs the cache, imports numba

    steps = _runtime_steps() + (_test_steps() if tests else [])
    for name, step in steps:
        t = time.perf_counter()
        step()
        yield name, time.perf_counter() - t
