"""``compare``: a verdict per headline measure against a base run, paired intervals only
where the runs dealt the same rounds (issue 49, item 3), and its table-side units."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from unospin_sim.analysis.verdict import RunData, compare_runs, format_comparison, pairing
from unospin_sim.run import Execution, simulate

FIXTURES = Path(__file__).parent / "fixtures" / "results_format1"
SHORT_WHEEL = "spin2025(wheel={two_x:3,swap_hands:1,color_discard:2})"


def _run(rules: str, seed: int = 1, games: int = 400, out: Path | None = None) -> RunData:
    ex = Execution(threads=1, progress=False, out=None if out is None else str(out))
    res = simulate(rules, "random", games, seed, tables=("rounds",), execution=ex)
    return RunData(rules, res.rounds, res.meta, res.matches)


@pytest.fixture(scope="module")
def runs() -> dict[str, RunData]:
    return {
        "base": _run("spin2025"),
        "again": _run("spin2025"),
        "other_seed": _run("spin2025", seed=2),
        "short": _run(SHORT_WHEEL),
        "y2005": _run("spin2005"),
    }


def test_equal_runs_show_no_change(runs):
    t = compare_runs([runs["base"], runs["again"]])
    assert set(t["verdict"]) == {"no change distinguishable"}
    assert set(t["interval"]) == {"paired"}
    assert (t["change"] == 0).all()
    text = format_comparison(t, "base")
    assert "nothing changed clearly" in text
    assert "first-player edge = the round win rate of the player who acts first" in text


def test_a_known_difference_is_found_paired(runs):
    """A wheel of short spaces on the same deck and seeds: rounds clearly shorter, paired."""
    t = compare_runs([runs["base"], runs["short"]]).droplevel("label")
    assert set(t["interval"]) == {"paired"}
    for k in ("mean_turns", "round_minutes", "over_100", "winner_points"):
        assert t.at[k, "verdict"] == "lower", k
        assert t.at[k, "high"] < 0
    assert t.at["round_minutes", "change"] == pytest.approx(t.at["mean_turns", "change"] / 6)


def test_other_decks_or_seeds_are_independent(runs):
    assert pairing(runs["base"], runs["other_seed"]) == "independent"
    assert pairing(runs["base"], runs["short"]) == "paired"
    assert pairing(runs["base"], runs["again"]) == "paired"
    t = compare_runs([runs["y2005"], runs["base"], runs["other_seed"]])
    assert list(t.index.unique("label")) == ["spin2025", "spin2025 #3"]  # told apart
    assert set(t["interval"]) == {"independent"}  # another deck; other seeds
    assert t.loc[("spin2025", "mean_turns"), "verdict"] == "higher"  # 2025 is longer


def test_match_runs_compare_rounds_per_match():
    run = FIXTURES / "classic-p2-race"
    from unospin_sim.results import load_results

    res = load_results(run)
    a = RunData("a", res.rounds, res.meta, res.matches)
    t = compare_runs([a, a]).droplevel("label")
    assert {"rounds_per_match", "match_minutes", "comeback_rate"} <= set(t.index)
    assert set(t["verdict"]) == {"no change distinguishable"}
    assert set(t["interval"]) == {"paired"}


def test_matches_of_other_lengths_pair_matches_not_rounds():
    """Races to 100 and to 200 on one seed: match m deals the same rounds as far as both go,
    so matches pair, but the round tables differ (independent round intervals)."""
    from unospin_sim.results import load_results

    res = load_results(FIXTURES / "classic-p2-race")  # seed 2, 12 races to 100
    a = RunData("to 100", res.rounds, res.meta, res.matches)
    b = _run("classic(players=2,match=race,target=200)", seed=2, games=12)
    assert pairing(a, b) == "independent"
    assert pairing(a, b, "matches") == "paired"
    t = compare_runs([a, b]).droplevel("label")
    assert t.at["mean_turns", "interval"] == "independent"
    assert t.at["rounds_per_match", "interval"] == "paired"
    assert t.at["rounds_per_match", "verdict"] == "higher"


def test_cli_compare_dirs_and_rule_strings(tmp_path, any_cli):
    _run("spin2025", out=tmp_path / "a")
    r = any_cli(
        "compare", str(tmp_path / "a"), "spin2025", "--seed", "1", "--games", "400", "--json"
    )
    assert r.returncode == 0, r.stderr
    rows = json.loads(r.stdout)["rows"]
    assert {row["interval"] for row in rows} == {"paired"}
    assert {row["verdict"] for row in rows} == {"no change distinguishable"}
    r = any_cli(
        "compare", str(tmp_path / "a"), SHORT_WHEEL, "--seed", "1", "--games", "400", "--quiet"
    )
    assert r.returncode == 0, r.stderr
    assert "round length (mean turns) lower" in r.stdout
    assert "paired: lower" in r.stdout
    assert "at 10 s a turn (an assumption" in r.stdout


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["compare", "spin2025"], "at least one other"),
        (["compare", "no/such/dir", "spin2025"], "no such results directory"),
        (["compare", "spin2025", "nope(players=4)"], "edition"),
        (["compare", str(FIXTURES / "spin2025-p3"), "spin2025"], "player counts"),
        (["compare", "spin2025", "spin2005", "--seconds-per-turn", "0"], "seconds per turn"),
        (["compare", "spin2025", "spin2005", "--bots", "nope"], "nope"),
    ],
)
def test_cli_compare_errors(args, needle, any_cli):
    r = any_cli(*args)
    assert r.returncode == 2
    assert r.stdout == ""
    assert "Traceback" not in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1
    assert needle in r.stderr


def test_cli_compare_corrupt_results(tmp_path, any_cli):
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "meta.json").write_text("{not json")
    r = any_cli("compare", str(bad), str(FIXTURES / "spin2025-p3"))
    assert r.returncode == 2
    assert len(r.stderr.strip().splitlines()) == 1 and "Traceback" not in r.stderr


def test_summary_states_length_units(any_cli):
    r = any_cli("summary", str(FIXTURES / "classic-p2-race"), "--seconds-per-turn", "6")
    assert r.returncode == 0, r.stderr
    assert "rounds past 100 turns" in r.stdout and "rounds past 150 turns" in r.stdout
    assert "min at 6 s a turn (an assumption" in r.stdout
    assert "match length" in r.stdout


def test_the_verdict_never_breaks_a_label_at_its_hyphens():
    """A results directory's path in the verdict's paragraph stays whole, however the
    paragraph wraps (a path split at a hyphen cannot be copied back)."""
    res = simulate("classic(players=3)", "random", games=200, seed=2)
    long = "/tmp/" + "-".join(["some-results-dir"] * 6)
    runs = [RunData(long, res.rounds, res.meta), RunData(long + "-b", res.rounds, res.meta)]
    text = format_comparison(compare_runs(runs), long)
    assert f"Against {long}, {long}-b:" in text.replace("\n", " ")
