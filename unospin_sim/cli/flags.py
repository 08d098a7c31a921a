"""The command line's shared pieces: argument types, the rule and bot flags every command that
plays takes (``--edition``, ``--players``, ``--option``, ``--bots`` ...), and turning them into a
:class:`~unospin_sim.rules.RuleSet` and bot specs. Each bad value is a one-line
:class:`~unospin_sim.errors.UserError`."""

from __future__ import annotations

import argparse
import math
import os
from datetime import datetime
from pathlib import Path

from ..errors import RuleError, UserError

PROG = "unospin_sim"
DEFAULT_EDITION = "spin2025"


DEFAULT_BOTS = "random"  # the bot RULINGS.md defines exactly: cross-checkable results


MAX_SEED = 2**63 - 1


MAX_GAMES = 2**62


MAX_THREADS = 1024  # runner.simulate's limit: checked here, before the results directory exists


class UsageError(UserError):
    """A command-line syntax error reported by argparse."""


class Parser(argparse.ArgumentParser):
    """ArgumentParser whose errors are one-line :class:`UserError` s (no usage dump)."""

    def error(self, message: str):
        raise UsageError(message)


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
        f"games must be a positive whole number such as 1000 or 1e6, got {text!r}"
    )
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


def int_type(what: str, low: int, high: int | None = None):
    def convert(text: str) -> int:
        try:
            value = int(text.strip())
        except ValueError:
            value = None
        if value is None or value < low or (high is not None and value > high):
            limit = f"from {low} to {high}" if high is not None else f">= {low}"
            raise argparse.ArgumentTypeError(f"{what} must be a whole number {limit}, got {text!r}")
        return value

    return convert


def cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def add_rule_flags(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("rules")
    g.add_argument(
        "--edition",
        metavar="E",
        help=f"classic, spin2005, spin2025 or spiderman (default {DEFAULT_EDITION})",
    )
    g.add_argument(
        "--players",
        type=int_type("players", 2, 10),
        metavar="P",
        help="number of players, 2-10 (default 4)",
    )
    g.add_argument(
        "--wheel",
        metavar="SPACE=W,...",
        help="wheel weights, e.g. 'two_x=2,swap_hands=1'; unlisted spaces weigh 0 "
        "(every edition's spaces are listed at the end of this help)",
    )
    g.add_argument(
        "--turn-cap",
        type=int_type("turn cap", 1),
        metavar="N",
        help="turns after which a round is recorded unfinished (default 10000)",
    )
    g.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="another rule option, e.g. wild_matches_colour=false (repeatable; "
        "every option is listed at the end of this help)",
    )
    g.add_argument(
        "--rules",
        metavar="RULESTRING",
        help="a full rule string, e.g. 'spin2025(players=3,wild_spin_cards=2)', "
        "instead of the flags above",
    )
    add_variant_flag(g, "wheel")
    p.add_argument(
        "--bots",
        default=DEFAULT_BOTS,
        metavar="BOTS",
        help="one bot for all seats or one per seat, e.g. "
        f"'random,heuristic(forget=0.1),random,random' (default {DEFAULT_BOTS})",
    )
    p.add_argument(
        "--rotate-bots",
        action="store_true",
        help="pass the deal one seat clockwise from game to game, as in a match: "
        "in game g, seat s holds the bot of player (s + g) mod players",
    )


def add_variant_flag(g, use: str) -> None:
    """``--variant FILE.toml[:WHEEL]``: a variant file (docs/WHEEL_PROGRAMS.md); ``use``:
    ``"wheel"`` (its wheel played, or weighed by --wheel), ``"play"`` (its wheel played) or
    ``"name"`` (rule strings may name its wheels and spaces)."""
    g.add_argument(
        "--variant",
        metavar="FILE.toml[:WHEEL]",
        help="a variant file of wheel spaces written as programs (docs/WHEEL_PROGRAMS.md): "
        + {
            "wheel": "its wheel is played (WHEEL, or the one wheel it holds), or --wheel "
            "weighs its spaces",
            "play": "its wheel is played (WHEEL, or the one wheel it holds)",
            "name": "rule strings may then name its wheels (wheel=NAME) and its spaces",
        }[use],
    )


def load_variant_flag(text: str | None):
    """``(variant, wheel)`` of ``--variant FILE[:WHEEL]``: the checked file (made known to
    rule strings) and its wheel named, or the one it holds (None: it holds none, or
    several and none is named); ``(None, None)`` without the flag."""
    from ..rules.variants import load_variant

    if text is None:
        return None, None
    path, wheel = text, None
    head, colon, tail = text.rpartition(":")
    if colon and tail.isidentifier() and not Path(text).exists():
        path, wheel = head, tail
    variant = load_variant(path)
    names = [w.name for w in variant.wheels]
    if wheel is not None and wheel not in names:
        raise RuleError(
            f"{path}: no wheel {wheel!r}; it holds {', '.join(names) if names else 'none'}"
        )
    if wheel is None and len(names) == 1:
        wheel = names[0]
    return variant, (None if wheel is None else variant.wheel(wheel))


def with_variant(rules, variant, wheel, flag_wheel: bool):
    """``rules`` extended by ``--variant``: its wheel played unless ``--wheel`` (or the
    rule string) gives one."""
    if variant is None:
        return rules
    if rules.variant is not None and rules.variant != variant:
        raise RuleError(f"--variant {variant.path} contradicts --rules {str(rules)!r}")
    extended = rules.replace(variant=variant)
    if wheel is None or flag_wheel:
        return extended
    if wheel.edition != rules.edition:
        raise RuleError(
            f"--variant: wheel {wheel.name!r} extends {wheel.edition}, not {rules.edition}"
        )
    played = extended.replace(wheel=dict(wheel.weights))
    if extended.option("wheel") != _published_wheel(extended) and played != extended:
        raise RuleError(f"--variant: wheel {wheel.name!r} contradicts the wheel of {str(rules)!r}")
    return played


def _published_wheel(rules) -> dict:
    ed = rules.edition_data
    return dict(zip(ed.wheel_spaces, ed.defaults["wheel"]))


def option_help() -> str:
    from ..rules.options import option_help

    return option_help()


def rule_epilog() -> str:
    """The end of a help whose command takes the rule flags: every rule option and every
    edition's wheel spaces, from the rule data."""
    from ..rules import wheel_help

    return (
        "\nrule options (--option KEY=VALUE, or in --rules):\n"
        + option_help()
        + "\n\nwheel spaces (--wheel SPACE=W,..., or wheel={space:weight,...} in --rules):\n"
        + wheel_help()
    )


def _wheel_option(text: str, edition: str, variant=None) -> dict:
    from ..rules import parse_wheel
    from ..rules.variants import extended_edition

    try:
        if variant is not None:
            return parse_wheel(text, extended_edition(str(edition).strip().lower(), variant))
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
    for key, value in (
        ("players", args.players),
        ("turn_cap", args.turn_cap),
        ("match", getattr(args, "match", None)),
        ("target", getattr(args, "target", None)),
    ):
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
    from ..rules import RuleSet, parse_rules

    variant, wheel = load_variant_flag(getattr(args, "variant", None))
    options = _flag_options(args)
    if args.rules is None:
        edition = args.edition
        if edition is None:
            edition = DEFAULT_EDITION if wheel is None else wheel.edition
        if variant is not None:
            options["variant"] = variant
        if args.wheel is not None:
            if "wheel" in options:
                raise RuleError("wheel given both as --option and as --wheel")
            options["wheel"] = _wheel_option(args.wheel, edition, variant)
        rules = RuleSet.build(edition, **options)
        return with_variant(rules, variant, wheel, "wheel" in options)

    base = with_variant(
        parse_rules(args.rules, variant),
        variant,
        wheel,
        args.wheel is not None or "wheel" in options,
    )
    if args.edition is not None and args.edition.strip().lower() != base.edition:
        RuleSet.build(args.edition)  # an unknown edition gets its own message
        raise RuleError(f"--edition {args.edition} contradicts --rules {str(base)!r}")
    if args.wheel is not None:
        options["wheel"] = _wheel_option(args.wheel, base.edition, base.variant)
    for key, value in options.items():
        if base.replace(**{key: value}) != base:
            flag = {
                "players": "--players",
                "turn_cap": "--turn-cap",
                "match": "--match",
                "target": "--target",
                "wheel": "--wheel",
            }.get(key, f"--option {key}")
            raise RuleError(f"{flag} contradicts --rules {str(base)!r}")
    return base


def resolve_bots(args, rules):
    """Parse --bots for the rule set's player count."""
    from ..bots import parse_bots
    from ..engine.encode import check_bots_for_rules

    bots = parse_bots(args.bots, rules.players)
    check_bots_for_rules(rules, bots)  # e.g. knobs the rlcard rules forbid: before any output
    return bots


#: the longest default results directory name (the time stamp and a counter included)
MAX_RUN_NAME = 80


def run_name(rules, seed: int, stamp: str) -> str:
    """A results directory's default name: the edition, each option off the edition's
    default in canonical order (a true flag by its name, a false one as ``no-NAME``, other
    values as ``NAME-VALUE``, a wheel as ``wheel-`` and 6 hex digits of its canonical
    text's hash), the players, the seed and ``stamp``, at most :data:`MAX_RUN_NAME`
    characters (the options that do not fit are left out)::

        spin2025-stacking-p4-s0-20261206-091500
        spin2025-wheel-3f2a9c-p4-s0-20261206-091500
    """
    import hashlib
    import re

    from .._text import split_top_level

    text = str(rules)
    inner = text[text.index("(") + 1 : -1] if "(" in text else ""
    parts = []
    for item in split_top_level(inner, ValueError, "rules") if inner else []:
        key, _, value = item.partition("=")
        if key == "players":
            continue
        if key == "wheel":
            parts.append("wheel-" + hashlib.sha256(value.encode()).hexdigest()[:6])
        elif value == "true":
            parts.append(key)
        elif value == "false":
            parts.append(f"no-{key}")
        else:
            parts.append(f"{key}-" + re.sub(r"[^A-Za-z0-9.]+", "-", value).strip("-"))
    tail = f"-p{rules.players}-s{seed}-{stamp}"
    room = MAX_RUN_NAME - len(rules.edition) - len(tail) - 3  # room for a "-N" counter
    name = rules.edition
    for part in parts:  # whole options only, in canonical order, while they fit
        if len(name) + 1 + len(part) > len(rules.edition) + room:
            break
        name += f"-{part}"
    return name + tail


def default_out(rules, seed: int) -> Path:
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    base = Path("results") / run_name(rules, seed, stamp)
    out, n = base, 1
    while out.exists():
        n += 1
        out = base.with_name(f"{base.name}-{n}")
    return out


def resume_command(path) -> str:
    return f"python -m {PROG} run --resume {path}"
