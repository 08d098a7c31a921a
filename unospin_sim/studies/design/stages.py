"""After screening: the promising designs played longer (refine), the best confirmed on a
fresh seed beside the edition as published (baseline) and re-run with a stronger field
(robustness); then the answer: ``designs.csv``, ``best.json``, ``pareto.png``,
``summary.md`` and the recommended wheel drawn (``wheel.svg``, ``wheel.png``, ``wheel.txt``).
"""

from __future__ import annotations

import json
import math
import os
import shlex
import time
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ...errors import UserError
from ...rules import RuleSet, parse_rules
from .drawn import draw_recommended
from .goals import (
    METRICS,
    Goal,
    directions,
    distance,
    fmt_metrics,
    objectives,
    pareto,
    parse_goals,
    unique_metrics,
)
from .space import design_rules, options_changed, segments_moved
from .spec import (
    FRESH_SEED_OFFSET,
    REFINE_FIRST,
    REFINE_LATER,
    ROBUST_BOT,
    SEED_MOD,
    DesignSpec,
    MeasurementStore,
    atomic_write,
    open_study,
    say,
)
from .step_knobs import step_numbers

__all__ = ["rank_key", "refine_and_confirm", "write_answer"]


def rank_key(goals: list[Goal], values: dict, rules: RuleSet) -> tuple:
    """Sort key of a design (module docstring of :mod:`.study`: "Ranking")."""
    d = distance(goals, values)
    key = [0.0 if d <= 1.0 else d]
    for g in goals:
        if g.is_objective:
            v = values[g.metric]
            v = v if v == v else math.inf * (1 if g.op == "min" else -1)
            key.append(v if g.op == "min" else -v)
    return (*key, segments_moved(rules), options_changed(rules))


def refine_and_confirm(
    out: Path, spec: DesignSpec, goals, progress: bool, timings: dict, client=None
) -> pd.DataFrame:
    from optuna.trial import TrialState

    study = open_study(out, spec, goals, create=False)
    store = MeasurementStore(out)
    metrics = [g.metric for g in unique_metrics(goals)]
    designs: dict[str, int] = {}  # rules -> first trial that proposed it
    for t in study.trials:
        if t.state == TrialState.COMPLETE and t.user_attrs.get("rules") not in designs:
            designs[t.user_attrs["rules"]] = t.number
    if not designs:
        raise UserError("no trial finished with a design the rules allow: widen --vary")
    rows = []

    def record(stage, rules_text, e, trial):
        vals = {k: v[0] for k, v in e.metrics.items()}
        rules = parse_rules(rules_text)
        row = {
            "trial": trial,
            "stage": stage,
            "games": e.games,
            "unit": spec.unit,
            "seed": e.seed,
            "bots": e.bots,
            "rules": rules_text,
            "segments_moved": segments_moved(rules),
            "options_changed": options_changed(rules),
        }
        for m in metrics:
            row[m], row[f"{m}_low"], row[f"{m}_high"] = e.metrics[m]
        row["distance"] = distance(goals, vals)
        row["holds"] = all(g.holds(vals[g.metric]) for g in goals)
        rows.append(row)
        return vals

    def play(stage, rules_text, games, seed, bots=spec.bots):
        e = store.get(
            parse_rules(rules_text), games, seed, bots, metrics, spec.skill_bot, spec.threads
        )
        if stage != "screen":
            say(
                progress,
                f"{stage}: {rules_text} | {fmt_metrics(goals, e.metrics)} "
                f"({spec.games_text(games)}, seed {seed}, {e.seconds:.1f} s)",
            )
        return record(stage, rules_text, e, designs[rules_text])

    def prefetch(rules_texts, games, seed, bots=spec.bots, ms=metrics):
        store.prefetch(
            [(parse_rules(r), games, seed, bots, ms) for r in rules_texts],
            client,
            spec.skill_bot,
            progress,
        )

    prefetch(designs, spec.games, spec.seed)
    screened = {r: play("screen", r, spec.games, spec.seed) for r in designs}
    dirs = directions(goals)
    pts = np.array([objectives(goals, v) for v in screened.values()], float)
    front = dict(zip(screened, pareto(pts, dirs)))
    # screening is the noisiest stage: its candidates are ranked by the unbucketed distance
    # (a design whose noisy figure fell just inside a tolerance is not "tied" with one at
    # the goal); later stages rank as the final pick does
    ranked = sorted(
        screened,
        key=lambda r: (distance(goals, screened[r]), *rank_key(goals, screened[r], parse_rules(r))),
    )
    pool = list(
        dict.fromkeys([r for r in ranked if front[r]][:REFINE_FIRST] + ranked[:REFINE_FIRST])
    )[:REFINE_FIRST]
    seed = spec.seed
    t0 = time.perf_counter()
    for _i, mult in enumerate(spec.stages):
        games = spec.games * mult
        prefetch(pool, games, seed)
        res = {r: play(f"refine x{mult}", r, games, seed) for r in pool}
        pool = sorted(res, key=lambda r: rank_key(goals, res[r], parse_rules(r)))
        pool = pool[:REFINE_LATER]
    fresh = (spec.seed + FRESH_SEED_OFFSET) % SEED_MOD
    games = spec.games * spec.stages[-1]
    t1 = time.perf_counter()
    # the edition as published, on the same fresh seed: the figures a design is compared with
    base = str(design_rules(spec.base, spec.players, {}))
    prefetch(list(pool) + [base], games, fresh)
    for r in pool:
        play("confirm", r, games, fresh)
    designs.setdefault(base, -1)
    play("baseline", base, games, fresh)
    t2 = time.perf_counter()
    robust = ROBUST_BOT[spec.edition]
    robust_metrics = [g.metric for g in unique_metrics(goals) if g.metric != "skill"]
    if robust_metrics:
        rbots = ",".join([robust] * spec.players)
        confirmed = [
            r["rules"] for r in rows if r["stage"] == "confirm" and (r["holds"] or spec.robust)
        ]
        prefetch(confirmed, games, fresh, rbots, robust_metrics)
        for r in confirmed:
            e = store.get(
                parse_rules(r), games, fresh, rbots, robust_metrics, spec.skill_bot, spec.threads
            )
            e.metrics.update({m: (math.nan,) * 3 for m in metrics if m not in e.metrics})
            say(
                progress,
                f"robustness ({robust} field): {r} | "
                f"{fmt_metrics([g for g in goals if g.metric != 'skill'], e.metrics)}",
            )
            record("robustness", r, e, designs[r])
    timings.update(
        refine_seconds=round(t1 - t0, 3),
        confirm_seconds=round(t2 - t1, 3),
        robustness_seconds=round(time.perf_counter() - t2, 3),
    )
    df = pd.DataFrame(rows)
    df["pareto"] = df["rules"].map(front).fillna(False).astype(bool)
    ok = set(df.loc[(df["stage"] == "confirm") & df["holds"], "rules"])
    df["confirmed"] = df["rules"].isin(ok)
    return df


def skilled_holds(goals: list[Goal], row) -> bool | None:
    """Whether every goal measurable with the skilled field holds in a robustness ``row``
    (None: no goal is measurable there, e.g. only ``skill``)."""
    held = [
        bool(g.holds(row[g.metric]))
        for g in goals
        if not g.is_objective and row[g.metric] == row[g.metric]
    ]
    return all(held) if held else None


def _best(df: pd.DataFrame, goals: list[Goal], robust: bool = False) -> pd.Series | None:
    conf = df[df["stage"] == "confirm"]
    if conf.empty:
        return None
    rob = {
        r["rules"]: skilled_holds(goals, r) for _, r in df[df["stage"] == "robustness"].iterrows()
    }

    def key(r):
        k = rank_key(goals, {g.metric: getattr(r, g.metric) for g in goals}, parse_rules(r.rules))
        # --robust: holding on the fresh seed and with the skilled field first
        return (not (r.holds and rob.get(r.rules) is not False), *k) if robust else k

    keyed = sorted(conf.itertuples(index=False), key=key)
    top = pd.Series(keyed[0]._asdict())
    return top


def write_answer(out: Path, spec: DesignSpec, goals: list[Goal], df: pd.DataFrame) -> dict:
    tmp = out / ".designs.csv.tmp"
    df.to_csv(tmp, index=False)
    os.replace(tmp, out / "designs.csv")
    best = _best(df, goals, spec.robust)
    answer: dict[str, Any] = {
        "rules": None,
        "confirmed": False,
        "holds_with_skilled_field": None,
        "robust_required": spec.robust,
        "metrics": {},
        "games": None,
        "unit": spec.unit,
    }
    if best is not None:
        answer = {
            "rules": best["rules"],
            "confirmed": bool(best["holds"]),
            "holds_with_skilled_field": None,
            "robust_required": spec.robust,
            "holds": {g.text: bool(g.holds(best[g.metric])) for g in goals if not g.is_objective},
            "games": int(best["games"]),
            "unit": spec.unit,
            "seed": int(best["seed"]),
            "distance": float(best["distance"]),
            "segments_moved": int(best["segments_moved"]),
            "options_changed": int(best["options_changed"]),
            **_steps(spec, best["rules"]),
            "metrics": {
                g.metric: {
                    "value": float(best[g.metric]),
                    "low": float(best[f"{g.metric}_low"]),
                    "high": float(best[f"{g.metric}_high"]),
                }
                for g in unique_metrics(goals)
            },
        }
        bl = df[df["stage"] == "baseline"]
        if not bl.empty:
            b = bl.iloc[0]
            answer["baseline"] = {
                "rules": b["rules"],
                "metrics": {
                    g.metric: {
                        "value": float(b[g.metric]),
                        "low": float(b[f"{g.metric}_low"]),
                        "high": float(b[f"{g.metric}_high"]),
                    }
                    for g in unique_metrics(goals)
                },
            }
        rob = df[(df["stage"] == "robustness") & (df["rules"] == best["rules"])]
        if not rob.empty:
            r = rob.iloc[0]
            answer["robustness"] = {
                "bots": r["bots"],
                "metrics": {
                    g.metric: {
                        "value": float(r[g.metric]),
                        "low": float(r[f"{g.metric}_low"]),
                        "high": float(r[f"{g.metric}_high"]),
                    }
                    for g in unique_metrics(goals)
                    if r[g.metric] == r[g.metric]
                },
                "holds": {
                    g.text: (bool(g.holds(r[g.metric])) if r[g.metric] == r[g.metric] else None)
                    for g in goals
                    if not g.is_objective
                },
            }
            answer["holds_with_skilled_field"] = skilled_holds(goals, r)
    atomic_write(out / "best.json", json.dumps(_finite(answer), indent=2, allow_nan=False) + "\n")
    _pareto_chart(out, goals, df)
    drawn = draw_recommended(out, answer.get("rules"))
    atomic_write(out / "summary.md", _summary(spec, goals, df, answer, out, bool(drawn)))
    return answer


def _finite(obj):
    """``obj`` with every non-finite float as None (strict JSON)."""
    if isinstance(obj, dict):
        return {k: _finite(v) for k, v in obj.items()}
    if isinstance(obj, list):
        return [_finite(v) for v in obj]
    if isinstance(obj, float) and not math.isfinite(obj):
        return None
    return obj


def _pareto_chart(out: Path, goals: list[Goal], df: pd.DataFrame) -> None:
    from matplotlib.figure import Figure  # no pyplot: the caller's backend is untouched

    from ...plots import plot_design_front

    fig = Figure(figsize=(6, 4.5))
    ax = fig.subplots()
    plot_design_front(
        df[df["stage"] == "screen"],
        [METRICS[g.metric] for g in unique_metrics(goals)],
        ax=ax,
        goals=goals,
    )
    fig.tight_layout()
    fig.savefig(out / "pareto.png", dpi=110)


def _summary(
    spec: DesignSpec, goals: list[Goal], df: pd.DataFrame, answer: dict, out: Path, drawn: bool
) -> str:
    screened = df[df["stage"] == "screen"]
    lines = [
        f"# Design study: {spec.edition}, {spec.players} players",
        "",
        "Command: `python -m unospin_sim design " + " ".join(_argv(spec, out)) + "`",
        "",
        f"Goals: {', '.join(g.text for g in goals)}. Varied: {', '.join(spec.vary)}. "
        + "".join(f"Tied: {t}. " for t in spec.ties)
        + (f"Segments in all: {spec.segments}. " if spec.segments else "")
        + f"Field: {spec.bots}. {spec.trials} trials screened at "
        f"{spec.games_text(spec.games)} each ({len(screened)} distinct designs), the "
        f"best refined at {', then '.join(spec.games_text(spec.games * m) for m in spec.stages)}, "
        f"the top {REFINE_LATER} confirmed on a fresh seed.",
        "",
    ]
    if answer["rules"] is None:
        lines.append("No design reached the confirmation stage.")
        return "\n".join(lines) + "\n"
    lines += [
        f"## Recommended: `{answer['rules']}`",
        "",
        *verdict_lines(answer),
        "",
        f"On a fresh seed, {spec.games_text(answer['games'])}; "
        f"{answer['segments_moved']} wheel segment(s) moved, "
        f"{answer['options_changed']} option(s) changed from the edition's defaults"
        + "".join(f"; {k} = {v}" for k, v in answer.get("steps", {}).items())
        + ".",
        "",
        "| goal | value | 95% interval | holds | whole interval holds | the edition as published |",
        "|---|---|---|---|---|---|",
    ]
    base = answer.get("baseline", {}).get("metrics", {})
    for g in goals:
        m = answer["metrics"][g.metric]
        sure = g.sure(m["low"], m["high"])
        b = base.get(g.metric)
        bt = f"{b['value']:.3f} [{b['low']:.3f}, {b['high']:.3f}]" if b else ""
        lines.append(
            f"| `{g.text}` | {m['value']:.3f} | [{m['low']:.3f}, {m['high']:.3f}] | "
            f"{'yes' if g.holds(m['value']) else 'no'} | "
            f"{'yes' if sure else 'no'} | {bt} |"
        )
    if "robustness" in answer:
        rb = answer["robustness"]
        held = "; ".join(
            f"`{g.text}` {'holds' if rb['holds'][g.text] else 'fails'} "
            f"({rb['metrics'][g.metric]['value']:.3f} [{rb['metrics'][g.metric]['low']:.3f}, "
            f"{rb['metrics'][g.metric]['high']:.3f}])"
            for g in goals
            if g.text in rb["holds"] and rb["holds"][g.text] is not None
        )
        lines += [
            "",
            f"Robustness, the same design and fresh seed with every seat "
            f"`{rb['bots'].split(',')[0]}`: {held or 'no goal measurable'}.",
        ]
    front = screened[screened["pareto"]]
    if len(directions(goals)) > 1 and len(front):
        ms = [g.metric for g in unique_metrics(goals)]
        lines += [
            "",
            f"### The Pareto front of the screened designs ({len(front)} of "
            f"{len(screened)}; screening figures, {spec.games_text(spec.games)})",
            "",
            "| design | " + " | ".join(ms) + " |",
            "|---|" + "---|" * len(ms),
        ]
        for _, r in front.sort_values(ms[0]).head(20).iterrows():
            lines.append(
                f"| `{r['rules']}` | "
                + " | ".join(f"{r[m]:.3g} [{r[f'{m}_low']:.3g}, {r[f'{m}_high']:.3g}]" for m in ms)
                + " |"
            )
    missed = [
        g.text
        for g in goals
        if not g.is_objective
        and not screened.apply(lambda r, g=g: g.holds(r[g.metric]), axis=1).any()
    ]
    if missed:
        lines += [
            "",
            f"No design reached at the screening stage: {', '.join(f'`{t}`' for t in missed)}.",
        ]
    lines += ["", "Every measured design: `designs.csv`; the screened designs: `pareto.png`."]
    if drawn:
        lines.append(
            "The recommended wheel drawn: `wheel.svg`, `wheel.png`; its slot layout: `wheel.txt`."
        )
    return "\n".join(lines) + "\n"


def _yes(flag) -> str:
    return "not measured" if flag is None else "yes" if flag else "no"


def verdict_lines(answer: dict) -> list[str]:
    """The two verdicts of an answer, each on its own line: ``confirmed: yes/no`` (every
    goal holds on the fresh seed) and ``holds with a skilled field: yes/no`` (every goal
    measurable there holds with the robustness field on the fresh seed)."""
    conf = "yes" if answer["confirmed"] else "no"
    why = (
        "every goal holds on the fresh seed"
        if answer["confirmed"]
        else "not every goal holds on the fresh seed"
    )
    rb = answer.get("robustness")
    skilled = _yes(answer.get("holds_with_skilled_field"))
    if rb:
        failed = [t for t, h in rb["holds"].items() if h is False]
        skilled += f" (every seat `{rb['bots'].split(',')[0]}`" + (
            f"; fails: {', '.join(f'`{t}`' for t in failed)})" if failed else ")"
        )
    elif not answer["confirmed"] and not answer.get("robust_required"):
        skilled += " (only a confirmed design plays with it; --robust plays every candidate)"
    else:
        skilled += " (no goal but skill, which it does not measure)"
    lines = [f"- confirmed: {conf} ({why})", f"- holds with a skilled field: {skilled}"]
    if answer.get("robust_required"):
        both = answer["confirmed"] and answer.get("holds_with_skilled_field") is not False
        lines.append(
            "- --robust: this design holds on both"
            if both
            else "- --robust: no candidate held every goal on both; this is the best of the rest"
        )
    return lines


def _steps(spec: DesignSpec, rules: str) -> dict:
    """``{"steps": {SPACE.STEP: number}}`` of a design's varied step numbers; ``{}`` when
    it varies none."""
    numbers = step_numbers(spec.vary, parse_rules(rules))
    return {"steps": numbers} if numbers else {}


def _argv(spec: DesignSpec, out="DIR") -> list[str]:
    a = ["--edition", spec.edition, "--players", str(spec.players)]
    if spec.variant:
        a += ["--variant", str(spec.variant["path"])]
    for g in spec.goals:
        a += ["--goal", f"'{g}'"]
    for v in spec.vary:
        a += ["--vary", v]
    a += ["--trials", str(spec.trials), "--games", str(spec.games), "--seed", str(spec.seed)]
    if spec.bots != "random":
        a += ["--bots", spec.bots]
    if spec.stages != [10, 100]:
        a += ["--stages", ",".join(map(str, spec.stages))]
    for t in spec.ties:
        a += ["--tie", t]
    if spec.segments:
        a += ["--segments", str(spec.segments)]
    if spec.robust:
        a += ["--robust"]
    if spec.skill_bot and any(g.metric == "skill" for g in parse_goals(spec.goals)):
        a += ["--skill-bot", f"'{spec.skill_bot}'"]
    return a + ["--out", shlex.quote(str(out))]
