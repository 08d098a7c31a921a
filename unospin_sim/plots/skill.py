"""Charts of a skill profile (:mod:`unospin_sim.studies.skill_profile`): one variant's skill
trace, and several variants' traces side by side. Each takes an optional ``ax`` and returns
it."""

from __future__ import annotations

import numpy as np

__all__ = ["plot_skill_trace", "plot_skill_traces"]


def _ax(ax):
    if ax is None:
        import matplotlib.pyplot as plt

        _, ax = plt.subplots(figsize=(6, 4))
    return ax


def _rules_lines(ax):
    """The skill depth's two thresholds (1 point, and 2 for the upper bound) and zero."""
    ax.axhline(0.0, color="grey", lw=1)
    ax.axhline(1.0, color="grey", ls="--", lw=1, label="1 point (gain)")
    ax.axhline(2.0, color="grey", ls=":", lw=1, label="2 points (upper bound)")


def _labels(ax, rounds):
    ax.set_xscale("log", base=2)
    ax.set_xlabel("doubling from budget (search rollouts a decision)")
    ax.set_ylabel("doubled bot's share of rounds above fair (points)")
    ax.set_title(f"Skill trace ({int(rounds):,} rounds a step, 95% intervals)")


def plot_skill_trace(trace, ax=None, depth=None, label=None, offset: float = 1.0):
    """One variant's skill trace: each doubling's gain in points with its 95% interval.

    Parameters
    ----------
    trace : pandas.DataFrame
        Rows of :func:`~unospin_sim.analysis.skill_profile.trace_step` (``budget``,
        ``gain``, ``gain_low``, ``gain_high``, ``rounds``).
    depth : int, optional
        The skill depth, marked by a vertical line.
    label : str, optional
        The legend's name of the variant.
    offset : float
        A factor on the budgets (dodges several variants on one axis).
    """
    ax = _ax(ax)
    t = trace.sort_values("budget")
    x = t["budget"].to_numpy(float) * offset
    y = 100 * t["gain"].to_numpy(float)
    err = np.vstack(
        [y - 100 * t["gain_low"].to_numpy(float), 100 * t["gain_high"].to_numpy(float) - y]
    )
    (line,) = ax.plot(x, y, marker="o", label=label)
    ax.errorbar(x, y, yerr=np.clip(err, 0, None), fmt="none", color=line.get_color(), capsize=3)
    if depth is not None:
        ax.axvline(
            depth * offset,
            color=line.get_color(),
            ls="-.",
            lw=1,
            label=f"skill depth ({label})" if label else "skill depth",
        )
    if not any(line.get_label() == "1 point (gain)" for line in ax.get_lines()):
        _rules_lines(ax)
    _labels(ax, t["rounds"].iloc[0])
    ax.set_xticks(t["budget"].to_numpy(float), [str(int(b)) for b in t["budget"]])
    ax.legend(fontsize="small")
    return ax


def plot_skill_traces(profiles, ax=None):
    """Several variants' skill traces side by side on one axis (each dodged a little).

    Parameters
    ----------
    profiles : dict
        Variant name -> ``{"trace": DataFrame, "skill_depth": int or None}`` (what
        :func:`~unospin_sim.studies.skill_profile.load_skill_profile` returns).
    """
    ax = _ax(ax)
    n = len(profiles)
    for i, (name, prof) in enumerate(profiles.items()):
        offset = 2.0 ** (0.15 * (i - (n - 1) / 2))
        plot_skill_trace(
            prof["trace"], ax=ax, depth=prof.get("skill_depth"), label=name, offset=offset
        )
    return ax
