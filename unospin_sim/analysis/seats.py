"""Does the seat you sit in matter? Seat win rates and the first player's advantage."""

from __future__ import annotations

import numpy as np
import pandas as pd

from .stats import Z95, players_of, wilson_interval

__all__ = ["first_player_advantage", "seat_win_rates"]


def seat_win_rates(rounds: pd.DataFrame) -> pd.DataFrame:
    """Win rate of every seat with a 95% Wilson interval.

    Returns
    -------
    pandas.DataFrame
        Indexed by ``seat``: ``wins``, ``rate``, ``low``, ``high``, ``fair`` (1/players) and
        ``excess`` = rate - fair. Unfinished rounds count as won by nobody.
    """
    p = players_of(rounds)
    n = len(rounds)
    wins = rounds["winner"].value_counts().reindex(range(p), fill_value=0).to_numpy()
    low, high = wilson_interval(wins, np.full(p, n))
    rate = wins / n if n else np.full(p, np.nan)
    return pd.DataFrame(
        {
            "wins": wins,
            "rate": rate,
            "low": low,
            "high": high,
            "fair": 1.0 / p,
            "excess": rate - 1.0 / p,
        },
        index=pd.RangeIndex(p, name="seat"),
    )


def first_player_advantage(rounds: pd.DataFrame, z: float = Z95) -> dict:
    """How much more often the seat that acts first wins than a fair share (1/players).

    Returns
    -------
    dict
        ``rate``, ``low``, ``high`` (Wilson), ``fair`` and ``advantage`` = rate - fair.
    """
    p = players_of(rounds)
    k = int((rounds["winner"] == rounds["first_player"]).sum())
    n = len(rounds)
    low, high = wilson_interval(k, n, z)
    rate = k / n
    return {"rate": rate, "low": low, "high": high, "fair": 1.0 / p, "advantage": rate - 1.0 / p}
