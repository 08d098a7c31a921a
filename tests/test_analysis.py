"""Analyses against hand-computed values, and the report end to end."""

import numpy as np
import pandas as pd
import pytest

from unospin_sim.analysis import (assemble_matches, balance_table, race_summary,
                                  seat_win_rates, space_effects)
from unospin_sim.analysis.stats import cluster_ratio, cluster_ratio_diff
from unospin_sim.errors import UserError
from unospin_sim.runner import simulate


def _rounds(winners, points, players=2, left=None):
    d = {"game": np.arange(len(winners)), "winner": winners, "winner_points": points,
         "first_player": np.zeros(len(winners), int), "turns": np.full(len(winners), 10),
         "spins": np.zeros(len(winners), int)}
    for i in range(players):
        d[f"cards_left_{i}"] = np.ones(len(winners), int)
        d[f"points_left_{i}"] = (left[i] if left is not None else np.zeros(len(winners), int))
    return pd.DataFrame(d)


def test_cluster_ratio_equals_plain_mean_and_sees_clustering():
    vals = pd.Series([1.0, 0.0, 1.0, 1.0])
    clusters = pd.Series([0, 0, 1, 2])
    m, lo, hi = cluster_ratio(vals, clusters)
    assert m == pytest.approx(0.75)
    # by hand: r = 3/4, u_g = (y_g - r n_g)/N = (-0.5, 0.25, 0.25)/4
    u = np.array([-0.5, 0.25, 0.25]) / 4
    se = np.sqrt(3 / 2 * np.sum(u * u))
    assert hi - m == pytest.approx(1.959963984540054 * se)
    d, dlo, dhi = cluster_ratio_diff(vals, clusters, pd.Series([True, False, True, False]))
    assert d == pytest.approx(1.0 - 0.5)
    assert dlo < d < dhi


def test_seat_win_rates_by_hand():
    t = seat_win_rates(_rounds([0, 0, 1, -1], [5, 5, 5, 0]))
    assert list(t["wins"]) == [2, 1]
    assert list(t["rate"]) == [0.5, 0.25]
    assert (t["low"] <= t["rate"]).all() and (t["rate"] <= t["high"]).all()


def test_race_matches_by_hand_with_dealer_rotation():
    # 2 players: in round k of a match simulated seat s is player (s + k) % 2
    winners = [0, 0, 1, 0, 1]       # simulated seats
    points = [300, 100, 250, 500, 600]
    m = assemble_matches(_rounds(winners, points), target=500)
    # match 0: k0 seat0 -> p0 +300; k1 seat0 -> p1 +100; k2 seat1 -> p1 +250;
    #          k3 seat0 -> p1 +500 => p1 reaches 850 and wins after 4 rounds
    assert m.loc[0, "rounds"] == 4 and m.loc[0, "winner"] == 1
    assert (m.loc[0, "score_0"], m.loc[0, "score_1"]) == (300, 850)
    assert m.loc[0, "rounds_won_by_winner"] == 3 and m.loc[0, "most_rounds_won"] == 3
    # match 1 starts afresh with k = 0: seat1 -> p1 +600
    assert m.loc[1, "rounds"] == 1 and m.loc[1, "winner"] == 1 and m.loc[1, "first_game"] == 4
    s = race_summary(m)
    assert s.loc["rounds_per_match", "value"] == pytest.approx(2.5)
    assert s.loc["win_rate_player_1", "value"] == 1.0


def test_race_lowest_mode_and_refusals():
    left = [np.array([400, 200]), np.array([0, 0])]
    m = assemble_matches(_rounds([1, 0], [400, 0], left=left), target=500, mode="lowest")
    # r0: seat0 holds 400 -> p0; r1: seat1 (p0) holds 0, seat0 (p1) holds 200 => totals 400,200
    assert len(m) == 0
    left = [np.array([400, 200]), np.array([0, 150])]
    m = assemble_matches(_rounds([1, 0], [400, 0], left=left), target=500, mode="lowest")
    assert m.loc[0, "score_0"] == 550 and m.loc[0, "score_1"] == 200
    assert m.loc[0, "winner"] == 1
    with pytest.raises(UserError, match="same bot"):
        assemble_matches(_rounds([0], [500]), bots=["random", "heuristic"])
    with pytest.raises(UserError, match="mode"):
        assemble_matches(_rounds([0], [500]), mode="nope")


def test_space_effects_on_a_simulation():
    res = simulate("spin2025(players=4)", "random", games=20_000, seed=2, threads=2)
    eff = space_effects(res.rounds, res.spins)
    assert set(eff.index) == set(res.spins.space.cat.categories)
    # drawing spaces add cards and hurt; Color Discard sheds cards and helps (95% CIs)
    assert (eff.loc["color_draw_red", ["hand_change_low"]] > 0).all()
    assert eff.loc["color_draw_red", "swing_high"] < 0
    assert eff.loc["color_discard", "swing_low"] > 0
    assert eff.loc["two_x", "hand_change"] == 0
    assert eff["spins"].sum() == len(res.spins)
    bal = balance_table({"a": res.rounds})
    assert bal.loc["a", "games"] == 20_000
    assert bal.loc["a", "mean_turns_low"] < bal.loc["a", "mean_turns"] < bal.loc["a", "mean_turns_high"]


def test_report_command_writes_charts_and_tables(tmp_path, cli):
    out = tmp_path / "res"
    r = cli("run", "--games", "3000", "--edition", "spin2005", "--seed", "3", "--out", str(out),
            "--quiet")
    assert r.returncode == 0, r.stderr
    rep = tmp_path / "rep"
    r = cli("report", str(out), "--out", str(rep))
    assert r.returncode == 0, r.stderr
    for name in ("report.md", "balance.png", "seats.png", "wheel_0.png", "race.png",
                 "tables/balance.csv", "tables/wheel_0.csv"):
        assert (rep / name).exists(), name
    text = (rep / "report.md").read_text()
    assert "almost_uno" in text and "spin2005(players=4)" in text
    r = cli("report", str(tmp_path / "missing"))
    assert r.returncode == 2 and "Traceback" not in r.stderr


@pytest.mark.parametrize("rules,games,target", [
    ("classic(players=4,turn_cap=5)", 300, 500),   # every round unfinished
    ("classic(players=4)", 3, 500),                # too few rounds for intervals
    ("spin2005(players=4)", 3000, 5000),           # long matches: seat offsets past int8
])
def test_report_survives_degenerate_runs(tmp_path, rules, games, target):
    from unospin_sim.report import build_report
    simulate(rules, "random", games=games, seed=1, out=tmp_path / "r")
    path = build_report([tmp_path / "r"], tmp_path / "rep", target=target)
    assert path.exists()
