"""The designer's goals: the metrics a design is measured by, and goals over them.

A goal is one of

- ``METRIC=VALUE`` or ``METRIC=VALUE±TOL`` (also ``+-``): hit a value; the tolerance
  defaults to the metric's :attr:`Metric.tol`;
- ``METRIC<=VALUE`` / ``METRIC>=VALUE``: a constraint;
- ``min:METRIC`` / ``max:METRIC``: an objective.

A design's **distance** from the goals is its largest miss in units of each goal's
tolerance: ``|value - target| / tol`` for a target, ``max(0, value - bound) / tol`` for
``<=`` (and the mirror for ``>=``); objectives add no miss. A distance of at most 1 means
every target and constraint is met within its tolerance.

>>> g = parse_goal("mean_turns=50±2")
>>> g.miss(53.0)
1.5
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np

from ...errors import UserError

__all__ = [
    "DESIGN_KIND",
    "DRAMA_KIND",
    "MATCH_KIND",
    "METRICS",
    "ROUND_KIND",
    "SKILL_KIND",
    "WHEEL_LUCK_KIND",
    "Goal",
    "Metric",
    "distance",
    "parse_goal",
    "parse_goals",
]

#: metric kinds: what must be played to measure them (``design``: nothing, read off the rules;
#: ``drama`` and ``wheel_luck``: rounds replayed, a capped sample: design/measures.py)
ROUND_KIND, MATCH_KIND, SKILL_KIND, DESIGN_KIND = "rounds", "matches", "skill", "design"
DRAMA_KIND, WHEEL_LUCK_KIND = "drama", "wheel_luck"


@dataclass(frozen=True)
class Metric:
    """One measurable property of a rule set.

    Attributes
    ----------
    name : str
        Its name in goals.
    unit : str
        What one unit of the value is.
    tol : float
        The default tolerance of ``METRIC=VALUE`` (and the unit of a constraint's miss).
    kind : str
        ``"rounds"`` (measured on ``--games`` rounds), ``"matches"`` (on ``--games`` whole
        matches, ``match=race`` to the rule set's ``target``), ``"skill"`` (``--games``
        rounds of the skill bot against random bots, seats rotated), ``"drama"`` (at most
        ``DRAMA_ROUNDS`` of those rounds replayed with the event log), ``"wheel_luck"`` (one
        spin of each of at most ``WHEEL_LUCK_ROUNDS`` rounds replayed once per space) or
        ``"design"`` (read off the rule set, exact).
    wheel : bool
        Only editions with a wheel have it.
    doc : str
        One line for the docs and ``--help``.
    """

    name: str
    unit: str
    tol: float
    kind: str
    wheel: bool
    doc: str


def _m(name, unit, tol, kind, wheel, doc) -> Metric:
    return Metric(name, unit, float(tol), kind, wheel, doc)


#: every metric a goal can name, in documentation order
METRICS: dict[str, Metric] = {
    m.name: m
    for m in (
        _m(
            "mean_turns",
            "turns per round",
            1.0,
            ROUND_KIND,
            False,
            "mean turns per round (unfinished rounds count their capped turns)",
        ),
        _m(
            "first_player_advantage",
            "percentage points",
            0.5,
            ROUND_KIND,
            False,
            "round win rate of the player who acts first (after the first card's effect) "
            "minus a fair share (1/players)",
        ),
        _m(
            "seat_spread",
            "percentage points",
            1.0,
            ROUND_KIND,
            False,
            "highest seat's round win rate minus the lowest seat's, bias-corrected",
        ),
        _m(
            "mean_winner_points",
            "points per round",
            2.0,
            ROUND_KIND,
            False,
            "mean points scored by the winner of a finished round",
        ),
        _m(
            "spins_per_round",
            "spins per round",
            0.5,
            ROUND_KIND,
            True,
            "mean wheel spins per round",
        ),
        _m(
            "catch_up",
            "cards per spin",
            0.05,
            ROUND_KIND,
            True,
            "the wheel's catch-up index: a trailing spinner's hand change minus the leader's, "
            "negated (> 0: the wheel closes gaps)",
        ),
        _m(
            "rounds_per_match",
            "rounds per match",
            0.2,
            MATCH_KIND,
            False,
            "mean rounds of a finished match (race to the rule set's target)",
        ),
        _m(
            "leader_wins_match",
            "percent of matches",
            2.0,
            MATCH_KIND,
            False,
            "of the matches that go on after round 1 with a sole leader, the share that leader "
            "wins (low: comebacks)",
        ),
        _m(
            "comeback_rate",
            "percent of matches",
            2.0,
            MATCH_KIND,
            False,
            "share of matches won by a player who trailed the leader by >= 100 points",
        ),
        _m(
            "skill",
            "percentage points",
            1.0,
            SKILL_KIND,
            False,
            "round win rate of the skill bot (--skill-bot) against random bots, seats "
            "rotated, minus a fair share",
        ),
        _m(
            "drama",
            "percent of rounds",
            2.0,
            DRAMA_KIND,
            False,
            "share of finished rounds whose winner held strictly the most cards at the start "
            "of some turn after the first third of the round (at most 10,000 rounds replayed)",
        ),
        _m(
            "wheel_luck",
            "percentage points",
            1.0,
            WHEEL_LUCK_KIND,
            True,
            "segment-weighted SD of the spaces' effects on the spinner's round-win chance "
            "(paired replays of one spin in each of at most 10,000 rounds)",
        ),
        _m(
            "segments_moved",
            "wheel segments",
            1.0,
            DESIGN_KIND,
            True,
            "wheel segments added or removed from the edition's wheel, summed over spaces (exact)",
        ),
        _m(
            "options_changed",
            "options",
            1.0,
            DESIGN_KIND,
            False,
            "rule options off the edition's defaults (exact)",
        ),
    )
}

_GOAL_RE = re.compile(
    r"^\s*(?:(?P<dir>min|max)\s*:\s*(?P<om>[a-z_]+)|"
    r"(?P<m>[a-z_]+)\s*(?P<op><=|>=|=)\s*(?P<v>[^±+]+?)\s*(?:(?:±|\+-|\+/-)\s*(?P<t>.+?))?)\s*$"
)


def _number(text: str, what: str, goal: str) -> float:
    try:
        x = float(text)
    except ValueError:
        raise UserError(f"goal {goal!r}: {what} {text!r} is not a number") from None
    if not math.isfinite(x):
        raise UserError(f"goal {goal!r}: {what} must be finite, got {text!r}")
    return x


@dataclass(frozen=True)
class Goal:
    """One goal over one metric.

    Attributes
    ----------
    metric : str
    op : str
        ``"="`` (hit ``value`` within ``tol``), ``"<="``, ``">="``, ``"min"`` or ``"max"``.
    value : float
        Target or bound (NaN for ``min`` / ``max``).
    tol : float
        Tolerance: the unit of a miss.
    """

    metric: str
    op: str
    value: float
    tol: float

    @property
    def text(self) -> str:
        """The goal as it would be typed."""
        if self.op in ("min", "max"):
            return f"{self.op}:{self.metric}"
        if self.op == "=":
            return f"{self.metric}={self.value:g}±{self.tol:g}"
        return f"{self.metric}{self.op}{self.value:g}"

    @property
    def is_objective(self) -> bool:
        return self.op in ("min", "max")

    def miss(self, v: float) -> float:
        """How far ``v`` misses the goal, in tolerances (0 for objectives, inf for NaN)."""
        if self.is_objective:
            return 0.0
        if v != v:
            return math.inf
        if self.op == "=":
            return abs(v - self.value) / self.tol
        if self.op == "<=":
            return max(0.0, v - self.value) / self.tol
        return max(0.0, self.value - v) / self.tol

    def holds(self, v: float) -> bool:
        """The point estimate meets the goal (within tolerance for ``=``)."""
        return self.is_objective or self.miss(v) <= 1.0

    def sure(self, low: float, high: float) -> bool:
        """The whole 95% interval meets the goal."""
        if self.is_objective:
            return True
        return self.miss(low) <= 1.0 and self.miss(high) <= 1.0


def parse_goal(text: str) -> Goal:
    """Parse one ``--goal``; raises :class:`UserError` naming the problem."""
    m = _GOAL_RE.match(text)
    if not m:
        raise UserError(
            f"goal {text!r}: expected METRIC=VALUE[±TOL], METRIC<=VALUE, "
            f"METRIC>=VALUE, min:METRIC or max:METRIC"
        )
    name = m["om"] or m["m"]
    if name not in METRICS:
        raise UserError(f"goal {text!r}: unknown metric {name!r}; metrics: {', '.join(METRICS)}")
    metric = METRICS[name]
    if m["dir"]:
        return Goal(name, m["dir"], math.nan, metric.tol)
    value = _number(m["v"], "value", text)
    tol = metric.tol
    if m["t"] is not None:
        if m["op"] != "=":
            raise UserError(f"goal {text!r}: a tolerance goes with METRIC=VALUE±TOL only")
        tol = _number(m["t"], "tolerance", text)
        if tol <= 0:
            raise UserError(f"goal {text!r}: the tolerance must be > 0")
    return Goal(name, m["op"], value, tol)


def parse_goals(texts: Sequence[str]) -> list[Goal]:
    """Parse every ``--goal`` and reject contradictory sets (one line naming them).

    Contradictory: ``min:`` and ``max:`` of one metric, an objective and a target on one
    metric, or targets and bounds on one metric that no value meets together.
    """
    if not texts:
        raise UserError("design needs at least one --goal")
    goals = [parse_goal(t) for t in texts]
    by_metric: dict[str, list[Goal]] = {}
    for g in goals:
        by_metric.setdefault(g.metric, []).append(g)
    for name, gs in by_metric.items():
        ops = [g.op for g in gs]
        objectives = [g for g in gs if g.is_objective]
        if len(objectives) > 1:
            raise UserError(
                f"contradictory goals on {name}: {' and '.join(g.text for g in objectives)}"
            )
        if objectives and "=" in ops:
            raise UserError(
                f"contradictory goals on {name}: {objectives[0].text} and a "
                f"target {next(g.text for g in gs if g.op == '=')}"
            )
        lo, hi = -math.inf, math.inf
        for g in gs:
            if g.op == "=":
                lo, hi = max(lo, g.value - g.tol), min(hi, g.value + g.tol)
            elif g.op == "<=":
                hi = min(hi, g.value)
            elif g.op == ">=":
                lo = max(lo, g.value)
        if lo > hi:
            raise UserError(
                f"contradictory goals on {name}: no value meets "
                f"{' and '.join(g.text for g in gs if not g.is_objective)}"
            )
    return goals


def distance(goals: Sequence[Goal], values: dict[str, float]) -> float:
    """The largest miss over ``goals`` (0 when there are only objectives)."""
    return max([g.miss(values[g.metric]) for g in goals if not g.is_objective], default=0.0)


# ------------------------------------------------------------------------------------------
# goals in a study: the objective vector, the Pareto front, one line of figures


def directions(goals: list[Goal]) -> list[Literal["minimize", "maximize"]]:
    """The optuna study's directions: one per target or constraint (its miss, minimised),
    then one per ``min:``/``max:`` objective."""
    targets = [g for g in goals if not g.is_objective]
    dirs: list[Literal["minimize", "maximize"]] = ["minimize"] * len(targets)
    dirs += ["minimize" if g.op == "min" else "maximize" for g in goals if g.is_objective]
    return dirs


def objectives(goals: list[Goal], values: dict) -> list[float]:
    """The study's objective vector: each target's or constraint's miss, then each
    objective's value."""
    out = [min(g.miss(values[g.metric]), 1e9) for g in goals if not g.is_objective]
    for g in goals:
        if g.is_objective:
            v = values[g.metric]
            out.append(v if v == v else (1e9 if g.op == "min" else -1e9))
    return out


def pareto(points: np.ndarray, dirs: Sequence[str]) -> np.ndarray:
    """Non-dominated rows of ``points`` (every column turned to 'smaller is better')."""
    x = points * np.array([1.0 if d == "minimize" else -1.0 for d in dirs])
    n = len(x)
    keep = np.ones(n, bool)
    for i in range(n):
        dominated = np.all(x <= x[i], axis=1) & np.any(x < x[i], axis=1)
        keep[i] = not dominated.any()
    return keep


def unique_metrics(goals):
    """The goals with their first metric each, in order (one goal per metric)."""
    seen, out = set(), []
    for g in goals:
        if g.metric not in seen:
            seen.add(g.metric)
            out.append(g)
    return out


def fmt_metrics(goals: list[Goal], m: dict) -> str:
    """``metric value [low, high]; ...`` of each goal's metric in ``m``."""
    return "; ".join(
        f"{g.metric} {m[g.metric][0]:.3g} [{m[g.metric][1]:.3g}, {m[g.metric][2]:.3g}]"
        for g in unique_metrics(goals)
    )
