"""The reference engine's match mode (``reference.play_match``) on scripted rounds.

Each test replaces the ``play_round`` that ``reference.play_match`` calls (the one
``unospin_sim.reference.match`` imports) by a script of round outcomes given by SEAT, so
that the match logic alone is checked against docs/HOUSE_RULES.md "Match mode": the deal
passes one seat a round (round j seats player i at seat (i - j) mod N), race / lowest /
partners scoring, the end of a match and an unfinished round scoring nothing. The statistical
comparison with the numba engine's matches is ``tests/crosscheck_matches.py``.
"""

from __future__ import annotations

import pytest

import unospin_sim.reference.match as reference_match
from unospin_sim import reference

PARTNERS = reference.Options(partners=True)


class Script:
    """play_round stand-in: round k returns winner seat ``w`` and ``points_left`` per seat."""

    def __init__(self, rounds):
        self.rounds = list(rounds)
        self.seated = []  # the bots list each round was given (by seat)

    def __call__(self, edition, players, seed, options, bots):
        w, points = self.rounds.pop(0)
        self.seated.append(list(bots))
        return {"winner": w, "first_player": 0, "turns": 10, "points_left": list(points)}


def _play(monkeypatch, rounds, players, options=None, **match):
    """The match of the scripted ``rounds``; ``match``: the fields of a MatchOptions."""
    script = Script(rounds)
    monkeypatch.setattr(reference_match, "play_round", script)
    bots = [{"strategy": "random", "catch": i / 10} for i in range(players)]  # tell them apart
    spec = reference.MatchOptions(**match)
    return reference.play_match("classic", players, 1, spec, options, bots), script, bots


def test_race_scores_the_winner_maps_seats_to_players_and_ends_at_the_target(monkeypatch):
    # round 0: seat 1 = player 1 wins 30 + 10. Round 1 (seat s holds player (s + 1) mod 3):
    # seat 1 = player 2 wins 5 + 45. Round 2 (seat s holds player (s + 2) mod 3): seat 0 =
    # player 2 wins 25 + 20 and reaches 95 = the target exactly: the match ends.
    rounds = [(1, [30, 0, 10]), (1, [5, 0, 45]), (0, [0, 25, 20])]
    res, script, _ = _play(monkeypatch, rounds, 3, match="race", target=95)
    assert [b["catch"] for b in script.seated[0]] == [0.0, 0.1, 0.2]
    assert [b["catch"] for b in script.seated[1]] == [0.1, 0.2, 0.0]  # player 1 at seat 0
    assert [b["catch"] for b in script.seated[2]] == [0.2, 0.0, 0.1]
    assert res["scores"] == [0, 40, 95] and res["rounds"] == 3 and res["winner"] == 2
    assert [r["winner"] for r in res["round_results"]] == [1, 2, 2]
    assert [r["first_player"] for r in res["round_results"]] == [0, 1, 2]
    assert [r["scores"] for r in res["round_results"]] == [[0, 40, 0], [0, 40, 50], [0, 40, 95]]
    assert res["turns"] == 30


def test_race_reaching_the_target_exactly_wins_and_ends(monkeypatch):
    rounds = [(0, [0, 60, 40]), (2, [10, 0, 0]), (0, [0, 0, 0])]
    res, _, _ = _play(monkeypatch, rounds, 3, match="race", target=100)
    # round 0: player 0 scores 100 = target: the match ends after one round
    assert res["rounds"] == 1 and res["winner"] == 0 and res["scores"] == [100, 0, 0]
    assert res["turns"] == 10


def test_an_unfinished_round_scores_nothing_and_max_rounds_ends_unfinished(monkeypatch):
    rounds = [(-1, [50, 50]), (1, [30, 0]), (-1, [99, 99])]
    res, _, _ = _play(monkeypatch, rounds, 2, match="race", target=500, max_rounds=3)
    # round 1: seat 1 holds player (1 + 1) mod 2 = 0, who scores seat 0's 30 points
    assert res["scores"] == [30, 0] and res["rounds"] == 3 and res["winner"] == -1
    assert [r["winner"] for r in res["round_results"]] == [-1, 0, -1]


def test_lowest_adds_own_points_and_ends_when_a_total_passes_the_target(monkeypatch):
    # 3 players, target 50. Round 0 (seat = player): points left 20, 0, 50 -> totals 20, 0, 50
    # (50 is not MORE than 50: go on). Round 1 (seat s = player (s + 1) mod 3): seat points
    # 0, 10, 5 -> players 1, 2, 0 get 0, 10, 5 -> totals 25, 0, 60: 60 passes 50, the lowest
    # total (player 1) wins.
    rounds = [(1, [20, 0, 50]), (0, [0, 10, 5]), (0, [0, 0, 0])]
    res, _, _ = _play(monkeypatch, rounds, 3, match="lowest", target=50)
    assert res["scores"] == [25, 0, 60] and res["rounds"] == 2 and res["winner"] == 1


def test_lowest_ties_go_to_the_lowest_player_number(monkeypatch):
    rounds = [(0, [0, 70, 0, 5]), (0, [0, 0, 0, 0])]
    res, _, _ = _play(monkeypatch, rounds, 4, match="lowest", target=60)
    assert res["scores"] == [0, 70, 0, 5] and res["winner"] == 0
    rounds = [(1, [10, 0, 10, 80])]
    res, _, _ = _play(monkeypatch, rounds, 4, match="lowest", target=60)
    assert res["winner"] == 1


def test_lowest_unfinished_round_scores_nothing(monkeypatch):
    rounds = [(-1, [90, 90]), (0, [0, 61])]
    res, _, _ = _play(monkeypatch, rounds, 2, match="lowest", target=60)
    # round 1: seat 1 is player 0, holding 61 points
    assert res["scores"] == [61, 0] and res["winner"] == 1 and res["rounds"] == 2


def test_partners_race_team_scores_the_opponents_points(monkeypatch):
    # 4 players, teams 0 (players 0, 2) and 1 (players 1, 3). Round 0: seat 2 (player 2,
    # team 0) wins: team 0 scores players 1 and 3: 7 + 11 = 18 (its partner's 40 does not
    # count). Round 1: seat 0 holds player 1 (team 1) and wins: players 0 and 2 sit at seats
    # 3 and 1 holding 3 and 100: team 1 scores 103 and passes 100.
    rounds = [(2, [40, 7, 0, 11]), (0, [0, 100, 9, 3])]
    res, _, _ = _play(monkeypatch, rounds, 4, match="race", target=100, options=PARTNERS)
    assert res["scores"] == [18, 103, 18, 103]
    assert res["winner"] == 1 and res["rounds"] == 2


def test_bad_match_arguments():
    with pytest.raises(ValueError, match="match must be one of"):
        reference.play_match("classic", 4, 1, reference.MatchOptions(match="best_of_3"))
    with pytest.raises(ValueError, match="partners matches are races"):
        reference.play_match("classic", 4, 1, reference.MatchOptions(match="lowest"), PARTNERS)
    with pytest.raises(ValueError, match="need 4 bots"):
        reference.play_match("classic", 4, 1, bots=[{}])


def test_real_matches_end_and_scores_add_up():
    """Unscripted: every recorded round adds up to the final scores (race)."""
    for m in range(3):
        seed = reference.match_seed(7, m)
        res = reference.play_match("spin2005", 3, seed, reference.MatchOptions(target=200))
        total = [0, 0, 0]
        for r in res["round_results"]:
            if r["winner"] >= 0:
                total[r["winner"]] += sum(r["points_left"])
            assert r["scores"] == total
        assert res["winner"] == max(range(3), key=lambda i: total[i]) and max(total) >= 200
