"""Rule sets: an edition plus resolved rule options, validated, with a canonical string.

The rule *data* (decks, points, wheels, per-edition option defaults) lives in
``editions.toml``; this module loads it once into :data:`EDITIONS` and builds
:class:`RuleSet` values from it.

>>> rs = RuleSet.build("spin2025", players=4, wheel={"two_x": 2, "swap_hands": 1})
>>> str(rs)
'spin2025(players=4,wheel={swap_hands:1,two_x:2})'
>>> parse_rules(str(rs)) == rs
True

Canonical string: ``edition(players=P,...)`` listing ``players`` and then every option
whose value differs from the edition default, in the fixed order of :data:`OPTION_ORDER`.
Booleans are written ``true``/``false``; a wheel is written ``wheel={space:weight,...}``
with the spaces of positive weight in the edition's wheel order and weights printed with
``%g`` (or ``repr`` when ``%g`` would lose precision, so that strings always round-trip).
"""

from __future__ import annotations

import math
import numbers
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources
from types import MappingProxyType
from typing import Any

import numpy as np

from .._text import split_top_level
from ..errors import RuleError
from . import cards, spaces
from .options import MAX_TURN_CAP, OPTION_BY_NAME, OPTIONS

__all__ = [
    "Edition", "RuleSet", "EDITIONS", "OPTION_ORDER", "OPTION_DOCS", "NOT_IMPLEMENTED",
    "FIRST_CARD_RULES", "HOUSE_RULES", "MAX_TURN_CAP", "parse_rules", "parse_wheel",
]

#: every implemented rule option, in canonical-string order (the table's order)
OPTION_ORDER = tuple(o.name for o in OPTIONS)

#: one-line description of each option (for help texts and docs)
OPTION_DOCS = MappingProxyType({o.name: o.doc for o in OPTIONS})

#: house-rule options (docs/HOUSE_RULES.md): off by default, never combined with rlcard
HOUSE_RULES = tuple(o.name for o in OPTIONS if o.house)

#: options named in RULINGS.md that are not implemented yet: rejected with a clear message
#: (empty since jump_in and partners; kept for options added to RULINGS.md later)
NOT_IMPLEMENTED: tuple[str, ...] = ()

#: first-card rules, by name; the index is the rule's id
FIRST_CARD_RULES = ("action_effects", "numbers_only")

_FAMILIES = {"none": spaces.WHEEL_NONE, "2005": spaces.WHEEL_2005, "2025": spaces.WHEEL_2025}
_TRUE = ("true", "1")
_FALSE = ("false", "0")
_MISSING = object()


# ------------------------------------------------------------------------------------------
# edition data


@dataclass(frozen=True, eq=False)
class Edition:
    """One edition's rule data, as loaded from ``editions.toml``.

    Attributes
    ----------
    name, title : str
        Identifier (``"spin2025"``) and display title.
    first_card : str
        First-discard rule, one of :data:`FIRST_CARD_RULES`.
    wheel_family : int
        ``spaces.WHEEL_NONE``, ``WHEEL_2005`` or ``WHEEL_2025``.
    wheel_spaces : tuple of str
        The wheel's spaces in wheel order (empty without a wheel).
    defaults : mapping
        Every option valid for the edition with its default value (the wheel's default is
        a tuple of weights in ``wheel_spaces`` order).
    """

    name: str
    title: str
    first_card: str
    wheel_family: int
    wheel_spaces: tuple[str, ...]
    defaults: Mapping[str, Any]
    base_counts: np.ndarray = field(repr=False)        # int64[N_KINDS], option counts at 0
    # (kind, option name, value): the kind's count is the option's value, or, when value is
    # not None, 1 if the option equals value and 0 otherwise
    option_counts: tuple[tuple[int, str, Any], ...] = field(repr=False)
    # the option whose value k keeps the Spin mark on the numbers 1..k only (None: all)
    spin_mark: str | None = field(default=None, repr=False)

    @property
    def options(self) -> tuple[str, ...]:
        """Names of the options valid for this edition, in canonical order."""
        return tuple(o for o in OPTION_ORDER if o in self.defaults)


def _load_editions() -> tuple[dict[str, Edition], np.ndarray]:
    text = resources.files(__package__).joinpath("editions.toml").read_text(encoding="utf-8")
    data = tomllib.loads(text)
    wild_index = {name: cards.FIRST_WILD + j for j, name in enumerate(cards.WILD_NAMES)}
    action_offset = {"skip": cards.SKIP_OFFSET, "reverse": cards.REVERSE_OFFSET,
                     "draw_two": cards.DRAW_TWO_OFFSET}

    points = np.full(cards.N_KINDS, -1, dtype=np.int64)
    for key, value in data["points"].items():
        if key in ("number", "spin"):
            if value != "face":
                raise RuntimeError(f"editions.toml: points.{key} must be 'face'")
            for c in range(cards.N_COLOURS):
                if key == "number":
                    ks = [cards.number_kind(c, n) for n in range(10)]
                else:
                    ks = [cards.spin_kind(c, n) for n in range(1, cards.MAX_SPIN_NUMBER + 1)]
                points[ks] = cards.KIND_FACE[ks]
        elif key in action_offset:
            for c in range(cards.N_COLOURS):
                points[c * cards.KINDS_PER_COLOUR + action_offset[key]] = value
        elif key in wild_index:
            points[wild_index[key]] = value
        else:
            raise RuntimeError(f"editions.toml: unknown card kind {key!r} in [points]")
    if (points < 0).any():
        raise RuntimeError("editions.toml: [points] does not cover every card kind")
    points.setflags(write=False)

    editions: dict[str, Edition] = {}
    for name, ed in data["editions"].items():
        counts = np.zeros(cards.N_KINDS, dtype=np.int64)
        per = ed["deck"]["per_colour"]
        for c in range(cards.N_COLOURS):
            for n, k in enumerate(per["numbers"]):
                counts[cards.number_kind(c, n)] = k
            if len(per["spins"]) > cards.MAX_SPIN_NUMBER:
                raise RuntimeError(f"editions.toml: {name} lists Spin cards beyond "
                                   f"{cards.MAX_SPIN_NUMBER}")
            for n, k in enumerate(per["spins"], start=1):
                counts[cards.spin_kind(c, n)] = k
            for key, off in action_offset.items():
                counts[c * cards.KINDS_PER_COLOUR + off] = per[key]
        spin_mark = None
        if "spin_mark" in per:
            spin_mark = per["spin_mark"]["option"]
        option_counts = []
        for key, value in ed["deck"]["wilds"].items():
            if key not in wild_index:
                raise RuntimeError(f"editions.toml: unknown wild kind {key!r} in {name}")
            if isinstance(value, dict):
                option_counts.append((wild_index[key], value["option"], value.get("equals")))
            else:
                counts[wild_index[key]] = value
        counts.setflags(write=False)

        if "defaults" in ed:
            raise RuntimeError(f"editions.toml: {name} has [defaults]: option defaults live "
                               f"in rules/options.py")
        defaults: dict[str, Any] = {o.name: o.default_for(name) for o in OPTIONS
                                    if name in o.editions and o.type != "wheel"}
        wheel = ed.get("wheel")
        wheel_spaces: tuple[str, ...] = ()
        if wheel is not None:
            wheel_spaces = tuple(wheel["spaces"])
            if any(s not in spaces.SPACE_ID for s in wheel_spaces):
                raise RuntimeError(f"editions.toml: unknown wheel space in {name}")
            defaults["wheel"] = tuple(float(w) for w in wheel["weights"])
            if len(defaults["wheel"]) != len(wheel_spaces):
                raise RuntimeError(f"editions.toml: {name} wheel spaces/weights differ in length")
        if (wheel is not None) != (name in OPTION_BY_NAME["wheel"].editions):
            raise RuntimeError(f"editions.toml: {name}'s [wheel] disagrees with the wheel "
                               f"option's editions in rules/options.py")
        if spin_mark is not None and spin_mark not in defaults:
            raise RuntimeError(f"editions.toml: {name} marks Spin cards by unknown option "
                               f"{spin_mark}")
        for _, opt, _ in option_counts:
            if opt not in defaults:
                raise RuntimeError(f"editions.toml: {name} counts cards by unknown option {opt}")
        if ed["first_card"] not in FIRST_CARD_RULES:
            raise RuntimeError(f"editions.toml: bad first_card rule in {name}")
        editions[name] = Edition(
            name=name, title=ed["title"], first_card=ed["first_card"],
            wheel_family=_FAMILIES[ed["wheel_family"]], wheel_spaces=wheel_spaces,
            defaults=MappingProxyType(defaults), base_counts=counts,
            option_counts=tuple(option_counts), spin_mark=spin_mark)
    return editions, points


_EDITIONS, POINTS = _load_editions()
#: edition name -> :class:`Edition`, in data order (classic, spin2005, spin2025, spiderman)
EDITIONS: Mapping[str, Edition] = MappingProxyType(_EDITIONS)


def _edition(name: Any) -> Edition:
    if isinstance(name, Edition):
        return name
    key = str(name).strip().lower()
    if key not in EDITIONS:
        raise RuleError(f"unknown edition {str(name)!r}; known editions: {', '.join(EDITIONS)}")
    return EDITIONS[key]


# ------------------------------------------------------------------------------------------
# value coercion


def _fmt_num(x: float) -> str:
    """``%g`` of ``x``, or its exact ``repr`` when ``%g`` would not round-trip."""
    g = "%g" % x
    return g if float(g) == x else repr(float(x))


def _coerce_int(name: str, value: Any) -> int:
    if isinstance(value, bool):
        raise RuleError(f"option {name!r} must be a whole number, got {value!r}")
    if isinstance(value, numbers.Integral):
        v = int(value)
    elif isinstance(value, numbers.Real) and math.isfinite(value) and float(value).is_integer():
        v = int(value)
    elif isinstance(value, str) and re.fullmatch(r"\s*[+-]?\d[\d_]*\s*", value):
        v = int(value)
    else:
        raise RuleError(f"option {name!r} must be a whole number, got {str(value)!r}")
    lo, hi = OPTION_BY_NAME[name].domain
    if hi is None and v < lo:
        raise RuleError(f"{name} must be at least {lo}, got {v}")
    if hi is not None and not lo <= v <= hi:
        raise RuleError(f"{name} must be between {lo} and {hi}, got {v}")
    return v


def _coerce_bool(name: str, value: Any) -> bool:
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, numbers.Integral) and value in (0, 1):
        return bool(value)
    if isinstance(value, str):
        v = value.strip().lower()
        if v in _TRUE:
            return True
        if v in _FALSE:
            return False
    raise RuleError(f"option {name!r} must be true or false, got {str(value)!r}")


def _coerce_enum(name: str, value: Any) -> str:
    choices = OPTION_BY_NAME[name].domain
    if isinstance(value, str) and value.strip().lower() in choices:
        return value.strip().lower()
    shown = value.strip() if isinstance(value, str) else value
    raise RuleError(f"option {name!r} must be one of {', '.join(choices)}, got {shown!r}")


def _coerce_weight(space: str, value: Any) -> float:
    if isinstance(value, (bool, np.bool_)):
        raise RuleError(f"wheel weight of {space!r} must be a number, got {value!r}")
    if isinstance(value, numbers.Real):
        w = float(value)
    elif isinstance(value, str):
        try:
            w = float(value.strip())
        except ValueError:
            raise RuleError(
                f"wheel weight of {space!r} must be a number, got {value.strip()!r}") from None
    else:
        raise RuleError(f"wheel weight of {space!r} must be a number, got {value!r}")
    if not math.isfinite(w):
        raise RuleError(f"wheel weight of {space!r} must be finite, got {_fmt_num(w)}")
    if w < 0:
        raise RuleError(f"wheel weight of {space!r} must not be negative, got {_fmt_num(w)}")
    return w + 0.0  # no negative zero


def _space_owner(space: str) -> str | None:
    for ed in EDITIONS.values():
        if space in ed.wheel_spaces:
            return ed.name
    return None


def _wheel_vector(ed: Edition, wheel: Any) -> tuple[float, ...]:
    """Validate a wheel (mapping or string) for ``ed``: weights in wheel order."""
    if isinstance(wheel, str):
        wheel = parse_wheel(wheel, ed)
    elif isinstance(wheel, (tuple, list)) and len(wheel) == len(ed.wheel_spaces) and all(
            isinstance(w, numbers.Real) for w in wheel):
        wheel = dict(zip(ed.wheel_spaces, wheel))
    if not isinstance(wheel, Mapping):
        raise RuleError(f"wheel must be a mapping of space to weight, got {type(wheel).__name__}")
    weights = dict.fromkeys(ed.wheel_spaces, 0.0)
    for space, value in wheel.items():
        space = str(space).strip()
        if space not in weights:
            owner = _space_owner(space)
            if owner is not None:
                raise RuleError(f"wheel space {space!r} belongs to the {owner} wheel, "
                                f"not to {ed.name}'s")
            raise RuleError(f"unknown wheel space {space!r} for {ed.name}; "
                            f"known spaces: {', '.join(ed.wheel_spaces)}")
        weights[space] = _coerce_weight(space, value)
    if not any(w > 0 for w in weights.values()):
        raise RuleError(f"wheel weights must not all be zero: give at least one {ed.name} "
                        f"space a positive weight")
    if not math.isfinite(sum(weights.values())):  # the engine draws from the running sum
        raise RuleError("wheel weights are too large: their sum must be a finite number "
                        "(only their ratios matter)")
    return tuple(weights.values())


def _split_top(text: str, whole: str) -> list[str]:
    """Split ``text`` (part of rule string ``whole``) on commas outside braces/parentheses."""
    return split_top_level(text, RuleError, "rule string", shown=whole,
                           pairs={"(": ")", "{": "}"})


def parse_wheel(text: str, edition: Any) -> dict[str, float]:
    """Parse a wheel string such as ``"two_x=2,swap_hands=1"`` for ``edition``.

    Parameters
    ----------
    text : str
        ``space=weight`` (or ``space:weight``) pairs separated by commas, optionally in
        braces as in the canonical form ``{swap_hands:1,two_x:2}``.
    edition : str or Edition
        The edition whose wheel the spaces must belong to.

    Returns
    -------
    dict
        ``{space: weight}`` for the listed spaces, in the edition's wheel order.  Spaces not
        listed weigh 0 when the result is passed as the ``wheel`` option.

    Raises
    ------
    RuleError
        Unknown edition or one without a wheel, malformed text, unknown space, a space of
        the other edition's wheel, a space given twice, a non-numeric, negative or
        non-finite weight, or all weights zero.
    """
    ed = _edition(edition)
    if not ed.wheel_spaces:
        raise RuleError(f"edition {ed.name!r} has no wheel")
    if not isinstance(text, str):
        raise RuleError(f"wheel must be a string like 'two_x=2,swap_hands=1', got {text!r}")
    body = text.strip()
    if body.startswith("{") or body.endswith("}"):
        if not (body.startswith("{") and body.endswith("}")):
            raise RuleError(f"malformed wheel {text!r}: unbalanced braces")
        body = body[1:-1].strip()
    if not body:
        raise RuleError(f"empty wheel {text!r}: give space=weight pairs, e.g. "
                        f"{ed.wheel_spaces[0]}=1")
    given: dict[str, str] = {}
    for item in body.split(","):
        m = re.fullmatch(r"\s*([A-Za-z_][A-Za-z0-9_]*)\s*[=:]\s*(\S.*?)\s*", item)
        if m is None:
            name = item.strip()
            if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
                raise RuleError(f"wheel space {name!r} needs a weight, e.g. {name}=1")
            raise RuleError(f"malformed wheel entry {item.strip()!r} in {text!r}: "
                            f"expected space=weight")
        space, value = m.group(1), m.group(2)
        if space in given:
            raise RuleError(f"wheel space {space!r} given twice")
        given[space] = value
    vector = _wheel_vector(ed, given)  # validates names and weights
    return {s: w for s, w in zip(ed.wheel_spaces, vector) if s in given}


def _check_option_name(ed: Edition, name: str) -> None:
    if name in NOT_IMPLEMENTED:
        raise RuleError(f"option {name!r} is not implemented yet")
    if name not in OPTION_ORDER:
        raise RuleError(f"unknown rule option {name!r}; known options: {', '.join(OPTION_ORDER)}")
    if name not in ed.defaults:
        why = " (it has no wheel)" if name == "wheel" else ""
        raise RuleError(f"option {name!r} is not valid for {ed.name}{why}; "
                        f"valid options: {', '.join(ed.options)}")


def _coerce(ed: Edition, name: str, value: Any) -> Any:
    _check_option_name(ed, name)
    kind = OPTION_BY_NAME[name].type
    if kind == "int":
        return _coerce_int(name, value)
    if kind == "bool":
        return _coerce_bool(name, value)
    if kind == "enum":
        return _coerce_enum(name, value)
    return _wheel_vector(ed, value)


def _check_combinations(ed: Edition, resolved: dict) -> None:
    """Refuse combinations of options that make no sense, with one line naming both."""
    if resolved.get("match") == "single" and resolved.get("target") != ed.defaults["target"]:
        raise RuleError(f"target={resolved['target']} cannot be combined with match=single: "
                        f"a target ends a match (match=race or match=lowest)")
    if resolved.get("stacked_wd4", "checked") != "checked" and not resolved.get("stacking"):
        raise RuleError(f"stacked_wd4={resolved['stacked_wd4']} cannot be combined with "
                        f"stacking=false: it says how a stacked Wild Draw Four is judged")
    if resolved.get("jump_in_wilds") and not resolved.get("jump_in"):
        raise RuleError("jump_in_wilds=true cannot be combined with jump_in=false: it says "
                        "which cards may be jumped on")
    if resolved.get("partners"):
        n = resolved["players"]
        if n % 2 or n < 4:
            raise RuleError(f"partners=true cannot be combined with players={n}: partners "
                            f"play in teams of two sitting opposite (4, 6, 8 or 10 players)")
        if resolved.get("match") == "lowest":
            raise RuleError("partners=true cannot be combined with match=lowest: each player "
                            "adds their own cards (a team version is not defined; match=race "
                            "plays partners)")


# ------------------------------------------------------------------------------------------
# RuleSet


@dataclass(frozen=True)
class RuleSet:
    """An edition plus every rule option resolved to a value; frozen and hashable.

    Build one with :meth:`RuleSet.build` or :func:`parse_rules`, not with the constructor.
    ``str(rs)`` is the canonical rule string and ``parse_rules(str(rs)) == rs``.
    """

    edition: str
    _values: tuple[tuple[str, Any], ...] = field(repr=False)

    # -- construction ------------------------------------------------------------------
    @classmethod
    def build(cls, edition: str, players: Any = None, **options: Any) -> RuleSet:
        """Validate ``edition`` and ``options`` and return the rule set.

        Parameters
        ----------
        edition : str
            One of :data:`EDITIONS` (``classic``, ``spin2005``, ``spin2025``, ``spiderman``).
        players : int, optional
            2-10; the edition default (4) when omitted.
        **options
            Other rule options (see :data:`OPTION_DOCS`); values may be Python values or
            their string forms (``"true"``, ``"500"``, ``"two_x=2,swap_hands=1"``).
            ``wheel`` takes a ``{space: weight}`` mapping or a wheel string.

        Returns
        -------
        RuleSet

        Raises
        ------
        RuleError
            Unknown edition or option, an option not valid for the edition or not
            implemented yet, or a bad value; the message is one line naming the problem.
        """
        ed = _edition(edition)
        if players is not None:
            options = {"players": players, **options}
        resolved = dict(ed.defaults)
        for name, value in options.items():
            resolved[name] = _coerce(ed, name, value)
        if resolved.get("rlcard") and resolved.get("wild_matches_colour"):
            # RLCard's own rule (Wild Draw Four only when no other card is legal) already
            # forbids it whenever another wild is held: one game, one canonical string
            raise RuleError("wild_matches_colour=true cannot be combined with rlcard=true: "
                            "RLCard allows a Wild Draw Four only when no other card is legal")
        if resolved.get("rlcard"):
            for name in HOUSE_RULES:
                if name in resolved and resolved[name] != ed.defaults[name]:
                    raise RuleError(f"{name} cannot be combined with rlcard=true: RLCard "
                                    f"1.2.0 plays its own fixed rules, without house rules")
        _check_combinations(ed, resolved)
        values = tuple((name, resolved[name]) for name in ed.options)
        return cls(ed.name, values)

    def replace(self, **options: Any) -> RuleSet:
        """A copy with some options changed (validated like :meth:`build`)."""
        current = {name: self.option(name) for name in self.edition_data.options}
        current.update(options)
        return RuleSet.build(self.edition, **current)

    # -- access --------------------------------------------------------------------------
    @property
    def edition_data(self) -> Edition:
        """The :class:`Edition` data of this rule set."""
        return EDITIONS[self.edition]

    @property
    def players(self) -> int:
        """Number of players (2-10)."""
        return dict(self._values)["players"]

    @property
    def first_card(self) -> str:
        """First-discard rule name, one of :data:`FIRST_CARD_RULES`."""
        return self.edition_data.first_card

    @property
    def wheel_family(self) -> int:
        """``spaces.WHEEL_NONE``, ``spaces.WHEEL_2005`` or ``spaces.WHEEL_2025``."""
        return self.edition_data.wheel_family

    @property
    def plays_matches(self) -> bool:
        """Whether these rules play whole matches (option ``match`` = ``race`` or
        ``lowest``): the one place that question is answered (results columns, the runner,
        the CLI and the designer ask here)."""
        return self.option("match", "single") != "single"

    @property
    def partners(self) -> bool:
        """Whether these rules play the house rule ``partners`` (teams of two sitting
        opposite)."""
        return bool(self.option("partners", False))

    @property
    def teams(self) -> int | None:
        """Number of teams under ``partners`` (players // 2), None without it."""
        return self.players // 2 if self.partners else None

    def option(self, name: str, default: Any = _MISSING) -> Any:
        """Value of rule option ``name``.

        Parameters
        ----------
        name : str
            An option valid for this edition (``edition_data.options``).
        default : optional
            Returned when ``name`` is not valid for this edition; without it that raises.

        Returns
        -------
        object
            ``int`` / ``bool``; for ``wheel`` a ``{space: weight}`` dict over every space of
            the edition's wheel, in wheel order.
        """
        for key, value in self._values:
            if key == name:
                if key == "wheel":
                    return dict(zip(self.edition_data.wheel_spaces, value))
                return value
        if default is not _MISSING:
            return default
        _check_option_name(self.edition_data, name)
        raise AssertionError("unreachable")  # pragma: no cover

    @property
    def options(self) -> dict[str, Any]:
        """Every option of the edition with its value (``wheel`` as a dict)."""
        return {name: self.option(name) for name, _ in self._values}

    def deck_counts(self) -> np.ndarray:
        """Copies of each card kind in the deck: ``np.int64[N_KINDS]`` (a fresh array)."""
        ed = self.edition_data
        counts = ed.base_counts.copy()
        for kind, opt, equals in ed.option_counts:
            value = self.option(opt)
            counts[kind] = value if equals is None else int(value == equals)
        if ed.spin_mark is not None:
            # the numbers 1..k carry the Spin mark on one copy each, the others on none; a
            # number's copies (plain + Spin) stay as many as the deck lists
            k = self.option(ed.spin_mark)
            for n in range(1, cards.MAX_SPIN_NUMBER + 1):
                for c in range(cards.N_COLOURS):
                    plain, spin = cards.number_kind(c, n), cards.spin_kind(c, n)
                    total = counts[plain] + counts[spin]
                    counts[spin] = min(1, total) if n <= k else 0
                    counts[plain] = total - counts[spin]
        return counts

    def deck_size(self) -> int:
        """Number of cards in the deck."""
        return int(self.deck_counts().sum())

    def points(self) -> np.ndarray:
        """Points of each card kind: ``np.int64[N_KINDS]`` (a fresh array)."""
        return POINTS.copy()

    def wheel_spaces(self) -> tuple[str, ...]:
        """Space names of this edition's wheel in wheel order (``()`` without a wheel)."""
        return self.edition_data.wheel_spaces

    def wheel_weights(self) -> np.ndarray:
        """Raw (unnormalised) weights over the GLOBAL space ids: ``np.float64[N_SPACES]``.

        Spaces not on this edition's wheel, or given no weight, are 0; all zeros when the
        edition has no wheel.
        """
        w = np.zeros(spaces.N_SPACES, dtype=np.float64)
        if self.wheel_spaces():
            for space, weight in self.option("wheel").items():
                w[spaces.SPACE_ID[space]] = weight
        return w

    # -- text ------------------------------------------------------------------------------
    def __str__(self) -> str:
        ed = self.edition_data
        parts = []
        for name, value in self._values:
            if name != "players" and value == ed.defaults[name]:
                continue
            if isinstance(value, bool):
                text = "true" if value else "false"
            elif name == "wheel":
                text = "{" + ",".join(f"{s}:{_fmt_num(w)}" for s, w in
                                      zip(ed.wheel_spaces, value) if w > 0) + "}"
            else:
                text = str(value)
            parts.append(f"{name}={text}")
        return f"{self.edition}({','.join(parts)})"

    def __repr__(self) -> str:
        return f"RuleSet({str(self)!r})"


def parse_rules(text: str) -> RuleSet:
    """Parse a rule string such as ``"spin2025(players=4,wheel={two_x:1})"``.

    Parameters
    ----------
    text : str
        ``edition`` or ``edition(name=value,...)``; the canonical form written by
        ``str(RuleSet)`` always parses back to an equal rule set.  Values may hold braces
        (the wheel) and commas inside them.

    Returns
    -------
    RuleSet

    Raises
    ------
    RuleError
        Malformed text or any error :meth:`RuleSet.build` raises.
    """
    if not isinstance(text, str):
        raise RuleError(f"a rule string must be a str, got {type(text).__name__}")
    s = text.strip()
    if not s:
        raise RuleError("empty rule string; expected e.g. 'spin2025(players=4)'")
    head, paren, rest = s.partition("(")
    edition = head.strip()
    if not edition:
        raise RuleError(f"malformed rule string {text!r}: no edition name before '('")
    if not re.fullmatch(r"[A-Za-z0-9_]+", edition):
        if ")" in edition or "{" in edition or "=" in edition:
            raise RuleError(f"malformed rule string {text!r}: expected 'edition(name=value,...)'")
        _edition(edition)  # unknown edition: the clearer message
    ed = _edition(edition)
    options: dict[str, str] = {}
    if paren:
        if not rest.rstrip().endswith(")"):
            raise RuleError(f"malformed rule string {text!r}: missing ')' at the end")
        inner = rest.rstrip()[:-1]
        if inner.strip():
            for item in _split_top(inner, text):
                name, eq, value = item.partition("=")
                name = name.strip()
                if not eq:
                    what = f"option {name!r} needs a value (name=value)" if name else \
                        "empty option"
                    raise RuleError(f"malformed rule string {text!r}: {what}")
                if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
                    raise RuleError(f"malformed rule string {text!r}: bad option name {name!r}")
                if not value.strip():
                    raise RuleError(f"malformed rule string {text!r}: option {name!r} "
                                    f"has no value")
                if name in options:
                    raise RuleError(f"option {name!r} given twice in {text!r}")
                options[name] = value.strip()
    return RuleSet.build(ed.name, **options)
