"""Is one edition (or wheel, or house rule) fairer than another? Balance side by side."""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats as sps

from .seats import first_player_advantage, seat_win_rates
from .summary import mean_interval

__all__ = ["balance_table"]


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
        of the seat that acts first minus 1/players, + Wilson CI), ``seat_spread`` (best minus
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
        rows.append({
            "label": label, "games": len(rounds),
            "mean_turns": t, "mean_turns_low": tlo, "mean_turns_high": thi,
            "first_player_advantage": fpa["advantage"],
            "first_player_advantage_low": fpa["low"] - fpa["fair"],
            "first_player_advantage_high": fpa["high"] - fpa["fair"],
            "seat_spread": float(seats["rate"].max() - seats["rate"].min()),
            "seat_equality_p": _seat_chi2(rounds),
            "mean_winner_points": wp, "mean_winner_points_low": wlo,
            "mean_winner_points_high": whi,
            "spins_per_round": float(rounds["spins"].mean()) if "spins" in rounds else 0.0,
            "unfinished": int((rounds["winner"] < 0).sum()),
        })
    return pd.DataFrame(rows).set_index("label")
