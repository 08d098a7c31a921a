"""Wheel spaces as programs (docs/WHEEL_PROGRAMS.md): the variant files' checks, the
published spaces as programs, and the reference engine's interpreter of the steps.

Plain Python only: the reference engine and the rule data, no kernel.
"""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest
from refkit import BLUE, GREEN, RED, SK, WD4, YELLOW, N, W

from unospin_sim import reference as R
from unospin_sim.errors import RuleError
from unospin_sim.reference.steps import ProgramRound, play_program_round
from unospin_sim.rules.editions import SPACES, get_edition
from unospin_sim.rules.programs import PLAYERS, REQUIRED, STEPS
from unospin_sim.rules.spaces import SPACE_NAMES, SPACES_2005, SPACES_2025
from unospin_sim.rules.variants import EXTENDABLE, load_variant, published_programs

REPO = Path(__file__).resolve().parents[1]
EXAMPLES = REPO / "examples" / "variants"
PROGRAMS = {name: space.as_dicts() for name, space in published_programs().items()}


# ============================================================ the published spaces as programs
def test_every_published_space_is_a_program_with_the_editions_words():
    assert list(PROGRAMS) == list(SPACE_NAMES)
    for name, space in published_programs().items():
        assert space.title == SPACES[name].title
        assert space.description == SPACES[name].effect
    assert get_edition("spin2005").wheel_spaces == SPACES_2005 == EXTENDABLE["spin2005"]
    assert get_edition("spin2025").wheel_spaces == SPACES_2025 == EXTENDABLE["spin2025"]


class CountingRound(ProgramRound):
    """Counts the programs run, to show no spin fell back on a hand-written space."""

    ran = 0

    def run_steps(self, s, steps):
        if steps is self.programs.get(self.spin_records[-1]["space"]):
            CountingRound.ran += 1
        super().run_steps(s, steps)


CASES = [
    # (edition, players, strategy, options)
    ("spin2005", 2, "random", {}),
    ("spin2005", 3, "heuristic", {}),
    ("spin2005", 4, "random", {"wild_stops_colour_draw": False}),
    ("spin2005", 5, "hoarder", {}),
    ("spin2005", 4, "spin_aware", {"partners": True}),
    ("spin2005", 6, "tuned", {"hand_size": 4}),
    ("spin2025", 2, "random", {}),
    ("spin2025", 3, "heuristic", {"wild_stops_colour_draw": True}),
    ("spin2025", 4, "random", {"partners": True}),
    ("spin2025", 5, "hoarder", {"wild_spin_cards": 0}),
    ("spin2025", 6, "spin_aware", {}),
    ("spin2025", 10, "tuned", {"hand_size": 5}),
    ("spin2005", 4, "heuristic", {"seven_o": True, "draw_until_playable": True}),
    ("spin2025", 4, "random", {"stacking": True, "jump_in": True}),
    ("spin2025", 3, "heuristic", {"force_play": True, "spin_cards": 9}),
]


@pytest.mark.parametrize(("edition", "players", "strategy", "options"), CASES)
def test_the_published_programs_play_byte_for_byte_as_the_hand_written_spaces(
    edition, players, strategy, options
):
    """Same seeds, same bots: the same log line for line (every random draw and choice
    shows in it), the same result and spin records."""
    spins = Counter()
    CountingRound.ran = 0
    for seed in range(40):
        bots = [
            {"strategy": strategy, "forget": 0.25, "catch": 0.5, "reflex": 1.0 + (i % 3)}
            for i in range(players)
        ]
        opts = R.Options(**options)
        hand_log, prog_log = [], []
        expected = R.play_round(edition, players, seed, opts, bots, hand_log)
        r = CountingRound(edition, players, seed, opts, bots, prog_log, PROGRAMS)
        r.setup()
        r.run()
        assert prog_log == hand_log, (edition, players, strategy, seed)
        assert r.result() == expected, (edition, players, strategy, seed)
        spins.update(expected["spins"])
    assert CountingRound.ran == sum(spins.values()) > 0
    assert set(spins) == set(EXTENDABLE[edition])


# ============================================================ exact states, one step each
def make(edition, hands, top=None, draw=(), seed=0, strategy="heuristic", trace=None, **opts):
    """A ProgramRound in a hand-built state whose space "t" is the program under test."""
    bots = [{"strategy": strategy} for _ in hands]
    r = ProgramRound(edition, len(hands), seed, R.Options(**opts), bots, trace, {})
    r.hands = [list(h) for h in hands]
    top = N(YELLOW, 0) if top is None else top
    r.discard = [top]
    r.colour = top.colour
    r.draw_pile = list(draw)
    return r


def run(r, s, *steps):
    """Seat s's spin lands on a space whose program is ``steps``; returns what the spin
    returns (2005: the seat after which play continues)."""
    r.programs = {"t": [dict(step) for step in steps]}
    r.spin_records.append({"space": "t", "other": -1})
    return r.space_effect(s, "t")


def full(kind, **params):
    """A step with every parameter, as the rules' checks fill them in."""
    defaults = {p.name: p.default for p in STEPS[kind].params if p.default is not REQUIRED}
    return {"step": kind, **defaults, **params}


def test_draw_others_in_turn_order():
    r = make("spin2025", [[N(RED, 1)]] * 3, draw=[N(BLUE, 1), N(GREEN, 2), N(RED, 3)])
    r.direction = -1
    run(r, 0, full("draw", who="others", n=1))
    assert r.hands == [[N(RED, 1)], [N(RED, 1), N(GREEN, 2)], [N(RED, 1), N(RED, 3)]]
    assert r.draw_pile == [N(BLUE, 1)]
    assert r.cards_drawn == [0, 1, 1]


def test_draw_n_by_the_next_player():
    r = make("spin2005", [[N(RED, 1)]] * 3, draw=[N(BLUE, 1), N(GREEN, 2), N(RED, 3)])
    run(r, 1, full("draw", who="next", n=2))
    assert r.hands[2] == [N(RED, 1), N(RED, 3), N(GREEN, 2)]
    assert r.draw_pile == [N(BLUE, 1)] and r.cards_drawn == [0, 0, 2]
    r.direction = -1  # previous: against the direction of play, seat 2 again
    run(r, 1, full("draw", who="previous", n=1))
    assert r.hands[2][3:] == [N(BLUE, 1)] and r.cards_drawn == [0, 0, 3]


PILE = [N(RED, 1), W, N(BLUE, 5), N(GREEN, 3)]  # drawn from the end: G3, B5, W, R1


@pytest.mark.parametrize(
    ("edition", "colour", "wild_stops", "drawn"),
    [
        ("spin2005", "red", "option", 3),  # wild_stops_colour_draw on in 2005: the wild stops
        ("spin2025", "red", "option", 4),  # off in 2025: on to the red card
        ("spin2005", "red", False, 4),
        ("spin2025", "red", True, 3),
        ("spin2025", ["blue", "green"], "option", 1),
        ("spin2025", "blue", "option", 2),
    ],
)
def test_draw_until(edition, colour, wild_stops, drawn):
    r = make(edition, [[N(RED, 9)], [N(RED, 9)]], draw=PILE)
    run(r, 0, full("draw_until", colour=colour, wild_stops=wild_stops))
    assert r.hands[0] == [N(RED, 9)] + PILE[::-1][:drawn]
    assert r.draw_pile == PILE[: 4 - drawn]
    assert r.hands[1] == [N(RED, 9)]


def test_draw_until_a_chosen_colour():
    # heuristic names the colour it holds fewest of, the first on ties: yellow here
    r = make("spin2025", [[N(RED, 9), N(GREEN, 1), N(BLUE, 2)], [N(RED, 9)]])
    r.draw_pile = [N(RED, 1), N(YELLOW, 4), N(BLUE, 5)]
    run(r, 0, full("draw_until", colour="chosen"))
    assert r.hands[0][3:] == [N(BLUE, 5), N(YELLOW, 4)] and r.draw_pile == [N(RED, 1)]


def shuffled(cards, seed=0):
    cards = list(cards)
    random.Random(seed).shuffle(cards)
    return cards


def test_discard_a_colour_on_top():
    # heuristic names the colour whose cards are worth most: red (5 + 1 + 7 + 1)
    r = make("spin2005", [[N(RED, 5), N(BLUE, 1), N(RED, 7)], [N(RED, 9)]], seed=3)
    run(r, 0, full("discard", what="colour"))
    gone = shuffled([N(RED, 5), N(RED, 7)], seed=3)
    assert r.hands[0] == [N(BLUE, 1)]
    assert r.discard == [N(YELLOW, 0), *gone] and r.colour == RED
    assert r.wheel_discards == [2, 0]


def test_discard_a_colour_under_the_pile():
    r = make("spin2025", [[N(RED, 5), N(BLUE, 1), N(RED, 7)], [N(RED, 9)]])
    run(r, 0, full("discard", what="colour", place="under"))
    assert r.hands[0] == [N(BLUE, 1)]
    assert r.discard == [N(RED, 5), N(RED, 7), N(YELLOW, 0)] and r.colour == YELLOW
    assert r.wheel_discards == [2, 0]


def test_discard_a_number():
    # heuristic: count x (number + 1), 7 twice beats 2 once
    r = make("spin2005", [[N(RED, 7), N(GREEN, 2), N(BLUE, 7)], [N(RED, 9)]], seed=1)
    run(r, 0, full("discard", what="number", place="under"))
    assert r.hands[0] == [N(GREEN, 2)]
    assert r.discard == [N(RED, 7), N(BLUE, 7), N(YELLOW, 0)]


def test_discard_one_of_its_choice():
    # heuristic: the most points, a wild counting 0: the Skip
    r = make("spin2005", [[N(RED, 1), SK(BLUE), W], [N(RED, 9)]])
    run(r, 0, full("discard", what="one"))
    assert r.hands[0] == [N(RED, 1), W]
    assert r.discard == [N(YELLOW, 0), SK(BLUE)] and r.colour == BLUE


def test_discard_down_to_keep():
    # heuristic keeps its wilds first (the Wild Draw Four and the Wild), the rest go
    r = make("spin2005", [[N(RED, 1), W, N(BLUE, 2), WD4], [N(RED, 9)]], seed=5)
    run(r, 0, full("discard", what="down_to", keep=2))
    assert r.hands[0] == [W, WD4]
    gone = shuffled([N(RED, 1), N(BLUE, 2)], seed=5)
    assert r.discard == [N(YELLOW, 0), *gone] and r.colour == gone[-1].colour
    # a hand of keep cards or fewer keeps them all
    r = make("spin2005", [[N(RED, 1), W], [N(RED, 9)]])
    run(r, 0, full("discard", what="down_to", keep=2))
    assert r.hands[0] == [N(RED, 1), W] and r.discard == [N(YELLOW, 0)]


def test_a_discard_that_empties_the_hand_wins_the_round():
    r = make("spin2025", [[N(RED, 1), N(RED, 2)], [N(RED, 9)]])
    with pytest.raises(R.RoundOver):
        run(r, 0, full("discard", what="colour", place="under"))
    assert r.winner == 0 and r.hands[0] == []


def test_give_to_the_leader():
    # seat 1 and seat 2 hold two cards each: the nearest in turn order from seat 0 is 1;
    # heuristic gives its card worth most (a wild counts 0)
    hands = [[N(RED, 1), N(BLUE, 8), W], [N(RED, 9)] * 2, [N(GREEN, 9)] * 2, [N(RED, 9)] * 3]
    r = make("spin2025", hands)
    run(r, 0, full("give", to="leader"))
    assert r.hands[0] == [N(RED, 1), W]
    assert r.hands[1] == [N(RED, 9), N(RED, 9), N(BLUE, 8)]
    assert r.spin_records[-1]["other"] == 1
    # the other way round: seat 2 is nearer in turn order
    r = make("spin2025", hands)
    r.direction = -1
    run(r, 0, full("give", to="leader", n=2))
    assert r.hands[0] == [W] and r.hands[2][2:] == [N(BLUE, 8), N(RED, 1)]
    assert r.spin_records[-1]["other"] == 2


def test_giving_the_last_card_wins_the_round():
    r = make("spin2025", [[N(RED, 1)], [N(RED, 9)] * 2])
    with pytest.raises(R.RoundOver):
        run(r, 0, full("give", to="next"))
    assert r.winner == 0 and r.hands[1] == [N(RED, 9), N(RED, 9), N(RED, 1)]


def test_show_hand():
    trace = []
    r = make("spin2005", [[N(RED, 1), W], [N(RED, 9)]], trace=trace)
    before = [list(h) for h in r.hands]
    run(r, 0, full("show_hand"))
    assert r.hands == before and trace[-1].endswith("seat 0 shows: red 1, wild")


def test_swap_hands_with_a_chosen_player_and_with_the_next():
    hands = [[N(RED, 1)] * 3, [N(BLUE, 1)] * 4, [N(GREEN, 1)] * 2]
    r = make("spin2025", hands)
    run(r, 0, full("swap_hands", **{"with": "chosen"}))  # heuristic: the smallest hand
    assert r.hands == [hands[2], hands[1], hands[0]]
    assert r.spin_records[-1]["other"] == 2
    r = make("spin2025", hands)
    run(r, 2, full("swap_hands", **{"with": "next"}))
    assert r.hands == [hands[2], hands[1], hands[0]]


@pytest.mark.parametrize(
    ("direction", "play", "shift", "other"),
    [
        ("clockwise", 1, 1, 1),
        ("counterclockwise", 1, -1, 3),
        ("play", -1, -1, 3),
        ("against_play", -1, 1, 1),
    ],
)
def test_trade_hands(direction, play, shift, other):
    hands = [[N(c, 1)] * (c + 1) for c in range(4)]
    r = make("spin2005", hands)
    r.direction = play
    run(r, 0, full("trade_hands", direction=direction))
    assert r.hands == [hands[(i - shift) % 4] for i in range(4)]
    assert r.spin_records[-1]["other"] == other


def test_skip_in_2005_moves_the_seat_play_continues_after():
    r = make("spin2005", [[N(RED, 1)] * 2] * 4)
    assert run(r, 1, full("skip", players=2)) == 3  # the flow then goes to seat 3 + 1
    assert run(r, 1, full("show_hand")) is None


def test_skip_in_2025_after_the_played_cards_effects():
    r = make("spin2025", [[N(RED, 1)] * 2] * 4)
    r.programs = {"t": [full("skip")]}
    r.spaces, r.weights = ("t",), [1.0]
    r.spin_counts = {"t": 0}
    assert r.spin_then_resolve(0, []) == 2


def test_reverse_and_two_x():
    r = make("spin2025", [[N(RED, 1)] * 2] * 3)
    run(r, 0, full("reverse"), full("two_x"))
    assert r.direction == -1 and r.two_x


def test_war():
    r = make("spin2005", [[N(RED, 9), N(BLUE, 1)], [N(GREEN, 5)], [SK(RED)]])
    assert run(r, 1, full("war")) == 0
    assert r.hands == [[N(BLUE, 1)], [N(GREEN, 5)], [SK(RED)]]
    assert r.discard[-1] == N(RED, 9) and r.spin_records[-1]["other"] == 0


def test_uno_spin_race_and_the_other_party():
    r = make("spin2005", [[N(RED, 1), N(RED, 8)], [N(BLUE, 2), SK(GREEN)], [N(RED, 3)] * 2])
    for b, reflex in zip(r.bots, (0.0, 1.0, 0.0)):
        b["reflex"] = reflex
    after = run(r, 0, full("uno_spin_race"), full("discard", who="other", what="one"))
    assert after == 1 and r.spin_records[-1]["other"] == 1
    assert r.hands[1] == [N(BLUE, 2)] and r.discard[-1] == SK(GREEN)


def test_other_names_nobody_after_a_war_without_winner():
    r = make("spin2005", [[SK(RED)] * 2, [W] * 2])
    assert run(r, 0, full("war"), full("draw", who="other", n=1)) is None
    assert r.cards_drawn == [0, 0]


def test_repeat():
    r = make("spin2025", [[N(RED, 1)]] * 2, draw=[N(BLUE, 1), N(GREEN, 2), N(RED, 3)])
    run(r, 0, full("repeat", times=2, steps=[full("draw", n=1)]))
    assert r.hands[0] == [N(RED, 1), N(RED, 3), N(GREEN, 2)]


def test_every_step_kind_and_player_has_an_exact_state_test():
    text = Path(__file__).read_text()
    for kind in STEPS:
        assert f'full("{kind}"' in text, kind
    for word in PLAYERS:
        assert f'"{word}"' in text, word


# ============================================================ variant files
EXAMPLE_NAMES = ["everyone_draws_one", "give_away", "more_spaces", "spin2025_plus_two"]


def test_the_examples_are_the_listed_ones():
    assert sorted(p.stem for p in EXAMPLES.glob("*.toml")) == EXAMPLE_NAMES


@pytest.mark.parametrize("name", EXAMPLE_NAMES)
def test_the_examples_load_and_play(name):
    v = load_variant(EXAMPLES / f"{name}.toml")
    assert len(v.content_hash) == 64 and v.text.startswith("#")
    programs = {s.name: s.as_dicts() for s in v.spaces}
    for wheel in v.wheels:
        spins = Counter()
        for seed in range(20):
            bots = [{"strategy": ("random", "heuristic")[seed % 2]} for _ in range(4)]
            r = ProgramRound(
                wheel.edition, 4, seed, None, bots, None, programs, dict(wheel.weights)
            )
            r.setup()
            r.run()
            assert sorted(map(repr, r.all_cards())) == sorted(map(repr, r.deck))
            spins.update(r.result()["spins"])
        assert set(spins) == {s for s, _ in wheel.weights}
        assert all(spins[s.name] > 0 for s in v.spaces)


def test_the_spin2025_example_adds_both_spaces_to_the_published_ones():
    v = load_variant(EXAMPLES / "spin2025_plus_two.toml")
    (wheel,) = v.wheels
    assert wheel.edition == "spin2025"
    assert dict(wheel.weights) == {
        **dict.fromkeys(SPACES_2025, 1),
        **dict.fromkeys(("everyone_draws_one", "give_away"), 1),
    }
    res = play_program_round(
        "spin2025", 3, 7, {s.name: s.as_dicts() for s in v.spaces}, dict(wheel.weights)
    )
    assert set(res["spins"]) == set(dict(wheel.weights))


def test_the_content_hash_is_of_the_content_not_the_spelling(tmp_path):
    a = tmp_path / "a.toml"
    b = tmp_path / "b.toml"
    a.write_text(
        '[spaces.x]\ntitle = "X"\ndescription = "x"\nprogram = [{ step = "draw", n = 1 }]\n'
    )
    b.write_text(
        "# a comment\n[spaces.x]\nprogram = [ {step='draw', n=1, who='spinner'} ]\n"
        "description = 'x'\ntitle = 'X'\n"
    )
    assert load_variant(a).content_hash == load_variant(b).content_hash
    b.write_text(b.read_text().replace("n=1", "n=2"))
    assert load_variant(a).content_hash != load_variant(b).content_hash


SPACE = '[spaces.{name}]\ntitle = "T"\ndescription = "d"\nprogram = [{program}]\n'


def space(program, name="s1"):
    return SPACE.format(name=name, program=program)


WHEEL = '[wheels.w1]\nedition = "{edition}"\nweights = {{ {weights} }}\n'
GOOD = space('{ step = "draw", n = 1 }')

BAD = [
    # (file text, words the one-line message holds: the space or wheel and the problem)
    (space('{ step = "dance" }'), ["space 's1'", "unknown step 'dance'"]),
    (space('{ step = "draw", who = "dealer", n = 1 }'), ["space 's1'", "unknown player 'dealer'"]),
    (space('{ step = "draw" }'), ["space 's1'", "step 1 (draw)", "missing field 'n'"]),
    (space("{ n = 1 }"), ["space 's1'", "missing field 'step'"]),
    ('[spaces.s1]\ntitle = "T"\ndescription = "d"\n', ["space 's1'", "missing field 'program'"]),
    (
        '[spaces.s1]\ntitle = "T"\nprogram = [{ step = "draw", n = 1 }]\n',
        ["space 's1'", "missing field 'description'"],
    ),
    (space('{ step = "draw", n = "two" }'), ["space 's1'", "n must be a whole number"]),
    (space('{ step = "draw", n = 1.0 }'), ["space 's1'", "n must be a whole number"]),
    (space('{ step = "draw", n = 0 }'), ["space 's1'", "n must be 1..20"]),
    (space('{ step = "draw", n = 1, m = 2 }'), ["space 's1'", "unknown parameter 'm'"]),
    (space('{ step = "discard", what = "all" }'), ["space 's1'", "what must be one of"]),
    (space('{ step = "discard", what = "colour", keep = 2 }'), ["space 's1'", "keep is given"]),
    (space('{ step = "discard", what = "down_to" }'), ["space 's1'", "keep is given"]),
    (
        space('{ step = "draw_until", colour = "purple" }'),
        ["space 's1'", "unknown colour 'purple'"],
    ),
    (
        space('{ step = "draw_until", colour = "red", wild_stops = "yes" }'),
        ["space 's1'", "wild_stops must be"],
    ),
    (
        space('{ step = "draw", who = "chosen", n = 1 }'),
        ["space 's1'", "names only the other party"],
    ),
    (space('{ step = "give", to = "others" }'), ["space 's1'", "the other party is one player"]),
    (space('{ step = "swap_hands", with = "spinner" }'), ["space 's1'", "the same player"]),
    (
        space('{ step = "give", who = "others", to = "leader" }'),
        ["space 's1'", "acts on one player"],
    ),
    (
        space('{ step = "draw", who = "other", n = 1 }'),
        ["space 's1'", "before any step names another party"],
    ),
    (
        space('{ step = "repeat", steps = [{ step = "draw", n = 1 }] }'),
        ["space 's1'", "could loop forever"],
    ),
    (
        space('{ step = "repeat", times = 11, steps = [{ step = "draw", n = 1 }] }'),
        ["space 's1'", "times must be 1..10"],
    ),
    (
        space('{ step = "repeat", times = 2, steps = [{ step = "nap" }] }'),
        ["space 's1'", "steps step 1", "unknown step 'nap'"],
    ),
    (
        space(
            '{ step = "repeat", times = 10, steps = [{ step = "repeat", times = 10, '
            'steps = [{ step = "draw", n = 1 }, { step = "show_hand" }] }] }'
        ),
        ["space 's1'", "runs 200 steps once its repeats are written out; at most 100"],
    ),
    (space('{ step = "draw_until", colour = [] }'), ["space 's1'", "could loop forever"]),
    (
        space('{ step = "draw_until", colour = [], wild_stops = false }'),
        ["space 's1'", "could loop forever"],
    ),
    (SPACE.format(name="s1", program=""), ["space 's1'", "non-empty list"]),
    (space('{ step = "draw", n = 1 }', name="war"), ["space 'war'", "a published space"]),
    (
        GOOD + WHEEL.format(edition="classic", weights="s1 = 1"),
        ["wheel 'w1'", "'classic' has no wheel"],
    ),
    (
        GOOD + WHEEL.format(edition="spiderman", weights="s1 = 1"),
        ["wheel 'w1'", "'spiderman' has no wheel"],
    ),
    (
        GOOD + WHEEL.format(edition="spin2025", weights="s1 = 1.5"),
        ["wheel 'w1'", "space 's1'", "weight must be a whole number"],
    ),
    (
        GOOD + WHEEL.format(edition="spin2025", weights="s1 = true"),
        ["wheel 'w1'", "space 's1'", "weight must be a whole number"],
    ),
    (
        GOOD + WHEEL.format(edition="spin2025", weights="s1 = -1"),
        ["wheel 'w1'", "space 's1'", "weight must be >= 0"],
    ),
    (
        GOOD + WHEEL.format(edition="spin2025", weights="s1 = 0"),
        ["wheel 'w1'", "must not all be 0"],
    ),
    (
        GOOD + WHEEL.format(edition="spin2025", weights="war = 1"),
        ["wheel 'w1'", "space 'war'", "not a space of the spin2025 wheel"],
    ),
    (GOOD + "[wheels.w1]\nweights = { s1 = 1 }\n", ["wheel 'w1'", "missing field 'edition'"]),
    (
        space('{ step = "two_x" }') + WHEEL.format(edition="spin2005", weights="s1 = 1"),
        ["wheel 'w1'", "space 's1'", "spin2025 wheels only"],
    ),
    (GOOD + "[deck]\nwilds = 8\n", ["unknown table 'deck'"]),
    ("[spaces.s1\n", ["not valid TOML"]),
    ("", ["holds no space and no wheel"]),
]


@pytest.mark.parametrize(("text", "words"), BAD)
def test_a_bad_variant_file_is_one_line_naming_file_space_and_problem(tmp_path, text, words):
    path = tmp_path / "bad_variant.toml"
    path.write_text(text)
    with pytest.raises(RuleError) as info:
        load_variant(path)
    message = str(info.value)
    assert "\n" not in message
    assert message.startswith(f"{path}: "), message
    for word in words:
        assert word in message, (word, message)


def test_a_missing_variant_file(tmp_path):
    with pytest.raises(RuleError, match=r"nope\.toml: cannot read the variant file"):
        load_variant(tmp_path / "nope.toml")


def test_the_vocabulary_is_data():
    """Every parameter has a kind the checks know, a default or none, and a doc line."""
    for kind in STEPS.values():
        assert kind.doc and "\n" not in kind.doc
        for p in kind.params:
            assert p.kind in (
                "actor",
                "one",
                "target",
                "int",
                "word",
                "colours",
                "wild_stops",
                "steps",
            )
            assert p.doc
            if p.kind == "word":
                assert p.default is REQUIRED or p.default in p.words
    assert all(PLAYERS[w].doc for w in PLAYERS)


def test_the_docs_describe_every_step_and_player():
    text = (REPO / "docs" / "WHEEL_PROGRAMS.md").read_text(encoding="utf-8")
    for kind in STEPS.values():
        assert f"| `{kind.name}` |" in text, kind.name
        for p in kind.params:
            assert f"`{p.name}`" in text, (kind.name, p.name)
    for word in PLAYERS:
        assert f"| `{word}` |" in text, word
    for name in SPACE_NAMES:
        assert f"`{name}`" in text or name.startswith("color_draw_"), name


def test_every_step_with_parameters_serves_two_spaces_or_more():
    """Issue 51: no step is one published space's but War and the UNO Spin race; each
    parameterised step serves at least two spaces (published or shipped examples)."""
    spaces = dict(published_programs())
    for name in EXAMPLE_NAMES:
        spaces.update({s.name: s for s in load_variant(EXAMPLES / f"{name}.toml").spaces})

    def kinds(steps):
        for step in steps:
            yield step.kind
            if step.kind == "repeat":
                yield from kinds(step.get("steps"))

    served = {
        kind: {n for n, s in spaces.items() if kind in set(kinds(s.program))} for kind in STEPS
    }
    for kind in STEPS.values():
        if kind.params:
            assert len(served[kind.name]) >= 2, (kind.name, served[kind.name])
        else:
            assert served[kind.name], kind.name


def test_the_more_spaces_play_on_a_2025_wheel_too():
    """The same programs on a spin2025 wheel (skip and reverse after a Spin card's own
    effects): every round keeps every card and ends."""
    v = load_variant(EXAMPLES / "more_spaces.toml")
    programs = {s.name: s.as_dicts() for s in v.spaces}
    wheel = dict.fromkeys(programs, 1)
    spins = Counter()
    for seed in range(30):
        r = ProgramRound("spin2025", 3 + seed % 3, seed, None, None, None, programs, wheel)
        r.setup()
        r.run()
        assert r.winner >= 0
        assert sorted(map(repr, r.all_cards())) == sorted(map(repr, r.deck))
        spins.update(r.result()["spins"])
    assert set(spins) == set(programs) and min(spins.values()) > 0


def test_a_program_round_refuses_a_wheel_it_cannot_play():
    with pytest.raises(ValueError, match="no wheel to extend"):
        ProgramRound("classic", 3, 0, None, None, None, {}, {"x": 1})
    with pytest.raises(ValueError, match="neither a spin2025 space nor a program"):
        ProgramRound("spin2025", 3, 0, None, None, None, {}, {"war": 1})
    with pytest.raises(ValueError, match="whole number"):
        ProgramRound("spin2025", 3, 0, None, None, None, {}, {"two_x": 0.5})
