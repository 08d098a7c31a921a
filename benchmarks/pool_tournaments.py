"""Pool the pairings of several tournament runs (each written with ``--out DIR``, typically
the same pairing at different ``--seed``): every run's share of the rounds and of the
500-point matches, then the pooled share of each pairing over all the runs, with 95% Wilson
intervals. Used for the strength targets of docs/BOTS.md, where one seed's 8000 rounds give
an interval about +-1 point wide::

    python -m unospin_sim tournament --edition classic --players 4 --games 8000 \\
        --strategies "search(rollouts=8192,horizon=24)" --no-head-to-head --seed 8 \\
        --threads 2 --out /tmp/t8
    (the same with --seed 9 --out /tmp/t9)
    python benchmarks/pool_tournaments.py /tmp/t8 /tmp/t9

Runs with different seeds play different rounds, so their rounds (and matches) add up as
independent samples. A directory without a readable tournament ``pairings.parquet`` is a
one-line error (exit 2).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import pandas as pd

from unospin_sim.analysis.stats import wilson_interval

KEY = ["kind", "strategy", "opponent", "players"]
COUNTS = ["round_wins", "rounds", "match_wins", "matches"]


def _pct(k: int, n: int) -> str:
    if n == 0:
        return "-"
    lo, hi = wilson_interval(k, n)
    return f"{100 * k / n:.2f}% [{100 * lo:.2f}, {100 * hi:.2f}]"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("dirs", nargs="+", help="tournament --out directories")
    a = ap.parse_args(argv)
    tables = []
    for d in a.dirs:
        f = Path(d) / "pairings.parquet"
        if not f.is_file():
            print(f"pool_tournaments: error: no pairings.parquet in {d}", file=sys.stderr)
            return 2
        try:
            t = pd.read_parquet(f)
        except Exception as e:  # a truncated or foreign file
            print(f"pool_tournaments: error: {f} is not a readable Parquet table "
                  f"({type(e).__name__})", file=sys.stderr)
            return 2
        missing = [c for c in KEY + COUNTS if c not in t.columns]
        if missing:
            print(f"pool_tournaments: error: {f} lacks the columns {', '.join(missing)} "
                  f"(not a tournament's pairings table)", file=sys.stderr)
            return 2
        t["run"] = d
        tables.append(t)
    t = pd.concat(tables, ignore_index=True)
    for _, r in t.iterrows():
        print(f"{r['run']}: {r['strategy']} vs {r['opponent']} ({r['players']} players): rounds "
              f"{_pct(int(r['round_wins']), int(r['rounds']))} of {int(r['rounds'])}, matches "
              f"{_pct(int(r['match_wins']), int(r['matches']))} of {int(r['matches'])}")
    pooled = t.groupby(KEY, sort=False)[COUNTS].sum()
    for key, r in pooled.iterrows():
        kind, strategy, opponent, players = key
        print(f"POOLED over {len(a.dirs)} runs: {strategy} vs {opponent} ({players} players, "
              f"{kind}): rounds {_pct(int(r['round_wins']), int(r['rounds']))} of "
              f"{int(r['rounds'])}, matches {_pct(int(r['match_wins']), int(r['matches']))} of "
              f"{int(r['matches'])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
