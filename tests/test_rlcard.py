"""The rule option ``rlcard``: RLCard 1.2.0's UNO, difference by difference.

Each RLCard rule gets a hand-built state, one action, and the EXACT resulting state (the
style of ``test_engine_rules.py``); where the kernel draws at random (which card of a
reshuffled pile, the colour the game names) the test runs several seeds, checks every
outcome is one of the allowed exact states and that each occurs.  The random agent's law
(uniform over DISTINCT actions, a wild counting once per colour) is checked on the kernel's
choice function directly.  Then whole rounds: invariants over 20,000 rounds, an independent
replay of traced games against RLCard's rules, and (when ``rlcard`` is installed) RLCard's
own environment beside ours.

The rules are read from the rlcard 1.2.0 package (``rlcard/games/uno/round.py`` and
friends); the mapping is documented in the kernel's "RLCard 1.2.0 rules" section.
"""

from __future__ import annotations

import math
import os

import numpy as np
import pytest
from statekit import KIND, Game

from unospin_sim.bots import parse_bots
from unospin_sim.engine import kernel as K
from unospin_sim.engine import layout as L
from unospin_sim.engine.encode import encode
from unospin_sim.errors import BotError, RuleError
from unospin_sim.rules import NOT_IMPLEMENTED, RuleSet, parse_rules
from unospin_sim.rules.cards import (
    FIRST_WILD,
    KIND_COLOUR,
    KIND_FACE,
    KIND_NAMES,
    N_KINDS,
    WILD,
    WILD_DRAW_FOUR,
)
from unospin_sim.run import Execution, simulate, trace

RED, YELLOW, GREEN, BLUE = range(4)
R2 = "classic(players=2,rlcard=true)"
R3 = "classic(players=3,rlcard=true)"
C2 = "classic(players=2)"
C3 = "classic(players=3)"


def played(g):
    return [KIND_NAMES[e[2]] for e in g.events() if e[0] == L.EV_PLAY]


def evs(g, code):
    return [e[1:] for e in g.events() if e[0] == code]


def pile(g):
    n = g.pile_size()
    return sorted(KIND_NAMES[k] for k in g.st.cards[L.PILE : L.PILE + n])


def state_of(g, seats):
    """Everything an exact test compares, as one hashable value."""
    return (
        tuple(tuple(g.hand(p)) for p in seats),
        g.top_name,
        g.colour,
        g.cur,
        g.s(L.S_DIR),
        g.s(L.S_WINNER),
        g.s(L.S_TOP_OUT),
        tuple(pile(g)),
        tuple(g.under_top()),
        tuple(g.drawn(p) for p in seats),
    )


def conserved(g, *names):
    """The kernel's own invariant check, with the cards placed in the test as the deck."""
    deck = np.array(sorted(KIND[n] for n in names), np.int64)
    r = g.r.copy()
    r[L.R_DECK_N] = deck.shape[0]
    before = g.s(L.S_VIOLATIONS)
    K.check_invariants(g.st, r, deck)
    return g.s(L.S_VIOLATIONS) == before


def choices(g, p, n):
    """n draws of the kernel's rlcard choice (kind name or 'draw', colour or -1) for seat p."""
    out = []
    for _ in range(n):
        k, c = K.choose_rl(g.st, g.pts, g.bots, p)
        out.append(("draw" if k < 0 else KIND_NAMES[k], int(c)))
    return out


def close(freq, p, n, z=5.0):
    return abs(freq - p) <= z * math.sqrt(p * (1 - p) / n)


# =========================================================================== the option
def test_canonical_string_round_trip():
    rs = parse_rules("classic(players=4,rlcard=true)")
    assert str(rs) == "classic(players=4,rlcard=true)"
    assert parse_rules(str(rs)) == rs
    assert rs == RuleSet.build("classic", players=4, rlcard=True)
    assert rs.option("rlcard") is True
    assert str(parse_rules("classic(players=4)")) == "classic(players=4)"
    assert parse_rules("classic(players=4,rlcard=false)") == parse_rules("classic(players=4)")
    rs2 = parse_rules(" classic( rlcard = 1 , turn_cap=50 , players=2 ) ")
    assert str(rs2) == "classic(players=2,turn_cap=50,rlcard=true)"
    assert parse_rules(str(rs2)) == rs2 and hash(parse_rules(str(rs2))) == hash(rs2)
    assert "rlcard" not in NOT_IMPLEMENTED


@pytest.mark.parametrize(
    "text, words",
    [
        ("spin2025(rlcard=true)", "not valid for spin2025"),
        ("spin2005(rlcard=true)", "not valid for spin2005"),
        ("spiderman(rlcard=true)", "not valid for spiderman"),
        ("classic(rlcard=maybe)", "true or false"),
        ("classic(rlcard=true,wild_matches_colour=true)", "cannot be combined"),
    ],
)
def test_bad_rlcard_rules(text, words):
    with pytest.raises(RuleError) as info:
        parse_rules(text)
    assert words in str(info.value) and "\n" not in str(info.value)


@pytest.mark.parametrize(
    "bots", ["heuristic(forget=0.1)", "random(bluff=0.5)", "heuristic(challenge=1)"]
)
def test_uno_call_and_challenge_knobs_are_rejected(bots, tmp_path):
    with pytest.raises(BotError, match="rlcard"):
        simulate(R2, bots, games=1, execution=Execution(out=tmp_path / "r"))
    assert not (tmp_path / "r").exists()  # rejected before anything is written
    # the knobs that never act under rlcard are fine
    simulate(R2, "heuristic(catch=1,reflex=0.5)", games=2)


def test_encode_sets_the_flag():
    for text, flag in [(R2, 1), (C2, 0)]:
        rs = parse_rules(text)
        ki = encode(rs, parse_bots("random", rs.players))
        assert ki.rules[L.R_RLCARD] == flag


# =========================================================================== (4) the random agent
def test_random_agent_wild_counts_once_per_colour():
    # envs/uno.py + round.py: actions r-5, and the Wild once per colour: 5 actions, uniform
    g = Game(R3).give(0, "wild", "red 5").top("red 2")
    n = 20000
    got = choices(g, 0, n)
    assert set(got) == {("red 5", -1)} | {("wild", c) for c in range(4)}
    for outcome in set(got):
        assert close(got.count(outcome) / n, 0.2, n), outcome
    # the default rules: uniform over the two card INSTANCES
    g = Game(C3).give(0, "wild", "red 5").top("red 2")
    ks = [K.choose_card(g.st, g.r, g.pts, g.cum, g.bots, 0, True) for _ in range(n)]
    assert close(ks.count(KIND["red 5"]) / n, 0.5, n)


def test_random_agent_wild_takes_the_colour_in_its_action():
    seen = set()
    for seed in range(60):
        g = Game(R3, seed=seed).give(0, "wild", "wild", "red 5", "blue 9").top("red 2")
        g.turn(0)
        if played(g) == ["wild"]:
            (col,) = [e[1] for e in evs(g, L.EV_COLOUR)]
            assert g.colour == col
            seen.add(col)
            assert g.hand(0) == ["blue 9", "red 5", "wild"] and g.cur == 1
        else:
            assert played(g) == ["red 5"] and g.hand(0) == ["blue 9", "wild", "wild"]
    assert seen == {RED, YELLOW, GREEN, BLUE}


def test_random_agent_duplicates_are_one_action():
    # two red 5 and a red 7: the actions r-5 and r-7, 1/2 each (instances: 2/3, 1/3)
    g = Game(R3).give(0, "red 5", "red 5", "red 7").top("red 2")
    n = 20000
    got = [k for k, _ in choices(g, 0, n)]
    assert set(got) == {"red 5", "red 7"}
    assert close(got.count("red 5") / n, 0.5, n)
    # two Wilds are still 4 actions; a blue 2 (face match) is one more: 1/5 each
    g = Game(R3).give(0, "wild", "wild", "blue 2", "green 9").top("red 2")
    got = choices(g, 0, n)
    assert set(got) == {("blue 2", -1)} | {("wild", c) for c in range(4)}
    assert close(got.count(("blue 2", -1)) / n, 0.2, n)


def test_random_agent_draws_only_when_nothing_is_playable():
    g = Game(R3).give(0, "red 5", "blue 9").top("red 2")
    assert {k for k, _ in choices(g, 0, 2000)} == {"red 5"}
    g = Game(R3).give(0, "blue 9", "green 7").top("red 2")
    assert set(choices(g, 0, 50)) == {("draw", -1)}
    g = Game(R3).give(0, "blue 9").top("wild", colour=GREEN)  # a wild on top: colour only
    assert set(choices(g, 0, 50)) == {("draw", -1)}


# =========================================================================== (3) Wild Draw Four
@pytest.mark.parametrize(
    "hand, actions",
    [
        (["wild draw four", "blue 2"], {("blue 2", -1)}),  # a number match only
        (["wild draw four", "red 5"], {("red 5", -1)}),  # the colour
        (["wild draw four", "wild"], {("wild", c) for c in range(4)}),  # another wild
        (["wild draw four", "green 9"], {("wild draw four", c) for c in range(4)}),  # nothing else
        (["wild draw four", "wild draw four"], {("wild draw four", c) for c in range(4)}),
    ],
)
def test_wd4_legal_only_when_nothing_else_is(hand, actions):
    g = Game(R3).give(0, *hand).top("red 2")
    assert set(choices(g, 0, 400)) == actions
    g = Game(R3, "heuristic").give(0, *hand).top("red 2")
    assert {k for k, _ in choices(g, 0, 5)} == {k for k, _ in actions}


def test_wd4_played_from_hand_draws_four_and_skips():
    g = Game(R3).give(0, "wild draw four", "green 9").give(1, "yellow 1").top("red 2")
    g.pile("red 1", "red 3", "yellow 4", "green 0")
    g.turn(0)
    assert g.hand(0) == ["green 9"] and g.top_name == "wild draw four"
    assert g.hand(1) == ["green 0", "red 1", "red 3", "yellow 1", "yellow 4"]
    assert g.cur == 2 and g.drawn(1) == 4 and g.pile_size() == 0
    assert evs(g, L.EV_SKIPPED) == [(1, 0, 0)]
    assert evs(g, L.EV_BLUFF) == [] and evs(g, L.EV_CHALLENGE) == []
    assert g.colour == evs(g, L.EV_COLOUR)[0][1]


# =========================================================================== (1), (2) the draw
def test_drawn_card_of_the_colour_is_played():
    g = Game(R3).give(0, "blue 9").top("red 2").pile("red 7")
    g.turn(0)
    assert state_of(g, range(3)) == (
        (("blue 9",), (), ()),
        "red 7",
        RED,
        1,
        1,
        -1,
        0,
        (),
        ("red 2",),
        (1, 0, 0),
    )
    assert played(g) == ["red 7"]
    assert conserved(g, "blue 9", "red 2", "red 7")


def test_drawn_card_matching_only_the_number_is_kept():
    g = Game(R3).give(0, "blue 9").top("red 2").pile("blue 2")
    g.turn(0)
    assert state_of(g, range(3)) == (
        (("blue 2", "blue 9"), (), ()),
        "red 2",
        RED,
        1,
        1,
        -1,
        0,
        (),
        (),
        (1, 0, 0),
    )
    assert played(g) == []
    # the default rules play it
    g = Game(C3).give(0, "blue 9").top("red 2").pile("blue 2")
    g.turn(0)
    assert played(g) == ["blue 2"]


def test_drawn_card_of_another_colour_is_kept():
    g = Game(R3).give(0, "blue 9").top("wild", colour=GREEN).pile("red 4")
    g.turn(0)
    assert state_of(g, range(3)) == (
        (("blue 9", "red 4"), (), ()),
        "wild",
        GREEN,
        1,
        1,
        -1,
        0,
        (),
        (),
        (1, 0, 0),
    )


def test_drawn_card_matching_a_named_colour_is_played():
    g = Game(R3).give(0, "blue 9").top("wild", colour=GREEN).pile("green 4")
    g.turn(0)
    assert state_of(g, range(3)) == (
        (("blue 9",), (), ()),
        "green 4",
        GREEN,
        1,
        1,
        -1,
        0,
        (),
        ("wild",),
        (1, 0, 0),
    )


def test_drawn_skip_of_the_colour_acts():
    g = Game(R3).give(0, "blue 9").give(1, "green 1").top("red 2").pile("red skip")
    g.turn(0)
    assert state_of(g, range(3)) == (
        (("blue 9",), ("green 1",), ()),
        "red skip",
        RED,
        2,
        1,
        -1,
        0,
        (),
        ("red 2",),
        (1, 0, 0),
    )
    assert evs(g, L.EV_SKIPPED) == [(1, 0, 0)]


def test_drawn_reverse_two_players_passes_the_turn():
    g = Game(R2).give(0, "blue 9").give(1, "green 1").top("red 2").pile("red reverse")
    g.turn(0)
    assert state_of(g, range(2)) == (
        (("blue 9",), ("green 1",)),
        "red reverse",
        RED,
        1,
        -1,
        -1,
        0,
        (),
        ("red 2",),
        (1, 0),
    )


def test_drawn_draw_two_acts_with_the_reshuffle():
    # pile [red draw two]: seat 0 draws and plays it; the pile is then empty (< 2), so the
    # played cards -- the discards, the old top and the Draw Two itself -- become the pile
    # and seat 1 draws 2 of those 4; seat 1 is skipped
    four = ["green 1", "yellow 3", "red 2", "red draw two"]
    seen = set()
    for seed in range(80):
        g = Game(R3, seed=seed).give(0, "blue 9").top("red 2").pile("red draw two")
        g.discards("green 1", "yellow 3")
        g.turn(0)
        got = g.hand(1)
        assert len(got) == 2 and sorted(got + pile(g)) == sorted(four)
        assert g.hand(0) == ["blue 9"] and g.top_name == "red draw two" and g.colour == RED
        assert g.s(L.S_TOP_OUT) == 1 and g.under_top() == [] and g.cur == 2
        assert g.drawn(0) == 1 and g.drawn(1) == 2
        assert evs(g, L.EV_RESHUFFLE) == [(4, 1, 0)] and evs(g, L.EV_SKIPPED) == [(1, 0, 0)]
        assert conserved(g, "blue 9", *four)
        seen.add(tuple(got))
    assert len(seen) == 6  # every pair of the four


@pytest.mark.parametrize("bots", ["random", "heuristic"])
def test_drawn_wild_is_played_with_a_random_colour(bots):
    seen = set()
    for seed in range(60):
        g = Game(R3, bots, seed=seed).give(0, "blue 9", "blue 3").top("red 2").pile("wild")
        g.turn(0)
        col = g.colour
        assert state_of(g, range(3)) == (
            (("blue 3", "blue 9"), (), ()),
            "wild",
            col,
            1,
            1,
            -1,
            0,
            (),
            ("red 2",),
            (1, 0, 0),
        )
        assert evs(g, L.EV_COLOUR) == [(0, col, 0)]
        seen.add(col)
    # the game names it (round.py), not the bot: the heuristic would always name blue
    assert seen == {RED, YELLOW, GREEN, BLUE}


def test_drawn_wd4_acts_as_a_plain_wild():
    seen = set()
    for seed in range(60):
        g = Game(R3, seed=seed).give(0, "blue 9").give(1, "green 1").top("red 2")
        g.pile("wild draw four", "yellow 5")
        g.turn(0)
        if g.drawn(0) == 1 and g.hand(0) == ["blue 9", "yellow 5"]:
            continue  # drew the yellow 5 (kept): not this test's case
        col = g.colour
        assert state_of(g, range(3)) == (
            (("blue 9",), ("green 1",), ()),
            "wild draw four",
            col,
            1,
            1,
            -1,
            0,
            ("yellow 5",),
            ("red 2",),
            (1, 0, 0),
        )
        assert evs(g, L.EV_SKIPPED) == []  # seat 1 neither draws nor is skipped
        seen.add(col)
    assert seen == {RED, YELLOW, GREEN, BLUE}


# =========================================================================== (6) Reverse
def test_reverse_two_players_passes_the_turn():
    g = Game(R2).give(0, "red reverse", "blue 9").give(1, "red 3").top("red 2")
    g.turn(0)
    assert state_of(g, range(2)) == (
        (("blue 9",), ("red 3",)),
        "red reverse",
        RED,
        1,
        -1,
        -1,
        0,
        (),
        ("red 2",),
        (0, 0),
    )
    assert evs(g, L.EV_SKIPPED) == [] and evs(g, L.EV_REVERSE) == [(-1, 0, 0)]
    # the default rules: it acts as a Skip
    g = Game(C2).give(0, "red reverse", "blue 9").give(1, "red 3").top("red 2")
    g.turn(0)
    assert g.cur == 0


def test_reverse_three_players_reverses():
    g = Game(R3).give(0, "red reverse", "blue 9").top("red 2")
    g.turn(0)
    assert g.cur == 2 and g.s(L.S_DIR) == -1


def test_skip_two_players_plays_again():
    g = Game(R2).give(1, "green skip", "blue 9").top("green 2")
    g.turn(1)
    assert g.cur == 1 and evs(g, L.EV_SKIPPED) == [(0, 0, 0)]


# =========================================================================== (7) reshuffles
def test_draw_reshuffle_includes_the_top_card():
    # empty pile: discards + top (red 2) become the pile; the drawn card is one of the three
    outcomes = {
        "green 1": (
            (("blue 9", "green 1"), (), ()),
            "red 2",
            RED,
            1,
            1,
            -1,
            1,
            ("red 2", "yellow 3"),
            (),
            (1, 0, 0),
        ),
        "yellow 3": (
            (("blue 9", "yellow 3"), (), ()),
            "red 2",
            RED,
            1,
            1,
            -1,
            1,
            ("green 1", "red 2"),
            (),
            (1, 0, 0),
        ),
        # the old top itself, drawn: of the colour in play, so played at once
        "red 2": (
            (("blue 9",), (), ()),
            "red 2",
            RED,
            1,
            1,
            -1,
            0,
            ("green 1", "yellow 3"),
            (),
            (1, 0, 0),
        ),
    }
    seen = set()
    for seed in range(60):
        g = Game(R3, seed=seed).give(0, "blue 9").top("red 2").discards("green 1", "yellow 3")
        g.turn(0)
        (drew,) = [KIND_NAMES[e[2]] for e in g.events() if e[0] == L.EV_DRAW]
        assert state_of(g, range(3)) == outcomes[drew]
        assert evs(g, L.EV_RESHUFFLE) == [(3, 1, 0)]
        assert conserved(g, "blue 9", "red 2", "green 1", "yellow 3")
        seen.add(drew)
        # the next play does not put the top card under a second time
        g.give(1, "red 5")
        g.turn(1)
        assert g.top_name == "red 5" and g.s(L.S_TOP_OUT) == 0
        assert g.under_top() == ([] if drew != "red 2" else ["red 2"])
        assert conserved(g, "blue 9", "red 2", "green 1", "yellow 3", "red 5")
    assert seen == set(outcomes)
    # the default rules leave the top card on the table
    g = Game(C3).give(0, "blue 9").top("red 2").discards("green 1", "yellow 3")
    g.turn(0)
    assert g.top_name == "red 2" and g.pile_size() == 1 and evs(g, L.EV_RESHUFFLE) == [(2, 0, 0)]


def test_draw_two_reshuffles_when_the_pile_holds_fewer_than_two():
    four = ["green 1", "yellow 3", "red 2", "red draw two"]
    seen = set()
    for seed in range(80):
        g = Game(R3, seed=seed).give(0, "red draw two", "blue 9").top("red 2")
        g.pile("green 1").discards("yellow 3")
        g.turn(0)
        got = g.hand(1)
        assert len(got) == 2 and sorted(got + pile(g)) == sorted(four)
        assert g.s(L.S_TOP_OUT) == 1 and g.under_top() == [] and g.cur == 2
        assert evs(g, L.EV_RESHUFFLE) == [(3, 1, 0)]  # the 1 card left stays in the pile
        assert conserved(g, "blue 9", *four)
        seen.add(tuple(got))
    assert len(seen) == 6
    # the default rules: the last card first, then a reshuffle of the discards only
    for seed in range(20):
        g = Game(C3, seed=seed).give(0, "red draw two", "blue 9").top("red 2")
        g.pile("green 1").discards("yellow 3")
        g.turn(0)
        assert "green 1" in g.hand(1) and "red draw two" not in g.hand(1)


def test_draw_two_with_two_left_does_not_reshuffle():
    g = Game(R3).give(0, "red draw two", "blue 9").top("red 2").pile("green 1", "green 2")
    g.discards("yellow 3")
    g.turn(0)
    assert state_of(g, range(3)) == (
        (("blue 9",), ("green 1", "green 2"), ()),
        "red draw two",
        RED,
        2,
        1,
        -1,
        0,
        (),
        ("red 2", "yellow 3"),
        (0, 2, 0),
    )
    assert evs(g, L.EV_RESHUFFLE) == []


def test_wd4_reshuffles_when_the_pile_holds_fewer_than_four():
    g = Game(R3).give(0, "wild draw four", "blue 9").top("red 2")
    g.pile("green 1", "green 2", "green 3").discards("yellow 3")
    g.turn(0)
    assert sorted(g.hand(1) + pile(g)) == sorted(
        ["green 1", "green 2", "green 3", "yellow 3", "red 2", "wild draw four"]
    )
    assert len(g.hand(1)) == 4 and g.s(L.S_TOP_OUT) == 1 and g.cur == 2
    assert evs(g, L.EV_RESHUFFLE) == [(3, 1, 0)]


# =========================================================================== (8) no UNO, no points
def test_no_uno_calls():
    g = Game(R3).give(0, "red 5", "blue 9").top("red 2")
    g.turn(0)
    assert g.hand(0) == ["blue 9"] and evs(g, L.EV_UNO) == []


def test_last_card_draw_two_still_makes_the_next_draw():
    g = Game(R3).give(0, "red draw two").top("red 2").pile("green 1", "green 2")
    g.turn(0)
    assert g.s(L.S_WINNER) == 0 and g.hand(1) == ["green 1", "green 2"]


# =========================================================================== (5) the first card
def setup_with(rules, names, bots="random", seed=1):
    """setup_round on a deck of exactly these cards (dealt and turned at random)."""
    g = Game(rules, bots)
    deck = np.array([KIND[n] for n in names], np.int64)
    g.r[L.R_DECK_N] = deck.shape[0]
    K.setup_round(g.st, g.r, deck, g.bots, np.uint64(seed))
    return g


@pytest.mark.parametrize(
    "rules, cur, drawn0, skipped",
    [
        (R2, 0, 2, []),  # RLCard: seat 0 draws 2 and plays first
        (C2, 1, 2, [(0, 0, 0)]),  # the default: seat 0 draws 2 and is skipped
    ],
)
def test_first_draw_two(rules, cur, drawn0, skipped):
    g = setup_with(rules, ["red draw two"] * 17)
    assert g.top_name == "red draw two" and g.cur == cur and g.s(L.S_FIRST) == cur
    assert g.size(0) == 7 + drawn0 and g.size(1) == 7 and g.pile_size() == 0
    assert evs(g, L.EV_SKIPPED) == skipped


@pytest.mark.parametrize("face, cur, direction", [("skip", 1, 1), ("reverse", 1, -1)])
def test_first_skip_and_reverse_two_players(face, cur, direction):
    g = setup_with(R2, [f"blue {face}"] * 15)
    assert g.cur == cur and g.s(L.S_DIR) == direction and g.size(0) == 7


def test_first_wild_colour_is_random_even_for_the_heuristic():
    seen = set()
    for seed in range(60):
        g = setup_with(R2, ["wild"] * 15, "heuristic", seed=seed + 1)
        assert g.cur == 0 and evs(g, L.EV_COLOUR) == [(0, g.colour, 0)]
        seen.add(g.colour)
    assert seen == {RED, YELLOW, GREEN, BLUE}
    # the default: the heuristic seat 0 names its most common colour (all wilds: red)
    assert {setup_with(C2, ["wild"] * 15, "heuristic", seed=s).colour for s in range(1, 30)} == {
        RED
    }


def test_first_card_distribution():
    for seed in range(300):
        log, st, _, _ = trace(R2, "random", seed=seed, game=0, log_rows=400)
        rows = [tuple(int(x) for x in r) for r in log]
        i = next(j for j, r in enumerate(rows) if r[0] == L.EV_TURN)
        pre = rows[:i]
        (first,) = [r[1] for r in pre if r[0] == L.EV_FIRST]
        assert first != WILD_DRAW_FOUR
        f = int(KIND_FACE[first])
        expect = {10: 1, 11: 1}.get(f, 0) if first < FIRST_WILD else 0
        assert rows[i][1] == expect == int(st.s[L.S_FIRST])
        assert not any(r[0] == L.EV_SKIPPED for r in pre) or f == 10
        if first < FIRST_WILD and f == 12:
            assert [r[1] for r in pre if r[0] == L.EV_DRAW] == [0, 0]


# =========================================================================== whole rounds
@pytest.mark.parametrize("players, bots", [(2, "random"), (4, "random"), (3, "heuristic")])
def test_invariants_over_20000_rounds(players, bots):
    rules = f"classic(players={players},rlcard=true)"
    res = simulate(rules, bots, games=20000, seed=3, check=True, execution=Execution(threads=2))
    df = res.rounds
    assert (df.invariant_failures == 0).all()
    assert (df.winner >= 0).all() and (df.failed_draws == 0).all()
    left = df[[f"cards_left_{i}" for i in range(players)]].to_numpy()
    assert (left[np.arange(len(df)), df.winner.to_numpy()] == 0).all()
    assert (left.sum(axis=1) > 0).all()
    drawn = df[[f"cards_drawn_{i}" for i in range(players)]].to_numpy()
    assert (drawn.sum(axis=1) == df.cards_drawn.to_numpy()).all()
    allowed = {0, 1} if players == 2 else {0, 1, players - 1}
    assert set(df.first_player.unique()) <= allowed
    pts = df[[f"points_left_{i}" for i in range(players)]].to_numpy().sum(axis=1)
    assert (pts == df.winner_points.to_numpy()).all()  # points kept as a statistic


def test_results_do_not_depend_on_threads():
    a = simulate(R2, "random", games=3000, seed=9, execution=Execution(threads=1)).rounds
    b = simulate(
        R2, "random", games=3000, seed=9, execution=Execution(threads=2, chunk_size=500)
    ).rounds
    assert a.equals(b)


def rlcard_legal(hand, top, colour):
    """RLCard's distinct legal actions (round.py get_legal_actions) from our kinds:
    a set of (kind, colour-or--1), or {'draw'}."""
    f = KIND_FACE[top]
    acts = set()
    for k, n in enumerate(hand):
        if n == 0 or k >= FIRST_WILD:
            continue
        if KIND_COLOUR[k] == colour or (top < FIRST_WILD and KIND_FACE[k] == f):
            acts.add((k, -1))
    if hand[WILD]:
        acts |= {(WILD, c) for c in range(4)}
    if not acts and hand[WILD_DRAW_FOUR]:
        acts = {(WILD_DRAW_FOUR, c) for c in range(4)}
    return acts or {"draw"}


@pytest.mark.parametrize("players", [2, 4])
def test_replay_against_rlcard_rules(players):
    """Replay traced rounds with an independent reading of RLCard's rules: every action is
    legal, a draw happens only with nothing to play, a drawn card is played exactly when it
    is a wild or of the colour in play, and every turn goes to the seat RLCard names."""
    rules = f"classic(players={players},rlcard=true)"
    for seed in range(150):
        log, st, _, _ = trace(rules, "random", seed=seed, game=0)
        rows = [tuple(int(x) for x in r) for r in log]
        hands = np.zeros((players, N_KINDS), np.int64)
        top = colour = None
        direction, cur, turns = 1, None, 0
        i = 0
        while i < len(rows):
            code, a, b, c = rows[i]
            if code == L.EV_DEAL:
                hands[a, b] += 1
            elif code == L.EV_FIRST:
                top, colour = a, int(KIND_COLOUR[a])
                if a < FIRST_WILD and KIND_FACE[a] == 12:
                    # first Draw Two: seat 0 draws 2 and still starts
                    assert [r[:2] for r in rows[i + 1 : i + 3]] == [(L.EV_DRAW, 0)] * 2
                if a < FIRST_WILD:
                    cur = {10: 1, 11: players - 1}.get(int(KIND_FACE[a]), 0)
                    direction = -1 if KIND_FACE[a] == 11 else 1
                else:
                    cur = 0
            elif code == L.EV_COLOUR and turns == 0:
                colour = b
            elif code == L.EV_DRAW and turns == 0:
                hands[a, b] += 1
            elif code == L.EV_TURN:
                turns += 1
                assert a == cur, f"seed {seed} turn {b}: seat {a}, RLCard says {cur}"
                p = a
                legal = rlcard_legal(hands[p], top, colour)
                j = i + 1
                while rows[j][0] == L.EV_RESHUFFLE:  # an empty pile refilled for the draw
                    j += 1
                nxt = rows[j]
                drew = None
                if nxt[0] == L.EV_DRAW:
                    assert legal == {"draw"}
                    drew = nxt[2]
                    hands[p, drew] += 1
                    j += 1
                    nxt = rows[j] if j < len(rows) else (0, 0, 0, 0)
                    auto = drew >= FIRST_WILD or KIND_COLOUR[drew] == colour
                    assert (nxt[0] == L.EV_PLAY) == auto
                    if not auto:
                        cur = (p + direction) % players
                        i = j
                        continue
                assert nxt[0] == L.EV_PLAY and nxt[1] == p
                k = nxt[2]
                assert drew is None or k == drew
                hands[p, k] -= 1
                j += 1
                if k >= FIRST_WILD:
                    assert rows[j][0] == L.EV_COLOUR
                    col = rows[j][2]
                    if drew is None:
                        assert (k, col) in legal
                    colour = col
                    j += 1
                else:
                    assert drew is not None or (k, -1) in legal
                    colour = int(KIND_COLOUR[k])
                top = k
                # effects: a drawn wild (WD4 too) has none
                step = 1
                victim = (p + direction) % players
                if k == WILD_DRAW_FOUR and drew is None:
                    step = 2
                elif k < FIRST_WILD and KIND_FACE[k] in (10, 12):
                    step = 2
                elif k < FIRST_WILD and KIND_FACE[k] == 11:
                    direction = -direction
                cur = (p + step * direction) % players
                # the victim's draws (and reshuffles) follow
                while j < len(rows) and rows[j][0] in (
                    L.EV_DRAW,
                    L.EV_RESHUFFLE,
                    L.EV_REVERSE,
                    L.EV_SKIPPED,
                ):
                    if rows[j][0] == L.EV_DRAW:
                        assert rows[j][1] == victim
                        hands[victim, rows[j][2]] += 1
                    j += 1
                i = j
                continue
            else:
                assert code not in (
                    L.EV_UNO,
                    L.EV_FORGET,
                    L.EV_CAUGHT,
                    L.EV_PENALTY,
                    L.EV_CHALLENGE,
                    L.EV_BLUFF,
                )
            i += 1
        assert np.array_equal(hands, st.hand[:players, :N_KINDS])
        assert turns == int(st.s[L.S_TURNS]) and int(st.s[L.S_WINNER]) >= 0


def test_playthrough_renders():
    from unospin_sim.run.playthrough import play_text

    text = play_text("classic(players=2,rlcard=true)", "random", seed=4, game=0)
    assert text.startswith("rules: classic(players=2,rlcard=true)")
    assert "calls UNO" not in text


# =========================================================================== RLCard itself
def _rlcard():
    """The rlcard package; without it the comparison skips, except under CI (``CI`` set, as
    ``.ci/run`` sets it after installing rlcard==1.2.0), where it must run: fail."""
    try:
        import rlcard
    except ImportError as e:
        if os.environ.get("CI"):
            pytest.fail(
                f"CI is set but rlcard cannot be imported ({e}): the comparison with "
                f"RLCard must run in CI (pip install -e '.[rlcard]')",
                pytrace=False,
            )
        pytest.skip("rlcard is not installed (pip install -e '.[rlcard]')")
    return rlcard


#: the powered comparison (issue 29): level of each test, power, and the shifts it must see
RL_ALPHA, RL_POWER = 1e-4, 0.8
RL_TURN_SHIFT = 0.02  # relative shift in mean turns (game length)
RL_WIN_SHIFT = 0.01  # absolute shift in seat 0's win rate
RL_GAMES = 64_000  # RLCard games: sized from its game length's s.d. (~0.72 x mean)
OUR_GAMES = 2_000_000  # rounds of ours (cheap): they add ~3% to the variance of a z


@pytest.mark.slow
def test_matches_rlcard_statistically():
    """RLCard's own environment (when installed) beside ours, POWERED: 64,000 RLCard games
    (in one process per core) and 2,000,000 of our rounds, two-sided z-tests at level 1e-4 on
    the mean game length (turns = actions, plays and draws, on both sides), seat 0's win rate
    and the cards left in both hands; the test also asserts that each z-test had at least 80%
    power against a 2% relative shift in mean turns and a 1-point shift in seat 0's win rate,
    computed from the two samples' own variances (so a smaller sample cannot pass silently).
    (The cards left tell the rule sets apart: ~4.42 here, ~4.81 under the default classic
    rules.)"""
    rlcard = _rlcard()
    import concurrent.futures as cf
    import multiprocessing

    import rlcard_sample
    from scipy import stats

    assert rlcard.__version__ == "1.2.0"
    workers = max(1, min(4, os.cpu_count() or 1))
    jobs = [(7 + k, RL_GAMES // workers) for k in range(workers)]
    with cf.ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn")) as ex:
        parts = list(ex.map(rlcard_sample.play, jobs))
    lengths, wins, left = (
        np.concatenate([np.asarray(p[i], float) for p in parts]) for i in range(3)
    )
    assert len(lengths) == RL_GAMES
    ours = simulate(R2, "random", games=OUR_GAMES, seed=7).rounds
    mine = {
        "turns": ours.turns.to_numpy(float),
        "win0": (ours.winner == 0).to_numpy(float),
        "left": (ours.cards_left_0 + ours.cards_left_1).to_numpy(float),
    }
    theirs = {"turns": lengths, "win0": wins, "left": left}
    zc = stats.norm.ppf(1 - RL_ALPHA / 2)
    report = {}
    for k in mine:
        a, b = theirs[k], mine[k]
        se = math.sqrt(a.var(ddof=1) / len(a) + b.var(ddof=1) / len(b))
        report[k] = (a.mean(), b.mean(), (a.mean() - b.mean()) / se, se)
    for k, (ra, rb, z, se) in report.items():  # shown by pytest -s
        print(
            f"{k}: RLCard {ra:.4f} ({len(theirs[k]):,} games), ours {rb:.4f} "
            f"({len(mine[k]):,} rounds), z = {z:+.2f}, se {se:.5f}"
        )
    for k, (ra, rb, z, _) in report.items():
        assert abs(z) < zc, f"{k}: RLCard {ra:.4f}, ours {rb:.4f}, z = {z:+.2f}: {report}"

    def power(se, delta):
        return stats.norm.cdf(delta / se - zc) + stats.norm.cdf(-delta / se - zc)

    p_turns = power(report["turns"][3], RL_TURN_SHIFT * report["turns"][1])
    p_win = power(report["win0"][3], RL_WIN_SHIFT)
    print(
        f"power against a {RL_TURN_SHIFT:.0%} shift in mean turns {p_turns:.3f}, against "
        f"{RL_WIN_SHIFT * 100:g} point in seat 0's win rate {p_win:.3f}"
    )
    assert p_turns >= RL_POWER and p_win >= RL_POWER, (p_turns, p_win, report)
