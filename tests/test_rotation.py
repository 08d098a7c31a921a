"""Rotated bots: the deal passes one seat clockwise from game to game, as in a match."""

import numpy as np
import pandas as pd
import pytest

from unospin_sim.analysis import assemble_matches, player_win_rates
from unospin_sim.run import Execution, simulate

BOTS = ["heuristic", "random", "random(catch=1)", "random"]


@pytest.mark.parametrize("rules", ["classic(players=4)", "spin2025(players=4)"])
def test_game_g_seats_player_s_plus_g(rules):
    """Row g of a rotated run is game g of an unrotated run whose seat s holds bot (s+g)%4."""
    rot = simulate(
        rules, ",".join(BOTS), games=8, seed=21, rotate_bots=True, execution=Execution(threads=1)
    )
    for g in range(8):
        seated = ",".join(BOTS[(s + g) % 4] for s in range(4))
        plain = simulate(rules, seated, games=g + 1, seed=21, execution=Execution(threads=1))
        pd.testing.assert_series_equal(rot.rounds.iloc[g], plain.rounds.iloc[g], check_names=False)
    # the comparison can fail: a run ignoring rotate_bots (every game seated as BOTS) gives
    # different rows for some of these games
    unrotated = simulate(rules, ",".join(BOTS), games=8, seed=21, execution=Execution(threads=1))
    differ = [g for g in range(8) if not rot.rounds.iloc[g].equals(unrotated.rounds.iloc[g])]
    assert differ and all(g % 4 for g in differ), differ


def test_rotation_with_identical_bots_changes_nothing():
    a = simulate("spin2005(players=3)", "random", games=500, seed=2, rotate_bots=True)
    b = simulate("spin2005(players=3)", "random", games=500, seed=2)
    pd.testing.assert_frame_equal(a.rounds, b.rounds)
    assert a.meta["rotate_bots"] is True and b.meta["rotate_bots"] is False


def _rounds(winners, points, players=2):
    d = {"game": np.arange(len(winners)), "winner": winners, "winner_points": points}
    for i in range(players):
        d[f"cards_left_{i}"] = np.ones(len(winners), int)
        d[f"points_left_{i}"] = np.zeros(len(winners), int)
    return pd.DataFrame(d)


def test_rotated_matches_and_player_rates_by_hand():
    # 2 players, rotated: seat s of game g is player (s + g) % 2
    rounds = _rounds([0, 0, 1, 1], [300, 300, 100, 250])
    # g0 seat0 -> p0 +300; g1 seat0 -> p1 +300; g2 seat1 -> p1 +100; g3 seat1 -> p0 +250
    m = assemble_matches(rounds, target=500, bots=["heuristic", "random"], rotated=True)
    assert len(m) == 1
    assert (m.loc[0, "score_0"], m.loc[0, "score_1"], m.loc[0, "winner"]) == (550, 400, 0)
    with pytest.raises(Exception, match="rotate"):
        assemble_matches(rounds, bots=["heuristic", "random"], rotated=False)


def _ignoring_rotation(rounds, rotated=False, players=None):
    """player_win_rates as a wrong implementation would compute it: ``rotated`` ignored."""
    return player_win_rates(rounds, rotated=False, players=players)


def _check_player_wins(win_rates):
    """The test of player_win_rates(rotated=True), as a function of the implementation.

    3 players, games 7..12 (a run's later chunk: the player of a seat depends on the
    ``game`` column, not on the row). Winner seat s of game g is player (s + g) % 3:
      g7 s0 -> p1, g8 s2 -> p1, g9 s1 -> p1, g10 s2 -> p0, g11 unfinished, g12 s0 -> p0
    so players 0, 1, 2 win 2, 3, 0 rounds; as seats, 0, 1, 2 win 2, 1, 2."""
    rounds = _rounds([0, 2, 1, 2, -1, 0], [10] * 6, players=3)
    rounds["game"] = np.arange(7, 13)
    t = win_rates(rounds, rotated=True)
    assert list(t["wins"]) == [2, 3, 0]
    assert np.allclose(t["rate"], np.array([2, 3, 0]) / 6)  # unfinished rounds count in n


def test_player_win_rates_follow_rotation():
    _check_player_wins(player_win_rates)
    # unrotated, the same rounds are per seat
    rounds = _rounds([0, 2, 1, 2, -1, 0], [10] * 6, players=3)
    rounds["game"] = np.arange(7, 13)
    assert list(player_win_rates(rounds, rotated=False)["wins"]) == [2, 1, 2]


def test_rotation_check_rejects_an_implementation_ignoring_rotation():
    """The check above has the power to fail: an implementation that ignores ``rotated``
    fails it."""
    with pytest.raises(AssertionError):
        _check_player_wins(_ignoring_rotation)


def test_rotated_matches_use_the_game_column():
    """The rotated match of 2 players counts game g's winner seat s for player (s + g) % 2,
    g from the game column: the same winners from odd games give the other player."""
    rounds = _rounds([0, 0, 1, 1], [300, 300, 100, 250])
    rounds["game"] = np.arange(1, 5)
    # g1 s0 -> p1 +300; g2 s0 -> p0 +300; g3 s1 -> p0 +100; g4 s1 -> p1 +250
    m = assemble_matches(rounds, target=500, bots=["heuristic", "random"], rotated=True)
    assert (m.loc[0, "score_0"], m.loc[0, "score_1"], m.loc[0, "winner"]) == (400, 550, 1)


@pytest.mark.slow
def test_cli_rotate_bots_and_mixed_bot_race_report(tmp_path, cli):
    out = tmp_path / "r"
    r = cli(
        "run",
        "--games",
        "4000",
        "--edition",
        "classic",
        "--bots",
        "heuristic,random,random,random",
        "--rotate-bots",
        "--seed",
        "5",
        "--out",
        str(out),
        "--quiet",
    )
    assert r.returncode == 0, r.stderr
    rep = tmp_path / "rep"
    r = cli("report", str(out), "--out", str(rep))
    assert r.returncode == 0, r.stderr
    text = (rep / "report.md").read_text()
    assert "The race to 500 points" in text and "win_rate_player_0" in text
    r = cli(
        "play",
        "--seed",
        "5",
        "--game",
        "1",
        "--edition",
        "classic",
        "--bots",
        "heuristic,random,random,random",
        "--rotate-bots",
    )
    assert r.returncode == 0
    assert "seat 3=heuristic" in r.stdout.splitlines()[1]
