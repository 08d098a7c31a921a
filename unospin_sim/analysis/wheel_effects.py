"""What does each wheel space do, in absolute terms? Paired replays against a blank space.

:func:`unospin_sim.runner.replay_spins` replays sampled spins once per wheel space and once
with the ``none`` control (the spin happens but nothing happens), the round before the spin
identical. For every spin and space the difference to the control is the space's effect on
that spin, so per space the mean difference (with a 95% interval, cluster-robust by round)
is the space's average causal effect against a blank space -- not against the rest of the
wheel (the observational ``swing`` of :func:`.wheel.space_effects` is that relative measure
and changes when the OTHER spaces are reweighted).

Roles measured (seats fixed at the spin, identical in every replay of it):

- ``spinner``: who spins;
- ``next`` / ``previous``: the seats after / before the spinner in the direction of play at
  the spin (the same seat with two players; in 2005 ``previous`` is usually who played the
  Spin card);
- ``other``: the space's other party in that replay when it is not the spinner (2025 Swap
  Hands target, 2005 Trade Hands: the seat that receives the spinner's hand, War winner,
  UNO Spin race winner); its effect compares the same seat under the control. Spaces
  without one have no ``other`` row.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .stats import Z95, cluster_ratio

__all__ = ["ROLES", "format_wheel_effects", "wheel_effects"]

ROLES = ("spinner", "next", "previous", "other")


def _role_seats(ctrl: pd.DataFrame, players: int) -> dict[str, np.ndarray]:
    s = ctrl["spinner"].to_numpy(np.int64)
    d = ctrl["direction"].to_numpy(np.int64)
    return {"spinner": s, "next": (s + d) % players, "previous": (s - d) % players}


def wheel_effects(
    replays: pd.DataFrame, players: int | None = None, z: float = Z95
) -> pd.DataFrame:
    """Per space and role, the change against the ``none`` control, with 95% intervals.

    Parameters
    ----------
    replays : pandas.DataFrame
        The table of :func:`unospin_sim.runner.replay_spins` (``space`` holds ``none``).
    players : int, optional
        Seats (default ``replays.attrs["players"]``).

    Returns
    -------
    pandas.DataFrame
        One row per (``space``, ``who``): ``effect`` = change in that seat's probability of
        winning the round (+ ``low``, ``high``), ``base`` = its win rate under the control,
        ``n`` = spins measured, ``points``/``points_low``/``points_high`` = change in the
        points that seat scores in the round (the winner scores every other hand),
        ``turns``/``turns_low``/``turns_high`` = change in the round's length in turns (the
        same for every role of a space), ``hand`` = mean change of the spinner's hand size
        at the spin. Intervals are 95%, cluster-robust by round.
    """
    if players is None:
        players = int(replays.attrs["players"])
    spaces = list(replays["space"].cat.categories)
    if "none" not in spaces:
        raise ValueError("the replays hold no 'none' control")
    df = replays.sort_values(["pair", "space"], kind="stable")
    ctrl = df[df["space"] == "none"].set_index("pair")
    seats = _role_seats(ctrl, players)
    c_win = ctrl["winner"].to_numpy(np.int64)
    c_pts = ctrl["winner_points"].to_numpy(np.int64)
    c_turns = ctrl["turns"].to_numpy(np.int64)
    games = ctrl["game"]
    index = pd.unique(games)
    rows = []
    for space in spaces:
        if space == "none":
            continue
        sub = df[df["space"] == space].set_index("pair").reindex(ctrl.index)
        win = sub["winner"].to_numpy(np.int64)
        pts = sub["winner_points"].to_numpy(np.int64)
        turns = sub["turns"].to_numpy(np.int64)
        other = sub["other"].to_numpy(np.int64)
        dt = pd.Series((turns - c_turns).astype(float))
        t, tlo, thi = cluster_ratio(dt, games.reset_index(drop=True), index, z)
        hand = float((sub["hand_after"] - sub["hand_before"]).mean())
        role_seats = dict(seats)
        role_seats["other"] = other
        for who in ROLES:
            seat = role_seats[who]
            mask = np.ones(len(seat), bool)
            if who == "other":
                mask = (other >= 0) & (other != seats["spinner"])
                if not mask.any():
                    continue
            on = (win == seat).astype(float)
            off = (c_win == seat).astype(float)
            dp = np.where(win == seat, pts, 0) - np.where(c_win == seat, c_pts, 0)
            cl = games.reset_index(drop=True)[mask]
            e, lo, hi = cluster_ratio(pd.Series((on - off)[mask]), cl, index, z)
            p, plo, phi = cluster_ratio(pd.Series(dp[mask].astype(float)), cl, index, z)
            rows.append(
                {
                    "space": space,
                    "who": who,
                    "effect": e,
                    "low": lo,
                    "high": hi,
                    "base": float(off[mask].mean()),
                    "n": int(mask.sum()),
                    "points": p,
                    "points_low": plo,
                    "points_high": phi,
                    "turns": t,
                    "turns_low": tlo,
                    "turns_high": thi,
                    "hand": hand,
                }
            )
    return pd.DataFrame(
        rows,
        columns=[
            "space",
            "who",
            "effect",
            "low",
            "high",
            "base",
            "n",
            "points",
            "points_low",
            "points_high",
            "turns",
            "turns_low",
            "turns_high",
            "hand",
        ],
    )


def format_wheel_effects(effects: pd.DataFrame) -> str:
    """The table of :func:`wheel_effects` as aligned text (percentage points, points, turns)."""
    lines = [
        f"{'space':<18} {'who':<9} {'win chance (pp) [95%]':>26}  "
        f"{'points [95%]':>24}  {'turns [95%]':>22}"
    ]
    for r in effects.itertuples(index=False):
        lines.append(
            f"{r.space:<18} {r.who:<9} "
            f"{100 * r.effect:+7.2f} [{100 * r.low:+6.2f}, {100 * r.high:+6.2f}]  "
            f"{r.points:+7.1f} [{r.points_low:+6.1f}, {r.points_high:+6.1f}]  "
            f"{r.turns:+6.1f} [{r.turns_low:+5.1f}, {r.turns_high:+5.1f}]"
        )
    return "\n".join(lines)
