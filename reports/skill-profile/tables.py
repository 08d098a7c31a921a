"""The committed skill profiles' figures as Markdown tables (figures.md): per edition and
seed the skill depth and the rating spread; each doubling's gain per seed and pooled over
the two seeds (their rounds summed, Wilson interval). Plays nothing::

    python reports/skill-profile/tables.py > reports/skill-profile/figures.md
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from unospin_sim.analysis.skill_profile import skill_depth
from unospin_sim.analysis.stats import wilson_interval
from unospin_sim.studies.skill_profile import load_skill_profile

HERE = Path(__file__).parent
EDITIONS = ("classic", "spiderman", "spin2005", "spin2025")


def _profiles() -> dict:
    """(edition, top budget, seed) -> profile, the deepest trace of each kept too."""
    out = {}
    for d in sorted(HERE.glob("*-2p*-s*")):
        if (d / "skill.json").is_file():
            p = load_skill_profile(d)
            out[p["rules"].split("(")[0], p["top_budget"], p["seed"]] = p | {"dir": d.name}
    return out


def _depth(p) -> str:
    return f"> {p['top_budget']}" if p["skill_depth"] is None else str(p["skill_depth"])


def main() -> None:
    profs = _profiles()
    print("# Skill profiles: the figures\n")
    print("Made by `python reports/skill-profile/tables.py` from the profile directories.\n")
    for top in sorted({t for _, t, _ in profs}):
        print(f"## Skill depth and rating spread (top budget {top})\n")
        print(
            "| edition | seed | skill depth (rollouts) | rating spread (SD) [95%] | Elo | order holds |"
        )
        print("|---|---|---|---|---|---|")
        for ed in EDITIONS:
            for seed in (1, 2):
                p = profs.get((ed, top, seed))
                if p is None:
                    continue
                s, o = p["rating_spread"], p["order"]
                order = "yes" if o["holds"] else "no: " + "; ".join(o["failing"])
                print(
                    f"| {ed} | {seed} | {_depth(p)} | {s['sd']:.3f} [{s['sd_low']:.3f}, "
                    f"{s['sd_high']:.3f}] | {s['sd_elo']:.0f} | {order} |"
                )
        print()
    print("## The skill trace: each doubling's gain over a fair share (points of rounds)\n")
    print("The deepest profile of each edition and seed; pooled: both seeds' rounds.\n")
    print("| edition | doubling | seed 1 [95%] | seed 2 [95%] | pooled [95%] |")
    print("|---|---|---|---|---|")
    depths = {}
    for ed in EDITIONS:
        pooled_rows = []
        tops = {
            seed: max((t for e, t, s in profs if e == ed and s == seed), default=None)
            for seed in (1, 2)
        }
        traces = {s: profs[ed, t, s]["trace"] for s, t in tops.items() if t is not None}
        budgets = sorted({int(b) for t in traces.values() for b in t["budget"]})
        for b in budgets:
            cells, wins, n = [], 0, 0
            for seed in (1, 2):
                t = traces.get(seed)
                row = None if t is None else t[t["budget"] == b]
                if row is None or row.empty:
                    cells.append("not played")
                    continue
                r = row.iloc[0]
                cells.append(
                    f"{100 * r.gain:+.1f} [{100 * r.gain_low:+.1f}, {100 * r.gain_high:+.1f}]"
                )
                wins, n = wins + int(r.wins), n + int(r.rounds)
            pooled = "n/a"
            if n and all(c != "not played" for c in cells):
                lo, hi = wilson_interval(wins, n)
                pooled_rows.append(dict(budget=b, gain=wins / n - 0.5, gain_high=hi - 0.5))
                pooled = f"{100 * (wins / n - 0.5):+.2f} [{100 * (lo - 0.5):+.2f}, {100 * (hi - 0.5):+.2f}]"
            print(f"| {ed} | {b} -> {2 * b} | {cells[0]} | {cells[1]} | {pooled} |")
        if pooled_rows:
            d = skill_depth(pd.DataFrame(pooled_rows))
            top = 2 * pooled_rows[-1]["budget"]
            depths[ed] = f"> {top}" if d is None else str(d)
    print(
        "\nThe skill depth's rule on the pooled steps (both seeds' rounds: narrower intervals "
        "than one seed's 20,000): "
        + ", ".join(f"{ed} {d}" for ed, d in depths.items())
        + " rollouts."
    )


if __name__ == "__main__":
    main()
