"""Bot specifications: a strategy per seat plus behaviour knobs.

A bot string names one strategy for every seat or one per seat, each optionally with
knobs in parentheses::

    random
    heuristic(forget=0.1,catch=0.5)
    random,heuristic,heuristic(bluff=0.2),random

Knobs (defaults for both strategies in brackets):

- ``forget`` [0]: probability of forgetting to call UNO;
- ``catch`` [0.5]: probability of catching another player who forgot;
- ``bluff`` [0]: once per turn, the probability that a held Wild Draw Four the bot may not
  legally play counts as playable for that turn's choice (docs/INTERPRETATIONS.md);
- ``challenge`` [0]: probability of challenging a Wild Draw Four;
- ``reflex`` [1]: weight in the 2005 wheel's UNO Spin race (> 0);
- ``jump`` [1]: under the house rule ``jump_in``, the probability that the bot jumps in when
  it holds the card identical to the one just played and its strategy agrees
  (docs/HOUSE_RULES.md, docs/BOTS.md); a value other than 1 in rules without ``jump_in`` is
  refused (``engine.encode.check_bots_for_rules``: it would change nothing);
- ``rollouts`` [128]: strategy ``search`` only: rollouts per candidate move, an integer in
  1 .. 100000 (docs/BOTS.md);
- ``peek`` [0]: strategy ``search`` only, 0 or 1: 1 makes a clairvoyant search that sees
  every other hand (its rollouts start from the true hands instead of a determinization;
  the draws stay random). Not a fair player: a yardstick of how much seeing the hidden
  cards is worth (docs/BOTS.md);
- ``horizon`` [16]: strategy ``search`` only: how many turns (every seat's) a rollout plays
  before it is cut off and scored by the hand sizes, an integer in 0 .. 100000; 0 plays
  every rollout to the end of the round. Race and ``lowest`` matches always play rollouts
  to the end (docs/BOTS.md);
- ``colours`` [1]: strategy ``search`` only, 0 or 1: 1 searches the colour named for a wild
  it plays as its searched move (each colour is a candidate of its own); 0 names the colour
  heuristic names (the colour it holds most), as search did before the knob (docs/BOTS.md);
- ``infer`` [3]: strategy ``search`` only, 0 to 3: what its determinization (the hands it
  deals the other seats in its rollouts, engine/determinize.py) takes from what it saw: 0
  the colour a seat that drew for want of a legal card lacks; 1 everything that draw
  proves (no card of the colour in play, none of the top card's number or symbol, no wild
  but from a hoarder); 2 also what earlier draws proved of the cards the seat held then; 3
  (the default) also a ``heuristic`` seat's last chosen cards (the last, and the one before
  while it took no card between), replayed on each dealt hand (docs/BOTS.md);
- ``extend`` [2]: strategy ``search`` only, an integer in 1 .. 64: when its ``rollouts``
  leave the final test close (the best challenger's margin over heuristic's move within
  one standard error of the threshold), the incumbent and that challenger run on to
  ``extend`` times ``rollouts``; 1 never extends (docs/BOTS.md);
- ``name_colour``, ``hold_wilds``, ``attack``, ``value_wheel`` [1]: strategy ``spin_aware``
  only, 0 or 1: each 0 denies it one skill (restricted play, docs/BOTS.md): a random colour
  for a wild; a wild scored as any card (its points), not held back; a next player near UNO
  ignored; Spin cards scored without their spin value;
- the weights of strategy ``tuned`` only (its card score and colour, docs/BOTS.md; defaults
  in :data:`TUNED_WEIGHTS`, each a finite number in -1000 .. 1000): ``w_points`` (per point
  of the card), ``w_colour`` (per card held of its colour), ``w_attack`` (a Skip, Reverse or
  Draw Two while the next seat holds 2 cards or fewer), ``w_action`` (one otherwise),
  ``w_wild`` / ``w_wild_attack`` (the score of a wild but the Wild Draw Four, the next seat
  holding more / 2 or fewer cards), ``w_wd4`` / ``w_wd4_attack`` (the same for a Wild Draw
  Four), ``w_void`` (a card of a colour the next seat is known to lack: it drew for want of
  it), ``w_name_void`` (per colour named for a wild, the same knowledge; the colour's own
  score is the cards held of it). ``tuned`` with heuristic's weights (:data:`HEURISTIC_WEIGHTS`)
  plays exactly as ``heuristic``.

Every strategy takes every knob.  With its default knobs the ``random`` strategy is exactly
the random bot of RULINGS.md (it never forgets UNO, bluffs or challenges); setting
``forget``, ``bluff`` or ``challenge`` on it gives a random player with those habits.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any

import numpy as np

from ._text import split_top_level
from .engine import bot_codes as _codes
from .engine.bot_codes import *  # noqa: F403 (re-exported: bot_codes.__all__)
from .engine.bot_codes import N_BOT_COLUMNS as N_BOT_COLUMNS  # not in __all__
from .engine.bot_codes import STRATEGIES
from .errors import BotError

#: the engine's codes (engine/bot_codes.py), re-exported, and the bot strings' names
__all__ = [
    *_codes.__all__,
    "HEURISTIC_WEIGHTS",
    "KNOBS",
    "SKILL_KNOBS",
    "TUNED_WEIGHTS",
    "BotSpec",
    "bots_string",
    "check_seats",
    "knob_names",
    "parse_bots",
    "saved_bot_string",
    "saved_bots",
]

#: strategy ``tuned``'s weights (knobs): name -> its default, the weights an optimiser found
#: for classic, scored by the share of the points scored (docs/BOTS.md: ``python -m
#: unospin_sim tune --edition classic --objective points --trials 600 --games 40000
#: --eval-games 100000 --seed 4``)
TUNED_WEIGHTS = {
    "w_points": 0.173111,
    "w_colour": 17.1023,
    "w_attack": 171.256,
    "w_action": 0.910441,
    "w_wild": -82.205,
    "w_wild_attack": 240.683,
    "w_wd4": -209.198,
    "w_wd4_attack": -142.543,
    "w_void": 373.194,
    "w_name_void": 0.582399,
}
#: the weights with which ``tuned`` plays exactly as ``heuristic`` (its card_score)
HEURISTIC_WEIGHTS = {
    "w_points": 1.0,
    "w_colour": 2.0,
    "w_attack": 100.0,
    "w_action": 0.0,
    "w_wild": -100.0,
    "w_wild_attack": 250.0,
    "w_wd4": -200.0,
    "w_wd4_attack": 300.0,
    "w_void": 0.0,
    "w_name_void": 0.0,
}
#: the largest magnitude of a weight
MAX_WEIGHT = 1000.0
#: strategy ``spin_aware``'s skills, each a 0/1 knob that denies the skill when 0
#: (restricted play, docs/BOTS.md)
SKILL_KNOBS = ("name_colour", "hold_wilds", "attack", "value_wheel")
#: knob names in canonical order
KNOBS = (
    (
        "forget",
        "catch",
        "bluff",
        "challenge",
        "reflex",
        "jump",
        "rollouts",
        "peek",
        "horizon",
        "colours",
        "infer",
        "extend",
    )
    + tuple(TUNED_WEIGHTS)
    + SKILL_KNOBS
)
#: knob defaults (the same for every strategy; ``rollouts``, ``peek``, ``horizon``,
#: ``colours`` and ``infer`` are search's only)
DEFAULTS = (
    {
        "forget": 0.0,
        "catch": 0.5,
        "bluff": 0.0,
        "challenge": 0.0,
        "reflex": 1.0,
        "jump": 1.0,
        "rollouts": 128.0,
        "peek": 0.0,
        "horizon": 16.0,
        "colours": 1.0,
        "infer": 3.0,
        "extend": 2.0,
    }
    | TUNED_WEIGHTS
    | dict.fromkeys(SKILL_KNOBS, 1.0)
)
#: knobs that only some strategies take: knob -> those strategies
KNOB_STRATEGIES = (
    {
        "rollouts": ("search",),
        "peek": ("search",),
        "horizon": ("search",),
        "colours": ("search",),
        "infer": ("search",),
        "extend": ("search",),
    }
    | {w: ("tuned",) for w in TUNED_WEIGHTS}
    | {k: ("spin_aware",) for k in SKILL_KNOBS}
)
MAX_ROLLOUTS = 100_000
MAX_HORIZON = 100_000
MAX_EXTEND = 64
#: integer knobs: knob -> (lowest, highest) value
INT_KNOBS = {
    "rollouts": (1, MAX_ROLLOUTS),
    "horizon": (0, MAX_HORIZON),
    "peek": (0, 1),
    "colours": (0, 1),
    "infer": (0, 3),
    "extend": (1, MAX_EXTEND),
} | {k: (0, 1) for k in SKILL_KNOBS}


def _fmt(x: float) -> str:
    g = "%g" % x
    return g if float(g) == x else repr(float(x))


@dataclass(frozen=True)
class BotSpec:
    """One seat's bot: a strategy and its knobs (validated on construction).

    ``str(spec)`` is the canonical form, e.g. ``heuristic(forget=0.1,catch=0.7)``, listing
    only the knobs that differ from :data:`DEFAULTS`.
    """

    strategy: str
    forget: float = DEFAULTS["forget"]
    catch: float = DEFAULTS["catch"]
    bluff: float = DEFAULTS["bluff"]
    challenge: float = DEFAULTS["challenge"]
    reflex: float = DEFAULTS["reflex"]
    jump: float = DEFAULTS["jump"]
    rollouts: float = DEFAULTS["rollouts"]
    peek: float = DEFAULTS["peek"]
    horizon: float = DEFAULTS["horizon"]
    colours: float = DEFAULTS["colours"]
    infer: float = DEFAULTS["infer"]
    extend: float = DEFAULTS["extend"]
    w_points: float = DEFAULTS["w_points"]
    w_colour: float = DEFAULTS["w_colour"]
    w_attack: float = DEFAULTS["w_attack"]
    w_action: float = DEFAULTS["w_action"]
    w_wild: float = DEFAULTS["w_wild"]
    w_wild_attack: float = DEFAULTS["w_wild_attack"]
    w_wd4: float = DEFAULTS["w_wd4"]
    w_wd4_attack: float = DEFAULTS["w_wd4_attack"]
    w_void: float = DEFAULTS["w_void"]
    w_name_void: float = DEFAULTS["w_name_void"]
    name_colour: float = DEFAULTS["name_colour"]
    hold_wilds: float = DEFAULTS["hold_wilds"]
    attack: float = DEFAULTS["attack"]
    value_wheel: float = DEFAULTS["value_wheel"]

    def __post_init__(self) -> None:
        if self.strategy not in STRATEGIES:
            raise BotError(
                f"unknown bot strategy {self.strategy!r}; known strategies: {', '.join(STRATEGIES)}"
            )
        for knob in KNOBS:
            value = getattr(self, knob)
            if isinstance(value, bool) or not isinstance(value, (int, float, np.number)):
                raise BotError(f"bot knob {knob!r} must be a number, got {value!r}")
            v = float(value)
            if knob in INT_KNOBS:
                _check_int_knob(knob, v, self.strategy)
            elif knob in TUNED_WEIGHTS:
                _check_weight(knob, v, self.strategy)
            elif knob == "reflex":
                if not (math.isfinite(v) and v > 0):
                    raise BotError(f"bot knob 'reflex' must be a finite number > 0, got {_fmt(v)}")
            elif not 0.0 <= v <= 1.0:
                raise BotError(f"bot knob {knob!r} is a probability in [0, 1], got {_fmt(v)}")
            object.__setattr__(self, knob, v + 0.0)

    @property
    def strategy_id(self) -> int:
        """Index of the strategy in :data:`STRATEGIES`."""
        return STRATEGIES.index(self.strategy)

    def __str__(self) -> str:
        knobs = [f"{k}={_fmt(getattr(self, k))}" for k in KNOBS if getattr(self, k) != DEFAULTS[k]]
        return f"{self.strategy}({','.join(knobs)})" if knobs else self.strategy


def _split_bots(text: str) -> list[str]:
    return split_top_level(text, BotError, "bot string", max_depth=1)


#: one bot of a bot string: strategy, then optionally (knob=value,...)
_BOT_RE = re.compile(r"\s*([A-Za-z_][A-Za-z0-9_]*)\s*(?:\((.*)\))?\s*", re.S)


def knob_names(item: str) -> tuple[str, list[str], list[str]] | None:
    """The strategy, the knob names and the knob texts one bot's string writes (strategy
    and names lower case; names and texts in the order written, the texts stripped as
    written; ``"search(Rollouts=8)"`` -> ``("search", ["rollouts"], ["Rollouts=8"])``), or
    None when the string is not of the form ``strategy(knob=value,...)`` (the parser refuses
    it). A parsed :class:`BotSpec` cannot tell a knob left out from one set to its default;
    this can (:func:`saved_bots`)."""
    m = _BOT_RE.fullmatch(item)
    if m is None:
        return None
    body = m.group(2)
    parts = [p.strip() for p in body.split(",")] if body is not None and body.strip() else []
    return m.group(1).lower(), [p.partition("=")[0].strip().lower() for p in parts], parts


def _parse_one(item: str, text: str) -> BotSpec:
    m = _BOT_RE.fullmatch(item)
    if m is None:
        raise BotError(
            f"malformed bot {item.strip()!r} in {text!r}: expected "
            f"strategy or strategy(knob=value,...)"
        )
    strategy, body = m.group(1).lower(), m.group(2)
    if strategy not in STRATEGIES:
        raise BotError(
            f"unknown bot strategy {m.group(1)!r}; known strategies: {', '.join(STRATEGIES)}"
        )
    knobs: dict[str, float] = {}
    if body is not None and body.strip():
        for part in body.split(","):
            name, eq, value = part.partition("=")
            name = name.strip().lower()
            if not eq or not name or not value.strip():
                raise BotError(
                    f"malformed bot knob {part.strip()!r} in {item.strip()!r}: expected knob=value"
                )
            if name not in KNOBS:
                raise BotError(f"unknown bot knob {name!r}; known knobs: {', '.join(KNOBS)}")
            if name in knobs:
                raise BotError(f"bot knob {name!r} given twice in {item.strip()!r}")
            try:
                knobs[name] = float(value)
            except ValueError:
                raise BotError(
                    f"bot knob {name!r} must be a number, got {value.strip()!r}"
                ) from None
    return BotSpec(strategy, **knobs)


def parse_bots(text: str, players: int) -> tuple[BotSpec, ...]:
    """Parse a bot string into one :class:`BotSpec` per seat.

    Parameters
    ----------
    text : str
        One bot for every seat (``"heuristic(catch=0.9)"``) or a comma list with exactly
        one bot per seat (``"random,heuristic,random,random"``); commas inside
        parentheses separate knobs.
    players : int
        Number of seats.

    Returns
    -------
    tuple of BotSpec
        ``players`` specs, seat 0 first.

    Raises
    ------
    BotError
        Malformed text, unknown strategy or knob, a knob out of range, a number of bots
        that is neither 1 nor ``players``, or reflexes whose sum overflows.
    """
    if not isinstance(text, str):
        raise BotError(f"a bot string must be a str, got {type(text).__name__}")
    if not text.strip():
        raise BotError(f"empty bot string; known strategies: {', '.join(STRATEGIES)}")
    items = _split_bots(text)
    if any(not item.strip() for item in items):
        raise BotError(f"malformed bot string {text!r}: empty entry")
    specs = tuple(_parse_one(item, text) for item in items)
    if len(specs) == 1:
        specs = specs * players
    if len(specs) != players:
        raise BotError(
            f"{len(specs)} bots given for {players} players: give one bot for "
            f"all seats or exactly one per seat"
        )
    check_seats(specs)
    return specs


def check_seats(specs) -> None:
    """Check what only the whole table of bots can break: the sum of the ``reflex`` knobs.

    The 2005 wheel's UNO Spin race draws its winner from that sum; if it overflows to
    infinity the race always goes to the last seat.

    Raises
    ------
    BotError
        The reflexes add up to more than the largest float.
    """
    if not math.isfinite(sum(s.reflex for s in specs)):
        raise BotError(
            "bot knob 'reflex' values are too large: their sum over the seats "
            "must be a finite number (only their ratios matter)"
        )


def bots_string(specs) -> str:
    """Canonical bot string of a sequence of specs, one per seat (parses back equal)."""
    return ",".join(str(s) for s in specs)


def _check_int_knob(knob: str, v: float, strategy: str) -> None:
    """Refuse an integer knob (:data:`INT_KNOBS`) outside its range, or set away from its
    default on a strategy that does not take it (:data:`KNOB_STRATEGIES`)."""
    lo, hi = INT_KNOBS[knob]
    if not (math.isfinite(v) and v == int(v)) or not lo <= v <= hi:
        what = f"{lo} or {hi}" if hi == lo + 1 else f"an integer in {lo}..{hi}"
        raise BotError(f"bot knob {knob!r} must be {what}, got {_fmt(v)}")
    if v != DEFAULTS[knob] and strategy not in KNOB_STRATEGIES[knob]:
        names = " or ".join(repr(s) for s in KNOB_STRATEGIES[knob])
        raise BotError(f"bot knob {knob!r} applies only to strategy {names}, not {strategy!r}")


def _check_weight(knob: str, v: float, strategy: str) -> None:
    """Refuse a weight of ``tuned`` (:data:`TUNED_WEIGHTS`) that is not a finite number in
    -MAX_WEIGHT .. MAX_WEIGHT, or set away from its default on another strategy."""
    if not (math.isfinite(v) and abs(v) <= MAX_WEIGHT):
        raise BotError(
            f"bot knob {knob!r} must be a finite number in {-MAX_WEIGHT:g}.."
            f"{MAX_WEIGHT:g}, got {_fmt(v)}"
        )
    if v != DEFAULTS[knob] and strategy != "tuned":
        raise BotError(f"bot knob {knob!r} applies only to strategy 'tuned', not {strategy!r}")


# ------------------------------------------------------------------------------------------
# the bot strings a run saves (run.json, meta.json) and reads back

#: what a search seat saved without ``horizon`` played (a run of a version before that knob
#: and the defaults of 128 rollouts cut off at 16 turns): 64 rollouts played to the end
SEARCH_KNOBS_BEFORE_HORIZON = (("rollouts", "64"), ("horizon", "0"))
#: what a search seat saved without ``colours`` played (a run of a version before the knobs
#: ``colours``, searched wild colours, and ``infer``, what a draw proves): search named
#: heuristic's colour and inferred only the colours a seat lacks
SEARCH_KNOBS_BEFORE_COLOURS = (("colours", "0"), ("infer", "0"))
#: what a search seat saved without ``extend`` played (a run of a version before that knob):
#: search never ran on past its ``rollouts``
SEARCH_KNOBS_BEFORE_EXTEND = (("extend", "1"),)
#: the knobs a saved search seat always names (:func:`saved_bot_string`)
SEARCH_SAVED_KNOBS = ("rollouts", "horizon", "colours", "infer", "extend")
#: strategy -> the knobs a saved seat of it always names (:func:`saved_bot_string`): their
#: defaults may change (search's budget, tuned's weights when tuned again)
SAVED_KNOBS = {"search": SEARCH_SAVED_KNOBS, "tuned": tuple(TUNED_WEIGHTS)}


def saved_bot_string(spec) -> str:
    """The string a run saves for one seat's bot (``run.json``, ``meta.json``): the canonical
    form, except that a ``search`` seat always names its ``rollouts``, ``horizon``,
    ``colours``, ``infer`` and ``extend`` (:data:`SEARCH_SAVED_KNOBS`) and a ``tuned`` seat
    its weights (:data:`SAVED_KNOBS`), so that a later change of their defaults cannot change what a
    saved run played."""
    always = SAVED_KNOBS.get(spec.strategy)
    if always is None:
        return str(spec)
    knobs = [
        f"{k}={_fmt(getattr(spec, k))}"
        for k in KNOBS
        if getattr(spec, k) != DEFAULTS[k] or k in always
    ]
    return f"{spec.strategy}({','.join(knobs)})"


def saved_bots(bots) -> list[str] | Any:
    """The bot strings of a saved run (``run.json`` / ``meta.json``) as that run played them:
    a ``search`` seat saved without ``horizon`` predates that knob and gets the defaults of
    then (:data:`SEARCH_KNOBS_BEFORE_HORIZON`) for the knobs it does not name; one saved
    without ``colours`` predates that knob and ``infer`` and gets ``colours=0`` and
    ``infer=0`` (:data:`SEARCH_KNOBS_BEFORE_COLOURS`); one saved without ``extend`` predates
    it and gets ``extend=1``
    (:data:`SEARCH_KNOBS_BEFORE_EXTEND`). A string that is not a well-formed bot is left for
    the parser to refuse."""
    if not isinstance(bots, (list, tuple)):
        return bots  # not a saved list: parsed (or refused) as it is
    out = []
    for b in bots:
        if not isinstance(b, str):
            return bots  # refused when parsed, with the parser's message
        parsed = knob_names(b)
        if parsed is None or parsed[0] != "search":
            out.append(b)
            continue
        names, written = parsed[1], parsed[2]
        if any("(" in x or ")" in x for x in written):
            out.append(b)  # malformed: left for the parser to refuse
            continue
        before: tuple[tuple[str, str], ...] = ()
        if "horizon" not in names:
            before += SEARCH_KNOBS_BEFORE_HORIZON
        if "colours" not in names:
            before += SEARCH_KNOBS_BEFORE_COLOURS
        if "extend" not in names:
            before += SEARCH_KNOBS_BEFORE_EXTEND
        extra = [f"{k}={v}" for k, v in before if k not in names]
        if extra:
            b = f"search({','.join([x for x in written if x] + extra)})"
        out.append(b)
    return out
