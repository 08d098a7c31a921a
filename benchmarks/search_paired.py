"""Paired strength comparison of two source trees on the same rounds: each tree plays the
same rules, bots, seed and number of rounds (seats rotated, 2 threads, each tree in its own
process, ``PYTHONPATH`` set to the tree), and the script prints every tree's share of rounds
won by player 0 (the first bot) and the paired difference (tree B minus tree A, round by
round on the same game index) with its standard error and the number of rounds with the
same winner::

    python benchmarks/search_paired.py /work/main /work/wt-new "classic(players=2)" \\
        "search,heuristic" 4000 --seed 3

``--bots-b`` gives run B other bots (the same tree twice compares two knob settings)::

    python benchmarks/search_paired.py . . "classic(players=2)" "search(horizon=0),random" \\
        4000 --seed 3 --bots-b "search,random"

Used for changes that move search's decisions (docs/BOTS.md): the rounds start from the
same deals, so the paired difference has a far smaller standard error than two independent
shares (most rounds end with the same winner).
"""

from __future__ import annotations

import argparse
import math
import os
import tempfile

import numpy as np
from _intree import run_in_tree

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
    ap.add_argument("--bots-b", help="run B's bots (default: the same as run A's)")
    a = ap.parse_args(argv)
    from unospin_sim.rules import parse_rules  # validates the rule string once, here
    players = parse_rules(a.rules).players
    wins = []
    with tempfile.TemporaryDirectory() as tmp:
        runs = ((a.tree_a, a.bots), (a.tree_b, a.bots_b or a.bots))
        for i, (tree, bots) in enumerate(runs):
            out = os.path.join(tmp, f"w{i}.npy")
            run_in_tree(tree, _CODE, [a.rules, bots, a.games, a.seed, players, out],
                        capture=False)
            wins.append(np.load(out))
            lo, hi = wilson(wins[-1].mean(), a.games)
            print(f"{'AB'[i]} {os.path.abspath(tree)} {bots}: player 0 wins "
                  f"{100 * wins[-1].mean():.2f}% [{100 * lo:.1f}, {100 * hi:.1f}] of "
                  f"{a.games} rounds", flush=True)
    d = wins[1] - wins[0]
    se = d.std(ddof=1) / math.sqrt(len(d))
    label = a.bots if a.bots_b is None else f"{a.bots} (A) vs {a.bots_b} (B)"
    print(f"{a.rules} {label} seed {a.seed}, {a.games} rounds, seats rotated: B - A "
          f"{100 * d.mean():+.2f} points, se {100 * se:.2f}; same winner "
          f"{int((d == 0).sum())}/{len(d)}")


def wilson(p, n, z=1.96):
    """95% Wilson interval of a share p of n rounds."""
    c = (p + z * z / (2 * n)) / (1 + z * z / n)
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return c - h, c + h


if __name__ == "__main__":
    main()
