"""The ``spin_aware`` strategy (docs/BOTS.md) in the plain-Python reference engine: the
positions of tests/test_strategies.py, each with the card the kernel's spin_aware
(engine/policy/spin_aware.py) picks there; the 2005 estimate of the next player's colours
from its hand size only; and random positions on which the two implementations must pick
the same card. Cross-checks of whole rounds: tests/test_crosscheck.py (``-k spin_aware``,
slow tier) and tests/crosscheck_powered.py (``spin_aware`` configurations)."""

import numpy as np
import pytest
from refkit import BLUE, GREEN, RED, SP, YELLOW, N, make, one_action
from statekit import Game

from unospin_sim import reference as R
from unospin_sim.engine import kernel as K
from unospin_sim.engine import layout as L
from unospin_sim.engine.policy import spin_aware as SA
from unospin_sim.reference.choices import SPIN_WEIGHT, expected_largest_colour
from unospin_sim.rules.cards import KIND_NAMES
from unospin_sim.rules.spaces import SPACE_ID

SPA = dict(strategy="spin_aware")
HEU = dict(strategy="heuristic")
BY_NAME = {R.card_name(c): c for e in ("spin2005", "spin2025") for c in R.build_deck(e)}


def ref_card(r, s=0):
    """Name of the card seat s of the reference round r plays now (None: it draws)."""
    i = r.pick(s, {"bluff": None})
    return None if i is None else R.card_name(r.hands[s][i])


def engine_card(g, p=0, wd4_ok=True):
    k = K.choose_card(g.st, g.r, g.pts, g.cum, g.bots, p, wd4_ok)
    return None if k < 0 else KIND_NAMES[k]


def both(edition, strategy, hands, top, wheel, direction=1, knobs=None):
    """The same position in the kernel (statekit.Game) and in the reference: ``hands`` card
    names per seat, ``wheel`` {space: weight}, ``knobs`` {knob: value} for every seat."""
    players = len(hands)
    knobs = knobs or {}
    text = ",".join(f"{k}={v}" for k, v in knobs.items())
    g = Game(f"{edition}(players={players})", f"{strategy}({text})" if text else strategy)
    w = np.zeros_like(g.cum)
    for space, weight in wheel.items():
        w[SPACE_ID[space]] = weight
    g.cum = np.cumsum(w)
    for p, names in enumerate(hands):
        g.give(p, *names)
    g.top(top)
    g.set(L.S_DIR, direction)
    r = make(
        edition,
        [[BY_NAME[n] for n in names] for names in hands],
        BY_NAME[top],
        bots=[dict(strategy=strategy, **knobs)] * players,
        wheel=wheel,
    )
    r.direction = direction
    return g, r


def test_expected_largest_colour_is_the_kernels_table():
    """Computed here colour by colour over exact counts (the kernel: P(max > m) summed):
    the same expectations, to rounding; a hand larger than the deck counts as the deck."""
    for h in range(L.MAX_CARDS + 1):
        assert expected_largest_colour(h) == pytest.approx(SA.EXPECTED_MOST[h], abs=1e-12), h
    assert expected_largest_colour(0) == 0.0 and expected_largest_colour(1) == 100 / 108
    assert expected_largest_colour(108) == expected_largest_colour(112) == 25.0


# ------------------------------------------------------------ tests/test_strategies.py
def _spin25(strategy, space):
    return both(
        "spin2025",
        strategy,
        [
            ["red spin 1", "red 9", "red 8", "blue 7"],
            ["yellow 1", "yellow 2"],
            ["green 1", "green 2"],
        ],
        "red 4",
        {space: 1},
    )


@pytest.mark.parametrize(
    "strategy, space, card",
    [
        # Color Discard only: the spinner (itself) sheds its 3 red cards: 1 + 6 + 15 x 3
        ("spin_aware", "color_discard", "red spin 1"),
        # Color Draw red only: it would draw (1 + 6 - 15 x 3.5); it holds the Spin card
        ("spin_aware", "color_draw_red", "red 9"),
        ("heuristic", "color_discard", "red 9"),
    ],
)
def test_2025_plays_its_spin_card_when_the_wheel_helps_it(strategy, space, card):
    g, r = _spin25(strategy, space)
    assert ref_card(r) == engine_card(g) == card


def _spin05(strategy, space, next_cards):
    return both(
        "spin2005",
        strategy,
        [
            ["red spin 1", "red 9", "red 8", "blue 7"],
            ["yellow %d" % i for i in range(next_cards)],
            ["green %d" % i for i in range(6)],
        ],
        "red 4",
        {space: 1},
    )


@pytest.mark.parametrize(
    "strategy, space, next_cards, card",
    [
        # the NEXT player spins: Draw Red hurts it and costs its turn, and it leads (3
        # cards against 6): 1 + 6 + 2 x 15 x (2.5 + 1)
        ("spin_aware", "draw_red", 3, "red spin 1"),
        # Almost UNO would leave the next player (7 cards, not the leader) with two:
        # 1 + 6 + 15 x (-5 + 1)
        ("spin_aware", "almost_uno", 7, "red 9"),
        ("heuristic", "draw_red", 3, "red 9"),
    ],
)
def test_2005_makes_the_next_player_spin_when_it_hurts_them(strategy, space, next_cards, card):
    g, r = _spin05(strategy, space, next_cards)
    assert ref_card(r) == engine_card(g) == card


def test_swaps_with_the_leader():
    hands = [
        ["red spin 1", "red 9", "red 8", "blue 7", "blue 8"],
        ["yellow 1", "yellow 2", "yellow 3"],
        ["green 1"],
        ["blue 1", "blue 2"],
    ]
    g, r = both("spin2025", "spin_aware", hands, "red 4", {"swap_hands": 1})
    # a swap gives it the 1-card hand: 1 + 6 + 15 x 4 against red 9's 9 + 6
    assert ref_card(r) == engine_card(g) == "red spin 1"
    g.turn(0)
    one_action(r, 0)
    assert [R.card_name(c) for c in r.hands[0]] == g.hand(0) == ["green 1"]
    assert [R.card_name(c) for c in r.hands[2]] == ["red 9", "red 8", "blue 7", "blue 8"]


# ------------------------------------------------------------ what the seat may know
NEXT_HANDS = {  # the next player's 6 cards, seen only as a hand of 6
    "six reds": [N(RED, k) for k in range(6)],
    "mixed": [N(RED, 1), N(RED, 2), N(YELLOW, 3), N(YELLOW, 4), N(GREEN, 5), N(BLUE, 6)],
}


@pytest.mark.parametrize("name", NEXT_HANDS)
def test_2005_estimates_the_next_players_colours_from_its_hand_size(name):
    """Discard Color and Draw Red, equally weighted; the next player holds 6 cards, seat 2
    fewer (the next player is not the leader). The Spin card scores 5 + 2 x 3 + 15 x ((2.5 -
    most) / 2 + 1) against the red 7's 7 + 2 x 3. Reading the next player's largest colour
    (the old spin_aware) made it 29.75 against 13 for the mixed hand (most 2: play it) and
    -0.25 for six reds (most 6: hold it). Both hands now count as the expected largest
    colour of a hand of 6, 2.63: 25.05, the Spin card, whatever the colours."""
    wheel = {"discard_color": 1, "draw_red": 1}
    hands = [[SP(RED, 5), N(RED, 7), N(RED, 6), N(GREEN, 9)], NEXT_HANDS[name], [N(BLUE, 1)] * 3]
    r = make("spin2005", hands, N(RED, 4), bots=[SPA] * 3, wheel=wheel)
    most = expected_largest_colour(6)
    assert 2.62 < most < 2.63
    assert r.spin_bonus(0) == SPIN_WEIGHT * ((2.5 - most) / 2 + 1.0)
    g, _ = both(
        "spin2005", "spin_aware", [[R.card_name(c) for c in h] for h in hands], "red 4", wheel
    )
    assert ref_card(r) == engine_card(g) == "red spin 5"
    old = 11 + SPIN_WEIGHT * ((2.5 - max(r.colour_counts(1))) / 2 + 1.0)
    assert (old > 13) == (name == "mixed")  # the choice the old code made differed


def test_2025_reads_its_own_colours():
    """In 2025 the deciding seat spins itself: its own largest colour, not an estimate."""
    hands = [[SP(RED, 1), N(RED, 2), N(RED, 3), N(RED, 5), N(RED, 6)], [N(BLUE, 1)] * 5]
    r = make("spin2025", hands, N(RED, 4), bots=[SPA, HEU], wheel={"color_discard": 1})
    assert r.spin_bonus(0) == SPIN_WEIGHT * 5


def test_without_a_wheel_it_plays_as_heuristic():
    for edition in ("classic", "spiderman"):
        for seed in range(4):
            a = R.play_round(edition, 4, seed, bots=[SPA, dict(strategy="random")] * 2)
            b = R.play_round(edition, 4, seed, bots=[HEU, dict(strategy="random")] * 2)
            assert a == b


def test_rounds_conserve_cards_and_end():
    for edition in ("spin2005", "spin2025"):
        for seed in range(5):
            r = R.Round(edition, 4, seed, bots=[SPA, HEU, SPA, {}])
            r.setup()
            r.run()
            assert r.winner >= 0
            assert sorted(map(R.card_order, r.all_cards())) == sorted(
                map(R.card_order, R.build_deck(edition))
            )


# ------------------------------------------------------------ random positions
SKILLS_DENIED = [{}, {"attack": 0}, {"hold_wilds": 0}, {"value_wheel": 0}]


@pytest.mark.parametrize("knobs", SKILLS_DENIED, ids=lambda k: ",".join(k) or "full")
def test_random_positions_pick_the_kernels_card(knobs):
    """Random hands (1-12 cards for seat 0, 1-8 for the others, 2-5 players), tops, colours,
    directions and integer wheel weights of either Spin edition: the reference picks the
    kind the kernel's spin_aware picks (scan order and ties included), a Wild Draw Four
    only when legal; with every skill, and with each card skill denied (restricted play)."""
    rng = np.random.default_rng(47)
    mismatches, spins_played = [], 0
    for trial in range(600 if not knobs else 200):
        edition = ("spin2005", "spin2025")[trial % 2]
        deck = sorted(set(R.build_deck(edition)), key=R.card_order)
        spaces = R.WHEELS[edition]
        wheel = {}
        while not wheel:
            wheel = {s: int(w) for s, w in zip(spaces, rng.integers(0, 3, len(spaces))) if w}
        players = int(rng.integers(2, 6))
        sizes = [int(rng.integers(1, 13))] + [int(rng.integers(1, 9)) for _ in range(players - 1)]
        hands = [[R.card_name(deck[i]) for i in rng.integers(0, len(deck), n)] for n in sizes]
        top = R.card_name(deck[int(rng.integers(0, len(deck)))])
        g, r = both(edition, "spin_aware", hands, top, wheel, int(rng.choice([1, -1])), knobs)
        if BY_NAME[top].colour is None:
            r.colour = int(rng.integers(0, 4))
            g.top(top, r.colour)
        wd4_ok = R.wd4_legal(r.hands[0], r.colour, r.wmc)
        want = engine_card(g, 0, wd4_ok)
        got = ref_card(r)
        spins_played += want is not None and "spin" in want
        if got != want:
            mismatches.append((trial, edition, wheel, hands, top, r.colour, want, got))
    assert not mismatches, mismatches[:3]
    assert spins_played > (60 if not knobs else 10)  # the spin bonus decided a share of them
