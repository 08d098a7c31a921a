"""The ``design`` command: which wheel, deck or house rules reach a designer's goals (an
optuna study on common random numbers, staged and confirmed; docs/DESIGN.md), a function
adding its subparser and one doing the command."""

from __future__ import annotations

import argparse
from pathlib import Path

from ..errors import UserError
from .flags import MAX_SEED, MAX_THREADS, cores, int_type, parse_games, rule_epilog


def _metric_help() -> str:
    from ..studies.design.goals import METRICS

    where = {
        "matches": "on matches",
        "design": "read off the rules",
        "drama": "on rounds replayed with the event log",
        "wheel_luck": "on paired spin replays",
    }
    return "\n".join(
        f"  {m.name} ({m.unit}; default tolerance {m.tol:g}; "
        f"{where.get(m.kind, 'on rounds')}): {m.doc}"
        for m in METRICS.values()
    )


def _design_epilog() -> str:
    """The end of ``design --help``: goals, metrics, --vary, examples, the rule data."""
    return (
        "goals: METRIC=VALUE[±TOL] (or +-), METRIC<=VALUE, METRIC>=VALUE, "
        "min:METRIC, max:METRIC\nmetrics:\n"
        + _metric_help()
        + "\n--vary: wheel (every space 0-4 segments), wheel=SPACE,SPACE,..., a "
        "number, boolean or enum rule option (NAME or NAME=LO:HI), or with --variant a "
        "space's step number, space:SPACE.STEP[=LO:HI] (draw's n, give's n, skip's "
        "players, repeat's times, discard's keep)\n\nexample:\n"
        "  python -m unospin_sim design --edition spin2025 --players 4 "
        "--goal mean_turns=50 --vary wheel --trials 40 --games 10000 --seed 3 "
        "--out designs/turns50\n"
        "  python -m unospin_sim design --edition spin2025 --variant "
        "examples/variants/spin2025_plus_two.toml --goal mean_turns=60 --vary wheel "
        "--out designs/plus_two\n" + rule_epilog()
    )


def add_design(sub) -> None:
    p = sub.add_parser(
        "design",
        help="search the wheel and rule options for balance goals",
        description="Search which wheel (segment counts) and rule options reach the goals: "
        "an optuna study on common random numbers screens --trials designs at "
        "--games rounds each (or matches, for match metrics), plays the best "
        "longer (--stages), confirms them on a fresh seed and re-checks them "
        "with a field of the edition's best non-search strategy. Writes "
        "designs.csv, best.json, pareto.png, summary.md and the recommended "
        "wheel drawn (wheel.svg, wheel.png, wheel.txt) into --out and "
        "prints a summary (--json: best.json's content). The first trial is the "
        "edition as published; with min:segments_moved its neighbours one segment "
        "away come next. --tie and --segments shape the design space itself; "
        "--robust ranks by the skilled field's verdict too; "
        "`design --resume DIR` finishes a killed study.",
        epilog=_design_epilog(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--resume", metavar="DIR", help="finish the study in DIR (no other flag)")
    p.add_argument("--edition", metavar="E", help="classic, spin2005, spin2025 or spiderman")
    p.add_argument(
        "--players",
        type=int_type("players", 2, 10),
        metavar="P",
        help="number of players, 2-10 (default 4)",
    )
    p.add_argument(
        "--bots",
        metavar="B",
        help="the field: one strategy for every seat or one per seat (default random)",
    )
    p.add_argument("--goal", action="append", metavar="GOAL", help="a goal (repeat for several)")
    p.add_argument(
        "--vary", action="append", metavar="NAME", help="what may change (repeat for several)"
    )
    p.add_argument(
        "--trials", type=int_type("trials", 1), metavar="N", help="designs screened (default 40)"
    )
    p.add_argument(
        "--games",
        type=parse_games,
        metavar="G",
        help="rounds per screened design, or matches for the match metrics (default 10000)",
    )
    p.add_argument(
        "--stages",
        metavar="A,B",
        help="later stages' sizes as multiples of --games (default 10,100)",
    )
    p.add_argument(
        "--skill-bot",
        metavar="S",
        help="the strategy the skill metric measures (default: the edition's "
        "best non-search strategy)",
    )
    p.add_argument(
        "--seed",
        type=int_type("seed", 0, MAX_SEED),
        metavar="S",
        help="the study's seed (default 0)",
    )
    p.add_argument(
        "--workers",
        type=int_type("workers", 1, 64),
        metavar="K",
        help="worker processes sharing the study (default 1: reproducible)",
    )
    p.add_argument(
        "--threads",
        type=int_type("threads", 1, MAX_THREADS),
        metavar="N",
        help="threads per worker (default: every core / workers)",
    )
    p.add_argument(
        "--dask",
        metavar="ADDRESS",
        help="play every measurement on a Dask cluster (a scheduler address "
        "tcp://host:8786, or 'local'); this process keeps the study in --out, "
        "so the workers need no shared disk; instead of --workers; may be "
        "given with --resume",
    )
    p.add_argument(
        "--tie",
        action="append",
        metavar="SPACE,SPACE,...",
        help="these wheel spaces always have equal segment counts (repeat for several "
        "groups; each space in one group, every one varied)",
    )
    p.add_argument(
        "--segments",
        type=int_type("segments", 1, 1000),
        metavar="N",
        help="the wheel always has N segments in all (varied and kept spaces); with "
        "--tie, a design space whose every proposal meets both, not a penalty",
    )
    p.add_argument(
        "--robust",
        action="store_true",
        default=None,
        help="require the goals to hold with a skilled field too: every confirmation "
        "candidate is also played with every seat the edition's best non-search "
        "strategy on the fresh seed, and designs holding every goal on both rank first",
    )
    p.add_argument(
        "--variant",
        metavar="FILE.toml",
        help="a variant file (docs/WHEEL_PROGRAMS.md): its spaces join the wheel at 0 "
        "segments, so --vary wheel tries each 0-4 segments; design.json keeps its text",
    )
    p.add_argument("--out", metavar="DIR", help="the study directory")
    p.add_argument("--quiet", action="store_true", help="no line per trial")
    p.add_argument(
        "--json", action="store_true", help="print best.json's content instead of the summary"
    )
    p.set_defaults(func=cmd_design)


def cmd_design(args, state: dict) -> int:
    """Execute ``design``."""
    import json

    from ..run import dask_client
    from ..studies.design import DesignSpec, parse_goals, resume_design, run_design

    study_flags = (
        "edition",
        "players",
        "bots",
        "goal",
        "vary",
        "trials",
        "games",
        "stages",
        "skill_bot",
        "seed",
        "workers",
        "threads",
        "tie",
        "segments",
        "robust",
        "variant",
        "out",
    )
    if args.resume is not None:
        given = [f"--{k.replace('_', '-')}" for k in study_flags if getattr(args, k) is not None]
        if given:
            raise UserError(
                f"--resume takes the study's own arguments from its design.json; drop {given[0]}"
            )
        with dask_client(args.dask, min(cores(), MAX_THREADS)) as client:
            answer = resume_design(args.resume, progress=not args.quiet, client=client)
    else:
        if not args.edition:
            raise UserError("design needs --edition (or --resume DIR)")
        if not args.out or not args.out.strip():
            raise UserError("design needs --out DIR")
        try:
            stages = [
                int(x) for x in (args.stages if args.stages is not None else "10,100").split(",")
            ]
        except ValueError:
            raise UserError(
                f"--stages must be a comma list of whole multipliers, got {args.stages!r}"
            ) from None
        variant = {}
        if args.variant is not None:
            from ..rules.variants import load_variant, variant_record

            variant = variant_record(load_variant(args.variant))
        spec = DesignSpec(
            args.edition,
            4 if args.players is None else args.players,
            list(args.goal or []),
            list(args.vary or []),
            trials=40 if args.trials is None else args.trials,
            games=10_000 if args.games is None else args.games,
            seed=args.seed or 0,
            bots=args.bots or "random",
            stages=stages,
            workers=args.workers or 1,
            threads=args.threads or 0,
            skill_bot=args.skill_bot or "",
            ties=list(args.tie or []),
            segments=args.segments or 0,
            robust=bool(args.robust),
            variant=variant,
        )
        if args.dask is not None and (args.workers or args.threads):
            raise UserError(
                "--dask plays on the cluster's workers: drop "
                f"{'--workers' if args.workers else '--threads'}"
            )
        spec.check()  # every argument checked before a cluster is started
        if args.skill_bot and all(g.metric != "skill" for g in parse_goals(spec.goals)):
            raise UserError(
                "--skill-bot is the strategy the skill goal measures: give a "
                "skill goal, or drop --skill-bot"
            )
        with dask_client(args.dask, min(cores(), MAX_THREADS)) as client:
            answer = run_design(spec, args.out, progress=not args.quiet, client=client)
    out = args.resume if args.resume is not None else args.out
    print(json.dumps(answer, indent=2) if args.json else summary_text(answer, out))
    return 0


def summary_text(answer: dict, out) -> str:
    """The answer for a reader: the recommended rules, ``confirmed: yes/no``, ``holds with
    a skilled field: yes/no``, each goal's figures beside the edition as published."""
    from ..studies.design.stages import verdict_lines

    if answer["rules"] is None:
        return f"no design reached the confirmation stage; details: {out}/summary.md"
    lines = [f"recommended: {answer['rules']}"]
    lines += [v[2:].replace("`", "") for v in verdict_lines(answer)]

    def fig(m) -> str:
        return f"{m['value']:.4g} [{m['low']:.4g}, {m['high']:.4g}]" if m else "-"

    base = answer.get("baseline", {}).get("metrics", {})
    rob = answer.get("robustness", {}).get("metrics", {})
    for name, m in answer["metrics"].items():
        lines.append(
            f"  {name}: {fig(m)}; published {fig(base.get(name))}"
            + (f"; skilled field {fig(rob[name])}" if name in rob else "")
        )
    for text, held in answer.get("holds", {}).items():
        lines.append(f"  goal {text}: {'holds' if held else 'fails'} on the fresh seed")
    lines.append(
        f"{answer['segments_moved']} wheel segment(s) moved, {answer['options_changed']} "
        f"option(s) changed; {answer['games']:,} {answer['unit']} on seed {answer['seed']}"
    )
    if answer.get("steps"):
        lines.append("step numbers: " + ", ".join(f"{k} = {v}" for k, v in answer["steps"].items()))
    if (Path(out) / "wheel.svg").is_file():
        lines.append(f"wheel drawn: {out}/wheel.svg, {out}/wheel.png; slot layout {out}/wheel.txt")
    lines.append(f"details: {out}/summary.md (machine form: --json, {out}/best.json)")
    return "\n".join(lines)
