"""Drama: how often the eventual winner was behind, and how often the lead changed hands.

A contest (a round, or a match) is a sequence of **standings**: row ``c`` of an
``int[n + 1, players]`` array is every player's standing after ``c`` of its ``n`` steps (row
0 at the start). In a round a step is a turn and the standing the cards in hand (fewer is
better); in a match a step is a round and the standing the running score (more is better
under ``match=race``, fewer under ``match=lowest``).

- The **leader** after step ``c`` is the player strictly best there; on a tie for best
  there is no leader (as the spin table's ``leader`` column).
- The winner **came back** when, at some row ``c`` with ``3c >= n`` (after at least the
  first third of the steps, the last row included), it stood strictly worst: for cards,
  more than every other player (a tie for the most does not count).
- **Lead changes** count the times the leader differs from the previous leader, rows
  without a leader skipped: a tie never changes the lead, and the first leader is no change.
  The last row counts (a winner of a round leads it alone with no card).

:func:`contest_drama` measures one contest; :func:`drama_summary` a sample, with a 95%
Wilson interval on the comeback share and a normal interval on the mean lead changes.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import pandas as pd

from .stats import mean_interval, wilson_interval

__all__ = ["contest_drama", "drama_summary", "match_standings"]


def _leaders(standing: np.ndarray, lower_is_better: bool) -> np.ndarray:
    """Per row: the player strictly best, -1 on a tie for best."""
    x = -standing if lower_is_better else standing
    top = x.max(axis=1)
    sole = (x == top[:, None]).sum(axis=1) == 1
    return np.where(sole, x.argmax(axis=1), -1)


def contest_drama(standing, winner: int, *, lower_is_better: bool) -> tuple[bool, int]:
    """Whether the winner came back, and the lead changes, of one contest.

    Parameters
    ----------
    standing : array_like
        ``int[n + 1, players]``: every player's standing after each of the ``n`` steps (row 0
        at the start; at least two rows).
    winner : int
        The player who won (0-based).
    lower_is_better : bool
        True for cards in hand (and ``match=lowest`` scores), False for race scores.

    Returns
    -------
    (came_back, lead_changes)

    Examples
    --------
    >>> contest_drama([[7, 7], [6, 8], [8, 5], [9, 4], [0, 5]], 0, lower_is_better=True)
    (True, 2)
    """
    s = np.asarray(standing, np.int64)
    if s.ndim != 2 or len(s) < 2 or not 0 <= winner < s.shape[1]:
        raise ValueError("standing must be int[n + 1, players] with n >= 1 and a valid winner")
    n = len(s) - 1
    late = s[-(-n // 3) :]  # rows c with 3c >= n
    others = np.delete(late, winner, axis=1)
    if lower_is_better:
        worst = (late[:, winner] > others.max(axis=1)).any()
    else:
        worst = (late[:, winner] < others.min(axis=1)).any()
    lead = _leaders(s, lower_is_better)
    lead = lead[lead >= 0]
    return bool(worst), int(np.count_nonzero(lead[1:] != lead[:-1]))


def drama_summary(contests: Iterable[tuple[np.ndarray, int]], *, lower_is_better: bool) -> dict:
    """Drama of a sample of finished contests, with 95% intervals.

    Parameters
    ----------
    contests : iterable of (standing, winner)
        As :func:`contest_drama` takes them.
    lower_is_better : bool
        As in :func:`contest_drama`.

    Returns
    -------
    dict
        ``n`` contests; ``comeback`` (percent of contests whose winner came back) with its
        Wilson interval ``comeback_low``, ``comeback_high``; ``lead_changes`` (mean per
        contest) with ``lead_changes_low``, ``lead_changes_high``. NaN when ``n`` is 0.
    """
    back, changes = [], []
    for standing, winner in contests:
        b, c = contest_drama(standing, winner, lower_is_better=lower_is_better)
        back.append(b)
        changes.append(c)
    n, k = len(back), int(np.sum(back))
    low, high = wilson_interval(k, n) if n else (np.nan, np.nan)
    mean, mlow, mhigh = mean_interval(changes)
    return {
        "n": n,
        "comeback": 100 * k / n if n else np.nan,
        "comeback_low": 100 * low,
        "comeback_high": 100 * high,
        "lead_changes": mean,
        "lead_changes_low": mlow,
        "lead_changes_high": mhigh,
    }


def match_standings(rounds: pd.DataFrame, matches: pd.DataFrame):
    """(standing, winner) of every finished match of a match-mode run: row ``c`` the running
    scores after ``c`` rounds (row 0 all zero), the winner the match table's.

    Parameters
    ----------
    rounds : pandas.DataFrame
        The run's round table (``match``, ``round``, ``score_<i>``).
    matches : pandas.DataFrame
        Its match table (``match``, ``winner``: -1 unfinished).
    """
    p = sum(1 for c in matches.columns if c.startswith("score_"))
    champ = dict(zip(matches["match"].tolist(), matches["winner"].tolist()))
    df = rounds.sort_values(["match", "round"], kind="stable")
    sc = df[[f"score_{i}" for i in range(p)]].to_numpy(np.int64)
    m = df["match"].to_numpy(np.int64)
    starts = np.r_[0, np.flatnonzero(np.diff(m)) + 1, len(m)] if len(m) else np.zeros(1, int)
    for a, b in zip(starts[:-1], starts[1:]):
        w = champ.get(int(m[a]), -1)
        if w >= 0:
            yield np.vstack([np.zeros((1, p), np.int64), sc[a:b]]), int(w)
