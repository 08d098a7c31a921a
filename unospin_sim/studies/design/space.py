"""What a design study may change: ``--vary`` knobs, and a design's rule set from them.

``--vary`` takes

- ``wheel``: the whole-segment count of every space of the edition's wheel, 0-4 each (so a
  design is a wheel one can build); ``wheel=space,space,...`` varies only those spaces (at
  least two) and keeps the others at their default count;
- an option of the options table (``unospin_sim.rules.options``) that is a number, a
  boolean or an enum: ``wild_spin_cards``, ``wild_stops_colour_draw``, ``wild_matches_colour``,
  the house rules, the deck's numbers (``hand_size``, ``draw_two_draws``, ``skip_cards``,
  ...), ``target``; ``NAME=LO:HI`` narrows a number's range (``target`` defaults to
  100:1000 in steps of 50);
- ``points.KIND=LO:HI``: the score of one card kind of the ``points`` option (``skip``,
  ``wild``, ...: the kinds the edition's deck may hold), the others at their defaults;
- ``space:SPACE.STEP[=LO:HI]``: the number of the first ``STEP`` step of a variant file's
  space (``design --variant``; :mod:`.step_knobs`).

Not variable: ``players`` (the study's ``--players``), ``turn_cap``, ``match`` (the metrics
choose single rounds or matches), ``rlcard`` (another game's rules).
"""

from __future__ import annotations

from dataclasses import dataclass

from ...errors import RuleError, UserError
from ...rules import RuleSet
from ...rules.options import OPTION_BY_NAME
from .goals import DESIGN_KIND, MATCH_KIND, METRICS, Goal
from .step_knobs import PREFIX, space_knob_range, with_space_knobs

__all__ = [
    "WHEEL_MAX",
    "Knob",
    "check_goals_movable",
    "design_rules",
    "knob_default",
    "options_changed",
    "parse_vary",
    "segments_moved",
]

#: the most segments one space may get
WHEEL_MAX = 4
#: options a study may not vary, with the reason
FIXED = {
    "players": "it is the study's --players",
    "turn_cap": "it caps a round, it is not a rule of play",
    "match": "the goals' metrics choose single rounds or matches",
    "rlcard": "it switches to another game's fixed rules",
}


@dataclass(frozen=True)
class Knob:
    """One varied thing: ``name`` is an option name, ``wheel.<space>`` or ``points.<kind>``.

    ``choices`` lists the values of a boolean or enum; ``low``/``high``/``step`` the range of
    a number (wheel segment counts are numbers 0..4).
    """

    name: str
    choices: tuple = ()
    low: int = 0
    high: int = 0
    step: int = 1

    @property
    def is_wheel(self) -> bool:
        return self.name.startswith("wheel.")


def _int_range(name: str, text: str, lo: int, hi: int) -> tuple[int, int]:
    try:
        a, b = (int(x) for x in text.split(":"))
    except ValueError:
        raise UserError(f"--vary {name}={text}: expected a range LO:HI of whole numbers") from None
    if not lo <= a < b <= hi:
        raise UserError(f"--vary {name}={text}: the range must lie within {lo}:{hi} with LO < HI")
    return a, b


def base_rules(edition: str | RuleSet, players: int | None = None) -> RuleSet:
    """The edition's default rule set. ``edition`` is an edition's name, or a rule set
    whose edition and variant file (its spaces join the wheel at 0 segments) are taken."""
    if isinstance(edition, RuleSet):
        return RuleSet.build(edition.edition, players=players, variant=edition.variant)
    return RuleSet.build(edition, players=players)


def parse_vary(texts, edition: str | RuleSet) -> list[Knob]:
    """Parse every ``--vary`` for ``edition`` (see :func:`base_rules`); one-line
    :class:`UserError` on a bad one."""
    if not texts:
        raise UserError("design needs at least one --vary (wheel or a rule option)")
    base = base_rules(edition)
    edition = base.edition
    knobs: list[Knob] = []
    seen: set[str] = set()
    for text in texts:
        name, _, arg = text.partition("=")
        name = name.strip()
        if name in seen:
            raise UserError(f"--vary {name} is given twice")
        seen.add(name)
        if name == "wheel":
            spaces = base.wheel_spaces()
            if not spaces:
                raise UserError(f"--vary wheel: {edition} has no wheel")
            chosen = spaces
            if arg:
                chosen = tuple(s.strip() for s in arg.split(",") if s.strip())
                bad = [s for s in chosen if s not in spaces]
                if bad:
                    raise UserError(
                        f"--vary wheel: {bad[0]!r} is not a space of the "
                        f"{edition} wheel ({', '.join(spaces)})"
                    )
                if len(set(chosen)) != len(chosen):
                    raise UserError(f"--vary wheel={arg}: a space is named twice")
                if len(chosen) < 2:
                    raise UserError("--vary wheel=...: name at least two spaces")
            knobs += [Knob(f"wheel.{s}", low=0, high=WHEEL_MAX) for s in chosen]
            continue
        if name.startswith("points."):
            knobs.append(_points_knob(name, arg, base))
            continue
        if name.startswith(PREFIX):  # a variant space's step number
            _, lo, hi = space_knob_range(name, base)
            if arg:
                lo, hi = _int_range(name, arg, lo, hi)
            elif hi - lo > 10:
                raise UserError(f"--vary {name}: give a range, {name}=LO:HI (within {lo}:{hi})")
            knobs.append(Knob(name, low=lo, high=hi))
            continue
        opt = OPTION_BY_NAME.get(name)
        if opt is None or opt.type == "points":
            raise UserError(
                f"--vary {name}: unknown rule option; options: wheel, points.KIND, space:SPACE.STEP, "
                f"{', '.join(o for o in OPTION_BY_NAME if o not in FIXED and o != 'points')}"
            )
        if name in FIXED:
            raise UserError(f"--vary {name}: cannot be varied ({FIXED[name]})")
        if edition not in opt.editions:
            raise UserError(f"--vary {name}: not an option of {edition}")
        if opt.type == "bool":
            if arg:
                raise UserError(f"--vary {name}: a boolean takes no range")
            knobs.append(Knob(name, choices=(False, True)))
        elif opt.type == "enum":
            if arg:
                raise UserError(f"--vary {name}: an enum takes no range")
            knobs.append(Knob(name, choices=tuple(opt.domain)))
        elif opt.type == "int":
            lo, hi = opt.domain
            step = 1
            if arg:
                lo, hi = _int_range(name, arg, lo, hi)
            elif name == "target":
                lo, hi, step = 100, 1000, 50
            elif hi - lo > 100:
                raise UserError(f"--vary {name}: give a range, {name}=LO:HI")
            knobs.append(Knob(name, low=lo, high=hi, step=step))
        else:  # pragma: no cover - the table has no other type
            raise UserError(f"--vary {name}: cannot be varied")
    if sum(k.is_wheel for k in knobs) == 1:  # pragma: no cover - parse_vary refuses it
        raise UserError("--vary wheel needs at least two spaces")
    return knobs


def _points_knob(name: str, arg: str, base: RuleSet) -> Knob:
    """The knob ``points.KIND=LO:HI``: one card kind's score."""
    kind = name[len("points.") :]
    kinds = base.edition_data.point_kinds
    if kind not in kinds:
        raise UserError(
            f"--vary {name}: {kind!r} is not a card kind of {base.edition}'s deck "
            f"(points.KIND with KIND one of {', '.join(kinds)})"
        )
    if not arg:
        raise UserError(f"--vary {name}: give a range, {name}=LO:HI")
    lo, hi = _int_range(name, arg, *OPTION_BY_NAME["points"].domain)
    return Knob(name, low=lo, high=hi)


def knob_default(base: RuleSet, name: str):
    """The value knob ``name`` has in rule set ``base`` (``points.KIND``: that kind's
    score)."""
    if name.startswith("points."):
        return base.option("points")[name[len("points.") :]]
    if name.startswith(PREFIX):
        return space_knob_range(name, base)[0]
    return base.option(name)


def design_rules(edition: str | RuleSet, players: int, values: dict) -> RuleSet:
    """The rule set of a design (knob values over the edition's defaults).

    Raises :class:`~unospin_sim.errors.RuleError` for a combination the rules refuse
    (e.g. ``jump_in_wilds`` without ``jump_in``) and for a wheel without a segment.
    """
    base = base_rules(edition, players)
    options = {k: v for k, v in values.items() if not k.startswith(("wheel.", "points.", PREFIX))}
    if base.variant is not None and any(k.startswith(PREFIX) for k in values):
        options["variant"] = with_space_knobs(base.variant, values)
    points = {k[len("points.") :]: v for k, v in values.items() if k.startswith("points.")}
    if points:
        options["points"] = points
    wheel_knobs = {k[6:]: v for k, v in values.items() if k.startswith("wheel.")}
    if wheel_knobs:
        wheel = dict(zip(base.wheel_spaces(), default_counts(base)))
        wheel.update(wheel_knobs)
        if not any(wheel.values()):
            raise RuleError("a wheel needs at least one segment")
        options["wheel"] = {s: float(c) for s, c in wheel.items()}
    if "target" in options:
        options.setdefault("match", "race")
    return base.replace(**options) if options else base


def default_counts(rules: RuleSet) -> list[int]:
    """Segment counts of the edition's default wheel (its default weights; a variant's
    own spaces 0)."""
    defaults = rules.edition_data.defaults
    return [int(round(w)) for w in defaults["wheel"]] if rules.wheel_spaces() else []


def _wheel_counts(rules: RuleSet) -> list[float]:
    return list(rules.option("wheel").values()) if rules.wheel_spaces() else []


def segments_moved(rules: RuleSet) -> int:
    """Segments added or removed from the edition's default wheel, summed over spaces."""
    return int(sum(abs(a - b) for a, b in zip(_wheel_counts(rules), default_counts(rules))))


def options_changed(rules: RuleSet) -> int:
    """Options other than the wheel, ``players`` and ``match`` off the edition's default."""
    base = base_rules(rules)
    return sum(
        1
        for name in base.edition_data.options
        if name not in ("wheel", "players", "match") and rules.option(name) != base.option(name)
    )


def check_goals_movable(goals: list[Goal], knobs: list[Knob], edition: str | RuleSet) -> None:
    """Refuse a goal that no knob can move (one line naming it).

    A wheel metric needs an edition with a wheel; ``target`` moves only match metrics.
    """
    base = base_rules(edition)
    edition = base.edition
    names = {k.name for k in knobs}
    for g in goals:
        m = METRICS[g.metric]
        if m.wheel and not base.wheel_spaces():
            raise UserError(
                f"goal {g.text}: {edition} has no wheel, so no --vary can move {g.metric}"
            )
        if m.name == "segments_moved" and not any(k.is_wheel for k in knobs):
            raise UserError(f"goal {g.text}: only --vary wheel moves segments_moved")
        if m.name == "options_changed" and all(k.is_wheel for k in knobs):
            raise UserError(f"goal {g.text}: only --vary of a rule option moves options_changed")
        if m.kind == DESIGN_KIND:
            continue
        if m.kind != MATCH_KIND and names == {"target"}:
            raise UserError(
                f"goal {g.text}: --vary target moves only match metrics, not {g.metric}"
            )
