"""The deck's copies and the card points as rule options (docs/HOUSE_RULES.md "The deck's
numbers"): ``skip_cards``, ``reverse_cards``, ``draw_two_cards``, ``wild_cards``,
``wd4_cards`` and ``points``. The deck's composition and a round's winner points as exact
states in both engines, the extremes the options allow (the largest deck fits MAX_CARDS and
plays to the end with every card kept, a deck with no action card, a deal refused), and the
designer varying the deck's numbers."""

from __future__ import annotations

import hashlib
from collections import Counter

import numpy as np
import pandas as pd
import pytest
from refkit import BLUE, GREEN, RED, YELLOW, N, make, one_action
from statekit import Game

from unospin_sim import reference as R
from unospin_sim.bots import parse_bots
from unospin_sim.engine import kernel as K
from unospin_sim.engine import layout as L
from unospin_sim.engine.encode import encode, most_table
from unospin_sim.engine.policy.spin_aware import expected_most
from unospin_sim.errors import RuleError
from unospin_sim.reference.choices import expected_largest_colour
from unospin_sim.rules import RuleSet, parse_rules
from unospin_sim.rules import space_codes as sp
from unospin_sim.rules.cards import KIND_NAMES
from unospin_sim.rules.editions import EDITIONS, POINTS

COPIES = ("skip_cards", "reverse_cards", "draw_two_cards", "wild_cards", "wd4_cards")
MOST = dict(skip_cards=4, reverse_cards=4, draw_two_cards=4, wild_cards=8, wd4_cards=8)
NONE = dict.fromkeys(COPIES, 0)


def ref_options(rules: RuleSet) -> R.Options:
    """The reference Options of a rule set's deck (its copies, special wilds, Wild Spins,
    points and hand size)."""
    kw = {n: rules.option(n) for n in (*COPIES, "hand_size")}
    for name in ("special_wilds", "wild_spin_cards", "spin_cards"):
        if name in rules.edition_data.options:
            kw[name] = rules.option(name)
    kw["points"] = dict(rules.option("points"))
    return R.Options(**kw)


# =========================================================================== the options
def test_defaults_leave_every_published_deck_and_string_unchanged():
    sizes = {"classic": 108, "spin2005": 108, "spin2025": 112, "spiderman": 112}
    for name in EDITIONS:
        base = RuleSet.build(name)
        spelled = RuleSet.build(
            name, skip_cards=2, reverse_cards=2, draw_two_cards=2, wild_cards=4, wd4_cards=4
        )
        assert spelled == base and str(spelled) == f"{name}(players=4)"
        assert base.deck_size() == sizes[name]
        np.testing.assert_array_equal(base.points(), POINTS)
        assert str(base.replace(points={"skip": 20})) == f"{name}(players=4)"


def test_points_string_is_canonical():
    rules = parse_rules("classic(points={wild:40, skip:30},skip_cards=1)")
    assert str(rules) == "classic(players=4,skip_cards=1,points={skip:30,wild:40})"
    assert parse_rules(str(rules)) == rules
    assert parse_rules("classic(skip_cards=1,points={wild=40,skip=30})") == rules
    assert rules.option("points")["wild_draw_four"] == 50
    pts = rules.points()
    assert [int(pts[KIND_NAMES.index(f"{c} skip")]) for c in ("red", "blue")] == [30, 30]
    assert int(pts[KIND_NAMES.index("wild")]) == 40
    assert int(pts[KIND_NAMES.index("red 7")]) == 7
    assert int(pts[KIND_NAMES.index("wild draw four")]) == 50
    spin = parse_rules("spin2025(points={wild_spin:5})").points()
    assert int(spin[KIND_NAMES.index("wild spin")]) == 5
    assert int(spin[KIND_NAMES.index("red spin 3")]) == 3  # Spin cards keep their face


@pytest.mark.parametrize(
    "text, words",
    [
        ("classic(skip_cards=5)", "skip_cards"),
        ("classic(reverse_cards=-1)", "reverse_cards"),
        ("classic(wild_cards=9)", "wild_cards"),
        ("classic(wd4_cards=9)", "wd4_cards"),
        ("classic(rlcard=true,wild_cards=3)", "rlcard"),
        ("classic(points={wild_spin:10})", "wild_spin"),
        ("spin2005(points={wild_web_swing:10})", "wild_web_swing"),
        ("classic(points={skip:1001})", "points.skip"),
        ("classic(points={skip:ten})", "points.skip"),
        ("classic(points={skip:1,skip:2})", "twice"),
        ("classic(points={})", "empty"),
        ("classic(points={skip})", "malformed"),
    ],
)
def test_bad_values_refused_in_one_line(text, words):
    with pytest.raises(RuleError) as e:
        parse_rules(text)
    assert "\n" not in str(e.value) and words in str(e.value)


def test_a_deal_the_deck_cannot_serve_is_refused():
    with pytest.raises(RuleError) as e:
        RuleSet.build("classic", players=10, hand_size=8, **NONE)
    text = str(e.value)
    assert "\n" not in text and "hand_size=8" in text and "76 cards" in text
    assert "skip_cards=0" in text and "at most 7 each" in text
    RuleSet.build("classic", players=10, hand_size=7, **NONE)  # 70 of 76: served
    with pytest.raises(ValueError, match="hand_size"):
        R.Round("classic", 10, 0, R.Options(hand_size=8, **NONE))


@pytest.mark.parametrize(
    "options",
    [dict(skip_cards=5), dict(wild_cards=-1), dict(wd4_cards=True), dict(points={"skip": -1})],
)
def test_reference_refuses_out_of_range(options):
    with pytest.raises(ValueError):
        R.Round("classic", 4, 0, R.Options(**options))
    with pytest.raises(ValueError, match="wild_spin"):
        R.Round("classic", 4, 0, R.Options(points={"wild_spin": 3}))


# =========================================================================== the deck
@pytest.mark.parametrize(
    "text",
    [
        "classic(skip_cards=1,reverse_cards=0,draw_two_cards=4,wild_cards=8,wd4_cards=0)",
        "classic(special_wilds=swap_hands,wild_cards=1,wd4_cards=7)",
        "spin2005(skip_cards=3,reverse_cards=1,spin_cards=7)",
        "spin2025(draw_two_cards=0,wild_cards=2,wd4_cards=6,wild_spin_cards=1)",
        "spiderman(skip_cards=4,reverse_cards=4,draw_two_cards=4,wild_cards=8,wd4_cards=8)",
        "spiderman(skip_cards=0,reverse_cards=0,draw_two_cards=0,wild_cards=0,wd4_cards=0)",
    ],
)
def test_deck_composition_in_both_engines(text):
    rules = parse_rules(text)
    deck = encode(rules, parse_bots("random", rules.players)).deck
    kernel = Counter(KIND_NAMES[k] for k in deck)
    for colour in ("red", "yellow", "green", "blue"):
        for kind in ("skip", "reverse", "draw_two"):
            assert kernel[f"{colour} {kind.replace('_', ' ')}"] == rules.option(f"{kind}_cards")
    assert kernel["wild"] == rules.option("wild_cards")
    assert kernel["wild draw four"] == rules.option("wd4_cards")
    numbers = sum(n for name, n in kernel.items() if name.split()[-1].isdigit())
    assert numbers == 76  # the number cards (Spin cards included) never change
    ref = R.Round(rules.edition, rules.players, 0, ref_options(rules)).deck
    assert Counter(R.card_name(c) for c in ref) == kernel


# ================================================= spin_aware's estimate from the deck
#: sha256 of spin_aware's table before it came from the run's deck (the module constant
#: EXPECTED_MOST = expected_most(25, 8, MAX_CARDS)): the published classic and 2005 decks
PUBLISHED_MOST_SHA256 = "89d874067e7ebbac1dc6c9e0352bba80c34ead026d796c22f50bcb2045e867a6"


def test_published_decks_keep_spin_awares_table():
    """classic and spin2005 (25 cards a colour, 8 wilds) encode the table of the old
    constant byte for byte; spin2025 and spiderman (12 wilds) encode their own deck's,
    which no published rule set reads (the 2005 wheel alone estimates a hidden hand)."""
    for name in EDITIONS:
        rules = RuleSet.build(name)
        ki = encode(rules, parse_bots("spin_aware", rules.players))
        cum = ki.wheel_cum
        assert cum.shape == (L.N_CUM,) and cum.dtype == np.float64
        table = cum[L.CUM_MOST :]
        np.testing.assert_array_equal(table, most_table(rules))
        weights = np.cumsum(rules.wheel_weights())
        wheel = weights if weights[-1] > 0 else np.ones(L.CUM_MOST)
        np.testing.assert_array_equal(cum[: L.CUM_MOST], wheel)
        digest = hashlib.sha256(table.tobytes()).hexdigest()
        if name in ("classic", "spin2005"):
            assert digest == PUBLISHED_MOST_SHA256, name
        else:
            assert digest != PUBLISHED_MOST_SHA256, name
            np.testing.assert_array_equal(table, expected_most(25, 12, L.MAX_CARDS))
            assert rules.wheel_family != sp.WHEEL_2005
    assert RuleSet.build("spin2005").wheel_family == sp.WHEEL_2005
    assert most_table(RuleSet.build("spin2005"))[[4, 8]].round(2).tolist() == [1.97, 3.27]


@pytest.mark.parametrize(
    "text, per_colour, wilds",
    [
        ("spin2005(wild_cards=0,wd4_cards=0)", 25, 0),
        ("spin2005(skip_cards=4)", 27, 8),
        ("classic(skip_cards=4)", 27, 8),
        ("spin2025(skip_cards=4,wild_spin_cards=1)", 27, 9),
        (
            "spin2005(skip_cards=4,reverse_cards=4,draw_two_cards=4,wild_cards=8,wd4_cards=8)",
            31,
            16,
        ),
        ("spin2005(skip_cards=0,reverse_cards=0,draw_two_cards=0,wild_cards=0,wd4_cards=0)", 19, 0),
    ],
)
def test_spin_awares_table_is_the_decks_in_both_engines(text, per_colour, wilds):
    """The encoded table is expected_most of the deck's cards a colour and its wilds,
    exactly, and differs from the published one; the reference counts the same deck and
    computes the same expectations (its own way) to rounding."""
    rules = parse_rules(text)
    table = encode(rules, parse_bots("spin_aware", rules.players)).wheel_cum[L.CUM_MOST :]
    np.testing.assert_array_equal(table, expected_most(per_colour, wilds, L.MAX_CARDS))
    assert hashlib.sha256(table.tobytes()).hexdigest() != PUBLISHED_MOST_SHA256
    deck = 4 * per_colour + wilds
    assert table[0] == 0.0 and table[deck] == table[L.MAX_CARDS] == per_colour
    ref = R.Round(rules.edition, rules.players, 0, ref_options(rules))
    assert ref.deck_colours == (per_colour, wilds)
    for h in (1, 4, 6, 9, 20, deck - 1, deck):
        assert expected_largest_colour(h, *ref.deck_colours) == pytest.approx(table[h], abs=1e-12)


def test_kernel_refuses_a_cum_without_the_table():
    """The kernel reads cum[CUM_MOST + h] unchecked: an array of the wheel's weights alone
    is refused at the entry point, before any compiled code runs."""
    rules = parse_rules("spin2005")
    r, deck, pts, cum, bots = encode(rules, parse_bots("spin_aware", 4)).args()
    out = np.zeros((1, L.n_out_columns(4)), np.int64)
    with pytest.raises(ValueError, match=f"float64\\[{L.N_CUM}\\]"):
        K.play_chunk(r, deck, pts, cum[: L.CUM_MOST], bots, 0, 0, out, np.zeros(1, np.int64), False)


def test_the_largest_deck_fits_max_cards():
    sizes = {}
    for name in EDITIONS:
        extra = {"special_wilds": "swap_hands"} if name == "classic" else {}
        sizes[name] = RuleSet.build(name, **MOST, **extra).deck_size()
    assert sizes == {"classic": 141, "spin2005": 140, "spin2025": 144, "spiderman": 144}
    assert max(sizes.values()) == L.MAX_CARDS


def play(text, bots="random", n=12, seed=3):
    """``n`` rounds of ``text`` with the invariant check on (every card of the deck in
    exactly one place after every action); their output rows."""
    rules = parse_rules(text)
    r, deck, pts, cum, b = encode(rules, parse_bots(bots, rules.players), check=True).args()
    out = np.zeros((n, L.n_out_columns(rules.players)), np.int64)
    K.play_chunk(r, deck, pts, cum, b, seed, 0, out, np.zeros(n, np.uint64), False)
    assert (out[:, L.O_VIOLATIONS] == 0).all()
    assert (out[:, L.O_WINNER] >= 0).all()  # every round played to its end
    return out


@pytest.mark.parametrize(
    "text",
    [
        # the largest deck (144 cards) dealt the most it can deal: 7 each to 10 players
        # (68 non-number cards may be set aside before a number card turns up)
        "spin2025(players=10,hand_size=7,skip_cards=4,reverse_cards=4,draw_two_cards=4,"
        "wild_cards=8,wd4_cards=8)",
        "spiderman(players=2,hand_size=20,skip_cards=4,reverse_cards=4,draw_two_cards=4,"
        "wild_cards=8,wd4_cards=8)",
        # classic's largest (141) dealt 13 each to 10 players: 130 + 8 Wild Draw Fours < 141
        "classic(players=10,hand_size=13,special_wilds=swap_hands,skip_cards=4,"
        "reverse_cards=4,draw_two_cards=4,wild_cards=8,wd4_cards=8)",
        "classic(players=2,hand_size=20)",
        # no action card and no wild: 76 number cards
        "classic(players=4,skip_cards=0,reverse_cards=0,draw_two_cards=0,wild_cards=0,wd4_cards=0)",
        "spin2025(players=10,hand_size=7,skip_cards=0,reverse_cards=0,draw_two_cards=0,"
        "wild_cards=0,wd4_cards=0,wild_spin_cards=0)",
    ],
)
def test_extreme_decks_play_to_the_end_keeping_every_card(text):
    play(text)


def test_extreme_deck_largest_deal_reference():
    opts = R.Options(hand_size=7, **MOST)
    for seed in range(3):
        r = R.Round("spin2025", 10, seed, opts)
        r.setup()
        r.run()
        assert len(r.all_cards()) == 144 and r.winner >= 0
    r = R.Round("classic", 4, 0, R.Options(**NONE))
    r.setup()
    r.run()
    assert len(r.all_cards()) == 76 and r.winner >= 0


# =========================================================================== the points
SCORED = "classic(players=3,points={skip:7,wild:11,wild_draw_four:3,draw_two:0})"


def test_kernel_winner_points_under_points():
    g = Game(SCORED).give(0, "red 5").give(1, "blue skip", "wild", "green draw two")
    g.give(2, "wild draw four", "green 9").top("red 2").pile("green 1")
    g.turn(0)
    assert g.s(L.S_WINNER) == 0
    left = [int(g.st.hand[q, : len(KIND_NAMES)] @ g.pts) for q in (1, 2)]
    assert left == [7 + 11 + 0, 3 + 9]  # the winner scores 30


def test_reference_winner_points_under_points():
    rules = parse_rules(SCORED)
    r = make(
        "classic",
        [[N(RED, 5)], [R.Card(R.SKIP, BLUE, None), R.Card(R.WILD, None, None)], []],
        N(RED, 2),
        draw=[N(GREEN, 1)],
        points=dict(rules.option("points")),
    )
    r.hands[1].append(R.Card(R.DRAW_TWO, GREEN, None))
    r.hands[2] = [R.Card(R.WILD_DRAW_FOUR, None, None), N(GREEN, 9)]
    one_action(r, 0)
    assert r.winner == 0 and r.result()["winner_points"] == 7 + 11 + 0 + 3 + 9


@pytest.mark.parametrize("skip, played", [(20, "red skip"), (0, "red 9")])
def test_heuristic_weighs_the_points_in_both_engines(skip, played):
    """heuristic plays its highest-scoring card: a Skip at 20 points, the 9 when a Skip
    scores 0."""
    text = f"classic(players=3,points={{skip:{skip}}})"
    g = Game(text, bots="heuristic").give(0, "red 9", "red skip", "yellow 1")
    g.give(1, *["green 1"] * 4).give(2, *["green 1"] * 4).top("red 2").pile("green 3")
    g.turn(0)
    assert g.top_name == played
    r = make(
        "classic",
        [
            [N(RED, 9), R.Card(R.SKIP, RED, None), N(YELLOW, 1)],
            [N(GREEN, 1)] * 4,
            [N(GREEN, 1)] * 4,
        ],
        N(RED, 2),
        draw=[N(GREEN, 3)],
        bots=[{"strategy": "heuristic"}] * 3,
        points={"skip": skip},
    )
    one_action(r, 0)
    assert R.card_name(r.discard[-1]) == played


# =========================================================================== the designer
@pytest.mark.parametrize(
    "vary, varied",
    [
        ("hand_size", "hand_size"),
        ("draw_two_draws=1:4", "draw_two_draws"),
        ("points.skip=10:40", "points="),
    ],
)
def test_design_varies_the_deck_numbers(tmp_path, vary, varied):
    from unospin_sim.studies.design import DesignSpec, run_design

    spec = DesignSpec(
        edition="classic",
        players=2,
        goals=["mean_turns=30±5"],
        vary=[vary],
        trials=3,
        games=100,
        seed=5,
        stages=[1],
        threads=1,
    )
    answer = run_design(spec, tmp_path / "s", progress=False)
    summary = (tmp_path / "s" / "summary.md").read_text()
    assert f"Varied: {vary}." in summary
    if answer["rules"] != "classic(players=2)":  # a design off the published rules
        assert varied in answer["rules"] and f"`{answer['rules']}`" in summary
    designs = pd.read_csv(tmp_path / "s" / "designs.csv")
    assert designs["rules"].str.contains(varied).any()
