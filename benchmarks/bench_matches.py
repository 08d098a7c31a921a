"""Match-mode throughput: the race to 500 played in the engine, in matches/s (one JSON line
per case; median over repeats; JIT cache warm).

    python benchmarks/bench_matches.py                # classic and spin2005, 4 players
    python benchmarks/bench_matches.py --quick        # fewer matches, for a smoke test
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

CASES = [("classic", 4, "random"), ("spin2005", 4, "random"), ("classic", 4, "heuristic"),
         ("spin2005", 4, "heuristic")]


def bench_case(edition, players, bots, matches, threads, repeats, target=500):
    from unospin_sim.runner import simulate
    rules = f"{edition}(players={players},match=race,target={target})"
    simulate(rules, bots, games=min(matches, 50), seed=1, threads=threads)  # warm
    times, rounds = [], []
    for i in range(repeats):
        t0 = time.perf_counter()
        res = simulate(rules, bots, games=matches, seed=100 + i, threads=threads)
        times.append(time.perf_counter() - t0)
        rounds.append(len(res.rounds))
    sec = statistics.median(times)
    return {"case": "race", "rules": rules, "bots": bots, "matches": matches,
            "seconds": round(sec, 4), "matches_per_s": round(matches / sec, 1),
            "rounds_per_match": round(statistics.mean(rounds) / matches, 3),
            "threads": threads, "repeats": repeats}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--matches", type=int, default=20000)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--quick", action="store_true")
    a = ap.parse_args()
    matches, repeats = (1000, 1) if a.quick else (a.matches, a.repeats)
    for edition, players, bots in CASES:
        print(json.dumps(bench_case(edition, players, bots, matches, a.threads, repeats)),
              flush=True)


if __name__ == "__main__":
    main()
