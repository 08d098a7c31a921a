"""Wheel constraints of a design study, built into its design space (not penalties).

- ``--tie SPACE,SPACE,...``: the named spaces always have equal segment counts; the study
  varies one count for the group (optuna parameter ``wheel.SPACE+SPACE+...``);
- ``--segments N``: the wheel always has ``N`` segments in all (the varied spaces and the
  ones kept at the edition's counts). Each varied group but the last is a parameter
  0-4; a proposal is mapped, group by group in ``--vary`` order, to the nearest count
  that leaves the remaining groups a way to reach ``N`` (ties to the lower count), and
  the last group takes what is left. A proposal that already meets ``N`` is kept as it is.

:class:`WheelPlan` holds the groups and proposes designs; :func:`make_plan` checks the
flags (one line for an impossible combination); :func:`first_trials` lists the trials
enqueued before the sampler's: the published wheel, then its neighbours one segment away.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...errors import UserError
from ...rules import RuleSet
from .space import WHEEL_MAX, Knob, base_rules, knob_default

__all__ = ["WheelPlan", "first_trials", "make_plan", "nearest", "propose"]


@dataclass(frozen=True)
class WheelPlan:
    """The varied wheel spaces in groups (tied spaces together, ``--vary`` order) and the
    total (0: free; else every segment of the wheel, ``fixed`` of them on spaces not
    varied)."""

    groups: tuple[tuple[str, ...], ...]
    total: int = 0
    fixed: int = 0

    @staticmethod
    def param(group: tuple[str, ...]) -> str:
        """The optuna parameter of a group: ``wheel.SPACE`` or ``wheel.A+B+...``."""
        return "wheel." + "+".join(group)

    @property
    def free(self) -> tuple[tuple[str, ...], ...]:
        """The groups that are parameters (all but the last when the total is fixed)."""
        return self.groups[:-1] if self.total and self.groups else self.groups

    def reach(self) -> list[set[int]]:
        """``reach[i]``: the segment sums groups ``i..`` can make."""
        out = [{0}]
        for g in reversed(self.groups):
            out.append({len(g) * c + s for c in range(WHEEL_MAX + 1) for s in out[-1]})
        return out[::-1]

    def counts(self, raw: dict[str, int]) -> dict[str, int]:
        """Each varied space's count for the parameters ``raw`` (module docstring)."""
        out: dict[str, int] = {}
        if not self.total:
            for g in self.groups:
                out.update(dict.fromkeys(g, raw[self.param(g)]))
            return out
        reach, rem = self.reach(), self.total - self.fixed
        for i, g in enumerate(self.groups):
            if i == len(self.groups) - 1:
                c = rem // len(g)
            else:
                ok = [c for c in range(WHEEL_MAX + 1) if rem - len(g) * c in reach[i + 1]]
                r = raw[self.param(g)]
                c = min(ok, key=lambda c: (abs(c - r), c))
            out.update(dict.fromkeys(g, c))
            rem -= len(g) * c
        return out


def make_plan(
    edition: str | RuleSet, knobs: list[Knob], ties: list[str], segments: int
) -> WheelPlan:
    """The plan of ``--tie`` and ``--segments`` over the wheel knobs; one-line
    :class:`UserError` for an impossible combination."""
    varied = [k.name[6:] for k in knobs if k.is_wheel]
    if (ties or segments) and not varied:
        flag = "--tie" if ties else "--segments"
        raise UserError(f"{flag} constrains the wheel: add --vary wheel")
    base = base_rules(edition)
    edition = base.edition
    spaces = base.wheel_spaces()
    tied: dict[str, tuple[str, ...]] = {}
    for text in ties:
        group = tuple(s.strip() for s in text.split(",") if s.strip())
        for s in group:
            if s not in spaces:
                raise UserError(
                    f"--tie {text}: {s!r} is not a space of the {edition} wheel "
                    f"({', '.join(spaces)})"
                )
            if s in tied or group.count(s) > 1:
                raise UserError(f"--tie {text}: {s!r} is tied twice")
            if s not in varied:
                raise UserError(f"--tie {text}: {s!r} is not varied (add it to --vary wheel=...)")
        if len(group) < 2:
            raise UserError(f"--tie {text}: name at least two spaces")
        tied.update(dict.fromkeys(group, group))
    groups: list[tuple[str, ...]] = []
    for s in varied:
        g = tied.get(s, (s,))
        if g not in groups:
            groups.append(g)
    if segments < 0:
        raise UserError(f"--segments must be a whole number >= 1, got {segments}")
    if not segments:
        return WheelPlan(tuple(groups))
    fixed = sum(int(round(w)) for s, w in base.option("wheel").items() if s not in varied)
    plan = WheelPlan(tuple(groups), segments, fixed)
    sums = sorted(fixed + s for s in plan.reach()[0] if fixed + s >= 1)
    if segments not in sums:
        gaps = " (not every total between)" if len(sums) != sums[-1] - sums[0] + 1 else ""
        raise UserError(
            f"--segments {segments}: impossible with these --vary and --tie; the wheel "
            f"can have {sums[0]} to {sums[-1]} segments{gaps}"
        )
    return plan


def propose(trial, knobs: list[Knob], plan: WheelPlan | None) -> dict:
    """The knob values an optuna ``trial`` proposes, ``{knob name: value}`` (a wheel
    knob ``wheel.SPACE`` its count), meeting ``plan``; ``plan`` None: every wheel space
    a parameter of its own."""
    if plan is None:
        plan = WheelPlan(tuple((k.name[6:],) for k in knobs if k.is_wheel))
    group = {s: g for g in plan.free for s in g}
    out, raw = {}, {}
    for k in knobs:  # in --vary order, so an unconstrained study samples as it always did
        if k.is_wheel:
            g = group.get(k.name[6:])
            if g is not None and g[0] == k.name[6:]:
                raw[plan.param(g)] = trial.suggest_int(plan.param(g), 0, WHEEL_MAX)
        elif k.choices:
            out[k.name] = trial.suggest_categorical(k.name, list(k.choices))
        else:
            out[k.name] = trial.suggest_int(k.name, k.low, k.high, step=k.step)
    out.update({f"wheel.{s}": c for s, c in plan.counts(raw).items()})
    return {k.name: out[k.name] for k in knobs}


def nearest(plan: WheelPlan, published: dict[str, int]) -> dict[str, int]:
    """The design of ``plan`` fewest segments away from the ``published`` counts (the first
    in ``--vary`` order among equals): the published wheel itself when ``plan`` allows it."""
    reach = plan.reach()
    best: tuple[int, list[int]] = (10**9, [])

    def walk(i: int, rem: int, moved: int, chosen: list[int]) -> None:
        nonlocal best
        if moved >= best[0]:
            return
        if i == len(plan.groups):
            if not plan.total or rem == 0:
                best = (moved, list(chosen))
            return
        g = plan.groups[i]
        cs: list[int] = list(range(WHEEL_MAX + 1))
        if plan.total:
            cs = [c for c in cs if rem - len(g) * c in reach[i + 1]]
        for c in sorted(cs, key=lambda c: (sum(abs(c - published[s]) for s in g), c)):
            chosen.append(c)
            walk(i + 1, rem - len(g) * c, moved + sum(abs(c - published[s]) for s in g), chosen)
            chosen.pop()

    walk(0, plan.total - plan.fixed, 0, [])
    return {s: c for g, c in zip(plan.groups, best[1]) for s in g}


def _params(plan: WheelPlan, counts: dict[str, int]) -> dict[str, int]:
    return {WheelPlan.param(g): counts[g[0]] for g in plan.free}


def first_trials(
    edition: str | RuleSet, knobs: list[Knob], plan: WheelPlan, neighbours: bool
) -> list[dict]:
    """Parameters of the trials enqueued first: the published wheel and options (the
    design the constraints allow fewest segments away from it, when they exclude it:
    :func:`nearest`), then, when ``neighbours``, every design one segment
    away from it (one group one count up or down; with ``--segments``, one group up and
    another of the same size down)."""
    base = base_rules(edition)
    first: dict = {}
    for k in knobs:
        if k.is_wheel:
            continue
        v = knob_default(base, k.name)
        if (k.choices and v in k.choices) or (
            not k.choices and k.low <= v <= k.high and (v - k.low) % k.step == 0
        ):
            first[k.name] = v
    if not plan.groups:
        return [first]
    published = {s: int(round(w)) for s, w in base.option("wheel").items()}
    counts = nearest(plan, published)
    out = [{**first, **_params(plan, counts)}]
    if not neighbours:
        return out
    gc = [counts[g[0]] for g in plan.groups]
    moves: list[list[int]] = []
    n = len(plan.groups)
    if not plan.total:
        for i in range(n):
            for d in (-1, 1):
                moves.append([gc[j] + (d if j == i else 0) for j in range(n)])
    else:
        for i in range(n):
            for j in range(n):
                if i != j and len(plan.groups[i]) == len(plan.groups[j]):
                    moves.append([gc[k] + (1 if k == i else -1 if k == j else 0) for k in range(n)])
    for m in moves:
        if all(0 <= c <= WHEEL_MAX for c in m):
            c = {s: m[i] for i, g in enumerate(plan.groups) for s in g}
            p = {**first, **_params(plan, c)}
            if p not in out:
                out.append(p)
    return out
