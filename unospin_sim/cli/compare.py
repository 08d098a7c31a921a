"""``compare BASE OTHER [OTHER...]``: a verdict per headline measure of every run against the
base (:mod:`unospin_sim.analysis.verdict`). Each argument is a results directory or a rule
string; rule strings are played here on common seeds (the same ``--games``, ``--seed`` and
``--bots``), so two rule strings of the same players and deck are compared round for round."""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

from ..errors import RuleError, UserError
from .flags import (
    DEFAULT_BOTS,
    MAX_SEED,
    MAX_THREADS,
    add_variant_flag,
    cores,
    int_type,
    parse_games,
)

DEFAULT_COMPARE_GAMES = 100_000
DEFAULT_COMPARE_MATCHES = 1_000


def seconds_type(text: str) -> float:
    try:
        value = float(text.strip())
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and 0 < value <= 3600):
        raise argparse.ArgumentTypeError(
            f"seconds per turn must be a number of seconds above 0 and at most 3600, got {text!r}"
        )
    return value


def add_seconds_per_turn(p) -> None:
    from ..analysis.verdict import SECONDS_PER_TURN

    p.add_argument(
        "--seconds-per-turn",
        type=seconds_type,
        default=SECONDS_PER_TURN,
        metavar="S",
        help=f"seconds a turn takes at the table, for lengths in minutes (default "
        f"{SECONDS_PER_TURN:g}: an assumption, not measured)",
    )


def add_compare(sub) -> None:
    p = sub.add_parser(
        "compare",
        help="a verdict: every run or rule set against a base, measure by measure",
        description="Compare runs against the first (BASE): round length, rounds past 100 "
        "and 150 turns, the first-player edge, winner's points and, for match runs, rounds "
        "per match and the comeback rate, each with its change, a 95% interval (paired "
        "where the runs dealt the same rounds, independent otherwise) and 'no change "
        "distinguishable' where the interval holds zero. Each argument is a results "
        "directory or a rule string; rule strings are played on common seeds.",
        epilog="examples:\n"
        "  python -m unospin_sim compare spin2005 spin2025 --games 1e5\n"
        "  python -m unospin_sim compare 'spin2025' 'spin2025(stacking=true)' --json\n"
        "  python -m unospin_sim compare results/a results/b\n"
        "  python -m unospin_sim compare spin2025 'spin2025(wheel=spin2025_plus_two)' \\\n"
        "      --variant examples/variants/spin2025_plus_two.toml",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("runs", metavar="RUN", nargs="+", help="results directories or rule strings")
    p.add_argument(
        "--games",
        type=parse_games,
        default=None,
        metavar="N",
        help=f"rounds each rule string plays (default {DEFAULT_COMPARE_GAMES:,}); under a "
        f"match mode, matches (default {DEFAULT_COMPARE_MATCHES:,})",
    )
    p.add_argument(
        "--seed",
        type=int_type("seed", 0, MAX_SEED),
        default=0,
        metavar="S",
        help="run seed of the rule strings (default 0)",
    )
    p.add_argument(
        "--bots",
        default=DEFAULT_BOTS,
        metavar="BOTS",
        help=f"bots of the rule strings (default {DEFAULT_BOTS})",
    )
    p.add_argument(
        "--threads",
        type=int_type("threads", 1, MAX_THREADS),
        metavar="N",
        help="worker threads for the rule strings (default: every core)",
    )
    add_seconds_per_turn(p)
    p.add_argument("--json", action="store_true", help="print the table as JSON records")
    p.add_argument("--quiet", action="store_true", help="no progress lines")
    add_variant_flag(p, "name")
    p.set_defaults(func=cmd_compare)


def _is_dir_like(text: str) -> bool:
    return "/" in text or text.startswith(".") or (Path(text).exists() and "(" not in text)


def _resolve(text: str):
    """(kind, value): ``("dir", Path)`` or ``("rules", RuleSet)``; one-line errors."""
    from ..rules import parse_rules

    if not text.strip():
        raise UserError("compare needs results directories or rule strings, got an empty string")
    if _is_dir_like(text):
        if not Path(text).is_dir():
            raise UserError(f"{text}: no such results directory")
        return "dir", Path(text)
    try:
        return "rules", parse_rules(text)
    except RuleError as e:
        raise RuleError(f"{text!r} is neither a results directory nor a rule string: {e}") from None


def _load_dir(path: Path):
    from ..analysis.verdict import RunData
    from ..results import load_results, read_summary_only, run_label

    if read_summary_only(path) is not None:
        raise UserError(f"{path}: a summary-only run; compare needs its round table")
    res = load_results(path)
    meta = dict(res.meta)
    meta["source"] = str(path)
    return RunData(run_label(meta, str(path)), res.rounds, meta, res.matches)


def _play(rules, args, quiet: bool):
    from ..analysis.verdict import RunData
    from ..run import Execution, simulate
    from .flags import resolve_bots

    args.rules = str(rules)
    bots = resolve_bots(args, rules)
    if args.games is not None:
        games = args.games
    else:
        games = DEFAULT_COMPARE_MATCHES if rules.plays_matches else DEFAULT_COMPARE_GAMES
    unit = "matches" if rules.plays_matches else "rounds"
    if not quiet:
        print(f"playing {rules}: {games:,} {unit}, seed {args.seed}", file=sys.stderr, flush=True)
    threads = args.threads if args.threads is not None else min(cores(), MAX_THREADS)
    how = Execution(threads=threads, progress=not quiet)
    res = simulate(rules, bots, games, args.seed, tables=("rounds",), execution=how)
    meta = dict(res.meta)
    meta.setdefault("rules", str(rules))
    meta.setdefault("seed", args.seed)
    return RunData(str(rules), res.rounds, meta, res.matches)


def cmd_compare(args, state: dict) -> int:
    """Execute ``compare``: check every argument, play the rule strings, print the verdict."""
    from ..analysis.verdict import compare_runs, format_comparison, run_legend

    if len(args.runs) < 2:
        raise UserError("compare needs a base and at least one other run or rule string")
    from ..rules import parse_rules
    from .flags import load_variant_flag, resolve_bots

    load_variant_flag(args.variant)  # its wheels and spaces, for the rule strings

    resolved = [_resolve(t) for t in args.runs]  # every argument checked before playing
    loaded = [_load_dir(v) if kind == "dir" else None for kind, v in resolved]
    players: list[tuple[int, str]] = []
    for (_, value), run in zip(resolved, loaded):
        if run is None:
            args.rules = str(value)
            resolve_bots(args, value)  # a bad --bots fails before anything is played
        rules = value if run is None else parse_rules(run.meta["rules"])
        players.append((rules.players, args.runs[len(players)]))
    if len({n for n, _ in players}) > 1:
        (n0, a0), (n1, a1) = players[0], next(x for x in players if x[0] != players[0][0])
        raise UserError(
            f"runs of different player counts are not comparable: {a0} has {n0} players, {a1} {n1}"
        )
    runs = [
        run if run is not None else _play(value, args, args.quiet)
        for (_, value), run in zip(resolved, loaded)
    ]
    table = compare_runs(runs, seconds_per_turn=args.seconds_per_turn)
    if args.json:
        records = [
            {
                k: (None if isinstance(v, float) and not math.isfinite(v) else v)
                for k, v in r.items()
            }
            for r in table.reset_index().to_dict(orient="records")
        ]
        doc = {
            "base": runs[0].label,
            "seconds_per_turn": args.seconds_per_turn,
            "runs": [
                {"label": r.label, "rules": r.meta.get("rules"), "source": r.meta.get("source")}
                for r in runs
            ],
            "rows": records,
        }
        print(json.dumps(doc, indent=1, default=float))
    else:
        print(format_comparison(table, runs[0].label, args.seconds_per_turn))
        print("\n".join(run_legend(runs)))
    return 0
