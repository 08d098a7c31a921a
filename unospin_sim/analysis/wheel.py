"""Which wheel spaces swing a game, observationally?

The space a spin lands on is drawn at random, independently of the game state, so comparing
spins that landed on one space with spins that landed on the others estimates the effect of
landing there RELATIVE TO THE REST OF THE WHEEL (the mix of the other spaces): reweighting
the other spaces changes it, and a space that does nothing gets a nonzero swing whenever the
others do something. The absolute effect of a space (against a blank space) comes from paired
replays: :mod:`.wheel_effects`.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from ..errors import UserError
from .stats import Z95, cluster_ratio, cluster_ratio_diff, mean_interval

__all__ = ["catch_up_table", "space_effects"]


def space_effects(rounds: pd.DataFrame, spins: pd.DataFrame) -> pd.DataFrame:
    """One row per wheel space: how often it comes up and what it does to the spinner.

    Parameters
    ----------
    rounds, spins : pandas.DataFrame
        A results directory's tables (``Results.rounds`` / ``Results.spins``).

    Returns
    -------
    pandas.DataFrame
        Indexed by ``space``: ``spins``, ``per_round`` (+ ``_low``/``_high``),
        ``spinner_win_rate`` (+ CI), ``swing`` = spinner win rate on this space minus on the
        other spaces (+ CI; relative to the rest of the wheel, not the space's own effect:
        see :func:`.wheel_effects.wheel_effects`), ``hand_change`` = mean change of the spinner's hand size (+ CI),
        ``cards_drawn`` and ``cards_discarded`` per spin. Intervals are 95%, cluster-robust
        by round.

    Examples
    --------
    >>> from unospin_sim import simulate
    >>> res = simulate("spin2025(players=4)", "random", games=20_000, seed=1)  # doctest: +SKIP
    >>> space_effects(res.rounds, res.spins)[["swing", "swing_low", "swing_high"]]  # doctest: +SKIP
    """
    if spins.empty:
        raise ValueError("these results hold no spins (an edition without a wheel?)")
    winner = rounds.set_index("game")["winner"]
    sp = spins.copy()
    sp["won"] = (winner.reindex(sp["game"]).to_numpy() == sp["spinner"].to_numpy()).astype(float)
    sp["hand_change"] = (sp["hand_after"] - sp["hand_before"]).astype(float)
    games = rounds["game"].to_numpy()
    rows = []
    spaces = (
        list(sp["space"].cat.categories)
        if hasattr(sp["space"], "cat")
        else sorted(sp["space"].unique())
    )
    for space in spaces:
        on = sp["space"] == space
        sub = sp[on]
        per_round = rounds[f"spins_{space}"] if f"spins_{space}" in rounds else None
        row = {"space": space, "spins": int(on.sum())}
        if per_round is not None:
            row["per_round"], row["per_round_low"], row["per_round_high"] = mean_interval(per_round)
        if len(sub):
            row["spinner_win_rate"], row["spinner_win_rate_low"], row["spinner_win_rate_high"] = (
                cluster_ratio(sub["won"], sub["game"], games)
            )
            row["swing"], row["swing_low"], row["swing_high"] = cluster_ratio_diff(
                sp["won"], sp["game"], on
            )
            row["hand_change"], row["hand_change_low"], row["hand_change_high"] = cluster_ratio(
                sub["hand_change"], sub["game"], games
            )
            row["cards_drawn"] = float(sub["cards_drawn"].mean())
            row["cards_discarded"] = float(sub["cards_discarded"].mean())
        rows.append(row)
    return pd.DataFrame(rows).set_index("space")


def catch_up_table(spins: pd.DataFrame) -> pd.DataFrame:
    """Does the wheel help whoever is behind?  Per space, the change in the spinner's hand
    (cards after the space minus before) when the spinner TRAILS at the spin (another seat
    is the sole leader: strictly the fewest cards) and when the spinner LEADS, and the
    catch-up index: the trailing spinner's change minus the leader's, NEGATED, in cards
    (> 0: the space does the spinner more good, fewer cards, when behind than when ahead;
    it closes gaps).  Spins at a tie for the lead are left out.  The last row, ``all``,
    pools every space (the wheel as a whole, each space at its frequency).

    Parameters
    ----------
    spins : pandas.DataFrame
        The spin table (columns ``space``, ``spinner``, ``leader``, ``hand_before``,
        ``hand_after``).

    Returns
    -------
    pandas.DataFrame
        Indexed by space: ``spins_behind``, ``change_behind``, ``spins_leading``,
        ``change_leading``, ``catch_up`` with ``catch_up_low`` / ``catch_up_high`` (95%,
        normal approximation, the two groups independent).
    """
    missing = [
        c
        for c in ("space", "spinner", "leader", "hand_before", "hand_after")
        if c not in spins.columns
    ]
    if missing:
        raise UserError(
            f"the spin table lacks {', '.join(missing)}: written by an older version; run it again"
        )
    lead = spins["leader"].to_numpy()
    spinner = spins["spinner"].to_numpy()
    change = spins["hand_after"].to_numpy(np.int64) - spins["hand_before"].to_numpy(np.int64)
    behind = (lead >= 0) & (lead != spinner)
    ahead = lead == spinner
    space = spins["space"]
    cats = list(space.cat.categories) if hasattr(space, "cat") else sorted(set(space))
    rows = []
    for name in cats + ["all"]:
        sel = np.ones(len(spins), bool) if name == "all" else (space == name).to_numpy()
        b, a = change[sel & behind], change[sel & ahead]
        mb, _, _ = mean_interval(b)
        ma, _, _ = mean_interval(a)
        idx = lo = hi = math.nan
        if len(b) > 1 and len(a) > 1:
            idx = ma - mb
            se = math.sqrt(b.var(ddof=1) / len(b) + a.var(ddof=1) / len(a))
            lo, hi = idx - Z95 * se, idx + Z95 * se
        rows.append(
            {
                "space": name,
                "spins_behind": len(b),
                "change_behind": mb,
                "spins_leading": len(a),
                "change_leading": ma,
                "catch_up": idx,
                "catch_up_low": lo,
                "catch_up_high": hi,
            }
        )
    return pd.DataFrame(rows).set_index("space")
