"""Pooling tournaments: the pairings of several ``tournament --out`` directories (the same
pairings at different seeds) added up (``tournament --pool DIR ...``)."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

from ..errors import UserError
from .stats import wilson_interval

__all__ = ["POOL_COUNTS", "POOL_KEY", "pool_tournaments"]


#: what pairings are pooled by, and the counts that add up
POOL_KEY = ["rules", "kind", "strategy", "opponent", "players"]
POOL_COUNTS = ["round_wins", "rounds", "match_wins", "matches"]


def pool_tournaments(dirs) -> str:
    """Pool the pairings of several tournament ``--out`` directories (typically the same
    pairings at different seeds): every run's share of the rounds and of the matches, then
    each pairing's pooled share over the runs, with 95% Wilson intervals
    (``tournament --pool DIR ...``).

    Runs with different seeds play different rounds, so their rounds (and matches) add up
    as independent samples: pairings are pooled by rules (from each directory's
    ``tournament.json``), kind, strategy and opponents. Two directories with the same rules
    and seed are refused, and so is a directory without a readable tournament output
    (:class:`UserError`, one line).

    Examples
    --------
    >>> print(pool_tournaments(["/tmp/t8", "/tmp/t9"]))  # doctest: +SKIP
    """

    def pct(k: int, n: int) -> str:
        if n == 0:
            return "-"
        lo, hi = wilson_interval(k, n)
        return f"{100 * k / n:.2f}% [{100 * lo:.2f}, {100 * hi:.2f}]"

    if not dirs:
        raise UserError("--pool needs at least one tournament --out directory")
    tables: list[pd.DataFrame] = []
    seen: dict[tuple[str, int], str | Path] = {}  # (rules, seed) -> the directory holding them
    for d in dirs:
        f, meta = Path(d) / "pairings.parquet", Path(d) / "tournament.json"
        if not f.is_file() or not meta.is_file():
            raise UserError(f"no tournament output (pairings.parquet and tournament.json) in {d}")
        try:
            info = json.loads(meta.read_text(encoding="utf-8"))
            rules, seed = str(info["rules"]), int(info["seed"])
        except (ValueError, KeyError, TypeError):
            raise UserError(f"{meta} is not a tournament's description (rules, seed)") from None
        if (rules, seed) in seen:
            raise UserError(
                f"{d} and {seen[rules, seed]} are the same rules and seed "
                f"({rules}, seed {seed}): the same rounds, not independent samples"
            )
        seen[rules, seed] = d
        try:
            t = pd.read_parquet(f)
        except Exception as e:  # a truncated or foreign file
            raise UserError(f"{f} is not a readable Parquet table ({type(e).__name__})") from None
        missing = [c for c in POOL_KEY[1:] + POOL_COUNTS if c not in t.columns]
        if missing:
            raise UserError(
                f"{f} lacks the columns {', '.join(missing)} (not a tournament's pairings table)"
            )
        t["rules"] = rules
        t["run"] = f"{d} (seed {seed})"
        tables.append(t)
    t = pd.concat(tables, ignore_index=True)
    lines = [
        f"{r['run']}: {r['rules']} {r['strategy']} vs {r['opponent']}: rounds "
        f"{pct(int(r['round_wins']), int(r['rounds']))} of {int(r['rounds'])}, matches "
        f"{pct(int(r['match_wins']), int(r['matches']))} of {int(r['matches'])}"
        for _, r in t.iterrows()
    ]
    g = t.groupby(POOL_KEY, sort=False)
    runs = g["run"].nunique()
    for key, r in g[POOL_COUNTS].sum().iterrows():
        rules, kind, strategy, opponent, _ = key
        n = runs[key]
        lines.append(
            f"POOLED over {n} run{'' if n == 1 else 's'}: {rules} {strategy} vs "
            f"{opponent} ({kind}): "
            f"rounds {pct(int(r['round_wins']), int(r['rounds']))} of "
            f"{int(r['rounds'])}, matches {pct(int(r['match_wins']), int(r['matches']))}"
            f" of {int(r['matches'])}"
        )
    return "\n".join(lines)
