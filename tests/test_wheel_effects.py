"""Paired replays of wheel spins (runner.replay_spins / chunk.replay_spins) and the absolute
space effects computed from them (analysis.wheel_effects)."""

import json

import numpy as np
import pandas as pd
import pytest

from unospin_sim.analysis.stats import format_interval
from unospin_sim.analysis.wheel_effects import wheel_effects
from unospin_sim.cli import main
from unospin_sim.errors import UserError
from unospin_sim.run import Execution, replay_spins, simulate


def _spin_index(spins):
    return spins.groupby("game").cumcount().to_numpy()


@pytest.mark.parametrize("rules", ["spin2005(players=4)", "spin2025(players=3)"])
def test_replay_forced_to_the_drawn_space_is_the_original_round(rules):
    """Forcing a spin to the space it landed on anyway replays the round exactly: the history
    before the spin is the original's and the random stream stays aligned after it."""
    res = simulate(rules, "random", games=60, seed=5, execution=Execution(threads=1))
    sp = res.spins
    k = _spin_index(sp)
    rep = replay_spins(
        rules, "random", seed=5, pairs=np.c_[sp["game"], k], execution=Execution(threads=1)
    )
    drawn = rep[
        rep["space"].astype(str).to_numpy()
        == np.repeat(sp["space"].astype(str).to_numpy(), len(rep["space"].cat.categories))
    ]
    assert len(drawn) == len(sp)
    orig = res.rounds.set_index("game").loc[drawn["game"]]
    assert (drawn["winner"].to_numpy() == orig["winner"].to_numpy()).all()
    assert (drawn["turns"].to_numpy() == orig["turns"].to_numpy()).all()
    assert (drawn["winner_points"].to_numpy() == orig["winner_points"].to_numpy()).all()
    # every replay of a spin shares the history before it: same spinner, turn, hand before
    g = rep.groupby("pair")
    for col in ("spinner", "spin_turn", "hand_before", "direction"):
        assert (g[col].nunique() == 1).all(), col
    assert (rep.groupby("pair")["spinner"].first().to_numpy() == sp["spinner"].to_numpy()).all()


def test_none_control_does_nothing_and_other_party_recorded():
    rep = replay_spins(
        "spin2025(players=4)", "random", games=80, seed=2, execution=Execution(threads=1)
    )
    none = rep[rep["space"] == "none"]
    assert (none["hand_after"] == none["hand_before"]).all()
    assert (none["other"] == -1).all()
    swap = rep[rep["space"] == "swap_hands"]
    assert ((swap["other"] >= 0) & (swap["other"] != swap["spinner"])).all()
    assert (rep[rep["space"] == "two_x"]["other"] == -1).all()
    r05 = replay_spins(
        "spin2005(players=4)", "random", games=80, seed=2, execution=Execution(threads=1)
    )
    trade = r05[r05["space"] == "trade_hands"]
    assert (trade["other"] == (trade["spinner"] + 1) % 4).all()
    race = r05[r05["space"] == "uno_spin"]
    assert race["other"].between(0, 3).all()


def test_a_space_that_changes_nothing_comes_out_at_exactly_zero():
    """2005 Show Hand changes nothing for random bots (they ignore what they see): each
    replay equals the control, so every effect is 0 with a zero-width interval."""
    rep = replay_spins(
        "spin2005(players=4)", "random", games=300, seed=9, execution=Execution(threads=2)
    )
    eff = wheel_effects(rep).set_index(["space", "who"])
    sh = eff.loc["show_hand"]
    assert (sh["effect"] == 0).all() and (sh["low"] == 0).all() and (sh["high"] == 0).all()
    assert (sh["turns"] == 0).all() and (sh["points"] == 0).all()
    assert "other" not in sh.index
    # a space with an effect has an interval of positive width
    assert eff.loc[("draw_red", "spinner"), "high"] > eff.loc[("draw_red", "spinner"), "low"]


def test_effects_by_hand_on_a_built_replay_table():
    """Three spins in two rounds, spaces a (the spinner always wins) and b (nothing
    changes); the control: the spinner wins spin 0 only. Effects known by hand."""
    cats = ["none", "a", "b"]
    rows = []
    # pair, game, space, winner, points, turns, spinner, direction, other
    ctrl = [
        (0, 0, 0, 50, 10),
        (1, 0, 2, 30, 12),
        (2, 1, 3, 20, 8),
    ]  # pair, game, winner, pts, turns
    for pair, game, w, pts, turns in ctrl:
        rows.append((pair, game, "none", w, pts, turns, -1))
        rows.append((pair, game, "a", 0, 40, turns - 2, 1))  # spinner (seat 0) wins
        rows.append((pair, game, "b", w, pts, turns, -1))
    df = pd.DataFrame(
        rows, columns=["pair", "game", "space", "winner", "winner_points", "turns", "other"]
    )
    df["space"] = pd.Categorical(df["space"], categories=cats)
    df["spinner"], df["direction"], df["hand_before"], df["hand_after"] = 0, 1, 5, 5
    eff = wheel_effects(df, players=4).set_index(["space", "who"])
    # spinner: a wins always (1,1,1) vs control (1,0,0): effect 2/3
    assert eff.loc[("a", "spinner"), "effect"] == pytest.approx(2 / 3)
    assert eff.loc[("a", "spinner"), "base"] == pytest.approx(1 / 3)
    # points: (40-50, 40-0, 40-0) / 3 = 70/3; turns -2 each
    assert eff.loc[("a", "spinner"), "points"] == pytest.approx(70 / 3)
    assert eff.loc[("a", "spinner"), "turns"] == pytest.approx(-2)
    # next = seat 1 (direction +1): control wins none; previous = seat 3 wins pair 2
    assert eff.loc[("a", "next"), "effect"] == pytest.approx(0)
    assert eff.loc[("a", "previous"), "effect"] == pytest.approx(-1 / 3)
    # other = seat 1 in every replay of a: never wins in either
    assert eff.loc[("a", "other"), "effect"] == 0 and eff.loc[("a", "other"), "n"] == 3
    assert (eff.loc["b", "effect"] == 0).all() and ("b", "other") not in eff.index


def test_replay_rejects_bad_requests():
    with pytest.raises(UserError, match="no wheel"):
        replay_spins("classic(players=4)", games=10)
    with pytest.raises(UserError, match="not on the spin2005 wheel"):
        replay_spins("spin2005(players=4)", games=10, spaces=["two_x"])
    with pytest.raises(UserError, match="has no spin 999"):
        replay_spins("spin2005(players=4)", pairs=[[0, 999]], execution=Execution(threads=1))


def test_wheel_cli_writes_space_effects(tmp_path, capsys):
    out = tmp_path / "w"
    assert (
        main(
            [
                "wheel",
                "--edition",
                "spin2005",
                "--players",
                "3",
                "--games",
                "200",
                "--seed",
                "4",
                "--threads",
                "1",
                "--out",
                str(out),
            ]
        )
        == 0
    )
    text = capsys.readouterr().out
    assert "show_hand" in text and "spins/s" in text
    luck = json.loads((out / "space_effects.json").read_text())["wheel_luck"]
    assert 0 <= luck["low"] <= luck["luck"] <= luck["high"]
    assert f"wheel luck {format_interval(luck['luck'], luck['low'], luck['high'])}" in text
    t = pd.read_csv(out / "space_effects.csv")
    assert list(t.columns[:5]) == ["space", "who", "effect", "low", "high"]
    assert set(t["space"]) == {
        "almost_uno",
        "discard_number",
        "discard_color",
        "draw_red",
        "draw_blue",
        "show_hand",
        "war",
        "uno_spin",
        "trade_hands",
    }
    assert (t["low"] <= t["effect"]).all() and (t["effect"] <= t["high"]).all()
    assert main(["wheel", "--edition", "classic", "--out", str(out)]) == 2
    assert "no wheel" in capsys.readouterr().err


def test_replay_table_has_the_schema_columns():
    """The replay table's columns and dtypes are those results/schema.py declares."""
    from unospin_sim.results.schema import REPLAY_FIELDS
    from unospin_sim.run import replay_spins

    rep = replay_spins(
        "spin2005(players=3)", "random", games=30, seed=1, execution=Execution(threads=1)
    )
    assert list(rep.columns) == [name for name, _, _ in REPLAY_FIELDS]
    for name, _, dtype in REPLAY_FIELDS:
        if dtype is not None:
            assert rep[name].dtype == dtype, name
    assert list(rep["space"].cat.categories)[0] == "none"
