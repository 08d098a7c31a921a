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

from ..engine.match import add_round, match_winner
from ..errors import UserError
from .stats import mean_interval, players_of, wilson_interval

__all__ = [
    "assemble_matches",
    "lead_heat_table",
    "lead_win_table",
    "match_rounds",
    "played_match_rounds",
    "player_win_rates",
    "race_dynamics",
    "race_summary",
    "target_curve",
    "with_round_wins",
]

MODES = ("race", "lowest")


def assemble_matches(
    rounds: pd.DataFrame, target: int = 500, mode: str = "race", bots=None, rotated: bool = False
) -> pd.DataFrame:
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
        raise UserError(
            "match analysis needs the same bot on every seat "
            "(the dealer rotation is a relabelling of seats only then), or a run "
            "with rotated bots (run --rotate-bots)"
        )
    p = players_of(rounds)
    df = rounds.sort_values("game")
    winner = df["winner"].to_numpy().astype(np.int64)
    wpts = df["winner_points"].to_numpy().astype(np.int64)
    left = df[[f"points_left_{i}" for i in range(p)]].to_numpy()
    games = df["game"].to_numpy().astype(np.int64)
    rows: list[dict[str, int]] = []
    score = np.zeros(p, np.int64)
    won = np.zeros(p, np.int64)
    k = 0
    first = 0
    lowest = mode == "lowest"
    for j in range(len(df)):
        # player i sits at simulated seat (i - offset) mod p
        offset = games[j] if rotated else k
        w = winner[j]
        if w >= 0:
            won[(w + offset) % p] += 1
        add_round(score, lowest, 0, offset, w, left[j], wpts[j])
        k += 1
        champ = match_winner(score, lowest, target)
        if champ >= 0:
            row = {
                "match": len(rows),
                "first_game": int(games[first]),
                "rounds": k,
                "winner": champ,
                "rounds_won_by_winner": int(won[champ]),
                "most_rounds_won": int(won.max()),
            }
            row.update({f"score_{i}": int(score[i]) for i in range(p)})
            rows.append(row)
            score[:] = 0
            won[:] = 0
            k = 0
            first = j + 1
    cols = [
        "match",
        "first_game",
        "rounds",
        "winner",
        "rounds_won_by_winner",
        "most_rounds_won",
    ] + [f"score_{i}" for i in range(p)]
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
    out["rounds_won_by_winner"] = np.where(
        champ >= 0, won[np.arange(len(out)), np.maximum(champ, 0)], 0
    )
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


def player_win_rates(
    rounds: pd.DataFrame, rotated: bool = False, players: int | None = None
) -> pd.DataFrame:
    """Round win rate of every player (bot) with a 95% Wilson interval.

    Without rotation players are seats; with ``rotated`` (``meta["rotate_bots"]``) the winner
    seat ``s`` of game ``g`` is player ``(s + g) mod N``, so each player's rate is averaged over
    every seat.
    """
    p = players_of(rounds) if players is None else players
    w = rounds["winner"].to_numpy().astype(np.int64)
    won = w >= 0
    player = w.copy()  # the player of each round's winning seat
    if rotated:
        player[won] = (w[won] + rounds["game"].to_numpy()[won]) % p
    n = len(rounds)
    wins = np.bincount(player[won].astype(np.int64), minlength=p)[:p]
    low, high = wilson_interval(wins, np.full(p, n))
    return pd.DataFrame(
        {"wins": wins, "rate": wins / n, "low": low, "high": high},
        index=pd.RangeIndex(p, name="player"),
    )


def played_match_rounds(rounds: pd.DataFrame, matches: pd.DataFrame) -> pd.DataFrame:
    """:func:`match_rounds` of matches played in the engine (match mode ``race``): the same
    columns, read from the round table's ``match``, ``round`` and ``score_<i>`` (its
    ``winner`` is a player) and the match table's ``winner``; matches that did not finish
    (winner -1) are left out."""
    p = sum(1 for c in matches.columns if c.startswith("score_"))
    champ = dict(zip(matches["match"].to_numpy().tolist(), matches["winner"].to_numpy().tolist()))
    df = rounds.sort_values(["match", "round"], kind="stable")
    mw = np.array([champ.get(m, -1) for m in df["match"].to_numpy().tolist()], np.int64)
    keep = mw >= 0
    df = df[keep]
    return _match_rounds_frame(
        df["match"].to_numpy(np.int64),
        df["round"].to_numpy(np.int64) + 1,
        df["game"].to_numpy(np.int64),
        df["turns"].to_numpy(np.int64),
        df["winner"].to_numpy(np.int64),
        df[[f"score_{i}" for i in range(p)]].to_numpy(np.int64),
        mw[keep],
    )


def _match_rounds_frame(match, k, game, turns, winner, sc, match_winner) -> pd.DataFrame:
    """The :func:`match_rounds` table from its columns (``sc``: running scores, one column
    per player); adds ``leader`` (the player with strictly the highest score, -1 on a tie)."""
    out = pd.DataFrame({"match": match, "k": k, "game": game, "turns": turns, "winner": winner})
    for i in range(sc.shape[1]):
        out[f"score_{i}"] = sc[:, i]
    if len(sc):
        top = sc.max(axis=1)
        ties = (sc == top[:, None]).sum(axis=1)
        out["leader"] = np.where(ties == 1, sc.argmax(axis=1), -1)
    else:
        out["leader"] = pd.Series([], dtype=np.int64)
    out["match_winner"] = match_winner
    return out


def match_rounds(
    rounds: pd.DataFrame, target: int = 500, bots=None, rotated: bool = False
) -> pd.DataFrame:
    """The race to ``target`` round by round: one row per round of every complete match.

    Same assembly as :func:`assemble_matches` (mode ``race``). Columns: ``match``, ``k``
    (round of the match, from 1), ``game``, ``turns``, ``winner`` (player, -1 unfinished),
    ``score_<i>`` (player i's running score after the round), ``leader`` (the player with
    the strictly highest score, -1 on a tie) and ``match_winner``.
    """
    if target <= 0:
        raise UserError(f"target must be > 0, got {target}")
    if not rotated and bots is not None and len(set(bots)) > 1:
        raise UserError(
            "match analysis needs the same bot on every seat, or a run with "
            "rotated bots (run --rotate-bots)"
        )
    p = players_of(rounds)
    df = rounds.sort_values("game")
    winner = df["winner"].to_numpy().astype(np.int64)
    wpts = df["winner_points"].to_numpy().astype(np.int64)
    games = df["game"].to_numpy().astype(np.int64)
    turns = df["turns"].to_numpy().astype(np.int64)
    left = df[[f"points_left_{i}" for i in range(p)]].to_numpy().astype(np.int64)
    n = len(df)
    score = np.zeros((n, p), np.int64)
    player_w = np.full(n, -1, np.int64)
    match = np.full(n, -1, np.int64)
    kk = np.zeros(n, np.int64)
    champ_of = []
    cur = np.zeros(p, np.int64)
    k, m, start = 0, 0, 0
    for j in range(n):
        offset = games[j] if rotated else k
        w = winner[j]
        if w >= 0:
            player_w[j] = (w + offset) % p
        add_round(cur, False, 0, offset, w, left[j], wpts[j])
        k += 1
        score[j] = cur
        kk[j] = k
        champ = match_winner(cur, False, target)
        if champ >= 0:
            match[start : j + 1] = m
            champ_of.append(champ)
            m += 1
            cur[:] = 0
            k = 0
            start = j + 1
    keep = match >= 0
    return _match_rounds_frame(
        match[keep],
        kk[keep],
        games[keep],
        turns[keep],
        player_w[keep],
        score[keep],
        np.asarray(champ_of, np.int64)[match[keep]],
    )


def lead_win_table(mr: pd.DataFrame, max_round: int = 10) -> pd.DataFrame:
    """P(win the match | sole leader after round k), k = 1..``max_round``, with Wilson
    intervals; ``n`` counts matches still running after round k with a sole leader."""
    rows = []
    last = mr.groupby("match")["k"].transform("max")
    for k in range(1, max_round + 1):
        sub = mr[(mr["k"] == k) & (mr["leader"] >= 0) & (last > k)]
        n = len(sub)
        won = int((sub["leader"] == sub["match_winner"]).sum())
        lo, hi = wilson_interval(won, n) if n else (np.nan, np.nan)
        rows.append(
            {"k": k, "n": n, "p_leader_wins": won / n if n else np.nan, "low": lo, "high": hi}
        )
    return pd.DataFrame(rows).set_index("k")


#: lead margins (points ahead of the second-placed player) of :func:`lead_heat_table`
LEAD_BINS = (1, 50, 100, 200, 300, 500)


def lead_heat_table(mr: pd.DataFrame, max_round: int = 8, bins=LEAD_BINS) -> pd.DataFrame:
    """P(win the match | sole leader after round k by a margin in a bin): the heat map of an
    early lead.  One row per (``k``, ``margin``) with ``n`` (matches still running after
    round k whose sole leader led by that margin), ``p_leader_wins`` and Wilson ``low`` /
    ``high``; ``margin`` labels the bin ``[a, b)`` as ``"a-b"`` (the last ``"a+"``).
    :func:`~unospin_sim.plots.plot_lead_heatmap` draws it."""
    p = sum(1 for c in mr.columns if c.startswith("score_"))
    sc = np.sort(mr[[f"score_{i}" for i in range(p)]].to_numpy(), axis=1)
    margin = sc[:, -1] - sc[:, -2] if p > 1 else sc[:, -1]
    last = mr.groupby("match")["k"].transform("max").to_numpy()
    edges = list(bins) + [np.inf]
    labels = [f"{a}-{b}" if b != np.inf else f"{a}+" for a, b in zip(edges[:-1], edges[1:])]
    k_all, lead, champ = mr["k"].to_numpy(), mr["leader"].to_numpy(), mr["match_winner"].to_numpy()
    rows = []
    for k in range(1, max_round + 1):
        at = (k_all == k) & (lead >= 0) & (last > k)
        for (a, b), label in zip(zip(edges[:-1], edges[1:]), labels):
            sel = at & (margin >= a) & (margin < b)
            n = int(sel.sum())
            won = int((lead[sel] == champ[sel]).sum())
            lo, hi = wilson_interval(won, n) if n else (np.nan, np.nan)
            rows.append(
                {
                    "k": k,
                    "margin": label,
                    "n": n,
                    "p_leader_wins": won / n if n else np.nan,
                    "low": lo,
                    "high": hi,
                }
            )
    out = pd.DataFrame(rows)
    out["margin"] = pd.Categorical(out["margin"], categories=labels, ordered=True)
    return out


def race_dynamics(mr: pd.DataFrame, comeback: int = 100) -> pd.DataFrame:
    """Per-match dynamics with 95% intervals: ``comeback_rate`` (the match winner trailed
    the leader by >= ``comeback`` points after some round), ``lead_changes`` (times the
    sole leader changed to another player), ``rounds_per_match``, ``turns_per_match`` and
    ``first_player_match_win`` (player 0 starts the first round; win rate minus a fair
    share)."""
    p = sum(1 for c in mr.columns if c.startswith("score_"))
    g = mr.groupby("match", sort=True)
    sc = mr[[f"score_{i}" for i in range(p)]].to_numpy()
    champ = mr["match_winner"].to_numpy()
    deficit = sc.max(axis=1) - sc[np.arange(len(sc)), champ]
    behind = pd.Series(deficit >= comeback).groupby(mr["match"].to_numpy()).any()
    n = len(behind)
    if n == 0:
        raise UserError("no complete match in these rounds: play more games")
    rows = []
    k = int(behind.sum())
    lo, hi = wilson_interval(k, n)
    rows.append(("comeback_rate", k / n, lo, hi))

    def changes(leaders):
        v = leaders[leaders >= 0]
        return int(np.count_nonzero(v[1:] != v[:-1])) if len(v) > 1 else 0

    lc = g["leader"].apply(lambda s: changes(s.to_numpy()))
    rows.append(("lead_changes", *mean_interval(lc)))
    rows.append(("rounds_per_match", *mean_interval(g["k"].max())))
    rows.append(("turns_per_match", *mean_interval(g["turns"].sum())))
    first = g["match_winner"].first()
    k0 = int((first == 0).sum())
    lo, hi = wilson_interval(k0, n)
    rows.append(("first_player_match_win", k0 / n - 1 / p, lo - 1 / p, hi - 1 / p))
    return pd.DataFrame(rows, columns=["statistic", "value", "low", "high"]).set_index("statistic")


def target_curve(
    rounds: pd.DataFrame,
    targets=(100, 200, 300, 500, 750, 1000),
    bots=None,
    rotated: bool = False,
    player: int = 0,
) -> pd.DataFrame:
    """How the target score shapes a match: per target, rounds per match and how often
    ``player`` wins the match (e.g. the better bot of a rotated mixed-bot run), with 95%
    intervals. Indexed by ``target``: ``matches``, ``rounds_per_match`` (+ ``_low`` /
    ``_high``), ``player_win_rate`` (+ ``_low`` / ``_high``)."""
    rows = []
    for t in targets:
        m = assemble_matches(rounds, target=int(t), bots=bots, rotated=rotated)
        n = len(m)
        r, rlo, rhi = mean_interval(m["rounds"]) if n else (np.nan, np.nan, np.nan)
        k = int((m["winner"] == player).sum())
        lo, hi = wilson_interval(k, n) if n else (np.nan, np.nan)
        rows.append(
            {
                "target": int(t),
                "matches": n,
                "rounds_per_match": r,
                "rounds_per_match_low": rlo,
                "rounds_per_match_high": rhi,
                "player_win_rate": k / n if n else np.nan,
                "player_win_rate_low": lo,
                "player_win_rate_high": hi,
            }
        )
    return pd.DataFrame(rows).set_index("target")
