"""The ``skill`` command: a variant's skill profile (the skill trace and depth, the strength
table, the rating spread; :mod:`unospin_sim.studies.skill_profile`), and ``--side-by-side``:
several profiles' traces on one chart."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..errors import UserError
from .flags import (
    DEFAULT_EDITION,
    MAX_SEED,
    MAX_THREADS,
    int_type,
    parse_games,
    resolve_rules,
    rule_epilog,
    run_name,
)

__all__ = ["add_skill", "cmd_skill"]


def add_skill(sub) -> None:
    p = sub.add_parser(
        "skill",
        help="a variant's skill profile: skill trace and depth, strength table, rating spread",
        description="The skill trace (search at 8, 16, ... rollouts up to --top-budget, each "
        "doubling head to head against the budget below) and the skill depth; the strength "
        "table (search at the top budget and half of it, the best cheap strategy, random: "
        "every pair) and whether its order holds; the Bradley-Terry rating spread with a "
        "bootstrap interval. Bots rotated so that seat advantage cancels; every share is of "
        "rounds. Writes a results directory (Parquet tables, skill.json, summary.md, "
        "skill_trace.png) and prints the summary. --side-by-side DIR ... draws earlier "
        "profiles' traces on one chart instead.",
        epilog="examples:\n"
        "  python -m unospin_sim skill --edition classic --top-budget 128 --out /tmp/sk\n"
        "  python -m unospin_sim skill --edition spin2025 --rounds 4000 --top-budget 64\n"
        "  python -m unospin_sim skill --edition spin2025 --top-budget 64 --reuse /tmp/sk25 \\\n"
        "      --out /tmp/sk25-64   # /tmp/sk25: the same rules, rounds and seed at 32\n"
        "  python -m unospin_sim skill --side-by-side /tmp/sk /tmp/sk25 --out editions.png\n"
        + rule_epilog(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    g = p.add_argument_group("rules")
    g.add_argument("--edition", metavar="E", help=f"an edition (default {DEFAULT_EDITION})")
    g.add_argument(
        "--players",
        type=int_type("players", 2, 10),
        metavar="P",
        help="number of players, 2-10 (default 2)",
    )
    g.add_argument("--wheel", metavar="SPACE=W,...", help="wheel weights, as run's")
    g.add_argument(
        "--turn-cap", type=int_type("turn cap", 1), metavar="N", help="as run's (default 10000)"
    )
    g.add_argument(
        "--option", action="append", default=[], metavar="KEY=VALUE", help="a rule option"
    )
    g.add_argument("--rules", metavar="RULESTRING", help="a full rule string")
    p.add_argument(
        "--top-budget",
        type=int_type("top budget", 16, 65536),
        metavar="R",
        help="the trace's top search budget (rollouts): 16, 32, 64, ... (default 128)",
    )
    p.add_argument(
        "--rounds",
        type=parse_games,
        metavar="N",
        help="rounds per pairing (default 20000, the skill depth's definition; fewer warns)",
    )
    p.add_argument(
        "--cheap",
        metavar="STRATEGY",
        help="the strength table's cheap strategy (default: the edition's best cheap one "
        "measured in docs/BOTS.md)",
    )
    p.add_argument("--seed", type=int_type("seed", 0, MAX_SEED), metavar="S", help="seed (0)")
    p.add_argument(
        "--boot",
        type=int_type("boot", 0, 100_000),
        metavar="B",
        help="bootstrap replicates of the rating spread (default 1000)",
    )
    p.add_argument(
        "--threads",
        type=int_type("threads", 1, MAX_THREADS),
        metavar="N",
        help="worker threads (default 1: search is dear, share the machine)",
    )
    p.add_argument(
        "--out",
        metavar="DIR",
        help="results directory (default results/skill-<edition>-p<P>-s<seed>-<time>); "
        "with --side-by-side the chart's PNG file",
    )
    p.add_argument(
        "--reuse",
        nargs="+",
        metavar="DIR",
        help="earlier profiles of the same rules, --rounds and --seed whose pairings are "
        "taken instead of played again (e.g. a top budget of 32 reused for 64: the same "
        "figures, the new pairings only)",
    )
    p.add_argument("--overwrite", action="store_true", help="replace an earlier profile in --out")
    p.add_argument("--quiet", action="store_true", help="no progress")
    p.add_argument(
        "--side-by-side",
        nargs="+",
        metavar="DIR",
        help="draw these profile directories' traces on one chart (--out FILE.png); plays nothing",
    )
    p.set_defaults(func=cmd_skill)


#: the flags that choose what is played (none may come with --side-by-side)
_PLAY_FLAGS = (
    "edition",
    "players",
    "wheel",
    "turn_cap",
    "option",
    "rules",
    "top_budget",
    "rounds",
    "cheap",
    "seed",
    "boot",
    "threads",
    "overwrite",
    "quiet",
    "reuse",
)


def _side_by_side(dirs, out) -> int:
    from ..studies.skill_profile import load_skill_profile

    if out is None or not str(out).strip():
        raise UserError("--side-by-side writes a chart: give --out FILE.png")
    out = Path(out)
    if out.suffix.lower() != ".png":
        raise UserError(f"--side-by-side writes a PNG: --out must end in .png, got {str(out)!r}")
    loaded = [(d, load_skill_profile(d)) for d in dirs]
    rules = [p["rules"] for _, p in loaded]
    profiles = {}
    for d, prof in loaded:  # a rule set drawn twice is told apart by its seed, then its DIR
        name = (
            prof["rules"]
            if rules.count(prof["rules"]) == 1
            else f"{prof['rules']}, seed {prof.get('seed')}"
        )
        profiles[name if name not in profiles else f"{name} ({d})"] = prof
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from ..plots.skill import plot_skill_traces

    fig, ax = plt.subplots(figsize=(7, 4.5))
    plot_skill_traces(profiles, ax=ax)
    fig.tight_layout()
    try:
        fig.savefig(out, dpi=120)
    except OSError as e:
        raise UserError(f"cannot write {out}: {e.strerror or e}") from None
    finally:
        plt.close(fig)
    print(f"{len(profiles)} skill traces drawn in {out}", file=sys.stderr)
    return 0


def cmd_skill(args, state: dict) -> int:
    from datetime import datetime

    from ..analysis.skill_profile import ISSUE_ROUNDS
    from ..results import claim_out_dir
    from ..run import Execution
    from ..studies.skill_profile import (
        CHEAP_SEED,
        SKILL_FILES,
        format_skill_profile,
        run_skill_profile,
        skill_field,
    )

    if args.side_by_side is not None:
        given = [f for f in _PLAY_FLAGS if getattr(args, f) not in (None, False, [])]
        if given:
            raise UserError(
                f"--side-by-side draws earlier profiles and plays nothing; "
                f"--{given[0].replace('_', '-')} cannot be given with it"
            )
        return _side_by_side(args.side_by_side, args.out)
    defaults = {"top_budget": 128, "rounds": ISSUE_ROUNDS, "seed": 0, "boot": 1000, "threads": 1}
    for key, value in defaults.items():
        if getattr(args, key) is None:
            setattr(args, key, value)
    if args.rules is None and args.players is None:
        args.players = 2
    rules = resolve_rules(args)
    skill_field(rules, args.top_budget, args.cheap)  # bad input: before anything is played
    if args.out is not None and not args.out.strip():
        raise UserError("--out needs a directory name, got an empty string")
    if args.overwrite and args.out is None:
        raise UserError("--overwrite replaces the files in --out: give --out DIR")
    out = args.out
    if out is None:
        stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
        out = Path("results") / ("skill-" + run_name(rules, args.seed, stamp))
    claim_out_dir(out, SKILL_FILES, "skill", overwrite=args.overwrite)
    print(f"skill profile of {rules}: {rules.players} players", file=sys.stderr)
    if args.rounds < ISSUE_ROUNDS:
        print(
            f"warning: {args.rounds:,} rounds a pairing, fewer than the {ISSUE_ROUNDS:,} the "
            f"skill depth is defined with (issue 50): the depth printed is not that figure",
            file=sys.stderr,
        )
    if args.cheap is None and args.seed == CHEAP_SEED:
        print(
            f"warning: the default cheap strategy was chosen on seed {CHEAP_SEED}: report "
            f"on another seed",
            file=sys.stderr,
        )
    prof = run_skill_profile(
        rules,
        top_budget=args.top_budget,
        rounds=args.rounds,
        seed=args.seed,
        cheap=args.cheap,
        boot=args.boot,
        execution=Execution(threads=args.threads, progress=not args.quiet),
        reuse=args.reuse or (),
    )
    written = prof.save(out, overwrite=True)  # claimed above, this run's files
    print(
        f"tables, skill.json, summary.md and skill_trace.png written to {written}", file=sys.stderr
    )
    print(format_skill_profile(prof))
    return 0
