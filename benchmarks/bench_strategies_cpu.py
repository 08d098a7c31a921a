"""The strategies' speed in thread CPU time (load-independent), on one tree or two interleaved.

    python benchmarks/bench_strategies_cpu.py EDITION GAMES PROCESSES TREE [TREE_B]
    python benchmarks/bench_strategies_cpu.py "classic(players=4)" 100000 6 /work/old /work/new

Each of PROCESSES child processes (per tree; the trees alternate, A B B A ...) imports the
tree (PYTHONPATH=TREE), plays GAMES rounds with ``kernel.play_chunk`` three times per strategy
(random, heuristic, greedy, hoarder, colour_keeper, aggressor, spin_aware; every seat that
strategy) and keeps the best rounds per thread-CPU-second. Printed per strategy and tree: the
best rounds/s, its ratio to random's best, and the median over the processes of the
per-process ratio to random (issue 8's target: >= 0.70 for every strategy). Thread CPU time
does not count the time another job holds the core, so two trees compare on a shared machine
where wall-clock figures (bench_strategies.py) move by +-15 points.
"""
import os, sys, statistics
from _intree import run_in_tree
CODE = r'''
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
'''
S = "random,heuristic,greedy,hoarder,colour_keeper,aggressor,spin_aware".split(",")
ed, games, rounds = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
trees = sys.argv[4:6]
if not trees:
    sys.exit("usage: bench_strategies_cpu.py EDITION GAMES PROCESSES TREE [TREE_B]")
res = {t: {s: [] for s in S} for t in trees}
for r in range(rounds):
    for t in (trees if r % 2 == 0 else trees[::-1]):
        o = run_in_tree(t, CODE, [ed, games, 3, ",".join(S)]).stdout.split()
        for kv in o:
            k, v = kv.split("="); res[t][k].append(int(v))
print(f"{ed}, {games} rounds, best of 3 per process (thread CPU time), {rounds} processes per tree")
print(f"{'strategy':15s}" + "".join(f"{os.path.basename(t):>14s} ratio(best)" for t in trees) + "   ratio(median of per-process ratios)")
for s in S:
    line = f"{s:15s}"
    meds = []
    for t in trees:
        b = max(res[t][s]); br = max(res[t]['random'])
        line += f"{b:>14,d} {b/br:>10.3f}"
        meds.append(statistics.median([x / y for x, y in zip(res[t][s], res[t]['random'])]))
    line += "   " + "  ".join(f"{m:.3f}" for m in meds)
    print(line)
