"""``--vary space:SPACE.STEP=LO:HI``: the number of a variant space's step as a design knob
(docs/WHEEL_PROGRAMS.md, "The designer varies them").

A knob ``space:everyone_draws_one.draw`` varies the ``n`` of the first ``draw`` step of the
variant file's space ``everyone_draws_one`` (a ``give``'s ``n``, a ``skip``'s ``players``,
a ``repeat``'s ``times``, a ``discard``'s ``keep`` with ``what = "down_to"``:
:data:`~unospin_sim.rules.variant_text.STEP_NUMBERS`). Each value is another variant
(another content hash in the design's rule string), checked as the file would be.
"""

from __future__ import annotations

import itertools

from ...errors import RuleError, UserError
from ...rules import RuleSet
from ...rules.variant_text import step_number, with_step_number
from ...rules.variants import Variant

__all__ = ["PREFIX", "register_space_knobs", "space_knob_range", "step_numbers", "with_space_knobs"]

#: the prefix of a step-number knob's name
PREFIX = "space:"
#: the most variants a study's step-number knobs may make (each is checked and kept)
MAX_VARIANTS = 2000


def _split(name: str) -> tuple[str, str]:
    space, dot, kind = name[len(PREFIX) :].partition(".")
    if not dot or not space or not kind:
        raise UserError(
            f"--vary {name}: expected space:SPACE.STEP=LO:HI, e.g. space:give_away.give=1:3"
        )
    return space, kind


def space_knob_range(name: str, base: RuleSet) -> tuple[int, int, int]:
    """``(value in the file, lo, hi)`` of knob ``name`` (``space:SPACE.STEP``) over the
    variant file of ``base``; one-line :class:`UserError` when it names no such number."""
    if base.variant is None:
        raise UserError(f"--vary {name}: varies a variant file's space: give --variant FILE.toml")
    space, kind = _split(name)
    try:
        return step_number(base.variant, space, kind)
    except RuleError as e:
        raise UserError(f"--vary {name}: {e}") from None


def step_numbers(vary, rules: RuleSet) -> dict[str, int]:
    """``{SPACE.STEP: number}`` of every ``space:`` knob among the ``--vary`` texts, as the
    variant of ``rules`` has it (what a design's answer names besides its rule string)."""
    out: dict[str, int] = {}
    for text in vary:
        name = text.partition("=")[0].strip()
        if name.startswith(PREFIX) and rules.variant is not None:
            space, kind = _split(name)
            out[f"{space}.{kind}"] = step_number(rules.variant, space, kind)[0]
    return out


def with_space_knobs(variant: Variant, values: dict) -> Variant:
    """``variant`` with every ``space:`` knob of ``values`` set (in the order given)."""
    for name, value in values.items():
        if name.startswith(PREFIX):
            space, kind = _split(name)
            variant = with_step_number(variant, space, kind, int(value))
    return variant


def register_space_knobs(base: RuleSet, knobs) -> None:
    """Make every variant the ``space:`` knobs can make known to rule strings, so that a
    study's stored rule strings parse in a fresh process (``design --resume``).

    Raises
    ------
    UserError
        The knobs make more than :data:`MAX_VARIANTS` variants.
    """
    ranges = [
        (k.name, range(k.low, k.high + 1, k.step)) for k in knobs if k.name.startswith(PREFIX)
    ]
    if not ranges or base.variant is None:
        return
    n = 1
    for _, r in ranges:
        n *= len(r)
    if n > MAX_VARIANTS:
        raise UserError(
            f"--vary space:...: {n:,} combinations of step numbers; at most {MAX_VARIANTS:,} "
            "(narrow the ranges)"
        )
    for combo in itertools.product(*(r for _, r in ranges)):
        with_space_knobs(base.variant, dict(zip((name for name, _ in ranges), combo)))
