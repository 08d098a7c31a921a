"""The deck's numbers as rule options (docs/HOUSE_RULES.md "The deck's numbers"):
``draw_two_draws``, ``wd4_draws`` and ``uno_penalty``, exact states in both engines (the
kernel through tests/statekit.py, the reference through tests/refkit.py), and their
validation."""

from __future__ import annotations

import pytest
from refkit import DT, GREEN, RED, WD4, YELLOW, N, make, one_action
from statekit import KIND, Game

from unospin_sim import reference as R
from unospin_sim.engine import kernel as K
from unospin_sim.engine import layout as L
from unospin_sim.errors import RuleError
from unospin_sim.rules import parse_rules
from unospin_sim.rules.cards import KIND_FACE

BLUFF_BOTS = "heuristic(bluff=1),heuristic(challenge=1),random"


def evs(g, code):
    return [e[1:] for e in g.events() if e[0] == code]


def pending_n(g):
    return g.s(L.S_PEN_N)


# =========================================================================== the options
def test_defaults_leave_the_rule_string_and_encoding_unchanged():
    rules = parse_rules("classic(players=4)")
    assert str(rules) == "classic(players=4)"
    assert str(parse_rules("classic(players=4,draw_two_draws=2,wd4_draws=4,uno_penalty=2)")) == (
        "classic(players=4)"
    )
    g = Game("classic(players=4)")
    assert (g.r[L.R_DRAW_TWO_N], g.r[L.R_WD4_N], g.r[L.R_UNO_PENALTY]) == (2, 4, 2)
    assert g.r[L.R_HOUSE] == 0


def test_values_in_the_rule_string():
    rules = parse_rules("spin2025(players=3,uno_penalty=0,wd4_draws=6,draw_two_draws=3)")
    assert str(rules) == "spin2025(players=3,draw_two_draws=3,wd4_draws=6,uno_penalty=0)"
    assert parse_rules(str(rules)) == rules
    assert not Game(rules).r[L.R_HOUSE]  # not house rules: the default turn plays them


@pytest.mark.parametrize(
    "text",
    [
        "classic(draw_two_draws=0)",
        "classic(draw_two_draws=11)",
        "classic(wd4_draws=0)",
        "classic(wd4_draws=21)",
        "classic(uno_penalty=-1)",
        "classic(uno_penalty=11)",
        "classic(rlcard=true,draw_two_draws=3)",
        "classic(rlcard=true,uno_penalty=0)",
    ],
)
def test_out_of_range_refused_in_one_line(text):
    with pytest.raises(RuleError) as e:
        parse_rules(text)
    assert "\n" not in str(e.value)


@pytest.mark.parametrize(
    "options",
    [dict(draw_two_draws=0), dict(wd4_draws=21), dict(uno_penalty=11), dict(uno_penalty=True)],
)
def test_reference_refuses_out_of_range(options):
    with pytest.raises(ValueError, match=next(iter(options))):
        R.play_round("classic", 4, 0, R.Options(**options))


# =========================================================================== the kernel
def test_draw_two_draws_three():
    g = Game("classic(players=3,draw_two_draws=3)").give(0, "red draw two", "blue 9")
    g.give(1, "yellow 4").top("red 2").pile("green 1", "yellow 8", "green 2")
    g.turn(0)
    assert g.hand(1) == ["green 1", "green 2", "yellow 4", "yellow 8"]
    assert g.drawn(1) == 3 and g.cur == 2 and g.pile_size() == 0
    assert evs(g, L.EV_SKIPPED) == [(1, 0, 0)]


def test_first_card_draw_two_draws_three():
    g = Game("classic(players=3,draw_two_draws=3)")
    seen = 0
    for seed in range(400):
        K.setup_round(g.st, g.r, g.deck, g.bots, seed)
        first = [e for e in g.events() if e[0] == L.EV_FIRST][0][1]
        if KIND_FACE[first] == KIND_FACE[KIND["red draw two"]] and first < KIND["wild"]:
            seen += 1
            assert g.size(0) == 10 and g.drawn(0) == 3 and g.cur == 1
    assert seen > 0


def test_stacked_chain_adds_the_options():
    g = Game("classic(players=3,stacking=true,draw_two_draws=3)")
    g.give(0, "red draw two", "blue 9").give(1, "blue draw two", "green 5").give(2, "yellow 1")
    g.top("red 2").pile(*["green 1"] * 6)
    g.turn(0)
    assert pending_n(g) == 3
    g.turn(1)
    assert pending_n(g) == 6 and g.cur == 2
    g.turn(2)
    assert g.drawn(2) == 6 and g.size(2) == 7 and pending_n(g) == 0 and g.cur == 0


def test_stacked_wild_draw_fours_add_wd4_draws():
    g = Game("classic(players=3,stacking=true,wd4_draws=6)")
    g.give(0, "wild draw four", "blue 9").give(1, "wild draw four", "blue 5")
    g.give(2, "yellow 1").top("red 2").pile(*["green 1"] * 12)
    g.turn(0)
    assert pending_n(g) == 6
    g.turn(1)
    assert pending_n(g) == 12
    g.turn(2)
    assert g.drawn(2) == 12 and pending_n(g) == 0


def test_wd4_draws_six_bluff_caught_draws_six():
    g = Game("classic(players=3,wd4_draws=6)", BLUFF_BOTS)
    g.give(0, "red 5", "wild draw four").give(1, "green 0", "green 1")
    g.top("red 2").pile(*["blue 1"] * 6)
    g.turn(0)
    assert evs(g, L.EV_CHALLENGE) == [(1, 0, 1)]
    assert g.drawn(0) == 6 and g.drawn(1) == 0 and g.cur == 1 and g.size(0) == 7


def test_wd4_draws_six_failed_challenge_draws_eight():
    g = Game("classic(players=3,wd4_draws=6)", BLUFF_BOTS)
    g.give(0, "blue 5", "wild draw four").give(1, "green 0", "green 1")
    g.top("red 2").pile(*["yellow 3"] * 8)
    g.turn(0)
    assert evs(g, L.EV_CHALLENGE) == [(1, 0, 0)]
    assert g.drawn(1) == 8 and g.size(1) == 10 and g.cur == 2


def test_wd4_draws_six_unchallenged():
    g = Game("classic(players=3,wd4_draws=6)").give(0, "blue 5", "wild draw four")
    g.top("red 2").pile(*["yellow 3"] * 6)
    g.turn(0)
    assert g.drawn(1) == 6 and g.cur == 2


def test_wd4_draws_six_challenge_of_a_stacked_penalty():
    g = Game("classic(players=3,stacking=true,wd4_draws=6)", BLUFF_BOTS)
    g.give(0, "red 5", "wild draw four").give(1, "green 0", "green 1")
    g.top("red 2").pile(*["blue 1"] * 8)
    g.turn(0)
    assert pending_n(g) == 6
    g.turn(1)  # a caught bluff: seat 0 draws 6, the penalty drops to 0, seat 1 plays
    assert g.drawn(0) == 6 and g.drawn(1) == 0 and g.cur == 1
    g = Game("classic(players=3,stacking=true,wd4_draws=6)", BLUFF_BOTS)
    g.give(0, "blue 5", "wild draw four").give(1, "green 0", "green 1")
    g.top("red 2").pile(*["blue 1"] * 8)
    g.turn(0)
    g.turn(1)  # a failed challenge: 6 + 2
    assert g.drawn(1) == 8 and g.cur == 2


@pytest.mark.parametrize("penalty", [0, 3])
def test_uno_penalty(penalty):
    g = Game(
        f"classic(players=3,uno_penalty={penalty})", "heuristic(forget=1),random(catch=1),random"
    )
    g.give(0, "red 5", "blue 9").top("red 2").pile(*["green 1"] * 3)
    g.turn(0)
    assert evs(g, L.EV_CAUGHT) == [(0, 1, 0)]
    assert g.drawn(0) == penalty and g.size(0) == 1 + penalty
    assert g.st.hand[0, L.PEND] == 0


# =========================================================================== the reference
def three(hand0, hand1, top, **kw):
    return make("classic", [hand0, hand1, [N(YELLOW, 1)] * 3], top, **kw)


def test_reference_draw_two_draws_three():
    r = three(
        [DT(RED), N(GREEN, 9)], [N(YELLOW, 4)], N(RED, 2), draw=[N(GREEN, 1)] * 5, draw_two_draws=3
    )
    one_action(r, 0)
    assert r.cards_drawn == [0, 3, 0] and r.cur == 2


def test_reference_first_card_draw_two_draws_three():
    seen = 0
    for seed in range(400):
        r = R.Round("classic", 3, seed, R.Options(draw_two_draws=3))
        r.setup()
        if r.discard[-1].kind == R.DRAW_TWO:
            seen += 1
            assert len(r.hands[0]) == 10 and r.cards_drawn[0] == 3 and r.cur == 1
    assert seen > 0


def test_reference_stacked_chain():
    r = three(
        [DT(RED), N(GREEN, 9)],
        [DT(GREEN), N(GREEN, 5)],
        N(RED, 2),
        draw=[N(GREEN, 1)] * 8,
        stacking=True,
        draw_two_draws=3,
    )
    r.hands[2] = [N(YELLOW, 1)]
    one_action(r, 0)
    assert r.penalty == 3
    one_action(r, 1)
    assert r.penalty == 6
    r.cur, r.turn_cap = 2, r.turns + 1
    r.run()  # seat 2 takes the 6 (not a turn), then seat 0's turn is cut by the cap
    assert r.cards_drawn[2] == 6 and r.penalty == 0


@pytest.mark.parametrize(
    "hand0, challenge, drawn, cur",
    [
        ([WD4, N(RED, 1)], 1.0, [6, 0, 0], 1),  # a bluff caught: its player draws 6
        ([WD4, N(GREEN, 1)], 1.0, [0, 8, 0], 2),  # a failed challenge: 6 + 2
        ([WD4, N(GREEN, 1)], 0.0, [0, 6, 0], 2),
    ],
)
def test_reference_wd4_draws_six(hand0, challenge, drawn, cur):
    bots = [{"bluff": 1.0}, {"challenge": challenge}, {}]
    r = make(
        "classic",
        [list(hand0), [N(GREEN, 0)] * 2, [N(YELLOW, 1)] * 3],
        N(RED, 7),
        draw=[N(YELLOW, 5)] * 10,
        bots=bots,
        wd4_draws=6,
    )
    nxt = r.resolve(0, [r.play_card(0, 0)])
    assert r.seat(nxt) == cur and r.cards_drawn == drawn


@pytest.mark.parametrize("penalty", [0, 3])
def test_reference_uno_penalty(penalty):
    bots = [{"forget": 1.0}, {"catch": 1.0}, {}]
    r = three(
        [N(RED, 5), N(GREEN, 9)],
        [N(YELLOW, 4)] * 2,
        N(RED, 2),
        draw=[N(GREEN, 1)] * 5,
        bots=bots,
        uno_penalty=penalty,
    )
    one_action(r, 0)
    assert r.cards_drawn[0] == penalty and len(r.hands[0]) == 1 + penalty


# =========================================================================== hand_size
@pytest.mark.parametrize(
    "rules, size",
    [
        ("classic(players=4,hand_size=5)", 5),
        ("classic(players=2,hand_size=20)", 20),
        ("classic(players=10,hand_size=10)", 10),  # the most the classic deck deals to 10
        ("spin2025(players=3,hand_size=1)", 1),
    ],
)
def test_deal_of_hand_size(rules, size):
    g = Game(rules)
    n = g.rules.players
    for seed in range(20):
        K.setup_round(g.st, g.r, g.deck, g.bots, seed)
        deals = [e for e in g.events() if e[0] == L.EV_DEAL]
        assert len(deals) == n * size
        assert all(g.size(p) == size for p in range(1, n))
        assert g.size(0) - g.drawn(0) == size


@pytest.mark.parametrize(
    "text",
    [
        "classic(players=10,hand_size=11)",
        "spin2025(players=10,hand_size=8)",
        "classic(hand_size=0)",
    ],
)
def test_a_deal_the_deck_cannot_serve_is_refused(text):
    with pytest.raises(RuleError) as e:
        parse_rules(text)
    assert "\n" not in str(e.value) and "hand_size" in str(e.value)


def test_reference_deal_of_hand_size():
    for seed in range(20):
        r = R.Round("classic", 4, seed, R.Options(hand_size=5))
        r.setup()
        assert [len(h) - d for h, d in zip(r.hands, r.cards_drawn)] == [5] * 4
    r = R.Round("classic", 2, 0, R.Options(hand_size=20))
    r.setup()
    assert len(r.hands[1]) == 20
    with pytest.raises(ValueError, match="hand_size"):
        R.Round("classic", 10, 0, R.Options(hand_size=11))
    with pytest.raises(ValueError, match="hand_size"):
        R.Round("spin2025", 10, 0, R.Options(hand_size=8))
