"""Tune strategy ``tuned``'s weights (its knobs, ``bots.TUNED_WEIGHTS``) with an optimiser.

An optuna TPE study proposes weights; each trial plays the same deals (common random numbers:
one seed for every trial) at a few tables, a ``tuned`` seat with the proposed weights against
a field, seats rotated, and scores the weights by the seat's share above its fair share,
averaged over the tables (:data:`TABLES`): its share of the rounds won (objective
``rounds``), or of the points scored (``points``: a round's winner scores the cards left in
the other hands, so this is what wins a race to 500 points). The weights are knobs, so no trial
compiles anything. Heuristic's weights (``bots.HEURISTIC_WEIGHTS``, with which ``tuned``
plays exactly as ``heuristic``) are the first trial.

The best weights are then measured on fresh deals (seeds disjoint from the tuning seed):
each table's share of the rounds with its 95% interval and its share of the points, and the
paired gains over heuristic's weights on the same deals with their standard errors.

Example::

    python -m unospin_sim tune --edition classic --trials 200 --games 20000 --seed 1

The counts are rounds (single hands), never matches.
"""

from __future__ import annotations

import math
import sys
from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np

from ..analysis.stats import Z95
from ..bots import HEURISTIC_WEIGHTS, MAX_WEIGHT, TUNED_WEIGHTS, parse_bots
from ..engine import kernel
from ..engine import layout as L
from ..engine.encode import encode
from ..errors import UserError
from ..rules import RuleSet
from ..run.pool import parallel_map

__all__ = [
    "EVAL_SEED_OFFSET",
    "OBJECTIVES",
    "SPACE",
    "TABLES",
    "TableRounds",
    "TuneResult",
    "format_tune",
    "play_tables",
    "tune",
    "weights_string",
]

#: the tables a trial plays: (label, players, the field's strategy)
TABLES = (
    ("2 players against random", 2, "random"),
    ("4 players against three random", 4, "random"),
    ("2 players against heuristic", 2, "heuristic"),
)
#: each weight's search range (low, high)
SPACE = {
    "w_points": (0.0, 3.0),
    "w_colour": (0.0, 40.0),
    "w_attack": (-100.0, 300.0),
    "w_action": (-50.0, 50.0),
    "w_wild": (-400.0, 100.0),
    "w_wild_attack": (-300.0, 400.0),
    "w_wd4": (-500.0, 100.0),
    "w_wd4_attack": (-300.0, 400.0),
    "w_void": (-50.0, 400.0),
    "w_name_void": (-20.0, 20.0),
}
#: what a trial maximises, averaged over the tables: the share above the fair share of ...
OBJECTIVES = {"rounds": "the rounds won", "points": "the points scored"}
#: the evaluation's seeds start here above the tuning seed (disjoint from it)
EVAL_SEED_OFFSET = 1_000_003

assert set(SPACE) == set(TUNED_WEIGHTS)
assert all(-MAX_WEIGHT <= lo < hi <= MAX_WEIGHT for lo, hi in SPACE.values())


def weights_string(weights: dict) -> str:
    """The bot string of ``tuned`` with these weights (every weight named)."""
    return "tuned(" + ",".join(f"{k}={weights[k]:.6g}" for k in TUNED_WEIGHTS) + ")"


class TableRounds(NamedTuple):
    """One table's rounds: whether the tuned seat won each (bool[games]) and what the
    round's winner scored (int64[games]: the cards left in the other hands)."""

    won: np.ndarray
    points: np.ndarray

    def share(self, objective: str) -> float:
        """The seat's share of the rounds won or of the points scored."""
        if objective == "rounds":
            return float(self.won.mean())
        return float((self.points * self.won).sum() / max(int(self.points.sum()), 1))


def _table(
    rules: RuleSet, bot: str, field: str, games: int, seed: int, threads: int
) -> TableRounds:
    """The rounds of a seeded run where the bot (player 0) plays the others (``field``),
    seats rotated (player 0 sits at seat -g mod P in round g)."""
    p = rules.players
    ki = encode(rules, parse_bots(",".join([bot] + [field] * (p - 1)), p))
    out = np.zeros((games, L.n_out_columns(p)), np.int64)
    seeds = np.zeros(games, np.uint64)
    bounds = np.linspace(0, games, threads + 1).astype(int)

    def part(i):
        a, b = bounds[i], bounds[i + 1]
        kernel.play_chunk(*ki.args(), seed, a, out[a:b], seeds[a:b], True)

    parallel_map(part, range(threads), threads)
    g = np.arange(games)
    return TableRounds(out[:, L.O_WINNER] == (-g) % p, out[:, L.O_WINNER_POINTS].copy())


def play_tables(
    edition: str, weights: dict, games: int, seed: int, threads: int = 1, tables=TABLES
) -> list[TableRounds]:
    """Per table of ``tables``: the rounds of a ``tuned`` seat with ``weights`` (the same
    deals for the same ``seed``, whatever the weights)."""
    bot = weights_string(weights)
    return [
        _table(RuleSet.build(edition, players=p), bot, fld, games, seed, threads)
        for _, p, fld in tables
    ]


def _objective(rounds: list[TableRounds], objective: str, tables=TABLES) -> float:
    """Mean over the tables of the seat's share above the fair share, in percentage
    points."""
    return float(
        np.mean([100.0 * (t.share(objective) - 1.0 / p) for t, (_, p, _) in zip(rounds, tables)])
    )


@dataclass
class TuneResult:
    """What :func:`tune` found and measured."""

    edition: str
    objective: str
    trials: int
    games: int
    seed: int
    best: dict
    best_objective: float  # on the tuning deals, points above fair share
    heuristic_objective: float  # heuristic's weights on the same deals
    evaluation: list = field(default_factory=list)  # one dict per table

    @property
    def bot(self) -> str:
        """The bot string of the best weights."""
        return weights_string(self.best)

    def to_dict(self) -> dict:
        return {
            "edition": self.edition,
            "objective": self.objective,
            "trials": self.trials,
            "games": self.games,
            "seed": self.seed,
            "bot": self.bot,
            "best": self.best,
            "best_objective": self.best_objective,
            "heuristic_objective": self.heuristic_objective,
            "evaluation": self.evaluation,
        }


def _evaluate(edition, best, games, seed, threads) -> list[dict]:
    from ..analysis.stats import wilson_interval

    ours = play_tables(edition, best, games, seed, threads)
    base = play_tables(edition, HEURISTIC_WEIGHTS, games, seed, threads)
    rows = []
    for (label, p, fld), a, b in zip(TABLES, ours, base):
        lo, hi = wilson_interval(int(a.won.sum()), games)
        d = a.won.astype(float) - b.won.astype(float)
        rows.append(
            {
                "table": label,
                "players": p,
                "field": fld,
                "rounds": games,
                "eval_seed": seed,
                "share": a.share("rounds"),
                "low": float(lo),
                "high": float(hi),
                "heuristic_share": b.share("rounds"),
                "gain": float(d.mean()),
                "gain_se": float(d.std(ddof=1) / math.sqrt(games)),
                "points_share": a.share("points"),
                "heuristic_points_share": b.share("points"),
                "points_gain": a.share("points") - b.share("points"),
                "points_gain_se": _ratio_gain_se(a, b),
                "same_winner": int((a.won == b.won).sum()),
            }
        )
    return rows


def _ratio_gain_se(a: TableRounds, b: TableRounds) -> float:
    """Standard error of the paired difference of two shares of points (ratio estimators
    on the same rounds, by the delta method: per round the seat's points minus its share of
    the round's points, summed over both arms)."""
    ra, rb = a.share("points"), b.share("points")
    za = a.points * a.won - ra * a.points
    zb = b.points * b.won - rb * b.points
    n = len(a.won)
    d = za / max(a.points.mean(), 1e-12) - zb / max(b.points.mean(), 1e-12)
    return float(d.std(ddof=1) / math.sqrt(n))


def tune(
    edition: str = "classic",
    trials: int = 100,
    games: int = 20_000,
    seed: int = 0,
    eval_games: int | None = None,
    threads: int = 1,
    progress: bool = True,
    objective: str = "rounds",
) -> TuneResult:
    """Search ``tuned``'s weights for ``edition`` (module docstring).

    Parameters
    ----------
    edition : str
        Edition of the tables (``RuleSet.build``).
    trials : int
        Weights the study tries (the first: heuristic's).
    games : int
        Rounds per table and trial, the same deals for every trial (``seed``).
    seed : int
        Seed of the tuning deals and of the sampler.
    eval_games : int, optional
        Rounds per table of the evaluation on fresh deals (seed + EVAL_SEED_OFFSET);
        default ``2 * games``; 0 skips it.
    threads : int
        Threads playing each table.
    progress : bool
        Print the best so far every 10 trials (stderr).
    objective : str
        ``"rounds"`` or ``"points"`` (:data:`OBJECTIVES`).

    Raises
    ------
    UserError
        An unknown edition or a count out of range (one line).
    """
    import optuna

    RuleSet.build(edition)  # an unknown edition: its own message, before any work
    if objective not in OBJECTIVES:
        raise UserError(f"tune: unknown objective {objective!r}; choose {' or '.join(OBJECTIVES)}")
    for name, v, lo in (("trials", trials, 1), ("games", games, 100), ("threads", threads, 1)):
        if not isinstance(v, int) or isinstance(v, bool) or v < lo:
            raise UserError(f"tune: {name} must be an integer >= {lo}, got {v!r}")
    eval_games = 2 * games if eval_games is None else eval_games
    if not isinstance(eval_games, int) or eval_games < 0 or 0 < eval_games < 100:
        raise UserError(f"tune: eval_games must be 0 or an integer >= 100, got {eval_games!r}")
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    study = optuna.create_study(
        direction="maximize",
        sampler=optuna.samplers.TPESampler(seed=seed % 2**32, multivariate=True),
    )
    study.enqueue_trial(dict(HEURISTIC_WEIGHTS))

    def score(trial):
        w = {k: trial.suggest_float(k, lo, hi) for k, (lo, hi) in SPACE.items()}
        return _objective(play_tables(edition, w, games, seed, threads), objective)

    def report(study, trial):
        if progress and (trial.number + 1) % 10 == 0:
            print(
                f"tune {edition}: trial {trial.number + 1}/{trials}, best "
                f"{study.best_value:+.2f} points above fair share",
                file=sys.stderr,
            )

    study.optimize(score, n_trials=trials, callbacks=[report])
    best = {k: float(study.best_params[k]) for k in TUNED_WEIGHTS}
    first = study.trials[0].value
    assert first is not None  # trial 0 completed: score returns a number or raises
    res = TuneResult(
        edition, objective, trials, games, seed, best, float(study.best_value), float(first)
    )
    if eval_games:
        res.evaluation = _evaluate(edition, best, eval_games, seed + EVAL_SEED_OFFSET, threads)
    return res


def format_tune(res: TuneResult) -> str:
    """A Markdown summary of a :class:`TuneResult`."""
    lines = [
        f"# tuned weights for {res.edition}",
        "",
        f"{res.trials} trials, {res.games:,} rounds per table and trial (seed {res.seed}, "
        f"the same deals for every trial)",
        "",
        f"best: `{res.bot}`",
        "",
        f"objective (mean share of {OBJECTIVES[res.objective]} above fair share, "
        f"tuning deals, in percentage points): best "
        f"{res.best_objective:+.2f} pp, heuristic's weights "
        f"{res.heuristic_objective:+.2f} pp",
    ]
    if res.evaluation:
        lines += [
            "",
            "On fresh deals (seats rotated; gain: paired, over heuristic's weights "
            "on the same rounds, in percentage points (pp), with its standard error and "
            "95% interval; share of points: of the points the table scored):",
            "",
            "| table | rounds | share of rounds [95%] | heuristic | gain, pp (se) [95%] "
            "| share of points | heuristic | gain, pp (se) [95%] |",
            "|---|---|---|---|---|---|---|---|",
        ]

        def gain(g, se):
            return (
                f"{100 * g:+.2f} ({100 * se:.2f}) [{100 * (g - Z95 * se):+.2f}, "
                f"{100 * (g + Z95 * se):+.2f}]"
            )

        for e in res.evaluation:
            lines.append(
                f"| {e['table']} | {e['rounds']:,} | {100 * e['share']:.2f}% "
                f"[{100 * e['low']:.1f}, {100 * e['high']:.1f}] | "
                f"{100 * e['heuristic_share']:.2f}% | {gain(e['gain'], e['gain_se'])} "
                f"| {100 * e['points_share']:.2f}% | "
                f"{100 * e['heuristic_points_share']:.2f}% | "
                f"{gain(e['points_gain'], e['points_gain_se'])} |"
            )
    return "\n".join(lines)
