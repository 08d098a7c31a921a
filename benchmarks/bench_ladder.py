"""The pipeline against its yardstick (issue 11): rounds/s of each layer on the same rounds,
with ratios measured in the same run (wall clock, and the CPU seconds of the process).

    python benchmarks/bench_ladder.py                  # 1e6 classic 4-player rounds, 2 threads
    python benchmarks/bench_ladder.py --games 200000 --repeats 5 --rules "spin2005(players=4)"

Layers, each on rounds ``0 .. games-1`` of one seed, split into the runner's chunks and played
on ``--threads`` threads (every jitted function releases the GIL):

* ``yardstick``: a bare jitted loop playing the rounds with no output at all (``play_round_default``
  only: the rules' own cost);
* ``kernel``: ``play_chunk`` per chunk (output rows and spin records, no Python tables);
* ``simulate``: ``simulate(..., keep=True)``: the tables built in memory as DataFrames;
* ``run``: ``simulate(..., out=DIR, keep=False)``: what ``python -m unospin_sim run`` does
  after start-up (Arrow parts written by the worker threads, manifest, summary counts);
* ``cli``: ``python -m unospin_sim run`` as a subprocess (start-up included), once.

Medians over ``--repeats`` interleaved repeats (layer order rotated each repeat, so a noisy
neighbour hurts every layer alike); the ratios are of medians. One JSON line per layer, then
one line of ratios.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np
from numba import njit


def _yardstick_kernel():
    from unospin_sim.engine.chunk import new_state
    from unospin_sim.engine.layout import R_TURN_CAP, S_TURNS
    from unospin_sim.engine.rng import U64, game_seed
    from unospin_sim.engine.round import play_round_default as play_round  # the default rules

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


def _chunks(games, chunk):
    return [(g0, min(chunk, games - g0)) for g0 in range(0, games, chunk)]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rules", default="classic(players=4)")
    ap.add_argument("--bots", default="random")
    ap.add_argument("--games", type=float, default=1e6)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--no-cli", action="store_true", help="skip the subprocess case")
    a = ap.parse_args(argv)
    games = int(a.games)

    from unospin_sim.bots import parse_bots
    from unospin_sim.engine import kernel
    from unospin_sim.engine import layout as L
    from unospin_sim.engine.encode import encode
    from unospin_sim.rules import parse_rules
    from unospin_sim.runner import simulate

    rules = parse_rules(a.rules)
    args = encode(rules, parse_bots(a.bots, rules.players)).args()
    chunk = int(min(65536, max(1024, games // (a.threads * 16) + 1)))  # the runner's default
    chunks = _chunks(games, chunk)
    ncols = L.n_out_columns(rules.players)
    yardstick = _yardstick_kernel()
    pool = ThreadPoolExecutor(a.threads)

    def run_yardstick(seed):
        list(pool.map(lambda c: yardstick(*args, seed, c[0], c[1]), chunks))

    def run_kernel(seed):
        def one(c):
            out = np.empty((c[1], ncols), np.int64)
            seeds = np.empty(c[1], np.uint64)
            kernel.play_chunk(*args, seed, c[0], out, seeds, False)
        list(pool.map(one, chunks))

    def run_simulate(seed):
        simulate(rules, a.bots, games, seed, threads=a.threads, chunk_size=chunk)

    def run_run(seed):
        with tempfile.TemporaryDirectory() as d:
            simulate(rules, a.bots, games, seed, threads=a.threads, chunk_size=chunk,
                     out=f"{d}/r", keep=False)

    layers = {"yardstick": run_yardstick, "kernel": run_kernel, "simulate": run_simulate,
              "run": run_run}
    # warm-up: compile or load everything once
    run_yardstick(0)
    simulate(rules, a.bots, 1000, 0, threads=1)
    times = {k: [] for k in layers}
    cpu = {k: [] for k in layers}
    names = list(layers)
    for rep in range(a.repeats):
        order = names[rep % len(names):] + names[:rep % len(names)]
        for k in order:
            t0, c0 = time.perf_counter(), time.process_time()
            layers[k](1000 + rep)
            times[k].append(time.perf_counter() - t0)
            cpu[k].append(time.process_time() - c0)
    med = {k: statistics.median(v) for k, v in times.items()}
    cmed = {k: statistics.median(v) for k, v in cpu.items()}
    for k in names:
        print(json.dumps({"layer": k, "rules": str(rules), "bots": a.bots, "games": games,
                          "threads": a.threads, "chunk_size": chunk,
                          "seconds_median": round(med[k], 4),
                          "rounds_per_s": round(games / med[k]),
                          "cpu_seconds_median": round(cmed[k], 4),
                          "repeats": a.repeats}), flush=True)
    if not a.no_cli:
        with tempfile.TemporaryDirectory() as d:
            t0 = time.perf_counter()
            subprocess.run([sys.executable, "-m", "unospin_sim", "run", "--rules", str(rules),
                            "--bots", a.bots, "--games", str(games), "--out", f"{d}/r",
                            "--quiet", "--threads", str(a.threads), "--seed", "7"],
                           check=True, capture_output=True)
            sec = time.perf_counter() - t0
        print(json.dumps({"layer": "cli", "games": games, "seconds": round(sec, 3),
                          "rounds_per_s": round(games / sec), "note": "start-up included"}),
              flush=True)
    ratio = {"kernel/yardstick": med["yardstick"] / med["kernel"],
             "simulate/kernel": med["kernel"] / med["simulate"],
             "run/kernel": med["kernel"] / med["run"],
             "run/yardstick": med["yardstick"] / med["run"]}
    # CPU seconds of the whole process (every thread): what each layer costs, little
    # affected by other processes on a shared machine; with free cores and no
    # serialization, the wall-clock run/kernel approaches cpu run/kernel
    cratio = {"run/kernel": cmed["kernel"] / cmed["run"],
              "simulate/kernel": cmed["kernel"] / cmed["simulate"]}
    print(json.dumps({"ratios (speed, same run)": {k: round(v, 3) for k, v in ratio.items()},
                      "cpu ratios (kernel cpu / layer cpu)":
                          {k: round(v, 3) for k, v in cratio.items()},
                      "targets": {"kernel/yardstick": ">= 0.60", "run/kernel": ">= 0.90"}}),
          flush=True)


if __name__ == "__main__":
    main()
