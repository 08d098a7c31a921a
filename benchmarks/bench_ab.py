"""Kernel speed of two source trees, interleaved: best of N ``play_chunk`` runs, one thread.

On a shared, noisy machine a median of one tree's runs can move by 2x between minutes;
interleaving the two trees and taking each one's best run gives a ratio that noise biases
far less. Each run is a fresh interpreter (the trees are two copies of the package)::

    python benchmarks/bench_ab.py /path/to/before /path/to/after [--reps 3] [--games 100000]

Prints rounds/s per case for both trees and the ratio after / before.
"""

from __future__ import annotations

import argparse
import os
import sys

from _intree import run_in_tree

CODE = r'''
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
'''
CASES = [("classic(players=4)", "random"), ("spin2005(players=4)", "random"),
         ("spin2025(players=4)", "random"), ("spin2025(players=4)", "heuristic")]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("before")
    ap.add_argument("after")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--games", type=int, default=100_000)
    a = ap.parse_args()
    trees = [os.path.abspath(a.before), os.path.abspath(a.after)]
    res: dict = {}
    for _ in range(a.reps):
        for case in CASES:
            for tree in trees:
                r = run_in_tree(tree, CODE, [*case, a.games])
                res.setdefault((case, tree), []).append(int(r.stdout.split()[-1]))
    print(f"{'case':32s} {'before':>10s} {'after':>10s}  after/before  (rounds/s, best of {a.reps})")
    for case in CASES:
        b, f = (max(res[(case, t)]) for t in trees)
        print(f"{case[0] + ' ' + case[1]:32s} {b:>10,d} {f:>10,d}  {f / b:.3f}")


if __name__ == "__main__":
    main()
