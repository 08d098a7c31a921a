"""Strategy ``tuned`` (engine/policy/tuned.py): heuristic's card ranking with its weights as
knobs. Hand-built positions and the exact choice; with heuristic's weights it plays exactly
as heuristic; the weights are checked knobs."""

from __future__ import annotations

import numpy as np
import pytest
from statekit import Game, kinds

from unospin_sim.bots import (
    DEFAULTS,
    HEURISTIC_WEIGHTS,
    TUNED_WEIGHTS,
    parse_bots,
    saved_bot_string,
)
from unospin_sim.engine import kernel
from unospin_sim.engine import layout as L
from unospin_sim.engine.encode import encode
from unospin_sim.engine.policy import tuned as TU
from unospin_sim.errors import BotError
from unospin_sim.rules import parse_rules

RED, YELLOW, GREEN, BLUE = range(4)  # rules.cards.COLOURS


def kind(name):
    return kinds(name)[0]


def as_heuristic(**weights):
    """``tuned`` with heuristic's weights but ``weights``."""
    w = dict(HEURISTIC_WEIGHTS, **weights)
    return "tuned(" + ",".join(f"{k}={v:g}" for k, v in w.items()) + ")"


AS_HEURISTIC = as_heuristic()


def _bots(text, players=4):
    return encode(parse_rules(f"classic(players={players})"), parse_bots(text, players)).bots


def _void_position():
    """Seat 0 to play on a red 5: red 3 (3 + 2 x 1 held red) or blue 5 (5 + 2 x 1 held
    blue), by heuristic's score the blue 5; seat 1, next, drew for want of red."""
    g = Game("classic(players=4)", "random", seed=3)
    g.give(0, "red 3", "blue 5")
    g.give(1, "green 1", "green 2", "green 3")
    g.give(2, "yellow 1", "yellow 2", "yellow 3")
    g.give(3, "yellow 4", "yellow 5", "yellow 6")
    g.top("red 5")
    g.st.hand[1, L.VOID] = 1 << RED
    return g


def _card(g, bots_text):
    return TU.choose_card(g.st, g.r, g.pts, g.cum, _bots(bots_text), 0, True)


def test_a_card_the_next_seat_lacks_the_colour_of_scores_w_void():
    g = _void_position()
    assert _card(g, AS_HEURISTIC) == kind("blue 5")  # 7 against 5
    assert _card(g, as_heuristic(w_void=1.9)) == kind("blue 5")  # 6.9 against 7
    assert _card(g, as_heuristic(w_void=2.1)) == kind("red 3")  # 7.1 against 7
    g.st.hand[1, L.VOID] = 1 << GREEN  # a colour seat 0 cannot play: no effect
    assert _card(g, as_heuristic(w_void=100)) == kind("blue 5")


def test_the_weights_rank_points_colour_and_actions():
    """Legal on a red 5: red 3, red skip (2 reds held) and blue 5 (2 blues held)."""
    g = _void_position()
    g.st.hand[1, L.VOID] = 0
    g.give(0, "blue 9", "red skip")
    assert _card(g, AS_HEURISTIC) == kind("red skip")  # 24 against 7 and 9
    assert _card(g, as_heuristic(w_points=-1)) == kind("red 3")  # 1 against -16 and -1
    assert _card(g, as_heuristic(w_points=0, w_colour=0)) == kind("red 3")  # ties: scan order
    assert _card(g, as_heuristic(w_points=0, w_colour=0, w_action=1)) == kind("red skip")
    assert _card(g, as_heuristic(w_points=0, w_colour=0, w_attack=1)) == kind("red 3")
    g.st.hand[1, :] = 0
    g.give(1, "green 1")  # seat 1 at one card: the attack weight instead of the action's
    assert _card(g, as_heuristic(w_points=0, w_colour=0, w_attack=1)) == kind("red skip")
    assert _card(g, as_heuristic(w_points=0, w_colour=0, w_attack=0, w_action=1)) == kind("red 3")
    g.give(0, "blue 7")  # 3 blues held now: the colour weight
    assert _card(g, as_heuristic(w_points=0, w_colour=1, w_attack=0)) == kind("blue 5")


def test_wild_scores_depend_on_the_next_seats_hand():
    g = Game("classic(players=2)", "random", seed=1)
    g.give(0, "red 3", "wild", "wild draw four")
    g.give(1, "green 1", "green 2", "green 3")
    g.top("red 5")
    b = lambda text: encode(parse_rules("classic(players=2)"), parse_bots(text, 2)).bots
    card = lambda text, ok=True: TU.choose_card(g.st, g.r, g.pts, g.cum, b(text), 0, ok)
    assert card(AS_HEURISTIC) == kind("red 3")  # 5 against -100 and -200
    assert card(as_heuristic(w_wild=10)) == kind("wild")
    assert card(as_heuristic(w_wd4=10, w_wild=9)) == kind("wild draw four")
    assert card(as_heuristic(w_wd4=10, w_wild=9), ok=False) == kind("wild")  # WD4 not playable
    g.st.hand[1, :] = 0
    g.give(1, "green 1")  # next seat at one card: the attack scores
    assert card(AS_HEURISTIC) == kind("wild draw four")  # 300 against 250 and 5
    assert card(as_heuristic(w_wd4_attack=0, w_wild_attack=4)) == kind("red 3")  # 5 > 4 > 0
    assert card(as_heuristic(w_wd4_attack=0, w_wild_attack=6)) == kind("wild")


def test_colour_named_weighs_what_the_next_seat_lacks():
    g = Game("classic(players=4)", "random", seed=1)
    g.give(0, "blue 1", "blue 2", "red 3")
    g.st.hand[1, L.VOID] = 1 << RED
    assert TU.choose_colour(g.st, _bots(AS_HEURISTIC), 0) == BLUE
    assert TU.choose_colour(g.st, _bots(as_heuristic(w_name_void=0.9)), 0) == BLUE
    assert TU.choose_colour(g.st, _bots(as_heuristic(w_name_void=1.1)), 0) == RED
    g.st.hand[1, L.VOID] = 0
    assert TU.choose_colour(g.st, _bots(as_heuristic(w_name_void=1.1)), 0) == BLUE


def _play(bots_text, rules="classic(players=4)", n=3000, seed=11):
    rs = parse_rules(rules)
    ki = encode(rs, parse_bots(bots_text, rs.players))
    out = np.zeros((n, L.n_out_columns(rs.players)), np.int64)
    seeds = np.zeros(n, np.uint64)
    spins = kernel.play_chunk(*ki.args(), seed, 0, out, seeds, True)
    return out, spins


@pytest.mark.parametrize(
    "rules, others", [("classic(players=4)", ",random,random"), ("spin2025(players=3)", ",random")]
)
def test_with_heuristics_weights_it_plays_exactly_as_heuristic(rules, others):
    """Every round of a seeded run, seats rotated, the same as heuristic's row for row (and
    every spin of the wheel)."""
    a = _play(f"{AS_HEURISTIC},{AS_HEURISTIC}{others}", rules)
    b = _play(f"heuristic,heuristic{others}", rules)
    np.testing.assert_array_equal(a[0], b[0])
    np.testing.assert_array_equal(a[1], b[1])


def test_every_weight_has_a_default_and_a_column():
    assert set(TUNED_WEIGHTS) == set(HEURISTIC_WEIGHTS)
    assert all(DEFAULTS[k] == v for k, v in TUNED_WEIGHTS.items())
    # then search's extend and spin_aware's four skills
    assert _bots("tuned").shape[1] == 12 + len(TUNED_WEIGHTS) + 1 + 4


def test_weights_are_checked_knobs():
    with pytest.raises(BotError, match="'w_void' applies only to strategy 'tuned'"):
        parse_bots("heuristic(w_void=1)", 2)
    with pytest.raises(BotError, match="'w_points' must be a finite number in -1000..1000"):
        parse_bots("tuned(w_points=1e9)", 2)
    with pytest.raises(BotError, match="'w_points' must be a finite number"):
        parse_bots("tuned(w_points=nan)", 2)
    (spec,) = parse_bots("tuned(w_void=3.5)", 1)
    assert str(spec) == "tuned(w_void=3.5)"
    saved = saved_bot_string(spec)  # names every weight: later tuning changes no saved run
    assert all(f"{k}=" in saved for k in TUNED_WEIGHTS)
    assert parse_bots(saved, 1) == (spec,)
