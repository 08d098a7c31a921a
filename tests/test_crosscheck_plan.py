"""Default tier: the powered cross-check (tests/crosscheck_powered.py, a script: hours at
full power) covers what it claims, computes its power correctly and its tests can fail.
None of this plays the numba engine."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import crosscheck_powered as cp
import crosskit

from unospin_sim.bots import parse_bots
from unospin_sim.rules import parse_rules
from unospin_sim.rules.ruleset import EDITIONS, HOUSE_RULES, OPTION_ORDER

CONFIGS = cp.configs()
EXAMPLES = cp.EXAMPLES
#: the deck's numbers (issue 48): the same rule in every edition, one powered cell each
DECK_NUMBERS = {
    "draw_two_draws",
    "wd4_draws",
    "uno_penalty",
    "hand_size",
    "skip_cards",
    "reverse_cards",
    "draw_two_cards",
    "wild_cards",
    "wd4_cards",
    "points",
}
#: options the powered run does not vary, and why
NOT_COVERED = {
    "rlcard": "not in the reference; tests/test_rlcard.py compares with RLCard",
    # a match is a sequence of single rounds: tests/test_matches.py checks the race against
    # matches assembled from single rounds, and the race goldens replay every round
    "match": "a sequence of single rounds (tests/test_matches.py)",
    "target": "a sequence of single rounds (tests/test_matches.py)",
}


def _with(edition=None, **opt):
    return [
        c
        for c in CONFIGS
        if (edition is None or c.edition == edition)
        and all(c.options.get(k, object()) == v for k, v in opt.items())
    ]


def test_names_unique_and_every_config_parses():
    assert len({c.name for c in CONFIGS}) == len(CONFIGS)
    for c in CONFIGS:
        rs = parse_rules(c.rules)
        assert rs.edition == c.edition and rs.players == c.players
        parse_bots(c.bots, c.players)
        # the reference takes the same options: one round of each
        res = crosskit.ref_round(c.edition, c.players, 1, **c.ref_kwargs())
        assert res["turns"] >= 1
    # every shipped variant file is a cell, its wheel played by the reference's interpreter
    cells = {c.variant for c in CONFIGS if c.variant}
    assert cells == {p.stem for p in EXAMPLES.glob("*.toml")}


def test_every_edition_player_count_option_value_and_house_rule_is_covered():
    base = {(c.edition, c.players) for c in CONFIGS if not c.options and not c.knobs}
    for e in EDITIONS:
        assert {(e, 2), (e, 4), (e, 10)} <= base, e
    assert {c.players for c in CONFIGS} == set(range(2, 11))
    for opt in OPTION_ORDER:
        if opt in ("players",) or opt in NOT_COVERED:
            continue
        if opt in DECK_NUMBERS:  # the same rule in every edition: one cell off the default
            assert any(opt in c.options for c in CONFIGS), opt
            continue
        for name, ed in EDITIONS.items():
            if opt not in ed.defaults:
                continue
            default = ed.defaults[opt]
            if opt == "turn_cap":
                assert _with(name, turn_cap=1) or name not in ("classic", "spin2025")
                continue
            if opt == "wheel":
                for space in ed.wheel_spaces:
                    assert _with(name, wheel={space: 1}), (name, space)
                continue
            if isinstance(default, bool):
                values = [not default]
            elif opt == "wild_spin_cards":
                values = [v for v in range(5) if v != default]
            elif opt == "spin_cards":
                values = [0, 2, 9]  # 9: Spin cards 6-9 (one of each number's two copies)
            elif opt == "special_wilds":
                values = ["swap_hands", "shuffle_hands"]
            elif opt == "stacked_wd4":
                values = ["free"]
            else:
                pytest.fail(
                    f"option {opt!r} has no coverage rule in this test: add it to "
                    f"crosscheck_powered.configs() and here"
                )
            for v in values:
                assert _with(name, **{opt: v}), (name, opt, v)
    for h in HOUSE_RULES:
        assert h in NOT_COVERED or any(h in c.options for c in CONFIGS), h
    assert any(c.knobs for c in CONFIGS)


@pytest.mark.parametrize(
    "sigma, delta, ratio", [(27.0, 0.52, 4), (0.5, 0.005, 4), (0.3, 0.005, 10), (92.0, 0.84, 1)]
)
def test_sample_size_gives_the_power(sigma, delta, ratio):
    alpha, power = 1e-4, 0.8
    n = cp.sample_size(sigma, delta, alpha, power, ratio)
    se = sigma * np.sqrt(1 / n + 1 / (ratio * n))
    assert cp.achieved_power(se, delta, alpha) == pytest.approx(power, abs=0.002)
    se_less = sigma * np.sqrt(1 / (0.9 * n) + 1 / (ratio * 0.9 * n))
    assert cp.achieved_power(se_less, delta, alpha) < power


def _synthetic(n, players, mean_turns, win0, rng):
    turns = rng.geometric(1 / mean_turns, n)
    p = np.full(players, (1 - win0) / (players - 1))
    p[0] = win0
    arr = {"turns": turns, "winner": rng.choice(players, n, p=p)}
    for k in ("winner_points", "cards_drawn", "failed_draws", "spins"):
        arr[k] = rng.poisson(5, n)
    return arr


def test_the_tests_accept_equal_and_reject_shifted_samples():
    """At the script's own sample size, a 1.5% shift in mean turns, a 0.75-point shift in
    seat 0's win rate and a changed winner distribution at equal seat 0 are all rejected;
    equal distributions are not."""
    rng = np.random.default_rng(5)
    players, mu, p0, alpha, ratio = 4, 50.0, 0.25, 1e-4, 4
    sd = np.sqrt(mu * (mu - 1))
    n = max(
        cp.sample_size(sd, 0.01 * mu, alpha, 0.8, ratio),
        cp.sample_size(np.sqrt(p0 * (1 - p0)), 0.005, alpha, 0.8, ratio),
    )
    cfg = cp.Config("synthetic", "classic", players)
    ref = _synthetic(n, players, mu, p0, rng)
    same = cp.compare(cfg, _synthetic(ratio * n, players, mu, p0, rng), ref, alpha, 0.8, mu)
    assert not same["rejected"] and same["powered"]
    shifted = cp.compare(
        cfg, _synthetic(ratio * n, players, mu * 1.015, p0, rng), ref, alpha, 0.8, mu
    )
    assert any(b.startswith("z_turns") for b in shifted["rejected"])
    assert any(b.startswith("KS") for b in shifted["rejected"])
    biased = cp.compare(
        cfg, _synthetic(ratio * n, players, mu, p0 + 0.0075, rng), ref, alpha, 0.8, mu
    )
    assert any(b.startswith("z_win0") for b in biased["rejected"])
    eng = _synthetic(ratio * n, players, mu, p0, rng)
    w = eng["winner"]  # seat 1 wins 2 points less, seat 2 two more; seat 0 unchanged
    move = (w == 1) & (rng.random(len(w)) < 0.08)
    eng["winner"] = np.where(move, 2, w)
    moved = cp.compare(cfg, eng, ref, alpha, 0.8, mu)
    assert any(b.startswith("chi2") for b in moved["rejected"])
    assert not any(b.startswith("z_win0") for b in moved["rejected"])
