"""Strength: how often player 0 (the first bot) wins, seats rotated, with 95% Wilson intervals;
used for the search figures of docs/BOTS.md::

    python benchmarks/strength.py share RULES BOTS ROUNDS [--seed 1]
    python benchmarks/strength.py share "spin2025(players=2)" "search,heuristic" 1600

    python benchmarks/strength.py paired TREE_A TREE_B RULES BOTS ROUNDS [--seed 1] [--bots-b B]
    python benchmarks/strength.py paired /work/main /work/wt-new "classic(players=2)" \\
        "search,heuristic" 4000 --seed 3

- ``share``: one tree (the installed package), 2 threads: player 0's share of the rounds,
  the speed and the mean round length.
- ``paired``: two source trees on the same rounds: each tree plays the same rules, bots,
  seed and number of rounds (seats rotated, 2 threads, each tree in its own process,
  ``harness.run_in_tree``); prints each tree's share and the paired difference (tree B
  minus tree A, round by round on the same game index) with its standard error and the
  number of rounds with the same winner. The rounds start from the same deals, so the
  paired difference has a far smaller standard error than two independent shares (most
  rounds end with the same winner). ``--bots-b`` gives run B other bots (the same tree
  twice compares two knob settings)::

      python benchmarks/strength.py paired . . "classic(players=2)" "search(horizon=0),random" \\
          4000 --seed 3 --bots-b "search,random"
"""

from __future__ import annotations

import argparse
import math
import os
import tempfile
import time

import numpy as np
from harness import HOW, dispatch, how, run_in_tree, wilson

WON_CODE = (
    HOW
    + """
import sys
import numpy as np
from unospin_sim.run import simulate
rules, bots, n, seed, players, out = sys.argv[1:7]
n, seed, players = int(n), int(seed), int(players)
df = simulate(rules, bots, games=n, seed=seed, rotate_bots=True,
              **how(threads=2, chunk_size=max(1, n // 16))).rounds.sort_values("game")
won = ((df.winner + df.game) % players == 0) & (df.winner >= 0)
np.save(out, won.to_numpy().astype(np.float64))
"""
)


def _pct(share, n):
    lo, hi = wilson(share, n)
    return f"{100 * share:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}]"


def share(argv):
    from unospin_sim.rules import parse_rules
    from unospin_sim.run import simulate

    ap = argparse.ArgumentParser(prog="strength.py share")
    ap.add_argument("rules")
    ap.add_argument("bots", help='e.g. "search,heuristic" (player 0 is the first bot)')
    ap.add_argument("rounds", type=int)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args(argv)
    players = parse_rules(a.rules).players
    t = time.time()
    df = simulate(
        a.rules,
        a.bots,
        games=a.rounds,
        seed=a.seed,
        rotate_bots=True,
        **how(threads=2, chunk_size=max(1, a.rounds // 16)),
    ).rounds
    won = (((df.winner + df.game) % players == 0) & (df.winner >= 0)).mean()
    print(
        f"{a.rules} {a.bots} seed {a.seed} rotated, {a.rounds} rounds: player 0 wins "
        f"{_pct(won, a.rounds)} ; {a.rounds / (time.time() - t):.1f} rounds/s, mean turns "
        f"{df.turns.mean():.1f}, unfinished {(df.winner < 0).sum()}"
    )


def paired(argv):
    from unospin_sim.rules import parse_rules

    ap = argparse.ArgumentParser(prog="strength.py paired")
    ap.add_argument("tree_a")
    ap.add_argument("tree_b")
    ap.add_argument("rules", help='e.g. "classic(players=2)"')
    ap.add_argument("bots", help='e.g. "search,heuristic" (player 0 is the first bot)')
    ap.add_argument("rounds", type=int)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--bots-b", help="run B's bots (default: the same as run A's)")
    a = ap.parse_args(argv)
    players = parse_rules(a.rules).players  # validates the rule string once, here
    wins = []
    with tempfile.TemporaryDirectory() as tmp:
        for i, (tree, bots) in enumerate(((a.tree_a, a.bots), (a.tree_b, a.bots_b or a.bots))):
            out = os.path.join(tmp, f"w{i}.npy")
            run_in_tree(
                tree, WON_CODE, [a.rules, bots, a.rounds, a.seed, players, out], capture=False
            )
            wins.append(np.load(out))
            print(
                f"{'AB'[i]} {os.path.abspath(tree)} {bots}: player 0 wins "
                f"{_pct(wins[-1].mean(), a.rounds)} of {a.rounds} rounds",
                flush=True,
            )
    d = wins[1] - wins[0]
    se = d.std(ddof=1) / math.sqrt(len(d))
    label = a.bots if a.bots_b is None else f"{a.bots} (A) vs {a.bots_b} (B)"
    print(
        f"{a.rules} {label} seed {a.seed}, {a.rounds} rounds, seats rotated: B - A "
        f"{100 * d.mean():+.2f} points, se {100 * se:.2f}; same winner "
        f"{int((d == 0).sum())}/{len(d)}"
    )


WORKLOADS = {"share": share, "paired": paired}


def main(argv=None):
    dispatch("strength.py", __doc__, WORKLOADS, argv)


if __name__ == "__main__":
    main()
