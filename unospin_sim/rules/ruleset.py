"""Rule sets: an edition plus resolved rule options, validated, with a canonical string.

This room holds :class:`RuleSet` (built and validated as a whole, with the checks of
options combined; deck counts, points, wheel weights, the canonical string) and
:func:`parse_rules`. The rule *data* (decks, points, wheels) lives in ``editions.toml``,
loaded once by ``editions.py`` into :data:`EDITIONS`; one option's value is checked by
``values.py``. The names those two rooms took from this module are re-exported here, so
every old import still works.

>>> rs = RuleSet.build("spin2025", players=4, wheel={"two_x": 2, "swap_hands": 1})
>>> str(rs)
'spin2025(players=4,wheel={swap_hands:1,two_x:2})'
>>> parse_rules(str(rs)) == rs
True

Canonical string: ``edition(players=P,...)`` listing ``players`` and then every option
whose value differs from the edition default, in the fixed order of :data:`OPTION_ORDER`.
Booleans are written ``true``/``false``; a wheel is written ``wheel={space:weight,...}``
with the spaces of positive weight in the edition's wheel order and weights printed with
``%g`` (or ``repr`` when ``%g`` would lose precision, so that strings always round-trip);
points are written ``points={kind:points,...}`` listing the kinds off their published score,
in kind order.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

import numpy as np

from .._text import split_top_level
from ..errors import RuleError
from . import cards, spaces
from .editions import EDITIONS, FIRST_CARD_RULES, POINTS, SPACES, Edition, Space, get_edition
from .options import MAX_TURN_CAP, OPTIONS
from .values import (
    NOT_IMPLEMENTED,
    OPTION_ORDER,
    check_option_name,
    coerce_option,
    format_number,
    parse_wheel,
)
from .variants import Variant, as_variant, check_variant_wheel, extended_edition, wheel_of_variants

# Edition, EDITIONS, FIRST_CARD_RULES, POINTS (editions.py), OPTION_ORDER, NOT_IMPLEMENTED,
# parse_wheel (values.py) and MAX_TURN_CAP (options.py) are re-exported from here, as before
__all__ = [
    "EDITIONS",
    "FIRST_CARD_RULES",
    "HOUSE_RULES",
    "MAX_TURN_CAP",
    "NOT_IMPLEMENTED",
    "OPTION_DOCS",
    "OPTION_ORDER",
    "Edition",
    "RuleSet",
    "parse_rules",
    "parse_wheel",
]

#: one-line description of each option (for help texts and docs)
OPTION_DOCS = MappingProxyType({o.name: o.doc for o in OPTIONS})

#: house-rule options (docs/HOUSE_RULES.md): off by default, never combined with rlcard
HOUSE_RULES = tuple(o.name for o in OPTIONS if o.house)
#: the deck's numbers as options, fixed at their defaults under rlcard (RLCard's own rules)
#: the options that set the deck's copies of a card kind
DECK_COPIES = ("skip_cards", "reverse_cards", "draw_two_cards", "wild_cards", "wd4_cards")
RLCARD_FIXED = ("draw_two_draws", "wd4_draws", "uno_penalty", "hand_size", *DECK_COPIES)

_MISSING = object()


# ------------------------------------------------------------------------------------------
# checks of a rule set as a whole


def _check_deal(rules: RuleSet) -> None:
    """Refuse a deal the deck cannot serve: after ``players * hand_size`` cards dealt, the
    pile must hold a card the first-card rule keeps (not a Wild Draw Four; under
    ``numbers_only`` a number card) whatever the shuffle."""
    counts = rules.deck_counts()
    dealt = rules.players * rules.option("hand_size")
    if rules.first_card == "numbers_only":
        put_back = int(
            counts.sum()
            - sum(counts[k] for k in range(cards.FIRST_WILD) if cards.KIND_FACE[k] <= 9)
        )
    else:
        put_back = int(counts[cards.WILD_DRAW_FOUR])
    if dealt + put_back >= int(counts.sum()):
        defaults = rules.edition_data.defaults
        copies = ",".join(
            f"{n}={rules.option(n)}" for n in DECK_COPIES if rules.option(n) != defaults[n]
        )
        raise RuleError(
            f"hand_size={rules.option('hand_size')} with {rules.players} players deals {dealt} "
            f"of the deck's {int(counts.sum())} cards{f' ({copies})' if copies else ''}: too "
            f"few left to turn a first card "
            f"(at most {max(0, int(counts.sum()) - put_back - 1) // rules.players} each)"
        )


def _check_combinations(ed: Edition, resolved: dict) -> None:
    """Refuse combinations of options that make no sense, with one line naming both."""
    if resolved.get("match") == "single" and resolved.get("target") != ed.defaults["target"]:
        raise RuleError(
            f"target={resolved['target']} cannot be combined with match=single: "
            f"a target ends a match (match=race or match=lowest)"
        )
    if resolved.get("stacked_wd4", "checked") != "checked" and not resolved.get("stacking"):
        raise RuleError(
            f"stacked_wd4={resolved['stacked_wd4']} cannot be combined with "
            f"stacking=false: it says how a stacked Wild Draw Four is judged"
        )
    if resolved.get("jump_in_wilds") and not resolved.get("jump_in"):
        raise RuleError(
            "jump_in_wilds=true cannot be combined with jump_in=false: it says "
            "which cards may be jumped on"
        )
    if resolved.get("partners"):
        n = resolved["players"]
        if n % 2 or n < 4:
            raise RuleError(
                f"partners=true cannot be combined with players={n}: partners "
                f"play in teams of two sitting opposite (4, 6, 8 or 10 players)"
            )
        if resolved.get("match") == "lowest":
            raise RuleError(
                "partners=true cannot be combined with match=lowest: each player "
                "adds their own cards (a team version is not defined; match=race "
                "plays partners)"
            )


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
    #: the variant file whose spaces this rule set's wheel may hold (None: the published
    #: spaces only); equal variants are equal content (``Variant.content_hash``)
    variant: Variant | None = field(default=None, repr=False)

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
            ``variant`` takes a :class:`~unospin_sim.rules.variants.Variant` (or its
            ``key``, of one read in this process): its spaces join the wheel's, weight 0
            unless ``wheel`` gives them one (spin2005 and spin2025 only).

        Returns
        -------
        RuleSet

        Raises
        ------
        RuleError
            Unknown edition or option, an option not valid for the edition or not
            implemented yet, or a bad value; the message is one line naming the problem.
        """
        variant = as_variant(options.pop("variant", None))
        if "wheel" in options:  # a variant's wheel by name, or its spaces
            found, options["wheel"] = wheel_of_variants(str(edition), options["wheel"], variant)
            variant = variant or found
        ed = get_edition(edition)
        if variant is not None:
            ed = extended_edition(ed.name, variant)
        if players is not None:
            options = {"players": players, **options}
        resolved = dict(ed.defaults)
        for name, value in options.items():
            resolved[name] = coerce_option(ed, name, value)
        if resolved.get("rlcard") and resolved.get("wild_matches_colour"):
            # RLCard's own rule (Wild Draw Four only when no other card is legal) already
            # forbids it whenever another wild is held: one game, one canonical string
            raise RuleError(
                "wild_matches_colour=true cannot be combined with rlcard=true: "
                "RLCard allows a Wild Draw Four only when no other card is legal"
            )
        if resolved.get("rlcard"):
            for name in HOUSE_RULES:
                if name in resolved and resolved[name] != ed.defaults[name]:
                    raise RuleError(
                        f"{name} cannot be combined with rlcard=true: RLCard "
                        f"1.2.0 plays its own fixed rules, without house rules"
                    )
            for name in RLCARD_FIXED:
                if resolved[name] != ed.defaults[name]:
                    raise RuleError(
                        f"{name} cannot be combined with rlcard=true: RLCard 1.2.0 plays "
                        f"its own fixed rules ({name}={ed.defaults[name]})"
                    )
        _check_combinations(ed, resolved)
        if variant is not None:
            check_variant_wheel(ed, variant, resolved["wheel"], bool(resolved.get("jump_in")))
        values = tuple((name, resolved[name]) for name in ed.options)
        rules = cls(ed.name, values, variant)
        _check_deal(rules)
        return rules

    def replace(self, **options: Any) -> RuleSet:
        """A copy with some options changed (validated like :meth:`build`)."""
        current = {name: self.option(name) for name in self.edition_data.options}
        current.update(options)
        current.setdefault("variant", self.variant)
        return RuleSet.build(self.edition, **current)

    # -- access --------------------------------------------------------------------------
    @property
    def edition_data(self) -> Edition:
        """The :class:`Edition` data of this rule set (with a variant: its wheel spaces
        added, :func:`~unospin_sim.rules.variants.extended_edition`)."""
        if self.variant is not None:
            return extended_edition(self.edition, self.variant)
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
            the edition's wheel, in wheel order; for ``points`` a ``{kind: points}`` dict
            over the edition's ``point_kinds``.
        """
        for key, value in self._values:
            if key == name:
                if key == "wheel":
                    return dict(zip(self.edition_data.wheel_spaces, value))
                if key == "points":
                    return dict(zip(self.edition_data.point_kinds, value))
                return value
        if default is not _MISSING:
            return default
        check_option_name(self.edition_data, name)
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
        """Points of each card kind: ``np.int64[N_KINDS]`` (a fresh array): the ``points``
        option's score of each action and wild kind, number and Spin cards their face."""
        out = POINTS.copy()
        for name, value in self.option("points").items():
            if name in cards.ACTION_NAMES:
                off = cards.SKIP_OFFSET + cards.ACTION_NAMES.index(name)
                out[[c * cards.KINDS_PER_COLOUR + off for c in range(cards.N_COLOURS)]] = value
            else:
                out[cards.FIRST_WILD + cards.WILD_NAMES.index(name)] = value
        return out

    def wheel_spaces(self) -> tuple[str, ...]:
        """Space names of this edition's wheel in wheel order (``()`` without a wheel)."""
        return self.edition_data.wheel_spaces

    def space_id(self, name: str) -> int:
        """The kernel's id of wheel space ``name``: a published space's global id
        (``rules/spaces.py``), a variant space's ``N_PUBLISHED`` + its place in the file."""
        if name in spaces.SPACE_ID:
            return spaces.SPACE_ID[name]
        own = [] if self.variant is None else [s.name for s in self.variant.spaces]
        if name not in own:
            raise RuleError(f"unknown wheel space {name!r} for {self}")
        return spaces.N_PUBLISHED + own.index(name)

    def space_words(self, name: str) -> Space:
        """Wheel space ``name``'s title and one-line effect (a variant space's title and
        description)."""
        if name in SPACES:
            return SPACES[name]
        self.space_id(name)  # an unknown name: one line
        assert self.variant is not None
        own = self.variant.space(name)
        return Space(own.name, own.title, own.description)

    def programs(self) -> dict[int, tuple]:
        """The variant's spaces' programs by kernel id (:meth:`space_id`); ``{}`` without
        a variant."""
        if self.variant is None:
            return {}
        return {self.space_id(s.name): s.program for s in self.variant.spaces}

    def wheel_weights(self) -> np.ndarray:
        """Raw (unnormalised) weights over the GLOBAL space ids: ``np.float64[N_SPACES]``.

        Spaces not on this edition's wheel, or given no weight, are 0; all zeros when the
        edition has no wheel.
        """
        w = np.zeros(spaces.N_SPACES, dtype=np.float64)
        if self.wheel_spaces():
            for space, weight in self.option("wheel").items():
                w[self.space_id(space)] = weight
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
                text = (
                    "{"
                    + ",".join(
                        f"{s}:{format_number(w)}" for s, w in zip(ed.wheel_spaces, value) if w > 0
                    )
                    + "}"
                )
            elif name == "points":
                text = (
                    "{"
                    + ",".join(
                        f"{k}:{v}"
                        for k, v, d in zip(ed.point_kinds, value, ed.defaults[name])
                        if v != d
                    )
                    + "}"
                )
            else:
                text = str(value)
            parts.append(f"{name}={text}")
            if name == "players" and self.variant is not None:
                parts.append(f"variant={self.variant.key}")
        return f"{self.edition}({','.join(parts)})"

    def __repr__(self) -> str:
        return f"RuleSet({str(self)!r})"


# ------------------------------------------------------------------------------------------
# rule strings


def _split_top(text: str, whole: str) -> list[str]:
    """Split ``text`` (part of rule string ``whole``) on commas outside braces/parentheses."""
    return split_top_level(text, RuleError, "rule string", shown=whole, pairs={"(": ")", "{": "}"})


def parse_rules(text: str, variant: Variant | None = None) -> RuleSet:
    """Parse a rule string such as ``"spin2025(players=4,wheel={two_x:1})"``.

    Parameters
    ----------
    text : str
        ``edition`` or ``edition(name=value,...)``; the canonical form written by
        ``str(RuleSet)`` always parses back to an equal rule set.  Values may hold braces
        (the wheel) and commas inside them.
    variant : Variant, optional
        The variant file of a text that names none (``variant=``): its spaces are the ones
        the text's wheel may name (``--variant FILE`` with ``--rules``).

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
        get_edition(edition)  # unknown edition: the clearer message
    ed = get_edition(edition)
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
                    what = f"option {name!r} needs a value (name=value)" if name else "empty option"
                    raise RuleError(f"malformed rule string {text!r}: {what}")
                if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
                    raise RuleError(f"malformed rule string {text!r}: bad option name {name!r}")
                if not value.strip():
                    raise RuleError(f"malformed rule string {text!r}: option {name!r} has no value")
                if name in options:
                    raise RuleError(f"option {name!r} given twice in {text!r}")
                options[name] = value.strip()
    if variant is not None and "variant" not in options:
        return RuleSet.build(ed.name, variant=variant, **options)
    return RuleSet.build(ed.name, **options)
