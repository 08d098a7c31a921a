"""The skill profile (``python -m unospin_sim skill``, issue 50 item 1): the skill depth's rule,
the order check and the rating spread on hand-built figures (exact, default tier), bad input
as one line, and one tiny run end to end (slow tier)."""

from __future__ import annotations

import json
import math

import matplotlib
import pandas as pd
import pytest

from unospin_sim.analysis.skill_profile import order_holds, skill_depth, trace_budgets, trace_step
from unospin_sim.errors import UserError
from unospin_sim.studies.ratings import fit_ratings
from unospin_sim.studies.skill_profile import ELO_PER_UNIT, rating_spread, skill_field

matplotlib.use("Agg")


def _trace(rows):
    """A trace from (budget, gain, gain_high) in points."""
    return pd.DataFrame(
        {
            "budget": [b for b, _, _ in rows],
            "gain": [g / 100 for _, g, _ in rows],
            "gain_high": [h / 100 for _, _, h in rows],
        }
    )


def test_trace_budgets_double_from_8():
    assert trace_budgets(16) == [8, 16]
    assert trace_budgets(128) == [8, 16, 32, 64, 128]
    for bad in (8, 12, 24, 96, 131072, True, 64.0):
        with pytest.raises(UserError, match="--top-budget must be 8 doubled"):
            trace_budgets(bad)


def test_trace_step_exact():
    s = trace_step(16, 6_000, 10_000, 2)
    assert s["doubled"] == 32 and s["share"] == 0.6
    assert s["gain"] == pytest.approx(0.1, abs=1e-12)
    # Wilson 95% for 6000 of 10000: [0.59036, 0.60956]
    assert s["gain_low"] == pytest.approx(0.09036, abs=1e-5)
    assert s["gain_high"] == pytest.approx(0.10956, abs=1e-5)
    assert trace_step(8, 250, 1000, 4)["gain"] == pytest.approx(0.0, abs=1e-12)
    with pytest.raises(UserError, match="wins <= rounds"):
        trace_step(8, 11, 10, 2)


@pytest.mark.parametrize(
    "rows, depth",
    [
        # every doubling flat: the depth is the first budget
        ([(8, 0.5, 1.5), (16, 0.2, 1.2), (32, -0.1, 0.9)], 8),
        # gains until 32, flat from there
        ([(8, 6.0, 7.0), (16, 2.5, 3.4), (32, 0.6, 1.6), (64, 0.1, 1.1)], 32),
        # the last doubling still gains: not reached
        ([(8, 6.0, 7.0), (16, 0.5, 1.5), (32, 1.2, 2.2)], None),
        # a gain under 1 point whose upper bound reaches 2 points is not flat
        ([(8, 0.5, 1.5), (16, 0.9, 2.0), (32, 0.3, 1.3)], 32),
        # a flat doubling followed by a gaining one does not count
        ([(8, 0.2, 1.0), (16, 1.5, 2.5), (32, 0.2, 1.0), (64, 0.0, 0.8)], 32),
        # rows in any order
        ([(32, 0.6, 1.6), (8, 6.0, 7.0), (64, 0.1, 1.1), (16, 2.5, 3.4)], 32),
    ],
)
def test_skill_depth_rule(rows, depth):
    assert skill_depth(_trace(rows)) == depth


def test_skill_depth_needs_a_step():
    with pytest.raises(UserError, match="at least one doubling"):
        skill_depth(_trace([]))


def _pairings(rows, fair=0.5, field=None):
    return pd.DataFrame(
        {
            "strategy": [a for a, _, _ in rows],
            "opponent": [b if field is None else f"{field} x {b}" for _, b, _ in rows],
            "round_low": [lo for _, _, lo in rows],
            "fair_share": [fair] * len(rows),
        }
    )


def test_order_holds_and_fails():
    good = _pairings([("a", "b", 0.52), ("a", "c", 0.7), ("b", "c", 0.501)])
    assert order_holds(good, ["a", "b", "c"]) == {"holds": True, "pairs": 3, "failing": []}
    # a lower bound at the fair share is not above it
    bad = _pairings([("a", "b", 0.5), ("a", "c", 0.7), ("b", "c", 0.3)])
    assert order_holds(bad, ["a", "b", "c"]) == {
        "holds": False,
        "pairs": 3,
        "failing": ["a vs b", "b vs c"],
    }
    # more players: the opponent is a field ("3 x b"), the fair share 1/4
    four = _pairings([("a", "b", 0.26), ("a", "c", 0.3), ("b", "c", 0.24)], fair=0.25, field=3)
    assert order_holds(four, ["a", "b", "c"])["failing"] == ["b vs c"]
    with pytest.raises(UserError, match="no pairing of 'b' against 'a'"):
        order_holds(good, ["b", "a", "c"])


#: a consistent field: a beats b 2:1, b beats random 2:1, a beats random 4:1
TABLES = [
    ({"a": 1, "b": 1}, {"a": 200, "b": 100}, 300),
    ({"b": 1, "random": 1}, {"b": 400, "random": 200}, 600),
    ({"a": 1, "random": 1}, {"a": 400, "random": 100}, 500),
]


def test_bradley_terry_on_a_known_field():
    r = fit_ratings(TABLES)["rating"]
    assert r["random"] == 0.0
    assert r["b"] == pytest.approx(math.log(2), abs=1e-5)
    assert r["a"] == pytest.approx(math.log(4), abs=1e-5)


def test_rating_spread_exact_and_bootstrap():
    s = rating_spread(TABLES, boot=0)
    assert s["sd"] == pytest.approx(math.log(2) * math.sqrt(2 / 3), abs=1e-5)
    assert s["range"] == pytest.approx(math.log(4), abs=1e-5)
    assert s["sd_elo"] == pytest.approx(s["sd"] * 400 / math.log(10))
    assert ELO_PER_UNIT == pytest.approx(173.7178, abs=1e-4)
    assert math.isnan(s["sd_low"]) and math.isnan(s["range_high"])
    b = rating_spread(TABLES, boot=40, seed=3)
    assert b["sd_low"] < s["sd"] < b["sd_high"] and b["range_low"] < s["range"] < b["range_high"]
    # the sampling SD of the spread is about 0.05 here: the interval is a few tenths wide
    assert 0.05 < b["sd_high"] - b["sd_low"] < 0.4
    assert rating_spread(TABLES, boot=5, seed=3) == rating_spread(TABLES, boot=5, seed=3)


def test_skill_field_defaults_and_refusals():
    from unospin_sim.rules import RuleSet

    classic = RuleSet.build("classic", players=2)
    f = skill_field(classic, 64)
    assert f[0].startswith("search(rollouts=64") and f[1].startswith("search(rollouts=32")
    assert f[2:] == ["heuristic", "random"]
    assert skill_field(RuleSet.build("spin2025", players=2), 16)[2] == "spin_aware"
    assert skill_field(classic, 16, "aggressor")[2] == "aggressor"
    with pytest.raises(UserError, match="not search or random"):
        skill_field(classic, 16, "random")
    with pytest.raises(UserError, match="unknown bot strategy"):
        skill_field(classic, 16, "nosuch")


def test_plot_skill_trace_returns_its_ax():
    import matplotlib.pyplot as plt

    from unospin_sim.plots.skill import plot_skill_trace, plot_skill_traces

    t = pd.DataFrame([trace_step(8, 560, 1000, 2), trace_step(16, 505, 1000, 2)])
    fig, ax = plt.subplots()
    assert plot_skill_trace(t, ax=ax, depth=16, label="classic") is ax
    assert list(ax.get_lines()[0].get_ydata()) == pytest.approx([6.0, 0.5])  # points
    fig2, ax2 = plt.subplots()
    both = {"x": {"trace": t, "skill_depth": None}, "y": {"trace": t, "skill_depth": 8}}
    assert plot_skill_traces(both, ax=ax2) is ax2
    assert [line.get_label() for line in ax2.get_lines()][:1] == ["x"]
    plt.close(fig)
    plt.close(fig2)


@pytest.mark.parametrize(
    "args, fragment",
    [
        (("--top-budget", "24"), "--top-budget must be 8 doubled"),
        (("--top-budget", "8"), "top budget"),
        (("--cheap", "search"), "not search or random"),
        (("--cheap", "nosuch"), "unknown bot strategy 'nosuch'"),
        (("--rounds", "0"), "games"),
        (("--edition", "poker"), "poker"),
        (("--overwrite",), "--overwrite replaces the files in --out"),
        (("--side-by-side", "nowhere"), "give --out FILE.png"),
        (("--side-by-side", "nowhere", "--out", "x.svg"), "must end in .png"),
        (("--side-by-side", "nowhere", "--out", "x.png"), "not a skill profile directory"),
        (("--side-by-side", "a", "--rounds", "500"), "--rounds cannot be given with it"),
    ],
)
def test_cli_bad_input_is_one_line(monkeypatch, capsys, tmp_path, args, fragment):
    from conftest import in_process_cli

    p = in_process_cli(monkeypatch, capsys)("skill", *args, cwd=tmp_path)
    assert p.returncode == 2, p.stderr
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("unospin_sim: error:"), p.stderr
    assert fragment in lines[0] and p.stdout == ""
    assert not (tmp_path / "results").exists()  # nothing written


@pytest.mark.slow
def test_cli_tiny_profile_end_to_end(monkeypatch, capsys, tmp_path):
    from conftest import in_process_cli

    cli = in_process_cli(monkeypatch, capsys)
    argv = ["skill", "--edition", "classic", "--top-budget", "16", "--rounds", "300"]
    p = cli(*argv, "--boot", "50", "--seed", "5", "--out", "sk", "--quiet", cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    assert "fewer than the 20,000" in p.stderr and "2 players" in p.stderr
    out = tmp_path / "sk"
    assert sorted(f.name for f in out.iterdir()) == sorted(
        ["trace.parquet", "strength.parquet", "ratings.parquet", "skill.json", "summary.md"]
        + ["skill_trace.png"]
    )
    fig = json.loads((out / "skill.json").read_text())
    assert fig["rounds_per_pairing"] == 300 and fig["unit"] == "rounds"
    assert fig["field"][2:] == ["heuristic", "random"] and fig["order"]["pairs"] == 6
    trace = pd.read_parquet(out / "trace.parquet")
    assert trace[["budget", "doubled", "rounds"]].values.tolist() == [[8, 16, 300]]
    strength = pd.read_parquet(out / "strength.parquet")
    assert len(strength) == 6 and (strength["rounds"] == 300).all()
    # the trace's one step is the strength table's search(16) vs search(8): the same rounds
    top = strength[strength["strategy"] == fig["field"][0]].iloc[0]
    assert top["round_wins"] == trace["wins"].iloc[0]
    # search at 16 rollouts beats random by far more than 300 rounds' noise
    vs_random = strength[strength["opponent"] == "random"]
    assert (vs_random["round_low"] > 0.5).all()
    assert "300 rounds per pairing (rounds, not matches)" in p.stdout
    assert "Skill depth:" in p.stdout and "Rating spread" in p.stdout
    assert "| 8 -> 16 | 300 |" in p.stdout
    # the same again refuses without --overwrite; side by side draws both
    again = cli(*argv, "--out", "sk", "--quiet", cwd=tmp_path)
    assert again.returncode == 2 and "--overwrite" in again.stderr
    side = cli("skill", "--side-by-side", "sk", "sk", "--out", "both.png", cwd=tmp_path)
    assert side.returncode == 0 and (tmp_path / "both.png").stat().st_size > 0


@pytest.mark.slow
@pytest.mark.parametrize("rules", ["classic(players=2)", "spin2005(players=3)"])
def test_reused_pairings_give_the_figures_played_again(tmp_path, rules):
    """A top budget of 32 reusing a profile at 16 (same rules, rounds and seed) gives exactly
    the figures of the profile at 32 played from scratch, playing only the new pairings."""
    from unospin_sim.studies.skill_profile import load_skill_profile, run_skill_profile

    kw = dict(rounds=150, seed=3, boot=20)
    small = run_skill_profile(rules, top_budget=16, **kw)
    small.save(tmp_path / "s16")
    fresh = run_skill_profile(rules, top_budget=32, **kw)
    reused = run_skill_profile(rules, top_budget=32, reuse=[tmp_path / "s16"], **kw)
    pd.testing.assert_frame_equal(
        reused.trace.drop(columns="seconds"), fresh.trace.drop(columns="seconds")
    )
    pd.testing.assert_frame_equal(
        reused.pairings.drop(columns="seconds"), fresh.pairings.drop(columns="seconds")
    )
    pd.testing.assert_frame_equal(reused.ratings, fresh.ratings)
    assert reused.spread == fresh.spread and reused.depth == fresh.depth
    # the trace's 8 -> 16 and the strength pairs of 16 that 32's field shares (16 vs the
    # cheap one and random, the cheap one vs random; both ways with 3 players)
    n = reused.meta["pairings_reused"]
    assert n == (4 if "players=2" in rules else 7), reused.meta
    assert load_skill_profile(tmp_path / "s16")["top_budget"] == 16
    # a profile of other rounds or another seed is not reused
    with pytest.raises(UserError, match="--reuse .*seed 3; this one is .*seed 4"):
        run_skill_profile(rules, top_budget=32, reuse=[tmp_path / "s16"], **(kw | {"seed": 4}))
