"""A variant written back as TOML, and a variant with one step's number changed (what the
designer's ``--vary space:SPACE.STEP=LO:HI`` tries).

>>> from unospin_sim.rules.variants import load_variant
>>> v = load_variant("examples/variants/everyone_draws_one.toml")     # doctest: +SKIP
>>> w = with_step_number(v, "everyone_draws_one", "draw", 2)           # doctest: +SKIP
>>> w.space("everyone_draws_one").program[0].get("n")                  # doctest: +SKIP
2

The text :func:`variant_toml` writes reads back (:func:`~.variants.variant_from_text`) to a
variant of the same content hash, so a results directory of a changed variant keeps a file
that says exactly what was played.
"""

from __future__ import annotations

import json
import re
from typing import Any

from ..errors import RuleError
from .programs import STEPS, Step
from .variants import MAX_DESCRIPTION, ProgramSpace, Variant, variant_from_text

__all__ = ["STEP_NUMBERS", "step_number", "variant_toml", "with_step_number"]

#: the number of each step kind that has one, as ``--vary space:SPACE.STEP`` varies it
STEP_NUMBERS = {"draw": "n", "give": "n", "skip": "players", "repeat": "times", "discard": "keep"}


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)  # a TOML basic string
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    raise TypeError(f"no TOML form for {value!r}")  # pragma: no cover - checked data only


def _step(step: Step) -> str:
    parts = [f"step = {_value(step.kind)}"]
    for key, value in step.params:
        if value is None:  # a parameter the kind leaves unset (discard's keep)
            continue
        if key == "steps":
            text = "[" + ", ".join(_step(s) for s in value) + "]"
        else:
            text = _value(value)
        parts.append(f"{key} = {text}")
    return "{ " + ", ".join(parts) + " }"


def variant_toml(variant: Variant) -> str:
    """The variant's spaces and wheels as a variant file (every default written out)."""
    lines = [f"# written by unospin_sim from {variant.path}"]
    for s in variant.spaces:
        lines += [
            "",
            f"[spaces.{s.name}]",
            f"title = {_value(s.title)}",
            f"description = {_value(s.description)}",
            "program = [" + ", ".join(_step(step) for step in s.program) + "]",
        ]
    for w in variant.wheels:
        weights = ", ".join(f"{space} = {weight}" for space, weight in w.weights)
        lines += ["", f"[wheels.{w.name}]", f"edition = {_value(w.edition)}"]
        lines.append(f"weights = {{ {weights} }}")
    return "\n".join(lines) + "\n"


def _flat_index(steps: tuple[Step, ...], kind: str) -> list[tuple[int, ...]]:
    """Paths (indices, nested through repeats) of the steps of ``kind``, in order."""
    out: list[tuple[int, ...]] = []
    for i, s in enumerate(steps):
        if s.kind == kind and (kind != "discard" or s.get("what") == "down_to"):
            out.append((i,))
        if s.kind == "repeat":
            out += [(i, *p) for p in _flat_index(s.get("steps"), kind)]
    return out


def _where(variant: Variant, space: str, kind: str) -> tuple[ProgramSpace, tuple[int, ...]]:
    own = {s.name: s for s in variant.spaces}
    if space not in own:
        raise RuleError(
            f"{space!r} is not a space of the variant file {variant.path} "
            f"({', '.join(own) or 'none'})"
        )
    if kind not in STEP_NUMBERS:
        raise RuleError(
            f"space:{space}.{kind}: a step with a number is one of {', '.join(STEP_NUMBERS)}"
        )
    paths = _flat_index(own[space].program, kind)
    if not paths:
        what = " with what = down_to" if kind == "discard" else ""
        raise RuleError(f"space {space!r} has no {kind} step{what}")
    return own[space], paths[0]


def step_number(variant: Variant, space: str, kind: str) -> tuple[int, int, int]:
    """``(value, lo, hi)``: the number of the first ``kind`` step of ``space`` (through
    repeats; a discard's ``keep`` with ``what = "down_to"``) and its allowed range."""
    ps, path = _where(variant, space, kind)
    steps = ps.program
    for i in path[:-1]:
        steps = steps[i].get("steps")
    param = STEPS[kind].param(STEP_NUMBERS[kind])
    assert param is not None and param.lo is not None and param.hi is not None
    return steps[path[-1]].get(param.name), param.lo, param.hi


def _replaced(steps: tuple[Step, ...], path: tuple[int, ...], name: str, value: int):
    i = path[0]
    s = steps[i]
    if len(path) == 1:
        params = tuple((k, value if k == name else v) for k, v in s.params)
    else:
        inner = _replaced(s.get("steps"), path[1:], name, value)
        params = tuple((k, inner if k == "steps" else v) for k, v in s.params)
    return steps[:i] + (Step(s.kind, params),) + steps[i + 1 :]


def _described(description: str, kind: str, name: str, value: int) -> str:
    """The space's description with the changed number said after it (a drawn wheel's
    wedge must not say "draws one card" of a space that draws two): ``(draw n = 2)``,
    replacing an earlier note on the same step, the description shortened to fit."""
    note = f" ({kind} {name} = {value})"
    base = re.sub(rf" \({kind} {name} = \d+\)", "", description)
    if len(base) + len(note) > MAX_DESCRIPTION:
        base = base[: MAX_DESCRIPTION - len(note) - 1].rstrip() + "\u2026"
    return base + note


def with_step_number(variant: Variant, space: str, kind: str, value: int) -> Variant:
    """The variant with the number of ``space``'s first ``kind`` step set to ``value``
    (checked as the file would be, and made known to rule strings), its description noting
    the number (``... (draw n = 2)``): another content hash, or ``variant`` itself when
    ``value`` is its own.

    Raises
    ------
    RuleError
        Not a space of the file, no such step, or a value out of the step's range.
    """
    ps, path = _where(variant, space, kind)
    name = STEP_NUMBERS[kind]
    if step_number(variant, space, kind)[0] == value:
        return variant
    program = _replaced(ps.program, path, name, value)
    spaces = tuple(
        ProgramSpace(s.name, s.title, _described(s.description, kind, name, value), program)
        if s is ps
        else s
        for s in variant.spaces
    )
    changed = Variant(variant.path, spaces, variant.wheels, "", "")
    return variant_from_text(
        variant_toml(changed), f"{variant.path} with {space}.{kind} {name} = {value}"
    )
