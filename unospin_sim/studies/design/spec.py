"""A study's arguments and files: :class:`DesignSpec` (``design.json``), the optuna study in
``study.db`` (:func:`open_study`) and the measurements in ``evaluations.jsonl``
(:class:`MeasurementStore`: none played twice, a Dask cluster's measured in a batch).
"""

from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...errors import RuleError, UserError
from ...results.schema import VARIANT_KEY
from ...rules import RuleSet
from .evaluate import Evaluation, measure, saved_field
from .goals import METRICS, Goal, directions, parse_goals
from .space import check_goals_movable, parse_vary
from .step_knobs import register_space_knobs

__all__ = [
    "DESIGN_FILES",
    "FRESH_SEED_OFFSET",
    "REFINE_FIRST",
    "REFINE_LATER",
    "ROBUST_BOT",
    "SEED_MOD",
    "SPEC_TYPES",
    "STUDY_FILES",
    "DesignSpec",
    "MeasurementStore",
    "atomic_write",
    "open_study",
    "read_spec",
    "say",
    "task_result",
]

#: the best non-search strategy of each edition in the committed tournament
#: (reports/editions-4p-random, skill section): the robustness check's field
ROBUST_BOT = {
    "classic": "heuristic",
    "spiderman": "aggressor",
    "spin2005": "spin_aware",
    "spin2025": "spin_aware",
}
#: the confirmation seed is the study's seed plus this (mod 2**63): streams disjoint from it
FRESH_SEED_OFFSET = 1_000_003
#: designs refined at the first and later stages
REFINE_FIRST, REFINE_LATER = 8, 3
SEED_MOD = 2**63
STUDY_FILES = ("design.json", "study.db", "evaluations.jsonl")
#: every file a study writes in its directory (SQLite's journal beside study.db)
DESIGN_FILES = (
    *STUDY_FILES,
    "study.db-journal",
    "designs.csv",
    "best.json",
    "pareto.png",
    "summary.md",
    "wheel.svg",
    "wheel.png",
    "wheel.txt",
)


@dataclass
class DesignSpec:
    """The arguments of a study (saved as ``design.json``)."""

    edition: str
    players: int
    goals: list[str]
    vary: list[str]
    trials: int = 40
    games: int = 10_000
    seed: int = 0
    bots: str = "random"
    stages: list[int] = field(default_factory=lambda: [10, 100])
    workers: int = 1
    threads: int = 0
    skill_bot: str = ""
    ties: list[str] = field(default_factory=list)
    segments: int = 0
    robust: bool = False
    #: the variant file whose spaces join the wheel, at 0 segments (``--variant``), as
    #: ``results.schema.VARIANT_KEY`` keeps it (its text); empty: none
    variant: dict = field(default_factory=dict)

    @property
    def base(self) -> RuleSet:
        """The edition's default rule set, with the variant file's spaces (at 0)."""
        if not self.variant:
            return RuleSet.build(self.edition)
        from ...results.load import learn_variant
        from ...rules.variants import find_variant

        learn_variant({VARIANT_KEY: self.variant}, "design.json")
        return RuleSet.build(self.edition, variant=find_variant(self.variant["key"]))

    def wheel_plan(self, knobs):
        """The wheel's groups and total (``--tie``, ``--segments``): :mod:`.constraints`."""
        from .constraints import make_plan

        return make_plan(self.base, knobs, self.ties, self.segments)

    def check(self):
        """Validate; return ``(base rules, goals, knobs)``; one-line errors."""
        from ...bots import parse_bots

        base = self.base.replace(players=self.players)
        parse_bots(self.bots, base.players)
        if not self.skill_bot:
            self.skill_bot = ROBUST_BOT[base.edition]
        if parse_bots(self.skill_bot, 1)[0].strategy == "random":
            raise UserError(
                "--skill-bot random measures random against random bots, which "
                "is noise around zero: choose a strategy that plays to win"
            )
        goals = parse_goals(self.goals)
        if all(METRICS[g.metric].kind == "design" for g in goals):
            raise UserError(
                "every goal is a property of the rules alone (segments_moved, "
                "options_changed): add a goal measured by play"
            )
        knobs = parse_vary(self.vary, base)
        register_space_knobs(base, knobs)  # every step-number variant a design may name
        check_goals_movable(goals, knobs, base)
        self.wheel_plan(knobs)
        for name, v, lo in (
            ("trials", self.trials, 1),
            ("games", self.games, 100),
            ("workers", self.workers, 1),
            ("seed", self.seed, 0),
        ):
            if not isinstance(v, int) or v < lo:
                raise UserError(f"--{name} must be a whole number >= {lo}, got {v!r}")
        if not self.stages or any(not isinstance(s, int) or s < 1 for s in self.stages):
            raise UserError(f"--stages must be whole multipliers >= 1, got {self.stages!r}")
        if any(b <= a for a, b in zip(self.stages, self.stages[1:])):
            raise UserError(
                f"--stages must grow from stage to stage (each plays more "
                f"than the one before), got {self.stages!r}"
            )
        if not self.threads:
            from ...run import default_threads

            self.threads = max(1, default_threads() // self.workers)
        return base, goals, knobs

    @property
    def unit(self) -> str:
        """What ``games`` counts: ``rounds``, ``matches`` (only match metrics) or ``rounds
        and matches`` (both kinds: ``games`` of each)."""
        kinds = {
            "matches" if METRICS[g.metric].kind == "matches" else "rounds"
            for g in parse_goals(self.goals)
            if METRICS[g.metric].kind != "design"
        }
        return " and ".join(k for k in ("rounds", "matches") if k in kinds)

    def games_text(self, n: int) -> str:
        """``n`` games in words: ``10,000 rounds`` or ``10,000 rounds and 10,000 matches``."""
        return " and ".join(f"{n:,} {u}" for u in self.unit.split(" and "))


def atomic_write(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` under a temporary name, then rename it into place."""
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(text)
    os.replace(tmp, path)


class MeasurementStore:
    """The measurements of a study directory, appended one JSON line each."""

    def __init__(self, out: Path):
        self.path = out / "evaluations.jsonl"
        self.done: dict[tuple, Evaluation] = {}
        if not self.path.exists():
            return
        data = self.path.read_bytes()
        if data and not data.endswith(b"\n"):  # a line cut by a kill: measured again
            data = data[: data.rfind(b"\n") + 1]
            with open(self.path, "r+b") as f:
                f.truncate(len(data))
        for i, line in enumerate(data.decode("utf-8", "replace").splitlines(), 1):
            if not line.strip():
                continue
            try:
                e = Evaluation.from_dict(json.loads(line))
            except (ValueError, KeyError, TypeError, AttributeError):
                raise UserError(
                    f"{self.path}: line {i} is not a measurement; the study directory is corrupt"
                ) from None
            self.done[(e.rules, e.games, e.seed, e.bots)] = e

    @staticmethod
    def key(rules, games, seed, bots) -> tuple:
        """A measurement's key: the field as a saved run names it
        (:func:`~.evaluate.saved_field`), so that a measurement stored before a change of
        a strategy's defaults is measured again, never mixed with today's."""
        return (str(rules), games, seed, saved_field(bots, rules.players))

    def lookup(self, rules, games, seed, bots, metrics, skill_bot="") -> Evaluation | None:
        """The stored measurement holding every one of ``metrics`` (``skill`` measured
        with ``skill_bot``), or None."""
        hit = self.done.get(self.key(rules, games, seed, bots))
        if hit is None or not all(m in hit.metrics for m in metrics):
            return None
        if "skill" in metrics and hit.skill_bot != saved_field(skill_bot, 1):
            return None
        return hit

    def add(self, e: Evaluation) -> None:
        with open(self.path, "a") as f:
            f.write(json.dumps(e.to_dict()) + "\n")
        self.done[(e.rules, e.games, e.seed, e.bots)] = e

    def get(self, rules, games, seed, bots, metrics, skill_bot, threads) -> Evaluation:
        hit = self.lookup(rules, games, seed, bots, metrics, skill_bot)
        if hit is not None:
            return hit
        e = measure(
            rules, metrics, games, seed, self.key(rules, games, seed, bots)[3], skill_bot, threads
        )
        self.add(e)
        return e

    def prefetch(self, jobs, client, skill_bot: str, progress: bool) -> None:
        """Measure on the Dask cluster ``client`` every ``(rules, games, seed, bots,
        metrics)`` of ``jobs`` not stored yet, all at once (one task each, a thread each);
        each lands in the store as it finishes, so the stage code that follows finds it.
        Without a client, nothing: the stage measures one design after another."""
        if client is None:
            return
        from dask.distributed import as_completed

        futures: dict[Any, tuple[tuple, Any]] = {}  # Dask future -> (its key, its metrics)
        for rules, games, seed, bots, metrics in jobs:
            key = self.key(rules, games, seed, bots)
            if (
                key in {k for k, _ in futures.values()}
                or self.lookup(rules, games, seed, bots, metrics, skill_bot) is not None
            ):
                continue
            f = client.submit(
                measure, rules, list(metrics), games, seed, key[3], skill_bot, 1, pure=False
            )
            futures[f] = (key, metrics)
        for f in as_completed(list(futures)):
            self.add(task_result(f))


def open_study(out: Path, spec: DesignSpec, goals: list[Goal], create: bool, worker: int = 0):
    """The study; its sampler is seeded from the study's seed, the number of trials it
    already holds and the worker's index, so that a resumed study or a second worker does
    not propose the first trials' designs again (one uninterrupted ``--workers 1`` study
    still gives the same designs for the same seed)."""
    import optuna

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    storage = f"sqlite:///{out / 'study.db'}"
    sampler = optuna.samplers.TPESampler(seed=spec.seed % 2**32)
    if not create:
        try:
            done = len(
                optuna.load_study(storage=storage, study_name="design", sampler=sampler).trials
            )
        except Exception:
            done = 0
        sampler = optuna.samplers.TPESampler(
            seed=(spec.seed + 1_000_003 * done + 7_919 * worker) % 2**32
        )
    try:
        if create:
            return optuna.create_study(
                storage=storage, study_name="design", sampler=sampler, directions=directions(goals)
            )
        return optuna.load_study(storage=storage, study_name="design", sampler=sampler)
    except Exception as e:
        raise UserError(
            f"{out / 'study.db'}: cannot open the study "
            f"({type(e).__name__}: {' '.join(str(e).split())[:160]})"
        ) from None


#: design.json's fields and their types
SPEC_TYPES = {
    "edition": str,
    "players": int,
    "goals": list,
    "vary": list,
    "trials": int,
    "games": int,
    "seed": int,
    "bots": str,
    "stages": list,
    "workers": int,
    "threads": int,
    "skill_bot": str,
    "ties": list,
    "segments": int,
    "robust": bool,
    "variant": dict,
}
#: fields a study written before they existed lacks (their defaults apply)
SPEC_OPTIONAL = ("ties", "segments", "robust", "variant")


def read_spec(out: Path) -> DesignSpec:
    f = out / "design.json"
    if not f.exists():
        raise UserError(f"{out} holds no design study (no design.json)")
    try:
        d = json.loads(f.read_text())
        if not isinstance(d, dict) or not set(SPEC_TYPES) - set(SPEC_OPTIONAL) <= set(d) <= set(
            SPEC_TYPES
        ):
            raise ValueError(f"expected the fields {', '.join(SPEC_TYPES)}")
        for k, t in SPEC_TYPES.items():
            if k not in d:
                continue
            v = d[k]
            if not isinstance(v, t) or (isinstance(v, bool) and t is not bool):
                raise ValueError(f"{k} must be a {t.__name__}, got {v!r}")
            if isinstance(v, list) and not all(
                isinstance(x, int if k == "stages" else str) and not isinstance(x, bool) for x in v
            ):
                raise ValueError(f"{k} holds a value of the wrong type: {v!r}")
        return DesignSpec(**d)
    except (ValueError, TypeError, OSError) as e:
        raise UserError(f"{f} is corrupt: {' '.join(str(e).split())[:120]}") from None


def task_result(future):
    """A Dask task's result; a failed task raises one line."""
    try:
        return future.result()
    except (RuleError, UserError):
        raise
    except Exception as e:
        raise UserError(
            f"a Dask task failed ({type(e).__name__}: {' '.join(str(e).split())[:160]})"
        ) from None


def say(progress: bool, text: str) -> None:
    """Print a progress line to stderr when ``progress``."""
    if progress:
        print(text, file=sys.stderr, flush=True)
