"""The command line: ``python -m unospin_sim {run,play,summary,report} ...``.

A thin layer: it parses and validates every flag (so bad input fails before any
simulation starts), builds the :class:`~unospin_sim.rules.RuleSet` and bot specs, and calls
:func:`unospin_sim.runner.simulate` or :func:`unospin_sim.playthrough.play_text`.

Every user error prints one line ``unospin_sim: error: <message>`` on stderr and exits with
status 2; an interrupt (Ctrl-C) exits with 130, keeping the result parts already written.

New subcommands register themselves in :data:`COMMANDS` (a function adding the subparser).
"""

from __future__ import annotations

import argparse
import math
import os
import signal
import sys
import threading
import time
from datetime import datetime
from pathlib import Path

from . import __version__
from .errors import RuleError, UserError

__all__ = ["main", "build_parser", "parse_games", "COMMANDS"]

PROG = "unospin_sim"
DEFAULT_EDITION = "spin2025"
DEFAULT_BOTS = "random"  # the bot RULINGS.md defines exactly: cross-checkable results
MAX_SEED = 2**63 - 1
MAX_GAMES = 2**62
MAX_THREADS = 1024  # runner.simulate's limit: checked here, before the results directory exists


class _UsageError(UserError):
    """A command-line syntax error reported by argparse."""


class _Parser(argparse.ArgumentParser):
    """ArgumentParser whose errors are one-line :class:`UserError` s (no usage dump)."""

    def error(self, message: str):  # noqa: D401 - argparse API
        raise _UsageError(message)


# ------------------------------------------------------------------------------------------
# argument types


def parse_games(text: str) -> int:
    """Parse a number of games: ``1000000``, ``1_000``, ``1e6`` (a positive whole number).

    Parameters
    ----------
    text : str
        The flag value.

    Returns
    -------
    int

    Raises
    ------
    argparse.ArgumentTypeError
        Not a positive whole number (``-5``, ``0``, ``1.5``, ``lots``) or absurdly large.
    """
    s = text.strip()
    bad = argparse.ArgumentTypeError(
        f"games must be a positive whole number such as 1000 or 1e6, got {text!r}")
    try:
        value = int(s)
    except ValueError:
        try:
            f = float(s)
        except ValueError:
            raise bad from None
        if not (math.isfinite(f) and f.is_integer()):
            raise bad from None
        value = int(f)
    if value < 1:
        raise bad
    if value > MAX_GAMES:
        raise argparse.ArgumentTypeError(f"games must be at most {MAX_GAMES}, got {text!r}")
    return value


def _int_type(what: str, low: int, high: int | None = None):
    def convert(text: str) -> int:
        try:
            value = int(text.strip())
        except ValueError:
            value = None
        if value is None or value < low or (high is not None and value > high):
            limit = f"from {low} to {high}" if high is not None else f">= {low}"
            raise argparse.ArgumentTypeError(
                f"{what} must be a whole number {limit}, got {text!r}")
        return value
    return convert


def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


# ------------------------------------------------------------------------------------------
# shared rule / bot flags


def _add_rule_flags(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("rules")
    g.add_argument("--edition", metavar="E",
                   help=f"classic, spin2005, spin2025 or spiderman (default {DEFAULT_EDITION})")
    g.add_argument("--players", type=_int_type("players", 2, 10), metavar="P",
                   help="number of players, 2-10 (default 4)")
    g.add_argument("--wheel", metavar="SPACE=W,...",
                   help="wheel weights, e.g. 'two_x=2,swap_hands=1'; unlisted spaces weigh 0")
    g.add_argument("--turn-cap", type=_int_type("turn cap", 1), metavar="N",
                   help="turns after which a round is recorded unfinished (default 10000)")
    g.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                   help="another rule option, e.g. wild_matches_colour=false (repeatable; "
                        "every option is listed at the end of this help)")
    g.add_argument("--rules", metavar="RULESTRING",
                   help="a full rule string, e.g. 'spin2025(players=3,wild_spin_cards=2)', "
                        "instead of the flags above")
    p.add_argument("--bots", default=DEFAULT_BOTS, metavar="BOTS",
                   help="one bot for all seats or one per seat, e.g. "
                        f"'random,heuristic(forget=0.1),random,random' (default {DEFAULT_BOTS})")
    p.add_argument("--rotate-bots", action="store_true",
                   help="pass the deal one seat clockwise from game to game, as in a match: "
                        "in game g, seat s holds the bot of player (s + g) mod players")


def _option_help() -> str:
    from .rules.options import option_help
    return option_help()


def _wheel_option(text: str, edition: str) -> dict:
    from .rules import parse_wheel

    try:
        return parse_wheel(text, edition)
    except RuleError as e:
        raise RuleError(f"--wheel: {e}") from None


def _flag_options(args) -> dict[str, object]:
    """Options given by --option, --players and --turn-cap (strings or ints)."""
    options: dict[str, object] = {}
    for item in args.option:
        key, eq, value = item.partition("=")
        key = key.strip()
        if not eq or not key or not value.strip():
            raise RuleError(f"--option takes key=value, got {item!r}")
        if key in options:
            raise RuleError(f"--option {key} given twice")
        options[key] = value.strip()
    for key, value in (("players", args.players), ("turn_cap", args.turn_cap),
                       ("match", getattr(args, "match", None)),
                       ("target", getattr(args, "target", None))):
        if value is not None:
            if key in options:
                raise RuleError(f"{key} given both as --option and as --{key.replace('_', '-')}")
            options[key] = value
    return options


def resolve_rules(args):
    """Build the RuleSet from --rules or --edition/--players/--wheel/--turn-cap/--option.

    With ``--rules``, the other rule flags may only repeat what the rule string says; any
    contradiction is an error.
    """
    from .rules import RuleSet, parse_rules

    options = _flag_options(args)
    if args.rules is None:
        edition = DEFAULT_EDITION if args.edition is None else args.edition
        if args.wheel is not None:
            if "wheel" in options:
                raise RuleError("wheel given both as --option and as --wheel")
            options["wheel"] = _wheel_option(args.wheel, edition)
        return RuleSet.build(edition, **options)

    base = parse_rules(args.rules)
    if args.edition is not None and args.edition.strip().lower() != base.edition:
        RuleSet.build(args.edition)  # an unknown edition gets its own message
        raise RuleError(f"--edition {args.edition} contradicts --rules {str(base)!r}")
    if args.wheel is not None:
        options["wheel"] = _wheel_option(args.wheel, base.edition)
    for key, value in options.items():
        if base.replace(**{key: value}) != base:
            flag = {"players": "--players", "turn_cap": "--turn-cap", "match": "--match",
                    "target": "--target", "wheel": "--wheel"}.get(key, f"--option {key}")
            raise RuleError(f"{flag} contradicts --rules {str(base)!r}")
    return base


def resolve_bots(args, rules):
    """Parse --bots for the rule set's player count."""
    from .bots import parse_bots
    from .engine.encode import check_bots_for_rules

    bots = parse_bots(args.bots, rules.players)
    check_bots_for_rules(rules, bots)  # e.g. knobs the rlcard rules forbid: before any output
    return bots


# ------------------------------------------------------------------------------------------
# run


def _default_out(rules, seed: int) -> Path:
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    base = Path("results") / f"{rules.edition}-p{rules.players}-s{seed}-{stamp}"
    out, n = base, 1
    while out.exists():
        n += 1
        out = base.with_name(f"{base.name}-{n}")
    return out


def _add_run(sub) -> None:
    p = sub.add_parser(
        "run", help="simulate many rounds and write a results directory",
        description="Simulate GAMES rounds and write a results directory (Parquet + meta.json).",
        epilog="examples:\n"
               "  python -m unospin_sim run --games 1e6\n"
               "  python -m unospin_sim run --games 1e5 --edition classic --bots random\n"
               "  python -m unospin_sim run --edition spin2025 --wheel two_x=2,swap_hands=1\n"
               "  python -m unospin_sim run --rules 'spin2005(players=3)' --out results/x\n"
               "\nrule options (--option KEY=VALUE, or in --rules):\n" + _option_help(),
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--games", type=parse_games, default=None, metavar="N",
                   help="rounds to play; accepts 1000000, 1_000_000 or 1e6 (default 1e6)")
    m = p.add_argument_group("matches (rule options match and target)")
    m.add_argument("--match", metavar="MODE",
                   help="single (default: one round per game), race (first to --target points "
                        "wins) or lowest (lowest total when someone passes --target)")
    m.add_argument("--target", type=_int_type("target", 1, 1_000_000), metavar="POINTS",
                   help="points that end a match (default 500)")
    m.add_argument("--matches", type=parse_games, metavar="N",
                   help="whole matches to play under --match race/lowest (default 1000)")
    p.add_argument("--seed", type=_int_type("seed", 0, MAX_SEED), default=None, metavar="S",
                   help="run seed; game g uses a stream derived from (S, g) (default 0)")
    _add_rule_flags(p)
    p.add_argument("--threads", type=_int_type("threads", 1, MAX_THREADS), metavar="N",
                   help="worker threads (default: every core); never changes the results")
    p.add_argument("--dask", metavar="ADDRESS",
                   help="play on a Dask cluster: a scheduler address (tcp://host:8786) or "
                        "'local' for a local cluster of processes; needs the [dask] extra")
    p.add_argument("--chunk-size", type=_int_type("chunk size", 1), metavar="N",
                   help="games per work chunk / Parquet part (default: the runner's)")
    p.add_argument("--out", metavar="DIR",
                   help="results directory (default results/<edition>-p<P>-s<S>-<time>)")
    p.add_argument("--overwrite", action="store_true",
                   help="replace the results already in --out (the new run is built beside "
                        "them and replaces them only once finished)")
    p.add_argument("--resume", metavar="DIR",
                   help="finish the interrupted run in DIR (its parameters come from "
                        "DIR/run.json; only --threads, --dask and --quiet may be given too)")
    p.add_argument("--tables", metavar="T", default="rounds,spins",
                   help="tables to write: 'rounds,spins' (default), 'rounds' or 'none' "
                        "(only meta.json with the summary counts)")
    p.add_argument("--no-spins", dest="tables", action="store_const", const="rounds",
                   help="the same as --tables rounds")
    p.add_argument("--summary-only", dest="tables", action="store_const", const="none",
                   help="the same as --tables none")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=cmd_run)


_RUN_FLAGS_FIXED = ("games", "seed", "edition", "players", "wheel", "turn_cap", "rules",
                    "chunk_size", "out", "match", "target", "matches")


def _resume_command(path) -> str:
    return f"python -m {PROG} run --resume {path}"


def cmd_run(args, state: dict) -> int:
    """Execute ``run``: validate everything, simulate (or resume), print the summary."""
    from .analysis.summary import run_summary_text
    from .run import dask_client, games_to_play, resume, simulate
    from .run.inputs import check_tables

    threads = args.threads if args.threads is not None else min(_cores(), MAX_THREADS)

    def started(store):
        state["store"] = store
        p = store.params
        where = f"dask {state['dask']}" if state.get("dask") else f"threads {threads}"
        print(f"rules {p['rules']}  bots {','.join(p['bots'])}  seed {p['seed']}  {where}")
        print(f"writing results to {store.path}" + (
            f" (replaces {store.target} when finished)" if store.target != store.path
            else ""), flush=True)

    kwargs = {"threads": threads, "progress": not args.quiet, "keep": False,
              "on_start": started}
    if args.resume is not None:
        given = [f for f in _RUN_FLAGS_FIXED if getattr(args, f, None) is not None]
        given += [f for f in ("overwrite", "rotate_bots") if getattr(args, f)]
        if args.option or args.bots != DEFAULT_BOTS or args.tables != "rounds,spins":
            given.append("bots/option/tables")
        if given:
            raise UserError(f"--resume takes the run's parameters from its run.json; "
                            f"--{given[0].replace('_', '-')} cannot be given with it")
        if not args.resume.strip():
            raise UserError("--resume needs a directory name, got an empty string")
        with dask_client(args.dask, threads) as client:
            if client is not None:
                kwargs["client"] = client
                state["dask"] = client.scheduler.address
            results = resume(args.resume, **kwargs)
    else:
        args.seed = 0 if args.seed is None else args.seed
        rules = resolve_rules(args)
        bots = resolve_bots(args, rules)
        games = games_to_play(rules, args.games, args.matches, args.rotate_bots)
        tables = check_tables(args.tables)
        if args.out is not None and not args.out.strip():
            raise UserError("--out needs a directory name, got an empty string")
        out = Path(args.out) if args.out is not None else _default_out(rules, args.seed)
        kwargs.update(rotate_bots=args.rotate_bots, tables=tables, overwrite=args.overwrite)
        if args.chunk_size is not None:
            kwargs["chunk_size"] = args.chunk_size
        with dask_client(args.dask, threads) as client:  # connect before writing anything
            if client is not None:
                kwargs["client"] = client
                state["dask"] = client.scheduler.address
            results = simulate(rules, bots, games, args.seed, out=str(out), **kwargs)
    state.pop("store", None)  # finished: nothing to resume
    print(run_summary_text(results))
    return 0


# ------------------------------------------------------------------------------------------
# play


def _add_play(sub) -> None:
    p = sub.add_parser(
        "play", help="print one round (or one whole match) turn by turn",
        description="Play one round and print it turn by turn: hands, every card, every "
                    "effect and spin, the winner and the scores. Under --match race/lowest "
                    "print one whole match: every round, then the running scores.",
        epilog="examples:\n"
               "  python -m unospin_sim play --seed 1\n"
               "  python -m unospin_sim play --seed 7 --game 3 --edition classic --players 2\n"
               "  python -m unospin_sim play --seed 7 --game 2 --match race\n"
               "\nrule options (--option KEY=VALUE, or in --rules):\n" + _option_help(),
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--seed", type=_int_type("seed", 0, MAX_SEED), default=0, metavar="S",
                   help="run seed (default 0)")
    p.add_argument("--game", type=_int_type("game", 0, MAX_GAMES), default=0, metavar="G",
                   help="game index within the run: the same round as game G of "
                        "'run --seed S' (under --match: the same match as match G) "
                        "(default 0)")
    m = p.add_argument_group("matches (rule options match and target)")
    m.add_argument("--match", metavar="MODE",
                   help="race or lowest: print one whole match (default single: one round)")
    m.add_argument("--target", type=_int_type("target", 1, 1_000_000), metavar="POINTS",
                   help="points that end a match (default 500)")
    _add_rule_flags(p)
    p.set_defaults(func=cmd_play)


def cmd_play(args, state: dict) -> int:
    """Execute ``play``: print one round's text (one whole match's under match mode)."""
    rules = resolve_rules(args)
    bots = resolve_bots(args, rules)
    from .playthrough import match_text, play_text

    if rules.plays_matches:
        if args.rotate_bots:
            raise UserError(f"--rotate-bots cannot be combined with match="
                            f"{rules.option('match')}: a match passes the deal itself")
        text = match_text(rules, bots, args.seed, args.game)
    else:
        text = play_text(rules, bots, args.seed, args.game, rotate_bots=args.rotate_bots)
    sys.stdout.write(text if text.endswith("\n") else text + "\n")
    return 0


# ------------------------------------------------------------------------------------------
# summary


def _add_summary(sub) -> None:
    p = sub.add_parser(
        "summary", help="print the summary of a results directory",
        description="Load a results directory (checking that it is complete and consistent) "
                    "and print the summary 'run' prints at its end.",
        epilog="example:\n  python -m unospin_sim summary results/spin2025-p4-s0-20250101-120000",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("dir", metavar="DIR", help="a results directory written by 'run'")
    p.set_defaults(func=cmd_summary)


def cmd_summary(args, state: dict) -> int:
    """Execute ``summary``: load DIR and print the same summary as ``run``."""
    from .analysis.summary import results_summary_text

    if not args.dir.strip():
        raise UserError("summary needs a results directory, got an empty string")
    print(results_summary_text(args.dir))
    return 0


# ------------------------------------------------------------------------------------------
# report


def _add_report(sub) -> None:
    p = sub.add_parser(
        "report", help="write the balance report (charts + tables) of results directories",
        description="Analyse one or more results directories (seat balance, wheel spaces, "
                    "the race to 500) and write report.md and a self-contained report.html "
                    "opening with findings computed from the numbers, PNG charts and CSV "
                    "tables.",
        epilog="examples:\n  python -m unospin_sim report\n"
               "  python -m unospin_sim report results/a results/b --out reports/2005-vs-2025",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("dirs", metavar="DIR", nargs="*",
                   help="results directories (default: the newest under results/)")
    p.add_argument("--out", metavar="DIR", default=None,
                   help="report directory (default reports/report-<timestamp>)")
    p.add_argument("--target", type=_int_type("target", 1), default=500, metavar="POINTS",
                   help="points that end a match in the race analysis (default 500)")
    p.add_argument("--wheel-games", type=_int_type("wheel games", 0), default=3000,
                   metavar="N",
                   help="rounds of each run with a wheel whose spins are replayed for the "
                        "absolute space effects (default 3000; 0 leaves them out)")
    p.add_argument("--threads", type=_int_type("threads", 1, MAX_THREADS), metavar="N",
                   help="threads for the replays (default: every core)")
    p.add_argument("--skill", metavar="DIR", nargs="+", default=(),
                   help="tournament directories ('tournament --out DIR'): adds a skill section "
                        "comparing their best strategies against random fields")
    p.set_defaults(func=cmd_report)


def cmd_report(args, state: dict) -> int:
    """Execute ``report``."""
    from .report import build_report, latest_results

    dirs = args.dirs or [latest_results()]
    path = build_report(dirs, args.out, target=args.target, wheel_games=args.wheel_games,
                        threads=args.threads, skill_dirs=args.skill,
                        log=lambda message: print(message, file=sys.stderr, flush=True))
    print(f"report written to {path} and {path.with_suffix('.html')}")
    return 0


# ------------------------------------------------------------------------------------------
# wheel


def _add_wheel(sub) -> None:
    p = sub.add_parser(
        "wheel", help="absolute effect of every wheel space, by paired replays",
        description="Play GAMES rounds, then replay every spin of them (or --spins-per-round "
                    "of each) once per wheel space and once with a blank 'none' space, the "
                    "round before the spin identical. Prints, per space and role (spinner, "
                    "next and previous player, the space's other party), the change in the "
                    "chance to win the round against the blank space, with 95% intervals, "
                    "and writes DIR/space_effects.csv.",
        epilog="example:\n  python -m unospin_sim wheel --edition spin2005 --players 4 "
               "--games 20000 --seed 1 --out results/wheel05",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--games", type=parse_games, default=10_000, metavar="N",
                   help="rounds whose spins are replayed (default 10000)")
    p.add_argument("--seed", type=_int_type("seed", 0, MAX_SEED), default=0, metavar="S",
                   help="run seed (default 0)")
    _add_rule_flags(p)
    p.add_argument("--spins-per-round", type=_int_type("spins per round", 1), metavar="K",
                   help="replay at most K spins of each round, chosen at random "
                        "(default: every spin)")
    p.add_argument("--threads", type=_int_type("threads", 1, MAX_THREADS), metavar="N",
                   help="worker threads (default: every core)")
    p.add_argument("--out", metavar="DIR", required=True,
                   help="directory for space_effects.csv (created if needed)")
    p.set_defaults(func=cmd_wheel)


def cmd_wheel(args, state: dict) -> int:
    """Execute ``wheel``: paired replays, the table, DIR/space_effects.csv."""
    import json

    from .analysis.wheel_effects import format_wheel_effects, wheel_effects
    from .run import replay_spins

    rules = resolve_rules(args)
    if not rules.wheel_spaces():
        raise UserError(f"{rules.edition} has no wheel: choose spin2005 or spin2025")
    bots = resolve_bots(args, rules)
    threads = args.threads if args.threads is not None else min(_cores(), MAX_THREADS)
    if not args.out.strip():
        raise UserError("--out needs a directory name, got an empty string")
    out = Path(args.out)
    if out.exists() and not out.is_dir():
        raise UserError(f"--out {out} exists and is not a directory")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise UserError(f"cannot create {out}: {e.strerror or e}") from None
    rep = replay_spins(rules, bots, args.games, args.seed, threads=threads,
                       spins_per_round=args.spins_per_round, rotate_bots=args.rotate_bots)
    eff = wheel_effects(rep)
    a = rep.attrs
    print(f"rules {rules}  bots {','.join(map(str, bots))}  seed {args.seed}  "
          f"threads {threads}")
    print(f"{a['spins']:,} spins from {args.games:,} rounds, each replayed "
          f"{len(rep['space'].cat.categories)} times (every space + none): "
          f"{a['replays']:,} replayed rounds in {a['replay_seconds']:.1f} s "
          f"({a['spins'] / max(a['replay_seconds'], 1e-9):,.0f} spins/s)")
    print("change against a blank space ('none'), 95% intervals, cluster-robust by round:")
    print(format_wheel_effects(eff))
    path = out / "space_effects.csv"
    eff.to_csv(path, index=False)
    meta = {k: v for k, v in a.items()}
    meta["games"] = args.games
    meta["command"] = "python -m unospin_sim " + " ".join(state.get("argv", []))
    (out / "space_effects.json").write_text(json.dumps(meta, indent=1, default=str))
    print(f"written {path}")
    return 0


# ------------------------------------------------------------------------------------------
# tournament


def _add_tournament(sub) -> None:
    p = sub.add_parser(
        "tournament", help="strategies against random fields and each other: round and "
                           "match win rates, ratings, the skill figure",
        description="Every strategy against a field of random bots, and head to head (2 "
                    "players) or against a field of every other strategy; bots rotated so "
                    "that seat advantage cancels. Prints a Markdown summary; --out also "
                    "saves Parquet tables and summary.md. --pool DIR ... pools the pairings "
                    "of earlier --out runs (different seeds) instead of playing.",
        epilog="examples:\n"
               "  python -m unospin_sim tournament --edition spin2025 --players 4 --games 4000\n"
               "  python -m unospin_sim tournament --games 8000 --seed 8 --out /tmp/t8\n"
               "  python -m unospin_sim tournament --pool /tmp/t8 /tmp/t9",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--edition", metavar="E", default="classic",
                   help="classic, spin2005, spin2025 or spiderman (default classic)")
    p.add_argument("--players", type=_int_type("players", 2, 10), default=2, metavar="P",
                   help="number of players, 2-10 (default 2)")
    p.add_argument("--games", type=parse_games, default=10_000, metavar="N",
                   help="rounds per pairing (default 10000)")
    p.add_argument("--strategies", metavar="A,B,...",
                   help="strategies to rank, knobs allowed (default: every strategy but "
                        "random and the slow search)")
    p.add_argument("--seed", type=_int_type("seed", 0, MAX_SEED), default=0, metavar="S",
                   help="run seed (default 0)")
    p.add_argument("--threads", type=_int_type("threads", 1, MAX_THREADS), metavar="N",
                   help="worker threads (default: every core)")
    p.add_argument("--out", metavar="DIR",
                   help="write pairings/ratings/skill Parquet tables and summary.md here")
    p.add_argument("--no-head-to-head", action="store_true",
                   help="only the pairings against random fields")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.add_argument("--pool", nargs="+", metavar="DIR",
                   help="pool the pairings of these --out directories (per run and pooled "
                        "shares of rounds and matches, 95%% intervals); plays nothing")
    p.set_defaults(func=cmd_tournament)


def cmd_tournament(args, state: dict) -> int:
    from .rules import RuleSet
    from .tournament import (format_tournament, parse_strategies, pool_tournaments,
                             run_tournament)

    if args.pool is not None:
        if args.out is not None:
            raise UserError("--pool reads earlier --out directories; it cannot be combined "
                            "with --out")
        print(pool_tournaments(args.pool))
        return 0
    if args.out is not None and not args.out.strip():
        raise UserError("--out needs a directory name, got an empty string")
    rules = RuleSet.build(args.edition, players=args.players)
    parse_strategies(args.strategies, rules.players)  # bad names: before anything is played
    t = run_tournament(rules=rules, games=args.games, strategies=args.strategies,
                       seed=args.seed, threads=args.threads or _cores(),
                       progress=not args.quiet, head_to_head=not args.no_head_to_head)
    if args.out is not None:
        out = t.save(args.out)
        print(f"tables and summary.md written to {out}", file=sys.stderr)
    print(format_tournament(t))
    return 0


# ------------------------------------------------------------------------------------------
# design


def _metric_help() -> str:
    from .design.goals import METRICS
    where = {"matches": "on matches", "design": "read off the rules"}
    return "\n".join(f"  {m.name} ({m.unit}; default tolerance {m.tol:g}; "
                     f"{where.get(m.kind, 'on rounds')}): {m.doc}"
                     for m in METRICS.values())


def _add_design(sub) -> None:
    p = sub.add_parser(
        "design", help="search the wheel and rule options for balance goals",
        description="Search which wheel (segment counts) and rule options reach the goals: "
                    "an optuna study on common random numbers screens --trials designs at "
                    "--games rounds each (or matches, for match metrics), plays the best "
                    "longer (--stages), confirms them on a fresh seed and re-checks them "
                    "with a field of the edition's best non-search strategy. Writes "
                    "designs.csv, best.json, pareto.png and summary.md into --out; "
                    "`design --resume DIR` finishes a killed study.",
        epilog="goals: METRIC=VALUE[±TOL] (or +-), METRIC<=VALUE, METRIC>=VALUE, "
               "min:METRIC, max:METRIC\nmetrics:\n" + _metric_help() +
               "\n--vary: wheel (every space 0-4 segments), wheel=SPACE,SPACE,..., or a "
               "number, boolean or enum rule option (NAME or NAME=LO:HI)\n\nexample:\n"
               "  python -m unospin_sim design --edition spin2025 --players 4 "
               "--goal mean_turns=50 --vary wheel --trials 40 --games 10000 --seed 3 "
               "--out designs/turns50",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--resume", metavar="DIR", help="finish the study in DIR (no other flag)")
    p.add_argument("--edition", metavar="E", help="classic, spin2005, spin2025 or spiderman")
    p.add_argument("--players", type=_int_type("players", 2, 10), metavar="P",
                   help="number of players, 2-10 (default 4)")
    p.add_argument("--bots", metavar="B",
                   help="the field: one strategy for every seat or one per seat "
                        "(default random)")
    p.add_argument("--goal", action="append", metavar="GOAL",
                   help="a goal (repeat for several)")
    p.add_argument("--vary", action="append", metavar="NAME",
                   help="what may change (repeat for several)")
    p.add_argument("--trials", type=_int_type("trials", 1), metavar="N",
                   help="designs screened (default 40)")
    p.add_argument("--games", type=parse_games, metavar="G",
                   help="rounds per screened design, or matches for the match metrics "
                        "(default 10000)")
    p.add_argument("--stages", metavar="A,B",
                   help="later stages' sizes as multiples of --games (default 10,100)")
    p.add_argument("--skill-bot", metavar="S",
                   help="the strategy the skill metric measures (default: the edition's "
                        "best non-search strategy)")
    p.add_argument("--seed", type=_int_type("seed", 0, MAX_SEED), metavar="S",
                   help="the study's seed (default 0)")
    p.add_argument("--workers", type=_int_type("workers", 1, 64), metavar="K",
                   help="worker processes sharing the study (default 1: reproducible)")
    p.add_argument("--threads", type=_int_type("threads", 1, MAX_THREADS), metavar="N",
                   help="threads per worker (default: every core / workers)")
    p.add_argument("--dask", metavar="ADDRESS",
                   help="play every measurement on a Dask cluster (a scheduler address "
                        "tcp://host:8786, or 'local'); this process keeps the study in --out, "
                        "so the workers need no shared disk; instead of --workers; may be "
                        "given with --resume")
    p.add_argument("--out", metavar="DIR", help="the study directory")
    p.add_argument("--quiet", action="store_true", help="no line per trial")
    p.set_defaults(func=cmd_design)


def cmd_design(args, state: dict) -> int:
    """Execute ``design``."""
    import json

    from .design import DesignSpec, resume_design, run_design
    from .run import dask_client

    study_flags = ("edition", "players", "bots", "goal", "vary", "trials", "games", "stages",
                   "skill_bot", "seed", "workers", "threads", "out")
    if args.resume is not None:
        given = [f"--{k.replace('_', '-')}" for k in study_flags if getattr(args, k) is not None]
        if given:
            raise UserError(f"--resume takes the study's own arguments from its design.json; "
                            f"drop {given[0]}")
        with dask_client(args.dask, min(_cores(), MAX_THREADS)) as client:
            answer = resume_design(args.resume, progress=not args.quiet, client=client)
    else:
        if not args.edition:
            raise UserError("design needs --edition (or --resume DIR)")
        if not args.out or not args.out.strip():
            raise UserError("design needs --out DIR")
        try:
            stages = [int(x) for x in (args.stages or "10,100").split(",")]
        except ValueError:
            raise UserError(f"--stages must be a comma list of whole multipliers, got "
                            f"{args.stages!r}") from None
        spec = DesignSpec(args.edition, 4 if args.players is None else args.players,
                          list(args.goal or []), list(args.vary or []),
                          trials=40 if args.trials is None else args.trials,
                          games=10_000 if args.games is None else args.games,
                          seed=args.seed or 0, bots=args.bots or "random", stages=stages,
                          workers=args.workers or 1, threads=args.threads or 0,
                          skill_bot=args.skill_bot or "")
        if args.dask is not None and (args.workers or args.threads):
            raise UserError("--dask plays on the cluster's workers: drop "
                            f"{'--workers' if args.workers else '--threads'}")
        spec.check()  # every argument checked before a cluster is started
        with dask_client(args.dask, min(_cores(), MAX_THREADS)) as client:
            answer = run_design(spec, args.out, progress=not args.quiet, client=client)
    print(json.dumps(answer, indent=2))
    return 0


# ------------------------------------------------------------------------------------------
# compile


def _add_compile(sub) -> None:
    p = sub.add_parser(
        "compile", help="compile the game kernel's entry points once (cached on disk)",
        description="Compile every entry point of the game kernel, or load it from the "
                    "on-disk cache, printing a line per entry point with its time, then the "
                    "process's CPU time and peak memory. Run it once in CI, a container "
                    "image or on each cluster worker before real work.",
        epilog="examples:\n  python -m unospin_sim compile\n"
               "  python -m unospin_sim compile --tests   # also what the rule tests drive",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--tests", action="store_true",
                   help="also compile the functions the rule tests call one action at a time")
    p.set_defaults(func=cmd_compile)


def cmd_compile(args, state: dict) -> int:
    """Execute ``compile``."""
    import resource

    from .precompile import compile_all

    t0 = time.perf_counter()
    for name, seconds in compile_all(tests=args.tests):
        print(f"{name:20s} {seconds:8.1f} s", flush=True)
    ru = resource.getrusage(resource.RUSAGE_SELF)
    print(f"{'all':20s} {time.perf_counter() - t0:8.1f} s wall, "
          f"{ru.ru_utime + ru.ru_stime:.1f} s CPU, peak memory {ru.ru_maxrss / 1024:.0f} MB",
          flush=True)
    return 0


#: subcommand registrars, in help order; each adds one subparser with ``func`` set
COMMANDS = [_add_run, _add_play, _add_summary, _add_report, _add_wheel, _add_tournament,
            _add_design, _add_compile]


# ------------------------------------------------------------------------------------------
# entry point


def build_parser() -> argparse.ArgumentParser:
    """The top-level parser with every subcommand of :data:`COMMANDS`."""
    parser = _Parser(prog=PROG, description="Monte Carlo simulation of UNO Spin and classic "
                                            "UNO (see README.md).")
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True,
                                parser_class=_Parser)
    for add in COMMANDS:
        add(sub)
    return parser


def _error_line(message: str) -> None:
    print(f"{PROG}: error: {' '.join(str(message).split())}", file=sys.stderr, flush=True)


class _Terminated(KeyboardInterrupt):
    """SIGTERM, handled like Ctrl-C (exit status 143)."""


def _terminate(signum, frame):
    raise _Terminated()


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit status (0, 2 on a user error, 130 on Ctrl-C).

    Parameters
    ----------
    argv : list of str, optional
        Arguments without the program name (default ``sys.argv[1:]``).
    """
    state: dict = {"argv": list(sys.argv[1:] if argv is None else argv)}
    old_term = None
    if threading.current_thread() is threading.main_thread():
        old_term = signal.signal(signal.SIGTERM, _terminate)
    try:
        args = build_parser().parse_args(argv)
        return args.func(args, state)
    except UserError as e:
        _error_line(str(e))
        return 2
    except KeyboardInterrupt as e:
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # a second Ctrl-C must not interrupt exit
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        store = state.get("store")
        where = ""
        if store is not None:
            where = (f"; {len(store.done)} of {store.nchunks} chunks are saved in "
                     f"{store.path}; finish with: {_resume_command(store.path)}")
        print(f"\n{PROG}: {'terminated' if isinstance(e, _Terminated) else 'interrupted'}"
              f"{where}", file=sys.stderr, flush=True)
        return 143 if isinstance(e, _Terminated) else 130
    except BrokenPipeError:  # e.g. `play | head`: not an error
        try:
            sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - silence the final flush
        except OSError:
            pass
        return 0
    finally:
        if old_term is not None:
            signal.signal(signal.SIGTERM, old_term)
