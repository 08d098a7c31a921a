"""Analyses against hand-computed values, and the report end to end."""

import numpy as np
import pandas as pd
import pytest

from unospin_sim.analysis import (
    assemble_matches,
    balance_table,
    race_summary,
    seat_win_rates,
    space_effects,
)
from unospin_sim.analysis.stats import cluster_ratio, cluster_ratio_diff
from unospin_sim.errors import UserError
from unospin_sim.run import Execution, simulate


def _rounds(winners, points, players=2, left=None):
    d = {
        "game": np.arange(len(winners)),
        "winner": winners,
        "winner_points": points,
        "first_player": np.zeros(len(winners), int),
        "turns": np.full(len(winners), 10),
        "spins": np.zeros(len(winners), int),
    }
    for i in range(players):
        d[f"cards_left_{i}"] = np.ones(len(winners), int)
        d[f"points_left_{i}"] = left[i] if left is not None else np.zeros(len(winners), int)
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
    winners = [0, 0, 1, 0, 1]  # simulated seats
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
    res = simulate(
        "spin2025(players=4)", "random", games=20000, seed=2, execution=Execution(threads=2)
    )
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
    assert (
        bal.loc["a", "mean_turns_low"]
        < bal.loc["a", "mean_turns"]
        < bal.loc["a", "mean_turns_high"]
    )


@pytest.mark.slow
def test_report_command_writes_charts_and_tables(tmp_path, cli):
    out = tmp_path / "res"
    r = cli(
        "run",
        "--games",
        "3000",
        "--edition",
        "spin2005",
        "--seed",
        "3",
        "--out",
        str(out),
        "--quiet",
    )
    assert r.returncode == 0, r.stderr
    rep = tmp_path / "rep"
    r = cli("report", str(out), "--out", str(rep))
    assert r.returncode == 0, r.stderr
    for name in (
        "report.md",
        "report.html",
        "balance.png",
        "seats.png",
        "wheel_0.png",
        "wheel_drawn_0.png",
        "wheel_effects_0.png",
        "race.png",
        "race_lead.png",
        "race_heat_0.png",
        "tables/race_lead_heat_0.csv",
        "tables/balance.csv",
        "tables/wheel_0.csv",
        "tables/space_effects_0.csv",
    ):
        assert (rep / name).exists(), name
    text = (rep / "report.md").read_text()
    assert "almost_uno" in text and "spin2005(players=4)" in text
    # the findings come first, generated from the numbers, with intervals
    findings = text.split("## Findings", 1)[1].split("\n## ", 1)[0]
    assert "a round lasts" in findings and "percentage points" in findings and "[" in findings
    assert "helps the spinner most" in findings and "match to 500 points lasts" in findings
    assert "Relative swing" in text and "Reproduce: `python -m unospin_sim" in text
    page = (rep / "report.html").read_text()
    # every chart embedded: the 7 of the analyses and the drawn wheel
    assert page.count("data:image/png;base64,") == 8 and ">Findings</h2>" in page
    assert 'src="balance.png' not in page  # self-contained
    r = cli("report", str(tmp_path / "missing"))
    assert r.returncode == 2 and "Traceback" not in r.stderr


@pytest.mark.parametrize(
    "rules,games,target",
    [
        ("classic(players=4,turn_cap=5)", 300, 500),  # every round unfinished
        ("classic(players=4)", 3, 500),  # too few rounds for intervals
        ("spin2005(players=4)", 3000, 5000),  # long matches: seat offsets past int8
    ],
)
def test_report_survives_degenerate_runs(tmp_path, rules, games, target):
    from unospin_sim.report import build_report

    simulate(rules, "random", games=games, seed=1, execution=Execution(out=tmp_path / "r"))
    path = build_report([tmp_path / "r"], tmp_path / "rep", target=target)
    assert path.exists()


def test_format_p_and_ratio_interval_by_hand():
    from unospin_sim.report import format_p, ratio_interval

    assert format_p(8e-156) == "< 1e-6" and format_p(0.01234) == "0.0123"
    assert format_p(float("nan")) == "-"
    r, lo, hi = ratio_interval([2, 4, 6], [1, 2, 3])
    assert r == pytest.approx(2.0)
    # log-scale delta method: se^2 = var(a)/n/ma^2 + var(b)/n/mb^2 = 4/3/16 + 1/3/4
    se = np.sqrt(4 / 3 / 16 + 1 / 3 / 4)
    assert lo == pytest.approx(2 * np.exp(-1.959963984540054 * se))
    assert hi == pytest.approx(2 * np.exp(1.959963984540054 * se))


def test_report_leaves_out_seat_figures_of_mixed_unrotated_bots(tmp_path):
    from unospin_sim.report import build_report

    simulate(
        "classic(players=4)",
        "heuristic,random,random,random",
        games=2000,
        seed=1,
        execution=Execution(out=tmp_path / "mix"),
    )
    simulate(
        "classic(players=4)",
        "random",
        games=2000,
        seed=1,
        execution=Execution(out=tmp_path / "fair"),
    )
    path = build_report([tmp_path / "mix", tmp_path / "fair"], tmp_path / "rep", wheel_games=0)
    text = path.read_text()
    assert "Mixed bots without rotation" in text and "left out" in text
    findings = text.split("## Findings", 1)[1].split("\n## ", 1)[0]
    assert "heuristic" not in findings.split("rounds are")[0]  # no seat finding for the mix
    assert "classic(players=4) random`: a round lasts" in findings
    assert not (tmp_path / "rep" / "tables" / "seats_0.csv").exists()
    assert (tmp_path / "rep" / "tables" / "seats_1.csv").exists()


def test_race_round_by_round_by_hand():
    from unospin_sim.analysis.race import lead_win_table, match_rounds, race_dynamics

    # the matches of test_race_matches_by_hand_with_dealer_rotation, round by round
    mr = match_rounds(_rounds([0, 0, 1, 0, 1], [300, 100, 250, 500, 600]), target=500)
    m0 = mr[mr["match"] == 0]
    assert list(zip(m0["score_0"], m0["score_1"])) == [(300, 0), (300, 100), (300, 350), (300, 850)]
    assert list(m0["leader"]) == [0, 0, 1, 1] and list(m0["winner"]) == [0, 1, 1, 1]
    assert (mr["match_winner"] == 1).all() and list(mr["k"]) == [1, 2, 3, 4, 1]
    d = race_dynamics(mr)
    # match 0: player 1 trailed by 300 after round 1 and won; match 1: never behind
    assert d.loc["comeback_rate", "value"] == 0.5
    assert d.loc["lead_changes", "value"] == 0.5  # (1 + 0) / 2
    assert d.loc["rounds_per_match", "value"] == 2.5
    assert d.loc["turns_per_match", "value"] == 25  # 10 turns a round
    assert d.loc["first_player_match_win", "value"] == -0.5  # player 0 won neither
    t = lead_win_table(mr, max_round=3)
    # only match 0 runs past round k; its leader after rounds 1, 2 is player 0 (loses), 3: 1
    assert list(t["n"]) == [1, 1, 1] and list(t["p_leader_wins"]) == [0.0, 0.0, 1.0]


def test_difference_and_sensitivity_tables_by_hand():
    from unospin_sim.analysis import difference_table, sensitivity_table

    a = _rounds([0, 1], [10, 30])
    a["turns"], a["spins"] = [10, 20], [1, 3]
    b = _rounds([0, 0], [20, 20])
    b["turns"], b["spins"] = [20, 40], [2, 2]
    d = difference_table({"a": a, "b": b}, target=None).loc["b"]
    z = 1.959963984540054
    assert d.loc["mean_turns", "difference"] == 15
    # se: sd/sqrt(n) = 5 (a) and 10 (b)
    assert d.loc["mean_turns", "high"] - 15 == pytest.approx(z * np.sqrt(125))
    assert d.loc["first_player_advantage", "base"] == 0.0
    assert d.loc["first_player_advantage", "value"] == 0.5
    assert d.loc["mean_winner_points", "difference"] == 0
    assert d.loc["spins_per_round", "difference"] == 0
    assert (d["holds"] == 0).all()
    diff = pd.DataFrame(
        {"label": ["x", "x", "y", "y"], "measure": ["m", "n", "m", "n"], "holds": [1, 1, 1, -1]}
    ).set_index(["label", "measure"])
    s = sensitivity_table(diff)
    assert s.loc["m", "verdict"] == "holds: higher" and s.loc["n", "verdict"] == "flips"


def test_target_curve_by_hand():
    from unospin_sim.analysis.race import target_curve

    # 2 players; target 100: every round of >= 100 points is a match of its own
    t = target_curve(_rounds([0, 1, 0, 1], [100, 200, 100, 300]), targets=(100, 400))
    assert t.loc[100, "matches"] == 4 and t.loc[100, "rounds_per_match"] == 1
    # each match restarts at k = 0: seat s is player s; player 0 wins 2 of 4
    assert t.loc[100, "player_win_rate"] == 0.5
    # target 400: seats 0,1,0 -> players 0,1,0 in match 0 (k = 0, 1, 2 -> p0, p0, p0)...
    # by the relabelling player = (seat + k) % 2: 0+0=0 (+100), 1+1=0 (+200), 0+2=0 (+100)
    # -> player 0 reaches 400 after 3 rounds; round 4 is left over
    assert t.loc[400, "matches"] == 1 and t.loc[400, "rounds_per_match"] == 3
    assert t.loc[400, "player_win_rate"] == 1.0


def test_catch_up_table_by_hand():
    from unospin_sim.analysis import catch_up_table
    from unospin_sim.errors import UserError

    sp = pd.DataFrame(
        {
            "space": pd.Categorical(
                ["a", "a", "a", "a", "b", "b", "b", "b", "a"], categories=["a", "b"]
            ),
            "spinner": [0, 0, 1, 1, 0, 0, 1, 1, 2],
            "leader": [1, 1, 1, 1, 1, 1, 1, 1, -1],  # spinner 0 trails, 1 leads; a tie: left out
            "hand_before": [5, 5, 2, 2, 5, 5, 2, 2, 4],
            "hand_after": [3, 1, 3, 3, 7, 7, 4, 4, 0],  # a: behind -2, -4 / ahead +1, +1
        }
    )
    t = catch_up_table(sp)
    assert t.loc["a", "spins_behind"] == 2 and t.loc["a", "spins_leading"] == 2
    assert t.loc["a", "change_behind"] == -3 and t.loc["a", "change_leading"] == 1
    assert t.loc["a", "catch_up"] == 4  # closes gaps: 1 - (-3)
    # se = sqrt(var(-2,-4)/2 + var(1,1)/2) = sqrt(2/2 + 0) = 1
    assert t.loc["a", "catch_up_low"] == pytest.approx(4 - 1.959963984540054)
    assert t.loc["b", "catch_up"] == 0 and t.loc["b", "change_behind"] == 2
    # all: behind -2, -4, +2, +2 (mean -0.5); leading +1, +1, +2, +2 (mean 1.5)
    assert t.loc["all", "spins_behind"] == 4 and t.loc["all", "catch_up"] == pytest.approx(2.0)
    with pytest.raises(UserError, match="lacks leader"):
        catch_up_table(sp.drop(columns="leader"))


def test_lead_heat_table_by_hand():
    from unospin_sim.analysis.race import lead_heat_table

    # three matches of 2 players; after round 1 the leader leads by 60, 60 and 250 points
    mr = pd.DataFrame(
        {
            "match": [0, 0, 1, 1, 2, 2],
            "k": [1, 2, 1, 2, 1, 2],
            "score_0": [60, 500, 60, 60, 0, 260],
            "score_1": [0, 0, 0, 510, 250, 500],
            "leader": [0, 0, 0, 1, 1, 1],
            "match_winner": [0, 0, 1, 1, 1, 1],
        }
    )
    h = lead_heat_table(mr, max_round=2).set_index(["k", "margin"])
    assert h.loc[(1, "50-100"), "n"] == 2 and h.loc[(1, "50-100"), "p_leader_wins"] == 0.5
    assert h.loc[(1, "200-300"), "n"] == 1 and h.loc[(1, "200-300"), "p_leader_wins"] == 1
    assert h.loc[(1, "1-50"), "n"] == 0 and np.isnan(h.loc[(1, "1-50"), "p_leader_wins"])
    assert (h.loc[2, "n"] == 0).all()  # no match runs on after its last round
    lo, hi = h.loc[(1, "50-100"), ["low", "high"]]
    assert lo < 0.5 < hi


def test_report_gives_the_jump_in_rate_under_jump_in(tmp_path):
    from unospin_sim.analysis.stats import mean_interval
    from unospin_sim.report import build_report

    res = simulate(
        "classic(players=4,jump_in=true)",
        "random",
        games=1500,
        seed=2,
        execution=Execution(out=tmp_path / "j"),
    )
    simulate(
        "classic(players=4)", "random", games=300, seed=2, execution=Execution(out=tmp_path / "p")
    )
    text = build_report(
        [tmp_path / "j", tmp_path / "p"], tmp_path / "rep", wheel_games=0
    ).read_text()
    m, lo, hi = mean_interval(res.rounds.jump_ins.to_numpy())
    line = f"{m:.2f} jump-ins per round [{lo:.2f}, {hi:.2f}]"
    findings = text.split("## Findings", 1)[1].split("\n## ", 1)[0]
    assert f"jump_in=true) random`: {line}" in findings
    assert "### Jump-ins" in text and text.count("jump-ins per round") == 2  # one run has them


def _first_rounds(match: bool = False) -> pd.DataFrame:
    """Six rounds of 4 players built by hand: who acted first, who won."""
    d = {
        "game": np.arange(6),
        "first_player": [0, 1, 0, 3, 0, 2],
        "winner": [0, 1, 2, 0, -1, 2],
        "turns": [10, 20, 30, 40, 50, 60],
    }
    for i in range(4):
        d[f"cards_left_{i}"] = np.ones(6, int)
    if match:  # round j: the player dealt seat 0 is player j mod 4
        d["match"] = [0, 0, 0, 0, 1, 1]
        d["round"] = [0, 1, 2, 3, 0, 1]
    return pd.DataFrame(d)


def test_first_player_table_by_hand():
    """Seat order and the player who acts first, both shown and told apart: the player
    who acted first won rounds 0, 1 and 5 (3 of 6), seat 0 rounds 0 and 3 (2 of 6); in
    rounds 1, 3 and 5 the first card moved the first turn away from seat 0."""
    from unospin_sim.analysis import first_player_table
    from unospin_sim.analysis.seats import first_player_advantage, first_player_counts

    r = _first_rounds()
    assert first_player_counts(r) == (6, 3, 3)
    t = first_player_table(r)
    assert list(t.index) == ["acts first", "seat 0", "seat 1", "seat 2", "seat 3"]
    assert list(t["wins"]) == [3, 2, 1, 2, 0]
    assert t.at["acts first", "rate"] == 0.5 and t.at["seat 0", "rate"] == pytest.approx(2 / 6)
    assert t.at["acts first", "edge"] == pytest.approx(0.25)
    assert (t["low"] <= t["rate"] + 1e-12).all() and (t["rate"] <= t["high"]).all()
    assert t.attrs["moved"] == 0.5
    assert "acts first" in t.attrs["note"] and "50.0% of these rounds" in t.attrs["note"]
    e = first_player_advantage(r)
    assert (e["rate"], e["advantage"], e["moved"]) == (0.5, 0.25, 0.5)
    assert e["low"] == t.at["acts first", "low"]


def test_first_player_table_of_a_match_run_names_players():
    """A match run's round table has players, never seats; the player dealt seat 0 in
    round j is player j mod 4, so only rounds 2 and 5 moved the first turn."""
    from unospin_sim.analysis import first_player_table

    t = first_player_table(_first_rounds(match=True))
    assert list(t.index) == ["acts first", "player 0", "player 1", "player 2", "player 3"]
    assert t.attrs["moved"] == pytest.approx(2 / 6)
    assert seat_win_rates(_first_rounds(match=True)).index.name == "player"
    assert "the deal passes" in t.attrs["note"]
    never = _first_rounds().assign(first_player=0)
    assert "every one of these rounds seat 0 acted first" in first_player_table(never).attrs["note"]


def test_summary_shows_the_player_who_acts_first():
    """``run`` (the accumulator) and ``summary`` (the round table) print the same figure."""
    from unospin_sim.analysis.summary import SummaryAccumulator, format_summary, summarize

    r = _first_rounds()
    s = summarize(r, players=4)
    acc = SummaryAccumulator.of_rounds(4, r.game, r.winner, r.turns, first=r.first_player)
    pd.testing.assert_frame_equal(acc.summarize(), s)
    row = s.set_index("statistic").loc["first_player_win_rate"]
    assert row.value == 0.5
    text = format_summary(s)
    assert "seat  win rate  95% interval  (seat order: seat 0 sits left of the dealer" in text
    assert "acts first  0.5000" in text and "+25.00 pp" in text
    assert "first card's effect: not seat 0 in 50.00% of rounds" in text
    # an accumulator stored before these counts existed: the line is left out
    old = SummaryAccumulator.from_dict(
        {k: v for k, v in acc.to_dict().items() if not k.startswith("first_")}
    )
    assert "acts first" not in format_summary(old.summarize())
    merged = SummaryAccumulator(4).merge(acc).merge(old)  # a resume across versions
    assert merged.first_wins is None and merged.games == 12
