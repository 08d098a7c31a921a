"""Measuring a design's metrics: ``(value, low, high)`` of each, from its tables or from the
opt-in paths (rounds replayed with the event log for ``drama``; paired spin replays for
``wheel_luck``).

Drama and wheel luck cost more per round than the table metrics, so each is measured on a
capped sample, the same for every design of a study (common random numbers):

- ``drama``: the first ``min(games, DRAMA_ROUNDS)`` rounds of the design's seed, replayed
  with the event log on (:mod:`unospin_sim.run.drama`; about 1 ms a round);
- ``wheel_luck``: one spin of each of the first ``min(games, WHEEL_LUCK_ROUNDS)`` rounds,
  chosen at random, replayed once per wheel space and once blank
  (:func:`unospin_sim.run.replay_spins`; with 8 spaces 9 rounds replayed per spin).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pandas as pd

__all__ = [
    "DRAMA_ROUNDS",
    "WHEEL_LUCK_ROUNDS",
    "drama_metric",
    "match_metrics",
    "round_metrics",
    "skill_metric",
    "wheel_luck_metric",
]

#: the most rounds ``drama`` replays per design
DRAMA_ROUNDS = 10_000
#: the most rounds whose spin (one each) ``wheel_luck`` replays per design
WHEEL_LUCK_ROUNDS = 10_000


def _pct(k: int, n: int, offset: float = 0.0) -> tuple[float, float, float]:
    from ...analysis.stats import wilson_interval

    if n == 0:
        return math.nan, math.nan, math.nan
    lo, hi = wilson_interval(k, n)
    return 100 * (k / n - offset), 100 * (lo - offset), 100 * (hi - offset)


def _seat_spread(rounds: pd.DataFrame, players: int, seed: int) -> tuple[float, float, float]:
    """Highest minus lowest seat win rate (points), bias-corrected by a parametric bootstrap
    (2,000 multinomial draws from the observed shares, fixed seed): the estimate is
    ``2 * raw - mean(bootstrap)`` and the interval the basic bootstrap interval, both
    clipped at 0. The raw range is biased upward (a fair 4-seat game shows ~1 point at
    10,000 rounds); the correction removes most of that bias."""
    n = len(rounds)
    w = rounds["winner"].to_numpy()
    counts = np.bincount(w[w >= 0].astype(np.int64), minlength=players)[:players]
    p = np.append(counts, n - counts.sum()) / n
    draws = np.random.default_rng(seed).multinomial(n, p, size=2000)[:, :players] / n
    boot = 100 * (draws.max(axis=1) - draws.min(axis=1))
    raw = 100 * float((counts.max() - counts.min()) / n)
    est = max(0.0, 2 * raw - float(boot.mean()))
    lo = max(0.0, 2 * raw - float(np.quantile(boot, 0.975)))
    hi = max(0.0, 2 * raw - float(np.quantile(boot, 0.025)))
    return est, lo, hi


def round_metrics(
    rounds: pd.DataFrame, spins: pd.DataFrame | None, players: int, names: Sequence[str]
) -> dict[str, tuple[float, float, float]]:
    """The ``rounds``-kind metrics among ``names`` of one run."""
    from ...analysis.seats import first_player_counts
    from ...analysis.stats import mean_interval

    out: dict[str, tuple[float, float, float]] = {}
    n = len(rounds)
    for name in names:
        if name == "mean_turns":
            out[name] = mean_interval(rounds["turns"])
        elif name == "first_player_advantage":
            _, k, _ = first_player_counts(rounds)
            out[name] = _pct(k, n, 1.0 / players)
        elif name == "seat_spread":
            out[name] = _seat_spread(rounds, players, seed=n)
        elif name == "mean_winner_points":
            out[name] = mean_interval(rounds.loc[rounds["winner"] >= 0, "winner_points"])
        elif name == "spins_per_round":
            out[name] = mean_interval(rounds["spins"])
        elif name == "catch_up":
            from ...analysis.wheel import catch_up_table

            row = catch_up_table(spins).loc["all"]
            out[name] = (
                float(row["catch_up"]),
                float(row["catch_up_low"]),
                float(row["catch_up_high"]),
            )
    return out


def match_metrics(
    rounds: pd.DataFrame, matches: pd.DataFrame, names: Sequence[str]
) -> dict[str, tuple[float, float, float]]:
    """The ``matches``-kind metrics among ``names`` of one match-mode run."""
    from ...analysis.race import lead_win_table, played_match_rounds, race_dynamics
    from ...analysis.stats import mean_interval

    done = matches[matches["winner"] >= 0]
    out: dict[str, tuple[float, float, float]] = {}
    mr = played_match_rounds(rounds, matches) if len(done) else None
    for name in names:
        if mr is None:
            out[name] = (math.nan, math.nan, math.nan)
        elif name == "rounds_per_match":
            out[name] = mean_interval(done["rounds"])
        elif name == "leader_wins_match":
            row = lead_win_table(mr, max_round=1).loc[1]
            k = int(round(row["p_leader_wins"] * row["n"])) if row["n"] else 0
            out[name] = _pct(k, int(row["n"]))
        elif name == "comeback_rate":
            v, lo, hi = race_dynamics(mr).loc["comeback_rate", ["value", "low", "high"]]
            out[name] = (100 * float(v), 100 * float(lo), 100 * float(hi))
    return out


def skill_metric(rounds: pd.DataFrame, players: int) -> tuple[float, float, float]:
    """Player 0's round win rate minus a fair share, seats rotated (points)."""
    from ...analysis.race import player_win_rates

    t = player_win_rates(rounds, rotated=True, players=players)
    return _pct(int(t.loc[0, "wins"]), len(rounds), 1.0 / players)


def drama_metric(rules, bots: str, games: int, seed: int) -> tuple[float, float, float]:
    """Percent of finished rounds whose winner held strictly the most cards at the start of
    some turn after the first third of the round (Wilson interval), on the first
    ``min(games, DRAMA_ROUNDS)`` rounds of ``seed``."""
    from ...run import RunSpec
    from ...run.drama import round_histories, rounds_drama

    spec = RunSpec.build(rules, bots, games, seed)
    d = rounds_drama(round_histories(spec, min(games, DRAMA_ROUNDS)))
    return d["comeback"], d["comeback_low"], d["comeback_high"]


def wheel_luck_metric(
    rules, bots: str, games: int, seed: int, threads: int
) -> tuple[float, float, float]:
    """The wheel luck (points of win share, bootstrap interval) of ``rules``'s wheel, from
    one spin of each of the first ``min(games, WHEEL_LUCK_ROUNDS)`` rounds of ``seed``."""
    from ...analysis.luck import wheel_luck
    from ...run import Execution, RunSpec, replay_spins

    spec = RunSpec.build(rules, bots, min(games, WHEEL_LUCK_ROUNDS), seed)
    rep = replay_spins(spec, spins_per_round=1, execution=Execution(threads=threads))
    if not len(rep):
        return math.nan, math.nan, math.nan
    w = wheel_luck(rep, seed=seed)
    return w["luck"], w["low"], w["high"]
