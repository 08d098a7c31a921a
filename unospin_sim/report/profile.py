"""The report's skill-profile and skill-worth sections: how far skill goes in each variant
(``python -m unospin_sim skill``: the skill depth, the strength table's order, the
Bradley-Terry rating spread) and what each skill is worth to ``spin_aware`` (``python -m
unospin_sim worth``: restricted play). Both complete the line "How much of the game is
skill?" (``context.SUPPLEMENTS``)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from ..errors import UserError
from .context import Context
from .doc import save_figure
from .render import chart_alt

__all__ = ["load_profiles", "load_worths", "profile_section", "split_skill_inputs", "worth_section"]

#: the skills named in the answer line, per rule set
TOP_SKILLS = 3


def split_skill_inputs(paths) -> tuple[list, list, list]:
    """``report --skill``'s inputs told apart by their content: (tournament directories,
    skill profile directories (holding ``skill.json``), worth tables (``.csv`` files)).
    Anything else counts as a tournament directory, whose loader names the problem."""
    tournaments, profiles, worth = [], [], []
    for p in paths:
        path = Path(p)
        if path.suffix.lower() == ".csv" and not path.is_dir():
            worth.append(p)
        elif (path / "skill.json").is_file():
            profiles.append(p)
        else:
            tournaments.append(p)
    return tournaments, profiles, worth


def load_profiles(dirs) -> list[dict]:
    """Every skill profile directory (``skill --out DIR``), read and checked before the
    report writes anything; one-line :class:`UserError` for one that is not a profile."""
    from ..studies.skill_profile import load_skill_profile

    return [load_skill_profile(d) | {"dir": str(d)} for d in dirs]


def load_worths(files) -> pd.DataFrame | None:
    """Every worth table (``worth --out FILE.csv``) in one table, checked before the report
    writes anything; None when there is none. A rule set given twice for the same seed is
    refused (one line)."""
    from ..studies.restricted import load_worth

    if not files:
        return None
    t = pd.concat([load_worth(f) for f in files], ignore_index=True)
    dup = t[t.duplicated(["rules", "skill", "seed"])]
    if len(dup):
        r = dup.iloc[0]
        raise UserError(
            f"--skill: worth tables: {r['rules']} seed {r['seed']} is in more than one table: give each "
            "rule set's seeds once"
        )
    return t


def _interval(x: float, lo: float, hi: float, digits: int = 3) -> str:
    return f"{x:.{digits}f} [{lo:.{digits}f}, {hi:.{digits}f}]"


def _depth(r) -> str:
    """A profile row's skill depth: its budget, or '> top budget' when not reached."""
    d = r.skill_depth
    return f"> {r.top_budget}" if d is None or d != d else str(int(d))


def profile_section(ctx: Context, profiles: list[dict]) -> None:
    """One row per profile (``tables/skill_profile.csv``), the traces side by side
    (``skill_profile.png``), and the sentence the skill question's line adds."""
    if not profiles:
        return
    import matplotlib.pyplot as plt

    from ..plots.skill import plot_skill_traces

    rows = []
    for p in profiles:
        s = p["rating_spread"]
        rows.append(
            dict(
                rules=p["rules"],
                seed=p["seed"],
                rounds_per_pairing=p["rounds_per_pairing"],
                top_budget=p["top_budget"],
                skill_depth=p["skill_depth"],
                order_holds=p["order"]["holds"],
                order_pairs_failing=len(p["order"]["failing"]),
                rating_spread=s["sd"],
                rating_spread_low=s["sd_low"],
                rating_spread_high=s["sd_high"],
                field=", ".join(p["field"]),
                directory=p["dir"],
            )
        )
    df = pd.DataFrame(rows)
    df.to_csv(ctx.out / "tables" / "skill_profile.csv", index=False)

    ctx.body.h(2, "Skill profile: how far skill goes")
    ctx.body.p(
        "From `python -m unospin_sim skill` (bots rotated from round to round, so seat "
        "advantage cancels; every share is of rounds). The *skill depth* is the smallest "
        "search budget (rollouts a decision) from which every further doubling, played head "
        "to head against the budget below, gains less than 1 point of the rounds with its 95% "
        "upper bound below 2 points; '> top' when a doubling up to the top budget still "
        "gains. The *rating spread* is the standard deviation of the Bradley-Terry ratings "
        "(natural-log strength of a round win) of the field: search at the top budget and "
        "at half of it, the edition's best cheap strategy and random, every pair (95% "
        "bootstrap interval; Duersch, Lambrecht and Oechssler 2020): the larger, the more "
        "the game rewards skill. *Order holds* when every stronger bot wins above a fair "
        "share against every weaker one at 95%. Profiles: "
        + ", ".join(f"`{d}`" for d in df["directory"])
        + "."
    )
    show = pd.DataFrame(
        {
            "rules": df["rules"],
            "seed": df["seed"],
            "rounds per pairing": df["rounds_per_pairing"],
            "top budget": df["top_budget"],
            "skill depth (rollouts)": [
                f"> {r.top_budget}"
                if r.skill_depth is None or r.skill_depth != r.skill_depth
                else str(int(r.skill_depth))
                for r in df.itertuples()
            ],
            "rating spread (SD)": [
                _interval(r.rating_spread, r.rating_spread_low, r.rating_spread_high)
                for r in df.itertuples()
            ],
            "order holds": [
                "yes" if r.order_holds else f"no ({r.order_pairs_failing} pair(s) not above fair)"
                for r in df.itertuples()
            ],
        }
    )
    ctx.body.table(show.set_index("rules"))

    first: dict[str, dict] = {}  # rules -> its first profile: one trace per rule set on the chart
    for p in profiles:
        first.setdefault(p["rules"], p)
    fig, ax = plt.subplots(figsize=(8, 4.5))
    plot_skill_traces(first, ax=ax)
    ax.set_title("Skill trace: each doubling of the search budget against the budget below")
    save_figure(fig, ctx.out, "skill_profile.png")
    ctx.body.figure(
        "skill_profile.png",
        "Each doubling of the search budget head to head against the budget below: the "
        "doubled bot's gain over a fair share of rounds (95% intervals); dash-dotted, each "
        "variant's skill depth. One trace per rule set (its first profile).",
        chart_alt("skill_profile.png", list(first)),
    )

    parts = []
    for rules, g in df.groupby("rules", sort=False):
        seeds = ", ".join(str(r.seed) for r in g.itertuples())
        depths = " and ".join(_depth(r) for r in g.itertuples())
        spreads = " and ".join(
            _interval(r.rating_spread, r.rating_spread_low, r.rating_spread_high)
            for r in g.itertuples()
        )
        parts.append(
            f"`{rules}` skill depth {depths} rollouts, rating spread {spreads} "
            f"(seed{'s' if len(g) > 1 else ''} {seeds})"
        )
    ctx.answer(
        "skill_profile",
        None,
        False,
        "Skill profile (search budgets doubled head to head; Bradley-Terry rating spread of "
        "the field, 95%): " + "; ".join(parts) + ".",
    )


def worth_section(ctx: Context, table: pd.DataFrame | None) -> None:
    """Each rule set's skills, pooled over the seeds (``tables/skill_worth.csv``), and the
    sentence the skill question's line adds: the skills worth most per rule set."""
    if table is None or table.empty:
        return
    from ..studies.restricted import pooled_worth

    pooled = pooled_worth(table)
    pooled.to_csv(ctx.out / "tables" / "skill_worth.csv", index=False)
    ctx.body.h(2, "What each skill is worth")
    seeds = ", ".join(str(s) for s in sorted(table["seed"].unique()))
    ctx.body.p(
        "From `python -m unospin_sim worth` (restricted play, after Jaffe et al. 2012): "
        "player 0 plays `spin_aware` denied one skill against a field of the full bot, "
        "paired with player 0 full on the same rounds; a skill's worth is the points of "
        "round-win share player 0 loses when denied it. Pooled over seeds "
        f"{seeds} (independent rounds: the mean of the seeds, 95% interval from their "
        "standard errors); n/a where denying the skill cannot change a round."
    )
    grid: dict[str, dict[str, str]] = {}
    for r in pooled.itertuples():
        grid.setdefault(r.skill, {})[r.rules] = (
            f"n/a: {r.note}"
            if r.worth != r.worth
            else f"{r.worth:+.2f} [{r.low:+.2f}, {r.high:+.2f}]"
        )
    order = pooled.groupby("skill", sort=False)["worth"].mean().sort_values(ascending=False)
    shown = pd.DataFrame.from_dict(grid, orient="index").reindex(index=order.index)
    shown.index.name = "skill (points of rounds)"
    ctx.body.table(shown.astype(object).where(shown.notna(), "no such skill here"))

    parts = []
    for rules, g in pooled.groupby("rules", sort=False):
        top = g[g["worth"].notna()].head(TOP_SKILLS)
        parts.append(
            f"in `{rules}` "
            + ", ".join(
                f"{r.skill} {r.worth:+.1f} [{r.low:+.1f}, {r.high:+.1f}]" for r in top.itertuples()
            )
        )
    ctx.answer(
        "worth",
        None,
        False,
        "The skills worth most to `spin_aware` (points of rounds lost when denied, 95%): "
        + "; ".join(parts)
        + ".",
    )
