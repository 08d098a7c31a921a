"""How long is the race to 500 points, and how much of it is luck?

Matches are assembled from consecutive rounds of a results table. In a match the deal passes
clockwise, so round k of a match has its dealer k seats further on; every simulated round has
the dealer at seat N-1, so round k is the simulated round with its seats relabelled: player i
of the match sits at simulated seat (i - k) mod N. That relabelling is exact only when every
seat has the same bot, which :func:`assemble_matches` checks -- unless the run rotated its bots
(``simulate(..., rotate_bots=True)``): then game g already seats player i at (i - g) mod N,
the deal passes from game to game, and matches of any mix of bots are exact.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..errors import UserError
from .stats import mean_interval, players_of, wilson_interval

__all__ = ["assemble_matches", "race_summary", "player_win_rates", "with_round_wins"]

MODES = ("race", "lowest")



def assemble_matches(rounds: pd.DataFrame, target: int = 500, mode: str = "race",
                     bots=None, rotated: bool = False) -> pd.DataFrame:
    """Play matches to ``target`` points from consecutive rounds (in ``game`` order).

    Parameters
    ----------
    rounds : pandas.DataFrame
        A round table.
    target : int
        Points that end a match (default 500).
    mode : {"race", "lowest"}
        ``race``: each round's winner scores the points left in the other hands; the first
        to reach ``target`` wins. ``lowest``: every player adds the points left in their own
        hand; when someone passes ``target`` (more than ``target``), the lowest total wins
        (ties: the lowest player number).
    bots : sequence of str, optional
        The bots of the run (``meta["bots"]``); unless ``rotated``, they must be identical
        on every seat.
    rotated : bool
        The run rotated its bots (``meta["rotate_bots"]``): player ``i`` is the ``i``-th bot.

    Returns
    -------
    pandas.DataFrame
        One row per complete match: ``match``, ``first_game``, ``rounds``, ``winner``
        (player), ``rounds_won_by_winner``, ``most_rounds_won`` and ``score_<i>``. Rounds
        left over after the last complete match are dropped; an unfinished round (turn cap)
        scores nothing.
    """
    if mode not in MODES:
        raise UserError(f"unknown match mode {mode!r} (known: {', '.join(MODES)})")
    if target <= 0:
        raise UserError(f"target must be > 0, got {target}")
    if not rotated and bots is not None and len(set(bots)) > 1:
        raise UserError("match analysis needs the same bot on every seat "
                        "(the dealer rotation is a relabelling of seats only then), or a run "
                        "with rotated bots (run --rotate-bots)")
    p = players_of(rounds)
    df = rounds.sort_values("game")
    winner = df["winner"].to_numpy().astype(np.int64)
    wpts = df["winner_points"].to_numpy().astype(np.int64)
    left = df[[f"points_left_{i}" for i in range(p)]].to_numpy()
    games = df["game"].to_numpy().astype(np.int64)
    rows = []
    score = np.zeros(p, np.int64)
    won = np.zeros(p, np.int64)
    k = 0
    first = 0
    for j in range(len(df)):
        # player i sits at simulated seat (i - offset) mod p
        offset = games[j] if rotated else k
        seat_of = (np.arange(p) - offset) % p
        w = winner[j]
        if w >= 0:
            player = (w + offset) % p
            won[player] += 1
            if mode == "race":
                score[player] += wpts[j]
            else:
                score += left[j, seat_of]
        k += 1
        if (score.max() >= target) if mode == "race" else (score.max() > target):
            if mode == "race":
                champ = int(np.argmax(score))
            else:
                champ = int(np.argmin(score))
            row = {"match": len(rows), "first_game": int(games[first]), "rounds": k,
                   "winner": champ, "rounds_won_by_winner": int(won[champ]),
                   "most_rounds_won": int(won.max())}
            row.update({f"score_{i}": int(score[i]) for i in range(p)})
            rows.append(row)
            score[:] = 0
            won[:] = 0
            k = 0
            first = j + 1
    cols = ["match", "first_game", "rounds", "winner", "rounds_won_by_winner",
            "most_rounds_won"] + [f"score_{i}" for i in range(p)]
    return pd.DataFrame(rows, columns=cols)


def with_round_wins(rounds: pd.DataFrame, matches: pd.DataFrame) -> pd.DataFrame:
    """A match table played in the engine (match mode) with the columns
    ``rounds_won_by_winner`` and ``most_rounds_won`` that :func:`race_summary` needs (the
    match-mode round table's ``winner`` is a player)."""
    p = sum(1 for c in matches.columns if c.startswith("score_"))
    won = np.zeros((len(matches), p), np.int64)
    w = rounds["winner"].to_numpy().astype(np.int64)
    m = rounds["match"].to_numpy().astype(np.int64)
    ok = w >= 0
    row = {mt: i for i, mt in enumerate(matches["match"].to_numpy().tolist())}
    np.add.at(won, (np.array([row[x] for x in m[ok].tolist()], np.int64), w[ok]), 1)
    out = matches.copy()
    champ = out["winner"].to_numpy().astype(np.int64)
    out["rounds_won_by_winner"] = np.where(champ >= 0, won[np.arange(len(out)),
                                                           np.maximum(champ, 0)], 0)
    out["most_rounds_won"] = won.max(axis=1) if p else 0
    return out


def race_summary(matches: pd.DataFrame) -> pd.DataFrame:
    """Match length and luck measures, with 95% intervals.

    Rows: ``rounds_per_match`` (mean), ``p_winner_not_most_rounds`` (the winner won fewer
    rounds than some other player: points, not round wins, decided it) and one
    ``win_rate_player_<i>`` per player (players differ only by where the first deal fell).
    """
    n = len(matches)
    if n == 0:
        raise UserError("no complete match in these rounds: play more games")
    out = []
    m, lo, hi = mean_interval(matches["rounds"])
    out.append(("rounds_per_match", m, lo, hi))
    k = int((matches["rounds_won_by_winner"] < matches["most_rounds_won"]).sum())
    lo, hi = wilson_interval(k, n)
    out.append(("p_winner_not_most_rounds", k / n, lo, hi))
    players = sum(1 for c in matches.columns if c.startswith("score_"))
    for i in range(players):
        k = int((matches["winner"] == i).sum())
        lo, hi = wilson_interval(k, n)
        out.append((f"win_rate_player_{i}", k / n, lo, hi))
    return pd.DataFrame(out, columns=["statistic", "value", "low", "high"]).set_index("statistic")


def player_win_rates(rounds: pd.DataFrame, rotated: bool = False,
                     players: int | None = None) -> pd.DataFrame:
    """Round win rate of every player (bot) with a 95% Wilson interval.

    Without rotation players are seats; with ``rotated`` (``meta["rotate_bots"]``) the winner
    seat ``s`` of game ``g`` is player ``(s + g) mod N``, so each player's rate is averaged over
    every seat.
    """
    p = players_of(rounds) if players is None else players
    w = rounds["winner"].to_numpy().astype(np.int64)
    won = w >= 0
    players = w.copy()
    if rotated:
        players[won] = (w[won] + rounds["game"].to_numpy()[won]) % p
    n = len(rounds)
    wins = np.bincount(players[won].astype(np.int64), minlength=p)[:p]
    low, high = wilson_interval(wins, np.full(p, n))
    return pd.DataFrame({"wins": wins, "rate": wins / n, "low": low, "high": high},
                        index=pd.RangeIndex(p, name="player"))
