"""Restricted play (studies/restricted.py, ``python -m unospin_sim worth``): the paired loss
on hand-built rounds, the seed rules, and a small study end to end."""

import math

import numpy as np
import pytest
from conftest import in_process_cli

from unospin_sim.errors import UserError
from unospin_sim.studies.restricted import SKILLS, paired_loss, skill_worth


def test_paired_loss_exact():
    full = np.array([1, 1, 0, 1, 0, 0, 1, 1], bool)
    denied = np.array([1, 0, 0, 0, 0, 1, 1, 0], bool)
    d = full.astype(float) - denied  # 0, 1, 0, 1, 0, -1, 0, 1: mean 1/4
    est, lo, hi = paired_loss(full, denied)
    se = d.std(ddof=1) / math.sqrt(8)
    assert est == pytest.approx(25.0)
    assert lo == pytest.approx(100 * (0.25 - 1.959963984540054 * se))
    assert hi == pytest.approx(100 * (0.25 + 1.959963984540054 * se))
    assert paired_loss(full, full) == (0.0, 0.0, 0.0)


def test_a_tuning_seed_cannot_report():
    with pytest.raises(UserError, match="tuning seed 1 is also a reported seed"):
        skill_worth("classic(players=2)", games=10, seeds=(1, 2), tune_seed=1)
    with pytest.raises(UserError, match="games must be an integer >= 2"):
        skill_worth("classic(players=2)", games=1)


def test_a_small_study_end_to_end():
    w = skill_worth("spin2025(players=2)", games=400, seeds=(5,), tune_seed=4, threads=1)
    t = w.table
    assert list(t["skill"]) == list(SKILLS)  # the 2025 wheel: every skill, valuing it too
    assert (t["rounds"] == 400).all() and (t["seed"] == 5).all()
    measured = t[t["note"] == ""]
    assert ((measured["low"] <= measured["worth"]) & (measured["worth"] <= measured["high"])).all()
    catch = t[t["skill"] == "catching"].iloc[0]
    assert math.isnan(catch.worth) and "never forgets" in catch.note
    assert w.challenge in (0.0, 0.25, 0.5, 0.75, 1.0)
    # never calling UNO costs 2 cards each time: it must cost rounds, even in 400
    uno = t[t["skill"] == "calling UNO"].iloc[0]
    assert uno.low > 0, uno
    df = w.to_df()
    assert df["rules"].iloc[0] == "spin2025(players=2)"


def test_without_a_wheel_there_is_no_wheel_skill():
    w = skill_worth("classic(players=2)", games=50, seeds=(3,), tune_seed=2, threads=1)
    assert "valuing the wheel" not in set(w.table["skill"])


def test_cli_bad_seeds(monkeypatch, capsys):
    r = in_process_cli(monkeypatch, capsys)("worth", "--seeds", "1,x")
    assert r.returncode == 2 and "--seeds takes integers" in r.stderr
    r = in_process_cli(monkeypatch, capsys)("worth", "--rules", "classic", "--players", "2")
    assert r.returncode == 2 and "drop --edition and --players" in r.stderr
