"""Matplotlib charts of the analyses. Every function takes an optional ``ax`` and returns it.

>>> import matplotlib.pyplot as plt
>>> fig, ax = plt.subplots()
>>> plot_seat_win_rates(seat_win_rates(res.rounds), ax=ax)   # doctest: +SKIP
"""

from __future__ import annotations

import numpy as np

__all__ = ["plot_seat_win_rates", "plot_space_effects", "plot_turns", "plot_race_rounds",
           "plot_balance"]


def _ax(ax):
    if ax is None:
        import matplotlib.pyplot as plt
        _, ax = plt.subplots(figsize=(6, 4))
    return ax


def _err(table, col):
    """Error-bar lengths below and above; 0 where an interval is undefined (tiny samples)."""
    err = np.vstack([table[col] - table[f"{col}_low"], table[f"{col}_high"] - table[col]])
    return np.clip(np.nan_to_num(err.astype(float)), 0.0, None)


def plot_seat_win_rates(seats, ax=None, label=None):
    """Seat win rates with 95% intervals and the fair share (table of ``seat_win_rates``)."""
    ax = _ax(ax)
    x = np.asarray(seats.index)
    err = np.clip(np.nan_to_num(np.vstack([seats["rate"] - seats["low"],
                                           seats["high"] - seats["rate"]])), 0.0, None)
    ax.errorbar(x, seats["rate"], yerr=err, fmt="o", capsize=3, label=label)
    ax.axhline(float(seats["fair"].iloc[0]), color="grey", ls="--", lw=1, label="fair share")
    ax.set_xlabel("seat (0 acts first, dealer last)")
    ax.set_ylabel("win rate")
    ax.set_xticks(x)
    ax.legend(frameon=False)
    return ax


def plot_space_effects(effects, ax=None, metric="swing"):
    """Horizontal bars of one column of ``space_effects`` (default ``swing``) with 95% CIs."""
    ax = _ax(ax)
    t = effects.sort_values(metric)
    y = np.arange(len(t))
    bad_sign = 1 if metric == "hand_change" else -1  # more cards is worse for the spinner
    ax.barh(y, t[metric], xerr=_err(t, metric), capsize=3,
            color=["tab:red" if v * bad_sign > 0 else "tab:green" for v in t[metric]])
    ax.set_yticks(y)
    ax.set_yticklabels(t.index)
    ax.axvline(0, color="black", lw=0.8)
    labels = {"swing": "change in the spinner's chance to win the round",
              "hand_change": "change in the spinner's hand size",
              "spinner_win_rate": "spinner's win rate"}
    ax.set_xlabel(labels.get(metric, metric))
    return ax


def plot_turns(rounds, ax=None, label=None, bins=None):
    """Histogram of turns per round (finished rounds)."""
    ax = _ax(ax)
    t = rounds.loc[rounds["winner"] >= 0, "turns"]
    if t.empty:  # every round hit the turn cap
        ax.text(0.5, 0.5, "no finished round", transform=ax.transAxes, ha="center")
        return ax
    if bins is None:
        bins = np.arange(0, max(int(t.quantile(0.995)), 10) + 2, 2)
    ax.hist(t, bins=bins, histtype="step", density=True, label=label)
    ax.set_xlabel("turns per round")
    ax.set_ylabel("share of rounds")
    if label:
        ax.legend(frameon=False)
    return ax


def plot_race_rounds(matches, ax=None, label=None):
    """Distribution of rounds per match (from ``assemble_matches``)."""
    ax = _ax(ax)
    counts = matches["rounds"].value_counts(normalize=True).sort_index()
    ax.bar(counts.index, counts.values, alpha=0.6, label=label)
    ax.set_xlabel("rounds to reach the target")
    ax.set_ylabel("share of matches")
    if label:
        ax.legend(frameon=False)
    return ax


def plot_balance(table, ax=None, metric="first_player_advantage"):
    """One balance measure (``balance_table``) per label, with its 95% interval."""
    ax = _ax(ax)
    x = np.arange(len(table))
    ax.errorbar(x, table[metric], yerr=_err(table, metric), fmt="o", capsize=4)
    ax.set_xticks(x)
    ax.set_xticklabels([str(i).replace(" ", "\n", 1) for i in table.index], fontsize=8)
    ax.axhline(0, color="grey", lw=0.8, ls="--")
    ax.set_ylabel(metric.replace("_", " "))
    return ax
