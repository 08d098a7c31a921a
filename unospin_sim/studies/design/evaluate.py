"""Measure one design: play its rounds (and matches, and skill rounds) and compute the goals'
metrics with 95% intervals.

Every design of a study plays the same seed (common random numbers): game ``g`` of any design
uses the stream of ``(seed, g)``, so two designs differ by their rules, not their luck.
Rounds are played in batches on a thread pool, keeping only the columns the metrics read,
so a million-round confirmation holds a few columns, not the whole round table.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import pandas as pd

from ...bots import parse_bots, saved_bot_string
from ...rules import RuleSet
from .goals import (
    DESIGN_KIND,
    DRAMA_KIND,
    MATCH_KIND,
    METRICS,
    ROUND_KIND,
    SKILL_KIND,
    WHEEL_LUCK_KIND,
)
from .measures import drama_metric, match_metrics, round_metrics, skill_metric, wheel_luck_metric

__all__ = ["BATCH", "Evaluation", "measure"]

#: rounds per batch of a thread (results do not depend on it)
BATCH = 25_000
_ROUND_COLUMNS = ["game", "first_player", "winner", "turns", "winner_points", "spins"]
_SPIN_COLUMNS = ["space", "spinner", "leader", "hand_before", "hand_after"]


@dataclass
class Evaluation:
    """One design measured once: ``metrics`` maps a metric to ``(value, low, high)``."""

    rules: str
    games: int
    seed: int
    bots: str
    metrics: dict
    seconds: float
    #: the bot whose edge over random bots ``metrics["skill"]`` is (its saved string), or
    #: "" when skill was not measured
    skill_bot: str = ""

    def to_dict(self) -> dict:
        return {
            "rules": self.rules,
            "games": self.games,
            "seed": self.seed,
            "bots": self.bots,
            "seconds": round(self.seconds, 3),
            "metrics": {k: list(v) for k, v in self.metrics.items()},
            "skill_bot": self.skill_bot,
        }

    @classmethod
    def from_dict(cls, d: dict) -> Evaluation:
        return cls(
            d["rules"],
            int(d["games"]),
            int(d["seed"]),
            d["bots"],
            {k: tuple(float(x) for x in v) for k, v in d["metrics"].items()},
            float(d["seconds"]),
            str(d.get("skill_bot", "")),
        )


def saved_field(bots: str, players: int) -> str:
    """The bot string ``bots`` for ``players`` seats as a saved run names it
    (:func:`~unospin_sim.bots.saved_bot_string` per seat: a ``search`` or ``tuned`` seat
    names every knob, so a later change of their defaults is a different field)."""
    return ",".join(saved_bot_string(s) for s in parse_bots(bots, players))


def _single(rules: RuleSet) -> RuleSet:
    """The rule set played one round at a time (a varied target is a match rule)."""
    if not rules.plays_matches:
        return rules
    return rules.replace(match="single", target=rules.edition_data.defaults["target"])


def _rounds(
    rules: RuleSet, bots: str, games: int, seed: int, threads: int, rotate: bool, spins: bool
) -> tuple[pd.DataFrame, pd.DataFrame | None]:
    """Rounds ``0..games-1`` of ``rules`` (the metric columns only) and, with ``spins``,
    the spin table's catch-up columns."""
    from ...run import RunSpec, parallel_map, play_chunk_frames

    spec = RunSpec.build(rules, bots, games, seed, rotate_bots=rotate)

    def one(a):
        _, r, s = play_chunk_frames(spec, a, min(BATCH, games - a))
        cols = [c for c in _ROUND_COLUMNS if c in r.columns]
        return r[cols], (s[_SPIN_COLUMNS] if spins and s is not None else None)

    parts = parallel_map(one, range(0, games, BATCH), threads)
    r = pd.concat([p[0] for p in parts], ignore_index=True)
    s = pd.concat([p[1] for p in parts], ignore_index=True) if spins else None
    return r, s


def measure(
    rules: RuleSet,
    metrics,
    games: int,
    seed: int,
    bots: str = "random",
    skill_bot: str = "heuristic",
    threads: int = 1,
) -> Evaluation:
    """Measure ``metrics`` (names of :data:`~unospin_sim.studies.design.goals.METRICS`) of ``rules``.

    Parameters
    ----------
    rules : RuleSet
        The design.
    metrics : iterable of str
        Metric names; each kind is played once: ``games`` rounds for round metrics,
        ``games`` whole matches (``match=race`` to the rule set's target) for match metrics,
        ``games`` rounds of ``skill_bot`` against random bots (seats rotated) for ``skill``,
        the first ``min(games, DRAMA_ROUNDS)`` rounds replayed with the event log for
        ``drama``, one spin of each of the first ``min(games, WHEEL_LUCK_ROUNDS)`` rounds
        replayed per space for ``wheel_luck`` (``measures.py``).
    games, seed : int
        Sample size (rounds or matches) and the common seed.
    bots : str
        The field: a bot string for the rounds and matches.
    skill_bot : str
        The strategy whose edge over random bots is ``skill``.
    threads : int
        Threads that play.

    Returns
    -------
    Evaluation
    """
    t0 = time.perf_counter()
    names = list(dict.fromkeys(metrics))
    p = rules.players
    bots = saved_field(bots, p)
    out: dict = {}
    kinds = {METRICS[n].kind for n in names}
    if ROUND_KIND in kinds:
        want = [n for n in names if METRICS[n].kind == ROUND_KIND]
        r, s = _rounds(_single(rules), bots, games, seed, threads, False, "catch_up" in want)
        out.update(round_metrics(r, s, p, want))
        del r, s
    if MATCH_KIND in kinds:
        from ...run import Execution, simulate

        want = [n for n in names if METRICS[n].kind == MATCH_KIND]
        mrules = rules if rules.option("match") == "race" else rules.replace(match="race")
        res = simulate(
            mrules, bots, games, seed, tables=("rounds",), execution=Execution(threads=threads)
        )
        out.update(match_metrics(res.rounds, res.matches, want))
        del res
    if SKILL_KIND in kinds:
        field = saved_field(",".join([skill_bot] + ["random"] * (p - 1)), p)
        r, _ = _rounds(_single(rules), field, games, seed, threads, True, False)
        out["skill"] = skill_metric(r, p)
    if DRAMA_KIND in kinds:
        out["drama"] = drama_metric(_single(rules), bots, games, seed)
    if WHEEL_LUCK_KIND in kinds:
        out["wheel_luck"] = wheel_luck_metric(_single(rules), bots, games, seed, threads)
    if DESIGN_KIND in kinds:
        from .space import options_changed, segments_moved

        exact = {"segments_moved": segments_moved(rules), "options_changed": options_changed(rules)}
        out.update({n: (float(exact[n]),) * 3 for n in names if n in exact})
    return Evaluation(
        str(rules),
        games,
        seed,
        bots,
        {n: out[n] for n in names},
        time.perf_counter() - t0,
        saved_field(skill_bot, 1) if SKILL_KIND in kinds else "",
    )
