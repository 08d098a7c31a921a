"""A run's inputs, checked once at the door: rule sets, bots, whole numbers, table lists
and the default thread count. Every problem is one :class:`~unospin_sim.errors.UserError`
line.
"""

from __future__ import annotations

import os

import numpy as np

from ..errors import UserError
from ..rules import RuleSet, parse_rules

__all__ = [
    "DEFAULT_MATCHES",
    "DEFAULT_ROUNDS",
    "MAX_SEED",
    "TABLES",
    "as_bots",
    "as_rules",
    "check_int",
    "check_tables",
    "default_threads",
    "games_to_play",
]

MAX_SEED = 2**63 - 1
#: rounds a run plays unless told (``run --games``)
DEFAULT_ROUNDS = 1_000_000
#: matches a run in match mode plays unless told (``run --matches``)
DEFAULT_MATCHES = 1000
#: the tables a run can write
TABLES = ("rounds", "spins")


def default_threads() -> int:
    """Every core this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


def as_rules(rules) -> RuleSet:
    """``rules`` as a :class:`~unospin_sim.rules.RuleSet` (from a rule string)."""
    if isinstance(rules, RuleSet):
        return rules
    if isinstance(rules, str):
        return parse_rules(rules)
    raise UserError(f"rules must be a RuleSet or a rule string, not {type(rules).__name__}")


def as_bots(bots, players: int):
    """Per-seat bot specs from a bot string, saved bot strings or specs."""
    from ..bots import parse_bots

    if isinstance(bots, str):
        return parse_bots(bots, players)
    from ..bots import check_seats

    bots = tuple(bots)
    if all(isinstance(b, str) for b in bots):  # e.g. meta["bots"] of an earlier run
        return parse_bots(",".join(bots), players)
    if len(bots) != players:
        raise UserError(f"{len(bots)} bots given for {players} players")
    check_seats(bots)
    return bots


def check_int(name: str, value, lo: int, hi: int | None = None) -> int:
    """``value`` as an int in ``lo..hi`` (``hi`` None: no upper bound), else one line."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise UserError(f"{name} must be an integer, got {value!r}")
    value = int(value)
    if value < lo or (hi is not None and value > hi):
        bound = f">= {lo}" if hi is None else f"in {lo}..{hi}"
        raise UserError(f"{name} must be {bound}, got {value}")
    return value


def check_tables(tables) -> tuple:
    """The tables to write, in :data:`TABLES` order, from a sequence or ``"a,b"``/``"none"``."""
    if isinstance(tables, str):
        if not tables.strip():
            raise UserError(
                f"tables must be a comma list of {', '.join(TABLES)} or 'none', got an empty string"
            )
        tables = [t.strip() for t in tables.split(",") if t.strip()]
        if tables == ["none"]:
            tables = []
    tables = tuple(tables)
    bad = [t for t in tables if t not in TABLES]
    if bad or len(set(tables)) != len(tables):
        raise UserError(
            f"tables must be a comma list of {', '.join(TABLES)} or 'none', "
            f"got {','.join(tables)!r}"
        )
    if tables and "rounds" not in tables:
        raise UserError(
            f"tables {','.join(tables)!r} leave out rounds, which the summary, "
            f"the report and the spins' analysis read: give 'rounds,spins', "
            f"'rounds' or 'none'"
        )
    return tuple(t for t in TABLES if t in tables)


def games_to_play(rules: RuleSet, rounds=None, matches=None, rotate_bots=False) -> int:
    """How many games a run of ``rules`` plays: rounds, or whole matches in match mode.

    A round-by-round run takes ``rounds`` (default :data:`DEFAULT_ROUNDS`) and no
    ``matches``; a run in match mode (:attr:`RuleSet.plays_matches`) takes ``matches``
    (default :data:`DEFAULT_MATCHES`), no ``rounds`` and no bot rotation (a match passes the
    deal itself). The wrong one given is a one-line :class:`UserError` naming the flag.
    """
    if rules.plays_matches:
        mode = rules.option("match")
        if rounds is not None:
            raise UserError(f"match={mode} plays whole matches: give --matches N, not --games")
        if rotate_bots:
            raise UserError(
                f"--rotate-bots cannot be combined with match={mode}: a match "
                f"passes the deal itself"
            )
        return DEFAULT_MATCHES if matches is None else matches
    if matches is not None:
        raise UserError("--matches needs a match mode: --match race or --match lowest")
    return DEFAULT_ROUNDS if rounds is None else rounds
