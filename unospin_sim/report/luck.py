"""The report's drama section: how often each run's winner came from behind, and how often
the lead changed hands (``run.drama``: the run's own first rounds replayed with the event
log, checked against its rows). With the wheel's luck (``report/wheel.py``) it answers
"How much is luck?"."""

from __future__ import annotations

import pandas as pd

from ..analysis.stats import format_interval
from .context import Context

__all__ = ["drama_section"]


def _rows(ctx: Context, games: int) -> list[dict]:
    from ..errors import UserError
    from ..run.drama import results_drama

    rows = []
    for label, (rounds, _spins, _meta, directory) in ctx.runs.items():
        n = min(games, len(rounds))
        if n < 1:
            continue
        ctx.log(f"drama of {label}: {n:,} rounds replayed")
        try:
            d = results_drama(directory, n)
        except UserError as e:  # e.g. a run without its round table: said, not fatal
            ctx.body.p(f"Drama of `{label}` is not measured: {e}.")
            continue
        r = d["rounds"]
        rows.append(dict(run=label, rounds=r["n"]) | {k: r[k] for k in r if k != "n"})
    return rows


def drama_section(ctx: Context, games: int) -> None:
    """The drama of every run on its first ``games`` rounds (0: no section): a table
    (``tables/drama.csv``), a paragraph, and the sentence the luck question's line adds."""
    if games <= 0:
        return
    rows = _rows(ctx, games)
    if not rows:
        return
    df = pd.DataFrame(rows)
    df.to_csv(ctx.out / "tables" / "drama.csv", index=False)
    ctx.body.h(2, "Drama: did the winner come from behind?")
    ctx.body.p(
        "A round's winner *came back* when, after at least the first third of its turns, it "
        "held strictly more cards than every other player; the *leader* holds strictly the "
        "fewest cards (none on a tie), and a lead change is a new leader. Each run's first "
        f"rounds (at most {games:,}) are replayed with the event log and checked against "
        "its rows; 95% intervals (Wilson for the share, normal for the mean)."
    )
    show = pd.DataFrame(
        {
            "run": df["run"],
            "rounds": df["rounds"],
            "winner came back (% of rounds)": [
                format_interval(r.comeback, r.comeback_low, r.comeback_high, digits=3)
                for r in df.itertuples()
            ],
            "lead changes per round": [
                format_interval(r.lead_changes, r.lead_changes_low, r.lead_changes_high, digits=3)
                for r in df.itertuples()
            ],
        }
    )
    ctx.body.table(show.set_index("run"))
    parts = []
    for r in df.sort_values("comeback").itertuples():
        value, interval = format_interval(
            r.comeback, r.comeback_low, r.comeback_high, digits=3
        ).split(" ", 1)
        parts.append(f"{value}% {interval} of `{r.run}`'s rounds")
    ctx.answer(
        "drama",
        None,
        False,
        "The eventual winner held the most cards after the first third of the round in "
        + ", ".join(parts)
        + ".",
    )
