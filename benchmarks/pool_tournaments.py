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
independent samples: pairings are pooled by rules (from each directory's
``tournament.json``), kind, strategy and opponents, and two directories with the same rules
and seed are refused. A directory without a readable tournament output is a one-line error
(exit 2).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import pandas as pd

from unospin_sim.analysis.stats import wilson_interval

KEY = ["rules", "kind", "strategy", "opponent", "players"]
COUNTS = ["round_wins", "rounds", "match_wins", "matches"]


def _pct(k: int, n: int) -> str:
    if n == 0:
        return "-"
    lo, hi = wilson_interval(k, n)
    return f"{100 * k / n:.2f}% [{100 * lo:.2f}, {100 * hi:.2f}]"


def _fail(msg: str) -> int:
    print(f"pool_tournaments: error: {msg}", file=sys.stderr)
    return 2


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(
        description="Pool the pairings of several tournament --out directories (per run and "
                    "pooled shares of rounds and matches, 95% intervals).")
    ap.add_argument("dirs", nargs="+", help="tournament --out directories")
    a = ap.parse_args(argv)
    tables = []
    seen = {}
    for d in a.dirs:
        f = Path(d) / "pairings.parquet"
        meta = Path(d) / "tournament.json"
        if not f.is_file() or not meta.is_file():
            return _fail(f"no tournament output (pairings.parquet and tournament.json) in {d}")
        try:
            info = json.loads(meta.read_text(encoding="utf-8"))
            rules, seed = str(info["rules"]), int(info["seed"])
        except (ValueError, KeyError, TypeError):
            return _fail(f"{meta} is not a tournament's description (rules, seed)")
        if (rules, seed) in seen:
            return _fail(f"{d} and {seen[rules, seed]} are the same rules and seed "
                         f"({rules}, seed {seed}): the same rounds, not independent samples")
        seen[rules, seed] = d
        try:
            t = pd.read_parquet(f)
        except Exception as e:  # a truncated or foreign file
            return _fail(f"{f} is not a readable Parquet table ({type(e).__name__})")
        missing = [c for c in KEY[1:] + COUNTS if c not in t.columns]
        if missing:
            return _fail(f"{f} lacks the columns {', '.join(missing)} "
                         f"(not a tournament's pairings table)")
        t["rules"] = rules
        t["run"] = f"{d} (seed {seed})"
        tables.append(t)
    t = pd.concat(tables, ignore_index=True)
    for _, r in t.iterrows():
        print(f"{r['run']}: {r['rules']} {r['strategy']} vs {r['opponent']}: rounds "
              f"{_pct(int(r['round_wins']), int(r['rounds']))} of {int(r['rounds'])}, matches "
              f"{_pct(int(r['match_wins']), int(r['matches']))} of {int(r['matches'])}")
    g = t.groupby(KEY, sort=False)
    pooled = g[COUNTS].sum()
    runs = g["run"].nunique()
    for key, r in pooled.iterrows():
        rules, kind, strategy, opponent, players = key
        print(f"POOLED over {runs[key]} runs: {rules} {strategy} vs {opponent} ({kind}): "
              f"rounds {_pct(int(r['round_wins']), int(r['rounds']))} of {int(r['rounds'])}, "
              f"matches {_pct(int(r['match_wins']), int(r['matches']))} of "
              f"{int(r['matches'])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
