"""The report's skill section: the best strategy against random fields, per tournament."""

from __future__ import annotations

import math

from ..analysis.stats import Z95

__all__ = ["skill_section"]


def skill_section(body, findings, skill_dirs, out, cmd, answer=None) -> None:
    """The skill section: one row per tournament, and the difference of every tournament's
    round excess from the first one's (independent samples, 95% intervals). ``answer``
    (``Context.answer``) receives each tournament's skill as a headline candidate."""
    import pandas as pd

    from ..tournament import load_skill

    rows = [load_skill(d) for d in skill_dirs]
    t = pd.DataFrame(rows).set_index("rules")
    t.to_csv(out / "tables" / "skill.csv")

    def pct(r, unit, kind=""):
        k = f"{unit}_{kind}" if kind else f"{unit}_share"
        lo, hi = (f"{unit}_{kind}_low", f"{unit}_{kind}_high") if kind else \
            (f"{unit}_low", f"{unit}_high")
        if r[k] != r[k]:
            return "n/a"
        return f"{100 * r[k]:+.1f} [{100 * r[lo]:+.1f}, {100 * r[hi]:+.1f}]" if kind else \
            f"{100 * r[k]:.1f}% [{100 * r[lo]:.1f}, {100 * r[hi]:.1f}]"

    shown = pd.DataFrame({
        "best strategy": t["strategy"],
        "players": t["players"].astype(int),
        "rounds per pairing": t["rounds"].astype(int),
        "round share vs random": [pct(r, "round") for _, r in t.iterrows()],
        "above fair share (pp)": [pct(r, "round", "excess") for _, r in t.iterrows()],
        "match share vs random": [pct(r, "match") for _, r in t.iterrows()],
        "match above fair share (pp)": [pct(r, "match", "excess") for _, r in t.iterrows()],
    }, index=t.index)
    body.h(2, "Skill: the best strategy against random fields")
    body.p("From `python -m unospin_sim tournament` runs (bots rotated from round to round, so "
           "seat advantage cancels): the share of rounds and of matches (races to 500 "
           "assembled from consecutive rounds) that the best strategy wins against a field of "
           "random bots, and how far that is above a fair share, in percentage points, with "
           "95% intervals. Tournaments: " + ", ".join(f"`{d}`" for d in skill_dirs) + ".")
    body.table(shown)
    for rules, r in t.iterrows():
        if answer is not None and r["round_excess"] == r["round_excess"]:
            answer("skill", float(r["round_excess"]),
                   r["round_excess_low"] > 0 or r["round_excess_high"] < 0,
                   f"in `{rules}` the best strategy ({r['strategy']}) wins "
                   f"{100 * r['round_excess']:+.1f} percentage points of rounds above a fair "
                   f"share against random bots [{100 * r['round_excess_low']:+.1f}, "
                   f"{100 * r['round_excess_high']:+.1f}].")
        findings.append(
            f"Skill in `{rules}`: the best strategy ({r['strategy']}) wins "
            f"{100 * r['round_share']:.1f}% of rounds [{100 * r['round_low']:.1f}, "
            f"{100 * r['round_high']:.1f}] against random bots, "
            f"{100 * r['round_excess']:+.1f} percentage points above a fair share "
            f"[{100 * r['round_excess_low']:+.1f}, {100 * r['round_excess_high']:+.1f}]"
            + (f", and {100 * r['match_share']:.1f}% of matches [{100 * r['match_low']:.1f}, "
               f"{100 * r['match_high']:.1f}]" if r["match_share"] == r["match_share"] else "")
            + ".")
    if len(t) > 1:
        first = t.index[0]
        a = t.iloc[0]
        for rules, r in t.iloc[1:].iterrows():
            se = math.hypot((a["round_high"] - a["round_low"]) / (2 * Z95),
                            (r["round_high"] - r["round_low"]) / (2 * Z95))
            d = r["round_excess"] - a["round_excess"]
            lo, hi = d - Z95 * se, d + Z95 * se
            verdict = ("more skill than there" if lo > 0 else "less skill than there"
                       if hi < 0 else "no detectable difference")
            findings.append(
                f"Skill difference: `{rules}` gives the best strategy {100 * d:+.1f} "
                f"percentage points per round [{100 * lo:+.1f}, {100 * hi:+.1f}] more above a "
                f"fair share than `{first}` does ({verdict}).")
