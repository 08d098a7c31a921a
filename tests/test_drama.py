"""Drama (analysis.drama, run.drama, the ``drama`` command, the design metrics ``drama`` and
``wheel_luck``): exact figures on hand-built standings and event logs, the traced rounds
against the run's own rows, the command's output and errors."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from unospin_sim import simulate
from unospin_sim.analysis.drama import contest_drama, drama_summary, match_standings
from unospin_sim.analysis.luck import wheel_luck
from unospin_sim.analysis.stats import wilson_interval
from unospin_sim.cli import main
from unospin_sim.engine import layout as L
from unospin_sim.rules import RuleSet
from unospin_sim.run import RunSpec, replay_spins
from unospin_sim.run.drama import hand_sizes, results_drama, round_histories, rounds_drama
from unospin_sim.studies.design import measures
from unospin_sim.studies.design.evaluate import measure

# -- one contest -------------------------------------------------------------------------


def test_comeback_and_lead_changes_on_cards():
    # rows: start, then after each of 4 turns; the late rows are 2, 3, 4 (3c >= 4)
    s = [[7, 7], [6, 8], [8, 5], [9, 4], [0, 5]]
    # leaders (fewest cards): tie, 0, 1, 1, 0 -> two changes; seat 0 held 8 > 5 at row 2
    assert contest_drama(s, 0, lower_is_better=True) == (True, 2)
    # seat 1 held the most cards only before the late rows; leaders -, 0, 1, 1, 1
    s = [[7, 7], [6, 8], [5, 4], [6, 3], [4, 0]]
    assert contest_drama(s, 1, lower_is_better=True) == (False, 1)


def test_behind_only_in_the_first_third_is_no_comeback():
    # 6 turns: late rows 2..6; the winner held the most at row 1 only
    s = [[7, 7, 7], [9, 7, 7], [5, 7, 8], [4, 6, 8], [3, 6, 8], [2, 6, 8], [0, 6, 8]]
    assert contest_drama(s, 0, lower_is_better=True) == (False, 0)  # row 1: a tie, then 0 leads


def test_a_tie_for_the_most_is_not_behind_and_changes_no_lead():
    # the winner ties for the most late; ties for the fewest leave the lead where it was
    s = [[7, 7, 7], [6, 7, 7], [7, 7, 6], [6, 6, 7], [5, 6, 5], [0, 6, 5]]
    # leaders: -, 0, 2, -, -, 0 -> 0, 2, 0: two changes
    assert contest_drama(s, 0, lower_is_better=True) == (False, 2)


def test_points_higher_is_better():
    # a race: the winner stood strictly last after round 1 of 3 (late rows 1..3)
    s = [[0, 0, 0], [0, 40, 20], [90, 40, 60], [520, 40, 60]]
    assert contest_drama(s, 0, lower_is_better=False) == (True, 1)  # leaders -, 1, 0
    assert contest_drama(s, 2, lower_is_better=False) == (False, 1)


def test_bad_standing_is_refused():
    with pytest.raises(ValueError, match="standing"):
        contest_drama([[7, 7]], 0, lower_is_better=True)
    with pytest.raises(ValueError, match="standing"):
        contest_drama([[7, 7], [0, 3]], 2, lower_is_better=True)


def test_summary_share_interval_and_mean():
    back = ([[7, 7], [8, 6], [0, 6]], 0)  # came back, leaders -, 1, 0: one change
    plain = ([[7, 7], [6, 8], [0, 8]], 0)  # never behind, one leader: no change
    d = drama_summary([back, plain, plain, plain], lower_is_better=True)
    lo, hi = wilson_interval(1, 4)
    assert d["n"] == 4 and d["comeback"] == 25.0
    assert (d["comeback_low"], d["comeback_high"]) == (100 * lo, 100 * hi)
    assert d["lead_changes"] == 0.25
    assert d["lead_changes_low"] < 0.25 < d["lead_changes_high"]
    empty = drama_summary([], lower_is_better=True)
    assert empty["n"] == 0 and np.isnan(empty["comeback"])


def test_match_standings_from_tables():
    rounds = pd.DataFrame(
        {
            "match": [1, 0, 0, 1],
            "round": [0, 1, 0, 1],
            "score_0": [30, 0, 0, 30],
            "score_1": [0, 510, 20, 500],
        }
    )
    matches = pd.DataFrame({"match": [0, 1], "winner": [1, -1], "score_0": 0, "score_1": 0})
    got = list(match_standings(rounds, matches))
    assert len(got) == 1  # match 1 did not finish
    standing, winner = got[0]
    assert winner == 1
    assert standing.tolist() == [[0, 0], [0, 20], [0, 510]]


# -- hand sizes from an event log --------------------------------------------------------


def _ev(code, a=0, b=0, c=0):
    return [code, a, b, c]


def test_hand_sizes_follow_every_card_move():
    E = L
    log = (
        [_ev(E.EV_DEAL, 0, 5)] * 2
        + [_ev(E.EV_DEAL, 1, 5)] * 3
        + [_ev(E.EV_DEAL, 2, 5)] * 4
        + [_ev(E.EV_FIRST, 7), _ev(E.EV_TURN, 0, 0), _ev(E.EV_PLAY, 0, 5)]  # [1, 3, 4]
        + [_ev(E.EV_TURN, 1, 1), _ev(E.EV_DRAW, 1, 3), _ev(E.EV_DRAW, 1, 4)]  # [1, 5, 4]
        + [_ev(E.EV_SWAP, 0, 1), _ev(E.EV_TURN, 2, 2)]  # [5, 1, 4]
        + [_ev(E.EV_WHEEL_DISCARD, 2, 3, 1)] * 2  # [5, 1, 2]
        + [_ev(E.EV_TRADE), _ev(E.EV_SWAP, 0, 2)]  # [2, 5, 1] then [1, 5, 2]
        + [_ev(E.EV_TURN, 0, 3), _ev(E.EV_ZERO_PASS, -1)]  # [5, 2, 1]
        + [_ev(E.EV_TURN, 1, 4), _ev(E.EV_SHUFFLE, 1, 0)]  # [0, 0, 0]
        + [_ev(E.EV_REDEAL, 0, 2), _ev(E.EV_REDEAL, 0, 3), _ev(E.EV_REDEAL, 2, 2)]
        + [_ev(E.EV_TURN, 2, 5), _ev(E.EV_PLAY, 2, 2), _ev(E.EV_WIN, 2, 30)]
    )
    sizes = hand_sizes(np.array(log, np.int64), 3)
    want = [[2, 3, 4], [1, 3, 4], [5, 1, 4], [1, 5, 2], [5, 2, 1], [2, 0, 1], [2, 0, 0]]
    assert sizes.tolist() == want


# -- the run's own rounds, traced ---------------------------------------------------------


@pytest.mark.parametrize(
    "rules, bots, rotate",
    [
        ("classic(players=3)", "random", False),
        ("spin2005(players=4)", "random", False),
        ("spin2025", "heuristic,random,greedy,random", True),
    ],
)
def test_traced_rounds_are_the_runs_rounds(rules, bots, rotate):
    spec = RunSpec.build(rules, bots, 150, 5, rotate_bots=rotate)
    rows = simulate(spec).rounds
    hist = round_histories(spec, 150)
    assert [(w, t) for _, w, t in hist] == list(zip(rows["winner"], rows["turns"]))
    for sizes, w, _ in hist:
        assert (sizes >= 0).all() and sizes[-1, w] == 0
        assert (sizes[0] >= 7).all()  # the deal, before the first turn


def test_rounds_drama_leaves_unfinished_out():
    spec = RunSpec.build("spin2025(turn_cap=30)", "random", 60, 2)
    hist = round_histories(spec, 60)
    d = rounds_drama(hist)
    capped = sum(w < 0 for _, w, _ in hist)
    assert capped > 0 and d["unfinished"] == capped and d["n"] == 60 - capped


# -- the command -------------------------------------------------------------------------


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory):
    out = tmp_path_factory.mktemp("drama") / "r"
    assert main(["run", "--games", "400", "--seed", "3", "--threads", "1", "--out", str(out),
                 "--quiet"]) == 0  # fmt: skip
    return out


def test_drama_command_prints_the_figures(run_dir, capsys):
    capsys.readouterr()
    assert main(["drama", str(run_dir), "--games", "200", "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    spec = RunSpec.build("spin2025", "random", 200, 3)
    want = rounds_drama(round_histories(spec, 200))
    assert got["rounds"] == pytest.approx(want) and got["matches"] is None
    assert main(["drama", str(run_dir), "--games", "1e6"]) == 0  # more than the run holds
    text = capsys.readouterr().out
    assert "rounds  400" in text and "winner came back" in text and "lead changes" in text


def test_drama_of_a_match_run(tmp_path):
    out = tmp_path / "m"
    assert main(["run", "--rules", "spin2005(match=race,target=200)", "--matches", "20",
                 "--threads", "1", "--out", str(out), "--quiet"]) == 0  # fmt: skip
    d = results_drama(out, 50)
    assert d["rounds"]["n"] + d["rounds"]["unfinished"] == 50
    assert d["matches"]["n"] == 20


@pytest.mark.parametrize(
    "args, words",
    [
        (["drama", " "], "needs a results directory"),
        (["drama", "NOWHERE"], "is not a results directory"),
        (["drama", "DIR", "--games", "0"], "games must be a positive whole number"),
    ],
)
def test_drama_command_errors(args, words, capsys, run_dir, tmp_path):
    args = [str(tmp_path / "none") if a == "NOWHERE" else str(run_dir) if a == "DIR" else a
            for a in args]  # fmt: skip
    assert main(args) == 2
    err = capsys.readouterr().err.strip()
    assert words in err and len(err.splitlines()) == 1


def test_a_run_without_rounds_is_refused(tmp_path, capsys):
    out = tmp_path / "s"
    assert main(["run", "--games", "100", "--summary-only", "--threads", "1", "--out",
                 str(out), "--quiet"]) == 0  # fmt: skip
    assert main(["drama", str(out)]) == 2
    assert "no round table" in capsys.readouterr().err


# -- the design metrics ------------------------------------------------------------------


def test_design_drama_metric_on_a_capped_sample(monkeypatch):
    monkeypatch.setattr(measures, "DRAMA_ROUNDS", 120)
    rules = RuleSet.build("spin2025")
    got = measure(rules, ["drama"], 500, 9).metrics["drama"]
    d = rounds_drama(round_histories(RunSpec.build(rules, "random", 120, 9), 120))
    assert got == (d["comeback"], d["comeback_low"], d["comeback_high"])
    assert d["n"] == 120


def test_design_wheel_luck_metric(monkeypatch):
    monkeypatch.setattr(measures, "WHEEL_LUCK_ROUNDS", 150)
    rules = RuleSet.build("spin2005")
    got = measure(rules, ["wheel_luck"], 400, 4).metrics["wheel_luck"]
    rep = replay_spins(RunSpec.build(rules, "random", 150, 4), spins_per_round=1)
    w = wheel_luck(rep, seed=4)
    assert got == (w["luck"], w["low"], w["high"])
    assert rep["pair"].nunique() <= 150


def test_wheel_luck_goal_needs_a_wheel(capsys, tmp_path):
    args = ["design", "--edition", "classic", "--goal", "wheel_luck<=5", "--vary", "stacking",
            "--out", str(tmp_path / "x")]  # fmt: skip
    assert main(args) == 2
    assert "classic has no wheel" in capsys.readouterr().err


@pytest.mark.slow
def test_design_study_with_a_drama_goal(tmp_path, capsys):
    out = tmp_path / "d"
    args = ["design", "--edition", "spin2025", "--goal", "drama>=30", "--vary", "wheel",
            "--trials", "2", "--games", "200", "--stages", "2", "--threads", "1",
            "--out", str(out), "--quiet", "--json"]  # fmt: skip
    assert main(args) == 0
    best = json.loads(capsys.readouterr().out)
    m = best["metrics"]["drama"]
    assert 0 <= m["low"] <= m["value"] <= m["high"] <= 100
    assert set(best["holds"]) == {"drama>=30"}
