"""The run summary: Wilson intervals, mean intervals, the table and its text."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from unospin_sim.analysis.summary import (
    SummaryAccumulator,
    format_summary,
    mean_interval,
    summarize,
    wilson_interval,
)


def test_wilson_known_values():
    lo, hi = wilson_interval(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-4) and hi == pytest.approx(0.5962, abs=1e-4)
    lo, hi = wilson_interval(0, 10)
    assert lo == 0 and hi == pytest.approx(0.2775, abs=1e-4)
    lo, hi = wilson_interval(np.array([1, 9]), 10)
    assert lo.shape == (2,) and hi[1] == 1 - lo[0]
    assert all(math.isnan(x) for x in wilson_interval(0, 0))


def test_mean_interval():
    m, lo, hi = mean_interval([1, 2, 3, 4])
    assert m == 2.5
    assert hi - m == pytest.approx(1.959963984540054 * np.std([1, 2, 3, 4], ddof=1) / 2)
    assert math.isnan(mean_interval([])[0])
    assert math.isnan(mean_interval([3])[1])


def test_summarize_and_format():
    rounds = pd.DataFrame(
        {
            "winner": [0, 1, 1, -1, 2],
            "turns": [10, 20, 30, 10000, 40],
            "cards_left_0": 0,
            "cards_left_1": 0,
            "cards_left_2": 0,
        }
    )
    df = summarize(rounds, seconds=2.0)
    s = df.set_index("statistic")
    assert s.at["games", "value"] == 5 and s.at["unfinished", "value"] == 1
    assert s.at["games_per_second", "value"] == 2.5
    assert s.at["win_rate_1", "value"] == 0.4
    assert s.at["win_rate_1", "ci_low"] < 0.4 < s.at["win_rate_1", "ci_high"]
    assert list(df.columns) == ["statistic", "value", "ci_low", "ci_high"]
    assert [n for n in s.index if n.startswith("win_rate_")] == [
        "win_rate_0",
        "win_rate_1",
        "win_rate_2",
    ]
    text = format_summary(df)
    for word in ("rounds", "rounds/s", "unfinished", "win rate", "mean turns", "95%"):
        assert word in text


def test_seat_without_wins():
    rounds = pd.DataFrame({"winner": [0, 0], "turns": [5, 7]})
    s = summarize(rounds, players=4).set_index("statistic")
    assert s.at["win_rate_3", "value"] == 0 and s.at["win_rate_3", "ci_low"] == 0
    assert "seconds" not in s.index
    format_summary(s.reset_index())


def test_team_win_rates_add_the_partners_wins():
    # partners with 6 players: teams of seats {0, 3}, {1, 4}, {2, 5}
    winner = np.array([0, 3, 3, 1, 5, 2, 4, 0, -1, 3])
    rounds = pd.DataFrame({"winner": winner, "turns": np.arange(10) + 20})
    t = summarize(rounds, players=6, teams=3).set_index("statistic")
    assert [t.at[f"team_win_rate_{k}", "value"] for k in range(3)] == [0.5, 0.2, 0.2]
    lo, hi = wilson_interval(np.array([5]), 10)
    assert t.at["team_win_rate_0", "ci_low"] == pytest.approx(lo[0])
    assert t.at["team_win_rate_0", "ci_high"] == pytest.approx(hi[0])
    assert "team_win_rate_0" not in summarize(rounds, players=6).set_index("statistic").index
    # the accumulator gives the same table
    acc = SummaryAccumulator.of_rounds(6, np.arange(10), winner, rounds["turns"])
    pd.testing.assert_frame_equal(acc.summarize(teams=3), summarize(rounds, players=6, teams=3))
    text = format_summary(summarize(rounds, players=6, teams=3))
    assert "team  win rate" in text and "   0    0.5000" in text
