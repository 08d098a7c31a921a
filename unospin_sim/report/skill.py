"""The report's skill section: the strongest bot and the best cheap strategy against random
fields, the skill ladder, and the editions' skill differences, per tournament."""

from __future__ import annotations

import math

from ..analysis.stats import Z95
from ..errors import UserError

__all__ = ["load_skill_dirs", "skill_section"]

#: the two measures of skill: key prefix in the table, and words
MEASURES = (("", "the strongest bot"), ("cheap_", "the best cheap strategy"))


def _pct(r, unit, kind="", pre=""):
    k = f"{pre}{unit}_{kind}" if kind else f"{pre}{unit}_share"
    lo, hi = (
        (f"{pre}{unit}_{kind}_low", f"{pre}{unit}_{kind}_high")
        if kind
        else (f"{pre}{unit}_low", f"{pre}{unit}_high")
    )
    if r.get(k) is None or r[k] != r[k]:
        return "n/a"
    return (
        f"{100 * r[k]:+.1f} [{100 * r[lo]:+.1f}, {100 * r[hi]:+.1f}]"
        if kind
        else f"{100 * r[k]:.1f}% [{100 * r[lo]:.1f}, {100 * r[hi]:.1f}]"
    )


def _differences(t, pre, words, findings):
    """The difference of every tournament's round excess from the first one's
    (independent samples, 95% intervals), for the measure with key prefix ``pre``."""
    first, a = t.index[0], t.iloc[0]
    for rules, r in t.iloc[1:].iterrows():
        if not (
            isinstance(a.get(pre + "strategy"), str) and isinstance(r.get(pre + "strategy"), str)
        ):
            continue
        if pre and a[pre + "strategy"] == a["strategy"] and r[pre + "strategy"] == r["strategy"]:
            continue  # the same bots as the strongest: the same difference
        se = math.hypot(
            (a[pre + "round_high"] - a[pre + "round_low"]) / (2 * Z95),
            (r[pre + "round_high"] - r[pre + "round_low"]) / (2 * Z95),
        )
        d = r[pre + "round_excess"] - a[pre + "round_excess"]
        lo, hi = d - Z95 * se, d + Z95 * se
        verdict = (
            f"more skill than in `{first}`"
            if lo > 0
            else f"less skill than in `{first}`"
            if hi < 0
            else "no detectable difference"
        )
        fair = (
            ""
            if int(r[pre + "players"]) == int(a[pre + "players"])
            else (
                f"; the fair shares differ, {100 / int(r[pre + 'players']):.1f}% and "
                f"{100 / int(a[pre + 'players']):.1f}%"
            )
        )
        findings.append(
            f"Skill difference, measured with {words} ({r[pre + 'strategy']} in `{rules}`, "
            f"{a[pre + 'strategy']} in `{first}`): its excess of rounds won over a fair share "
            f"is {100 * abs(d):.1f} percentage points {'higher' if d >= 0 else 'lower'} in "
            f"`{rules}` (difference {100 * d:+.1f} [{100 * lo:+.1f}, {100 * hi:+.1f}]; "
            f"{verdict}{fair})."
        )


def load_skill_dirs(skill_dirs) -> list[dict]:
    """Every tournament directory's skill (:func:`~unospin_sim.studies.tournament.load_skill`),
    checked before the report writes anything: one-line :class:`UserError` for a directory
    that is not a readable tournament, or two tournaments of the same rules."""
    from ..studies.tournament import load_skill

    loaded = [load_skill(d) for d in skill_dirs]
    seen: dict[str, object] = {}  # rules -> the tournament directory of them
    for d, sk in zip(skill_dirs, loaded):
        if sk["rules"] in seen:
            raise UserError(
                f"--skill: {seen[sk['rules']]} and {d} are tournaments of the same "
                f"rules ({sk['rules']}): give one tournament per rule set"
            )
        seen[sk["rules"]] = d
    return loaded


def skill_section(body, findings, skill_dirs, loaded, out, cmd, answer=None) -> None:
    """The skill section: which bot (and budget) measured skill in each tournament, the
    strongest bot's and the best cheap strategy's shares against random fields, the skill
    ladder (random < cheap < tuned < search) per tournament, and the difference of every
    tournament's round excess from the first one's with both measures (independent samples,
    95% intervals). ``loaded`` is :func:`load_skill_dirs` of ``skill_dirs``. Writes
    ``tables/skill.csv`` (one row per tournament; the cheap
    strategy's columns prefixed ``cheap_``) and ``tables/skill_ladder.csv``. ``answer``
    (``Context.answer``) receives each tournament's skill as a headline candidate."""
    import pandas as pd

    from ..analysis.skill import TIERS, ladder_text

    rows, ladders = [], []
    for sk in loaded:
        cheap, ladder = sk.pop("cheap"), sk.pop("ladder")
        rows.append({**sk, **{f"cheap_{k}": v for k, v in (cheap or {}).items()}})
        ladders.append(ladder.assign(rules=sk["rules"]))
    t = pd.DataFrame(rows).set_index("rules")
    t.to_csv(out / "tables" / "skill.csv")
    lad = pd.concat(ladders, ignore_index=True)
    lad.to_csv(out / "tables" / "skill_ladder.csv", index=False)

    body.h(2, "Skill: the strongest bot against random fields")
    body.p(
        "From `python -m unospin_sim tournament` runs (bots rotated from round to round, so "
        "seat advantage cancels): the share of rounds and of matches (races to 500 "
        "assembled from consecutive rounds) that a bot wins against a field of random "
        "bots, and how far that is above a fair share, in percentage points, with 95% "
        "intervals. Skill is measured with the strongest bot each tournament played (the "
        "highest share of rounds), and, for comparison, with the best cheap strategy (a "
        "single card ranking per decision). Tournaments: "
        + ", ".join(f"`{d}`" for d in skill_dirs)
        + "."
    )
    for pre, words in MEASURES:
        if pre + "strategy" not in t.columns:
            continue
        body.p(f"Measured with {words}:")
        body.table(
            pd.DataFrame(
                {
                    "bot": t[pre + "strategy"],
                    "budget": t[pre + "budget"],
                    "players": t[pre + "players"].astype("Int64"),
                    "rounds per pairing": t["games"].astype("Int64"),
                    "round share vs random": [_pct(r, "round", pre=pre) for _, r in t.iterrows()],
                    "above fair share (pp)": [
                        _pct(r, "round", "excess", pre) for _, r in t.iterrows()
                    ],
                    "match share vs random": [_pct(r, "match", pre=pre) for _, r in t.iterrows()],
                },
                index=t.index,
            )
        )

    body.h(3, "The skill ladder")
    body.p(
        "Each tier's best bot against random fields: random (the fair share), the cheap "
        "card-ranking strategies, `tuned` (a card ranking whose weights an optimiser "
        "tuned), `search` (rollouts per decision). The tier's best strategy is named; "
        "every strategy's share is in `tables/skill_ladder.csv`. Below the table, each "
        "tier's step over the tier below in percentage points (pp) of rounds, with its 95% "
        "interval: paired on the tournament's shared deals where its round-by-round wins "
        "were saved, else as independent samples; > and < where the interval excludes 0, "
        "~ where it does not."
    )
    best = lad[lad["best_in_tier"]]
    grid = {}
    for rules, g in best.groupby("rules", sort=False):
        grid[rules] = {"random": f"{100 / int(g['players'].iloc[0]):.1f}% (fair share)"} | {
            r["tier"]: f"{r['strategy']}: {100 * r['round_share']:.1f}% "
            f"[{100 * r['round_low']:.1f}, {100 * r['round_high']:.1f}]"
            for _, r in g.iterrows()
        }
    grid = pd.DataFrame.from_dict(grid, orient="index").reindex(columns=list(TIERS))
    grid.index.name = "rules"
    body.table(grid.astype(object).where(grid.notna(), "not played"))
    for rules, g in lad.groupby("rules", sort=False):
        body.p(f"`{rules}`: " + ladder_text(g, legend=False))

    for rules, r in t.iterrows():
        if answer is not None and r["round_excess"] == r["round_excess"]:
            answer(
                "skill",
                float(r["round_excess"]),
                r["round_excess_low"] > 0 or r["round_excess_high"] < 0,
                f"in `{rules}` the strongest bot ({r['strategy']}, {r['budget']}) wins "
                f"{100 * r['round_excess']:+.1f} percentage points of rounds above a fair "
                f"share against random bots [{100 * r['round_excess_low']:+.1f}, "
                f"{100 * r['round_excess_high']:+.1f}].",
            )
        findings.append(
            f"Skill in `{rules}`: the strongest bot ({r['strategy']}, {r['budget']}) wins "
            f"{100 * r['round_share']:.1f}% of rounds [{100 * r['round_low']:.1f}, "
            f"{100 * r['round_high']:.1f}] against random bots, "
            f"{100 * r['round_excess']:+.1f} percentage points above a fair share "
            f"[{100 * r['round_excess_low']:+.1f}, {100 * r['round_excess_high']:+.1f}]"
            + (
                f", and {100 * r['match_share']:.1f}% of matches [{100 * r['match_low']:.1f}, "
                f"{100 * r['match_high']:.1f}]"
                if r["match_share"] == r["match_share"]
                else ""
            )
            + (
                f"; the best cheap strategy ({r['cheap_strategy']}) wins "
                f"{100 * r['cheap_round_share']:.1f}% [{100 * r['cheap_round_low']:.1f}, "
                f"{100 * r['cheap_round_high']:.1f}]"
                if isinstance(r.get("cheap_strategy"), str) and r["cheap_strategy"] != r["strategy"]
                else ""
            )
            + "."
        )
    if len(t) > 1:
        for pre, words in MEASURES:
            if pre == "" or pre + "strategy" in t.columns:
                _differences(t, pre, words, findings)
