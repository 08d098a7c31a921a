"""The report's comparisons of runs: every run against the first in the ``compare`` command's
words (``verdict_section``), every run minus the first (``side_by_side_section``) and 2005
against 2025 (``editions_section``).
"""

from __future__ import annotations

import math
from typing import Any

from .context import Context, bots_label, mixed_unrotated
from .doc import ratio_interval

__all__ = ["editions_section", "side_by_side_section", "verdict_section"]


def verdict_section(ctx: Context) -> None:
    """Every run against the first, as ``python -m unospin_sim compare`` says it
    (:mod:`..analysis.verdict`): per run a paragraph and a table, the intervals paired where
    the runs dealt the same rounds; each run's verdict on round length also answers "What
    changed against the first run?"."""
    if len(ctx.runs) <= 1:
        return
    from ..analysis.stats import players_of
    from ..analysis.verdict import (
        EDGE_DEFINITION,
        RunData,
        compare_runs,
        verdict_paragraph,
        verdict_rows,
    )

    runs = [
        RunData(label, rounds, meta, ctx.played.get(label))
        for label, (rounds, _, meta, _) in ctx.runs.items()
    ]
    body = ctx.body
    base = runs[0].label
    body.h(2, f"Verdict: every run against `{base}`")
    if len({players_of(r.rounds) for r in runs}) > 1:
        body.p("Not given: the runs seat different numbers of players.")
        return
    table = compare_runs(runs)
    table.to_csv(ctx.out / "tables" / "verdict.csv")
    body.p(
        "What `python -m unospin_sim compare` says of these runs: each measure's change "
        "against the first run with its 95% interval, paired where the two runs dealt the "
        "same rounds (same players, deck and game seeds), independent otherwise; 'no change "
        "distinguishable' where the interval holds zero."
    )
    for label, t in table.groupby(level="label", sort=False):
        t = t.droplevel("label")
        text = verdict_paragraph(t, f"`{base}`", f"`{label}`")
        body.p(text)
        body.table(verdict_rows(t))
        turns = t.loc["mean_turns"]
        ctx.answer(
            "change",
            float(turns["change"] / turns["base"]) if turns["base"] else 0.0,
            turns["verdict"] != "no change distinguishable",
            text[0].lower() + text[1:],
        )
    body.p(f"{EDGE_DEFINITION}; pp = percentage points.")


def side_by_side_section(ctx: Context) -> None:
    """Differences of every run from the first (runs with equal or rotated bots), and which
    of them hold under every other run."""
    if len(ctx.runs) <= 1:
        return
    from ..analysis import difference_table, sensitivity_table

    body, out, target = ctx.body, ctx.out, ctx.target
    fair_runs = {k: v[0] for k, v in ctx.runs.items() if not mixed_unrotated(v[2])}
    if len(fair_runs) <= 1:
        return
    diff = difference_table(fair_runs, target=target)
    diff.to_csv(out / "tables" / "differences.csv")
    first = list(fair_runs)[0]
    body.h(2, f"Side by side: every run minus `{first}`")
    body.p(
        "Differences with 95% intervals (independent samples). First-player "
        "measures are shares (0.01 = 1 percentage point); match measures come "
        f"from races to {target} assembled from the rounds. holds: +1 clearly "
        "higher, -1 clearly lower, 0 not distinguishable."
    )
    body.table(diff)
    if len(fair_runs) > 2:
        sens = sensitivity_table(diff)
        sens.to_csv(out / "tables" / "sensitivity.csv")
        body.p(f"Which differences from `{first}` hold under every other run:")
        body.table(sens)
        held = [m for m, v in sens["verdict"].items() if v.startswith("holds")]
        flips = [m for m, v in sens["verdict"].items() if v == "flips"]
        ctx.findings.append(
            f"Against `{first}`, these differences hold in every other run: "
            f"{', '.join(held) or 'none'}; these flip direction: "
            f"{', '.join(flips) or 'none'}."
        )


def editions_section(ctx: Context) -> None:
    """2005 against 2025: the first spin2025 run against the first spin2005 run with the same
    bots (round length and winner points as ratios, 95% intervals)."""

    def edition(meta):
        return meta.get("edition") or str(meta.get("rules", "")).split("(")[0]

    by: dict[tuple[str, str], tuple[str, Any]] = {}
    for label, (rounds, _, meta, _) in ctx.runs.items():
        by.setdefault((edition(meta), bots_label(meta)), (label, rounds))
    pairs = [
        (by[("spin2005", b)], by[("spin2025", b)])
        for e, b in by
        if e == "spin2005" and ("spin2025", b) in by
    ]
    if not pairs:
        return
    (l05, r05), (l25, r25) = pairs[0]
    lines = []
    r, lo, hi = ratio_interval(r25["turns"], r05["turns"])
    if math.isfinite(r):
        text = (
            f"`{l25}` rounds last {r:.2f} times as many turns as `{l05}` rounds "
            f"[{lo:.2f}, {hi:.2f}]."
        )
        lines.append(text)
        ctx.answer("editions", r - 1, lo > 1 or hi < 1, text)
    w25 = r25.loc[r25["winner"] >= 0, "winner_points"]
    w05 = r05.loc[r05["winner"] >= 0, "winner_points"]
    r, lo, hi = ratio_interval(w25, w05)
    if math.isfinite(r):
        text = (
            f"a `{l25}` round winner scores {r:.2f} times the points of a `{l05}` one "
            f"[{lo:.2f}, {hi:.2f}]."
        )
        lines.append(text)
        ctx.answer("editions", r - 1, lo > 1 or hi < 1, text)
    if lines:
        ctx.body.h(2, "2005 against 2025 (per round)")
        ctx.body.ul(lines)
