"""A run's inputs checked at the door (unospin_sim.run.inputs): rounds or matches to play."""

from __future__ import annotations

import pytest

from unospin_sim.errors import UserError
from unospin_sim.rules import parse_rules
from unospin_sim.run import DEFAULT_MATCHES, DEFAULT_ROUNDS, games_to_play

SINGLE = parse_rules("classic(players=4)")
RACE = parse_rules("classic(players=4,match=race)")


def test_rounds_or_matches_by_default_and_given():
    assert games_to_play(SINGLE) == DEFAULT_ROUNDS == 1_000_000
    assert games_to_play(SINGLE, rounds=500, rotate_bots=True) == 500
    assert games_to_play(RACE) == DEFAULT_MATCHES == 1000
    assert games_to_play(RACE, matches=7) == 7


@pytest.mark.parametrize(
    "rules, kwargs, words",
    [
        (RACE, {"rounds": 10}, "match=race plays whole matches: give --matches N, not --games"),
        (RACE, {"rotate_bots": True}, "--rotate-bots cannot be combined with match=race"),
        (SINGLE, {"matches": 10}, "--matches needs a match mode"),
    ],
)
def test_the_wrong_count_is_one_line(rules, kwargs, words):
    with pytest.raises(UserError, match=words.replace("+", r"\+")):
        games_to_play(rules, **kwargs)
