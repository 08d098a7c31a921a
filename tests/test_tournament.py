"""The tournament (unospin_sim.studies.tournament, CLI ``tournament``): two copies of one strategy
split the rounds and matches evenly, ratings and the skill figure on tables with a known
answer, one-line errors for unknown strategies and knobs."""

from __future__ import annotations

import math
import re

import numpy as np
import pandas as pd
import pytest

from unospin_sim.analysis.stats import wilson_interval
from unospin_sim.errors import BotError
from unospin_sim.run import Execution
from unospin_sim.studies.tournament import (
    bot_budget,
    fit_ratings,
    ladder_text,
    parse_strategies,
    run_tournament,
    skill_figure,
    skill_ladder,
    strategy_tier,
)


def test_two_copies_of_one_strategy_split_evenly():
    t = run_tournament(
        "classic",
        2,
        games=4000,
        strategies="heuristic,heuristic",
        seed=3,
        execution=Execution(threads=2),
    )
    h2h = t.pairings[t.pairings["kind"] == "head_to_head"]
    assert len(h2h) == 1
    r = h2h.iloc[0]
    assert r["strategy"] == "heuristic" and r["opponent"] == "heuristic#2"
    assert r["round_low"] <= 0.5 <= r["round_high"]
    assert r["matches"] > 100 and r["match_low"] <= 0.5 <= r["match_high"]
    # and both copies beat random: the same rating within the intervals
    a, b = t.ratings.loc["heuristic"], t.ratings.loc["heuristic#2"]
    assert a["low"] < b["high"] and b["low"] < a["high"]
    assert a["low"] > 0  # heuristic beats random


def test_tournament_reproducible_and_independent_of_threads(tmp_path):
    a = run_tournament(
        "spin2025",
        3,
        games=600,
        strategies="greedy,aggressor",
        seed=9,
        execution=Execution(threads=1),
    )
    b = run_tournament(
        "spin2025",
        3,
        games=600,
        strategies="greedy,aggressor",
        seed=9,
        execution=Execution(threads=2),
    )
    pd.testing.assert_frame_equal(a.pairings, b.pairings)
    assert list(a.pairings["kind"]) == ["vs_random", "vs_random", "vs_field", "vs_field"]
    out = a.save(tmp_path / "t")
    for name in ("pairings.parquet", "ratings.parquet", "skill.parquet", "summary.md"):
        assert (out / name).exists()
    text = (out / "summary.md").read_text()
    assert "rounds" in text and "matches" in text and "Skill" in text


def test_ratings_known_answer():
    # a wins 3 rounds in 4 head to head: theta_a - theta_b = log 3
    r = fit_ratings([({"a": 1, "b": 1}, {"a": 750, "b": 250}, 1000)], reference="b")
    assert r.loc["b", "rating"] == 0.0
    assert r.loc["a", "rating"] == pytest.approx(math.log(3), abs=1e-4)
    assert r.loc["a", "p_vs_reference"] == pytest.approx(0.75, abs=1e-4)
    se = 1 / math.sqrt(1000 * 0.75 * 0.25)
    assert r.loc["a", "high"] - r.loc["a", "rating"] == pytest.approx(1.959964 * se, rel=1e-3)
    assert list(r["rank"]) == [1, 2]
    # one seat of a against three b winning 40%: exp(t) / (exp(t) + 3) = 0.4 -> t = log 2
    r = fit_ratings([({"a": 1, "b": 3}, {"a": 400, "b": 600}, 1000)], reference="b")
    assert r.loc["a", "rating"] == pytest.approx(math.log(2), abs=1e-4)


def test_skill_figure_known_answer():
    t = pd.DataFrame(
        {
            "strategy": ["greedy", "heuristic"],
            "players": [4, 4],
            "rounds": [1000, 1000],
            "round_wins": [300, 450],
            "matches": [100, 100],
            "match_wins": [40, 70],
        }
    )
    s = skill_figure(t)
    assert s["strategy"] == "heuristic" and s["fair_share"] == 0.25
    assert s["round_share"] == 0.45 and s["round_excess"] == pytest.approx(0.20)
    lo, hi = wilson_interval(450, 1000)
    assert (s["round_low"], s["round_high"]) == (lo, hi)
    assert s["round_excess_low"] == pytest.approx(lo - 0.25)
    assert s["match_share"] == 0.70 and s["match_excess"] == pytest.approx(0.45)
    assert s["match_excess_low"] == pytest.approx(wilson_interval(70, 100)[0] - 0.25)


def test_skill_ladder_and_cheap_figure_known_answer():
    """The ladder sorts by tier (random < cheap < tuned < search), then by round share; the
    cheap figure is the best cheap strategy's; the ladder sentence compares each tier's best
    with the tier below by their 95% intervals."""
    t = pd.DataFrame(
        {
            "strategy": ["search(rollouts=8)", "greedy", "tuned", "heuristic"],
            "players": [4] * 4,
            "rounds": [2000] * 4,
            "round_wins": [840, 560, 700, 600],
            "matches": [100] * 4,
            "match_wins": [60, 30, 50, 40],
        }
    )
    lad = skill_ladder(t)
    assert list(lad["strategy"]) == ["heuristic", "greedy", "tuned", "search(rollouts=8)"]
    assert list(lad["tier"]) == ["cheap", "cheap", "tuned", "search"]
    assert list(lad["best_in_tier"]) == [True, False, True, True]
    assert lad["round_excess"].iloc[0] == pytest.approx(0.30 - 0.25)
    assert (lad["round_low"].iloc[3], lad["round_high"].iloc[3]) == wilson_interval(840, 2000)
    text = ladder_text(lad)
    assert (
        text.startswith("The ladder holds")
        and "search (search(rollouts=8), 42.0%) > tuned" in text
        and "cheap (heuristic, 30.0%) > random" in text
    )
    cheap = skill_figure(t, tiers=("cheap",))
    assert cheap["strategy"] == "heuristic" and cheap["tier"] == "cheap"
    assert cheap["round_share"] == 0.30
    strongest = skill_figure(t)
    assert strongest["strategy"] == "search(rollouts=8)" and strongest["tier"] == "search"
    assert strongest["budget"] == (
        "8 rollouts per decision (16 when close), horizon 16 turns, inference level 3"
    )
    assert skill_figure(t, tiers=("random",)) is None
    # tuned below heuristic: the ladder does not hold, and says where
    t.loc[2, "round_wins"] = 500
    text = ladder_text(skill_ladder(t))
    assert text.startswith("The ladder does not hold:") and "tuned (tuned, 25.0%) < cheap" in text
    # tuned a little above heuristic, within the intervals: holds in the estimates only
    t.loc[2, "round_wins"] = 620
    text = ladder_text(skill_ladder(t))
    assert (
        text.startswith("The ladder holds in the estimates")
        and "tuned (tuned, 31.0%) ~ cheap" in text
    )
    t.loc[2, "round_wins"] = 590  # below, within the intervals
    assert ladder_text(skill_ladder(t)).startswith("The ladder is not resolved")
    lad = skill_ladder(t)
    r = lad.set_index("strategy").loc["tuned"]
    se = math.sqrt(0.295 * 0.705 / 2000 + 0.30 * 0.70 / 2000)
    assert (r["step_over"], r["step_test"]) == ("cheap", "independent")
    assert r["step"] == pytest.approx(-0.005) and r["step_high"] == pytest.approx(
        -0.005 + 1.959964 * se, rel=1e-5
    )
    assert lad.set_index("strategy").loc["heuristic", "step_test"] == "fair share"
    assert math.isnan(lad.set_index("strategy").loc["greedy", "step"])  # not a tier's best


def test_skill_ladder_paired_steps_known_answer():
    """With the rounds played on the same deals, a step is the mean paired difference and
    its interval is from the differences' standard deviation: a small, consistent step that
    independent intervals cannot separate is separated."""
    n = 1000
    base = np.zeros(n, dtype=bool)
    base[:300] = True  # heuristic wins rounds 0..299
    tuned = base.copy()
    tuned[300:330] = True  # tuned wins those and 30 more: +3 points
    won = pd.DataFrame({"heuristic": base, "tuned": tuned})
    t = pd.DataFrame(
        {
            "strategy": ["heuristic", "tuned"],
            "players": [4, 4],
            "rounds": [n, n],
            "round_wins": [300, 330],
            "matches": [50, 50],
            "match_wins": [20, 22],
        }
    )
    lad = skill_ladder(t, won).set_index("strategy")
    d = tuned.astype(float) - base.astype(float)
    se = d.std(ddof=1) / math.sqrt(n)
    r = lad.loc["tuned"]
    assert r["step_test"] == "paired" and r["step"] == pytest.approx(0.03)
    assert r["step_low"] == pytest.approx(0.03 - 1.959964 * se, rel=1e-5)
    assert r["step_low"] > 0  # separated on the same deals ...
    ind = skill_ladder(t).set_index("strategy").loc["tuned"]
    assert ind["step_test"] == "independent" and ind["step_low"] < 0  # ... not independently
    assert "tuned (tuned, 33.0%) > cheap by +3.0 pp of rounds" in ladder_text(skill_ladder(t, won))


def test_skill_ladder_refuses_wins_that_do_not_match_and_skips_random():
    """Round-by-round wins that do not add up to the pairings (rows, 0/1, wins) are a
    one-line error; a strategy named random is listed but is no rung, and random alone
    measures nothing."""
    from unospin_sim.errors import UserError

    n = 200
    won = pd.DataFrame({"heuristic": np.arange(n) < 70, "tuned": np.arange(n) < 80})
    t = pd.DataFrame(
        {
            "strategy": ["heuristic", "tuned"],
            "players": [2, 2],
            "rounds": [n, n],
            "round_wins": [70, 80],
            "matches": [0, 0],
            "match_wins": [0, 0],
        }
    )
    assert skill_ladder(t, won)["step_test"].tolist() == ["fair share", "paired"]
    nan_first = won.astype(float).mask(won.index.to_series() == 0)
    for bad in (won.head(10), won.astype(int) * 7, nan_first, won.assign(tuned=np.arange(n) < 81)):
        with pytest.raises(UserError, match="round-by-round wins of .* do not match"):
            skill_ladder(t, bad)
    r = pd.DataFrame(
        {
            "strategy": ["random", "greedy"],
            "players": [2, 2],
            "rounds": [n, n],
            "round_wins": [120, 110],
            "matches": [0, 0],
            "match_wins": [0, 0],
        }
    )
    lad = skill_ladder(r)
    assert lad["tier"].tolist() == ["random", "cheap"]
    assert lad["best_in_tier"].tolist() == [False, True]
    assert lad.loc[1, "step_over"] == "random" and lad.loc[1, "step_test"] == "fair share"
    assert skill_figure(r)["strategy"] == "greedy"  # random's 60% is not skill
    with pytest.raises(UserError, match="only random played"):
        skill_figure(r.head(1))
    with pytest.raises(UserError, match="every strategy named is random"):
        run_tournament(
            "classic", 2, games=10, strategies="random", seed=1, execution=Execution(threads=1)
        )


def test_tournament_records_round_by_round_wins(tmp_path):
    """``Tournament.won`` holds each vs-random pairing's rounds in game order; its column
    sums are the pairings' round wins; save/load_skill use it for paired steps."""
    from unospin_sim.studies.tournament import load_skill

    t = run_tournament(
        "classic",
        2,
        games=400,
        strategies="heuristic,tuned",
        seed=5,
        head_to_head=False,
        execution=Execution(threads=2),
    )
    assert list(t.won.columns) == ["heuristic", "tuned"] and len(t.won) == 400
    for _, r in t.pairings.iterrows():
        assert int(t.won[r["strategy"]].sum()) == r["round_wins"]
    sk = load_skill(t.save(tmp_path / "t"))
    assert set(sk["ladder"]["step_test"].dropna()) == {"fair share", "paired"}
    pd.testing.assert_frame_equal(sk["ladder"], t.ladder)
    assert strategy_tier("heuristic#2") == "cheap" and strategy_tier("random") == "random"
    assert bot_budget("search(horizon=0,rollouts=64)").startswith(
        "64 rollouts per decision (128 when close), to the end of the round"
    )
    assert bot_budget("search(extend=1)").startswith("128 rollouts per decision, horizon")
    assert bot_budget("greedy") == "one card ranking per decision"


def test_parse_strategies():
    assert parse_strategies("heuristic(bluff=0.2), greedy") == ["heuristic(bluff=0.2)", "greedy"]
    assert "random" not in parse_strategies(None)
    with pytest.raises(BotError, match="unknown bot strategy 'nosuch'"):
        parse_strategies("greedy,nosuch")
    with pytest.raises(BotError, match="unknown bot knob 'speed'"):
        parse_strategies("greedy(speed=2)")


@pytest.mark.parametrize(
    "args, fragment",
    [
        (("--strategies", "heuristic,nosuch"), "unknown bot strategy 'nosuch'"),
        (("--strategies", "heuristic(speed=3)"), "unknown bot knob 'speed'"),
        (("--strategies", ""), "--strategies is empty"),
        (("--edition", "poker"), "poker"),
        (("--games", "0"), "games"),
    ],
)
@pytest.mark.slow
def test_cli_errors_are_one_line(cli, args, fragment):
    p = cli("tournament", "--games", "10", *args)
    assert p.returncode == 2, p.stderr
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("unospin_sim: error:"), p.stderr
    assert fragment in lines[0]
    assert "Traceback" not in p.stderr and p.stdout == ""


@pytest.mark.parametrize(
    "argv, first",
    [
        ([], "tournament of classic(players=2): 2 players (tournament's default; run's is 4"),
        (["--players", "4"], "tournament of classic(players=4): 4 players"),
    ],
)
def test_cli_tournament_says_its_player_count_first(argv, first, monkeypatch, capsys):
    """Its first line, before anything is played, names the player count (2 by default,
    where ``run`` plays 4)."""
    from unospin_sim.cli import main
    from unospin_sim.studies import tournament

    def stop(**kw):
        raise KeyboardInterrupt

    monkeypatch.setattr(tournament, "run_tournament", stop)
    assert main(["tournament", *argv]) == 130
    assert capsys.readouterr().err.splitlines()[0].startswith(first)


@pytest.mark.slow
def test_cli_tournament_runs(cli, tmp_path):
    p = cli(
        "tournament",
        "--edition",
        "classic",
        "--players",
        "2",
        "--games",
        "300",
        "--strategies",
        "greedy",
        "--seed",
        "1",
        "--threads",
        "1",
        "--quiet",
        "--out",
        str(tmp_path / "t"),
    )
    assert p.returncode == 0, p.stderr
    assert p.stdout.startswith("# Tournament: 2 players, classic(players=2)")
    assert "greedy" in p.stdout and "round" in p.stdout and "match" in p.stdout
    assert (tmp_path / "t" / "pairings.parquet").exists()


@pytest.mark.slow
def test_report_skill_section_from_tournament_dirs(tmp_path):
    """`report --skill DIR...`: one row per tournament, findings with intervals, and the
    difference between the tournaments' skill; a directory that is not a tournament gets a
    one-line error."""
    from unospin_sim.errors import UserError
    from unospin_sim.report import build_report
    from unospin_sim.run import simulate
    from unospin_sim.studies.tournament import load_skill

    a = run_tournament(
        "spin2005",
        2,
        games=800,
        strategies="heuristic,greedy,tuned",
        seed=1,
        head_to_head=False,
        execution=Execution(threads=2),
    ).save(tmp_path / "t2005")
    b = run_tournament(
        "spin2025",
        2,
        games=800,
        strategies="heuristic,greedy",
        seed=1,
        execution=Execution(threads=2),
    ).save(tmp_path / "t2025")
    sk = load_skill(a)
    assert sk["rules"] == "spin2005(players=2)"
    assert sk["strategy"] in ("heuristic", "greedy", "tuned")
    assert sk["cheap"]["strategy"] in ("heuristic", "greedy")
    assert list(sk["ladder"]["tier"]) == ["cheap", "cheap", "tuned"]
    assert set(pd.read_parquet(a / "skill.parquet")["measure"]) == {"strongest", "cheap"}
    simulate(
        "spin2005(players=2)", "random", games=500, seed=1, execution=Execution(out=tmp_path / "r")
    )
    md = build_report(
        [tmp_path / "r"], tmp_path / "rep", wheel_games=0, skill_dirs=[a, b]
    ).read_text()
    assert "## Skill: the strongest bot against random fields" in md
    assert "### The skill ladder" in md and "| spin2025(players=2) | 50.0% (fair share) |" in md
    assert "not played" in md  # spin2025 played no tuned and no search
    findings = md.split("## Findings", 1)[1].split("\n## ", 1)[0]
    assert "Skill in `spin2005(players=2)`: the strongest bot" in findings
    assert "Skill in `spin2025(players=2)`" in findings
    assert "Skill difference, measured with the strongest bot" in findings
    assert "one card ranking per decision" in findings
    table = pd.read_csv(tmp_path / "rep" / "tables" / "skill.csv", index_col=0)
    assert list(table.index) == ["spin2005(players=2)", "spin2025(players=2)"]
    assert (table["round_low"] <= table["round_share"]).all()
    assert (table["cheap_round_low"] <= table["cheap_round_share"]).all()
    ladder = pd.read_csv(tmp_path / "rep" / "tables" / "skill_ladder.csv")
    assert len(ladder) == 5 and set(ladder["rules"]) == set(table.index)
    with pytest.raises(UserError, match="not a tournament directory"):
        load_skill(tmp_path / "r")
    c = run_tournament(
        "spin2005",
        2,
        games=300,
        strategies="greedy",
        seed=2,
        head_to_head=False,
        execution=Execution(threads=2),
    ).save(tmp_path / "t2005b")
    with pytest.raises(UserError, match="same rules .*one tournament per rule set"):
        build_report([tmp_path / "r"], tmp_path / "rep2", wheel_games=0, skill_dirs=[a, c])
    pd.DataFrame({"greedy": np.zeros(299, bool)}).to_parquet(c / "won_vs_random.parquet")
    with pytest.raises(UserError, match="unreadable tournament results: the round-by-round"):
        load_skill(c)


def test_pool_adds_independent_seeds_and_refuses_bad_dirs(tmp_path, capsys):
    """``tournament --pool``: two seeds' pairings add up (rounds and wins are the sums, the
    pooled share is their ratio); the same seed twice, or a directory without a tournament,
    is a one-line error with exit 2."""
    from unospin_sim.cli import main

    dirs = [
        run_tournament(
            "classic",
            2,
            games=300,
            strategies="greedy",
            seed=s,
            head_to_head=False,
            execution=Execution(threads=1),
        ).save(tmp_path / f"t{s}")
        for s in (1, 2)
    ]
    rc = main(["tournament", "--pool", *map(str, dirs)])
    out = capsys.readouterr().out
    assert rc == 0
    per_run = [
        int(x)
        for x in re.findall(
            r"\(seed \d\): .* greedy vs .*rounds [\d.]+% "
            r"\[[\d., ]+\] of (\d+)",
            out,
        )
    ]
    assert per_run == [300, 300]
    pooled = re.search(
        r"POOLED over 2 runs: .* greedy vs .*rounds ([\d.]+)% "
        r"\[[^\]]*\] of (\d+)",
        out,
    )
    assert pooled and int(pooled.group(2)) == 600
    t = [pd.read_parquet(d / "pairings.parquet") for d in dirs]
    wins = sum(int(x["round_wins"].iloc[0]) for x in t)
    assert float(pooled.group(1)) == pytest.approx(100 * wins / 600, abs=0.005)
    for argv, word in (
        (["--pool", str(dirs[0]), str(dirs[0])], "same rules and seed"),
        (["--pool", str(tmp_path)], "no tournament output"),
        (["--pool", str(dirs[0]), "--out", str(tmp_path / "x")], "--out cannot be given with it"),
    ):
        rc = main(["tournament", *argv])
        err = capsys.readouterr().err
        assert rc == 2 and word in err and len(err.strip().splitlines()) == 1
