"""Option values: a user's value (Python or text) turned into a checked rule-option value.

This room holds what judges one option at a time: which option names exist
(:data:`OPTION_ORDER`, :data:`NOT_IMPLEMENTED`) and are valid for an edition
(:func:`check_option_name`), the coercion of a value to the option's type and domain
(:func:`coerce_option`: whole numbers, booleans, enum names, wheels, card points), wheel
parsing and normalisation (:func:`parse_wheel`; a wheel is kept as a tuple of weights in the
edition's wheel order), points parsing (:func:`parse_points`; kept as a tuple of scores in
the edition's ``point_kinds`` order) and :func:`format_number`, which writes a weight so that it reads back the
same. Every message is one line naming the option and the value (a :class:`RuleError`).
Edition data comes from ``editions.py``; combinations of options are judged by
``RuleSet.build`` in ``ruleset.py``.

>>> coerce_option(get_edition("classic"), "stacking", " TRUE ")
True
>>> parse_wheel("{swap_hands:1,two_x:2}", "spin2025")
{'swap_hands': 1.0, 'two_x': 2.0}
"""

from __future__ import annotations

import math
import numbers
import re
from collections.abc import Mapping
from typing import Any

import numpy as np

from ..errors import RuleError
from .editions import EDITIONS, Edition, get_edition
from .options import OPTION_BY_NAME, OPTIONS

__all__ = [
    "NOT_IMPLEMENTED",
    "OPTION_ORDER",
    "check_option_name",
    "coerce_option",
    "format_number",
    "parse_points",
    "parse_wheel",
]

#: every implemented rule option, in canonical-string order (the table's order)
OPTION_ORDER = tuple(o.name for o in OPTIONS)

#: options named in RULINGS.md that are not implemented yet: rejected with a clear message
#: (empty since jump_in and partners; kept for options added to RULINGS.md later)
NOT_IMPLEMENTED: tuple[str, ...] = ()

_TRUE = ("true", "1")
_FALSE = ("false", "0")


def format_number(x: float) -> str:
    """A number written so that it reads back the same.

    Parameters
    ----------
    x : float
        The number (a wheel weight).

    Returns
    -------
    str
        ``"%g" % x``, or the exact ``repr(float(x))`` when ``%g`` would not round-trip.
    """
    g = "%g" % x
    return g if float(g) == x else repr(float(x))


def _coerce_int(name: str, value: Any, key: str = "") -> int:
    """A whole number within the ``int`` option's domain (``key``: the card kind of a
    ``points`` score, named in messages as ``points.key``)."""
    shown = f"{name}.{key}" if key else name
    if isinstance(value, bool):
        raise RuleError(f"option {shown!r} must be a whole number, got {value!r}")
    if isinstance(value, numbers.Integral):
        v = int(value)
    elif isinstance(value, numbers.Real) and math.isfinite(value) and float(value).is_integer():
        v = int(math.trunc(value))  # numbers.Real promises __trunc__, not __int__
    elif isinstance(value, str) and re.fullmatch(r"\s*[+-]?\d[\d_]*\s*", value):
        v = int(value)
    else:
        raise RuleError(f"option {shown!r} must be a whole number, got {str(value)!r}")
    lo, hi = OPTION_BY_NAME[name].domain
    if hi is None and v < lo:
        raise RuleError(f"{shown} must be at least {lo}, got {v}")
    if hi is not None and not lo <= v <= hi:
        raise RuleError(f"{shown} must be between {lo} and {hi}, got {v}")
    return v


def _coerce_bool(name: str, value: Any) -> bool:
    """A bool from a bool, 0/1 or ``true``/``false``/``1``/``0`` (any case)."""
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
    """One of the ``enum`` option's names (any case)."""
    choices = OPTION_BY_NAME[name].domain
    if isinstance(value, str) and value.strip().lower() in choices:
        return value.strip().lower()
    shown = value.strip() if isinstance(value, str) else value
    raise RuleError(f"option {name!r} must be one of {', '.join(choices)}, got {shown!r}")


def _coerce_weight(space: str, value: Any) -> float:
    """A finite, non-negative wheel weight (never negative zero)."""
    if isinstance(value, (bool, np.bool_)):
        raise RuleError(f"wheel weight of {space!r} must be a number, got {value!r}")
    if isinstance(value, numbers.Real):
        w = float(value)
    elif isinstance(value, str):
        try:
            w = float(value.strip())
        except ValueError:
            raise RuleError(
                f"wheel weight of {space!r} must be a number, got {value.strip()!r}"
            ) from None
    else:
        raise RuleError(f"wheel weight of {space!r} must be a number, got {value!r}")
    if not math.isfinite(w):
        raise RuleError(f"wheel weight of {space!r} must be finite, got {format_number(w)}")
    if w < 0:
        raise RuleError(f"wheel weight of {space!r} must not be negative, got {format_number(w)}")
    return w + 0.0  # no negative zero


def _space_owner(space: str) -> str | None:
    """The edition whose wheel has ``space`` (None: no edition's)."""
    for ed in EDITIONS.values():
        if space in ed.wheel_spaces:
            return ed.name
    return None


def _wheel_vector(ed: Edition, wheel: Any) -> tuple[float, ...]:
    """Validate a wheel (mapping or string) for ``ed``: weights in wheel order."""
    if isinstance(wheel, str):
        wheel = parse_wheel(wheel, ed)
    elif (
        isinstance(wheel, (tuple, list))
        and len(wheel) == len(ed.wheel_spaces)
        and all(isinstance(w, numbers.Real) for w in wheel)
    ):
        wheel = dict(zip(ed.wheel_spaces, wheel))
    if not isinstance(wheel, Mapping):
        raise RuleError(f"wheel must be a mapping of space to weight, got {type(wheel).__name__}")
    weights = dict.fromkeys(ed.wheel_spaces, 0.0)
    for space, value in wheel.items():
        space = str(space).strip()
        if space not in weights:
            owner = _space_owner(space)
            if owner is not None:
                raise RuleError(
                    f"wheel space {space!r} belongs to the {owner} wheel, not to {ed.name}'s"
                )
            raise RuleError(
                f"unknown wheel space {space!r} for {ed.name}; "
                f"known spaces: {', '.join(ed.wheel_spaces)}"
            )
        weights[space] = _coerce_weight(space, value)
    if not any(w > 0 for w in weights.values()):
        raise RuleError(
            f"wheel weights must not all be zero: give at least one {ed.name} "
            f"space a positive weight"
        )
    if not math.isfinite(sum(weights.values())):  # the engine draws from the running sum
        raise RuleError(
            "wheel weights are too large: their sum must be a finite number "
            "(only their ratios matter)"
        )
    return tuple(weights.values())


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
    ed = get_edition(edition)
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
        raise RuleError(
            f"empty wheel {text!r}: give space=weight pairs, e.g. {ed.wheel_spaces[0]}=1"
        )
    given: dict[str, str] = {}
    for item in body.split(","):
        m = re.fullmatch(r"\s*([A-Za-z_][A-Za-z0-9_]*)\s*[=:]\s*(\S.*?)\s*", item)
        if m is None:
            name = item.strip()
            if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
                raise RuleError(f"wheel space {name!r} needs a weight, e.g. {name}=1")
            raise RuleError(
                f"malformed wheel entry {item.strip()!r} in {text!r}: expected space=weight"
            )
        space, value = m.group(1), m.group(2)
        if space in given:
            raise RuleError(f"wheel space {space!r} given twice")
        given[space] = value
    vector = _wheel_vector(ed, given)  # validates names and weights
    return {s: w for s, w in zip(ed.wheel_spaces, vector) if s in given}


def check_option_name(ed: Edition, name: str) -> None:
    """Refuse an option name that is not implemented, unknown, or not valid for ``ed``.

    Parameters
    ----------
    ed : Edition
        The edition the option is asked for.
    name : str
        The option's name.

    Raises
    ------
    RuleError
        ``name`` is in :data:`NOT_IMPLEMENTED`, not in :data:`OPTION_ORDER` (the message
        lists the known options), or not among ``ed.options`` (the message lists those).
    """
    if name in NOT_IMPLEMENTED:
        raise RuleError(f"option {name!r} is not implemented yet")
    if name not in OPTION_ORDER:
        raise RuleError(f"unknown rule option {name!r}; known options: {', '.join(OPTION_ORDER)}")
    if name not in ed.defaults:
        why = " (it has no wheel)" if name == "wheel" else ""
        raise RuleError(
            f"option {name!r} is not valid for {ed.name}{why}; "
            f"valid options: {', '.join(ed.options)}"
        )


def coerce_option(ed: Edition, name: str, value: Any) -> Any:
    """The checked value of option ``name`` of edition ``ed``.

    Parameters
    ----------
    ed : Edition
        The edition the option belongs to.
    name : str
        The option's name (checked by :func:`check_option_name`).
    value : object
        A Python value or its text form: ``3`` or ``"3"``; ``True``, ``1``, ``"true"`` or
        ``"1"``; an enum name in any case; for ``wheel`` a ``{space: weight}`` mapping, a
        wheel string (:func:`parse_wheel`) or a sequence of every space's weight in wheel
        order.

    Returns
    -------
    object
        ``int``, ``bool`` or ``str`` (an enum name, lower case); for ``wheel`` a tuple of
        weights in the edition's wheel order (unlisted spaces 0.0).

    Raises
    ------
    RuleError
        A bad name (see :func:`check_option_name`), a value of the wrong type, a number
        outside the option's range, an unknown enum name, or a bad wheel (see
        :func:`parse_wheel`); one line naming the option and the value.
    """
    check_option_name(ed, name)
    kind = OPTION_BY_NAME[name].type
    if kind == "int":
        return _coerce_int(name, value)
    if kind == "bool":
        return _coerce_bool(name, value)
    if kind == "enum":
        return _coerce_enum(name, value)
    if kind == "points":
        return _points_vector(ed, value)
    return _wheel_vector(ed, value)


def _points_vector(ed: Edition, points: Any) -> tuple[int, ...]:
    """Validate a ``points`` value (mapping, string or every score in order) for ``ed``:
    the scores in ``ed.point_kinds`` order, unlisted kinds at their defaults."""
    kinds = ed.point_kinds
    if isinstance(points, str):
        points = parse_points(points, ed)
    elif isinstance(points, (tuple, list)) and len(points) == len(kinds):
        points = dict(zip(kinds, points))
    if not isinstance(points, Mapping):
        raise RuleError(f"points must be a mapping of card kind to points, got {points!r}")
    scores = dict(zip(kinds, ed.defaults["points"]))
    for key, value in points.items():
        key = str(key).strip()
        if key not in scores:
            raise RuleError(
                f"points: {key!r} is not a card kind {ed.name}'s deck may hold; "
                f"kinds: {', '.join(kinds)}"
            )
        scores[key] = _coerce_int("points", value, key)
    return tuple(scores.values())


def parse_points(text: str, edition: Any) -> dict[str, int]:
    """Parse a points string such as ``"{skip:30,wild:40}"`` for ``edition``.

    ``kind=points`` or ``kind:points`` pairs separated by commas, optionally in braces;
    returns ``{kind: points}`` for the listed kinds in canonical (kind) order. One-line
    :class:`RuleError` on malformed text, an unknown kind, a kind given twice or a score
    outside 0..MAX_POINTS.

    >>> parse_points("wild=40, skip:30", "classic")
    {'skip': 30, 'wild': 40}
    """
    ed = get_edition(edition)
    body = text.strip()
    if body.startswith("{") or body.endswith("}"):
        if not (body.startswith("{") and body.endswith("}")):
            raise RuleError(f"malformed points {text!r}: unbalanced braces")
        body = body[1:-1].strip()
    if not body:
        raise RuleError(f"empty points {text!r}: give kind=points pairs, e.g. skip=20")
    given: dict[str, str] = {}
    for item in body.split(","):
        m = re.fullmatch(r"\s*([A-Za-z_][A-Za-z0-9_]*)\s*[=:]\s*(\S.*?)\s*", item)
        if m is None:
            raise RuleError(
                f"malformed points entry {item.strip()!r} in {text!r}: expected kind=points"
            )
        if m.group(1) in given:
            raise RuleError(f"points: {m.group(1)!r} given twice")
        given[m.group(1)] = m.group(2)
    vector = _points_vector(ed, given)  # validates kinds and scores
    return {k: v for k, v in zip(ed.point_kinds, vector) if k in given}
