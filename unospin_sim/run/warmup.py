"""Compile (or load from the cache) every entry point of the game kernel, one at a time.

``python -m unospin_sim compile`` calls :func:`compile_all`, so that CI, container images and
cluster workers pay the first compile once, before any work, and say what it cost; a run
calls :func:`warm` for the one entry point it plays (the same calls, :func:`entry_steps`). Each entry
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

import functools
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


#: the entry points of a round loop, in ``engine.kernel.ENTRY_POINTS`` order
ENTRY_NAMES = ("play_chunk", "replay_spins", "play_match_chunk", "trace_game")


def entry_steps(loop: str, args: tuple, players: int) -> dict[str, Callable[[], object]]:
    """Calls on zero games that compile (or load) each entry point of round loop ``loop``,
    with the argument types its callers pass (``args``: the kernel inputs' arrays; the rule
    set and bots are data, so one compile serves them all)."""
    from ..engine import kernel
    from ..engine import layout as L

    chunk, replay, match, trace = kernel.ENTRY_POINTS[loop]
    ncols = L.n_out_columns(players)
    none = np.zeros(0, np.int64)
    ids = np.zeros(1, np.int64)
    replays = np.zeros((0, 1, L.N_REPLAY_FIELDS), np.int64)
    return {
        "play_chunk": lambda: chunk(
            *args, 0, 0, np.zeros((0, ncols), np.int64), np.zeros(0, np.uint64), False
        ),
        "replay_spins": lambda: replay(*args, 0, none, none, ids, False, replays),
        "play_match_chunk": lambda: match(*args, 0, 0, 0, 1),
        # its signature alone: a traced round needs its own seats and rules
        "trace_game": lambda: trace.compile(
            tuple(numba.typeof(a) for a in (*args, 0, 0, L.LOG_ROWS_TRACE, False, False))
        ),
    }


def _runtime_steps() -> list[tuple[str, Callable[[], object]]]:
    from ..engine import kernel

    rules, args = _kernel_args()
    return [
        (f"{name}[{loop}]", step)
        for loop in kernel.LOOPS
        for name, step in entry_steps(loop, args, rules.players).items()
    ]


def warm(spec, progress: bool = False) -> None:
    """Compile or load, in this thread, the entry point a run of ``spec`` (a
    :class:`~unospin_sim.run.spec.RunSpec`) plays, before its chunks start; with
    ``progress``, say so on stderr when that takes more than two seconds (a first run)."""
    import sys
    import threading

    from ..engine import kernel
    from .spec import kernel_inputs

    args = kernel_inputs(spec).args()
    loop = kernel.loop_of(args[0], args[4])
    name = "play_match_chunk" if spec.rules.plays_matches else "play_chunk"
    note = threading.Timer(
        2.0,
        lambda: print(
            "compiling the game kernel for this rule set's round loop (first run only; about "
            "75 s for the default rules on 2 cores, longer with house rules or a search seat; "
            "cached afterwards; `python -m unospin_sim compile` does it ahead)...",
            file=sys.stderr,
            flush=True,
        ),
    )
    if progress:
        note.start()
    try:
        entry_steps(loop, args, spec.rules.players)[name]()
    finally:
        note.cancel()


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
        ("apply_penalties", kernel.apply_penalties, sig("st", "r")),
        ("jump_in_seat", kernel.jump_in_seat, sig("st", "r", "bots")),
        ("play_turn_rl", kernel.play_turn_rl, sig("st", "pts", "bots", i64)),
        ("setup_round", kernel.setup_round, sig("st", "r", "deck", "bots", u64)),
        ("check_invariants", kernel.check_invariants, sig("st", "r", "deck")),
        ("wd4_legal", kernel.wd4_legal, sig("st", "r", i64)),
        ("choose_card", kernel.choose_card, sig("st", "r", "pts", "cum", "bots", i64, b1)),
    ]
    return [(name, functools.partial(d.compile, s)) for name, d, s in steps]


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
