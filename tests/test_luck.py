"""Wheel luck (analysis.luck.wheel_luck): the segment-weighted spread of the spaces' effects
on the spinner, on hand-built replay tables with known answers and on real replays."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from unospin_sim.analysis.luck import wheel_luck
from unospin_sim.run import Execution, replay_spins


def _replays(winners: dict[str, list[int]]) -> pd.DataFrame:
    """One spin per round (pair = game = i), spinner seat 0, one row per space per spin."""
    spaces = list(winners)
    rows = []
    for space, won in winners.items():
        for i, w in enumerate(won):
            rows.append({"pair": i, "game": i, "space": space, "winner": w, "spinner": 0})
    df = pd.DataFrame(rows)
    df["space"] = pd.Categorical(df["space"], categories=spaces)
    return df


# control: the spinner (seat 0) wins rounds 0 and 1; space a: every round (+0.5); b: none (-0.5)
TABLE = {"none": [0, 0, 1, 1], "a": [0, 0, 0, 0], "b": [1, 1, 1, 1]}


def test_two_opposite_spaces_equal_weights():
    out = wheel_luck(_replays(TABLE), {"a": 1, "b": 1}, n_boot=50)
    assert out["effects"] == {"a": 50.0, "b": -50.0}
    assert out["mean"] == 0.0 and out["luck"] == pytest.approx(50.0, abs=1e-12)
    assert out["spins"] == 4 and out["rounds"] == 4
    assert out["low"] <= out["luck"] <= out["high"]


def test_weights_are_the_segments():
    """a on 3 segments, b on 1: mean 25 points, spread sqrt(0.75 * 25^2 + 0.25 * 75^2)."""
    out = wheel_luck(_replays(TABLE), {"a": 3, "b": 1}, n_boot=50)
    assert out["mean"] == pytest.approx(25.0)
    assert out["luck"] == pytest.approx(math.sqrt(0.75 * 25**2 + 0.25 * 75**2))


def test_spaces_that_do_the_same_deal_no_luck():
    same = {"none": [0, 0, 1, 1], "a": [0, 0, 0, 0], "b": [0, 0, 0, 0]}
    out = wheel_luck(_replays(same), {"a": 1, "b": 2}, n_boot=50)
    assert out["luck"] == 0.0 and out["low"] == 0.0 and out["high"] == 0.0
    assert out["mean"] == pytest.approx(50.0)


def test_bad_input_is_named():
    with pytest.raises(ValueError, match="not replayed: c"):
        wheel_luck(_replays(TABLE), {"a": 1, "c": 1})
    with pytest.raises(ValueError, match="no 'none' control"):
        wheel_luck(_replays({"a": [0], "b": [1]}), {"a": 1, "b": 1})


def test_real_replays_of_the_2025_wheel():
    """Fixed seed: the published 2025 wheel's spaces differ for the spinner (its colour draws
    hurt, Color Discard helps), so its luck is clearly above 0; the bootstrap brackets it."""
    rep = replay_spins(
        "spin2025(players=4)", "random", games=200, seed=3, execution=Execution(threads=1)
    )
    out = wheel_luck(rep, n_boot=200, seed=1)
    wheel = {"color_draw_red", "color_draw_yellow", "color_draw_green", "color_draw_blue"}
    assert wheel <= set(out["effects"])
    assert 0 < out["low"] <= out["luck"] <= out["high"]
    assert out["rounds"] <= 200 and out["spins"] >= out["rounds"]
    assert np.isfinite(out["mean"])
