"""Speed of one source tree, workload by workload (JIT cache warm: a warm-up run precedes the
timed ones; medians over repeats unless said; one JSON line per figure)::

    python benchmarks/speed.py WORKLOAD [options]      # options: speed.py WORKLOAD --help

Workloads:

- ``engine``: rounds/s of ``simulate`` per edition and bots, 1 and 2 threads; the cached
  start-up (a fresh interpreter importing the package and loading the kernel); ``run``
  end to end as a subprocess; the plain-Python reference engine (``--quick``, ``--startup``,
  ``--no-cli``).
- ``ladder``: the pipeline layer by layer on the same rounds (a bare jitted loop with no
  output, ``play_chunk``, ``simulate`` in memory, ``simulate`` writing a run) with the
  ratios of the same run; targets kernel/yardstick >= 0.60, run/kernel >= 0.90.
- ``matches``: matches/s of the race to 500 played in the engine.
- ``strategies``: every strategy's rounds/s and turns/s relative to ``random`` (repeats
  interleaved).
- ``search``: rounds/s with every seat playing ``search`` (best of the repeats); target
  >= 100 four-player classic rounds/s on 2 threads at the default setting.
- ``wheel``: spins replayed per second by the paired wheel replays; target >= 5,000 for
  spin2005, 4 random players, 2 threads.
- ``programs``: rounds per thread-CPU-second of each Spin wheel played by its compiled
  spaces and by the same spaces as wheel programs (engine/program.py); target >= 0.7.
- ``dask``: one process with threads against a local Dask cluster of process workers.
- ``design``: the designer's example study, screening and later stages timed apart; goal:
  40 screening trials of 10,000 rounds in <= 60 s on 2 cores after the compile.
- ``write-path``: CPU ms of one chunk's write path (what ``run`` does per chunk after the
  kernel) against the kernel's, which bounds run/kernel.
- ``profile``: where one thread's compiled time goes (``perf record`` of ``simulate`` in a
  fresh interpreter and a fresh ``NUMBA_CACHE_DIR``, so that the compiled functions can be
  named from their LLVM modules through a perf map; the compile's own samples left out):
  one JSON line per compiled function, its share of the compiled time. Needs ``perf``.
  Inlined functions count in their caller. E.g. ``speed.py profile --bots search --games
  150`` (docs/BOTS.md, "A faster search").

Two source trees (``ab``) compare a change's cost or gain: each run is a fresh interpreter
in its tree, the trees alternating so that the machine's load hits both alike
(``harness.interleave``). ``ab`` workloads: ``kernel`` (``play_chunk`` rounds/s, best of
three per run, one thread, per case: the engine-change check), ``search`` (every seat
searching, pair by pair, on the same rounds; ``--bots-a/--bots-b`` compare knob settings in
one tree), ``strategies-cpu`` (every strategy's best rounds per thread-CPU-second, which
another job holding the core does not count)::

    python benchmarks/speed.py ab kernel BEFORE AFTER [--reps 3] [--games 100000]
    python benchmarks/speed.py ab search TREE_A TREE_B [--pairs 4] [--cpu --threads 1]
    python benchmarks/speed.py ab strategies-cpu TREE_A [TREE_B] [--rules R --games N --processes K]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from harness import HOW, dispatch, emit, how, interleave, rate, run_in_tree, timed


def _parser(name, doc):
    return argparse.ArgumentParser(prog=f"speed.py {name}", description=doc)


# ==================================================================== one tree
ENGINE_CASES = [
    ("classic", 4, "random", 1),
    ("classic", 4, "random", 2),
    ("spin2005", 4, "random", 2),
    ("spin2025", 4, "random", 2),
    ("spin2025", 4, "heuristic", 2),
    ("spiderman", 4, "random", 2),
]
STARTUP = (
    """
import time; t0 = time.perf_counter()
from unospin_sim.run import simulate
"""
    + HOW
    + """
simulate("classic(players=4)", "random", games=1, seed=0, **how(threads=1))
print(time.perf_counter() - t0)
"""
)


def engine(argv):
    ap = _parser(
        "engine", "rounds/s of simulate per case; start-up; run end to end; the reference engine"
    )
    ap.add_argument("--games", type=int, default=1_000_000)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--quick", action="store_true", help="50,000 rounds, 1 repeat")
    ap.add_argument("--startup", action="store_true", help="only the start-up case")
    ap.add_argument("--no-cli", action="store_true", help="skip the end-to-end CLI case")
    a = ap.parse_args(argv)
    if a.quick:
        a.games, a.repeats = 50_000, 1
    starts = [
        float(
            subprocess.run(
                [sys.executable, "-c", STARTUP], capture_output=True, text=True, check=True
            ).stdout.split()[-1]
        )
        for _ in range(max(a.repeats, 3))
    ]
    emit(
        {
            "case": "startup",
            "what": "import + load cached kernel + 1 round",
            "seconds": round(statistics.median(starts), 3),
            "repeats": len(starts),
        }
    )
    if a.startup:
        return
    from unospin_sim.run import simulate

    for ed, p, bots, threads in ENGINE_CASES:
        rules = f"{ed}(players={p})"
        t = timed(
            lambda i: simulate(rules, bots, games=a.games, seed=100 + i, **how(threads=threads)),
            a.repeats,
            warm=lambda: simulate(
                rules, bots, games=min(a.games, 2000), seed=1, **how(threads=threads)
            ),
        )
        emit(
            {
                "case": "engine",
                "edition": ed,
                "players": p,
                "bots": bots,
                "rounds": a.games,
                "seconds": round(statistics.median(t), 4),
                "rounds_per_s": round(rate(a.games, t)),
                "threads": threads,
                "repeats": a.repeats,
            }
        )
    if not a.no_cli:

        def cli(i):
            with tempfile.TemporaryDirectory() as d:
                subprocess.run(
                    [
                        sys.executable,
                        "-m",
                        "unospin_sim",
                        "run",
                        "--games",
                        str(a.games),
                        "--out",
                        f"{d}/r",
                        "--quiet",
                        "--seed",
                        str(i),
                    ],
                    check=True,
                    capture_output=True,
                )

        t = timed(cli, a.repeats)
        emit(
            {
                "case": "cli_run_end_to_end",
                "rounds": a.games,
                "seconds": round(statistics.median(t), 3),
                "rounds_per_s": round(rate(a.games, t)),
                "repeats": a.repeats,
            }
        )
    from unospin_sim import reference

    n = 500 if a.quick else 2000
    t = timed(lambda i: reference.play_many("classic", 4, n, 1), 1)
    emit(
        {
            "case": "reference_python",
            "edition": "classic",
            "players": 4,
            "bots": "random",
            "rounds": n,
            "seconds": round(t[0], 3),
            "rounds_per_s": round(n / t[0]),
            "threads": 1,
        }
    )


def _yardstick_kernel():
    from numba import njit

    from unospin_sim.engine.chunk import new_state
    from unospin_sim.engine.layout import R_TURN_CAP, S_TURNS
    from unospin_sim.engine.rng import U64, game_seed
    from unospin_sim.engine.round import play_round_default as play_round

    @njit(nogil=True)
    def yardstick(r, deck, pts, cum, bots, seed, game0, n):
        st = new_state(r[R_TURN_CAP], 0)
        turns = 0
        useed = U64(seed)
        for i in range(n):
            play_round(st, r, deck, pts, cum, bots, game_seed(useed, U64(game0 + i)))
            turns += st.s[S_TURNS]
        return turns

    return yardstick


def ladder(argv):
    ap = _parser(
        "ladder",
        "the pipeline against its yardstick, layer by layer (medians of "
        "interleaved repeats, layer order rotated each repeat)",
    )
    ap.add_argument("--rules", default="classic(players=4)")
    ap.add_argument("--bots", default="random")
    ap.add_argument("--games", type=float, default=1e6)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--no-cli", action="store_true", help="skip the subprocess case")
    a = ap.parse_args(argv)
    games = int(a.games)
    from concurrent.futures import ThreadPoolExecutor

    import numpy as np

    from unospin_sim.bots import parse_bots
    from unospin_sim.engine import kernel
    from unospin_sim.engine import layout as L
    from unospin_sim.engine.encode import encode
    from unospin_sim.rules import parse_rules
    from unospin_sim.run import simulate

    rules = parse_rules(a.rules)
    args = encode(rules, parse_bots(a.bots, rules.players)).args()
    chunk = int(min(65536, max(1024, games // (a.threads * 16) + 1)))  # the runner's default
    chunks = [(g0, min(chunk, games - g0)) for g0 in range(0, games, chunk)]
    ncols = L.n_out_columns(rules.players)
    yardstick = _yardstick_kernel()
    pool = ThreadPoolExecutor(a.threads)

    def run_kernel(seed):
        def one(c):
            kernel.play_chunk(
                *args,
                seed,
                c[0],
                np.empty((c[1], ncols), np.int64),
                np.empty(c[1], np.uint64),
                False,
            )

        list(pool.map(one, chunks))

    def run_run(seed):
        with tempfile.TemporaryDirectory() as d:
            simulate(
                rules,
                a.bots,
                games,
                seed,
                **how(threads=a.threads, chunk_size=chunk, out=f"{d}/r", keep=False),
            )

    layers = {
        "yardstick": lambda s: list(pool.map(lambda c: yardstick(*args, s, *c), chunks)),
        "kernel": run_kernel,
        "simulate": lambda s: simulate(
            rules, a.bots, games, s, **how(threads=a.threads, chunk_size=chunk)
        ),
        "run": run_run,
    }
    layers["yardstick"](0)
    simulate(rules, a.bots, 1000, 0, **how(threads=1))
    names = list(layers)
    times = {k: [] for k in names}
    cpu = {k: [] for k in names}
    for rep in range(a.repeats):
        for k in names[rep % 4 :] + names[: rep % 4]:
            t0, c0 = time.perf_counter(), time.process_time()
            layers[k](1000 + rep)
            times[k].append(time.perf_counter() - t0)
            cpu[k].append(time.process_time() - c0)
    med = {k: statistics.median(v) for k, v in times.items()}
    cmed = {k: statistics.median(v) for k, v in cpu.items()}
    for k in names:
        emit(
            {
                "layer": k,
                "rules": str(rules),
                "bots": a.bots,
                "rounds": games,
                "threads": a.threads,
                "chunk_size": chunk,
                "seconds_median": round(med[k], 4),
                "rounds_per_s": round(games / med[k]),
                "cpu_seconds_median": round(cmed[k], 4),
                "repeats": a.repeats,
            }
        )
    if not a.no_cli:
        with tempfile.TemporaryDirectory() as d:
            t = timed(
                lambda i: subprocess.run(
                    [
                        sys.executable,
                        "-m",
                        "unospin_sim",
                        "run",
                        "--rules",
                        str(rules),
                        "--bots",
                        a.bots,
                        "--games",
                        str(games),
                        "--out",
                        f"{d}/r",
                        "--quiet",
                        "--threads",
                        str(a.threads),
                        "--seed",
                        "7",
                    ],
                    check=True,
                    capture_output=True,
                ),
                1,
            )
        emit(
            {
                "layer": "cli",
                "rounds": games,
                "seconds": round(t[0], 3),
                "rounds_per_s": round(games / t[0]),
                "note": "start-up included",
            }
        )
    emit(
        {
            "ratios (speed, same run)": {
                "kernel/yardstick": round(med["yardstick"] / med["kernel"], 3),
                "simulate/kernel": round(med["kernel"] / med["simulate"], 3),
                "run/kernel": round(med["kernel"] / med["run"], 3),
                "run/yardstick": round(med["yardstick"] / med["run"], 3),
            },
            # CPU seconds of the whole process: little affected by other processes
            "cpu ratios (kernel cpu / layer cpu)": {
                "run/kernel": round(cmed["kernel"] / cmed["run"], 3),
                "simulate/kernel": round(cmed["kernel"] / cmed["simulate"], 3),
            },
            "targets": {"kernel/yardstick": ">= 0.60", "run/kernel": ">= 0.90"},
        }
    )


def matches(argv):
    ap = _parser("matches", "matches/s of the race to 500 played in the engine")
    ap.add_argument("--matches", type=int, default=20000)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--quick", action="store_true", help="1,000 matches, 1 repeat")
    a = ap.parse_args(argv)
    n, repeats = (1000, 1) if a.quick else (a.matches, a.repeats)
    from unospin_sim.run import simulate

    for ed, bots in (
        ("classic", "random"),
        ("spin2005", "random"),
        ("classic", "heuristic"),
        ("spin2005", "heuristic"),
    ):
        rules = f"{ed}(players=4,match=race,target=500)"
        rounds = []
        t = timed(
            lambda i: rounds.append(
                len(simulate(rules, bots, games=n, seed=100 + i, **how(threads=a.threads)).rounds)
            ),
            repeats,
            warm=lambda: simulate(rules, bots, games=min(n, 50), seed=1, **how(threads=a.threads)),
        )
        emit(
            {
                "case": "race",
                "rules": rules,
                "bots": bots,
                "matches": n,
                "seconds": round(statistics.median(t), 4),
                "matches_per_s": round(rate(n, t), 1),
                "rounds_per_match": round(statistics.mean(rounds) / n, 3),
                "threads": a.threads,
                "repeats": repeats,
            }
        )


def strategies(argv):
    from unospin_sim.bots import STRATEGIES
    from unospin_sim.run import simulate

    ap = _parser(
        "strategies",
        "every strategy's rounds/s and turns/s relative to random "
        "(every seat the same strategy; repeats interleaved)",
    )
    ap.add_argument("--edition", default="classic")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=100_000)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument(
        "--strategies",
        default=",".join(s for s in STRATEGIES if s != "search"),
        help="default: every strategy but search (its own workload, hundreds of times slower)",
    )
    a = ap.parse_args(argv)
    rules = f"{a.edition}(players={a.players})"
    names = a.strategies.split(",")
    if "random" not in names:
        names.insert(0, "random")
    for s in names:
        simulate(rules, s, games=2000, seed=1, **how(threads=a.threads))
    times = {s: [] for s in names}
    turns = {s: [] for s in names}
    for i in range(a.repeats):
        for s in names:
            t0 = time.perf_counter()
            res = simulate(rules, s, games=a.games, seed=100 + i, **how(threads=a.threads))
            times[s].append(time.perf_counter() - t0)
            turns[s].append(int(res.rounds["turns"].sum()) / times[s][-1])
    r = {s: rate(a.games, t) for s, t in times.items()}
    tr = {s: statistics.median(t) for s, t in turns.items()}
    for s in names:
        emit(
            {
                "case": "strategy",
                "rules": rules,
                "strategy": s,
                "rounds": a.games,
                "rounds_per_s": round(r[s]),
                "vs_random": round(r[s] / r["random"], 3),
                "turns_per_s": round(tr[s]),
                "turns_vs_random": round(tr[s] / tr["random"], 3),
                "threads": a.threads,
                "repeats": a.repeats,
            }
        )


def search(argv):
    from unospin_sim.run import simulate

    ap = _parser("search", "rounds/s with every seat searching (best of the repeats)")
    ap.add_argument("--rules", default="classic(players=4)")
    ap.add_argument("--rollouts", type=int, default=128)
    ap.add_argument("--horizon", type=int, default=16)
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--chunk-size", type=int, default=None)
    a = ap.parse_args(argv)
    bots = f"search(rollouts={a.rollouts},horizon={a.horizon})"
    turns = []
    t = timed(
        lambda i: turns.append(
            int(
                simulate(
                    a.rules,
                    bots,
                    games=a.games,
                    seed=100 + i,
                    **how(threads=a.threads, chunk_size=a.chunk_size),
                )
                .rounds["turns"]
                .sum()
            )
        ),
        a.repeats,
        warm=lambda: simulate(a.rules, bots, games=4, seed=1, **how(threads=1)),
    )
    emit(
        {
            "case": "search",
            "rules": a.rules,
            "bots": bots,
            "rounds": a.games,
            "threads": a.threads,
            "best_rounds_per_s": round(rate(a.games, t, best=True), 1),
            "best_turns_per_s": round(max(n / s for n, s in zip(turns, t))),
            "repeats": a.repeats,
        }
    )


def wheel(argv):
    from unospin_sim.run import replay_spins

    ap = _parser("wheel", "spins replayed per second by the paired wheel replays")
    ap.add_argument("--games", type=int, default=20_000)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--repeats", type=int, default=3)
    a = ap.parse_args(argv)
    for rules in ("spin2005(players=4)", "spin2025(players=4)"):
        replay_spins(rules, "random", games=200, seed=1, **how(threads=a.threads))  # warm
        rates, reps = [], None
        for i in range(a.repeats):
            reps = replay_spins(
                rules, "random", games=a.games, seed=100 + i, **how(threads=a.threads)
            )
            rates.append(reps.attrs["spins"] / reps.attrs["replay_seconds"])
        at = reps.attrs
        emit(
            {
                "case": "wheel_replay",
                "rules": rules,
                "rounds": a.games,
                "threads": a.threads,
                "spins": at["spins"],
                "replays_per_spin": at["replays"] // max(at["spins"], 1),
                "spins_per_s": round(statistics.median(rates)),
                "rounds_replayed_per_s": round(
                    statistics.median(rates) * at["replays"] / max(at["spins"], 1)
                ),
                "repeats": a.repeats,
            }
        )


def programs(argv):
    import numpy as np

    from unospin_sim.bots import parse_bots
    from unospin_sim.engine import kernel as K
    from unospin_sim.engine import layout as L
    from unospin_sim.engine.encode import encode
    from unospin_sim.rules import parse_rules
    from unospin_sim.rules.spaces import SPACE_ID
    from unospin_sim.rules.variants import published_programs

    ap = _parser(
        "programs",
        "rounds per thread-CPU-second of each Spin wheel played by its compiled spaces and "
        "by the same spaces written as programs (engine/program.py), interleaved, one thread",
    )
    ap.add_argument("--games", type=int, default=20_000)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--bots", default="random")
    a = ap.parse_args(argv)
    progs = {SPACE_ID[n]: s.program for n, s in published_programs().items()}
    for rules in ("spin2005(players=4)", "spin2025(players=4)"):
        rs = parse_rules(rules)
        specs = parse_bots(a.bots, rs.players)
        inputs = {"compiled": encode(rs, specs), "programs": encode(rs, specs, programs=progs)}
        out = np.zeros((a.games, L.n_out_columns(rs.players)), np.int64)
        seeds = np.zeros(a.games, np.uint64)
        spins = 0
        for ki in inputs.values():  # warm: load or compile
            K.play_chunk(*ki.args(), 1, 0, out[:200], seeds[:200], False)
        times = {k: [] for k in inputs}
        for i in range(a.repeats):
            for name, ki in inputs.items():
                t0 = time.thread_time()
                spins = len(K.play_chunk(*ki.args(), 100 + i, 0, out, seeds, False))
                times[name].append(time.thread_time() - t0)
        r = {k: rate(a.games, v) for k, v in times.items()}
        emit(
            {
                "case": "wheel_programs",
                "rules": rules,
                "bots": a.bots,
                "rounds": a.games,
                "spins": spins,
                "compiled_rounds_per_cpu_s": round(r["compiled"]),
                "programs_rounds_per_cpu_s": round(r["programs"]),
                "programs_vs_compiled": round(r["programs"] / r["compiled"], 3),
                "repeats": a.repeats,
            }
        )


def dask(argv):
    ap = _parser(
        "dask",
        "one process with threads against a local Dask cluster of process "
        "workers (medians of interleaved repeats; ratio dask / threads)",
    )
    ap.add_argument("--rules", default="classic(players=4)")
    ap.add_argument("--bots", default="random")
    ap.add_argument("--games", type=float, default=1e6)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--threads", type=int, default=2, help="threads of the one-process run")
    ap.add_argument("--repeats", type=int, default=3)
    a = ap.parse_args(argv)
    games = int(a.games)
    import distributed

    from unospin_sim.run import simulate

    chunk = int(min(65536, max(1024, games // (a.threads * 16) + 1)))
    simulate(a.rules, a.bots, 1000, 0, **how(threads=1))
    with (
        distributed.LocalCluster(
            processes=True, n_workers=a.workers, threads_per_worker=1, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        with tempfile.TemporaryDirectory() as d:  # every worker loads the kernel once
            simulate(
                a.rules,
                a.bots,
                4 * a.workers * 64,
                0,
                **how(chunk_size=64, client=client, out=f"{d}/w", keep=False),
            )

        def once(mode):
            with tempfile.TemporaryDirectory() as d:
                t0 = time.perf_counter()
                simulate(
                    a.rules,
                    a.bots,
                    games,
                    100,
                    **how(
                        threads=a.threads,
                        chunk_size=chunk,
                        out=f"{d}/r",
                        keep=False,
                        client=client if mode == "dask" else None,
                    ),
                )
                return time.perf_counter() - t0

        thr, dsk, _ = interleave(("threads", "dask"), a.repeats, once, swap=True)
    for mode, t in (("threads", thr), ("dask", dsk)):
        emit(
            {
                "how": how,
                "rules": a.rules,
                "rounds": games,
                "workers" if how == "dask" else "threads": a.workers
                if how == "dask"
                else a.threads,
                "seconds_median": round(statistics.median(t), 3),
                "rounds_per_s": round(rate(games, t)),
                "repeats": a.repeats,
            }
        )
    emit({"dask/threads (speed)": round(statistics.median(thr) / statistics.median(dsk), 3)})


def design(argv):
    import json

    ap = _parser(
        "design", "the designer's example study: screening and the later stages timed apart"
    )
    ap.add_argument("--trials", type=int, default=40)
    ap.add_argument("--games", type=int, default=10_000)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--quick", action="store_true", help="10 trials x 2,000 rounds, 1 repeat")
    a = ap.parse_args(argv)
    if a.quick:
        a.trials, a.games, a.repeats = 10, 2000, 1
    from unospin_sim.rules import RuleSet
    from unospin_sim.studies.design import DesignSpec, run_design
    from unospin_sim.studies.design.evaluate import measure

    measure(RuleSet.build("spin2025"), ["mean_turns"], 100, 0)  # load the compiled loop
    rows = []
    for i in range(a.repeats):
        with tempfile.TemporaryDirectory() as d:
            spec = DesignSpec(
                "spin2025",
                4,
                goals=["mean_turns=50"],
                vary=["wheel"],
                trials=a.trials,
                games=a.games,
                seed=3 + i,
                stages=[10, 100],
            )
            answer = run_design(spec, Path(d) / "study", progress=False)
            t = json.loads((Path(d) / "study" / "timings.json").read_text())
        t.update(
            trials=a.trials,
            rounds=a.games,
            seed=3 + i,
            rules=answer["rules"],
            per_trial_seconds=round(t["screening_seconds"] / a.trials, 4),
        )
        rows.append(t)
        emit(t)
    emit(
        {
            "median_over": a.repeats,
            **{
                k: statistics.median(r[k] for r in rows)
                for k in (
                    "screening_seconds",
                    "per_trial_seconds",
                    "refine_seconds",
                    "confirm_seconds",
                    "robustness_seconds",
                )
            },
        }
    )


def write_path(argv):
    import hashlib
    from dataclasses import replace

    import pyarrow as pa
    import pyarrow.parquet as pq

    from unospin_sim.analysis.summary import SummaryAccumulator
    from unospin_sim.results import ChunkColumns, PartBuffer, part_write_options, spins_arrow
    from unospin_sim.run import RunSpec
    from unospin_sim.run.work import KERNEL_BATCH
    from unospin_sim.run.work import _play as play

    ap = _parser(
        "write-path",
        "CPU ms of one chunk's write path against the kernel's "
        "(interleaved medians of 9 repeats, one thread)",
    )
    ap.add_argument("rules", nargs="?", default="classic(players=4)")
    ap.add_argument("games", nargs="?", type=int, default=31251, help="rounds in the chunk")
    a = ap.parse_args(argv)
    n = a.games
    spec0 = RunSpec.build(a.rules, "random", games=n)
    rules = spec0.rules
    has_wheel = bool(rules.wheel_spaces())

    def write_path_once(seed):
        cols = ChunkColumns(rules, n, spins=False)
        tw = 0.0
        spin_part = PartBuffer() if has_wheel else None
        for g0 in range(0, n, KERNEL_BATCH):
            o, s, rec = play(replace(spec0, seed=seed), g0, min(KERNEL_BATCH, n - g0))
            t = time.process_time()
            cols.add(g0, o, s, rec)
            if has_wheel:
                spin_part.add(spins_arrow(rules, rec))
            tw += time.process_time() - t
        t = time.process_time()
        SummaryAccumulator.of_rounds(
            rules.players, cols.rounds["game"], cols.rounds["winner"], cols.rounds["turns"]
        )
        tab = cols.rounds_arrow()
        sink = pa.BufferOutputStream()
        pq.write_table(tab, sink, **part_write_options(tab))
        b = sink.getvalue()
        hashlib.sha256(memoryview(b)).hexdigest()
        size = b.size
        if has_wheel:
            b = spin_part.getvalue()
            hashlib.sha256(memoryview(b)).hexdigest()
            size += b.size
        return tw + time.process_time() - t, size

    def kernel_once(seed):
        t = time.process_time()
        play(replace(spec0, seed=seed), 0, n)
        return time.process_time() - t, 0

    res = {"kernel": [], "write": []}
    size = 0
    for rep in range(9):
        for k, f in (("kernel", kernel_once), ("write", write_path_once))[:: 1 - 2 * (rep % 2)]:
            c, sz = f(rep)
            res[k].append(c)
            size = max(size, sz)
    m = {k: statistics.median(v) * 1000 for k, v in res.items()}
    emit(
        {
            "case": "write_path",
            "rules": a.rules,
            "chunk_rounds": n,
            "kernel_cpu_ms": round(m["kernel"], 1),
            "write_cpu_ms": round(m["write"], 1),
            "write_share_of_kernel": round(m["write"] / m["kernel"], 3),
            "part_bytes": size,
            "bound_run_over_kernel": round(m["kernel"] / (m["kernel"] + m["write"]), 3),
        }
    )


# ==================================================================== two trees
KERNEL_AB_CODE = r"""
import sys, time, numpy as np
from unospin_sim.bots import parse_bots
from unospin_sim.rules import parse_rules
from unospin_sim.engine.encode import encode
from unospin_sim.engine import kernel, layout as L
rules = parse_rules(sys.argv[1]); ki = encode(rules, parse_bots(sys.argv[2], rules.players))
n = int(sys.argv[3])
out = np.zeros((n, L.n_out_columns(rules.players)), np.int64); seeds = np.zeros(n, np.uint64)
kernel.play_chunk(*ki.args(), 1, 0, out[:100], seeds[:100], False)   # load / compile
best = 0.0
for i in range(3):
    t = time.perf_counter(); kernel.play_chunk(*ki.args(), 1 + i, 0, out, seeds, False)
    best = max(best, n / (time.perf_counter() - t))
print(int(best))
"""
KERNEL_AB_CASES = [
    ("classic(players=4)", "random"),
    ("spin2005(players=4)", "random"),
    ("spin2025(players=4)", "random"),
    ("spin2025(players=4)", "heuristic"),
]

SEARCH_AB_CODE = (
    HOW
    + """
import sys, time
from unospin_sim.run import simulate
rules, games, seed, threads, cpu = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5] == "1"
bots = sys.argv[6]
simulate(rules, bots, games=1, seed=seed, **how(threads=threads))
clock = time.process_time if cpu else time.perf_counter
t = clock()
simulate(rules, bots, games=games, seed=seed, **how(threads=threads))
print(games / (clock() - t))
"""
)

STRATEGIES_CPU_CODE = r"""
import sys, time, numpy as np
from unospin_sim.bots import parse_bots
from unospin_sim.rules import parse_rules
from unospin_sim.engine.encode import encode
from unospin_sim.engine import kernel, layout as L
ed, n, reps = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
strats = sys.argv[4].split(",")
rules = parse_rules(ed)
kis = {s: encode(rules, parse_bots(s, rules.players)) for s in strats}
out = np.zeros((n, L.n_out_columns(rules.players)), np.int64); seeds = np.zeros(n, np.uint64)
for s in strats:
    kernel.play_chunk(*kis[s].args(), 1, 0, out[:100], seeds[:100], False)
best = {s: 0.0 for s in strats}
for i in range(reps):
    for s in strats:
        t = time.thread_time(); kernel.play_chunk(*kis[s].args(), 1 + i, 0, out, seeds, False)
        best[s] = max(best[s], n / (time.thread_time() - t))
print(" ".join(f"{s}={int(best[s])}" for s in strats))
"""
CPU_STRATEGIES = "random,heuristic,greedy,hoarder,colour_keeper,aggressor,spin_aware"


def ab(argv):
    ap = _parser("ab", "two source trees interleaved: kernel, search or strategies-cpu")
    ap.add_argument("workload", choices=("kernel", "search", "strategies-cpu"))
    ap.add_argument("trees", nargs="+", help="BEFORE AFTER (strategies-cpu: one or two)")
    ap.add_argument(
        "--reps",
        "--pairs",
        "--processes",
        dest="reps",
        type=int,
        default=None,
        help="runs per tree (kernel: 3, search: 4, strategies-cpu: 6)",
    )
    ap.add_argument(
        "--games",
        type=int,
        default=None,
        help="rounds per run (kernel: 100,000, search: 400, strategies-cpu: 100,000)",
    )
    ap.add_argument(
        "--rules",
        default=None,
        help="search / strategies-cpu: the rule set (default classic(players=4))",
    )
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--cpu", action="store_true", help="search: CPU seconds, not wall clock")
    ap.add_argument("--bots-a", default="search", help="search: run A's bots")
    ap.add_argument("--bots-b", default="search", help="search: run B's bots")
    a = ap.parse_args(argv)
    trees = [os.path.abspath(t) for t in a.trees]
    if a.workload != "strategies-cpu" and len(trees) != 2:
        ap.error(f"ab {a.workload} needs two trees, got {len(trees)}")
    if len(trees) > 2:
        ap.error("at most two trees")
    rules = a.rules or "classic(players=4)"
    if a.workload == "kernel":
        reps, games = a.reps or 3, a.games or 100_000
        for case in KERNEL_AB_CASES:
            b, f, _ = interleave(
                trees,
                reps,
                lambda t: int(run_in_tree(t, KERNEL_AB_CODE, [*case, games]).stdout.split()[-1]),
            )
            emit(
                {
                    "case": " ".join(case),
                    "before_rounds_per_s": max(b),
                    "after_rounds_per_s": max(f),
                    "after/before": round(max(f) / max(b), 3),
                    "best_of": reps,
                    "rounds": games,
                }
            )
    elif a.workload == "search":
        reps, games = a.reps or 4, a.games or 400
        runs = ((trees[0], a.bots_a), (trees[1], a.bots_b))
        ra, rb, ratios = interleave(
            runs,
            reps,
            lambda run: float(
                run_in_tree(
                    run[0],
                    SEARCH_AB_CODE,
                    [rules, games, a.seed, a.threads, 1 if a.cpu else 0, run[1]],
                ).stdout.split()[-1]
            ),
        )
        emit(
            {
                "case": "search_ab",
                "rules": rules,
                "bots_a": a.bots_a,
                "bots_b": a.bots_b,
                "rounds": games,
                "seed": a.seed,
                "threads": a.threads,
                "unit": "rounds per CPU-second" if a.cpu else "rounds/s",
                "a": [round(x, 1) for x in ra],
                "b": [round(x, 1) for x in rb],
                "median_b/a": round(statistics.median(ratios), 3),
                "range_b/a": [round(min(ratios), 3), round(max(ratios), 3)],
            }
        )
    else:
        reps, games = a.reps or 6, a.games or 100_000
        names = CPU_STRATEGIES.split(",")
        res = {t: {s: [] for s in names} for t in trees}

        def one(t):
            for kv in run_in_tree(
                t, STRATEGIES_CPU_CODE, [rules, games, 3, CPU_STRATEGIES]
            ).stdout.split():
                k, v = kv.split("=")
                res[t][k].append(int(v))
            return 1  # the figures are in res; interleave divides what this returns

        if len(trees) == 2:
            interleave(trees, reps, one, swap=True)
        else:
            for _ in range(reps):
                one(trees[0])
        for s in names:
            emit(
                {
                    "case": "strategy_cpu",
                    "rules": rules,
                    "strategy": s,
                    "rounds": games,
                    **{
                        f"tree{i}": {
                            "tree": t,
                            "best_rounds_per_cpu_s": max(res[t][s]),
                            "best_vs_random": round(max(res[t][s]) / max(res[t]["random"]), 3),
                            "median_per_process_vs_random": round(
                                statistics.median(
                                    x / y for x, y in zip(res[t][s], res[t]["random"])
                                ),
                                3,
                            ),
                        }
                        for i, t in enumerate(trees)
                    },
                }
            )


_PROFILE_CHILD = (
    HOW
    + """
import os, sys
from unospin_sim.run import simulate
from unospin_sim.engine import chunk
rules, bots, games = sys.argv[1], sys.argv[2], int(sys.argv[3])
simulate(rules, bots, games=games, seed=1, **how(threads=1))
rows = []
for eps in chunk.ENTRY_POINTS.values():
    for cres in eps[0].overloads.values():  # compiled in this process: its module is here
        mod = getattr(cres.library, "_final_module", None)
        for f in (mod.functions if mod is not None else ()):
            if not f.is_declaration:
                a = cres.library.get_pointer_to_function(f.name)
                if a:
                    rows.append((a, f.name))
rows.sort()
with open(os.environ["PROFILE_PID_FILE"], "w") as fh:
    fh.write(str(os.getpid()))
with open(f"/tmp/perf-{os.getpid()}.map", "w") as fh:
    for i, (a, name) in enumerate(rows):
        size = rows[i + 1][0] - a if i + 1 < len(rows) else 4096
        fh.write(f"{a:x} {size:x} {name}\\n")
"""
)


def profile(argv):
    import re
    import shutil

    ap = _parser("profile", "each compiled function's share of one thread's compiled time")
    ap.add_argument("--rules", default="classic(players=4)")
    ap.add_argument("--bots", default="search")
    ap.add_argument("--games", type=int, default=150)
    ap.add_argument("--top", type=int, default=12)
    a = ap.parse_args(argv)
    if shutil.which("perf") is None:
        sys.exit("speed.py profile: needs perf (linux-tools) on the PATH")
    with tempfile.TemporaryDirectory() as tmp:
        data = os.path.join(tmp, "perf.data")
        pid_file = os.path.join(tmp, "pid")
        env = dict(
            os.environ, NUMBA_CACHE_DIR=os.path.join(tmp, "cache"), PROFILE_PID_FILE=pid_file
        )
        subprocess.run(
            [
                "perf",
                "record",
                "-q",
                "-e",
                "cpu-clock",  # a software clock: virtual machines often have no cycle counter
                "-F",
                "999",
                "-o",
                data,
                sys.executable,
                "-c",
                _PROFILE_CHILD,
                a.rules,
                a.bots,
                str(a.games),
            ],
            env=env,
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        rep = subprocess.run(
            ["perf", "report", "-i", data, "--no-children", "--sort", "dso,sym", "--stdio"],
            capture_output=True,
            text=True,
        ).stdout
        with open(pid_file) as fh:  # the perf map perf read: not left behind in /tmp
            os.remove(f"/tmp/perf-{fh.read().strip()}.map")
    shares = {}
    for line in rep.splitlines():
        m = re.match(r"\s*([0-9.]+)%\s+\[JIT\].*\[\.\]\s+_ZN(\S+)", line)
        if m:  # a mangled numba name: _ZN<len><part>...B<n>v<n>... -> dotted qualname
            parts, rest = [], m.group(2)
            while (n := re.match(r"(\d+)", rest)) is not None:
                k = int(n.group(1))
                parts.append(rest[len(n.group(1)) : len(n.group(1)) + k])
                rest = rest[len(n.group(1)) + k :]
            name = ".".join(parts)
            shares[name] = shares.get(name, 0.0) + float(m.group(1))
    total = sum(shares.values())
    if not total:
        sys.exit("speed.py profile: perf found no compiled-function samples")
    for name, v in sorted(shares.items(), key=lambda kv: -kv[1])[: a.top]:
        emit(
            {
                "case": "profile",
                "rules": a.rules,
                "bots": a.bots,
                "rounds": a.games,
                "function": name,
                "share_of_compiled": round(v / total, 3),
            }
        )


WORKLOADS = {
    "engine": engine,
    "ladder": ladder,
    "matches": matches,
    "strategies": strategies,
    "search": search,
    "wheel": wheel,
    "programs": programs,
    "dask": dask,
    "design": design,
    "write-path": write_path,
    "profile": profile,
    "ab": ab,
}


def main(argv=None):
    dispatch("speed.py", __doc__, WORKLOADS, argv)


if __name__ == "__main__":
    main()
