"""Speed of every strategy relative to ``random``: rounds/s with every seat playing the
strategy, medians over repeats (JIT cache warm: a warm-up run precedes the timed ones).

    python benchmarks/bench_strategies.py [--edition classic] [--players 4] [--games 100000]
                                          [--repeats 5] [--threads 1]

Prints one line per strategy: rounds/s and the ratio to random, and turns/s and its ratio
(strategies play rounds of different lengths: turns/s is the cost per decision). Repeats are
interleaved
(every strategy once per repeat) so that a change in the machine's load hits all of them.
"""

from __future__ import annotations

import argparse
import statistics
import time


def main(argv=None):
    from unospin_sim.bots import STRATEGIES
    from unospin_sim.runner import simulate

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--edition", default="classic")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=100_000)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--strategies", default=",".join(STRATEGIES))
    a = ap.parse_args(argv)
    rules = f"{a.edition}(players={a.players})"
    names = a.strategies.split(",")
    if "random" not in names:
        names.insert(0, "random")
    for s in names:  # warm
        simulate(rules, s, games=2000, seed=1, threads=a.threads)
    times = {s: [] for s in names}
    turns = {s: [] for s in names}
    for i in range(a.repeats):
        for s in names:
            t0 = time.perf_counter()
            res = simulate(rules, s, games=a.games, seed=100 + i, threads=a.threads)
            times[s].append(time.perf_counter() - t0)
            turns[s].append(int(res.rounds["turns"].sum()) / times[s][-1])
    rate = {s: a.games / statistics.median(t) for s, t in times.items()}
    trate = {s: statistics.median(t) for s, t in turns.items()}
    print(f"{rules}, {a.games} rounds x {a.repeats} repeats, {a.threads} thread(s), "
          f"every seat the same strategy; medians")
    print(f"{'strategy':<15}{'rounds/s':>12}{'vs random':>11}{'turns/s':>13}{'vs random':>11}")
    for s in names:
        print(f"{s:<15}{rate[s]:>12,.0f}{rate[s] / rate['random']:>10.0%}"
              f"{trate[s]:>14,.0f}{trate[s] / trate['random']:>10.0%}")


if __name__ == "__main__":
    main()
