"""Engine throughput: one JSON line per case (edition, players, bots, games, seconds, games/s,
threads), medians over repeats, JIT cache warm (a warm-up run precedes the timed ones).

    python benchmarks/bench_engine.py                 # the issue's cases
    python benchmarks/bench_engine.py --quick         # fewer games, for a smoke test
    python benchmarks/bench_engine.py --startup       # cached start-up (import + load) only

Also measures the cached start-up (a fresh interpreter importing the package and loading
the compiled kernel) and the plain-Python reference engine's speed for the ratio.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time

CASES = [
    # (edition, players, bots, threads)
    ("classic", 4, "random", 1),
    ("classic", 4, "random", 2),
    ("spin2005", 4, "random", 2),
    ("spin2025", 4, "random", 2),
    ("spin2025", 4, "heuristic", 2),
    ("spiderman", 4, "random", 2),
]

STARTUP = """
import time; t0 = time.perf_counter()
import numpy as np
from unospin_sim.runner import simulate
simulate("classic(players=4)", "random", games=1, seed=0, threads=1)
print(time.perf_counter() - t0)
"""


def bench_case(edition, players, bots, threads, games, repeats):
    from unospin_sim.runner import simulate
    rules = f"{edition}(players={players})"
    simulate(rules, bots, games=min(games, 2000), seed=1, threads=threads)  # warm
    times = []
    for i in range(repeats):
        t0 = time.perf_counter()
        simulate(rules, bots, games=games, seed=100 + i, threads=threads)
        times.append(time.perf_counter() - t0)
    sec = statistics.median(times)
    return {"case": "engine", "edition": edition, "players": players, "bots": bots,
            "games": games, "seconds": round(sec, 4), "games_per_s": round(games / sec),
            "threads": threads, "repeats": repeats}


def bench_startup(repeats):
    times = []
    for _ in range(repeats):
        out = subprocess.run([sys.executable, "-c", STARTUP], capture_output=True, text=True,
                             check=True)
        times.append(float(out.stdout.strip().splitlines()[-1]))
    return {"case": "startup", "what": "import + load cached kernel + 1 game",
            "seconds": round(statistics.median(times), 3), "repeats": repeats}


def bench_cli(games, repeats):
    """`python -m unospin_sim run --games N` end to end (default rules, Parquet written)."""
    import tempfile
    times = []
    for i in range(repeats):
        with tempfile.TemporaryDirectory() as d:
            t0 = time.perf_counter()
            subprocess.run([sys.executable, "-m", "unospin_sim", "run", "--games", str(games),
                            "--out", f"{d}/r", "--quiet", "--seed", str(i)],
                           check=True, capture_output=True)
            times.append(time.perf_counter() - t0)
    sec = statistics.median(times)
    return {"case": "cli_run_end_to_end", "games": games, "seconds": round(sec, 3),
            "games_per_s": round(games / sec), "repeats": repeats}


def bench_reference(games):
    from unospin_sim import reference
    t0 = time.perf_counter()
    reference.play_many("classic", 4, games, 1)
    sec = time.perf_counter() - t0
    return {"case": "reference_python", "edition": "classic", "players": 4, "bots": "random",
            "games": games, "seconds": round(sec, 3), "games_per_s": round(games / sec),
            "threads": 1}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1_000_000)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--quick", action="store_true", help="50,000 games, 1 repeat")
    ap.add_argument("--startup", action="store_true", help="only the start-up case")
    ap.add_argument("--no-cli", action="store_true", help="skip the end-to-end CLI case")
    a = ap.parse_args(argv)
    if a.quick:
        a.games, a.repeats = 50_000, 1
    print(json.dumps(bench_startup(max(a.repeats, 3))), flush=True)
    if a.startup:
        return
    for case in CASES:
        print(json.dumps(bench_case(*case, a.games, a.repeats)), flush=True)
    if not a.no_cli:
        print(json.dumps(bench_cli(a.games, a.repeats)), flush=True)
    print(json.dumps(bench_reference(2000 if not a.quick else 500)), flush=True)


if __name__ == "__main__":
    main()
