"""``drama DIR``: how often a run's winners were behind, and how often the lead changed
(:mod:`unospin_sim.run.drama` traces the run's own rounds; :mod:`unospin_sim.analysis.drama`
defines the figures)."""

from __future__ import annotations

import argparse
import json

from ..errors import UserError
from .flags import parse_games

#: rounds traced unless ``--games`` says otherwise
DEFAULT_DRAMA_ROUNDS = 20_000


def add_drama(sub) -> None:
    p = sub.add_parser(
        "drama",
        help="drama of a run: how often the winner was behind, lead changes per round",
        description="Replay the first --games rounds of a results directory with the event "
        "log on (the run's own games, checked against its round table) and print the share "
        "of rounds whose winner held strictly the most cards at the start of some turn "
        "after the first third of the round, and the lead changes per round (the leader "
        "holds strictly the fewest cards; a tie changes nothing), with 95% intervals. A "
        "match run adds the same on points over its matches (every finished match, read "
        "from its tables). Definitions: docs/DESIGN.md.",
        epilog="example:\n  python -m unospin_sim drama results/spin2025-p4-s0-20250101-120000",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("dir", metavar="DIR", help="a results directory written by 'run'")
    p.add_argument(
        "--games",
        type=parse_games,
        default=DEFAULT_DRAMA_ROUNDS,
        metavar="N",
        help=f"rounds to replay (default {DEFAULT_DRAMA_ROUNDS:,}, or every round of a "
        f"smaller run); about 1 ms each on one core",
    )
    p.add_argument("--json", action="store_true", help="print the figures as JSON")
    p.set_defaults(func=cmd_drama)


_ONE = {"rounds": "round", "matches": "match"}


def _line(what: str, d: dict, behind: str) -> list[str]:
    return [
        f"{what}  {d['n']:,}",
        f"  winner came back  {d['comeback']:.2f}%  95% interval "
        f"[{d['comeback_low']:.2f}, {d['comeback_high']:.2f}]  "
        f"({behind} after the first third)",
        f"  lead changes      {d['lead_changes']:.3f} per {_ONE[what]}  95% interval "
        f"[{d['lead_changes_low']:.3f}, {d['lead_changes_high']:.3f}]",
    ]


def drama_text(d: dict) -> str:
    """What ``drama`` prints for :func:`unospin_sim.run.drama.results_drama`'s figures."""
    r = d["rounds"]
    lines = [f"rules {d['rules']}  bots {','.join(d['bots'])}  seed {d['seed']}"]
    lines += _line("rounds", r, "held strictly the most cards")
    if r["unfinished"]:
        lines.append(f"  ({r['unfinished']:,} unfinished rounds left out)")
    if d["matches"] is not None:
        lines += _line("matches", d["matches"], "stood strictly last on points")
    return "\n".join(lines)


def cmd_drama(args, state: dict) -> int:
    """Execute ``drama``: trace DIR's rounds and print the drama figures."""
    from ..run.drama import results_drama

    if not args.dir.strip():
        raise UserError("drama needs a results directory, got an empty string")
    d = results_drama(args.dir, args.games)
    print(json.dumps(d, indent=2) if args.json else drama_text(d))
    return 0
