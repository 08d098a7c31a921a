"""The designer: search the rules for a balance goal (``python -m unospin_sim design``).

A game designer states goals over measurable properties of a rule set (round length, the
first player's edge, comebacks in a race to 500, ...) and what may change (the wheel's
segment counts, rule options); an optuna study searches the designs on common random
numbers, plays the promising ones longer, confirms the best on fresh seeds and checks it
with a stronger field of bots.

>>> from unospin_sim.studies.design import DesignSpec, run_design
>>> spec = DesignSpec("spin2025", 4, goals=["mean_turns=50"], vary=["wheel"],
...                   trials=40, games=10_000, seed=3)
>>> answer = run_design(spec, "designs/turns50")     # doctest: +SKIP
>>> answer["rules"]                                   # doctest: +SKIP

Modules: :mod:`~unospin_sim.studies.design.goals` (metrics and goals), :mod:`~.space` (what
``--vary`` changes), :mod:`~.constraints` (``--tie``, ``--segments``, the first trials),
:mod:`~.evaluate` (measuring one design), :mod:`~.spec` (a study's arguments and files),
:mod:`~.screen` (the optuna trials), :mod:`~.stages` (refine, confirm, robustness, the
answer) and :mod:`~.study` (running them).
"""

from .goals import METRICS, Goal, Metric, parse_goal, parse_goals
from .space import Knob, parse_vary
from .study import DesignSpec, resume_design, run_design

__all__ = [
    "METRICS",
    "DesignSpec",
    "Goal",
    "Knob",
    "Metric",
    "parse_goal",
    "parse_goals",
    "parse_vary",
    "resume_design",
    "run_design",
]
