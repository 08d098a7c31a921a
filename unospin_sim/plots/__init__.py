"""Matplotlib charts of the analyses. Every function takes an optional ``ax`` and returns it;
a drawn wheel and its slot layout as data: ``plots/wheel.py``.

>>> import matplotlib.pyplot as plt
>>> fig, ax = plt.subplots()
>>> plot_seat_win_rates(seat_win_rates(res.rounds), ax=ax)   # doctest: +SKIP
"""

from __future__ import annotations

import numpy as np

from .wheel import LAYOUT_RULE, MAX_SEGMENTS, format_slots, plot_wheel, wheel_segments, wheel_slots

__all__ = [
    "LAYOUT_RULE",
    "MAX_SEGMENTS",
    "format_slots",
    "plot_balance",
    "plot_design_front",
    "plot_lead_heatmap",
    "plot_race_rounds",
    "plot_seat_win_rates",
    "plot_space_effects",
    "plot_turns",
    "plot_turns_grid",
    "plot_wheel",
    "plot_wheel_effects",
    "wheel_segments",
    "wheel_slots",
]


def _ax(ax):
    if ax is None:
        import matplotlib.pyplot as plt

        _, ax = plt.subplots(figsize=(6, 4))
    return ax


def _err(table, col):
    """Error-bar lengths below and above; 0 where an interval is undefined (tiny samples)."""
    err = np.vstack([table[col] - table[f"{col}_low"], table[f"{col}_high"] - table[col]])
    return np.clip(np.nan_to_num(err.astype(float)), 0.0, None)


def _fair_share_line(ax, fair):
    """The dashed fair-share line, drawn once per value on ``ax`` (several runs drawn on one
    axis share one legend entry: "fair share (N players)")."""
    label = f"fair share ({round(1 / fair)} players)" if fair > 0 else "fair share"
    if any(line.get_label() == label for line in ax.get_lines()):
        return
    ax.axhline(fair, color="grey", ls="--", lw=1, label=label)


#: the x axis of a win rate per seat or per player (analysis.seats)
_WHO_AXIS = {
    "seat": "seat (seat order: 0 left of the dealer, the dealer last)",
    "player": "player (the i-th bot; the deal passes one seat each round)",
}


def plot_seat_win_rates(seats, ax=None, label=None):
    """Round win rates with 95% intervals and the fair share: per seat (or per player, in a
    match run) from ``seat_win_rates``, or from ``first_player_table`` the player who acts
    first (after the first card's effect) at the left, then each seat in seat order."""
    ax = _ax(ax)
    names = [str(i) for i in seats.index]
    if seats.index.name == "who":  # first_player_table: "acts first", "seat 0", ...
        who = names[1].split()[0] if len(names) > 1 else "seat"
        ticks = ["acts\nfirst", *(n.split()[-1] for n in names[1:])]
        if not any(line.get_label() == "_acts_first" for line in ax.get_lines()):
            ax.axvline(0.5, color="lightgrey", lw=0.8, label="_acts_first")  # then seats
    else:
        who = seats.index.name or "seat"
        ticks = names
    x = np.arange(len(ticks))
    err = np.clip(
        np.nan_to_num(np.vstack([seats["rate"] - seats["low"], seats["high"] - seats["rate"]])),
        0.0,
        None,
    )
    ax.errorbar(x, seats["rate"], yerr=err, fmt="o", capsize=3, label=label)
    _fair_share_line(ax, float(seats["fair"].iloc[0]))
    ax.set_xlabel(_WHO_AXIS.get(who, who))
    ax.set_ylabel("share of rounds won")
    ax.set_xticks(x, ticks)
    ax.set_title(f"Round win rate by {who} (95% intervals)", fontsize=10)
    ax.legend(frameon=False, fontsize=8)
    return ax


def plot_space_effects(effects, ax=None, metric="swing"):
    """Horizontal bars of one column of ``space_effects`` (default ``swing``) with 95% CIs.
    Probabilities (``swing``, ``spinner_win_rate``) are drawn in percentage points."""
    ax = _ax(ax)
    t = effects.sort_values(metric)
    y = np.arange(len(t))
    scale = 100.0 if metric in ("swing", "spinner_win_rate") else 1.0
    bad_sign = 1 if metric == "hand_change" else -1  # more cards is worse for the spinner
    ax.barh(
        y,
        scale * t[metric],
        xerr=scale * _err(t, metric),
        capsize=3,
        color=["tab:red" if v * bad_sign > 0 else "tab:green" for v in t[metric]],
    )
    ax.set_yticks(y)
    ax.set_yticklabels(t.index)
    ax.axvline(0, color="black", lw=0.8)
    labels = {
        "swing": "spinner's round win rate on this space minus on the rest of the "
        "wheel\n(percentage points; relative to the other spaces' mix)",
        "hand_change": "change in the spinner's hand size (cards)",
        "spinner_win_rate": "spinner's round win rate (%)",
    }
    titles = {
        "swing": "Relative swing vs the rest of the wheel (95% intervals)",
        "hand_change": "Spinner's hand change per spin (95% intervals)",
        "spinner_win_rate": "Spinner's round win rate by space",
    }
    ax.set_xlabel(labels.get(metric, metric), fontsize=8)
    ax.set_title(titles.get(metric, metric), fontsize=10)
    return ax


def plot_wheel_effects(effects, ax=None, who="spinner"):
    """Absolute space effects from paired replays (``analysis.wheel_effects``): change in
    ``who``'s chance to win the round against a blank space, in percentage points, 95% CIs."""
    ax = _ax(ax)
    t = effects[effects["who"] == who].sort_values("effect")
    y = np.arange(len(t))
    err = np.clip(
        np.nan_to_num(np.vstack([t["effect"] - t["low"], t["high"] - t["effect"]]).astype(float)),
        0.0,
        None,
    )
    ax.barh(
        y,
        100 * t["effect"],
        xerr=100 * err,
        capsize=3,
        color=["tab:green" if v > 0 else "tab:red" for v in t["effect"]],
    )
    ax.set_yticks(y)
    ax.set_yticklabels(t["space"])
    ax.axvline(0, color="black", lw=0.8)
    ax.set_xlabel(
        f"change in the {who}'s chance to win the round\nvs a blank space (percentage points)",
        fontsize=8,
    )
    ax.set_title(f"Wheel spaces, absolute effect on the {who} (paired replays, 95%)", fontsize=10)
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
    ax.set_ylabel("share of rounds per turn (density)")
    ax.set_title("Round length (finished rounds)", fontsize=10)
    if label:
        ax.legend(frameon=False, fontsize=8)
    return ax


def plot_turns_grid(runs, axes=None, ncols: int = 2, bins=None):
    """Round length of several runs as small multiples: one panel per run (its histogram of
    turns per round, finished rounds), the first run's outline in grey on every other panel
    for reference, one x scale and one y scale for all.

    Parameters
    ----------
    runs : dict
        ``{label: round table}``; the first is the reference.
    axes : array of matplotlib Axes, optional
        At least ``len(runs)`` axes (default: a new grid of ``ncols`` columns sharing x and
        y); axes left over are hidden.
    ncols : int
        Columns of the new grid.
    bins : array, optional
        Bin edges (default: steps of 2 turns up to the longest run's 99th percentile).

    Returns
    -------
    numpy.ndarray of Axes
        The axes drawn on, flattened.
    """
    labels = list(runs)
    if not labels:
        raise ValueError("plot_turns_grid needs at least one run")
    own = axes is None
    if own:
        import matplotlib.pyplot as plt

        nrows = -(-len(labels) // ncols)
        _, axes = plt.subplots(
            nrows, ncols, figsize=(4.2 * ncols, 2.4 * nrows + 0.6), sharex=True, sharey=True
        )
    axes = np.atleast_1d(np.asarray(axes, dtype=object)).ravel()
    if len(axes) < len(labels):
        raise ValueError(f"plot_turns_grid: {len(labels)} runs need as many axes, got {len(axes)}")
    if bins is None:
        ends = [r.loc[r["winner"] >= 0, "turns"].quantile(0.99) for r in runs.values()]
        top = max([int(e) for e in ends if np.isfinite(e)] + [10])
        bins = np.arange(0, top + 2, 2)
    base = runs[labels[0]]
    base_t = base.loc[base["winner"] >= 0, "turns"]
    for i, (label, ax) in enumerate(zip(labels, axes)):
        if i and not base_t.empty:
            ax.hist(base_t, bins=bins, histtype="step", density=True, color="grey", lw=0.8)
        plot_turns(runs[label], ax=ax, bins=bins)
        ax.set_title(label, fontsize=8)
        spec = ax.get_subplotspec()
        ax.set_xlabel("turns per round" if spec is None or spec.is_last_row() else "", fontsize=8)
        ax.set_ylabel("density" if spec is None or spec.is_first_col() else "", fontsize=8)
    for ax in axes[len(labels) :]:
        ax.set_visible(False)
    if own:  # the lowest panel of each column shows its turns, an empty cell below it
        for ax in axes[max(0, len(labels) - ncols) : len(labels)]:
            ax.xaxis.set_tick_params(labelbottom=True)
            ax.set_xlabel("turns per round", fontsize=8)
    axes[0].figure.suptitle(
        f"Round length of finished rounds (share of rounds per turn); grey: {labels[0]}",
        fontsize=10,
    )
    return axes[: len(labels)]


def plot_race_rounds(matches, ax=None, label=None):
    """Cumulative share of matches decided within k rounds (from ``assemble_matches``), a
    step curve per run so that several runs never hide each other."""
    ax = _ax(ax)
    counts = matches["rounds"].value_counts(normalize=True).sort_index()
    k = np.r_[0, counts.index.to_numpy()]
    cum = np.r_[0.0, np.cumsum(counts.to_numpy())]
    ax.step(k, 100 * cum, where="post", label=label)
    ax.set_xlabel("rounds played")
    ax.set_ylabel("matches decided within that many rounds (%)")
    ax.set_ylim(0, 101)
    from matplotlib.ticker import MaxNLocator

    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_title("How many rounds a match lasts", fontsize=10)
    if label:
        ax.legend(frameon=False, fontsize=8)
    return ax


def plot_lead_heatmap(heat, ax=None, min_n: int = 30):
    """Heat map of :func:`~unospin_sim.analysis.race.lead_heat_table`: round of the match
    (x) against the leader's margin (y), colour and text the percentage of such leads that
    win the match; cells with fewer than ``min_n`` matches are left blank, and a margin with
    no such cell in any round is left out (a lead of the whole target never occurs in a
    match still running)."""
    ax = _ax(ax)
    ks = sorted(heat["k"].unique())
    shown = heat.loc[heat["n"] >= min_n, "margin"]
    margins = [m for m in dict.fromkeys(heat["margin"]) if (shown == m).any()]
    if not margins:  # nothing measured: one blank row, the axes still labelled
        margins = list(dict.fromkeys(heat["margin"]))[:1]
    grid = np.full((len(margins), len(ks)), np.nan)
    for _, r in heat.iterrows():
        if r["n"] >= min_n and r["margin"] in margins:
            grid[margins.index(r["margin"]), ks.index(r["k"])] = 100 * r["p_leader_wins"]
    im = ax.imshow(grid, origin="lower", aspect="auto", cmap="viridis", vmin=0, vmax=100)
    for i in range(len(margins)):
        for j in range(len(ks)):
            if np.isfinite(grid[i, j]):
                ax.text(
                    j,
                    i,
                    f"{grid[i, j]:.0f}",
                    ha="center",
                    va="center",
                    fontsize=7,
                    color="white" if grid[i, j] < 60 else "black",
                )
    ax.set_xticks(range(len(ks)), [str(k) for k in ks])
    ax.set_yticks(range(len(margins)), margins)
    ax.set_xlabel("after round k of the match")
    ax.set_ylabel("leader's margin over second place (points)")
    ax.set_title("The leader wins the match (%)", fontsize=10)
    ax.figure.colorbar(im, ax=ax, label="% of matches won by the leader")
    return ax


def plot_balance(table, ax=None, metric="first_player_advantage"):
    """One balance measure (``balance_table``) per label, with its 95% interval, drawn
    horizontally so that long labels never overlap; ``first_player_advantage`` in
    percentage points."""
    import textwrap

    ax = _ax(ax)
    y = np.arange(len(table))[::-1]
    scale = 100.0 if metric == "first_player_advantage" else 1.0
    ax.errorbar(scale * table[metric], y, xerr=scale * _err(table, metric), fmt="o", capsize=4)
    ax.set_yticks(y)
    ax.set_ylim(-0.6, len(table) - 0.4)
    ax.set_yticklabels(["\n".join(textwrap.wrap(str(i), 28)) for i in table.index], fontsize=7)
    ax.axvline(0, color="grey", lw=0.8, ls="--")
    units = {
        "first_player_advantage": "round win rate of the player who acts first minus a fair "
        "share\n(percentage points; acts first: after the first card's effect)"
    }
    ax.set_xlabel(units.get(metric, metric.replace("_", " ")), fontsize=8)
    ax.set_title(
        "First-player advantage (95% intervals)"
        if metric == "first_player_advantage"
        else metric.replace("_", " "),
        fontsize=10,
    )
    return ax


def plot_design_front(designs, metrics, ax=None, goals=()):
    """The screened designs of a design study (``designs.csv`` rows of stage ``screen``):
    the first two goal metrics against each other with 95% intervals, the Pareto designs
    (column ``pareto``) highlighted; with one metric, the metric by trial. Each of
    ``metrics`` is a column name, or an object with ``name`` and ``unit`` (a
    :class:`~unospin_sim.studies.design.Metric`), whose unit then labels its axis. ``goals``
    (:class:`~unospin_sim.studies.design.Goal` s) draws each target's tolerance band and each bound."""
    units = {getattr(m, "name", m): getattr(m, "unit", "") for m in metrics}
    metrics = list(units)
    ax = _ax(ax)
    x_name = metrics[0] if len(metrics) > 1 else "trial"
    y_name = metrics[1] if len(metrics) > 1 else metrics[0]
    for front, style, label in (
        (False, dict(color="tab:grey", alpha=0.6), "screened design"),
        (True, dict(color="tab:red"), "Pareto design"),
    ):
        t = designs[designs["pareto"] == front]
        if t.empty:
            continue
        yerr = np.clip(
            np.nan_to_num(
                np.vstack([t[y_name] - t[f"{y_name}_low"], t[f"{y_name}_high"] - t[y_name]])
            ),
            0,
            None,
        )
        xerr = None
        if x_name != "trial":
            xerr = np.clip(
                np.nan_to_num(
                    np.vstack([t[x_name] - t[f"{x_name}_low"], t[f"{x_name}_high"] - t[x_name]])
                ),
                0,
                None,
            )
        ax.errorbar(
            t[x_name],
            t[y_name],
            yerr=yerr,
            xerr=xerr,
            fmt="o",
            ms=4,
            capsize=2,
            label=label,
            **style,
        )

    for g in goals:
        if g.is_objective or g.metric not in (x_name, y_name):
            continue
        span, line = (ax.axvspan, ax.axvline) if g.metric == x_name else (ax.axhspan, ax.axhline)
        if g.op == "=":
            span(
                g.value - g.tol,
                g.value + g.tol,
                color="tab:green",
                alpha=0.15,
                lw=0,
                label=f"goal {g.text}",
            )
        else:
            line(g.value, color="tab:green", ls="--", lw=1, label=f"goal {g.text}")

    def axis_label(name):
        return f"{name} ({units[name]})" if units.get(name) else name

    ax.set_xlabel(axis_label(x_name))
    ax.set_ylabel(axis_label(y_name))
    # a count (segments moved, options changed, the trial) ticks at whole numbers only
    from matplotlib.ticker import MaxNLocator

    for name, axis in ((x_name, ax.xaxis), (y_name, ax.yaxis)):
        values = designs[name].to_numpy(dtype=float) if name in designs else np.array([])
        if values.size and np.all(np.isfinite(values)) and np.all(values == np.round(values)):
            axis.set_major_locator(MaxNLocator(integer=True))
    ax.set_title("Screened designs (95% intervals)", fontsize=10)
    ax.legend(frameon=False, fontsize=8)
    return ax
