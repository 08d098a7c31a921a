"""Rule-by-rule tests of the numba kernel: a hand-built state, one action, the EXACT result.

Every position is arranged so the bot's choice is forced (a single legal card, a draw pile of
exactly one card, a hand holding a single colour or number, ...).  Where the kernel makes a
choice the rules leave to chance and that cannot be forced (the order of wheel discards,
which of two seats a random bot picks), the test runs several seeds and checks that every
outcome is one of the exact allowed states and that each allowed state occurs.

The rule text tested is ``docs/RULINGS.md``; ``tests/statekit.py`` builds the states.
"""

from __future__ import annotations

import numpy as np
import pytest
from statekit import KIND, Game, with_wheel

from unospin_sim.engine import kernel as K
from unospin_sim.engine import layout as L
from unospin_sim.rules import parse_rules
from unospin_sim.rules.cards import (
    FIRST_WILD,
    KIND_COLOUR,
    KIND_FACE,
    KIND_NAMES,
    KIND_SPINS,
    WILD_DRAW_FOUR,
)
from unospin_sim.rules.spaces import SPACE_ID
from unospin_sim.run import trace

RED, YELLOW, GREEN, BLUE = range(4)
C3 = "classic(players=3)"
S05 = "spin2005(players=3)"
S25 = "spin2025(players=3)"
SP4 = "spiderman(players=4)"


def played(g, p=None):
    """Names of the cards played (EV_PLAY), optionally by seat p only."""
    return [KIND_NAMES[e[2]] for e in g.events() if e[0] == L.EV_PLAY and (p is None or e[1] == p)]


def evs(g, code):
    """(a, b, c) of every event with this code."""
    return [e[1:] for e in g.events() if e[0] == code]


def assert_state(
    g,
    *,
    hands=None,
    top=None,
    colour=None,
    cur=None,
    direction=1,
    winner=-1,
    drawn=None,
    pile=None,
    disc=None,
):
    """Compare the parts of the state given (hands / drawn: dicts by seat).

    The direction and the winner are always compared (defaults: clockwise, nobody)."""
    if hands is not None:
        for p, h in hands.items():
            assert g.hand(p) == sorted(h), f"hand of seat {p}"
            assert g.size(p) == len(h), f"size of seat {p}"
    if top is not None:
        assert g.top_name == top
    if colour is not None:
        assert g.colour == colour
    if cur is not None:
        assert g.cur == cur
    assert g.s(L.S_DIR) == direction
    assert g.s(L.S_WINNER) == winner
    if drawn is not None:
        for p, n in drawn.items():
            assert g.drawn(p) == n, f"cards drawn by seat {p}"
    if pile is not None:
        assert g.pile_size() == pile
    if disc is not None:
        assert g.under_top() == sorted(disc)


def check_counts(g):
    """Each seat's colour counts and size agree with its cards."""
    for p in range(g.s(L.S_NP)):
        for c in range(5):
            n = sum(int(g.st.hand[p, k]) for k in range(len(KIND_NAMES)) if KIND_COLOUR[k] == c)
            assert g.st.hand[p, L.CC + c] == n
        assert g.st.hand[p, L.HSIZE] == len(g.hand(p))


def spin05(space, rules=S05, bots="random", seed=1):
    """A 2005 game where seat 1 spins at its next turn (seat 0 played a Spin card)."""
    g = Game(rules, bots, seed=seed, wheel_space=space)
    g.set(L.S_SPIN_NEXT, 1)
    return g


def spin25(space, rules=S25, bots="random", seed=1):
    """A 2025 game whose wheel always lands on ``space``."""
    return Game(rules, bots, seed=seed, wheel_space=space)


# =========================================================================== plain plays
def test_number_play_by_colour():
    g = Game(C3).give(0, "red 7", "blue 9").top("red 2").pile("green 1")
    g.turn(0)
    assert_state(
        g,
        hands={0: ["blue 9"], 1: [], 2: []},
        top="red 7",
        colour=RED,
        cur=1,
        drawn={0: 0, 1: 0, 2: 0},
        pile=1,
        disc=["red 2"],
    )
    assert played(g) == ["red 7"]
    assert evs(g, L.EV_UNO) == [(0, 0, 0)]
    check_counts(g)


def test_number_play_by_number():
    g = Game(C3).give(0, "green 2", "blue 9").top("red 2")
    g.turn(0)
    assert_state(g, hands={0: ["blue 9"]}, top="green 2", colour=GREEN, cur=1, disc=["red 2"])


def test_play_on_a_wild_matches_the_named_colour_only():
    g = Game(C3).give(0, "red 1", "blue 4", "green 7").top("wild", colour=BLUE)
    g.turn(0)
    assert_state(g, hands={0: ["green 7", "red 1"]}, top="blue 4", colour=BLUE, cur=1)


def test_action_matches_by_symbol():
    g = Game(C3).give(0, "red skip", "green 9").top("blue skip")
    g.turn(0)
    assert_state(g, hands={0: ["green 9"]}, top="red skip", colour=RED, cur=2)


@pytest.mark.parametrize(
    "hand, expect",
    [
        (["blue spin 4", "blue 3", "green 8"], "blue 3"),  # by number
        (["blue spin 4", "red 9", "green 8"], "red 9"),  # by colour
        (["blue spin 4", "green spin 3", "green 8"], "green spin 3"),  # a Spin card by number
    ],
)
def test_spin_card_matches_by_colour_or_number_only(hand, expect):
    g = Game(S05).give(0, *hand).top("red spin 3")
    g.turn(0)
    rest = list(hand)
    rest.remove(expect)
    assert_state(
        g, hands={0: rest}, top=expect, colour=KIND_COLOUR[KIND[expect]], cur=1, drawn={0: 0}
    )
    assert g.s(L.S_SPIN_NEXT) == int(KIND_SPINS[KIND[expect]])


S05_9 = "spin2005(players=3,spin_cards=9)"  # Spin 1-9: one copy of each number 1-9


@pytest.mark.parametrize(
    "hand, expect",
    [
        (["blue spin 7", "blue 3", "green 8"], "blue spin 7"),  # a Spin 7 by number
        (["yellow spin 9", "red 9", "green 8"], "red 9"),  # red 9 by colour first
        (["yellow spin 9", "green 8"], None),  # nothing: draws
    ],
)
def test_spin_cards_6_to_9_match_by_number_and_spin(hand, expect):
    """spin_cards=9: a Spin 7 matches a red 7 by number and, played, makes the next seat
    spin (2005); a Spin 9 does not match a red 7."""
    g = Game(S05_9).give(0, *hand).top("red 7").pile("green 6")
    g.turn(0)
    if expect is None:
        assert_state(
            g, hands={0: hand + ["green 6"]}, top="red 7", colour=RED, cur=1, drawn={0: 1}, pile=0
        )
        return
    rest = list(hand)
    rest.remove(expect)
    assert_state(
        g, hands={0: rest}, top=expect, colour=KIND_COLOUR[KIND[expect]], cur=1, drawn={0: 0}
    )
    assert g.s(L.S_SPIN_NEXT) == int(KIND_SPINS[KIND[expect]])
    assert KIND_SPINS[KIND["blue spin 7"]] == 1 and KIND_SPINS[KIND["red 9"]] == 0


def test_spin_swirl_is_not_a_symbol():
    # a blue Spin 4 on a red Spin 3: no colour, no number in common -> not playable: draw
    g = Game(S05).give(0, "blue spin 4").top("red spin 3").pile("green 6")
    g.turn(0)
    assert_state(
        g,
        hands={0: ["blue spin 4", "green 6"]},
        top="red spin 3",
        colour=RED,
        cur=1,
        drawn={0: 1},
        pile=0,
    )
    assert played(g) == [] and g.s(L.S_SPIN_NEXT) == 0


# =========================================================================== actions
def test_skip_three_players():
    g = Game(C3).give(0, "red skip", "blue 9").give(1, "red 3").top("red 2")
    g.turn(0)
    assert_state(g, hands={0: ["blue 9"], 1: ["red 3"]}, top="red skip", colour=RED, cur=2)
    assert evs(g, L.EV_SKIPPED) == [(1, 0, 0)]


def test_reverse_three_players_flips_direction():
    g = Game(C3).give(1, "red reverse", "blue 9").give(0, "blue 1", "blue 2").top("red 2")
    g.turn(1)
    assert_state(g, hands={1: ["blue 9"]}, top="red reverse", colour=RED, cur=0, direction=-1)
    assert evs(g, L.EV_REVERSE) == [(-1, 0, 0)]
    assert evs(g, L.EV_SKIPPED) == []
    # the direction persists: seat 0 plays a number, seat 2 (counter-clockwise) is next
    g.top("blue 5")
    g.turn(0)
    assert_state(g, hands={0: ["blue 1"]}, cur=2, direction=-1)


def test_reverse_counter_clockwise_flips_back():
    g = Game(C3).set(L.S_DIR, -1).give(2, "red reverse", "blue 9").top("red 2")
    g.turn(2)
    assert_state(g, hands={2: ["blue 9"]}, cur=0, direction=1)


def test_reverse_two_players_acts_as_skip():
    g = Game("classic(players=2)").give(0, "red reverse", "blue 9").give(1, "red 3")
    g.top("red 2")
    g.turn(0)
    assert_state(
        g, hands={0: ["blue 9"], 1: ["red 3"]}, top="red reverse", colour=RED, cur=0, direction=1
    )
    assert evs(g, L.EV_SKIPPED) == [(1, 0, 0)]


def test_skip_two_players_same_seat_again():
    g = Game("classic(players=2)").give(1, "green skip", "blue 9").top("green 2")
    g.turn(1)
    assert_state(g, hands={1: ["blue 9"]}, cur=1)


def test_draw_two_victim_draws_two_and_is_passed():
    g = Game(C3).give(0, "red draw two", "blue 9").give(1, "yellow 4").top("red 2")
    g.pile("green 1", "yellow 8")
    g.turn(0)
    assert_state(
        g,
        hands={0: ["blue 9"], 1: ["green 1", "yellow 4", "yellow 8"], 2: []},
        top="red draw two",
        colour=RED,
        cur=2,
        drawn={0: 0, 1: 2, 2: 0},
        pile=0,
    )
    assert evs(g, L.EV_SKIPPED) == [(1, 0, 0)]


def test_draw_two_counter_clockwise_hits_the_previous_seat():
    g = Game(C3).set(L.S_DIR, -1).give(0, "red draw two", "blue 9").top("red 2")
    g.pile("green 1", "yellow 8")
    g.turn(0)
    assert_state(
        g, hands={2: ["green 1", "yellow 8"]}, cur=1, direction=-1, drawn={0: 0, 1: 0, 2: 2}
    )


def test_wild_names_a_colour():
    # heuristic names its most common colour: green
    g = Game(C3, "heuristic").give(0, "wild", "green 3", "green 4", "blue 1").top("red 2")
    g.turn(0)
    assert_state(g, hands={0: ["blue 1", "green 3", "green 4"]}, top="wild", colour=GREEN, cur=1)
    assert evs(g, L.EV_COLOUR) == [(0, GREEN, 0)]


def test_wild_random_bot_names_any_colour():
    seen = set()
    for seed in range(40):
        g = Game(C3, seed=seed).give(0, "wild", "blue 1").top("red 2")
        g.turn(0)
        (col,) = [e[1] for e in evs(g, L.EV_COLOUR)]
        assert g.colour == col and g.top_name == "wild" and g.cur == 1
        seen.add(col)
    assert seen == {RED, YELLOW, GREEN, BLUE}


# =========================================================================== Wild Draw Four
@pytest.mark.parametrize(
    "rules, hand, legal",
    [
        ("classic(players=3)", ["wild draw four", "blue 5"], True),
        ("classic(players=3)", ["wild draw four", "red 5"], False),  # holds the colour
        ("classic(players=3)", ["wild draw four", "blue 2"], True),  # a number match only
        ("classic(players=3)", ["wild draw four", "wild"], True),  # option false
        ("classic(players=3,wild_matches_colour=true)", ["wild draw four", "wild"], False),
        ("spin2005(players=3)", ["wild draw four", "wild"], False),  # default true
        ("spin2005(players=3,wild_matches_colour=false)", ["wild draw four", "wild"], True),
        ("spin2025(players=3)", ["wild draw four", "wild spin"], False),
        ("spiderman(players=3)", ["wild draw four", "wild web swing"], False),
        (
            "spin2005(players=3)",
            ["wild draw four", "wild draw four"],
            True,
        ),  # 2nd WD4 never forbids
        ("classic(players=3,wild_matches_colour=true)", ["wild draw four", "wild draw four"], True),
    ],
)
def test_wd4_legality(rules, hand, legal):
    g = Game(rules).give(0, *hand).top("red 2")
    assert bool(K.wd4_legal(g.st, g.r, 0)) == legal


def test_wd4_legal_victim_draws_four_and_is_passed():
    g = Game(C3, "heuristic").give(0, "wild draw four", "blue 5").give(1, "green 0")
    g.top("red 2").pile("red 1", "red 3", "yellow 4", "green 9")
    g.turn(0)
    assert_state(
        g,
        hands={0: ["blue 5"], 1: ["green 0", "green 9", "red 1", "red 3", "yellow 4"], 2: []},
        top="wild draw four",
        colour=BLUE,
        cur=2,
        drawn={0: 0, 1: 4, 2: 0},
        pile=0,
    )
    assert evs(g, L.EV_BLUFF) == [] and evs(g, L.EV_CHALLENGE) == []
    assert evs(g, L.EV_SKIPPED) == [(1, 0, 0)]


def test_wd4_illegal_is_not_played_by_a_non_bluffer():
    g = Game(C3).give(0, "wild draw four", "red 5").top("red 2").pile("green 1")
    g.turn(0)
    assert_state(g, hands={0: ["wild draw four"]}, top="red 5", colour=RED, cur=1, pile=1)


@pytest.mark.parametrize(
    "rules, played_card, drawn1, cur",
    [
        ("classic(players=3)", "wild draw four", 4, 2),  # legal: it is played
        ("classic(players=3,wild_matches_colour=true)", "wild", 0, 1),  # illegal: the Wild is
    ],
)
def test_wd4_with_another_wild_in_hand(rules, played_card, drawn1, cur):
    # the heuristic bot prefers a WD4 (300) to a Wild (250) when the next hand is small
    g = Game(rules, "heuristic").give(0, "wild draw four", "wild", "blue 5")
    g.give(1, "green 0", "green 1").top("red 2").pile("red 1", "red 3", "yellow 4", "green 9")
    g.turn(0)
    rest = ["wild draw four", "wild", "blue 5"]
    rest.remove(played_card)
    assert_state(
        g,
        hands={0: rest},
        top=played_card,
        colour=BLUE,
        cur=cur,
        drawn={1: drawn1},
        pile=4 - drawn1,
    )
    assert evs(g, L.EV_BLUFF) == []


def test_second_wd4_never_forbids_the_first():
    g = Game(S05).give(0, "wild draw four", "wild draw four").top("red 2")
    g.pile("red 1", "red 3", "yellow 4", "green 9")
    g.turn(0)
    assert_state(
        g,
        hands={0: ["wild draw four"], 1: ["green 9", "red 1", "red 3", "yellow 4"]},
        top="wild draw four",
        cur=2,
        drawn={1: 4},
        pile=0,
    )
    assert g.colour == evs(g, L.EV_COLOUR)[0][1]
    assert evs(g, L.EV_BLUFF) == []


def test_wd4_forbidden_by_a_wild_under_wild_matches_colour():
    g = Game(S05).give(0, "wild draw four", "wild draw four", "wild").top("red 2")
    g.pile("red 1")
    g.turn(0)
    assert_state(g, hands={0: ["wild draw four", "wild draw four"]}, top="wild", cur=1, pile=1)


BLUFF_BOTS = "heuristic(bluff=1),heuristic(challenge=1),random"


def test_bluff_challenged_bluffer_draws_four_challenger_plays():
    g = Game(C3, BLUFF_BOTS).give(0, "red 5", "wild draw four").give(1, "green 0", "green 1")
    g.top("red 2").pile("blue 1", "blue 2", "yellow 3", "yellow 4")
    g.turn(0)
    assert_state(
        g,
        hands={
            0: ["blue 1", "blue 2", "red 5", "yellow 3", "yellow 4"],
            1: ["green 0", "green 1"],
            2: [],
        },
        top="wild draw four",
        colour=RED,
        cur=1,
        drawn={0: 4, 1: 0, 2: 0},
        pile=0,
    )
    assert evs(g, L.EV_BLUFF) == [(0, 0, 0)]
    assert evs(g, L.EV_CHALLENGE) == [(1, 0, 1)]
    assert evs(g, L.EV_SKIPPED) == []


def test_legal_wd4_challenged_challenger_draws_six_and_is_passed():
    g = Game(C3, BLUFF_BOTS).give(0, "blue 5", "wild draw four").give(1, "green 0", "green 1")
    g.top("red 2").pile("blue 1", "blue 2", "yellow 3", "yellow 4", "red 8", "red 9")
    g.turn(0)
    assert_state(
        g,
        hands={
            0: ["blue 5"],
            1: ["blue 1", "blue 2", "green 0", "green 1", "red 8", "red 9", "yellow 3", "yellow 4"],
        },
        top="wild draw four",
        colour=BLUE,
        cur=2,
        drawn={0: 0, 1: 6, 2: 0},
        pile=0,
    )
    assert evs(g, L.EV_BLUFF) == []
    assert evs(g, L.EV_CHALLENGE) == [(1, 0, 0)]
    assert evs(g, L.EV_SKIPPED) == [(1, 0, 0)]


def test_unchallenged_bluff_victim_draws_four():
    g = Game(C3, "heuristic(bluff=1),heuristic,random").give(0, "red 5", "wild draw four")
    g.give(1, "green 0", "green 1").top("red 2").pile("blue 1", "blue 2", "yellow 3", "yellow 4")
    g.turn(0)
    assert_state(
        g, hands={0: ["red 5"]}, top="wild draw four", colour=RED, cur=2, drawn={0: 0, 1: 4}, pile=0
    )
    assert evs(g, L.EV_BLUFF) == [(0, 0, 0)] and evs(g, L.EV_CHALLENGE) == []


def test_two_x_one_bluff_coin_per_turn():
    """INTERPRETATIONS "The bluff knob": the coin is tossed once per turn, at the first pick
    with an illegal WD4 in hand, and reused for the second pick under 2X. Seat 1 holds two
    cards, so heuristic plays a playable WD4 first (300)."""
    heads = dict(
        played=["wild draw four", "red 6"],
        bluffs=[(0, 0, 0)],
        hands={0: ["red 5"], 1: ["green 1", "green 2"] + ["yellow 3"] * 4},
        top="red 6",
        cur=2,
        drawn={0: 0, 1: 4},
        pile=0,
    )
    # tails: red 6, then red 5: the WD4, still illegal, is not bluffed (a second toss
    # could have bluffed it: red 6 then the WD4, a state not allowed here)
    tails = dict(
        played=["red 6", "red 5"],
        bluffs=[],
        hands={0: ["wild draw four"], 1: ["green 1", "green 2"]},
        top="red 5",
        cur=1,
        drawn={0: 0, 1: 0},
        pile=4,
    )
    seen = set()
    for seed in range(40):
        g = Game("spin2025(players=4)", "heuristic(bluff=0.5),random,random,random", seed=seed)
        g.set(L.S_TWO_X, 1).give(0, "wild draw four", "red 5", "red 6")
        g.give(1, "green 1", "green 2").top("red 0").pile(*["yellow 3"] * 4)
        g.turn(0)
        exp = heads if evs(g, L.EV_BLUFF) else tails
        assert played(g, 0) == exp["played"] and evs(g, L.EV_BLUFF) == exp["bluffs"]
        assert_state(
            g,
            hands=exp["hands"],
            top=exp["top"],
            colour=RED,
            cur=exp["cur"],
            drawn=exp["drawn"],
            pile=exp["pile"],
        )
        seen.add(exp["top"])
    assert seen == {"red 6", "red 5"}


def test_two_x_each_wd4_challenged_on_its_own():
    """INTERPRETATIONS "Challenges under 2X": one challenge decision per WD4 in the order
    played; a challenge hits that card. The first WD4 is legal (no red in hand), names
    green (heuristic: the colour it holds), so the second is a bluff."""
    fill = "yellow 3"
    # challenge flags (EV_CHALLENGE c: 1 = illegal) -> (seat 0 draws, seat 1 draws, next)
    outcomes = {
        (): (0, 8, 3),  # nobody challenged: 4 + 4, seats 1 and 2 passed
        (0,): (0, 10, 3),  # the legal one only: 6 + 4, two passes
        (1,): (4, 4, 2),  # the bluff only: its 4 go back to seat 0, one pass
        (0, 1): (4, 6, 2),
    }  # both, in the order played
    seen = set()
    for seed in range(60):
        bots = "heuristic(bluff=1),random(challenge=0.5),random,random"
        g = Game("spin2025(players=4)", bots, seed=seed).set(L.S_TWO_X, 1)
        g.give(0, "wild draw four", "wild draw four", "green 5").give(1, "blue 1", "blue 2")
        g.top("red 0").pile(*[fill] * 14)
        g.turn(0)
        assert played(g, 0) == ["wild draw four", "wild draw four"]
        assert evs(g, L.EV_BLUFF) == [(0, 0, 0)]
        flags = tuple(c for _, _, c in evs(g, L.EV_CHALLENGE))
        assert flags in outcomes, flags
        d0, d1, cur = outcomes[flags]
        assert_state(
            g,
            hands={0: ["green 5"] + [fill] * d0, 1: ["blue 1", "blue 2"] + [fill] * d1},
            top="wild draw four",
            colour=GREEN,
            cur=cur,
            drawn={0: d0, 1: d1, 2: 0},
            pile=14 - d0 - d1,
        )
        assert len(evs(g, L.EV_SKIPPED)) == cur - 1  # seats passed over
        seen.add(flags)
    assert seen == set(outcomes)


# =========================================================================== drawing
def test_draw_and_play_the_drawn_card():
    g = Game(C3).give(0, "blue 9", "green 4").top("red 2").pile("red 7")
    g.turn(0)
    assert_state(
        g,
        hands={0: ["blue 9", "green 4"]},
        top="red 7",
        colour=RED,
        cur=1,
        drawn={0: 1},
        pile=0,
        disc=["red 2"],
    )
    assert played(g) == ["red 7"]


def test_draw_and_keep_an_unplayable_card():
    g = Game(C3).give(0, "blue 9").top("red 2").pile("green 7")
    g.turn(0)
    assert_state(
        g,
        hands={0: ["blue 9", "green 7"]},
        top="red 2",
        colour=RED,
        cur=1,
        drawn={0: 1},
        pile=0,
        disc=[],
    )
    assert played(g) == []


def test_drawn_action_card_takes_effect():
    g = Game(C3).give(0, "blue 9").top("red 2").pile("red skip")
    g.turn(0)
    assert_state(g, hands={0: ["blue 9"]}, top="red skip", cur=2, drawn={0: 1})


def test_reshuffle_when_the_pile_is_empty_top_stays():
    g = Game(C3).give(0, "blue 9").top("red 2").discards("green 7", "green 7")
    g.turn(0)
    assert_state(
        g,
        hands={0: ["blue 9", "green 7"]},
        top="red 2",
        colour=RED,
        cur=1,
        drawn={0: 1},
        pile=1,
        disc=[],
    )
    assert evs(g, L.EV_RESHUFFLE) == [(2, 0, 0)]
    assert g.st.cards[L.PILE] == KIND["green 7"]


def test_reshuffled_card_is_played_if_playable():
    g = Game(C3).give(0, "blue 9").top("red 2").discards("red 6")
    g.turn(0)
    assert_state(
        g,
        hands={0: ["blue 9"]},
        top="red 6",
        colour=RED,
        cur=1,
        drawn={0: 1},
        pile=0,
        disc=["red 2"],
    )


def test_failed_draw_counts_and_ends_the_turn():
    g = Game(C3).give(0, "blue 9").top("red 2")
    g.turn(0)
    assert_state(
        g, hands={0: ["blue 9"]}, top="red 2", colour=RED, cur=1, drawn={0: 0}, pile=0, disc=[]
    )
    assert g.s(L.S_FAILED) == 1
    assert evs(g, L.EV_DRAW_FAIL) == [(0, 0, 0)]


def test_draw_two_victim_reshuffles_then_fails():
    g = Game(C3).give(0, "red draw two", "blue 9").top("red 2").pile("green 1")
    g.turn(0)
    # green 1 is drawn; then the discard pile (red 2, under the top) is reshuffled and drawn
    assert_state(
        g, hands={1: ["green 1", "red 2"]}, top="red draw two", cur=2, drawn={1: 2}, pile=0, disc=[]
    )
    assert g.s(L.S_FAILED) == 0
    g2 = Game(C3).give(0, "red draw two", "blue 9").top("red 2")
    g2.turn(0)
    # only red 2 (under the top) can be drawn: one card and one failed draw
    assert_state(g2, hands={1: ["red 2"]}, cur=2, drawn={1: 1}, pile=0, disc=[])
    assert g2.s(L.S_FAILED) == 1


# =========================================================================== UNO
def test_uno_forgotten_and_caught_draws_two():
    g = Game(C3, "heuristic(forget=1),random(catch=1),random(catch=1)")
    g.give(0, "red 5", "blue 9").top("red 2").pile("green 1", "green 2")
    g.turn(0)
    assert_state(
        g, hands={0: ["blue 9", "green 1", "green 2"]}, top="red 5", cur=1, drawn={0: 2}, pile=0
    )
    assert evs(g, L.EV_FORGET) == [(0, 0, 0)]
    assert evs(g, L.EV_CAUGHT) == [(0, 1, 0)]
    assert evs(g, L.EV_PENALTY) == [(0, 0, 0)]
    assert evs(g, L.EV_UNO) == []
    assert g.st.hand[0, L.PEND] == 0


def test_uno_caught_by_a_later_seat():
    g = Game(C3, "heuristic(forget=1),random(catch=0),heuristic(catch=1)")
    g.give(0, "red 5", "blue 9").top("red 2").pile("green 1", "green 2")
    g.turn(0)
    assert evs(g, L.EV_CAUGHT) == [(0, 2, 0)]
    assert g.size(0) == 3 and g.drawn(0) == 2


def test_uno_caught_twice_in_one_action_draws_two_twice():
    """INTERPRETATIONS "UNO": every caught forgetting costs 2. Seat 0 plays its Spin card
    down to one card (forgets, caught), the wheel's Swap Hands gives it seat 1's one card
    (forgets, caught again): it draws 4 at the end of the action."""
    g = spin25("swap_hands", rules="spin2025(players=2)", bots="random(forget=1),random(catch=1)")
    g.give(0, "red spin 2", "blue 4").give(1, "green 3").top("red 7").pile(*["yellow 5"] * 4)
    g.turn(0)
    assert_state(
        g,
        hands={0: ["green 3"] + ["yellow 5"] * 4, 1: ["blue 4"]},
        top="red spin 2",
        colour=RED,
        cur=1,
        drawn={0: 4, 1: 0},
        pile=0,
    )
    assert evs(g, L.EV_SWAP) == [(0, 1, 0)]
    assert evs(g, L.EV_FORGET) == [(0, 0, 0)] * 2
    assert evs(g, L.EV_CAUGHT) == [(0, 1, 0)] * 2
    assert evs(g, L.EV_PENALTY) == [(0, 0, 0)] * 2
    assert evs(g, L.EV_UNO) == [(1, 0, 0)]
    assert g.st.hand[0, L.PEND] == 0 and g.s(L.S_PENDING) == 0


def test_uno_forgotten_not_caught():
    g = Game(C3, "heuristic(forget=1),random(catch=0),random(catch=0)")
    g.give(0, "red 5", "blue 9").top("red 2").pile("green 1", "green 2")
    g.turn(0)
    assert_state(g, hands={0: ["blue 9"]}, top="red 5", cur=1, drawn={0: 0}, pile=2)
    assert evs(g, L.EV_FORGET) == [(0, 0, 0)]
    assert evs(g, L.EV_CAUGHT) == [] and evs(g, L.EV_PENALTY) == []


def test_uno_called():
    g = Game(C3, "random(catch=1)").give(0, "red 5", "blue 9").top("red 2").pile("green 1")
    g.turn(0)
    assert evs(g, L.EV_UNO) == [(0, 0, 0)] and g.size(0) == 1 and g.pile_size() == 1


def test_uno_after_drawing_and_playing_the_drawn_card():
    g = Game(C3).give(0, "blue 9").top("red 2").pile("red 7")
    g.turn(0)
    assert_state(g, hands={0: ["blue 9"]}, top="red 7", cur=1, drawn={0: 1})
    assert evs(g, L.EV_UNO) == [(0, 0, 0)]


def test_uno_forgotten_after_a_wheel_discard_is_caught():
    # "whenever a player's hand drops to one card, by any means"
    g = spin05("discard_color", bots="random(catch=0),heuristic(forget=1),random(catch=1)")
    g.give(1, "green 2", "green 2", "wild").top("yellow 0").pile("blue 1", "blue 2")
    g.turn(1)
    assert_state(
        g,
        hands={1: ["blue 1", "blue 2", "wild"]},
        top="green 2",
        colour=GREEN,
        cur=2,
        drawn={1: 2},
        pile=0,
    )
    assert evs(g, L.EV_CAUGHT) == [(1, 2, 0)] and evs(g, L.EV_PENALTY) == [(1, 0, 0)]


def test_uno_trade_hands_receiver_of_one_card_must_call():
    # seat 1 is passed seat 0's one-card hand and forgets: caught, it draws 2
    g = spin05("trade_hands", bots="random(catch=1),heuristic(forget=1),random(catch=1)")
    g.give(0, "red 1").give(1, "green 2", "green 3").give(2, "blue 4", "blue 5")
    g.top("yellow 0").pile("yellow 6", "yellow 7")
    g.turn(1)
    assert_state(
        g,
        hands={
            0: ["blue 4", "blue 5"],
            1: ["red 1", "yellow 6", "yellow 7"],
            2: ["green 2", "green 3"],
        },
        cur=2,
        drawn={1: 2},
        pile=0,
    )
    assert evs(g, L.EV_FORGET) == [(1, 0, 0)] and evs(g, L.EV_PENALTY) == [(1, 0, 0)]


# =========================================================================== going out
def test_last_card_number_wins():
    g = Game(C3).give(0, "red 5").give(1, "blue 1").top("red 2").pile("green 1")
    g.turn(0)
    assert_state(g, hands={0: [], 1: ["blue 1"]}, top="red 5", winner=0, pile=1)
    assert evs(g, L.EV_UNO) == []


def test_last_card_draw_two_victim_still_draws():
    g = Game(C3).give(0, "red draw two").give(1, "blue 1").top("red 2")
    g.pile("green 1", "green 2")
    g.turn(0)
    assert_state(
        g,
        hands={0: [], 1: ["blue 1", "green 1", "green 2"]},
        top="red draw two",
        winner=0,
        drawn={1: 2},
        pile=0,
    )


def test_last_card_wd4_victim_still_draws_no_challenge():
    g = Game(C3, "random,heuristic(challenge=1),random").give(0, "wild draw four")
    g.give(1, "blue 1").top("red 2").pile("green 1", "green 2", "green 3", "green 4")
    g.turn(0)
    assert_state(
        g,
        hands={0: [], 1: ["blue 1", "green 1", "green 2", "green 3", "green 4"]},
        top="wild draw four",
        winner=0,
        drawn={1: 4},
        pile=0,
    )
    assert evs(g, L.EV_CHALLENGE) == []


def test_last_card_spin_wins_before_the_spin():
    g = Game(S05).give(0, "red spin 2").top("red 7")
    g.turn(0)
    assert_state(g, hands={0: []}, top="red spin 2", winner=0)
    assert g.s(L.S_SPIN_NEXT) == 0
    g = Game(S25, wheel_space="color_draw_blue").give(0, "red spin 2").top("red 7")
    g.pile("green 1")
    g.turn(0)
    assert_state(g, hands={0: []}, winner=0, pile=1)
    assert evs(g, L.EV_SPIN) == []


# =========================================================================== 2005 wheel


def test_2005_spin_card_makes_the_next_seat_spin():
    g = Game(S05, wheel_space="show_hand").give(0, "red spin 4", "blue 9")
    g.give(1, "red 1", "yellow 7").top("red 2")
    g.turn(0)
    assert_state(g, hands={0: ["blue 9"]}, top="red spin 4", colour=RED, cur=1)
    assert g.s(L.S_SPIN_NEXT) == 1
    assert evs(g, L.EV_SPIN) == []
    g.turn(1)  # seat 1 spins instead of playing (it holds a playable red 1)
    assert_state(g, hands={0: ["blue 9"], 1: ["red 1", "yellow 7"]}, top="red spin 4", cur=2)
    assert g.s(L.S_SPIN_NEXT) == 0
    assert evs(g, L.EV_SPIN) == [(1, SPACE_ID["show_hand"], 0)]
    assert played(g, 1) == []
    assert g.spins("show_hand") == 1


def test_2005_spin_card_counter_clockwise():
    g = Game(S05, wheel_space="show_hand").set(L.S_DIR, -1).give(0, "red spin 4", "blue 9")
    g.top("red 2")
    g.turn(0)
    assert g.cur == 2 and g.s(L.S_SPIN_NEXT) == 1
    g.turn(2)
    assert g.cur == 1 and evs(g, L.EV_SPIN) == [(2, SPACE_ID["show_hand"], 0)]


def test_2005_almost_uno_random_keeps_two():
    g = spin05("almost_uno").give(1, *["green 3"] * 5).top("red 2")
    g.turn(1)
    assert_state(
        g,
        hands={1: ["green 3", "green 3"]},
        top="green 3",
        colour=GREEN,
        cur=2,
        disc=["red 2", "green 3", "green 3"],
    )
    assert len(evs(g, L.EV_WHEEL_DISCARD)) == 3
    assert g.spins("almost_uno") == 1


def test_2005_almost_uno_heuristic_keeps_wilds():
    g = spin05("almost_uno", bots="heuristic")
    g.give(1, "wild", "wild draw four", "blue 4", "blue 4", "blue 4").top("red 2")
    g.turn(1)
    assert_state(
        g,
        hands={1: ["wild", "wild draw four"]},
        top="blue 4",
        colour=BLUE,
        cur=2,
        disc=["red 2", "blue 4", "blue 4"],
    )


def test_2005_almost_uno_two_or_fewer_nothing():
    g = spin05("almost_uno").give(1, "green 3", "blue 1").top("red 2")
    g.turn(1)
    assert_state(g, hands={1: ["blue 1", "green 3"]}, top="red 2", colour=RED, cur=2, disc=[])


def test_2005_almost_uno_wild_on_top_names_colour():
    g = spin05("almost_uno").give(1, "wild", "wild", "wild").top("red 2")
    g.turn(1)
    assert_state(g, hands={1: ["wild", "wild"]}, top="wild", cur=2, disc=["red 2"])
    assert evs(g, L.EV_COLOUR) == [(1, g.colour, 0)]


def test_2005_discard_number_spin_cards_count():
    seen = set()
    for seed in range(12):
        g = spin05("discard_number", seed=seed)
        g.give(1, "red 4", "blue spin 4", "green skip", "wild").top("yellow 0")
        g.turn(1)
        assert_state(g, hands={1: ["green skip", "wild"]}, cur=2)
        assert evs(g, L.EV_NAME) == [(1, 1, 4)]
        assert sorted(g.under_top() + [g.top_name]) == ["blue spin 4", "red 4", "yellow 0"]
        assert g.top_name in ("red 4", "blue spin 4")
        assert g.colour == KIND_COLOUR[KIND[g.top_name]]
        assert g.s(L.S_SPIN_NEXT) == 0  # a wheel-discarded Spin card triggers no spin
        seen.add(g.top_name)
    assert seen == {"red 4", "blue spin 4"}


def test_2005_discard_number_counts_spin_7_with_the_sevens():
    """spin_cards=9: discard_number on 7 takes the Spin 7 as well as the plain 7s."""
    g = spin05("discard_number", rules=S05_9, seed=3)
    g.give(1, "red 7", "blue spin 7", "green 7", "green skip", "wild").top("yellow 0")
    g.turn(1)
    assert_state(g, hands={1: ["green skip", "wild"]}, cur=2)
    assert evs(g, L.EV_NAME) == [(1, 1, 7)]
    assert sorted(g.under_top() + [g.top_name]) == ["blue spin 7", "green 7", "red 7", "yellow 0"]


def test_2005_war_spin_8_counts_as_an_eight():
    g = spin05("war", rules=S05_9).give(0, "red spin 8", "wild").give(1, "green 6", "blue 2")
    g.top("yellow 0")
    g.turn(1)
    # 8 against 6: seat 0 wins the War and discards its Spin 8 (no spin: a wheel discard)
    assert_state(
        g,
        hands={0: ["wild"], 1: ["green 6", "blue 2"]},
        top="red spin 8",
        colour=RED,
        cur=1,
        disc=["yellow 0"],
    )
    assert evs(g, L.EV_WAR_SHOW) == [(0, 8, 0), (1, 6, 0)]
    assert g.s(L.S_SPIN_NEXT) == 0


def test_2005_discard_color_no_card_effects():
    seen = set()
    for seed in range(12):
        g = spin05("discard_color", seed=seed)
        g.give(1, "green 2", "green skip", "green draw two", "wild").give(2, "red 1")
        g.top("yellow 0").pile("blue 1", "blue 2")
        g.turn(1)
        # no Skip, no Draw Two effect: seat 2 is next and draws nothing
        assert_state(g, hands={1: ["wild"], 2: ["red 1"]}, cur=2, drawn={2: 0}, pile=2)
        assert evs(g, L.EV_NAME) == [(1, 0, GREEN)]
        assert sorted(g.under_top() + [g.top_name]) == sorted(
            ["green 2", "green skip", "green draw two", "yellow 0"]
        )
        assert g.colour == GREEN
        assert evs(g, L.EV_UNO) == [(1, 0, 0)]
        seen.add(g.top_name)
    assert seen == {"green 2", "green skip", "green draw two"}


def test_2005_wheel_discard_going_out_wins():
    g = spin05("discard_color").give(1, "green 2", "green 2").top("yellow 0")
    g.turn(1)
    assert_state(g, hands={1: []}, top="green 2", winner=1)


@pytest.mark.parametrize("space, colour", [("draw_red", "red"), ("draw_blue", "blue")])
def test_2005_colour_draw_stops_on_colour(space, colour):
    g = spin05(space).give(1, "yellow 1").top("yellow 0").pile("green 5")
    g.discards(f"{colour} 3", f"{colour} 3")
    g.turn(1)
    # green 5 from the pile, then the reshuffled discards: one {colour} 3 and stop
    assert_state(
        g,
        hands={1: ["green 5", f"{colour} 3", "yellow 1"]},
        top="yellow 0",
        cur=2,
        drawn={1: 2},
        pile=1,
        disc=[],
    )


@pytest.mark.parametrize("space", ["draw_red", "draw_blue"])
@pytest.mark.parametrize(
    "rules, stops", [(S05, True), ("spin2005(players=3,wild_stops_colour_draw=false)", False)]
)
def test_2005_colour_draw_wild_stops_option(space, rules, stops):
    colour = space.split("_")[1]
    g = spin05(space, rules=rules).give(1, "yellow 1").top("yellow 0").pile("wild")
    g.discards(f"{colour} 3", f"{colour} 3")
    g.turn(1)
    if stops:
        assert_state(
            g,
            hands={1: ["wild", "yellow 1"]},
            cur=2,
            drawn={1: 1},
            pile=0,
            disc=[f"{colour} 3"] * 2,
        )
    else:
        assert_state(
            g, hands={1: ["wild", f"{colour} 3", "yellow 1"]}, cur=2, drawn={1: 2}, pile=1, disc=[]
        )


def test_2005_colour_draw_runs_out():
    g = spin05("draw_red").give(1, "yellow 1").top("yellow 0").pile("green 5")
    g.turn(1)
    assert_state(g, hands={1: ["green 5", "yellow 1"]}, cur=2, drawn={1: 1}, pile=0)
    assert g.s(L.S_FAILED) == 1


def test_2005_show_hand_changes_nothing():
    g = spin05("show_hand").give(0, "blue 1").give(1, "green 2", "wild").give(2, "red 3")
    g.top("yellow 0").pile("green 5").discards("red 9")
    hand0, cards0 = g.st.hand.copy(), g.st.cards.copy()
    g.turn(1)
    assert (g.st.hand == hand0).all() and (g.st.cards == cards0).all()
    assert_state(g, top="yellow 0", colour=YELLOW, cur=2, pile=1, disc=["red 9"])
    assert evs(g, L.EV_SHOW_HAND) == [(1, 0, 0)]


def test_2005_war_single_winner_is_the_spin_player():
    g = spin05("war").give(0, "red 9", "blue 3").give(1, "green 7", "wild")
    g.give(2, "yellow 5", "red skip").top("yellow 0")
    g.turn(1)
    # seat 0 (who played the Spin card) wins: the player after it, the spinner, plays next
    assert_state(
        g,
        hands={0: ["blue 3"], 1: ["green 7", "wild"], 2: ["red skip", "yellow 5"]},
        top="red 9",
        colour=RED,
        cur=1,
        disc=["yellow 0"],
    )
    assert evs(g, L.EV_WAR_SHOW) == [(0, 9, 0), (1, 7, 0), (2, 5, 0)]
    assert evs(g, L.EV_WAR_WIN) == [(0, 0, 0)]


def test_2005_war_winner_after_spinner():
    g = spin05("war").give(0, "red 1", "blue 3").give(1, "green 7", "wild")
    g.give(2, "yellow 8", "red skip").top("yellow 0")
    g.turn(1)
    assert_state(
        g,
        hands={0: ["blue 3", "red 1"], 1: ["green 7", "wild"], 2: ["red skip"]},
        top="yellow 8",
        colour=YELLOW,
        cur=0,
    )


def test_2005_war_tie_then_next_highest():
    g = spin05("war").give(0, "red 9", "red 2", "blue skip")
    g.give(1, "green 9", "green 6", "yellow 1").give(2, "blue 4").top("yellow 0")
    g.turn(1)
    # 9 / 9 / 4: seats 0 and 1 tie; next 2 against 6: seat 1 wins, discards its 9 then its 6
    assert_state(
        g,
        hands={0: ["blue skip", "red 2", "red 9"], 1: ["yellow 1"], 2: ["blue 4"]},
        top="green 6",
        colour=GREEN,
        cur=2,
        disc=["green 9", "yellow 0"],
    )
    assert evs(g, L.EV_WAR_SHOW) == [(0, 9, 0), (1, 9, 0), (2, 4, 0), (0, 2, 0), (1, 6, 0)]
    assert evs(g, L.EV_WAR_WIN) == [(1, 0, 0)]
    assert evs(g, L.EV_UNO) == [(1, 0, 0)]


def test_2005_war_spin_cards_count_by_number():
    g = spin05("war").give(0, "red spin 5", "blue 3", "wild").give(1, "green 5", "yellow 1")
    g.top("yellow 0")
    g.turn(1)
    # 5 / 5 tie; then 3 against 1: seat 0 wins, discards red spin 5 then blue 3 (on top)
    assert_state(
        g,
        hands={0: ["wild"], 1: ["green 5", "yellow 1"]},
        top="blue 3",
        colour=BLUE,
        cur=1,
        disc=["red spin 5", "yellow 0"],
    )
    assert g.s(L.S_SPIN_NEXT) == 0


def test_2005_war_tied_player_without_numbers_drops_out():
    g = spin05("war").give(0, "red 9", "wild").give(1, "green 9", "green 3", "wild")
    g.top("yellow 0")
    g.turn(1)
    assert_state(
        g,
        hands={0: ["red 9", "wild"], 1: ["wild"]},
        top="green 3",
        colour=GREEN,
        cur=2,
        disc=["green 9", "yellow 0"],
    )
    assert evs(g, L.EV_WAR_WIN) == [(1, 0, 0)]


def test_2005_war_all_tied_drop_out_nobody_wins():
    g = spin05("war").give(0, "red 9", "wild").give(1, "green 9", "wild").give(2, "blue 1")
    g.top("yellow 0")
    g.turn(1)
    assert_state(
        g,
        hands={0: ["red 9", "wild"], 1: ["green 9", "wild"], 2: ["blue 1"]},
        top="yellow 0",
        cur=2,
        disc=[],
    )
    assert evs(g, L.EV_WAR_WIN) == [(-1, 0, 0)]


def test_2005_war_nobody_holds_numbers():
    g = spin05("war").give(0, "red skip").give(1, "wild").give(2, "blue draw two")
    g.top("yellow 0")
    g.turn(1)
    assert_state(
        g,
        hands={0: ["red skip"], 1: ["wild"], 2: ["blue draw two"]},
        top="yellow 0",
        cur=2,
        disc=[],
    )
    assert evs(g, L.EV_WAR_SHOW) == [] and evs(g, L.EV_WAR_WIN) == [(-1, 0, 0)]


def test_2005_war_winner_going_out_wins():
    g = spin05("war").give(0, "red 9").give(1, "green 7", "wild").top("yellow 0")
    g.turn(1)
    assert_state(g, hands={0: []}, top="red 9", winner=0)


@pytest.mark.parametrize("w", [0, 1, 2])
def test_2005_uno_spin_race(w):
    bots = ",".join("random(reflex=1)" if q == w else "random(reflex=0.000001)" for q in range(3))
    g = spin05("uno_spin", bots=bots).give(0, "red 1", "red 1").give(1, "green 8", "green 8")
    g.give(2, "yellow 5", "yellow 5", "yellow 5").top("blue 0")
    g.turn(1)
    hands = {0: ["red 1", "red 1"], 1: ["green 8", "green 8"], 2: ["yellow 5"] * 3}
    discarded = hands[w][0]
    hands[w] = hands[w][1:]
    assert_state(
        g,
        hands=hands,
        top=discarded,
        colour=KIND_COLOUR[KIND[discarded]],
        cur=(w + 1) % 3,
        disc=["blue 0"],
    )
    assert evs(g, L.EV_RACE_WIN) == [(w, 0, 0)]


def test_2005_uno_spin_race_counter_clockwise():
    g = spin05(
        "uno_spin", bots="random(reflex=0.000001),random(reflex=0.000001),random(reflex=1)"
    ).set(L.S_DIR, -1)
    g.give(2, "yellow 5", "yellow 5").give(1, "red 2").top("blue 0")
    g.turn(1)
    assert_state(g, hands={2: ["yellow 5"]}, top="yellow 5", cur=1, direction=-1)


def test_2005_uno_spin_race_equal_reflexes_anyone_wins():
    wins = [0, 0, 0]
    for seed in range(300):
        g = spin05("uno_spin", seed=seed)
        for p in range(3):
            g.give(p, "red 1", "red 1")
        g.top("blue 0")
        g.turn(1)
        ((w, _, _),) = evs(g, L.EV_RACE_WIN)
        wins[w] += 1
        assert g.cur == (w + 1) % 3 and g.size(w) == 1
    assert min(wins) > 60, wins


def test_2005_uno_spin_race_winner_goes_out():
    g = spin05("uno_spin", bots="random(reflex=0.000001),random(reflex=0.000001),random(reflex=1)")
    g.give(1, "green 8", "green 8").give(2, "yellow 5").top("blue 0")
    g.turn(1)
    assert_state(g, hands={2: []}, top="yellow 5", winner=2)


@pytest.mark.parametrize("direction", [1, -1])
def test_2005_trade_hands_clockwise_whatever_the_direction(direction):
    g = spin05("trade_hands").set(L.S_DIR, direction)
    g.give(0, "red 1").give(1, "green 2", "green 3").give(2, "blue 4", "blue 5", "wild")
    g.top("yellow 0")
    g.turn(1)
    assert_state(
        g,
        hands={0: ["blue 4", "blue 5", "wild"], 1: ["red 1"], 2: ["green 2", "green 3"]},
        top="yellow 0",
        cur=(1 + direction) % 3,
        direction=direction,
    )
    check_counts(g)
    assert evs(g, L.EV_TRADE) == [(0, 0, 0)]


def test_2005_trade_hands_four_players():
    g = spin05("trade_hands", rules="spin2005(players=4)")
    for p, h in enumerate([["red 1"], ["green 2", "green 3"], ["wild"] * 3, ["blue 9"] * 4]):
        g.give(p, *h)
    g.turn(1)
    assert_state(
        g,
        hands={0: ["blue 9"] * 4, 1: ["red 1"], 2: ["green 2", "green 3"], 3: ["wild"] * 3},
        cur=2,
    )


def test_2005_spin_records():
    g = spin05("draw_red").give(1, "yellow 1").top("yellow 0").pile("green 5")
    g.discards("red 3", "red 3")
    g.turn(1)
    g.set(L.S_SPIN_NEXT, 1)
    g.cum[:] = with_wheel(g.cum, {"discard_color": 1.0})
    g.give(2, "blue 1", "blue 2", "wild")
    g.turn(2)
    assert g.s(L.S_NSPIN) == 2
    rec = g.st.spinrec[:2]
    assert list(
        rec[
            0,
            [
                L.P_TURN,
                L.P_SPINNER,
                L.P_SPACE,
                L.P_HAND_BEFORE,
                L.P_HAND_AFTER,
                L.P_DRAWN,
                L.P_DISCARDED,
            ],
        ]
    ) == [1, 1, SPACE_ID["draw_red"], 1, 3, 2, 0]
    assert list(
        rec[
            1,
            [
                L.P_TURN,
                L.P_SPINNER,
                L.P_SPACE,
                L.P_HAND_BEFORE,
                L.P_HAND_AFTER,
                L.P_DRAWN,
                L.P_DISCARDED,
            ],
        ]
    ) == [2, 2, SPACE_ID["discard_color"], 3, 1, 0, 2]
    assert g.spins("draw_red") == 1 and g.spins("discard_color") == 1


@pytest.mark.parametrize(
    "hands,leader",
    [
        ([["red spin 3", "blue 9"], ["green 2", "green 3"], ["wild"] * 3], 0),  # 1 card after
        ([["red spin 3", "blue 9", "blue 8"], ["green 2", "green 3"], ["wild"] * 3], -1),  # a tie
        ([["red spin 3", "blue 9", "blue 8"], ["green 2"], ["wild"] * 3], 1),
    ],
)
def test_spin_record_other_direction_and_leader(hands, leader):
    """The spin record's leader: the seat holding strictly the fewest cards when the spin
    begins (the Spin card already played), -1 on a tie; other party and direction."""
    g = spin25("swap_hands", rules="spin2025(players=3)").top("red 1")
    for p, h in enumerate(hands):
        g.give(p, *h)
    g.turn(0)
    assert g.s(L.S_NSPIN) == 1
    rec = g.st.spinrec[0]
    assert rec[L.P_SPINNER] == 0 and rec[L.P_LEADER] == leader and rec[L.P_DIR] == 1
    assert rec[L.P_OTHER] in (1, 2)  # Swap Hands: the seat swapped with
    g2 = spin25("two_x", rules="spin2025(players=3)").top("red 1")
    for p, h in enumerate(hands):
        g2.give(p, *h)
    g2.turn(0)
    assert g2.st.spinrec[0, L.P_OTHER] == -1 and g2.st.spinrec[0, L.P_LEADER] == leader


# =========================================================================== 2025 wheel


def test_2025_the_player_of_the_spin_card_spins():
    g = spin25("color_draw_green").give(0, "red spin 3", "blue 9").top("red 1")
    g.pile("green 4")
    g.turn(0)
    assert_state(
        g,
        hands={0: ["blue 9", "green 4"], 1: []},
        top="red spin 3",
        colour=RED,
        cur=1,
        drawn={0: 1},
        pile=0,
    )
    assert evs(g, L.EV_SPIN) == [(0, SPACE_ID["color_draw_green"], 0)]
    assert g.s(L.S_SPIN_NEXT) == 0 and g.spins("color_draw_green") == 1


@pytest.mark.parametrize("c, colour", list(enumerate(["red", "yellow", "green", "blue"])))
def test_2025_color_draw_each_colour_wilds_do_not_stop(c, colour):
    # the pile holds a wild (no stop in 2025); then the discard pile (two {colour} 1) is
    # reshuffled in and one {colour} 1 stops the draw
    other = "green 9" if c != GREEN else "red 9"
    g = spin25(f"color_draw_{colour}").give(0, f"{colour} spin 3", other).top(f"{colour} 1")
    g.discards(f"{colour} 1").pile("wild")
    g.turn(0)
    assert_state(
        g,
        hands={0: [other, "wild", f"{colour} 1"]},
        top=f"{colour} spin 3",
        colour=c,
        cur=1,
        drawn={0: 2},
        pile=1,
        disc=[],
    )
    assert g.st.cards[L.PILE] == KIND[f"{colour} 1"]


def test_2025_color_draw_wild_stops_option():
    g = spin25("color_draw_red", rules="spin2025(players=3,wild_stops_colour_draw=true)")
    g.give(0, "red spin 3", "green 9").top("red 1").discards("red 1").pile("wild")
    g.turn(0)
    assert_state(
        g, hands={0: ["green 9", "wild"]}, cur=1, drawn={0: 1}, pile=0, disc=["red 1", "red 1"]
    )


def test_2025_wild_color_draw_named_colour_stops_on_it():
    # seat 0 plays blue Spin 3 on blue 1; it then holds only yellow, so it names yellow
    g = spin25("wild_color_draw").give(0, "blue spin 3", "yellow 7", "yellow 8")
    g.top("blue 1").pile("yellow 2", "yellow 2")
    g.turn(0)
    assert_state(
        g,
        hands={0: ["yellow 2", "yellow 7", "yellow 8"]},
        top="blue spin 3",
        colour=BLUE,
        cur=1,
        drawn={0: 1},
        pile=1,
        disc=["blue 1"],
    )
    assert evs(g, L.EV_NAME) == [(0, 0, YELLOW)]


def test_2025_wild_color_draw_other_colours_do_not_stop():
    # seat 0 plays green Spin 3 on blue 3 and names yellow (the only colour it holds): the
    # green 5 (the colour in play) and the reshuffled blue 3 do not stop the draw; then
    # nothing is left to draw
    g = spin25("wild_color_draw").give(0, "green spin 3", "yellow 7", "yellow 8")
    g.top("blue 3").pile("green 5")
    g.turn(0)
    assert_state(
        g,
        hands={0: ["blue 3", "green 5", "yellow 7", "yellow 8"]},
        top="green spin 3",
        colour=GREEN,
        cur=1,
        drawn={0: 2},
        pile=0,
        disc=[],
    )
    assert evs(g, L.EV_NAME) == [(0, 0, YELLOW)]
    assert g.s(L.S_FAILED) == 1


def test_2025_color_discard_under_the_top():
    # the Wild Draw Four is illegal (seat 0 holds red), so the red Spin 2 is forced; then
    # seat 0 holds only blue and names it
    g = spin25("color_discard").give(0, "red spin 2", "blue 4", "blue skip", "wild draw four")
    g.top("red 7")
    g.turn(0)
    assert_state(
        g,
        hands={0: ["wild draw four"]},
        top="red spin 2",
        colour=RED,
        cur=1,
        disc=["red 7", "blue 4", "blue skip"],
    )
    assert evs(g, L.EV_NAME) == [(0, 0, BLUE)]
    assert [e[2] for e in evs(g, L.EV_WHEEL_DISCARD)] == [1, 1]
    assert evs(g, L.EV_SKIPPED) == []  # a discarded Skip has no effect
    assert evs(g, L.EV_UNO) == [(0, 0, 0)]


def test_2025_color_discard_emptying_the_hand_wins():
    g = spin25("color_discard").give(0, "red spin 2", "blue 4", "blue 5").top("red 7")
    g.turn(0)
    assert_state(
        g, hands={0: []}, top="red spin 2", colour=RED, winner=0, disc=["red 7", "blue 4", "blue 5"]
    )


def test_2025_swap_hands_two_players():
    g = spin25("swap_hands", rules="spin2025(players=2)")
    g.give(0, "red spin 2", "blue 4", "blue 5").give(1, "green 1").top("red 7")
    g.turn(0)
    assert_state(g, hands={0: ["green 1"], 1: ["blue 4", "blue 5"]}, top="red spin 2", cur=1)
    assert evs(g, L.EV_SWAP) == [(0, 1, 0)]
    assert evs(g, L.EV_UNO) == [(0, 0, 0)]
    check_counts(g)


def test_2025_swap_hands_random_target():
    h1, h2 = ["green 1", "green 2"], ["yellow 3"]
    seen = set()
    for seed in range(16):
        g = spin25("swap_hands", seed=seed)
        g.give(0, "red spin 2", "blue 4").give(1, *h1).give(2, *h2).top("red 7")
        g.turn(0)
        ((a, q, _),) = evs(g, L.EV_SWAP)
        assert a == 0 and q in (1, 2)
        exp = {
            0: h1 if q == 1 else h2,
            1: ["blue 4"] if q == 1 else h1,
            2: ["blue 4"] if q == 2 else h2,
        }
        assert_state(g, hands=exp, cur=1)
        seen.add(q)
    assert seen == {1, 2}


def test_2025_swap_hands_heuristic_takes_the_smallest_hand():
    g = spin25("swap_hands", bots="heuristic")
    g.give(0, "red spin 2", "blue 4", "blue 5").give(1, "green 1", "green 2", "green 3")
    g.give(2, "yellow 3").top("red 7")
    g.turn(0)
    assert_state(
        g,
        hands={0: ["yellow 3"], 1: ["green 1", "green 2", "green 3"], 2: ["blue 4", "blue 5"]},
        cur=1,
    )


def test_2025_two_x_is_set_and_next_player_plays_two():
    g = spin25("two_x").give(0, "red spin 2", "green 9").top("red 7")
    g.give(1, "red 4", "blue 4", "green 8")
    g.turn(0)
    assert_state(g, hands={0: ["green 9"]}, top="red spin 2", cur=1)
    assert g.s(L.S_TWO_X) == 1 and evs(g, L.EV_TWO_X) == [(1, 0, 0)]
    assert g.spins("two_x") == 1
    g.turn(1)
    # red 4 (the only legal card), then blue 4 on it; green 8 is not playable on blue 4
    assert_state(
        g,
        hands={1: ["green 8"]},
        top="blue 4",
        colour=BLUE,
        cur=2,
        disc=["red 7", "red spin 2", "red 4"],
    )
    assert played(g, 1) == ["red 4", "blue 4"]
    assert g.s(L.S_TWO_X) == 1  # until the wheel is spun again


def test_2025_two_x_one_card_when_no_second_is_playable():
    g = spin25("two_x").set(L.S_TWO_X, 1).give(1, "red 4", "green 8").top("red 7")
    g.turn(1)
    assert_state(g, hands={1: ["green 8"]}, top="red 4", cur=2, drawn={1: 0})


def test_2025_two_x_draw_two_plus_draw_two():
    g = spin25("two_x", rules="spin2025(players=4)").set(L.S_TWO_X, 1)
    g.give(0, "red draw two", "blue draw two", "green 9").top("red 7")
    g.pile("yellow 1", "yellow 2", "yellow 3", "yellow 4")
    g.turn(0)
    assert_state(
        g,
        hands={0: ["green 9"], 1: ["yellow 1", "yellow 2", "yellow 3", "yellow 4"]},
        top="blue draw two",
        colour=BLUE,
        cur=3,
        drawn={1: 4, 2: 0},
        pile=0,
    )
    assert evs(g, L.EV_SKIPPED) == [(1, 0, 0), (2, 0, 0)]


def test_2025_two_x_reverse_plus_reverse_keeps_direction():
    g = spin25("two_x").set(L.S_TWO_X, 1)
    g.give(0, "red reverse", "blue reverse", "green 9").top("red 7")
    g.turn(0)
    assert_state(g, hands={0: ["green 9"]}, top="blue reverse", cur=1, direction=1)


def test_2025_two_x_skip_plus_skip():
    g = spin25("two_x", rules="spin2025(players=4)").set(L.S_TWO_X, 1)
    g.give(0, "red skip", "green skip", "yellow 9").top("red 7")
    g.turn(0)
    assert_state(g, hands={0: ["yellow 9"]}, top="green skip", cur=3)


def test_2025_two_x_reverse_then_draw_two_final_direction():
    g = spin25("two_x", rules="spin2025(players=4)").set(L.S_TWO_X, 1)
    g.give(0, "red reverse", "red draw two", "green 9").top("yellow reverse")
    g.pile("yellow 1", "yellow 2")
    g.turn(0)
    # red Reverse (the only legal card), then red Draw Two: the direction flips first, so
    # seat 3 (the next player counter-clockwise) draws 2 and is passed; seat 2 plays
    assert played(g, 0) == ["red reverse", "red draw two"]
    assert_state(
        g,
        hands={0: ["green 9"], 3: ["yellow 1", "yellow 2"]},
        top="red draw two",
        cur=2,
        direction=-1,
        drawn={1: 0, 3: 2},
        pile=0,
    )


def test_2025_two_x_first_card_empties_hand_wins():
    g = spin25("two_x").set(L.S_TWO_X, 1).give(0, "red 4").top("red 7").pile("red 5")
    g.turn(0)
    assert_state(g, hands={0: []}, top="red 4", winner=0, pile=1)


def test_2025_two_x_after_a_draw_only_the_drawn_card():
    g = spin25("two_x").set(L.S_TWO_X, 1).give(0, "blue 7").top("red 1").pile("red 7")
    g.turn(0)
    # red 7 is drawn and played; blue 7 would match it but may not be played
    assert_state(g, hands={0: ["blue 7"]}, top="red 7", cur=1, drawn={0: 1}, pile=0)


def test_2025_two_x_spin_card_ends_two_x_and_spins_at_once():
    g = spin25("color_draw_green").set(L.S_TWO_X, 1)
    g.give(0, "red spin 3", "red 8").top("red 1").pile("green 4")
    g.turn(0)
    # the spin happens at once and ends the turn: red 8 (playable) stays in hand
    assert_state(g, hands={0: ["green 4", "red 8"]}, top="red spin 3", cur=1, drawn={0: 1}, pile=0)
    assert g.s(L.S_TWO_X) == 0
    assert evs(g, L.EV_TWO_X) == [(0, 0, 0)]


def test_2025_two_x_skip_then_spin_card():
    g = spin25("color_draw_green").set(L.S_TWO_X, 1)
    g.give(0, "yellow skip", "yellow spin 3", "blue 8").top("green skip").pile("green 4")
    g.turn(0)
    # yellow Skip (the only match), then yellow Spin 3: the spin (green draw) happens at
    # once, then the Skip passes seat 1
    assert played(g, 0) == ["yellow skip", "yellow spin 3"]
    assert_state(
        g,
        hands={0: ["blue 8", "green 4"]},
        top="yellow spin 3",
        colour=YELLOW,
        cur=2,
        drawn={0: 1},
        pile=0,
    )
    assert g.s(L.S_TWO_X) == 0
    codes = g.event_codes()
    assert codes.index(L.EV_SPIN) < codes.index(L.EV_SKIPPED)


def test_2025_two_x_two_players_reverse_counts_as_skip():
    g = spin25("two_x", rules="spin2025(players=2)").set(L.S_TWO_X, 1)
    g.give(0, "red reverse", "red 5", "green 9").top("yellow reverse")
    g.turn(0)
    # red Reverse (the only match), then red 5: one Reverse = one Skip, seat 0 plays again
    assert played(g, 0) == ["red reverse", "red 5"]
    assert_state(g, hands={0: ["green 9"]}, top="red 5", cur=0, direction=1)
    assert evs(g, L.EV_SKIPPED) == [(1, 0, 0)]


def test_2025_two_x_two_players_two_reverses_pass_two_seats():
    g = spin25("two_x", rules="spin2025(players=2)").set(L.S_TWO_X, 1)
    g.give(0, "red reverse", "blue reverse", "green 9").top("red 7")
    g.turn(0)
    # two Reverses with two players are two Skips: play moves past seat 1, then past seat 0
    # (RULINGS: "play moves on past one seat per Skip"), so seat 1 plays next
    assert played(g, 0) == ["red reverse", "blue reverse"]
    assert_state(g, hands={0: ["green 9"]}, cur=1, direction=1)
    assert evs(g, L.EV_SKIPPED) == [(1, 0, 0), (0, 0, 0)]


def test_2025_wild_spin_names_colour_then_spins():
    g = spin25("color_draw_yellow", bots="heuristic").give(0, "wild spin", "blue 3", "blue 6")
    g.top("red 1").pile("yellow 2")
    g.turn(0)
    assert_state(
        g,
        hands={0: ["blue 3", "blue 6", "yellow 2"]},
        top="wild spin",
        colour=BLUE,
        cur=1,
        drawn={0: 1},
        pile=0,
    )
    codes = g.event_codes()
    assert codes.index(L.EV_COLOUR) < codes.index(L.EV_SPIN)
    assert evs(g, L.EV_COLOUR) == [(0, BLUE, 0)]


def test_2025_wild_spin_last_card_wins_without_spin():
    g = spin25("color_draw_yellow").give(0, "wild spin").top("red 1").pile("yellow 2")
    g.turn(0)
    assert_state(g, hands={0: []}, winner=0, pile=1)
    assert evs(g, L.EV_SPIN) == []


# =========================================================================== Spider-Man
def test_web_swing_jumps_after_the_chosen_holder():
    # heuristic names blue (its most common colour); only seat 2 holds blue
    g = Game(SP4, "heuristic").give(0, "wild web swing", "blue 1", "blue 2")
    g.give(1, "red 1").give(2, "blue 7", "red 3").give(3, "green 4").top("yellow 5")
    g.turn(0)
    assert_state(g, hands={0: ["blue 1", "blue 2"]}, top="wild web swing", colour=BLUE, cur=3)
    assert evs(g, L.EV_WEB_SWING) == [(0, BLUE, 2)]


def test_web_swing_random_target_among_holders():
    seen = set()
    held = {1: {RED, YELLOW}, 2: {BLUE}, 3: {GREEN, YELLOW}}
    for seed in range(30):
        g = Game(SP4, "random", seed=seed).give(0, "wild web swing", "blue 1")
        g.give(1, "red 1", "yellow 1").give(2, "blue 7").give(3, "green 4", "yellow 2")
        g.top("yellow 5")
        g.turn(0)
        col = evs(g, L.EV_COLOUR)[0][1]
        holders = [q for q in (1, 2, 3) if col in held[q]]
        ((a, c, t),) = evs(g, L.EV_WEB_SWING)
        assert a == 0 and c == col and t in holders
        assert g.cur == (t + 1) % 4
        seen.add(t)
    assert seen == {1, 2, 3}


def test_web_swing_nobody_holds_colour_play_goes_on():
    g = Game(SP4, "heuristic").give(0, "wild web swing", "blue 1", "blue 2")
    g.give(1, "red 1").give(2, "green 7").give(3, "green 4").top("yellow 5")
    g.turn(0)
    assert_state(g, top="wild web swing", colour=BLUE, cur=1)
    assert evs(g, L.EV_WEB_SWING) == [(0, BLUE, -1)]


def test_web_swing_counter_clockwise():
    g = Game(SP4, "heuristic").set(L.S_DIR, -1).give(0, "wild web swing", "blue 1", "blue 2")
    g.give(1, "red 9").give(2, "blue 3").give(3, "green 4").top("yellow 5")
    g.turn(0)
    # the holder is seat 2; after it, counter-clockwise, comes seat 1 (seat 3 passed over)
    assert_state(g, cur=1, direction=-1)
    assert evs(g, L.EV_WEB_SWING) == [(0, BLUE, 2)]


def test_web_swing_last_card_wins():
    g = Game(SP4, "heuristic").give(0, "wild web swing").give(2, "blue 7", "red 1")
    g.top("yellow 5")
    g.turn(0)
    assert_state(g, hands={0: []}, winner=0)
    assert evs(g, L.EV_WEB_SWING) == []


# =========================================================================== first card
def first_events(rules, seeds, bots="random"):
    """For each traced game: (events before the first EV_TURN, that EV_TURN, final state)."""
    out = []
    for s in seeds:
        log, st, _, _ = trace(rules, bots, seed=s, game=0, log_rows=400)
        rows = [tuple(int(x) for x in r) for r in log]
        i = next(j for j, r in enumerate(rows) if r[0] == L.EV_TURN)
        out.append((rows[:i], rows[i], st))
    return out


def test_first_card_classic():
    faces_seen = set()
    set_aside = 0
    for pre, turn1, st in first_events(C3, range(400)):
        deals = [r for r in pre if r[0] == L.EV_DEAL]
        assert len(deals) == 21
        assert [r[1] for r in deals[:3]] == [0, 1, 2]  # dealt from the dealer's left
        (first,) = [r[1] for r in pre if r[0] == L.EV_FIRST]
        assert first != WILD_DRAW_FOUR
        set_aside += sum(1 for r in pre if r[0] == L.EV_SET_ASIDE)
        assert all(r[1] == WILD_DRAW_FOUR for r in pre if r[0] == L.EV_SET_ASIDE)
        f = KIND_FACE[first]
        faces_seen.add(min(int(f), 13))
        fs = int(st.s[L.S_FIRST])
        assert turn1[1] == fs
        if first >= FIRST_WILD:  # Wild: seat 0 names, then plays
            assert fs == 0
            assert [r for r in pre if r[0] == L.EV_COLOUR][0][1] == 0
        elif f == 10:  # Skip: seat 0 skipped
            assert fs == 1 and (L.EV_SKIPPED, 0, 0, 0) in pre
        elif f == 11:  # Reverse: the dealer, ccw
            assert fs == 2 and (L.EV_REVERSE, -1, 0, 0) in pre
        elif f == 12:  # Draw Two: seat 0 draws 2
            assert fs == 1 and (L.EV_SKIPPED, 0, 0, 0) in pre
            assert [r[1] for r in pre if r[0] == L.EV_DRAW] == [0, 0]
        else:
            assert fs == 0
            assert not any(r[0] in (L.EV_SKIPPED, L.EV_REVERSE, L.EV_DRAW) for r in pre)
    assert set_aside > 0
    assert faces_seen >= {0, 10, 11, 12, 13}


def test_first_card_spin2005_action_effects_and_no_spin():
    spins_first = 0
    for pre, turn1, st in first_events("spin2005(players=4)", range(300)):
        (first,) = [r[1] for r in pre if r[0] == L.EV_FIRST]
        assert first != WILD_DRAW_FOUR
        assert not any(r[0] == L.EV_SPIN for r in pre)
        if first < FIRST_WILD:
            f = KIND_FACE[first]
            assert turn1[1] == {10: 1, 11: 3, 12: 1}.get(int(f), 0)
            if KIND_SPINS[first]:
                spins_first += 1
                # the first turn is a normal turn: no spin before it
                assert turn1[1] == 0
    assert spins_first > 0


@pytest.mark.parametrize("rules", ["spin2025(players=3)", "spiderman(players=3)"])
def test_first_card_numbers_only(rules):
    set_aside = 0
    spin_first = 0
    for pre, turn1, st in first_events(rules, range(300)):
        (first,) = [r[1] for r in pre if r[0] == L.EV_FIRST]
        assert first < FIRST_WILD and KIND_FACE[first] <= 9
        spin_first += int(KIND_SPINS[first])
        assert turn1[1] == 0
        assert not any(
            r[0] in (L.EV_SKIPPED, L.EV_REVERSE, L.EV_DRAW, L.EV_SPIN, L.EV_COLOUR) for r in pre
        )
        set_aside += sum(1 for r in pre if r[0] == L.EV_SET_ASIDE)
    assert set_aside > 0
    if rules.startswith("spin2025"):
        assert spin_first > 0


@pytest.mark.parametrize("rules", [C3, S05, S25, "spiderman(players=3)"])
def test_setup_round_state(rules):
    """After setup_round: 7 cards each, set-aside cards back in the pile, no spin pending."""
    rs = parse_rules(rules)
    g = Game(rules)
    for seed in range(200):
        K.setup_round(g.st, g.r, g.deck, g.bots, np.uint64(seed * 7919 + 1))
        st = g.st
        drawn0 = int(st.hand[0, L.DRAWN])
        assert [int(st.hand[p, L.HSIZE]) for p in range(3)] == [7 + drawn0, 7, 7]
        assert int(st.s[L.S_DRAW_N]) == rs.deck_size() - 21 - 1 - drawn0
        assert int(st.s[L.S_DISC_N]) == 0
        assert int(st.s[L.S_SPIN_NEXT]) == 0 and int(st.s[L.S_NSPIN]) == 0
        assert int(st.s[L.S_TOP]) != WILD_DRAW_FOUR
        assert int(st.s[L.S_CUR]) == int(st.s[L.S_FIRST])
        if rs.first_card == "numbers_only":
            assert drawn0 == 0 and int(st.s[L.S_FIRST]) == 0 and int(st.s[L.S_DIR]) == 1
