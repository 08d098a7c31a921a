"""Bradley-Terry ratings of strategies from a tournament's pairings, and one pairing's row of
shares with their intervals (:mod:`.tournament` plays the pairings)."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from ..analysis.race import assemble_matches
from ..analysis.stats import Z95, wilson_interval

__all__ = ["TARGET", "fit_ratings", "pairing_row"]


#: points that end a match
TARGET = 500


def pairing_row(
    rounds: pd.DataFrame,
    players: int,
    kind: str,
    strategy: str,
    opponent: str,
    target: int = TARGET,
) -> dict:
    """Player 0's share of the rounds and of the matches of one rotated pairing."""
    w = rounds["winner"].to_numpy().astype(np.int64)
    g = rounds["game"].to_numpy().astype(np.int64)
    n = len(rounds)
    finished = int((w >= 0).sum())
    wins = int(((w >= 0) & ((w + g) % players == 0)).sum())
    lo, hi = wilson_interval(wins, n)
    m = assemble_matches(rounds, target=target, rotated=True)
    mw = int((m["winner"] == 0).sum())
    mlo, mhi = wilson_interval(mw, len(m)) if len(m) else (math.nan, math.nan)
    return {
        "kind": kind,
        "strategy": strategy,
        "opponent": opponent,
        "players": players,
        "rounds": n,
        "finished_rounds": finished,
        "round_wins": wins,
        "round_share": wins / n,
        "round_low": lo,
        "round_high": hi,
        "matches": len(m),
        "match_wins": mw,
        "match_share": mw / len(m) if len(m) else math.nan,
        "match_low": mlo,
        "match_high": mhi,
        "fair_share": 1.0 / players,
    }


def fit_ratings(
    tables: list[tuple[dict[str, int], dict[str, int], int]],
    reference: str | None = "random",
    ridge: float = 1e-6,
) -> pd.DataFrame:
    """Bradley-Terry (Luce choice) ratings from tables of rounds.

    Parameters
    ----------
    tables : list of (counts, wins, n)
        Per pairing: seats of each strategy at the table, rounds won by each strategy (summed
        over its seats), finished rounds.
    reference : str, optional
        Strategy whose rating is fixed at 0 (default random; the first strategy when absent).

    Returns
    -------
    pandas.DataFrame
        Indexed by strategy: ``rating`` (theta, the log-strength), ``low``, ``high`` (95%,
        Fisher information), ``p_vs_reference`` (the head-to-head round win probability
        against the reference the model implies), ``rank`` (1 = best).
    """
    names = sorted({s for c, _, _ in tables for s in c})
    if reference not in names:
        reference = names[0]
    idx = {s: i for i, s in enumerate(names)}
    k = len(names)
    C = np.zeros((len(tables), k))
    W = np.zeros((len(tables), k))
    N = np.zeros(len(tables))
    for t, (counts, wins, n) in enumerate(tables):
        for s, c in counts.items():
            C[t, idx[s]] += c
        for s, w in wins.items():
            W[t, idx[s]] += w
        N[t] = n
    free = [i for i in range(k) if names[i] != reference]
    theta = np.zeros(k)

    def grad_hess(th):
        e = C * np.exp(th)[None, :]
        pi = e / e.sum(axis=1, keepdims=True)
        grad = (W - N[:, None] * pi).sum(axis=0) - ridge * th
        H = np.einsum("t,ts,tr->sr", N, pi, pi) - np.diag((N[:, None] * pi).sum(axis=0))
        H -= ridge * np.eye(k)
        return grad, H

    for _ in range(100):
        grad, H = grad_hess(theta)
        gf = grad[free]
        Hf = H[np.ix_(free, free)]
        step = np.linalg.solve(Hf, -gf)
        step = np.clip(step, -2.0, 2.0)
        theta[free] += step
        if np.max(np.abs(step)) < 1e-10:
            break
    _, H = grad_hess(theta)
    cov = np.linalg.inv(-H[np.ix_(free, free)])
    se = np.zeros(k)
    se[free] = np.sqrt(np.clip(np.diag(cov), 0.0, None))
    df = pd.DataFrame(
        {
            "rating": theta,
            "low": theta - Z95 * se,
            "high": theta + Z95 * se,
            "p_vs_reference": 1.0 / (1.0 + np.exp(-theta)),
        },
        index=pd.Index(names, name="strategy"),
    )
    df["rank"] = df["rating"].rank(ascending=False, method="min").astype(int)
    return df.sort_values("rating", ascending=False)
