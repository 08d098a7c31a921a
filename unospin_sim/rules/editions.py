"""Editions: ``editions.toml`` loaded once into :class:`Edition` records and the points table.

This room holds the edition *data* and nothing that judges a user's value: the
:class:`Edition` record, the loader that reads and checks ``editions.toml`` (decks, points,
wheels, first-card rule) against ``options.py``, the loaded :data:`EDITIONS` and
:data:`POINTS`, the first-card rule names and :func:`get_edition`, the one lookup of an
edition by name. Option values are checked in ``values.py``; rule sets are built in
``ruleset.py``.

>>> EDITIONS["spin2025"].wheel_spaces[-1]
'two_x'
>>> get_edition(" Classic ").name
'classic'
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources
from types import MappingProxyType
from typing import Any

import numpy as np

from ..errors import RuleError
from . import cards, spaces
from .options import OPTION_BY_NAME, OPTIONS

__all__ = [
    "EDITIONS",
    "FIRST_CARD_RULES",
    "MAX_EFFECT_CHARS",
    "POINTS",
    "SPACES",
    "Edition",
    "Space",
    "get_edition",
    "wheel_help",
]

#: first-card rules, by name; the index is the rule's id
FIRST_CARD_RULES = ("action_effects", "numbers_only")

_FAMILIES = {"none": spaces.WHEEL_NONE, "2005": spaces.WHEEL_2005, "2025": spaces.WHEEL_2025}


#: the longest one-line effect of a wheel space (``editions.toml``'s ``[spaces]``)
MAX_EFFECT_CHARS = 48


@dataclass(frozen=True)
class Space:
    """One wheel space's words, as loaded from ``editions.toml``'s ``[spaces]``.

    Attributes
    ----------
    name : str
        The space's name in data, API and command line (``"two_x"``).
    title : str
        Its title as docs/RULINGS.md names it (``"2X"``).
    effect : str
        What it does, in one line of at most :data:`MAX_EFFECT_CHARS` characters, at the
        edition's default options (the full ruling: docs/RULINGS.md).
    """

    name: str
    title: str
    effect: str


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
        a tuple of weights in ``wheel_spaces`` order, the points' a tuple of scores in
        ``point_kinds`` order).
    """

    name: str
    title: str
    first_card: str
    wheel_family: int
    wheel_spaces: tuple[str, ...]
    defaults: Mapping[str, Any]
    base_counts: np.ndarray = field(repr=False)  # int64[N_KINDS], option counts at 0
    # (kind, option name, value): the kind's count is the option's value, or, when value is
    # not None, 1 if the option equals value and 0 otherwise
    option_counts: tuple[tuple[int, str, Any], ...] = field(repr=False)
    # the option whose value k keeps the Spin mark on the numbers 1..k only (None: all)
    spin_mark: str | None = field(default=None, repr=False)
    # the card kinds option points scores, in canonical order (the kind order): the actions
    # and the wilds this edition's deck may hold
    point_kinds: tuple[str, ...] = field(default=(), repr=False)

    @property
    def options(self) -> tuple[str, ...]:
        """Names of the options valid for this edition, in canonical order."""
        # the table's order: canonical order (values.OPTION_ORDER)
        return tuple(o.name for o in OPTIONS if o.name in self.defaults)


def _load_spaces(data: dict) -> dict[str, Space]:
    """The ``[spaces]`` table: a title and a one-line effect for every wheel space."""
    table = data.get("spaces", {})
    if set(table) != set(spaces.SPACE_NAMES):
        raise RuntimeError("editions.toml: [spaces] must describe every wheel space once")
    out = {}
    for name in spaces.SPACE_NAMES:  # id order
        entry = table[name]
        title, effect = str(entry["title"]).strip(), str(entry["effect"]).strip()
        if not title or not effect or len(effect) > MAX_EFFECT_CHARS or "\n" in effect:
            raise RuntimeError(
                f"editions.toml: spaces.{name} needs a title and a one-line effect of at "
                f"most {MAX_EFFECT_CHARS} characters"
            )
        out[name] = Space(name, title, effect)
    return out


def _load_editions() -> tuple[dict[str, Edition], np.ndarray, dict[str, Space]]:
    text = resources.files(__package__).joinpath("editions.toml").read_text(encoding="utf-8")
    data = tomllib.loads(text)
    space_words = _load_spaces(data)
    wild_index = {name: cards.FIRST_WILD + j for j, name in enumerate(cards.WILD_NAMES)}
    action_offset = {
        "skip": cards.SKIP_OFFSET,
        "reverse": cards.REVERSE_OFFSET,
        "draw_two": cards.DRAW_TWO_OFFSET,
    }

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
                raise RuntimeError(
                    f"editions.toml: {name} lists Spin cards beyond {cards.MAX_SPIN_NUMBER}"
                )
            for n, k in enumerate(per["spins"], start=1):
                counts[cards.spin_kind(c, n)] = k
        option_counts = []
        for key, off in action_offset.items():
            for c in range(cards.N_COLOURS):
                kind = c * cards.KINDS_PER_COLOUR + off
                if isinstance(per[key], dict):
                    option_counts.append((kind, per[key]["option"], per[key].get("equals")))
                else:
                    counts[kind] = per[key]
        spin_mark = None
        if "spin_mark" in per:
            spin_mark = per["spin_mark"]["option"]
        for key, value in ed["deck"]["wilds"].items():
            if key not in wild_index:
                raise RuntimeError(f"editions.toml: unknown wild kind {key!r} in {name}")
            if isinstance(value, dict):
                option_counts.append((wild_index[key], value["option"], value.get("equals")))
            else:
                counts[wild_index[key]] = value
        counts.setflags(write=False)

        if "defaults" in ed:
            raise RuntimeError(
                f"editions.toml: {name} has [defaults]: option defaults live in rules/options.py"
            )
        defaults: dict[str, Any] = {
            o.name: o.default_for(name)
            for o in OPTIONS
            if name in o.editions and o.type not in ("wheel", "points")
        }
        # the action and wild kinds this edition's deck may hold, scored by option points
        point_kinds = cards.ACTION_NAMES + tuple(
            k for k in cards.WILD_NAMES if k in ed["deck"]["wilds"]
        )
        defaults["points"] = tuple(int(data["points"][k]) for k in point_kinds)
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
            raise RuntimeError(
                f"editions.toml: {name}'s [wheel] disagrees with the wheel "
                f"option's editions in rules/options.py"
            )
        if spin_mark is not None and spin_mark not in defaults:
            raise RuntimeError(
                f"editions.toml: {name} marks Spin cards by unknown option {spin_mark}"
            )
        for _, opt, _ in option_counts:
            if opt not in defaults:
                raise RuntimeError(f"editions.toml: {name} counts cards by unknown option {opt}")
        if ed["first_card"] not in FIRST_CARD_RULES:
            raise RuntimeError(f"editions.toml: bad first_card rule in {name}")
        editions[name] = Edition(
            name=name,
            title=ed["title"],
            first_card=ed["first_card"],
            wheel_family=_FAMILIES[ed["wheel_family"]],
            wheel_spaces=wheel_spaces,
            defaults=MappingProxyType(defaults),
            base_counts=counts,
            option_counts=tuple(option_counts),
            spin_mark=spin_mark,
            point_kinds=point_kinds,
        )
    return editions, points, space_words


_EDITIONS, _POINTS, _SPACES = _load_editions()
#: edition name -> :class:`Edition`, in data order (classic, spin2005, spin2025, spiderman)
EDITIONS: Mapping[str, Edition] = MappingProxyType(_EDITIONS)
#: points of each card kind, ``np.int64[N_KINDS]``, read-only (the same in every edition)
POINTS: np.ndarray = _POINTS
#: wheel space name -> :class:`Space` (its title and one-line effect), in space-id order
SPACES: Mapping[str, Space] = MappingProxyType(_SPACES)


def get_edition(name: Any) -> Edition:
    """The :class:`Edition` called ``name``.

    Parameters
    ----------
    name : str or Edition
        An edition name, any case, surrounding spaces ignored; an :class:`Edition` is
        returned as it is.

    Returns
    -------
    Edition

    Raises
    ------
    RuleError
        Unknown edition; the message lists the known ones.
    """
    if isinstance(name, Edition):
        return name
    key = str(name).strip().lower()
    if key not in EDITIONS:
        raise RuleError(f"unknown edition {str(name)!r}; known editions: {', '.join(EDITIONS)}")
    return EDITIONS[key]


def wheel_help() -> str:
    """The wheel spaces of every edition with a wheel, one line per space (name, title and
    effect), for the CLI's help."""
    out = []
    for ed in EDITIONS.values():
        if not ed.wheel_spaces:
            continue
        out.append(f"  {ed.name} ({ed.title}):")
        width = max(len(s) for s in ed.wheel_spaces)
        for s in ed.wheel_spaces:
            out.append(f"    {s:<{width}}  {SPACES[s].title}: {SPACES[s].effect}")
    return "\n".join(out)
