"""Variant files: wheel spaces written as programs, and wheels that add them to a Spin
edition (docs/WHEEL_PROGRAMS.md).

A variant file is TOML::

    [spaces.everyone_draws_one]
    title = "Everyone Draws One"
    description = "every player but the spinner draws one card"
    program = [{ step = "draw", who = "others", n = 1 }]

    [wheels.plus_one]
    edition = "spin2025"
    weights = { color_draw_red = 1, everyone_draws_one = 1 }

:func:`load_variant` reads and checks one; :func:`published_programs` reads
``published_programs.toml``, every published space of both Spin wheels in the same words.
"""

from __future__ import annotations

import hashlib
import json
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import cache
from importlib import resources
from pathlib import Path
from types import MappingProxyType
from typing import Any, NoReturn

from ..errors import RuleError, reason
from .editions import EDITIONS, Edition
from .programs import Step, check_program
from .spaces import MAX_VARIANT_SPACES, SPACE_NAMES, SPACES_2005, SPACES_2025

__all__ = [
    "EXTENDABLE",
    "ProgramSpace",
    "Variant",
    "VariantWheel",
    "as_variant",
    "check_variant_wheel",
    "extended_edition",
    "find_variant",
    "load_variant",
    "published_programs",
    "variant_from_text",
    "variant_record",
    "wheel_of_variants",
]

#: the editions a variant may extend: those with a wheel, and the spaces of their wheel
EXTENDABLE = {"spin2005": SPACES_2005, "spin2025": SPACES_2025}
#: the fields of a space and of a wheel (every one required)
SPACE_FIELDS = ("title", "description", "program")
WHEEL_FIELDS = ("edition", "weights")
#: the longest title and description (the drawn wheel and the help texts show them)
MAX_TITLE, MAX_DESCRIPTION = 24, 64
#: hex digits of the content hash a canonical rule string names (``variant=...``)
HASH_DIGITS = 16


@dataclass(frozen=True)
class ProgramSpace:
    """A wheel space written as a program.

    Attributes
    ----------
    name : str
        Its name (a key of the file's ``[spaces]``).
    title : str
        Its title, as the drawn wheel shows it.
    description : str
        Its effect in one line.
    program : tuple of Step
        Its steps, every default filled in.
    """

    name: str
    title: str
    description: str
    program: tuple[Step, ...]

    def as_dicts(self) -> list[dict[str, Any]]:
        """The program as plain data (what the reference engine's interpreter reads)."""
        return [s.as_dict() for s in self.program]


@dataclass(frozen=True)
class VariantWheel:
    """A wheel that extends a Spin edition's.

    Attributes
    ----------
    name : str
        Its name (a key of the file's ``[wheels]``).
    edition : str
        The edition it extends (a key of :data:`EXTENDABLE`).
    weights : tuple of (str, int)
        Each space on the wheel (the edition's published spaces and the file's own) and its
        whole-number weight, in the file's order; a space left out is not on the wheel.
    """

    name: str
    edition: str
    weights: tuple[tuple[str, int], ...]


@dataclass(frozen=True, eq=False)
class Variant:
    """A checked variant file.

    Attributes
    ----------
    path : str
        The file as given.
    spaces : tuple of ProgramSpace
        Its spaces, in the file's order.
    wheels : tuple of VariantWheel
        Its wheels, in the file's order.
    content_hash : str
        The SHA-256 (hex) of the canonical content: the checked spaces and wheels as JSON,
        sorted keys, every default filled in (comments, spacing and key order of the file
        do not change it).
    text : str
        The file's text as read.
    """

    path: str
    spaces: tuple[ProgramSpace, ...]
    wheels: tuple[VariantWheel, ...]
    content_hash: str
    text: str

    def space(self, name: str) -> ProgramSpace:
        """The space called ``name``."""
        return next(s for s in self.spaces if s.name == name)

    def wheel(self, name: str) -> VariantWheel:
        """The wheel called ``name``."""
        return next(w for w in self.wheels if w.name == name)

    @property
    def key(self) -> str:
        """The content hash's first :data:`HASH_DIGITS` hex digits: the variant's name in
        a canonical rule string (``spin2025(players=4,variant=KEY,...)``)."""
        return self.content_hash[:HASH_DIGITS]

    # two variants are the same rule data when their canonical content is (the file's
    # path, comments and spacing aside)
    def __eq__(self, other: object) -> bool:
        return isinstance(other, Variant) and other.content_hash == self.content_hash

    def __hash__(self) -> int:
        return hash(self.content_hash)

    def __reduce__(self):  # a worker process learns the variant with the rule set it gets
        return variant_from_text, (self.text, self.path)


def _canonical(spaces: tuple[ProgramSpace, ...], wheels: tuple[VariantWheel, ...]) -> str:
    data = {
        "spaces": {
            s.name: {"title": s.title, "description": s.description, "program": s.as_dicts()}
            for s in spaces
        },
        "wheels": {w.name: {"edition": w.edition, "weights": dict(w.weights)} for w in wheels},
    }
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _table(value: object, file: str, what: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise RuleError(f"{file}: {what} must be a table")
    return value


def _space(file: str, name: str, raw: object) -> ProgramSpace:
    if not isinstance(raw, dict):
        raise RuleError(f"{file}: space {name!r}: must be a table")
    for key in raw:
        if key not in SPACE_FIELDS:
            raise RuleError(f"{file}: space {name!r}: unknown field {key!r}")
    for key in SPACE_FIELDS:
        if key not in raw:
            raise RuleError(f"{file}: space {name!r}: missing field {key!r}")
    for key, most in (("title", MAX_TITLE), ("description", MAX_DESCRIPTION)):
        text = raw[key]
        if not isinstance(text, str) or not text.strip() or "\n" in text or len(text) > most:
            raise RuleError(
                f"{file}: space {name!r}: {key} must be one line of 1..{most} characters"
            )
    program = check_program(raw["program"], file, name)
    return ProgramSpace(name, raw["title"], raw["description"], program)


def _wheel(file: str, name: str, raw: object, own: dict[str, ProgramSpace]) -> VariantWheel:
    def fail(problem: str) -> NoReturn:
        raise RuleError(f"{file}: wheel {name!r}: {problem}")

    if not isinstance(raw, dict):
        fail("must be a table")
    for key in raw:
        if key not in WHEEL_FIELDS:
            fail(f"unknown field {key!r}")
    for key in WHEEL_FIELDS:
        if key not in raw:
            fail(f"missing field {key!r}")
    edition, weights = raw["edition"], raw["weights"]
    if edition not in EXTENDABLE:
        fail(
            f"edition {edition!r} has no wheel to extend; a variant extends one of "
            f"{tuple(EXTENDABLE)}"
        )
    if not isinstance(weights, dict) or not weights:
        fail("weights must be a table of space = whole number")
    out = []
    for space, w in weights.items():
        if space not in EXTENDABLE[edition] and space not in own:
            fail(f"space {space!r}: not a space of the {edition} wheel nor of this file")
        if not isinstance(w, int) or isinstance(w, bool):
            fail(f"space {space!r}: weight must be a whole number, got {w!r}")
        if w < 0:
            fail(f"space {space!r}: weight must be >= 0, got {w!r}")
        if space in own and edition != "spin2025":
            if has_two_x(own[space]):
                fail(f"space {space!r}: two_x is a step of spin2025 wheels only")
        out.append((space, w))
    if sum(w for _, w in out) <= 0:
        fail("weights must not all be 0")
    return VariantWheel(name, edition, tuple(out))


def _flat(steps: tuple[Step, ...]) -> list[Step]:
    out = []
    for s in steps:
        out.append(s)
        if s.kind == "repeat":
            out += _flat(s.get("steps"))
    return out


def _parse(file: str, text: str, *, published: bool) -> Variant:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise RuleError(f"{file}: not valid TOML: {reason(err)}") from None
    for key in data:
        if key not in ("spaces", "wheels"):
            raise RuleError(
                f"{file}: unknown table {key!r}; a variant holds [spaces] and [wheels] only "
                "(the decks, points, rule options and published spaces are not a variant's)"
            )
    raw_spaces = _table(data.get("spaces", {}), file, "spaces")
    raw_wheels = _table(data.get("wheels", {}), file, "wheels")
    spaces = []
    for name, raw in raw_spaces.items():
        if not published and name in SPACE_NAMES:
            raise RuleError(
                f"{file}: space {name!r}: a published space; a variant may not change it "
                "(give the new space a name of its own)"
            )
        if not name.isidentifier() or not name.islower():
            raise RuleError(f"{file}: space {name!r}: a name is lower-case letters, digits, _")
        spaces.append(_space(file, name, raw))
    own = {s.name: s for s in spaces}
    for name in raw_wheels:
        if not name.isidentifier() or not name.islower():
            raise RuleError(f"{file}: wheel {name!r}: a name is lower-case letters, digits, _")
    wheels = tuple(_wheel(file, name, raw, own) for name, raw in raw_wheels.items())
    if not spaces and not wheels:
        raise RuleError(f"{file}: holds no space and no wheel")
    if not published and len(spaces) > MAX_VARIANT_SPACES:
        raise RuleError(
            f"{file}: holds {len(spaces)} spaces; a variant holds at most {MAX_VARIANT_SPACES}"
        )
    digest = hashlib.sha256(_canonical(tuple(spaces), wheels).encode()).hexdigest()
    return Variant(file, tuple(spaces), wheels, digest, text)


def load_variant(path: str | Path) -> Variant:
    """Read and check a variant file.

    Parameters
    ----------
    path : str or Path
        The TOML file.

    Returns
    -------
    Variant

    Raises
    ------
    RuleError
        One line naming the file, the space (or wheel) and the problem: an unreadable or
        invalid file, an unknown step, player or field, a missing field, a bad parameter,
        a space that could loop forever, a weight that is not a whole number >= 0, a
        published space redefined, a wheel extending an edition without a wheel.
    """
    file = str(path)
    try:
        text = Path(path).read_bytes().decode("utf-8")
    except OSError as err:
        raise RuleError(f"{file}: cannot read the variant file: {reason(err)}") from None
    except UnicodeDecodeError:
        raise RuleError(f"{file}: not UTF-8 text") from None
    return variant_from_text(text, file)


#: every variant read in this process, by :attr:`Variant.key` (what ``parse_rules`` finds a
#: rule string's ``variant=KEY`` in)
_KNOWN: dict[str, Variant] = {}


def variant_from_text(text: str, file: str = "<variant>") -> Variant:
    """Check a variant file's text (as :func:`load_variant` reads it; a results
    directory's ``meta.json`` and ``run.json`` keep it) and make it known to
    :func:`find_variant`."""
    variant = _parse(file, text, published=False)
    _KNOWN.setdefault(variant.key, variant)
    return variant


def wheel_of_variants(
    edition: str, wheel: Any, variant: Variant | None = None
) -> tuple[Variant | None, Any]:
    """A rule set's ``wheel`` option that names a read variant's wheel or spaces, without
    ``variant=``: ``(variant, wheel)``; ``(None, wheel)`` unchanged otherwise.

    ``wheel`` may be a variant wheel's name (``wheel=spin2025_plus_two``: that variant and
    its weights) or weights naming spaces of exactly one read variant. A name of no read
    variant's wheel is refused here, with the files to give. With ``variant``, only its
    wheels and spaces are looked at.
    """
    known = list(_KNOWN.values()) if variant is None else [variant]
    if isinstance(wheel, str) and wheel.strip().isidentifier() and wheel.strip() not in SPACE_NAMES:
        name = wheel.strip()
        found = [v for v in known if any(w.name == name for w in v.wheels)]
        if not found:
            raise RuleError(
                f"unknown wheel {name!r}: no variant file read names a wheel so; give the "
                "file (--variant FILE.toml) or weights (wheel={space:weight,...})"
            )
        chosen = found[0].wheel(name)
        if chosen.edition != edition.strip().lower():
            raise RuleError(f"wheel {name!r} extends {chosen.edition}, not {edition}")
        return found[0], dict(chosen.weights)
    if isinstance(wheel, str):
        names = set(re.findall(r"([A-Za-z_][A-Za-z0-9_]*)\s*[=:]", wheel))
    elif isinstance(wheel, Mapping):
        names = {str(k).strip() for k in wheel}
    else:
        return None, wheel
    own = names - set(SPACE_NAMES)
    if not own:
        return None, wheel
    found = [v for v in known if own <= {s.name for s in v.spaces}]
    if len(found) > 1:
        raise RuleError(
            f"wheel spaces {', '.join(sorted(own))} are spaces of several variants read "
            f"({', '.join(v.key for v in found)}): name one, variant=KEY"
        )
    return (found[0] if found else None), wheel


def as_variant(value: Any) -> Variant | None:
    """The ``variant`` argument of :meth:`RuleSet.build`: a Variant, its key, or None."""
    if value is None or isinstance(value, Variant):
        return value
    if isinstance(value, str):
        return find_variant(value.strip())
    raise RuleError(f"variant must be a Variant or its key, got {type(value).__name__}")


def _tops(space: ProgramSpace) -> bool:
    """Whether the space's program puts cards on top of the discard pile (a ``discard``
    with ``place = "top"``, a ``war``)."""
    return any(
        s.kind == "war" or (s.kind == "discard" and s.get("place") == "top")
        for s in _flat(space.program)
    )


def check_variant_wheel(ed: Edition, variant: Variant, weights: tuple, jump_in: bool) -> None:
    """Refuse a variant space with a ``two_x`` step on a spin2005 wheel (2X ends at the
    next spin of a 2025 wheel only), and under house rule ``jump_in`` a spin2025 variant
    space that puts cards on top of the pile: whether a card a wheel space puts there,
    after the turn's own Spin card, opens a jump-in window is not defined."""
    for space, w in zip(ed.wheel_spaces, weights):
        if w <= 0 or space in SPACE_NAMES:
            continue
        own = variant.space(space)
        if ed.name != "spin2025" and has_two_x(own):
            raise RuleError(
                f"{variant.path}: space {space!r}: two_x is a step of spin2025 wheels only"
            )
        if ed.name == "spin2025" and jump_in and _tops(own):
            raise RuleError(
                f"{variant.path}: space {space!r} puts cards on top of the pile, which "
                "cannot be combined with jump_in=true on a spin2025 wheel (whether they "
                "open a jump-in window is not defined)"
            )


def variant_record(variant: Variant) -> dict[str, str]:
    """What a results directory keeps of the variant a run played (``meta.json`` and
    ``run.json``): its key, file, content hash and text, which
    :func:`variant_from_text` reads back."""
    return {
        "key": variant.key,
        "path": variant.path,
        "content_hash": variant.content_hash,
        "text": variant.text,
    }


def find_variant(key: str) -> Variant:
    """The variant read in this process whose :attr:`Variant.key` is ``key``.

    Raises
    ------
    RuleError
        No variant of that key has been read (its file must be given: ``--variant FILE``).
    """
    if key not in _KNOWN:
        raise RuleError(
            f"variant {key!r} is not loaded: give its file (--variant FILE.toml, or "
            "load_variant in Python)"
        )
    return _KNOWN[key]


@cache
def extended_edition(edition: str, variant: Variant) -> Edition:
    """The edition's rule data with the variant's spaces added to the wheel, after the
    published ones, in the file's order; their default weight is 0 (not on the wheel).

    Raises
    ------
    RuleError
        ``edition`` has no wheel to extend.
    """
    if edition not in EXTENDABLE:
        raise RuleError(
            f"variant {variant.key} ({variant.path}) cannot extend {edition}: a variant "
            f"extends one of {tuple(EXTENDABLE)}, the editions with a wheel"
        )
    ed = EDITIONS[edition]
    own = tuple(s.name for s in variant.spaces)
    defaults = dict(ed.defaults)
    defaults["wheel"] = tuple(ed.defaults["wheel"]) + (0.0,) * len(own)
    return replace(ed, wheel_spaces=ed.wheel_spaces + own, defaults=MappingProxyType(defaults))


def has_two_x(space: ProgramSpace) -> bool:
    """Whether the space's program holds a ``two_x`` step (spin2025 wheels only)."""
    return any(s.kind == "two_x" for s in _flat(space.program))


@cache
def published_programs() -> Mapping[str, ProgramSpace]:
    """Every published space of both Spin wheels as a program (``published_programs.toml``),
    by name, in :data:`~unospin_sim.rules.spaces.SPACE_NAMES` order (read-only)."""
    text = resources.files(__package__).joinpath("published_programs.toml").read_text("utf-8")
    variant = _parse("published_programs.toml", text, published=True)
    by_name = {s.name: s for s in variant.spaces}
    if set(by_name) != set(SPACE_NAMES) or variant.wheels:
        raise AssertionError("published_programs.toml must hold exactly the published spaces")
    return MappingProxyType({name: by_name[name] for name in SPACE_NAMES})
