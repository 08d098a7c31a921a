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
