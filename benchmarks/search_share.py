"""Round share of player 0 (the first bot) with seats rotated, seed 1, 2 threads, with a 95%
Wilson interval; used for the search figures of docs/BOTS.md::

    python benchmarks/search_share.py "spin2025(players=2)" "search,heuristic" 1600
"""
import sys, time, math
from unospin_sim.runner import simulate
rules, bots, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
t = time.time()
df = simulate(rules, bots, games=n, seed=1, threads=2, rotate_bots=True, chunk_size=max(1, n // 16)).rounds
P = int(rules.split("players=")[1].split(")")[0].split(",")[0])
w = (((df.winner + df.game) % P == 0) & (df.winner >= 0)).sum()
p = w / n; z = 1.96
c = (p + z*z/(2*n)) / (1 + z*z/n); h = z*math.sqrt(p*(1-p)/n + z*z/(4*n*n)) / (1 + z*z/n)
print(f"{rules} {bots} seed 1 rotated, {n} rounds: player 0 wins {100*p:.1f}% [{100*(c-h):.1f}, {100*(c+h):.1f}] ; {n/(time.time()-t):.1f} rounds/s, mean turns {df.turns.mean():.1f}, unfinished {(df.winner<0).sum()}")
