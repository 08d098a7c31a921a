"""The end-of-run summary: games, speed, unfinished rounds, seat win rates, mean turns.

:func:`summarize` returns a tidy table (one row per statistic, with a 95% interval where
one applies) and :func:`format_summary` renders it for the terminal.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from .stats import Z95, mean_interval, players_of, wilson_interval

__all__ = ["Z95", "wilson_interval", "mean_interval", "summarize", "format_summary",
           "format_match_summary"]

def summarize(rounds: pd.DataFrame, players: int | None = None,
              seconds: float | None = None) -> pd.DataFrame:
    """Summary statistics of a round table.

    Parameters
    ----------
    rounds : pandas.DataFrame
        The round table (needs ``winner`` and ``turns``).
    players : int, optional
        Number of seats; inferred from the ``cards_left_<i>`` columns when omitted.
    seconds : float, optional
        Wall time of the run; adds ``seconds`` and ``games_per_second`` rows.

    Returns
    -------
    pandas.DataFrame
        Columns ``statistic``, ``value``, ``ci_low``, ``ci_high`` (NaN where no interval
        applies).  Rows: ``games``, [``seconds``, ``games_per_second``,] ``unfinished``,
        ``win_rate_<i>`` per seat (wins / all games, Wilson 95% interval) and
        ``mean_turns`` (95% normal interval).
    """
    if players is None:
        players = players_of(rounds)
    n = len(rounds)
    nan = math.nan
    rows = [("games", float(n), nan, nan)]
    if seconds is not None:
        rows.append(("seconds", float(seconds), nan, nan))
        rows.append(("games_per_second", n / seconds if seconds > 0 else nan, nan, nan))
    winner = rounds["winner"].to_numpy()
    rows.append(("unfinished", float(np.count_nonzero(winner < 0)), nan, nan))
    wins = np.bincount(winner[winner >= 0].astype(np.int64), minlength=players)[:players]
    low, high = wilson_interval(wins, n)
    for seat in range(players):
        rate = wins[seat] / n if n else nan
        rows.append((f"win_rate_{seat}", rate, float(low[seat]), float(high[seat])))
    rows.append(("mean_turns", *mean_interval(rounds["turns"].to_numpy())))
    return pd.DataFrame(rows, columns=["statistic", "value", "ci_low", "ci_high"])


def format_summary(summary: pd.DataFrame, who: str = "seat") -> str:
    """Render a :func:`summarize` table as a few aligned lines of text.

    Parameters
    ----------
    summary : pandas.DataFrame
        The output of :func:`summarize`.
    who : str
        Heading of the win-rate rows: ``"seat"``, or ``"player"`` for a match-mode round
        table (whose seat columns are players).

    Returns
    -------
    str
        Multi-line text without a trailing newline.
    """
    s = summary.set_index("statistic")
    games = int(s.at["games", "value"])
    head = f"games       {games:,}"
    if "seconds" in s.index:
        gps = s.at["games_per_second", "value"]
        speed = f"{gps:,.0f} games/s" if math.isfinite(gps) else "- games/s"
        head += f" in {s.at['seconds', 'value']:.2f} s ({speed})"
    unfinished = int(s.at["unfinished", "value"])
    share = f" ({unfinished / games:.2%})" if games else ""
    lines = [head, f"unfinished  {unfinished:,}{share}", f"{who:>4}  win rate  95% interval"]
    for name in s.index:
        if name.startswith("win_rate_"):
            v, lo, hi = s.loc[name, ["value", "ci_low", "ci_high"]]
            lines.append(f"{name[9:]:>4}  {v:8.4f}  [{lo:.4f}, {hi:.4f}]")
    v, lo, hi = s.loc["mean_turns", ["value", "ci_low", "ci_high"]]
    lines.append(f"mean turns  {v:.3f}  95% interval [{lo:.3f}, {hi:.3f}]")
    return "\n".join(lines)


def format_match_summary(matches: pd.DataFrame, players: int,
                         seconds: float | None = None) -> str:
    """A few lines on a match table (match mode): matches, speed, rounds per match and
    each player's match win rate with a 95% Wilson interval (players are the bots in order;
    winner -1: a match still running after the runner's round limit)."""
    n = len(matches)
    head = f"matches     {n:,}"
    if seconds is not None and seconds > 0:
        head += f" ({n / seconds:,.1f} matches/s)"
    lines = [head]
    if n == 0:
        return "\n".join(lines)
    m, lo, hi = mean_interval(matches["rounds"].to_numpy())
    lines.append(f"rounds per match  {m:.3f}  95% interval [{lo:.3f}, {hi:.3f}]")
    w = matches["winner"].to_numpy().astype(np.int64)
    unfinished = int(np.count_nonzero(w < 0))
    if unfinished:
        lines.append(f"matches without a winner  {unfinished:,}")
    wins = np.bincount(w[w >= 0], minlength=players)[:players]
    low, high = wilson_interval(wins, n)
    lines.append("player  match win rate  95% interval")
    for i in range(players):
        lines.append(f"{i:>6}  {wins[i] / n:14.4f}  [{low[i]:.4f}, {high[i]:.4f}]")
    return "\n".join(lines)
