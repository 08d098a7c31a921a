"""The commands that play and read one run: ``run``, ``play``, ``summary``, ``report`` and
``compile``, each a function adding its subparser and one doing the command."""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import replace
from pathlib import Path

from ..errors import UserError
from .flags import (
    DEFAULT_BOTS,
    MAX_GAMES,
    MAX_SEED,
    MAX_THREADS,
    add_rule_flags,
    cores,
    default_out,
    int_type,
    parse_games,
    resolve_bots,
    resolve_rules,
    rule_epilog,
)


def add_run(sub) -> None:
    p = sub.add_parser(
        "run",
        help="simulate many rounds and write a results directory",
        description="Simulate GAMES rounds and write a results directory (Parquet + meta.json).",
        epilog="examples:\n"
        "  python -m unospin_sim run --games 1e6\n"
        "  python -m unospin_sim run --games 1e5 --edition classic --bots random\n"
        "  python -m unospin_sim run --edition spin2025 --wheel two_x=2,swap_hands=1\n"
        "  python -m unospin_sim run --rules 'spin2005(players=3)' --out results/x\n"
        + rule_epilog(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "--games",
        type=parse_games,
        default=None,
        metavar="N",
        help="rounds to play; accepts 1000000, 1_000_000 or 1e6 (default 1e6)",
    )
    m = p.add_argument_group("matches (rule options match and target)")
    m.add_argument(
        "--match",
        metavar="MODE",
        help="single (default: one round per game), race (first to --target points "
        "wins) or lowest (lowest total when someone passes --target)",
    )
    m.add_argument(
        "--target",
        type=int_type("target", 1, 1_000_000),
        metavar="POINTS",
        help="points that end a match (default 500)",
    )
    m.add_argument(
        "--matches",
        type=parse_games,
        metavar="N",
        help="whole matches to play under --match race/lowest (default 1000)",
    )
    p.add_argument(
        "--seed",
        type=int_type("seed", 0, MAX_SEED),
        default=None,
        metavar="S",
        help="run seed; game g uses a stream derived from (S, g) (default 0)",
    )
    add_rule_flags(p)
    p.add_argument(
        "--threads",
        type=int_type("threads", 1, MAX_THREADS),
        metavar="N",
        help="worker threads (default: every core); never changes the results",
    )
    p.add_argument(
        "--dask",
        metavar="ADDRESS",
        help="play on a Dask cluster: a scheduler address (tcp://host:8786) or "
        "'local' for a local cluster of processes; needs the [dask] extra",
    )
    p.add_argument(
        "--chunk-size",
        type=int_type("chunk size", 1),
        metavar="N",
        help="games per work chunk / Parquet part (default: the runner's)",
    )
    p.add_argument(
        "--out",
        metavar="DIR",
        help="results directory (default results/<edition>-p<P>-s<S>-<time>)",
    )
    p.add_argument(
        "--label",
        metavar="TEXT",
        help="a name for the run (one line, at most 80 characters), stored in meta.json "
        "and used for it by summary, compare, report and the notebooks instead of its "
        "rule string",
    )
    p.add_argument(
        "--overwrite",
        action="store_true",
        help="replace the results already in --out (the new run is built beside "
        "them and replaces them only once finished)",
    )
    p.add_argument(
        "--resume",
        metavar="DIR",
        help="finish the interrupted run in DIR (its parameters come from "
        "DIR/run.json; only --threads, --dask and --quiet may be given too)",
    )
    p.add_argument(
        "--tables",
        metavar="T",
        help="tables to write: 'rounds,spins' (default), 'rounds' or 'none' "
        "(only meta.json with the summary counts, and under --match the "
        "match table)",
    )
    p.add_argument("--no-spins", action="store_true", help="the same as --tables rounds")
    p.add_argument("--summary-only", action="store_true", help="the same as --tables none")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=cmd_run)


_RUN_FLAGS_FIXED = (
    "games",
    "seed",
    "edition",
    "players",
    "wheel",
    "turn_cap",
    "rules",
    "chunk_size",
    "out",
    "match",
    "target",
    "matches",
    "label",
)


def cmd_run(args, state: dict) -> int:
    """Execute ``run``: validate everything, simulate (or resume), print the summary."""
    from ..analysis.summary_text import run_summary_text
    from ..run import Execution, RunSpec, dask_client, games_to_play, resume, simulate
    from ..run.inputs import check_tables

    threads = args.threads if args.threads is not None else min(cores(), MAX_THREADS)

    def started(store):
        state["store"] = store
        p = store.params
        where = f"dask {state['dask']}" if state.get("dask") else f"threads {threads}"
        named = f"label {p['label']!r}  " if p.get("label") else ""
        print(f"{named}rules {p['rules']}  bots {','.join(p['bots'])}  seed {p['seed']}  {where}")
        print(
            f"writing results to {store.path}"
            + (f" (replaces {store.target} when finished)" if store.target != store.path else ""),
            flush=True,
        )

    how = Execution(threads=threads, progress=not args.quiet, keep=False, on_start=started)
    if args.resume is not None:
        given = [f for f in _RUN_FLAGS_FIXED if getattr(args, f, None) is not None]
        given += [f for f in ("overwrite", "rotate_bots") if getattr(args, f)]
        given += [
            f
            for f in ("tables", "no_spins", "summary_only")
            if getattr(args, f) not in (None, False)
        ]
        if args.option or args.bots != DEFAULT_BOTS:
            given.append("bots/option")
        if given:
            raise UserError(
                f"--resume takes the run's parameters from its run.json; "
                f"--{given[0].replace('_', '-')} cannot be given with it"
            )
        if not args.resume.strip():
            raise UserError("--resume needs a directory name, got an empty string")
        with dask_client(args.dask, threads) as client:
            if client is not None:
                how = replace(how, client=client)
                state["dask"] = client.scheduler.address
            results = resume(args.resume, how)
    else:
        args.seed = 0 if args.seed is None else args.seed
        rules = resolve_rules(args)
        bots = resolve_bots(args, rules)
        games = games_to_play(rules, args.games, args.matches, args.rotate_bots)
        tables = check_tables(_tables_flag(args))
        if args.out is not None and not args.out.strip():
            raise UserError("--out needs a directory name, got an empty string")
        out = Path(args.out) if args.out is not None else default_out(rules, args.seed)
        spec = RunSpec.build(
            rules, bots, games, args.seed, rotate_bots=args.rotate_bots, tables=tables
        )
        how = replace(
            how,
            out=str(out),
            overwrite=args.overwrite,
            chunk_size=args.chunk_size,
            label=args.label,
        )
        how.resolved(spec)  # a bad --label is one line before anything is written
        with dask_client(args.dask, threads) as client:  # connect before writing anything
            if client is not None:
                how = replace(how, client=client)
                state["dask"] = client.scheduler.address
            results = simulate(spec, execution=how)
    state.pop("store", None)  # finished: nothing to resume
    print(run_summary_text(results))
    return 0


def _tables_flag(args) -> str:
    """The tables ``run`` writes, from --tables, --no-spins or --summary-only (one of them)."""
    given = [
        (f"--{f.replace('_', '-')}", v)
        for f, v in (
            ("tables", args.tables),
            ("no_spins", "rounds" if args.no_spins else None),
            ("summary_only", "none" if args.summary_only else None),
        )
        if v is not None
    ]
    if len(given) > 1:
        raise UserError(
            f"{given[0][0]} and {given[1][0]} both choose the tables to write; give one of them"
        )
    return given[0][1] if given else "rounds,spins"


def add_play(sub) -> None:
    p = sub.add_parser(
        "play",
        help="print one round (or one whole match) turn by turn",
        description="Play one round and print it turn by turn: hands, every card, every "
        "effect and spin, the winner and the scores. Under --match race/lowest "
        "print one whole match: every round, then the running scores.",
        epilog="examples:\n"
        "  python -m unospin_sim play --seed 1\n"
        "  python -m unospin_sim play --seed 7 --game 3 --edition classic --players 2\n"
        "  python -m unospin_sim play --seed 7 --game 2 --match race\n"
        "  python -m unospin_sim play --edition classic --players 2 --bots search,heuristic "
        "--explain\n" + rule_epilog(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "--seed",
        type=int_type("seed", 0, MAX_SEED),
        default=0,
        metavar="S",
        help="run seed (default 0)",
    )
    p.add_argument(
        "--game",
        type=int_type("game", 0, MAX_GAMES),
        default=0,
        metavar="G",
        help="game index within the run: the same round as game G of "
        "'run --seed S' (under --match: the same match as match G) "
        "(default 0)",
    )
    p.add_argument(
        "--explain",
        action="store_true",
        help="at each decision of a search seat, also print every candidate first move's "
        "estimated value (say which: a win share, or the hand-size score of rollouts cut "
        "off) and the rollouts it ran; the game played is the same",
    )
    m = p.add_argument_group("matches (rule options match and target)")
    m.add_argument(
        "--match",
        metavar="MODE",
        help="race or lowest: print one whole match (default single: one round)",
    )
    m.add_argument(
        "--target",
        type=int_type("target", 1, 1_000_000),
        metavar="POINTS",
        help="points that end a match (default 500)",
    )
    add_rule_flags(p)
    p.set_defaults(func=cmd_play)


def cmd_play(args, state: dict) -> int:
    """Execute ``play``: print one round's text (one whole match's under match mode)."""
    rules = resolve_rules(args)
    bots = resolve_bots(args, rules)
    from ..run.playthrough import match_text, play_text

    if args.explain and not any(b.strategy == "search" for b in bots):
        raise UserError(
            "--explain shows the decisions of search seats, and no seat plays search: "
            "give --bots with a search seat, e.g. --bots search,random"
        )
    if rules.plays_matches:
        if args.rotate_bots:
            raise UserError(
                f"--rotate-bots cannot be combined with match="
                f"{rules.option('match')}: a match passes the deal itself"
            )
        text = match_text(rules, bots, args.seed, args.game, explain=args.explain)
    else:
        text = play_text(
            rules, bots, args.seed, args.game, rotate_bots=args.rotate_bots, explain=args.explain
        )
    sys.stdout.write(text if text.endswith("\n") else text + "\n")
    return 0


def add_summary(sub) -> None:
    p = sub.add_parser(
        "summary",
        help="print the summary of a results directory",
        description="Load a results directory (checking that it is complete and consistent) "
        "and print the summary 'run' prints at its end.",
        epilog="example:\n  python -m unospin_sim summary results/spin2025-p4-s0-20250101-120000",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("dir", metavar="DIR", help="a results directory written by 'run'")
    from .compare import add_seconds_per_turn

    add_seconds_per_turn(p)
    p.set_defaults(func=cmd_summary)


def cmd_summary(args, state: dict) -> int:
    """Execute ``summary``: load DIR and print the same summary as ``run``."""
    from ..analysis.summary_text import results_summary_text

    if not args.dir.strip():
        raise UserError("summary needs a results directory, got an empty string")
    print(results_summary_text(args.dir, seconds_per_turn=args.seconds_per_turn))
    return 0


def add_report(sub) -> None:
    p = sub.add_parser(
        "report",
        help="write the balance report (charts + tables) of results directories",
        description="Analyse one or more results directories (seat balance, wheel spaces, "
        "the race to 500) and write report.md and a self-contained report.html "
        "opening with findings computed from the numbers, PNG charts and CSV "
        "tables.",
        epilog="examples:\n  python -m unospin_sim report\n"
        "  python -m unospin_sim report results/a results/b --out reports/2005-vs-2025\n"
        "  python -m unospin_sim report --rerender reports/editions-4p-random",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "dirs",
        metavar="DIR",
        nargs="*",
        help="results directories (default: the newest with a round table under results/)",
    )
    p.add_argument(
        "--out",
        metavar="DIR",
        default=None,
        help="report directory (default reports/report-<timestamp>)",
    )
    p.add_argument(
        "--target",
        type=int_type("target", 1),
        default=500,
        metavar="POINTS",
        help="points that end a match in the race analysis (default 500)",
    )
    p.add_argument(
        "--wheel-games",
        type=int_type("wheel games", 0),
        default=3000,
        metavar="N",
        help="rounds of each run with a wheel whose spins are replayed for the "
        "absolute space effects (default 3000; 0 leaves them out)",
    )
    p.add_argument(
        "--drama-games",
        type=int_type("drama games", 0),
        metavar="N",
        help="rounds of each run (its first) replayed for its drama: how often the winner "
        "came from behind, lead changes (default: the --wheel-games value; 0 leaves it out)",
    )
    p.add_argument(
        "--threads",
        type=int_type("threads", 1, MAX_THREADS),
        metavar="N",
        help="threads for the replays (default: every core)",
    )
    p.add_argument(
        "--skill",
        metavar="DIR_OR_CSV",
        nargs="+",
        default=(),
        help="what measured skill, told by content: tournament directories ('tournament "
        "--out DIR': their best strategies against random fields), skill profile "
        "directories ('skill --out DIR': skill depth, rating spread, skill traces) and "
        "worth tables ('worth --out FILE.csv': what each skill is worth)",
    )
    p.add_argument(
        "--rerender",
        metavar="REPORT_DIR",
        nargs="+",
        default=(),
        help="write report.html of existing report directories again from their report.md "
        "and charts (nothing else is read or written)",
    )
    p.set_defaults(func=cmd_report)


def cmd_report(args, state: dict) -> int:
    """Execute ``report``."""
    from ..report import build_report
    from ..results import newest

    if args.rerender:
        from ..report.render import rerender

        if args.dirs:
            raise UserError("report --rerender takes report directories only, not results")
        for d in args.rerender:
            print(f"re-rendered {rerender(d)} from its report.md")
        return 0
    dirs = args.dirs or [newest()]
    path = build_report(
        dirs,
        args.out,
        target=args.target,
        wheel_games=args.wheel_games,
        threads=args.threads,
        skill_dirs=args.skill,
        drama_games=args.drama_games,
        log=lambda message: print(message, file=sys.stderr, flush=True),
    )
    print(f"report written to {path} and {path.with_suffix('.html')}")
    return 0


def add_compile(sub) -> None:
    p = sub.add_parser(
        "compile",
        help="compile the game kernel's entry points once (cached on disk)",
        description="Compile every entry point of the game kernel, or load it from the "
        "on-disk cache, printing a line per entry point with its time, then the "
        "process's CPU time and peak memory. Run it once in CI, a container "
        "image or on each cluster worker before real work.",
        epilog="examples:\n  python -m unospin_sim compile\n"
        "  python -m unospin_sim compile --tests   # also what the rule tests drive",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "--tests",
        action="store_true",
        help="also compile the functions the rule tests call one action at a time",
    )
    p.set_defaults(func=cmd_compile)


def cmd_compile(args, state: dict) -> int:
    """Execute ``compile``."""
    import resource

    from ..run.warmup import compile_all

    t0 = time.perf_counter()
    for name, seconds in compile_all(tests=args.tests):
        print(f"{name:20s} {seconds:8.1f} s", flush=True)
    ru = resource.getrusage(resource.RUSAGE_SELF)
    print(
        f"{'all':20s} {time.perf_counter() - t0:8.1f} s wall, "
        f"{ru.ru_utime + ru.ru_stime:.1f} s CPU, peak memory {ru.ru_maxrss / 1024:.0f} MB",
        flush=True,
    )
    return 0
