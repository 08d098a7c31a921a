"""Plot functions take and return an ``ax``; a chart with several series has one legend entry
per series."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import pandas as pd

from unospin_sim.analysis import seat_win_rates
from unospin_sim.plots import plot_seat_win_rates


def _rounds(winners, players):
    return pd.DataFrame(
        {
            "winner": winners,
            "first_player": [0] * len(winners),
            **{f"cards_left_{i}": [0] * len(winners) for i in range(players)},
        }
    )


def test_seat_chart_lists_fair_share_once_per_player_count():
    fig, ax = plt.subplots()
    four = seat_win_rates(_rounds([0, 1, 2, 3, 0, 1], 4))
    for label in ("2005", "2025", "classic", "spiderman"):
        assert plot_seat_win_rates(four, ax=ax, label=label) is ax
    labels = ax.get_legend_handles_labels()[1]
    assert labels.count("fair share (4 players)") == 1
    assert [lb for lb in labels if not lb.startswith("fair")] == [
        "2005",
        "2025",
        "classic",
        "spiderman",
    ]
    two = seat_win_rates(_rounds([0, 1, 1], 2))
    plot_seat_win_rates(two, ax=ax, label="2 players")
    labels = ax.get_legend_handles_labels()[1]
    assert labels.count("fair share (4 players)") == 1
    assert labels.count("fair share (2 players)") == 1
    plt.close(fig)


def test_seat_chart_of_the_first_player_table_names_both_figures():
    """The player who acts first at the left, then the seats in seat order; a match run's
    table names players on the axis, never seats."""
    from unospin_sim.analysis import first_player_table

    rounds = _rounds([0, 1, 2, 3, 0, 1], 4)
    fig, ax = plt.subplots()
    assert plot_seat_win_rates(first_player_table(rounds), ax=ax, label="a") is ax
    assert [t.get_text() for t in ax.get_xticklabels()] == ["acts\nfirst", "0", "1", "2", "3"]
    assert ax.get_xlabel().startswith("seat (seat order: 0 left of the dealer")
    rounds["match"], rounds["round"] = 0, range(6)
    fig2, ax2 = plt.subplots()
    plot_seat_win_rates(first_player_table(rounds), ax=ax2)
    assert ax2.get_xlabel().startswith("player (the i-th bot")
    assert "seat" not in ax2.get_title()
    plt.close(fig)
    plt.close(fig2)


def test_turns_grid_draws_one_panel_per_run_on_shared_axes():
    import numpy as np

    from unospin_sim.plots import plot_turns_grid

    rng = np.random.default_rng(1)
    runs = {
        f"run {k}": pd.DataFrame(
            {"winner": rng.integers(-1, 4, 300), "turns": rng.integers(5, 40 + 20 * k, 300)}
        )
        for k in range(3)
    }
    axes = plot_turns_grid(runs, ncols=2)
    assert len(axes) == 3
    assert [ax.get_title() for ax in axes] == ["run 0", "run 1", "run 2"]
    assert axes[0].get_xlim() == axes[2].get_xlim()  # one x scale
    assert len(axes[0].patches) == 1 and len(axes[1].patches) == 2  # the first in grey
    hidden = [ax for ax in axes[0].figure.axes if not ax.get_visible()]
    assert len(hidden) == 1  # the fourth panel of the 2 x 2 grid
    fig, own = plt.subplots(1, 3)
    assert list(plot_turns_grid(runs, axes=own)) == list(own)  # takes and returns the axes
    plt.close("all")


def test_design_front_labels_axes_with_the_units_of_metric_objects():
    from unospin_sim.plots import plot_design_front
    from unospin_sim.studies.design import METRICS

    designs = pd.DataFrame(
        {
            "pareto": [False, True],
            "trial": [0, 1],
            **{f"mean_turns{s}": [40.0, 50.0] for s in ("", "_low", "_high")},
            **{f"seat_gap{s}": [0.1, 0.2] for s in ("", "_low", "_high")},
        }
    )
    fig, ax = plt.subplots()
    assert plot_design_front(designs, [METRICS["mean_turns"]], ax=ax) is ax
    assert (ax.get_xlabel(), ax.get_ylabel()) == ("trial", "mean_turns (turns per round)")
    ax2 = plot_design_front(designs, ["mean_turns", "seat_gap"], ax=fig.add_subplot(2, 1, 2))
    assert (ax2.get_xlabel(), ax2.get_ylabel()) == ("mean_turns", "seat_gap")
    assert ax2.get_legend_handles_labels()[1] == ["screened design", "Pareto design"]
    plt.close(fig)


def test_lead_heatmap_leaves_out_a_margin_never_measured():
    """A lead of the whole target never occurs in a running race: its row is not drawn,
    while a margin measured in some round keeps its row (blank where too few)."""
    from unospin_sim.plots import plot_lead_heatmap

    rows = []
    for k in (1, 2):
        for margin, n in (("1-50", 100), ("50-100", 40 if k == 1 else 5), ("500+", 0)):
            rows.append({"k": k, "margin": margin, "n": n, "p_leader_wins": 0.5})
    fig, ax = plt.subplots()
    assert plot_lead_heatmap(pd.DataFrame(rows), ax=ax, min_n=30) is ax
    assert [t.get_text() for t in ax.get_yticklabels()] == ["1-50", "50-100"]
    assert len(ax.texts) == 3  # 1-50 in both rounds, 50-100 in round 1 only
    plt.close(fig)


def test_design_front_ticks_a_count_at_whole_numbers():
    """segments_moved is a count: its axis never ticks at 2.5 or 7.5."""
    from unospin_sim.plots import plot_design_front

    designs = pd.DataFrame(
        {
            "pareto": [False, True, False],
            "trial": [0, 1, 2],
            **{f"segments_moved{s}": [0.0, 1.0, 3.0] for s in ("", "_low", "_high")},
            **{f"mean_turns{s}": [40.5, 50.25, 61.0] for s in ("", "_low", "_high")},
        }
    )
    fig, ax = plt.subplots()
    plot_design_front(designs, ["segments_moved", "mean_turns"], ax=ax)
    fig.canvas.draw()
    ticks = [t for t in ax.get_xticks() if ax.get_xlim()[0] <= t <= ax.get_xlim()[1]]
    assert ticks and all(float(t).is_integer() for t in ticks), ticks
    plt.close(fig)
