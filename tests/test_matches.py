"""Match mode (rule options match=race|lowest, target): whole matches played in the engine."""

from __future__ import annotations

import json
import math
import re

import numpy as np
import pandas as pd
import pytest

from unospin_sim.analysis.race import assemble_matches
from unospin_sim.cli import main
from unospin_sim.errors import RuleError, UserError
from unospin_sim.results import MATCH_COLUMNS, MAX_MATCH_ROUNDS, load_matches, load_results
from unospin_sim.rules import parse_rules
from unospin_sim.run import Execution, simulate


def _check_scores(
    rounds: pd.DataFrame,
    matches: pd.DataFrame,
    p: int,
    target: int,
    mode: str,
    partners: bool = False,
) -> None:
    """Every round's running scores add up from the round before; the winner is the first
    past the target; the match row is the last round's. ``partners`` (a race): players t
    and t + p/2 are team t, the winning team scores the opponents' cards, both partners
    carry the team's score, the match's winner is the team."""
    teams = p // 2
    assert list(matches["match"]) == list(range(len(matches)))
    for m, g in rounds.groupby("match", sort=True):
        g = g.sort_values("round")
        assert list(g["round"]) == list(range(len(g)))
        score = np.zeros(p, np.int64)
        for j, row in enumerate(g.itertuples(index=False)):
            row = row._asdict()
            w = row["winner"]
            if w >= 0:
                if partners:
                    opp = sum(row[f"points_left_{i}"] for i in range(p) if i % teams != w % teams)
                    assert row["team_winner"] == w % teams and row["team_points"] == opp
                    score[w % teams :: teams] += opp
                elif mode == "race":
                    score[w] += row["winner_points"]
                    # the winner's points are the other players' points left
                    assert row["winner_points"] == sum(
                        row[f"points_left_{i}"] for i in range(p) if i != w
                    )
                else:
                    score += [row[f"points_left_{i}"] for i in range(p)]
            assert [row[f"score_{i}"] for i in range(p)] == score.tolist()
            over = score.max() >= target if mode == "race" else score.max() > target
            assert over == (j == len(g) - 1), (m, j)  # first past the target ends it
        mrow = matches.loc[matches["match"] == m].iloc[0]
        assert mrow["rounds"] == len(g) and mrow["turns"] == g["turns"].sum()
        assert [mrow[f"score_{i}"] for i in range(p)] == score.tolist()
        champ = int(np.argmax(score)) if mode == "race" else int(np.argmin(score))
        assert mrow["winner"] == champ
        if partners:
            assert champ < teams and score[champ] == score[champ + teams]


@pytest.mark.parametrize(
    "rules,bots",
    [
        ("classic(players=4,match=race,target=200)", "random,heuristic,random,heuristic"),
        ("spin2005(players=3,match=race)", "random"),
        ("spin2025(players=4,match=lowest,target=150)", "heuristic,random,random,random"),
        (
            "classic(players=4,partners=true,match=race,target=200)",
            "random,heuristic,random,heuristic",
        ),
        (
            "spin2025(players=6,partners=true,match=race)",
            "heuristic,random,random,random,random,random",
        ),
    ],
)
def test_recorded_scores_add_up_and_the_first_past_the_target_wins(rules, bots):
    rs = parse_rules(rules)
    res = simulate(rs, bots, games=40, seed=3, execution=Execution(threads=1, chunk_size=7))
    assert res.meta["matches"] == 40 and res.meta["games"] == len(res.rounds)
    # game numbers round j of match m as m * MAX_MATCH_ROUNDS + j (known where it is played)
    assert list(res.rounds["game"]) == list(
        res.rounds["match"] * MAX_MATCH_ROUNDS + res.rounds["round"]
    )
    assert res.rounds["game"].is_monotonic_increasing
    assert list(res.matches.columns) == MATCH_COLUMNS(rs.players)
    _check_scores(
        res.rounds,
        res.matches,
        rs.players,
        rs.option("target"),
        rs.option("match"),
        rs.option("partners"),
    )


def test_matches_do_not_depend_on_threads_or_chunks():
    a = simulate(
        "spin2005(players=4,match=race)",
        "random,heuristic,random,random",
        games=24,
        seed=9,
        execution=Execution(threads=1, chunk_size=24),
    )
    b = simulate(
        "spin2005(players=4,match=race)",
        "random,heuristic,random,random",
        games=24,
        seed=9,
        execution=Execution(threads=2, chunk_size=5),
    )
    pd.testing.assert_frame_equal(a.rounds, b.rounds)
    pd.testing.assert_frame_equal(a.spins, b.spins)
    pd.testing.assert_frame_equal(a.matches, b.matches)
    c = simulate(
        "spin2005(players=4,match=race)",
        "random,heuristic,random,random",
        games=24,
        seed=10,
        execution=Execution(threads=1),
    )
    assert not c.matches.equals(a.matches)


def test_the_deal_passes_each_round():
    """Round j of a match is started by player j mod N unless the first card changes that
    (classic: a first Skip / Reverse / Draw Two; spin2025: numbers only, so never)."""
    res = simulate(
        "spin2025(players=4,match=race)", "random", games=10, seed=1, execution=Execution(threads=1)
    )
    r = res.rounds
    assert (r["first_player"] == r["round"] % 4).all()


def test_rotate_bots_and_single_mode_errors():
    with pytest.raises(UserError, match="rotate_bots cannot be combined with match=race"):
        simulate("classic(match=race)", "random", games=2, rotate_bots=True)
    with pytest.raises(RuleError, match="target=100 cannot be combined with match=single"):
        parse_rules("classic(target=100)")


def test_cli_race_writes_matches_and_summary_reads_them(tmp_path, capsys):
    out = tmp_path / "r"
    rc = main(
        [
            "run",
            "--match",
            "race",
            "--target",
            "300",
            "--matches",
            "12",
            "--edition",
            "classic",
            "--bots",
            "random,heuristic,random,random",
            "--seed",
            "4",
            "--out",
            str(out),
            "--quiet",
            "--threads",
            "1",
        ]
    )
    assert rc == 0
    text = capsys.readouterr().out
    assert "classic(players=4,match=race,target=300)" in text and "matches     12" in text
    assert "player  win rate" in text and "seat  win rate" not in text
    meta = json.loads((out / "meta.json").read_text())
    assert meta["match"] == "race" and meta["matches"] == 12 and meta["target"] == 300
    res = load_results(out)
    rounds, meta, matches = res.rounds, res.meta, res.matches
    pd.testing.assert_frame_equal(load_matches(out), matches)
    assert len(matches) == 12 and len(rounds) == meta["games"] == matches["rounds"].sum()
    _check_scores(rounds, matches, 4, 300, "race")
    assert main(["summary", str(out)]) == 0
    assert "player  match win rate" in capsys.readouterr().out
    # the same via --rules
    out2 = tmp_path / "r2"
    assert (
        main(
            [
                "run",
                "--rules",
                "classic(players=4,match=race,target=300)",
                "--matches",
                "12",
                "--bots",
                "random,heuristic,random,random",
                "--seed",
                "4",
                "--out",
                str(out2),
                "--quiet",
                "--threads",
                "1",
            ]
        )
        == 0
    )
    pd.testing.assert_frame_equal(load_matches(out2), matches)
    # report: the race section uses the engine's matches (all 12), not assembled ones
    from unospin_sim.report import build_report

    md = build_report([out], tmp_path / "rep", target=300).read_text()
    assert ": 12 matches" in md


def test_cli_partners_race_summaries_are_per_team(tmp_path, capsys):
    out = tmp_path / "p"
    assert (
        main(
            [
                "run",
                "--match",
                "race",
                "--target",
                "200",
                "--matches",
                "10",
                "--edition",
                "classic",
                "--option",
                "partners=true",
                "--seed",
                "4",
                "--out",
                str(out),
                "--quiet",
                "--threads",
                "1",
            ]
        )
        == 0
    )
    text = capsys.readouterr().out
    assert "team  win rate" in text and "  team  match win rate" in text
    res = load_results(out)
    _check_scores(res.rounds, res.matches, 4, 200, "race", partners=True)
    wins = np.bincount(res.matches["winner"], minlength=2)
    line = re.search(r"^\s+0\s+([0-9.]+)\s+\[", text.split("match win rate")[1], re.M)
    assert float(line[1]) == pytest.approx(wins[0] / 10, abs=1e-4)
    assert main(["summary", str(out)]) == 0
    again = capsys.readouterr().out
    assert "team  win rate" in again and "  team  match win rate" in again


@pytest.mark.parametrize(
    "argv,word",
    [
        (["--matches", "5"], "--matches needs a match mode"),
        (["--match", "race", "--games", "5"], "give --matches N, not --games"),
        (["--target", "300"], "target=300 cannot be combined with match=single"),
        (["--match", "best_of_3"], "must be one of single, race, lowest"),
        (["--match", "race", "--rotate-bots"], "--rotate-bots cannot be combined"),
        (["--rules", "classic(match=race)", "--match", "lowest"], "--match contradicts --rules"),
    ],
)
def test_cli_match_errors_exit_2(tmp_path, capsys, argv, word):
    rc = main(["run", "--out", str(tmp_path / "x"), "--quiet"] + argv)
    err = capsys.readouterr().err
    assert rc == 2 and word in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1


@pytest.mark.slow
@pytest.mark.parametrize("edition", ["classic", "spin2005"])
def test_race_agrees_with_matches_assembled_from_single_rounds(edition):
    """Identical bots: matches played in the engine and matches assembled from consecutive
    single rounds (analysis.assemble_matches) are the same random process, so their rounds
    per match agree (two-sample z within 4 standard errors) and so do player 0's match win
    rates (within 4 standard errors)."""
    n = 3000
    eng = simulate(f"{edition}(players=4,match=race)", "random", games=n, seed=21).matches
    single = simulate(f"{edition}(players=4)", "random", games=n * 12, seed=22).rounds
    asm = assemble_matches(single, target=500, mode="race", bots=["random"] * 4)
    assert len(asm) > 2000
    a, b = eng["rounds"].to_numpy(float), asm["rounds"].to_numpy(float)
    se = math.sqrt(a.var(ddof=1) / len(a) + b.var(ddof=1) / len(b))
    assert abs(a.mean() - b.mean()) < 4 * se, (a.mean(), b.mean(), se)
    pa, pb = (eng["winner"] == 0).mean(), (asm["winner"] == 0).mean()
    se = math.sqrt(pa * (1 - pa) / len(a) + pb * (1 - pb) / len(b))
    assert abs(pa - pb) < 4 * se, (pa, pb, se)
    # and the test can fail: a target of 300 is clearly shorter
    short = (
        simulate(f"{edition}(players=4,match=race,target=300)", "random", games=n, seed=23)
        .matches["rounds"]
        .to_numpy(float)
    )
    se = math.sqrt(a.var(ddof=1) / len(a) + short.var(ddof=1) / len(short))
    assert a.mean() - short.mean() > 4 * se


# ------------------------------------------------------------------------------------------
# engine/match.py: the one home of match scoring (compiled by the engine, plain elsewhere)
def test_add_round_race_lowest_partners_and_unfinished():
    """Hand-built rounds, 4 players, seat s holds player (s + 1) mod 4, points left by seat
    [5, 7, 0, 9], seat 2 won (21 points in the other hands)."""
    from unospin_sim.engine.match import add_round

    left = np.array([5, 7, 0, 9], np.int64)
    race = np.array([10, 0, 0, 0], np.int64)
    add_round(race, False, 0, 1, 2, left, 21)
    assert race.tolist() == [10, 0, 0, 21]  # seat 2 holds player 3
    low = np.zeros(4, np.int64)
    add_round(low, True, 0, 1, 2, left, 21)
    assert low.tolist() == [9, 5, 7, 0]  # player (s + 1) mod 4 adds seat s's points
    team = np.zeros(4, np.int64)
    add_round(team, False, 2, 1, 2, left, 21)
    # seat 2 is player 3: team 1 (players 1 and 3) scores seats 1 and 3 (the opponents)
    assert team.tolist() == [0, 16, 0, 16]
    for lowest, teams in ((False, 0), (True, 0), (False, 2)):
        s = np.array([1, 2, 3, 4], np.int64)
        add_round(s, lowest, teams, 1, -1, left, 0)  # an unfinished round scores nothing
        assert s.tolist() == [1, 2, 3, 4]


def test_match_winner_race_and_lowest():
    from unospin_sim.engine.match import match_winner

    a = lambda *x: np.array(x, np.int64)
    assert match_winner(a(499, 480, 0, 12), False, 500) == -1
    assert match_winner(a(499, 500, 500, 12), False, 500) == 1  # reached; tie: lower number
    assert match_winner(a(620, 500, 700, 12), False, 500) == 2  # the higher score
    assert match_winner(a(500, 20, 20, 30), True, 500) == -1  # at the target is not past it
    assert match_winner(a(501, 20, 20, 30), True, 500) == 1  # lowest; tie: lower number


def test_the_compiled_scoring_is_the_plain_scoring():
    """The engine's compiled copies (chunk.add_round, chunk.match_winner) give the plain
    functions' results on random rounds of every mode."""
    from unospin_sim.engine import chunk, match

    rng = np.random.default_rng(5)
    for _ in range(200):
        n = int(rng.choice([2, 4, 6]))
        lowest, teams = [(True, 0), (False, 0), (False, n // 2)][int(rng.integers(3))]
        left = rng.integers(0, 60, n).astype(np.int64)
        w = int(rng.integers(-1, n))
        if w >= 0:
            left[w] = 0
        shift = int(rng.integers(0, 30))
        a = rng.integers(0, 520, n).astype(np.int64)
        b = a.copy()
        match.add_round(a, lowest, teams, shift, w, left, int(left.sum()))
        chunk.add_round(b, lowest, teams, shift, w, left, int(left.sum()))
        assert a.tolist() == b.tolist()
        assert match.match_winner(a, lowest, 500) == chunk.match_winner(b, lowest, 500)


@pytest.mark.parametrize(
    "rules",
    [
        "spin2005(players=3,match=lowest,target=200)",
        "classic(players=4,match=race,partners=true,target=300)",
    ],
)
def test_play_prints_the_match_the_engine_plays(rules, capsys):
    """``play`` under match mode prints one whole match; its running scores and winner are
    the engine's match table's (scored by engine/match.py from the traced hands)."""
    rc = main(["play", "--rules", rules, "--seed", "4", "--game", "1"])
    text = capsys.readouterr().out
    assert rc == 0
    row = simulate(rules, "random", games=2, seed=4, execution=Execution(threads=1)).matches.iloc[1]
    finals = re.findall(r"^scores after round (\d+): (.*)$", text, re.M)
    assert len(finals) == row["rounds"]
    p = parse_rules(rules).players
    assert [int(x) for x in re.findall(r"player \d+ (\d+)", finals[-1][1])] == [
        int(row[f"score_{i}"]) for i in range(p)
    ]
    won = re.search(r"^(?:player|team) (\d+) .*wins the match", text, re.M)
    assert int(won.group(1)) == row["winner"]
    if "match=lowest" in rules:  # the round's winner adds nothing; no "scores N points"
        assert "wins the round and scores" not in text
        assert "every player adds the points left in their own hand, the winner none" in text
        assert "wins the match with the lowest total" in text
    else:
        assert re.search(r"wins the round and scores \d+ points", text)


def test_play_match_refuses_rotate_bots(capsys):
    rc = main(["play", "--match", "race", "--rotate-bots"])
    err = capsys.readouterr().err
    assert rc == 2 and "--rotate-bots cannot be combined with match=race" in err
