"""Paired-replay throughput: spins fully replayed per second (every wheel space plus the
``none`` control), JIT cache warm. One JSON line per case.

    python benchmarks/bench_wheel.py              # spin2005 and spin2025, 4 players, 2 threads
    python benchmarks/bench_wheel.py --games 5000 # fewer rounds (smoke test)

Target (issue 10): >= 5,000 spins/s for spin2005, 4 random players, 2 threads.
"""

from __future__ import annotations

import argparse
import json
import statistics


def bench(rules, games, threads, repeats):
    from unospin_sim.runner import replay_spins
    replay_spins(rules, "random", games=200, seed=1, threads=threads)  # warm
    rates, reps = [], None
    for i in range(repeats):
        reps = replay_spins(rules, "random", games=games, seed=100 + i, threads=threads)
        rates.append(reps.attrs["spins"] / reps.attrs["replay_seconds"])
    a = reps.attrs
    return {"case": "wheel_replay", "rules": rules, "games": games, "threads": threads,
            "spins": a["spins"], "replays_per_spin": a["replays"] // max(a["spins"], 1),
            "spins_per_s": round(statistics.median(rates)),
            "rounds_replayed_per_s": round(statistics.median(rates) * a["replays"]
                                           / max(a["spins"], 1)),
            "repeats": repeats}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20_000)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--repeats", type=int, default=3)
    a = ap.parse_args()
    for rules in ("spin2005(players=4)", "spin2025(players=4)"):
        print(json.dumps(bench(rules, a.games, a.threads, a.repeats)), flush=True)


if __name__ == "__main__":
    main()
