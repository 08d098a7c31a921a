"""Speed of strategy ``search`` in two source trees, A against B, on the same rounds: every
seat searching, the same rules, seed and number of rounds in both, the trees alternated
(A, B, A, B, ...) so that the machine's load hits both alike, each run in a fresh process
in its tree's directory (JIT cache warm: a warm-up round precedes the timed ones). Prints
each pair's rounds/s and ratio B / A, then the medians::

    python benchmarks/bench_search_ab.py /work/old_tree /work/new_tree [--pairs 4]
        [--rules "classic(players=4)"] [--games 400] [--seed 1] [--threads 2] [--cpu]

``--bots-a`` / ``--bots-b`` (default ``search``, on every seat) set each run's bots, so the
same tree twice compares two knob settings::

    python benchmarks/bench_search_ab.py . . --bots-a "search(horizon=0)" --bots-b search

``--cpu`` times the process's CPU seconds instead of the wall clock (use it with
``--threads 1``). Unlike ``bench_search.py`` (a best of repeats on different seeds, for one
tree), every run here plays the same rounds, so the ratio compares the trees' work, not
the luck of the deal. A change of search's decisions also changes the rounds played (their
turns), which is part of what is measured.
"""

from __future__ import annotations

import argparse
import statistics

from _intree import run_in_tree

_CODE = """
import sys, time
from unospin_sim.runner import simulate
rules, games, seed, threads, cpu = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5] == "1"
bots = sys.argv[6]
simulate(rules, bots, games=1, seed=seed, threads=threads)
clock = time.process_time if cpu else time.perf_counter
t = clock()
simulate(rules, bots, games=games, seed=seed, threads=threads)
print(games / (clock() - t))
"""


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("tree_a")
    ap.add_argument("tree_b")
    ap.add_argument("--pairs", type=int, default=4)
    ap.add_argument("--rules", default="classic(players=4)")
    ap.add_argument("--games", type=int, default=400, help="rounds per run")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--cpu", action="store_true", help="CPU seconds instead of wall clock")
    ap.add_argument("--bots-a", default="search", help="run A's bots (default: search)")
    ap.add_argument("--bots-b", default="search", help="run B's bots (default: search)")
    a = ap.parse_args(argv)
    rates = {0: [], 1: []}
    unit = "rounds per CPU-second" if a.cpu else "rounds/s"
    for _ in range(a.pairs):
        for i, (tree, bots) in enumerate(((a.tree_a, a.bots_a), (a.tree_b, a.bots_b))):
            out = run_in_tree(tree, _CODE, [a.rules, a.games, a.seed, a.threads,
                                            1 if a.cpu else 0, bots])
            rates[i].append(float(out.stdout.split()[-1]))
        print(f"A {rates[0][-1]:.1f}  B {rates[1][-1]:.1f}  {unit}  B/A "
              f"{rates[1][-1] / rates[0][-1]:.3f}", flush=True)
    ratios = [b / x for x, b in zip(rates[0], rates[1])]
    print(f"{a.rules}, A {a.bots_a} vs B {a.bots_b}, {a.games} rounds, seed {a.seed}, {a.threads} "
          f"thread(s), {a.pairs} pairs: median A {statistics.median(rates[0]):.1f}, median B "
          f"{statistics.median(rates[1]):.1f} {unit}; median B/A {statistics.median(ratios):.3f} "
          f"(from {min(ratios):.3f} to {max(ratios):.3f})")


if __name__ == "__main__":
    main()
