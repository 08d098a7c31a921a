"""Is one edition (or wheel, or house rule) fairer than another? Balance side by side."""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats as sps

from .seats import acts_first_won, first_player_advantage, seat_win_rates
from .summary import mean_interval

__all__ = ["balance_table", "difference_table", "sensitivity_table"]


def _seat_chi2(rounds: pd.DataFrame) -> float:
    """p-value of the chi-square test that every seat wins equally often."""
    t = seat_win_rates(rounds)
    wins = t["wins"].to_numpy(float)
    if wins.sum() == 0:
        return float("nan")
    return float(sps.chisquare(wins).pvalue)


def balance_table(results: dict[str, pd.DataFrame]) -> pd.DataFrame:
    """Balance measures for several round tables, one row per label.

    Parameters
    ----------
    results : dict
        ``{label: rounds}``, e.g. ``{"spin2005": r5.rounds, "spin2025": r25.rounds}``.

    Returns
    -------
    pandas.DataFrame
        Per label: ``games``, ``mean_turns`` (+ 95% CI), ``first_player_advantage`` (win rate
        of the player who acts first, after the first card's effect, minus 1/players, +
        Wilson CI: :func:`~unospin_sim.analysis.seats.first_player_advantage`), ``seat_spread`` (best minus
        worst seat win rate), ``seat_equality_p`` (chi-square p-value that all seats win
        equally), ``mean_winner_points`` (+ CI), ``spins_per_round`` and ``unfinished``.

    Examples
    --------
    >>> balance_table({"2005": a.rounds, "2025": b.rounds})  # doctest: +SKIP
    """
    rows = []
    for label, rounds in results.items():
        seats = seat_win_rates(rounds)
        fpa = first_player_advantage(rounds)
        t, tlo, thi = mean_interval(rounds["turns"])
        w = rounds.loc[rounds["winner"] >= 0, "winner_points"]
        wp, wlo, whi = mean_interval(w) if len(w) else (np.nan, np.nan, np.nan)
        rows.append(
            {
                "label": label,
                "games": len(rounds),
                "mean_turns": t,
                "mean_turns_low": tlo,
                "mean_turns_high": thi,
                "first_player_advantage": fpa["advantage"],
                "first_player_advantage_low": fpa["low"] - fpa["fair"],
                "first_player_advantage_high": fpa["high"] - fpa["fair"],
                "seat_spread": float(seats["rate"].max() - seats["rate"].min()),
                "seat_equality_p": _seat_chi2(rounds),
                "mean_winner_points": wp,
                "mean_winner_points_low": wlo,
                "mean_winner_points_high": whi,
                "spins_per_round": float(rounds["spins"].mean()) if "spins" in rounds else 0.0,
                "unfinished": int((rounds["winner"] < 0).sum()),
            }
        )
    return pd.DataFrame(rows).set_index("label")


def _mean_se(x):
    x = np.asarray(x, float)
    if len(x) < 2:
        return float(x.mean()) if len(x) else np.nan, np.nan
    return float(x.mean()), float(x.std(ddof=1) / np.sqrt(len(x)))


def _measures(rounds: pd.DataFrame, target: int | None) -> dict:
    """Per-round (and, with ``target``, per-match) measures as (estimate, standard error)."""
    from .race import match_rounds, race_dynamics
    from .stats import players_of

    p = players_of(rounds)
    out = {}
    out["mean_turns"] = _mean_se(rounds["turns"])
    fp = acts_first_won(rounds).astype(float)
    m, se = _mean_se(fp)
    out["first_player_advantage"] = (m - 1.0 / p, se)
    won = rounds["winner"] >= 0
    out["mean_winner_points"] = _mean_se(rounds.loc[won, "winner_points"])
    if "spins" in rounds:
        out["spins_per_round"] = _mean_se(rounds["spins"])
    if target:
        try:
            mr = match_rounds(rounds, target=target)
            d = race_dynamics(mr)
        except Exception:
            return out
        for k in ("rounds_per_match", "comeback_rate", "lead_changes", "first_player_match_win"):
            v, lo, hi = d.loc[k, ["value", "low", "high"]]
            out[k] = (float(v), float(hi - lo) / (2 * 1.959963984540054))
    return out


def difference_table(
    results: dict[str, pd.DataFrame], base: str | None = None, target: int | None = 500
) -> pd.DataFrame:
    """Every run against ``base`` (default the first): per measure the two values and their
    difference with a 95% interval (independent samples).

    Measures: ``mean_turns``, ``first_player_advantage`` (round win rate of the player who
    acts first minus a fair share), ``mean_winner_points``, ``spins_per_round`` and, with ``target``
    (matches assembled from the rounds; same bot on every seat), ``rounds_per_match``,
    ``comeback_rate`` (won after trailing by >= 100 points), ``lead_changes`` and
    ``first_player_match_win``.

    Returns
    -------
    pandas.DataFrame
        Indexed by (``label``, ``measure``): ``base``, ``value``, ``difference``, ``low``,
        ``high``, ``holds`` (+1 the interval is above 0, -1 below, 0 contains 0).
    """
    labels = list(results)
    base = labels[0] if base is None else base
    mb = _measures(results[base], target)
    rows = []
    for label in labels:
        if label == base:
            continue
        ma = _measures(results[label], target)
        for k, (vb, sb) in mb.items():
            if k not in ma:
                continue
            va, sa = ma[k]
            d = va - vb
            half = 1.959963984540054 * float(np.hypot(sa, sb))
            holds = 1 if d - half > 0 else (-1 if d + half < 0 else 0)
            rows.append(
                {
                    "label": label,
                    "measure": k,
                    "base": vb,
                    "value": va,
                    "difference": d,
                    "low": d - half,
                    "high": d + half,
                    "holds": holds,
                }
            )
    return pd.DataFrame(rows).set_index(["label", "measure"])


def sensitivity_table(diff: pd.DataFrame) -> pd.DataFrame:
    """Which verdicts of :func:`difference_table` hold under every alternative run (e.g.
    every 2025 wheel layout against 2005): per measure the direction under each label
    (``+``, ``-``, ``0``) and ``verdict``: ``holds: higher`` / ``holds: lower`` when every
    label agrees, ``flips`` when some are clearly higher and others clearly lower,
    ``not everywhere`` when some show a difference and others none, ``no difference``."""
    sign = diff["holds"].map({1: "+", -1: "-", 0: "0"}).unstack("label")

    def verdict(row):
        s = set(row.dropna())
        if s == {"+"}:
            return "holds: higher"
        if s == {"-"}:
            return "holds: lower"
        if {"+", "-"} <= s:
            return "flips"
        return "not everywhere" if len(s) > 1 else "no difference"

    sign["verdict"] = sign.apply(verdict, axis=1)
    return sign
