"""The bots on a variant's own wheel spaces (docs/BOTS.md, docs/WHEEL_PROGRAMS.md).

Two questions a variant's spaces bring: the card a player gives (``card_to_give``, asked by a
program's ``give`` step), pinned on hand-built hands in the kernel and in the reference
engine; and ``spin_aware``'s value of a space it has never seen by name, read from the
space's steps (``spin_aware.program_change``, the reference's ``program_estimate``): the
published spaces written as programs get their named values back, the shipped examples'
spaces get the values their steps say, and both engines agree on every one.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from statekit import KIND, Game, with_wheel

from unospin_sim.bots import parse_bots
from unospin_sim.engine import layout as L
from unospin_sim.engine.encode import encode
from unospin_sim.engine.policy import dispatch as D
from unospin_sim.engine.policy import random_bot as R
from unospin_sim.engine.policy import spin_aware as SA
from unospin_sim.reference import choices as RC
from unospin_sim.reference.cards import BLUE, NUMBER, RED, Card
from unospin_sim.reference.steps import ProgramRound
from unospin_sim.rules import RuleSet
from unospin_sim.rules import variants as V
from unospin_sim.rules.card_codes import KIND_COLOUR
from unospin_sim.rules.spaces import SPACE_ID, SPACES_2005, SPACES_2025

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "variants"


def variant_rules(file: str, players: int) -> RuleSet:
    v = V.load_variant(EXAMPLES / file)
    return RuleSet.build(
        v.wheels[0].edition, players=players, variant=v, wheel=dict(v.wheels[0].weights)
    )


def set_sizes(g: Game, sizes, colours=None) -> None:
    """Hands of the given sizes: red 1s, or per seat the colour ``colours[p]``."""
    g.st.hand[:, :] = 0
    for p, n in enumerate(sizes):
        g.give(p, *[f"{(colours or ['red'] * len(sizes))[p]} 1"] * n)


# ============================================================ spin_aware's space values
def _published(edition: str, players: int) -> Game:
    """A Game whose rule array holds every published space's program."""
    g = Game(f"{edition}(players={players})", "spin_aware")
    programs = {SPACE_ID[n]: s.program for n, s in V.published_programs().items()}
    g.r = encode(g.rules, parse_bots("spin_aware", players), programs=programs).rules.copy()
    return g


@pytest.mark.parametrize("edition", ["spin2005", "spin2025"])
def test_the_published_spaces_steps_give_their_named_values(edition):
    """Every published space, valued from its program's steps, is worth exactly what
    spin_aware gives it by name, in the kernel and in the reference, on 60 hand-built
    tables (3 and 4 players, both directions, mixed colours)."""
    rng = np.random.default_rng(7)
    names = SPACES_2005 if edition == "spin2005" else SPACES_2025
    programs = {n: s.as_dicts() for n, s in V.published_programs().items()}
    draw_until = RC.SPIN_DRAW_UNTIL[edition]
    for trial in range(60):
        players = 3 + trial % 2
        g = _published(edition, players)
        g.st.hand[:, :] = 0
        for p in range(players):
            for _ in range(int(rng.integers(1, 9))):
                g.give(p, str(rng.choice(["red", "yellow", "green", "blue"])) + " 3")
        g.st.s[L.S_DIR] = 1 if trial % 3 else -1
        sizes = [int(g.st.hand[p, L.HSIZE]) for p in range(players)]
        h = sizes[0]
        most = float(max(g.st.hand[0, L.CC + c] for c in range(4)))
        smallest = min([h] + sizes[1:])
        for name in names:
            named = SA.spin_value(
                g.st, g.r, with_wheel(g.cum, {name: 1.0}), edition == "spin2005", 0, True
            )
            steps = SA.program_change(
                g.st, g.r, 0, SPACE_ID[name], float(h), most, edition == "spin2005"
            )
            assert steps == named, (name, sizes)
            ref_named = RC.space_estimate(name, h, most, smallest, sizes[-1], players, draw_until)
            ref_steps = RC.program_estimate(
                programs[name], 0, sizes, int(g.st.s[L.S_DIR]), most, draw_until
            )
            assert ref_steps == ref_named == named, (name, sizes)


#: (file, space, sizes with the spinner at seat 0, direction, the spinner's change)
STEP_VALUES = [
    ("spin2025_plus_two.toml", "everyone_draws_one", (5, 3, 7, 2), 1, 0.0),
    ("spin2025_plus_two.toml", "give_away", (5, 3, 7, 2), 1, -1.0),
    ("more_spaces.toml", "charity", (5, 3, 7, 2), 1, -2.0),
    ("more_spaces.toml", "charity", (1, 3, 7, 2), 1, -1.0),  # it holds one card to give
    ("more_spaces.toml", "rob_the_leader", (5, 3, 7, 2), 1, -3.0),
    ("more_spaces.toml", "rob_the_leader", (2, 3, 7, 4), 1, 1.0),  # the leader holds more
    ("more_spaces.toml", "trade_back", (5, 3, 7, 2), 1, -2.0),  # seat 1's hand comes to 0
    ("more_spaces.toml", "wheel_draw_two", (5, 3, 7, 2), 1, 0.0),
    ("more_spaces.toml", "u_turn", (5, 3, 7, 2), 1, 0.0),
    ("more_spaces.toml", "double_color_draw", (5, 3, 7, 2), 1, 2 * SA.DRAW_UNTIL_2005),
    ("more_spaces.toml", "trim_the_previous", (5, 3, 7, 2), 1, 0.0),
    ("more_spaces.toml", "card_shower", (5, 3, 7, 2), 1, 0.0),
    ("more_spaces.toml", "open_hands", (5, 3, 7, 2), 1, 0.0),
]


@pytest.mark.parametrize("file, space, sizes, direction, change", STEP_VALUES)
def test_a_variant_space_is_valued_from_the_cards_its_steps_move(
    file, space, sizes, direction, change
):
    """The spinner's expected change from a shipped space's steps, hand-computed, in both
    engines."""
    rules = variant_rules(file, len(sizes))
    g = Game(rules, "spin_aware")
    set_sizes(g, sizes)
    g.st.s[L.S_DIR] = direction
    is2005 = rules.edition == "spin2005"
    got = SA.program_change(g.st, g.r, 0, rules.space_id(space), float(sizes[0]), 1.0, is2005)
    assert got == change
    steps = rules.variant.space(space).as_dicts()
    draw_until = RC.SPIN_DRAW_UNTIL[rules.edition]
    assert RC.program_estimate(steps, 0, list(sizes), direction, 1.0, draw_until) == change


SPINNER_ACTED_ON = """
[spaces.alms]
title = "Alms"
description = "the next player gives the spinner two cards"
program = [{ step = "give", who = "next", to = "spinner", n = 2 }]

[spaces.previous_picks]
title = "Previous Picks"
description = "the previous player swaps with a player it chooses"
program = [{ step = "swap_hands", who = "previous", with = "chosen" }]

[spaces.turn_then_take]
title = "Turn Then Take"
description = "play reverses, the spinner takes the next hand"
program = [{ step = "reverse" }, { step = "swap_hands", who = "spinner", with = "next" }]

[wheels.acted_on]
edition = "spin2025"
weights = { color_discard = 2, alms = 1, previous_picks = 1, turn_then_take = 1 }
"""


def test_steps_acting_on_the_spinner_from_another_seat_and_the_wheels_mean():
    """A give to the spinner counts +n; a ``chosen`` swap by another seat that picks the
    spinner counts that seat's hand; a reverse turns ``next``; and spin_value is the wheel's
    weighted mean of the named and the step values."""
    v = V.variant_from_text(SPINNER_ACTED_ON, "acted_on.toml")
    rules = RuleSet.build("spin2025", players=4, variant=v, wheel=dict(v.wheels[0].weights))
    g = Game(rules, "spin_aware")
    set_sizes(g, (2, 3, 7, 5), ["red", "blue", "blue", "blue"])
    g.give(0, "blue 1")  # the spinner: red 1, red 1, blue 1 (3 cards, 2 of its most colour)
    sizes = (3, 3, 7, 5)
    values = {"alms": 2.0, "previous_picks": 5.0 - 3.0, "turn_then_take": 5.0 - 3.0}
    for space, want in values.items():
        got = SA.program_change(g.st, g.r, 0, rules.space_id(space), 3.0, 2.0, False)
        ref = RC.program_estimate(v.space(space).as_dicts(), 0, list(sizes), 1, 2.0, 3.5)
        assert got == ref == want, space
    mean = (2 * -2.0 + 2.0 + 2.0 + 2.0) / 5  # Color Discard: -(its most held colour)
    assert SA.spin_value(g.st, g.r, g.cum, False, 0, True) == pytest.approx(mean, abs=1e-12)


def test_the_reference_values_a_variant_wheel_as_the_kernel():
    """spin_value on the shipped 2025 wheel with both examples, a round's hands in both
    engines: the same number (the two examples' spaces count, not as off the wheel)."""
    rules = variant_rules("spin2025_plus_two.toml", 4)
    g = Game(rules, "spin_aware")
    hands = [
        [Card(NUMBER, RED, 2)] * 4 + [Card(NUMBER, BLUE, 5)],
        [Card(NUMBER, BLUE, 1)] * 2,
        [Card(NUMBER, RED, 7)] * 6,
        [Card(NUMBER, BLUE, 3)] * 3,
    ]
    g.st.hand[:, :] = 0
    for p, hand in enumerate(hands):
        g.give(p, *[f"{'red' if c.colour == RED else 'blue'} {c.number}" for c in hand])
    v = rules.variant
    programs = {s.name: s.as_dicts() for s in v.spaces}
    ref = ProgramRound(
        "spin2025",
        4,
        0,
        None,
        [{"strategy": "spin_aware"}] * 4,
        None,
        programs,
        dict(v.wheels[0].weights),
    )
    ref.hands = [list(h) for h in hands]
    kernel = SA.spin_value(g.st, g.r, g.cum, False, 0, True)
    assert kernel == pytest.approx(ref.spin_value(0, True), abs=1e-12)
    assert kernel != pytest.approx(
        SA.spin_value(g.st, g.r, with_wheel(g.cum, dict.fromkeys(SPACES_2025, 1.0)), False, 0, True)
    )


# ============================================================ the card a player gives
def _giver(strategy: str) -> Game:
    g = Game("spin2025(players=3)", strategy)
    g.give(0, "red 9", "blue 2", "blue skip", "wild")
    g.give(1, "green 4", "green 5")
    return g


def _void(g: Game, p: int, colour: int) -> None:
    """What a draw proved: seat p holds no card of ``colour`` (true of its whole hand)."""
    g.st.hand[p, L.VOID] = 1 << colour
    g.st.hand[p, L.VOID_AT] = g.st.hand[p, L.TAKEN]


def _ref_card(hand, strategy, void=()):
    r = ProgramRound("spin2025", 3, 0, None, [{"strategy": strategy}] * 3, None, {})
    r.hands = [list(hand), [Card(NUMBER, 2, 4)], []]
    r.void[1] = set(void)
    return r.hands[0][r.card_to_give(0, 1)]


HAND = [Card(NUMBER, RED, 9), Card(NUMBER, BLUE, 2)]


def test_heuristic_gives_a_card_of_a_colour_the_receiver_lacks_first():
    g = _giver("heuristic")
    k = D.card_to_give(g.st, g.pts, g.bots, 0, 1)
    assert k == KIND["red 9"]  # a number card, the most points
    _void(g, 1, KIND_COLOUR[KIND["blue 2"]])
    assert D.card_to_give(g.st, g.pts, g.bots, 0, 1) == KIND["blue 2"]
    g.st.hand[1, L.TAKEN] += 1  # it took a card since: what it lacked is forgotten
    assert D.card_to_give(g.st, g.pts, g.bots, 0, 1) == KIND["red 9"]
    assert _ref_card(HAND, "heuristic") == Card(NUMBER, RED, 9)
    assert _ref_card(HAND, "heuristic", void={BLUE}) == Card(NUMBER, BLUE, 2)


def test_heuristic_gives_an_action_card_before_a_wild_and_a_wild_last():
    g = Game("spin2025(players=3)", "heuristic")
    g.give(0, "blue skip", "wild")
    assert D.card_to_give(g.st, g.pts, g.bots, 0, 1) == KIND["blue skip"]
    g.st.hand[0, :] = 0
    g.give(0, "wild")
    assert D.card_to_give(g.st, g.pts, g.bots, 0, 1) == KIND["wild"]


def test_random_gives_as_its_race_discard_draw_for_draw():
    g = _giver("random")
    before = g.st.s.copy()
    k = D.card_to_give(g.st, g.pts, g.bots, 0, 1)
    after = g.st.s.copy()
    g.st.s[:] = before
    assert R.race_discard(g.st, g.pts, 0) == k
    np.testing.assert_array_equal(g.st.s, after)


def test_heuristic_gives_a_number_card_before_an_action_card_whatever_the_points():
    """The order is lexicographic up to the largest score a card may have (1000 points)."""
    g = Game("spin2025(players=3,points={skip:1000})", "heuristic")
    g.give(0, "red skip", "blue 2")
    assert D.card_to_give(g.st, g.pts, g.bots, 0, 1) == KIND["blue 2"]
    _void(g, 1, KIND_COLOUR[KIND["red skip"]])
    assert D.card_to_give(g.st, g.pts, g.bots, 0, 1) == KIND["red skip"]
