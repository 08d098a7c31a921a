"""The report's skill-profile and worth sections (issue 50 item 5): hand-built profiles and
worth tables read into the "How much of the game is skill?" line with exact figures, the
worth pooled over seeds exactly, and bad input refused in one line before anything is
written."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pandas as pd
import pytest

from unospin_sim.errors import UserError
from unospin_sim.report import build_report
from unospin_sim.studies.restricted import Z95, load_worth, pooled_worth

RUN = Path(__file__).parent / "fixtures" / "results_format1" / "spin2025-p3"


def _profile(d: Path, rules: str, seed: int, depth, sd: float) -> Path:
    """A skill profile directory as ``skill --out`` writes it (the two files read)."""
    d.mkdir()
    pd.DataFrame(
        {
            "budget": [16, 32],
            "rounds": [20000, 20000],
            "share": [0.512, 0.503],
            "gain": [0.012, 0.003],
            "gain_low": [0.005, -0.004],
            "gain_high": [0.019, 0.010],
        }
    ).to_parquet(d / "trace.parquet", index=False)
    figures = {
        "rules": rules,
        "rounds_per_pairing": 20000,
        "unit": "rounds",
        "seed": seed,
        "top_budget": 32,
        "skill_depth": depth,
        "field": ["search(rollouts=32)", "search(rollouts=16)", "heuristic", "random"],
        "order": {"holds": False, "pairs": 6, "failing": ["a vs b"]},
        "rating_spread": {"sd": sd, "sd_low": sd - 0.01, "sd_high": sd + 0.02, "boot": 10},
    }
    (d / "skill.json").write_text(json.dumps(figures))
    return d


def _worth(path: Path, rules: str, rows) -> Path:
    """A worth table as ``worth --out`` writes it, from (skill, seed, worth, half width)."""
    pd.DataFrame(
        [
            dict(rules=rules, full_bot="spin_aware", skill=s, knob="k=0", seed=seed)
            | dict(rounds=40000, worth=w, low=w - h, high=w + h, note="")
            for s, seed, w, h in rows
        ]
    ).to_csv(path, index=False)
    return path


def test_pooled_worth_is_the_seeds_mean_with_their_standard_errors(tmp_path):
    t = load_worth(
        _worth(
            tmp_path / "w.csv",
            "classic(players=2)",
            [("calling UNO", 1, 10.0, 0.6), ("calling UNO", 2, 12.0, 0.8), ("naming", 1, 3.0, 1.0)],
        )
    )
    p = pooled_worth(t)
    assert list(p["skill"]) == ["calling UNO", "naming"]  # most worth first
    top = p.iloc[0]
    assert top["worth"] == pytest.approx(11.0)
    half = Z95 * math.hypot(0.6 / Z95, 0.8 / Z95) / 2  # = 0.5
    assert top["high"] - top["worth"] == pytest.approx(half)
    assert half == pytest.approx(0.5)
    assert (top["seeds"], top["rounds"]) == (2, 80000)
    assert p.iloc[1]["worth"] == 3.0 and p.iloc[1]["high"] == pytest.approx(4.0)


def test_skill_line_adds_the_profiles_and_the_worth(tmp_path):
    a = _profile(tmp_path / "a", "classic(players=2)", 1, 16, 0.30)
    b = _profile(tmp_path / "b", "classic(players=2)", 2, None, 0.25)
    c = _profile(tmp_path / "c", "spin2025(players=2)", 1, 8, 0.20)
    w = _worth(
        tmp_path / "w.csv",
        "spin2025(players=2)",
        [("calling UNO", 1, 10.0, 0.5), ("naming the colour", 1, 6.0, 0.5)]
        + [("holding wilds back", 1, 2.0, 0.5), ("valuing the wheel", 1, 0.5, 0.5)],
    )
    rep = tmp_path / "rep"
    text = build_report([RUN], rep, wheel_games=0, skill_dirs=[a, b, c, w])
    text = text.read_text()
    block = text.split("## Answers", 1)[1].split("\n## ", 1)[0]
    line = next(ln for ln in block.splitlines() if "How much of the game is skill?" in ln)
    assert (
        "`classic(players=2)` skill depth 16 and > 32 rollouts, rating spread "
        "0.300 [0.290, 0.320] and 0.250 [0.240, 0.270] (seeds 1, 2)" in line
    ), line
    assert "`spin2025(players=2)` skill depth 8 rollouts" in line
    assert (
        "in `spin2025(players=2)` calling UNO +10.0 [+9.5, +10.5], naming the colour +6.0 "
        "[+5.5, +6.5], holding wilds back +2.0 [+1.5, +2.5]." in line
    ), line
    assert "valuing the wheel" not in line  # the three worth most only
    assert "## Skill profile: how far skill goes" in text and "## What each skill is worth" in text
    assert (rep / "skill_profile.png").stat().st_size > 0
    prof = pd.read_csv(rep / "tables" / "skill_profile.csv")
    assert list(prof["seed"]) == [1, 2, 1] and list(prof["top_budget"]) == [32] * 3
    assert list(pd.read_csv(rep / "tables" / "skill_worth.csv")["worth"]) == [10.0, 6.0, 2.0, 0.5]
    assert f"--skill {a} {b} {c} {w}" in text  # the command that reproduces it


def test_skill_line_without_inputs_names_all_three(tmp_path):
    text = build_report([RUN], tmp_path / "rep", wheel_games=0).read_text()
    assert "tournaments, skill profiles or worth tables (--skill DIR_OR_CSV ...)" in text


def test_bad_profile_or_worth_is_refused_before_writing(tmp_path):
    rep = tmp_path / "rep"
    (tmp_path / "bad.csv").mkdir()  # a directory named .csv: neither kind, a tournament
    with pytest.raises(UserError, match="bad.csv"):
        build_report(
            [RUN],
            rep,
            wheel_games=0,
            skill_dirs=[_profile(tmp_path / "p", "x", 1, 8, 0.2), tmp_path / "bad.csv"],
        )
    (tmp_path / "x.csv").write_text("a,b\n1,2\n")
    with pytest.raises(UserError, match="is not a worth table .no column 'rules'"):
        build_report([RUN], rep, wheel_games=0, skill_dirs=[tmp_path / "x.csv"])
    w = _worth(tmp_path / "w.csv", "classic(players=2)", [("calling UNO", 1, 10.0, 0.5)])
    with pytest.raises(UserError, match="seed 1 is in more than one table"):
        build_report([RUN], rep, wheel_games=0, skill_dirs=[w, w])
    assert not rep.exists()
