"""Paired strength comparison of two source trees on the same rounds: each tree plays the
same rules, bots, seed and number of rounds (seats rotated, 2 threads, each tree in its own
process, ``PYTHONPATH`` set to the tree), and the script prints every tree's share of rounds
won by player 0 (the first bot) and the paired difference (tree B minus tree A, round by
round on the same game index) with its standard error and the number of rounds with the
same winner::

    python benchmarks/search_paired.py /work/main /work/wt-new "classic(players=2)" \\
        "search,heuristic" 4000 --seed 3

Used for changes that move search's decisions (docs/BOTS.md): the rounds start from the
same deals, so the paired difference has a far smaller standard error than two independent
shares (most rounds end with the same winner).
"""

from __future__ import annotations

import argparse
import math
import os
import subprocess
import sys
import tempfile

import numpy as np

_CODE = """
import sys
import numpy as np
from unospin_sim.runner import simulate
rules, bots, n, seed, players, out = sys.argv[1:7]
n, seed, players = int(n), int(seed), int(players)
df = simulate(rules, bots, games=n, seed=seed, threads=2, rotate_bots=True,
              chunk_size=max(1, n // 16)).rounds.sort_values("game")
won = ((df.winner + df.game) % players == 0) & (df.winner >= 0)
np.save(out, won.to_numpy().astype(np.float64))
"""


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("tree_a")
    ap.add_argument("tree_b")
    ap.add_argument("rules", help='e.g. "classic(players=2)"')
    ap.add_argument("bots", help='e.g. "search,heuristic" (player 0 is the first bot)')
    ap.add_argument("games", type=int, help="rounds")
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args(argv)
    from unospin_sim.rules import parse_rules  # validates the rule string once, here
    players = parse_rules(a.rules).players
    wins = []
    with tempfile.TemporaryDirectory() as tmp:
        for i, tree in enumerate((a.tree_a, a.tree_b)):
            out = os.path.join(tmp, f"w{i}.npy")
            tree = os.path.abspath(tree)  # run in the tree: ``python -c`` puts the cwd first
            subprocess.run([sys.executable, "-c", _CODE, a.rules, a.bots, str(a.games),
                            str(a.seed), str(players), out], check=True, cwd=tree,
                           env=dict(os.environ, PYTHONPATH=tree))
            wins.append(np.load(out))
            print(f"{tree}: player 0 wins {100 * wins[-1].mean():.2f}% of {a.games} rounds",
                  flush=True)
    d = wins[1] - wins[0]
    se = d.std(ddof=1) / math.sqrt(len(d))
    print(f"{a.rules} {a.bots} seed {a.seed}, {a.games} rounds, seats rotated: B - A "
          f"{100 * d.mean():+.2f} points, se {100 * se:.2f}; same winner "
          f"{int((d == 0).sum())}/{len(d)}")


if __name__ == "__main__":
    main()
