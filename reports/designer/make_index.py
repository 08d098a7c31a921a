"""Write reports/designer/README.md: one section per committed design study (its question,
command, recommended design, confirmed figures with 95% intervals, robustness check), read
from each study's design.json, best.json and summary.md. Run by reports/regenerate.sh."""

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from unospin_sim.studies.design import parse_goals

HERE = Path(__file__).parent
QUESTIONS = {
    "turns-as-2005": "A 2025 wheel (segment counts, and the Wild Spin count if it helps) "
    "whose rounds last as long as 2005's, with the fewest segments changed",
    "no-first-player-edge": "The 2025 design closest to no first-player advantage, and "
    "whether any is equivalent to zero (within ±0.2 percentage "
    "points at 95%)",
    "length-vs-comebacks": "2025: the front of round length against how often the leader "
    "after round 1 wins the match (comebacks)",
    "2005-comebacks": "A 2005 wheel that most raises the comeback rate while rounds stay at "
    "most 50 turns",
}


def section(name: str) -> str:
    d = HERE / name
    spec = json.loads((d / "design.json").read_text())
    best = json.loads((d / "best.json").read_text())
    summary = (d / "summary.md").read_text()
    cmd = next(line for line in summary.splitlines() if line.startswith("Command:"))
    out = [
        f"## {QUESTIONS.get(name, name)}",
        "",
        f"Directory: [`{name}/`]({name}/summary.md). " + cmd.replace("--out DIR", f"--out {name}"),
        "",
    ]
    if best["rules"] is None:
        return "\n".join(out + ["No design reached confirmation.", ""])
    out += [
        f"Recommended: `{best['rules']}` — "
        f"{'confirmed' if best['confirmed'] else 'NOT confirmed'} on a fresh seed "
        f"({best['games']:,} {best['unit']}); {best['segments_moved']} wheel segment(s) "
        f"moved, {best['options_changed']} option(s) changed.",
        "",
    ]
    skilled = best.get("holds_with_skilled_field")
    if skilled is not None or "holds_with_skilled_field" in best:
        word = {True: "yes", False: "no", None: "not measured"}[skilled]
        out += [f"Holds with a skilled field: {word}.", ""]
    if (d / "wheel.png").exists():  # run.sh draws the recommended wheel
        layout = next(
            line for line in (d / "wheel.txt").read_text().splitlines() if " slots, " in line
        )
        out += [
            f"![The recommended wheel of {name}, one wedge per segment, each labelled "
            f"with its space and effect; the slot order is assumed]({name}/wheel.png)",
            "",
            f"{layout} (SVG: [`{name}/wheel.svg`]({name}/wheel.svg))",
            "",
        ]
    goals = parse_goals(spec["goals"])
    out += [
        "| goal | value | 95% interval | met | whole interval within the goal | "
        "the edition as published |",
        "|---|---|---|---|---|---|",
    ]
    base = best.get("baseline", {}).get("metrics", {})
    for g in goals:
        v = best["metrics"][g.metric]
        sure = "" if g.is_objective else ("yes" if g.sure(v["low"], v["high"]) else "no")
        met = "" if g.is_objective else ("yes" if g.holds(v["value"]) else "no")
        b = base.get(g.metric)
        bt = f"{b['value']:.3f} [{b['low']:.3f}, {b['high']:.3f}]" if b else ""
        out.append(
            f"| `{g.text}` | {v['value']:.3f} | [{v['low']:.3f}, {v['high']:.3f}] | "
            f"{met} | {sure} | {bt} |"
        )
    if any(g.op == "=" for g in goals):
        out += [
            "",
            "The last column is an equivalence test: the whole 95% interval within "
            "the goal's tolerance (each one-sided test at level 2.5%).",
        ]
    rob = best.get("robustness")
    if rob:
        held = ", ".join(
            f"`{g}` {'holds' if h else 'fails'}" for g, h in rob["holds"].items() if h is not None
        )
        figs = "; ".join(
            f"{m} {v['value']:.3f} [{v['low']:.3f}, {v['high']:.3f}]"
            for m, v in rob["metrics"].items()
        )
        out += [
            "",
            f"Robustness (every seat `{rob['bots'].split(',')[0]}`, same design and "
            f"seed): {held or 'no target or constraint'} ({figs}).",
        ]
    yard = d / "yardstick.json"
    if yard.exists():  # the goal's reference figure under each field
        y = json.loads(yard.read_text())
        out += [
            "",
            f"Yardstick: {y['what']} is {y['random']:.2f} with random bots and "
            f"{y['robust']:.2f} with every seat `{y['robust_bot']}` "
            f"({y['rounds']:,} rounds each, seed {y['seed']}).",
        ]
        if rob and "mean_turns" in rob["metrics"]:
            g = next(g for g in goals if g.metric == "mean_turns")
            v = rob["metrics"]["mean_turns"]["value"]
            ok = abs(v - y["robust"]) <= g.tol
            out.append(
                f"Against the yardstick for the same field the design "
                f"{'still' if ok else 'no longer'} lasts as long as 2005 "
                f"({v:.2f} turns against {y['robust']:.2f}, tolerance ±{g.tol:g})."
            )
    if "### The Pareto front" in summary and name == "length-vs-comebacks":
        front = summary.split("### The Pareto front", 1)[1].split("\n\n", 2)
        out += ["", "#### The Pareto front" + front[0], "", front[1]]
    extra = [line for line in summary.splitlines() if line.startswith("No design reached")]
    out += [""] + extra + ([""] if extra else [])
    out.append(
        f"Study: {spec['trials']} trials, {spec['games']:,} {best['unit']} per "
        f"screened design, seed {spec['seed']}."
    )
    return "\n".join(out) + "\n"


def main() -> int:
    names = [n for n in QUESTIONS if (HERE / n / "best.json").exists()]
    text = [
        "# The designer's answers",
        "",
        "Made by `bash reports/regenerate.sh` (the `design` studies, then "
        "`python reports/designer/make_index.py`). Each directory holds the study's "
        "`design.json` (its arguments), `designs.csv` (every measurement), `best.json`, "
        "`pareto.png` and `summary.md`; the optuna database stays in the run directory. "
        "Figures are for 4 players and random bots unless said; a design is *confirmed* "
        "when every target and constraint holds on a seed the search never used.",
        "",
    ]
    text += [section(n) for n in names]
    (HERE / "README.md").write_text("\n".join(text))
    print(f"wrote {HERE / 'README.md'} ({len(names)} studies)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
