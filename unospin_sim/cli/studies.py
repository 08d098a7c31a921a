"""The commands that study rules across many runs: ``wheel`` (each wheel space's effect;
``--draw``: the wheel's picture, cli/drawing.py),
``tournament`` (strategies against each other) and ``tune`` (strategy ``tuned``'s weights),
each a function adding its subparser and one doing the command (``design``: cli/design.py)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..errors import UserError
from ..plots.wheel import MAX_SEGMENTS
from .flags import (
    MAX_SEED,
    MAX_THREADS,
    add_rule_flags,
    add_variant_flag,
    cores,
    int_type,
    load_variant_flag,
    parse_games,
    resolve_bots,
    resolve_rules,
    rule_epilog,
    with_variant,
)


def add_wheel(sub) -> None:
    p = sub.add_parser(
        "wheel",
        help="absolute effect of every wheel space, by paired replays",
        description="Play GAMES rounds, then replay every spin of them (or --spins-per-round "
        "of each) once per wheel space and once with a blank 'none' space, the "
        "round before the spin identical. Prints, per space and role (spinner, "
        "next and previous player, the space's other party), the change in the "
        "chance to win the round against the blank space, with 95% intervals, "
        "and writes DIR/space_effects.csv. --draw FILE draws the rule set's wheel "
        "instead (or as well, with --out), one wedge per segment labelled with its "
        "space and effect, and prints its slot layout.",
        epilog="examples:\n  python -m unospin_sim wheel --edition spin2005 --players 4 "
        "--games 20000 --seed 1 --out results/wheel05\n"
        "  python -m unospin_sim wheel --edition spin2025 --wheel two_x=2,swap_hands=1 "
        "--draw wheel25\n" + rule_epilog(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "--games",
        type=parse_games,
        default=10_000,
        metavar="N",
        help="rounds whose spins are replayed (default 10000)",
    )
    p.add_argument(
        "--seed",
        type=int_type("seed", 0, MAX_SEED),
        default=0,
        metavar="S",
        help="run seed (default 0)",
    )
    add_rule_flags(p)
    p.add_argument(
        "--spins-per-round",
        type=int_type("spins per round", 1),
        metavar="K",
        help="replay at most K spins of each round, chosen at random (default: every spin)",
    )
    p.add_argument(
        "--threads",
        type=int_type("threads", 1, MAX_THREADS),
        metavar="N",
        help="worker threads (default: every core)",
    )
    p.add_argument(
        "--out", metavar="DIR", help="directory for space_effects.csv and .json (created if needed)"
    )
    p.add_argument(
        "--draw",
        metavar="FILE",
        help="draw the wheel to FILE (.svg or .png; without a suffix both FILE.svg and "
        "FILE.png) and print its slot layout; plays nothing without --out. Whole-number "
        f"weights are segments (at most {MAX_SEGMENTS}), other weights the smallest whole "
        "numbers in their ratio; the slot order is assumed: each space's segments spread "
        "as evenly as possible",
    )
    p.add_argument(
        "--overwrite",
        action="store_true",
        help="replace the space_effects files of an earlier wheel run in --out, and the "
        "--draw files",
    )
    p.set_defaults(func=cmd_wheel)


#: the files ``wheel`` writes in --out
WHEEL_FILES = ("space_effects.csv", "space_effects.json")


def cmd_wheel(args, state: dict) -> int:
    """Execute ``wheel``: the picture (--draw), then paired replays, the table and
    DIR/space_effects.csv (--out)."""
    import json

    from ..analysis.luck import wheel_luck
    from ..analysis.stats import format_interval
    from ..analysis.wheel_effects import format_wheel_effects, wheel_effects
    from ..plots import wheel_slots
    from ..results import claim_out_dir
    from ..run import Execution, RunSpec, replay_spins
    from .drawing import claim_draw_paths, draw_wheel

    rules = resolve_rules(args)
    if not rules.wheel_spaces():
        raise UserError(f"{rules.edition} has no wheel: choose spin2005 or spin2025")
    if args.out is None and args.draw is None:
        raise UserError(
            "give --out DIR to measure the wheel's spaces, or --draw FILE to draw the wheel"
        )
    drawing = None
    if args.draw is not None:
        drawing = claim_draw_paths(args.draw, args.overwrite)
        wheel_slots(rules.option("wheel"))  # an undrawable wheel: before anything is played
    if args.out is None:
        draw_wheel(rules, drawing or [])
        return 0
    if rules.plays_matches:
        raise UserError(
            f"wheel replays single rounds: drop match={rules.option('match')} "
            f"(a space's effect on the round does not depend on it)"
        )
    bots = resolve_bots(args, rules)
    threads = args.threads if args.threads is not None else min(cores(), MAX_THREADS)
    if not args.out.strip():
        raise UserError("--out needs a directory name, got an empty string")
    out = claim_out_dir(args.out, WHEEL_FILES, "wheel", overwrite=args.overwrite)
    if drawing:
        draw_wheel(rules, drawing)
    spec = RunSpec.build(rules, bots, args.games, args.seed, rotate_bots=args.rotate_bots)
    rep = replay_spins(
        spec, spins_per_round=args.spins_per_round, execution=Execution(threads=threads)
    )
    a = rep.attrs
    if not a["spins"]:
        raise UserError(
            f"no spin in {args.games:,} rounds of {rules}: nothing to measure "
            f"(does its deck hold Spin cards?)"
        )
    eff = wheel_effects(rep)
    print(f"rules {rules}  bots {','.join(map(str, bots))}  seed {args.seed}  threads {threads}")
    print(
        f"{a['spins']:,} spins from {args.games:,} rounds, each replayed "
        f"{len(rep['space'].cat.categories)} times (every space + none): "
        f"{a['replays']:,} replayed rounds in {a['replay_seconds']:.1f} s "
        f"({a['spins'] / max(a['replay_seconds'], 1e-9):,.0f} spins/s)"
    )
    print("change against a blank space ('none'), 95% intervals, cluster-robust by round:")
    print(format_wheel_effects(eff))
    luck = wheel_luck(rep)
    print(
        f"wheel luck {format_interval(luck['luck'], luck['low'], luck['high'])} points of "
        "win share: the segment-weighted standard deviation of the spaces' effects on the "
        "spinner (95% bootstrap interval over rounds)"
    )
    path = out / "space_effects.csv"
    eff.to_csv(path, index=False)
    meta = {k: v for k, v in a.items()}
    meta["games"] = args.games
    meta["wheel_luck"] = {k: luck[k] for k in ("luck", "low", "high", "mean")}
    meta["command"] = "python -m unospin_sim " + " ".join(state.get("argv", []))
    (out / "space_effects.json").write_text(json.dumps(meta, indent=1, default=str))
    print(f"written {path}")
    return 0


def add_tournament(sub) -> None:
    p = sub.add_parser(
        "tournament",
        help="strategies against random fields and each other: round and "
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
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "--edition", metavar="E", help="classic, spin2005, spin2025 or spiderman (default classic)"
    )
    p.add_argument(
        "--players",
        type=int_type("players", 2, 10),
        metavar="P",
        help="number of players, 2-10 (default 2)",
    )
    p.add_argument(
        "--games", type=parse_games, metavar="N", help="rounds per pairing (default 10000)"
    )
    p.add_argument(
        "--strategies",
        metavar="A,B,...",
        help="strategies to rank, knobs allowed (default: every strategy but "
        "random and the slow search)",
    )
    p.add_argument(
        "--seed", type=int_type("seed", 0, MAX_SEED), metavar="S", help="run seed (default 0)"
    )
    p.add_argument(
        "--threads",
        type=int_type("threads", 1, MAX_THREADS),
        metavar="N",
        help="worker threads (default: every core)",
    )
    p.add_argument(
        "--out",
        metavar="DIR",
        help="write pairings/ratings/skill Parquet tables and summary.md here",
    )
    p.add_argument(
        "--overwrite",
        action="store_true",
        help="replace the files of an earlier tournament in --out",
    )
    p.add_argument(
        "--no-head-to-head", action="store_true", help="only the pairings against random fields"
    )
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    add_variant_flag(p, "play")
    p.add_argument(
        "--pool",
        nargs="+",
        metavar="DIR",
        help="pool the pairings of these --out directories (per run and pooled "
        "shares of rounds and matches, 95%% intervals); plays nothing",
    )
    p.set_defaults(func=cmd_tournament)


#: tournament's flags that choose what is played (none may come with --pool)
_TOURNAMENT_PLAY_FLAGS = (
    "edition",
    "players",
    "games",
    "strategies",
    "seed",
    "threads",
    "out",
    "overwrite",
    "no_head_to_head",
    "quiet",
    "variant",
)


def cmd_tournament(args, state: dict) -> int:
    from ..results import claim_out_dir
    from ..rules import RuleSet
    from ..run import Execution
    from ..studies.tournament import (
        TOURNAMENT_FILES,
        check_strategies,
        format_tournament,
        pool_tournaments,
        run_tournament,
    )

    if args.pool is not None:
        given = [
            f
            for f in _TOURNAMENT_PLAY_FLAGS
            if getattr(args, f) is not None and getattr(args, f) is not False
        ]
        if given:
            raise UserError(
                f"--pool reads earlier --out directories and plays nothing; "
                f"--{given[0].replace('_', '-')} cannot be given with it"
            )
        print(pool_tournaments(args.pool))
        return 0
    if args.out is not None and not args.out.strip():
        raise UserError("--out needs a directory name, got an empty string")
    if args.overwrite and args.out is None:
        raise UserError("--overwrite replaces the files in --out: give --out DIR")
    variant, wheel = load_variant_flag(args.variant)
    edition = args.edition
    if edition is None:
        edition = "classic" if wheel is None else wheel.edition
    rules = RuleSet.build(edition, players=args.players or 2)
    rules = with_variant(rules, variant, wheel, flag_wheel=False)
    check_strategies(rules, args.strategies)  # bad strategies: before anything is played
    if args.out is not None:  # before playing: a long tournament must not end in an error
        claim_out_dir(args.out, TOURNAMENT_FILES, "tournament", overwrite=args.overwrite)
    default = " (tournament's default; run's is 4: --players P)" if args.players is None else ""
    print(f"tournament of {rules}: {rules.players} players{default}", file=sys.stderr)
    t = run_tournament(
        rules=rules,
        games=args.games or 10000,
        strategies=args.strategies,
        seed=args.seed or 0,
        head_to_head=not args.no_head_to_head,
        execution=Execution(threads=args.threads or cores(), progress=not args.quiet),
    )
    if args.out is not None:
        out = t.save(args.out, overwrite=True)  # claimed above, this run's files
        print(f"tables and summary.md written to {out}", file=sys.stderr)
    print(format_tournament(t))
    return 0


def add_tune(sub) -> None:
    p = sub.add_parser(
        "tune",
        help="tune strategy tuned's weights with an optimiser (optuna)",
        description="An optuna study of the weights of strategy 'tuned' (its card score and "
        "colour, docs/BOTS.md): each trial plays the same GAMES rounds per table "
        "(2 players against random, 4 against three random, 2 against "
        "heuristic; seats rotated), scored by the share of rounds won (or with "
        "--objective points of the points scored) above the fair share. "
        "Heuristic's weights are the first trial. The best weights "
        "are then measured on fresh rounds (seeds disjoint from --seed), with the "
        "paired gain over heuristic's weights. Prints Markdown; --out writes JSON.",
        epilog="example:\n  python -m unospin_sim tune --edition classic --trials 200 "
        "--games 20000 --seed 1 --out tuned-classic.json",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "--edition",
        metavar="E",
        default="classic",
        help="classic, spin2005, spin2025 or spiderman (default classic)",
    )
    p.add_argument(
        "--trials",
        type=int_type("trials", 1, 100_000),
        default=100,
        metavar="T",
        help="weights tried (default 100)",
    )
    p.add_argument(
        "--games",
        type=parse_games,
        default=20_000,
        metavar="N",
        help="rounds per table and trial (default 20000)",
    )
    p.add_argument(
        "--eval-games",
        type=int_type("eval games", 0),
        metavar="N",
        help="rounds per table of the evaluation on fresh rounds (default 2 x --games; 0: none)",
    )
    p.add_argument(
        "--seed",
        type=int_type("seed", 0, MAX_SEED),
        default=0,
        metavar="S",
        help="seed of the tuning rounds and the sampler (default 0)",
    )
    p.add_argument(
        "--objective",
        choices=("rounds", "points"),
        default="rounds",
        help="share of the rounds won (default) or of the points scored, which "
        "is what wins a race to 500",
    )
    p.add_argument(
        "--threads",
        type=int_type("threads", 1, MAX_THREADS),
        metavar="N",
        help="worker threads (default: every core)",
    )
    p.add_argument("--out", metavar="FILE", help="write the result as JSON here")
    p.add_argument(
        "--overwrite", action="store_true", help="replace the file --out if it already exists"
    )
    p.add_argument("--quiet", action="store_true", help="no progress lines")
    p.set_defaults(func=cmd_tune)


def cmd_tune(args, state: dict) -> int:
    """Execute ``tune``: the study, the evaluation, the Markdown (and --out JSON)."""
    import json

    from ..rules import RuleSet
    from ..studies.tune import format_tune, tune

    RuleSet.build(args.edition)  # an unknown edition: one line, before any work
    if args.games < 100:
        raise UserError(f"--games must be at least 100 for tune, got {args.games}")
    if args.eval_games is not None and 0 < args.eval_games < 100:
        raise UserError(f"--eval-games must be 0 or at least 100, got {args.eval_games}")
    out = None
    if args.out is not None:
        if not args.out.strip():
            raise UserError("--out needs a file name, got an empty string")
        out = _claim_out_file(Path(args.out), args.overwrite)
    elif args.overwrite:
        raise UserError("--overwrite replaces the file --out: give --out FILE")
    res = tune(
        args.edition,
        trials=args.trials,
        games=args.games,
        seed=args.seed,
        eval_games=args.eval_games,
        threads=args.threads or min(cores(), MAX_THREADS),
        progress=not args.quiet,
        objective=args.objective,
    )
    print(format_tune(res))
    if out is not None:
        d = res.to_dict()
        d["command"] = "python -m unospin_sim " + " ".join(state.get("argv", []))
        try:
            out.write_text(json.dumps(d, indent=1))
        except OSError as e:
            raise UserError(f"cannot write {out}: {e.strerror or e}") from None
        print(f"written {out}", file=sys.stderr)
    return 0


def _claim_out_file(out: Path, overwrite: bool) -> Path:
    """Check, before a long study, that its result can be written to the file ``out``."""
    import json

    from ..results.store import unwritable

    if out.is_dir():
        raise UserError(f"--out {out} is a directory; give a file name")
    if out.exists() and not overwrite:
        raise UserError(
            f"--out {out} already exists; pass --overwrite to replace it, or choose another file"
        )
    if out.exists():  # --overwrite replaces an earlier tune result, nothing else
        try:
            earlier = json.loads(out.read_text(encoding="utf-8"))
        except (OSError, ValueError, UnicodeDecodeError):
            earlier = None
        if not (isinstance(earlier, dict) and {"edition", "bot", "best"} <= set(earlier)):
            raise UserError(
                f"--out {out} is not an earlier tune result: --overwrite "
                f"replaces only those; choose another file"
            )
    if not out.parent.is_dir():
        raise UserError(f"--out {out}: the directory {out.parent} does not exist")
    why = unwritable(out.parent)
    if why:
        raise UserError(f"--out {out}: cannot write to {out.parent}: {why}")
    return out
