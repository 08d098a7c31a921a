"""``worth``: what each skill is worth to spin_aware, by restricted play."""

from __future__ import annotations

import argparse
import sys

from ..errors import UserError
from .flags import MAX_SEED, MAX_THREADS, cores, int_type, parse_games


def _seeds(text: str) -> list[int]:
    try:
        seeds = [int(s) for s in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"--seeds takes integers separated by commas, got {text!r}"
        ) from None
    if not seeds or any(not 0 <= s <= MAX_SEED for s in seeds) or len(set(seeds)) != len(seeds):
        raise argparse.ArgumentTypeError(
            f"--seeds takes distinct integers in 0..{MAX_SEED}, got {text!r}"
        )
    return seeds


def add_worth(sub) -> None:
    p = sub.add_parser(
        "worth",
        help="what each skill is worth to spin_aware (restricted play): the round-win share "
        "it loses when denied one skill",
        description="Restricted play (Jaffe et al., AIIDE 2012): spin_aware denied one skill "
        "at a time (naming the colour, holding wilds back, attacking a player near UNO, "
        "valuing the wheel, calling UNO, catching, challenging) as player 0 against a field "
        "of the full bot, paired with player 0 full on the same rounds (bots rotated). The "
        "full bot's challenge rate is chosen on --tune-seed, never on a reported seed.",
        epilog="examples:\n"
        "  python -m unospin_sim worth --edition spin2025 --players 2\n"
        "  python -m unospin_sim worth --rules 'spin2005(players=4)' --games 40000 --seeds 3,4",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "--edition", metavar="E", help="classic, spin2005, spin2025 or spiderman (default spin2025)"
    )
    p.add_argument(
        "--players",
        type=int_type("players", 2, 10),
        metavar="P",
        help="number of players, 2-10 (default 2: head to head)",
    )
    p.add_argument("--rules", metavar="RULESTRING", help="a full rule string instead")
    p.add_argument("--games", type=parse_games, metavar="N", help="rounds per run (default 20000)")
    p.add_argument("--seeds", type=_seeds, metavar="S,S", help="seeds reported (default 1,2)")
    p.add_argument(
        "--tune-seed",
        type=int_type("tune seed", 0, MAX_SEED),
        default=0,
        metavar="S",
        help="seed that chooses the full bot's challenge rate (default 0)",
    )
    p.add_argument(
        "--threads",
        type=int_type("threads", 1, MAX_THREADS),
        metavar="N",
        help="worker threads (default: every core)",
    )
    p.add_argument("--out", metavar="FILE.csv", help="also write the table as CSV")
    p.add_argument("--quiet", action="store_true", help="no progress lines")
    p.set_defaults(func=cmd_worth)


def cmd_worth(args, state: dict) -> int:
    """Execute ``worth``: print the table (and write --out)."""
    from ..rules import RuleSet, parse_rules
    from ..studies.restricted import format_worth, skill_worth

    if args.rules is not None:
        if args.edition is not None or args.players is not None:
            raise UserError("--rules gives the whole rule set: drop --edition and --players")
        rules = parse_rules(args.rules)
    else:
        rules = RuleSet.build(args.edition or "spin2025", players=args.players or 2)
    if args.out is not None and not args.out.strip():
        raise UserError("--out needs a file name, got an empty string")

    def say(line: str) -> None:
        print(line, file=sys.stderr, flush=True)

    w = skill_worth(
        rules,
        games=args.games or 20_000,
        seeds=args.seeds or (1, 2),
        tune_seed=args.tune_seed,
        threads=args.threads or cores(),
        progress=None if args.quiet else say,
    )
    if args.out is not None:
        w.to_df().to_csv(args.out, index=False)
        print(f"table written to {args.out}", file=sys.stderr)
    print(format_worth(w))
    return 0
