"""Speed of strategy ``search``: rounds/s with every seat searching (JIT cache warm: a
warm-up run precedes the timed ones), best of the repeats.

    python benchmarks/bench_search.py [--rules "classic(players=4)"] [--rollouts 128]
                                      [--horizon 16] [--games 200] [--repeats 3] [--threads 2]

Prints rounds/s, decisions are not counted separately (turns/s is printed too). The issue's
target: >= 100 four-player classic rounds/s on 2 threads at the default setting (the
defaults here are search's: 128 rollouts cut off at 16 turns).
"""

from __future__ import annotations

import argparse
import time


def main(argv=None):
    from unospin_sim.runner import simulate

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rules", default="classic(players=4)")
    ap.add_argument("--rollouts", type=int, default=128)
    ap.add_argument("--horizon", type=int, default=16)
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--chunk-size", type=int, default=None)
    a = ap.parse_args(argv)
    bots = f"search(rollouts={a.rollouts},horizon={a.horizon})"
    simulate(a.rules, bots, games=4, seed=1, threads=1)  # load / compile
    best, best_t = 0.0, 0.0
    for i in range(a.repeats):
        t0 = time.perf_counter()
        res = simulate(a.rules, bots, games=a.games, seed=100 + i, threads=a.threads,
                       chunk_size=a.chunk_size)
        dt = time.perf_counter() - t0
        best = max(best, a.games / dt)
        best_t = max(best_t, int(res.rounds["turns"].sum()) / dt)
    print(f"{a.rules}, every seat {bots}, {a.games} rounds x {a.repeats}, {a.threads} "
          f"thread(s): best {best:,.1f} rounds/s, {best_t:,.0f} turns/s")


if __name__ == "__main__":
    main()
