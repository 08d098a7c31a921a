"""Write README.md from the `compare` JSON files that run.sh wrote beside this script.

The hand-size crossings (a) and (b): ``d(h)``, the change of mean turns per round from the
2005 base at hand size ``h`` with its 95% interval, is interpolated linearly between the two
whole hand sizes where it changes sign. The crossing's interval is where the interval's
ends cross zero, interpolated the same way (pointwise 95% intervals, independent runs: the
decks differ, so `compare` pairs nothing).
"""

from __future__ import annotations

import json
from pathlib import Path

from unospin_sim.rules import parse_rules

HERE = Path(__file__).resolve().parent
#: measure -> (its words, digits, scale): the edge is a share in `compare`'s JSON, shown here
#: in points of win share (percentage points)
MEASURES = {
    "mean_turns": ("turns per round", 2, 1),
    "first_player_edge": ("first-player edge (points of win share)", 2, 100),
    "winner_points": ("winner's points", 2, 1),
}


def load(name):
    return json.loads((HERE / name).read_text())


def rows_of(doc, measure):
    return [r for r in doc["rows"] if r["measure"] == measure]


def hand_size(label):
    return parse_rules(label).option("hand_size")


def zero_at(xs, ys):
    """Where the piecewise-linear curve through (xs, ys) first crosses zero upwards, or None."""
    for (x0, y0), (x1, y1) in zip(zip(xs, ys), zip(xs[1:], ys[1:])):
        if y0 <= 0 <= y1 and y1 != y0:
            return x0 + (0 - y0) * (x1 - x0) / (y1 - y0)
    return None


def crossing(doc):
    rows = sorted(rows_of(doc, "mean_turns"), key=lambda r: hand_size(r["label"]))
    hs = [hand_size(r["label"]) for r in rows]
    est = zero_at(hs, [r["change"] for r in rows])
    lo = zero_at(hs, [r["high"] for r in rows])  # the upper end crosses first
    hi = zero_at(hs, [r["low"] for r in rows])
    return rows, est, lo, hi


def fmt(x, d=2):
    return "n/a" if x is None else f"{x:.{d}f}"


def crossing_section(title, name, edition):
    doc = load(name)
    rows, est, lo, hi = crossing(doc)
    base = rows[0]["base"]
    out = [f"### {title}", ""]
    out.append(
        f"Base: `{doc['base']}`, {base:.2f} turns per round. The hand size at which a "
        f"{edition} round is as long: **{fmt(est)}** [{fmt(lo)}, {fmt(hi)}] cards "
        "(interpolated between whole hand sizes)."
    )
    out += ["", "| rules | turns per round | change from 2005 [95% interval] |", "|---|---|---|"]
    for r in rows:
        out.append(
            f"| `{r['label']}` | {r['value']:.2f} | {r['change']:+.2f} "
            f"[{r['low']:+.2f}, {r['high']:+.2f}] |"
        )
    return out + [""]


def penalties_section(name):
    doc = load(name)
    out = [f"### `{doc['base']}`: the penalties against the published 2 and 4", ""]
    out += ["| rules | measure | published | changed | change [95% interval] | verdict |"]
    out += ["|---|---|---|---|---|---|"]
    for r in doc["rows"]:
        if r["measure"] not in MEASURES:
            continue
        what, d, k = MEASURES[r["measure"]]
        base, value, change, low, high = (
            k * r[c] for c in ("base", "value", "change", "low", "high")
        )
        out.append(
            f"| `{r['label']}` | {what} | {base:.{d}f} | {value:.{d}f} | "
            f"{change:+.{d}f} [{low:+.{d}f}, {high:+.{d}f}] | {r['verdict']} |"
        )
    return out + [""]


def main():
    lines = [
        "# The deck's numbers: answers",
        "",
        "Rounds (one hand each), 4 players, random bots, 200,000 rounds per rule string,",
        "run seed 48: `bash reports/deck-numbers/run.sh` writes the JSON files beside this",
        "page (each a `python -m unospin_sim compare ... --json`, commands in run.sh) and",
        "`answers.py` this page from them. Intervals are 95%; (a) and (b) compare different",
        "decks, so their intervals are independent; (c) changes no card, so `compare` pairs",
        "the rounds (same seeds, same deals).",
        "",
        "## (a) and (b): the hand size that makes a round as long as a 2005 round",
        "",
        *crossing_section(
            "(a) spin2025 (published wheel) against spin2005", "a_spin2025_vs_2005.json", "2025"
        ),
        *crossing_section("(b) classic against spin2005", "b_classic_vs_2005.json", "classic"),
        "## (c) Draw Two draws 3, Wild Draw Four draws 6",
        "",
        "The first-player edge is the win share of the player who acts first after the first",
        "card, above a fair share (`compare`'s definition).",
        "",
        *penalties_section("c_classic_penalties.json"),
        *penalties_section("c_spin2025_penalties.json"),
    ]
    (HERE / "README.md").write_text("\n".join(lines))


if __name__ == "__main__":
    main()
