"""The house-rule options of docs/HOUSE_RULES.md in the numba kernel, rule by rule.

Style of ``test_engine_rules.py``: a hand-built state (``statekit``), one action, the EXACT
resulting state; where a bot's choice is random and cannot be forced, several seeds, every
outcome one of the allowed exact states and each of them seen.  Then whole rounds: the
kernel's invariants over 20,000 rounds per rule for several editions and player counts.
"""

from __future__ import annotations

import pytest
from statekit import KIND, Game
from test_engine_rules import assert_state, check_counts, evs, played

from unospin_sim.engine import kernel as K
from unospin_sim.engine import layout as L
from unospin_sim.errors import RuleError
from unospin_sim.rules import HOUSE_RULES, NOT_IMPLEMENTED, RuleSet, parse_rules
from unospin_sim.rules.cards import KIND_NAMES, WILD_DRAW_FOUR
from unospin_sim.run import Execution, simulate

RED, YELLOW, GREEN, BLUE = range(4)
ST3 = "classic(players=3,stacking=true)"
ST4 = "classic(players=4,stacking=true)"
ST2 = "classic(players=2,stacking=true)"
FACE_DRAW_TWO = 12


def pending(g):
    """(cards, what stacks, seat of the last card, illegal, passes) of the pending penalty."""
    return tuple(
        g.s(f) for f in (L.S_PEN_N, L.S_PEN_KIND, L.S_PEN_BY, L.S_PEN_ILLEGAL, L.S_PEN_PASS)
    )


# =========================================================================== the options
BOOL_RULES = ["stacking", "draw_until_playable", "seven_o"]


@pytest.mark.parametrize("name", BOOL_RULES)
@pytest.mark.parametrize("edition", ["classic", "spin2005", "spin2025", "spiderman"])
def test_bool_option_canonical_string(name, edition):
    rs = parse_rules(f"{edition}(players=4,{name}=true)")
    assert str(rs) == f"{edition}(players=4,{name}=true)"
    assert parse_rules(str(rs)) == rs and rs.option(name) is True
    assert rs == RuleSet.build(edition, players=4, **{name: True})
    assert parse_rules(f"{edition}(players=4,{name}=false)") == parse_rules(f"{edition}(players=4)")
    assert (
        str(parse_rules(f"{edition}({name}=1,turn_cap=50)"))
        == f"{edition}(players=4,turn_cap=50,{name}=true)"
    )
    assert name in HOUSE_RULES and name not in NOT_IMPLEMENTED
    with pytest.raises(RuleError, match="true or false"):
        parse_rules(f"{edition}({name}=maybe)")


@pytest.mark.parametrize("name", BOOL_RULES)
def test_house_rules_cannot_be_combined_with_rlcard(name):
    with pytest.raises(RuleError) as info:
        parse_rules(f"classic(rlcard=true,{name}=true)")
    assert "cannot be combined with rlcard=true" in str(info.value)
    assert name in str(info.value) and "\n" not in str(info.value)
    parse_rules(f"classic(rlcard=true,{name}=false)")  # the default is fine


def test_options_reach_the_kernel():
    from unospin_sim.bots import parse_bots
    from unospin_sim.engine.encode import encode

    r0 = encode(parse_rules("spin2025(players=3)"), parse_bots("random", 3)).rules
    assert r0[L.R_HOUSE] == 0
    for name, field in [
        ("stacking", L.R_STACKING),
        ("draw_until_playable", L.R_DRAW_UNTIL),
        ("seven_o", L.R_SEVEN_O),
    ]:
        rs = parse_rules(f"spin2025(players=3,{name}=true)")
        r = encode(rs, parse_bots("random", 3)).rules
        assert r[field] == 1 and r0[field] == 0
        assert r[L.R_HOUSE] == 1
    for value in ("none", "swap_hands", "shuffle_hands"):  # the deck carries special_wilds
        r = encode(parse_rules(f"classic(special_wilds={value})"), parse_bots("random", 4)).rules
        assert r[L.R_HOUSE] == int(value != "none")


@pytest.mark.parametrize(
    "value, kind", [("swap_hands", "wild swap hands"), ("shuffle_hands", "wild shuffle hands")]
)
def test_special_wilds_option_and_deck(value, kind):
    rs = parse_rules(f"classic(players=4,special_wilds={value})")
    assert str(rs) == f"classic(players=4,special_wilds={value})"
    assert parse_rules(str(rs)) == rs and rs.option("special_wilds") == value
    assert parse_rules(f"classic(special_wilds= {value.upper()} )") == rs
    assert rs == RuleSet.build("classic", special_wilds=value)
    counts = rs.deck_counts()
    base = parse_rules("classic(players=4)").deck_counts()
    assert rs.deck_size() == 109 and counts[KIND[kind]] == 1
    diff = counts - base
    assert diff.sum() == 1 and diff[KIND[kind]] == 1
    assert rs.points()[KIND[kind]] == 40
    assert parse_rules("classic(special_wilds=none)") == parse_rules("classic")
    assert "special_wilds" not in NOT_IMPLEMENTED and "special_wilds" in HOUSE_RULES


@pytest.mark.parametrize(
    "text, words",
    [
        ("classic(special_wilds=true)", "must be one of none, swap_hands, shuffle_hands"),
        ("classic(special_wilds=swap)", "must be one of"),
        ("spin2025(special_wilds=swap_hands)", "not valid for spin2025"),
        ("spin2005(special_wilds=none)", "not valid for spin2005"),
        ("spiderman(special_wilds=shuffle_hands)", "not valid for spiderman"),
        ("classic(rlcard=true,special_wilds=swap_hands)", "cannot be combined with rlcard=true"),
    ],
)
def test_bad_special_wilds(text, words):
    with pytest.raises(RuleError) as info:
        parse_rules(text)
    assert words in str(info.value) and "\n" not in str(info.value)


# =========================================================================== stacking
def test_draw_two_starts_a_pending_penalty():
    g = Game(ST3).give(0, "red draw two", "blue 9").give(1, "yellow 4").top("red 2")
    g.pile("green 1", "yellow 8")
    g.turn(0)
    assert_state(
        g,
        hands={0: ["blue 9"], 1: ["yellow 4"]},
        top="red draw two",
        colour=RED,
        cur=1,
        drawn={1: 0},
        pile=2,
    )
    assert pending(g) == (2, FACE_DRAW_TWO, 0, 0, 1)
    assert evs(g, L.EV_PENALTY_ON) == [(1, 2, 0)]
    assert evs(g, L.EV_SKIPPED) == []
    # seat 1 holds no Draw Two: it takes the penalty and is passed over (not a turn)
    turns = g.s(L.S_TURNS)
    g.turn(1)
    assert_state(
        g,
        hands={0: ["blue 9"], 1: ["green 1", "yellow 4", "yellow 8"], 2: []},
        top="red draw two",
        colour=RED,
        cur=2,
        drawn={0: 0, 1: 2, 2: 0},
        pile=0,
    )
    assert pending(g)[0] == 0
    assert g.s(L.S_TURNS) == turns
    assert evs(g, L.EV_PENALTY_TAKE) == [(1, 2, 0)]
    assert evs(g, L.EV_SKIPPED) == [(1, 0, 0)]


def test_draw_two_stacks_on_draw_two_of_any_colour():
    g = Game(ST3).give(0, "red draw two", "blue 9").give(1, "blue draw two", "green 5")
    g.top("red 2").pile("green 1", "yellow 8", "yellow 2", "red 4")
    g.turn(0)
    turns = g.s(L.S_TURNS)
    g.turn(1)  # a counted turn: the blue Draw Two (no red card, no match but the symbol)
    assert_state(
        g,
        hands={0: ["blue 9"], 1: ["green 5"], 2: []},
        top="blue draw two",
        colour=BLUE,
        cur=2,
        drawn={1: 0, 2: 0},
        pile=4,
        disc=["red 2", "red draw two"],
    )
    assert g.s(L.S_TURNS) == turns + 1
    assert pending(g) == (4, FACE_DRAW_TWO, 1, 0, 1)
    assert evs(g, L.EV_PENALTY_ON) == [(1, 2, 0), (2, 4, 0)]
    assert evs(g, L.EV_TURN) == [(1, turns + 1, 0)]
    assert evs(g, L.EV_UNO) == [(0, 0, 0), (1, 0, 0)]
    g.turn(2)  # seat 2 cannot stack: draws all 4 and is passed over
    assert_state(
        g, hands={2: ["green 1", "red 4", "yellow 2", "yellow 8"]}, cur=0, drawn={2: 4}, pile=0
    )
    assert evs(g, L.EV_PENALTY_TAKE) == [(2, 4, 0)]
    assert evs(g, L.EV_SKIPPED) == [(2, 0, 0)]


def test_draw_two_stacks_on_a_draw_two_even_when_a_colour_card_is_playable():
    # stacking beats a normal play: the red 5 would match, but the bot stacks
    g = Game(ST3, "heuristic").give(1, "green draw two", "red 5").top("red draw two")
    g.set(L.S_PEN_N, 2).set(L.S_PEN_KIND, FACE_DRAW_TWO).set(L.S_PEN_PASS, 1)
    g.turn(1)
    assert_state(g, hands={1: ["red 5"]}, top="green draw two", colour=GREEN, cur=2)
    assert pending(g) == (4, FACE_DRAW_TWO, 1, 0, 1)


def test_random_stacks_uniformly_among_stackable_instances():
    seen = {}
    for seed in range(60):
        g = (
            Game(ST3, seed=seed)
            .give(1, "blue draw two", "yellow draw two", "yellow draw two", "red 3")
            .top("red draw two")
        )
        g.set(L.S_PEN_N, 2).set(L.S_PEN_KIND, FACE_DRAW_TWO).set(L.S_PEN_PASS, 1)
        g.turn(1)
        (k,) = played(g)
        rest = ["blue draw two", "yellow draw two", "yellow draw two", "red 3"]
        rest.remove(k)
        assert_state(g, hands={1: rest}, top=k, cur=2)
        assert pending(g) == (4, FACE_DRAW_TWO, 1, 0, 1)
        seen[k] = seen.get(k, 0) + 1
    assert set(seen) == {"blue draw two", "yellow draw two"}
    assert seen["yellow draw two"] > seen["blue draw two"]  # two instances against one


def test_heuristic_stacks_the_draw_two_of_its_most_held_colour():
    g = (
        Game(ST3, "heuristic")
        .give(1, "blue draw two", "yellow draw two", "yellow 1", "yellow 2", "blue 3")
        .top("red draw two")
    )
    g.set(L.S_PEN_N, 2).set(L.S_PEN_KIND, FACE_DRAW_TWO).set(L.S_PEN_PASS, 1)
    g.turn(1)
    assert played(g) == ["yellow draw two"] and g.colour == YELLOW


def test_wild_draw_four_stacks_on_wild_draw_four_and_names_a_colour():
    # seat 0 names blue (its colour); seat 1 holds no blue: its stacked Wild Draw Four is
    # legal and names green
    g = Game(ST3, "heuristic").give(0, "wild draw four", "blue 5")
    g.give(1, "wild draw four", "green 1", "green 2").top("red 2")
    g.turn(0)
    assert_state(g, hands={0: ["blue 5"]}, top="wild draw four", colour=BLUE, cur=1)
    assert pending(g) == (4, WILD_DRAW_FOUR, 0, 0, 1)
    g.turn(1)
    assert_state(
        g,
        hands={1: ["green 1", "green 2"]},
        top="wild draw four",
        colour=GREEN,
        cur=2,
        drawn={1: 0},
    )
    assert pending(g) == (8, WILD_DRAW_FOUR, 1, 0, 1)
    assert evs(g, L.EV_COLOUR) == [(0, BLUE, 0), (1, GREEN, 0)]
    assert evs(g, L.EV_BLUFF) == []


@pytest.mark.parametrize(
    "kind, hand",
    [
        (WILD_DRAW_FOUR, ["red draw two", "blue 4"]),  # a Draw Two never stacks on a WD4
        (FACE_DRAW_TWO, ["wild draw four", "blue 4"]),  # nor a WD4 on a Draw Two
    ],
)
def test_only_the_same_face_stacks(kind, hand):
    g = (
        Game(ST3)
        .give(1, *hand)
        .top("red draw two" if kind == FACE_DRAW_TWO else "wild draw four", colour=RED)
    )
    n = 4 if kind == WILD_DRAW_FOUR else 2
    g.set(L.S_PEN_N, n).set(L.S_PEN_KIND, kind).set(L.S_PEN_BY, 0).set(L.S_PEN_PASS, 1)
    g.pile(*(["green 1", "green 3", "yellow 5", "yellow 6"][:n]))
    g.turn(1)
    assert played(g) == []
    assert_state(
        g,
        hands={1: hand + ["green 1", "green 3", "yellow 5", "yellow 6"][:n]},
        cur=2,
        drawn={1: n},
        pile=0,
    )
    assert evs(g, L.EV_PENALTY_TAKE) == [(1, n, 0)]


def test_stacking_with_the_last_card_wins_and_the_next_player_draws_the_penalty():
    g = Game(ST3).give(1, "yellow draw two").give(2, "blue 1").top("red draw two")
    g.set(L.S_PEN_N, 2).set(L.S_PEN_KIND, FACE_DRAW_TWO).set(L.S_PEN_PASS, 1)
    g.pile("green 1", "green 3", "yellow 5", "yellow 6")
    g.turn(1)
    assert_state(
        g,
        hands={1: [], 2: ["blue 1", "green 1", "green 3", "yellow 5", "yellow 6"]},
        top="yellow draw two",
        winner=1,
        drawn={2: 4},
        pile=0,
    )
    assert pending(g)[0] == 0
    assert evs(g, L.EV_UNO) == [] and evs(g, L.EV_PENALTY_ON) == []


def test_a_winning_draw_two_is_drawn_at_once():
    g = Game(ST3).give(0, "red draw two").top("red 2").pile("green 1", "green 3")
    g.turn(0)
    assert_state(g, hands={0: [], 1: ["green 1", "green 3"]}, winner=0, drawn={1: 2}, pile=0)
    assert pending(g)[0] == 0 and evs(g, L.EV_PENALTY_ON) == []


def test_stacking_play_leaving_one_card_needs_uno():
    bots = "random(catch=1),heuristic(forget=1),random(catch=1)"
    g = Game(ST3, bots).give(1, "yellow draw two", "blue 1").top("red draw two")
    g.set(L.S_PEN_N, 2).set(L.S_PEN_KIND, FACE_DRAW_TWO).set(L.S_PEN_PASS, 1)
    g.pile("green 1", "green 3")
    g.turn(1)
    # caught: seat 1 draws 2 at the end of its action; the penalty (4) waits on seat 2
    assert_state(g, hands={1: ["blue 1", "green 1", "green 3"]}, cur=2, drawn={1: 2}, pile=0)
    assert evs(g, L.EV_FORGET) == [(1, 0, 0)] and evs(g, L.EV_PENALTY) == [(1, 0, 0)]
    assert pending(g) == (4, FACE_DRAW_TWO, 1, 0, 1)


def test_two_players_stack_back_and_forth():
    g = (
        Game(ST2)
        .give(0, "red draw two", "red draw two", "blue 1")
        .give(1, "green draw two", "green 5")
    )
    g.top("red 3").pile(*["yellow 1"] * 6)
    g.turn(0)
    assert pending(g)[0] == 2 and g.cur == 1
    g.turn(1)
    assert pending(g)[0] == 4 and g.cur == 0 and g.top_name == "green draw two"
    g.turn(0)
    assert pending(g)[0] == 6 and g.cur == 1 and g.size(0) == 1
    g.turn(1)  # no Draw Two left: seat 1 draws 6 and is passed over: seat 0 plays
    assert_state(
        g, hands={0: ["blue 1"], 1: ["green 5"] + ["yellow 1"] * 6}, cur=0, drawn={1: 6}, pile=0
    )


BLUFF = "heuristic(bluff=1),heuristic(challenge=1),random"


def test_challenge_of_an_illegal_starting_wd4():
    g = Game(ST3, BLUFF).give(0, "red 5", "wild draw four").give(1, "green 0", "green 1")
    g.top("red 2").pile("blue 1", "blue 2", "yellow 3", "yellow 4")
    g.turn(0)
    assert evs(g, L.EV_BLUFF) == [(0, 0, 0)]
    assert pending(g) == (4, WILD_DRAW_FOUR, 0, 1, 1)
    assert g.size(1) == 2 and g.cur == 1
    turns = g.s(L.S_TURNS)
    g.turn(1)
    # the bluffer draws 4; nothing is left of the penalty: seat 1 plays a normal turn next
    assert_state(
        g,
        hands={0: ["blue 1", "blue 2", "red 5", "yellow 3", "yellow 4"], 1: ["green 0", "green 1"]},
        top="wild draw four",
        colour=RED,
        cur=1,
        drawn={0: 4, 1: 0},
        pile=0,
    )
    assert evs(g, L.EV_STACK_CHALLENGE) == [(1, 0, 1)]
    assert evs(g, L.EV_SKIPPED) == [] and evs(g, L.EV_PENALTY_TAKE) == []
    assert pending(g)[0] == 0 and g.s(L.S_TURNS) == turns


def test_challenge_of_a_legal_wd4_costs_the_penalty_plus_two():
    g = Game(ST3, BLUFF).give(0, "blue 5", "wild draw four").give(1, "green 0", "green 1")
    g.top("red 2").pile(*["yellow 3"] * 6)
    g.turn(0)
    assert pending(g) == (4, WILD_DRAW_FOUR, 0, 0, 1)
    g.turn(1)
    assert_state(
        g,
        hands={0: ["blue 5"], 1: ["green 0", "green 1"] + ["yellow 3"] * 6},
        cur=2,
        drawn={0: 0, 1: 6},
        pile=0,
    )
    assert evs(g, L.EV_STACK_CHALLENGE) == [(1, 0, 0)]
    assert evs(g, L.EV_PENALTY_TAKE) == [(1, 6, 0)]
    assert evs(g, L.EV_SKIPPED) == [(1, 0, 0)]


def test_a_free_stacked_wd4_is_never_illegal():
    # stacked_wd4=free: seat 0 stacks a WD4 while holding red (the colour in play); seat 1
    # challenges: it is legal
    g = Game("classic(players=3,stacking=true,stacked_wd4=free)", BLUFF)
    g.give(0, "wild draw four", "red 5", "red 6").give(1, "green 1")
    g.top("wild draw four", colour=RED).pile(*["yellow 3"] * 10)
    g.set(L.S_PEN_N, 4).set(L.S_PEN_KIND, WILD_DRAW_FOUR).set(L.S_PEN_BY, 2)
    g.set(L.S_PEN_ILLEGAL, 1).set(L.S_PEN_PASS, 1)
    g.turn(0)
    assert pending(g) == (8, WILD_DRAW_FOUR, 0, 0, 1)
    assert evs(g, L.EV_BLUFF) == []
    g.turn(1)
    assert_state(
        g,
        hands={0: ["red 5", "red 6"], 1: ["green 1"] + ["yellow 3"] * 10},
        cur=2,
        drawn={0: 0, 1: 10},
        pile=0,
    )
    assert evs(g, L.EV_STACK_CHALLENGE) == [(1, 0, 0)]


def _wd4_penalty_on_seat_0(rules, bots):
    """Seat 2's Wild Draw Four (a bluff) is pending on seat 0, which holds a Wild Draw
    Four and two reds; red is the colour in play."""
    g = Game(rules, bots).give(0, "wild draw four", "red 5", "red 6").give(1, "green 1")
    g.top("wild draw four", colour=RED).pile(*["yellow 3"] * 10)
    g.set(L.S_PEN_N, 4).set(L.S_PEN_KIND, WILD_DRAW_FOUR).set(L.S_PEN_BY, 2)
    g.set(L.S_PEN_ILLEGAL, 1).set(L.S_PEN_PASS, 1)
    return g


def test_a_checked_stacked_wd4_is_not_stacked_while_illegal():
    # stacked_wd4=checked (the default): holding red, seat 0 may not stack its WD4; it
    # does not bluff (bluff=0), so it draws the 4 and is passed over
    g = _wd4_penalty_on_seat_0(ST3, "heuristic,heuristic(challenge=1),random")
    g.turn(0)
    assert_state(
        g,
        hands={0: ["wild draw four", "red 5", "red 6"] + ["yellow 3"] * 4, 1: ["green 1"]},
        top="wild draw four",
        colour=RED,
        cur=1,
        drawn={0: 4, 1: 0},
        pile=6,
    )
    assert pending(g)[0] == 0 and evs(g, L.EV_PENALTY_TAKE) == [(0, 4, 0)]
    assert evs(g, L.EV_PLAY) == [] and evs(g, L.EV_BLUFF) == []


def test_a_checked_stacked_wd4_bluff_is_caught_by_a_challenge():
    # seat 0 (bluff=1) stacks its illegal WD4 anyway: the penalty's last card is a bluff;
    # seat 1 challenges: seat 0 draws 4, the penalty drops to 4 with no pass left, seat 1
    # draws them and then takes its own turn
    g = _wd4_penalty_on_seat_0(ST3, BLUFF)
    turns = g.s(L.S_TURNS)
    g.turn(0)
    assert evs(g, L.EV_BLUFF) == [(0, 0, 0)]
    assert pending(g) == (8, WILD_DRAW_FOUR, 0, 1, 1)
    assert g.s(L.S_TURNS) == turns + 1 and g.cur == 1
    g.turn(1)
    assert_state(
        g,
        hands={0: ["red 5", "red 6"] + ["yellow 3"] * 4, 1: ["green 1"] + ["yellow 3"] * 4},
        top="wild draw four",
        cur=1,
        drawn={0: 4, 1: 4},
        pile=2,
    )
    assert evs(g, L.EV_STACK_CHALLENGE) == [(1, 0, 1)]
    assert evs(g, L.EV_SKIPPED) == [] and pending(g)[0] == 0


def test_a_checked_stacked_wd4_is_legal_without_the_colour_in_play():
    # seat 0 holds no red: its stacked WD4 is legal; a challenge costs seat 1 the penalty + 2
    g = Game(ST3, BLUFF).give(0, "wild draw four", "blue 5", "blue 6").give(1, "green 1")
    g.top("wild draw four", colour=RED).pile(*["yellow 3"] * 10)
    g.set(L.S_PEN_N, 4).set(L.S_PEN_KIND, WILD_DRAW_FOUR).set(L.S_PEN_BY, 2)
    g.set(L.S_PEN_ILLEGAL, 1).set(L.S_PEN_PASS, 1)
    g.turn(0)
    assert pending(g) == (8, WILD_DRAW_FOUR, 0, 0, 1) and evs(g, L.EV_BLUFF) == []
    g.turn(1)
    assert_state(
        g,
        hands={0: ["blue 5", "blue 6"], 1: ["green 1"] + ["yellow 3"] * 10},
        cur=2,
        drawn={0: 0, 1: 10},
        pile=0,
    )
    assert evs(g, L.EV_STACK_CHALLENGE) == [(1, 0, 0)]


def test_a_checked_stacked_wd4_under_wild_matches_colour():
    # spin editions: holding another wild forbids a Wild Draw Four, stacked or not
    g = Game("spin2005(players=3,stacking=true)", "random,random,random")
    g.give(0, "wild draw four", "wild", "blue 5").give(1, "green 1")
    g.top("wild draw four", colour=RED).pile(*["yellow 3"] * 10)
    g.set(L.S_PEN_N, 4).set(L.S_PEN_KIND, WILD_DRAW_FOUR).set(L.S_PEN_BY, 2)
    g.set(L.S_PEN_PASS, 1)
    g.turn(0)
    assert pending(g)[0] == 0 and evs(g, L.EV_PENALTY_TAKE) == [(0, 4, 0)]
    assert g.size(0) == 7 and g.cur == 1


def test_stacked_wd4_option():
    rs = parse_rules("classic(stacking=true,stacked_wd4=free)")
    assert str(rs) == "classic(players=4,stacking=true,stacked_wd4=free)"
    assert (
        str(parse_rules("classic(stacking=true,stacked_wd4=checked)"))
        == "classic(players=4,stacking=true)"
    )
    with pytest.raises(RuleError) as info:
        parse_rules("spin2025(stacked_wd4=free)")
    msg = str(info.value)
    assert "stacked_wd4=free" in msg and "stacking=false" in msg and "\n" not in msg


def test_a_draw_two_penalty_is_never_challenged():
    g = Game(ST3, BLUFF).give(0, "red draw two", "blue 1").give(1, "green 0")
    g.top("red 2").pile("yellow 3", "yellow 4")
    g.turn(0)
    g.turn(1)
    assert evs(g, L.EV_STACK_CHALLENGE) == []
    assert_state(g, hands={1: ["green 0", "yellow 3", "yellow 4"]}, cur=2, drawn={1: 2})


def test_challenge_decided_before_stacking():
    # the challenger holds a WD4 too: it challenges (a legal WD4) and does not stack
    g = Game(ST3, BLUFF).give(0, "blue 5", "wild draw four")
    g.give(1, "wild draw four", "green 1").top("red 2").pile(*["yellow 3"] * 6)
    g.turn(0)
    g.turn(1)
    assert played(g, 1) == []
    assert_state(g, hands={1: ["green 1", "wild draw four"] + ["yellow 3"] * 6}, cur=2)


S25_4 = "spin2025(players=4,stacking=true)"


def test_two_x_draw_two_plus_draw_two_starts_one_penalty():
    g = Game(S25_4).set(L.S_TWO_X, 1).give(0, "red draw two", "blue draw two", "green 9")
    g.top("red 7").pile(*["yellow 1"] * 4)
    g.turn(0)
    assert played(g, 0) == ["red draw two", "blue draw two"]
    assert pending(g) == (4, FACE_DRAW_TWO, 0, 0, 2)
    assert g.cur == 1 and g.drawn(1) == 0
    g.turn(1)  # taken: seat 1 draws 4; seats 1 and 2 are passed over, as without stacking
    assert_state(g, hands={1: ["yellow 1"] * 4}, cur=3, drawn={1: 4}, pile=0)
    assert evs(g, L.EV_SKIPPED) == [(1, 0, 0), (2, 0, 0)]


def test_two_x_stack_is_one_card_and_passes_one_seat():
    g = Game(S25_4).set(L.S_TWO_X, 1).give(0, "red draw two", "blue draw two", "green 9")
    g.give(1, "green draw two", "green draw two", "green 4").top("red 7")
    g.pile(*["yellow 1"] * 6)
    g.turn(0)
    g.turn(1)
    assert played(g, 1) == ["green draw two"]  # one card, although 2X is on
    assert pending(g) == (6, FACE_DRAW_TWO, 1, 0, 1)
    assert g.s(L.S_TWO_X) == 1
    g.turn(2)
    assert_state(g, hands={2: ["yellow 1"] * 6}, cur=3, drawn={2: 6})
    assert evs(g, L.EV_SKIPPED) == [(2, 0, 0)]


def test_two_x_the_last_draw_card_decides_what_stacks():
    g = Game(S25_4).set(L.S_TWO_X, 1).give(0, "red draw two", "wild draw four", "green 9")
    g.give(1, "blue draw two", "green 4").top("red 7").pile(*["yellow 1"] * 6)
    g.turn(0)
    assert played(g, 0) == ["red draw two", "wild draw four"]
    assert pending(g)[:2] == (6, WILD_DRAW_FOUR)
    g.turn(1)  # a Draw Two does not stack on the Wild Draw Four played last
    assert played(g, 1) == [] and g.drawn(1) == 6


def test_two_x_skip_plus_draw_two_taken_passes_two_seats():
    g = Game(S25_4).set(L.S_TWO_X, 1).give(0, "red skip", "red draw two", "green 9")
    g.top("red 7").pile(*["yellow 1"] * 2)
    g.turn(0)
    assert pending(g) == (2, FACE_DRAW_TWO, 0, 0, 2)
    g.turn(1)
    assert_state(g, hands={1: ["yellow 1"] * 2}, cur=3, drawn={1: 2})


def test_without_stacking_a_draw_two_is_drawn_at_once():
    g = Game("classic(players=3)").give(0, "red draw two", "blue 9").give(1, "blue draw two")
    g.top("red 2").pile("green 1", "yellow 8")
    g.turn(0)
    assert pending(g)[0] == 0 and g.drawn(1) == 2 and g.cur == 2


def test_first_card_draw_two_is_not_stackable():
    from unospin_sim.run import trace

    seen = 0
    for seed in range(300):
        log, st, _, _ = trace(ST3, "random", seed=seed, game=0, log_rows=400)
        rows = [tuple(int(x) for x in r) for r in log]
        first = next(r[1] for r in rows if r[0] == L.EV_FIRST)
        if KIND_NAMES[first].endswith("draw two"):
            seen += 1
            i = next(j for j, r in enumerate(rows) if r[0] == L.EV_TURN)
            assert [r[1] for r in rows[:i] if r[0] == L.EV_DRAW] == [0, 0]
            assert rows[i][1] == 1 and not any(r[0] == L.EV_PENALTY_ON for r in rows[:i])
    assert seen > 0


@pytest.mark.parametrize(
    "turns, penalty, passes, expect",
    [
        # count at cap - 1: the bluffer draws 4, the challenger (no pass left) plays the last
        # turn (red 2, the only card on red)
        (
            4,
            4,
            1,
            dict(
                hands={0: ["blue 1", "blue 2"] + ["yellow 9"] * 4, 1: ["yellow 2"]},
                top="red 2",
                cur=2,
                drawn={0: 4, 1: 0, 2: 0},
                pile=4,
                pen=0,
                turns=[(1, 5, 0)],
            ),
        ),
        # a 2X WD4 + WD4 penalty (two passes): the challenger draws the 4 left and is passed
        # over; seat 2 plays the last turn (red 3)
        (
            4,
            8,
            2,
            dict(
                hands={
                    0: ["blue 1", "blue 2"] + ["yellow 9"] * 4,
                    1: ["red 2", "yellow 2"] + ["yellow 9"] * 4,
                    2: ["green 1"],
                },
                top="red 3",
                cur=3,
                drawn={0: 4, 1: 4, 2: 0},
                pile=0,
                pen=0,
                turns=[(2, 5, 0)],
            ),
        ),
        # count at the cap: the round ends before the challenge; the penalty stays pending
        (
            5,
            4,
            1,
            dict(
                hands={0: ["blue 1", "blue 2"], 1: ["red 2", "yellow 2"], 2: ["green 1", "red 3"]},
                top="wild draw four",
                cur=1,
                drawn={0: 0, 1: 0, 2: 0},
                pile=8,
                pen=4,
                turns=[],
            ),
        ),
    ],
)
def test_turn_cap_after_an_illegal_challenge(turns, penalty, passes, expect):
    """docs/HOUSE_RULES.md "Turn cap": the real round loop (Game.run) from a pending,
    illegal WD4 penalty on seat 1, which challenges (turn_cap 5)."""
    g = Game(
        "classic(players=4,stacking=true,turn_cap=5)", "random,random(challenge=1),random,random"
    )
    g.give(0, "blue 1", "blue 2").give(1, "red 2", "yellow 2").give(2, "red 3", "green 1")
    g.give(3, "green 3", "green 4").top("wild draw four", colour=RED).pile(*["yellow 9"] * 8)
    g.set(L.S_PEN_N, penalty).set(L.S_PEN_KIND, WILD_DRAW_FOUR).set(L.S_PEN_BY, 0)
    g.set(L.S_PEN_ILLEGAL, 1).set(L.S_PEN_PASS, passes).set(L.S_TURNS, turns)
    g.run(1)
    assert_state(
        g,
        hands=expect["hands"],
        top=expect["top"],
        colour=RED,
        cur=expect["cur"],
        drawn=expect["drawn"],
        pile=expect["pile"],
    )
    assert g.s(L.S_TURNS) == 5 and evs(g, L.EV_CAP) == [(0, 0, 0)]
    assert evs(g, L.EV_TURN) == expect["turns"]
    assert evs(g, L.EV_STACK_CHALLENGE) == ([(1, 0, 1)] if turns < 5 else [])
    assert pending(g)[0] == expect["pen"]


# =========================================================================== draw until playable
DU3 = "classic(players=3,draw_until_playable=true)"


def test_draw_until_playable_draws_on_and_plays_the_playable_card():
    # two unplayable cards (either order), then the discard pile is reshuffled into the draw
    # pile and its red 6 is drawn and played
    g = Game(DU3).give(0, "blue 9").top("red 2").pile("green 7", "yellow 3").discards("red 6")
    g.turn(0)
    assert_state(
        g,
        hands={0: ["blue 9", "green 7", "yellow 3"]},
        top="red 6",
        colour=RED,
        cur=1,
        drawn={0: 3},
        pile=0,
        disc=["red 2"],
    )
    assert [KIND_NAMES[e[1]] for e in evs(g, L.EV_DRAW)][-1] == "red 6"
    assert evs(g, L.EV_RESHUFFLE) == [(1, 0, 0)]
    assert played(g) == ["red 6"]


def test_draw_until_playable_stops_at_the_first_playable_card():
    outcomes = set()
    for seed in range(30):
        g = Game(DU3, seed=seed).give(0, "blue 9").top("red 2").pile("green 7", "red 7")
        g.turn(0)
        drawn = [KIND_NAMES[e[1]] for e in evs(g, L.EV_DRAW)]
        if drawn == ["red 7"]:
            assert_state(g, hands={0: ["blue 9"]}, top="red 7", cur=1, drawn={0: 1}, pile=1)
        else:
            assert drawn == ["green 7", "red 7"]
            assert_state(
                g, hands={0: ["blue 9", "green 7"]}, top="red 7", cur=1, drawn={0: 2}, pile=0
            )
        outcomes.add(len(drawn))
    assert outcomes == {1, 2}


def test_draw_until_playable_nothing_left_ends_the_turn():
    g = Game(DU3).give(0, "blue 9").top("red 2").pile("green 7")
    g.turn(0)
    assert_state(
        g, hands={0: ["blue 9", "green 7"]}, top="red 2", cur=1, drawn={0: 1}, pile=0, disc=[]
    )
    assert g.s(L.S_FAILED) == 1 and played(g) == []


def test_draw_until_playable_a_drawn_wild_is_played():
    g = Game(DU3, "heuristic").give(0, "blue 9", "blue 8").top("red 2").pile("green 7")
    g.discards("wild")
    g.turn(0)
    assert_state(
        g,
        hands={0: ["blue 8", "blue 9", "green 7"]},
        top="wild",
        colour=BLUE,
        cur=1,
        drawn={0: 2},
        pile=0,
    )


def test_draw_until_playable_off_draws_one():
    g = Game("classic(players=3)").give(0, "blue 9").top("red 2").pile("green 7")
    g.discards("red 6")
    g.turn(0)
    assert_state(
        g,
        hands={0: ["blue 9", "green 7"]},
        top="red 2",
        cur=1,
        drawn={0: 1},
        pile=0,
        disc=["red 6"],
    )


def test_draw_until_playable_two_x_only_the_drawn_card():
    g = Game("spin2025(players=3,draw_until_playable=true)").set(L.S_TWO_X, 1)
    g.give(0, "blue 7").top("red 1").pile("green 3").discards("red 7")
    g.turn(0)
    # green 3, then red 7 (reshuffled) is drawn and played; blue 7 matches it but stays
    assert_state(
        g,
        hands={0: ["blue 7", "green 3"]},
        top="red 7",
        cur=1,
        drawn={0: 2},
        pile=0,
        disc=["red 1"],
    )


def test_draw_until_playable_penalty_draws_unchanged():
    g = Game(DU3).give(0, "red draw two", "blue 9").give(1, "yellow 4").top("red 2")
    g.pile("green 1", "green 3", "red 5")
    g.turn(0)
    assert g.drawn(1) == 2 and g.pile_size() == 1 and g.cur == 2


def test_draw_until_playable_with_stacking_a_penalty_is_drawn_as_is():
    g = Game("classic(players=3,draw_until_playable=true,stacking=true)")
    g.give(0, "red draw two", "blue 9").give(1, "yellow 4").top("red 2")
    g.pile("green 1", "green 3", "red 5")
    g.turn(0)
    g.turn(1)
    assert g.drawn(1) == 2 and g.pile_size() == 1 and g.cur == 2


def test_draw_until_playable_wheel_draws_unchanged():
    # spin2025 Color Draw green: draws until green, exactly as without the option
    g = Game("spin2025(players=3,draw_until_playable=true)", wheel_space="color_draw_green")
    g.give(0, "red spin 2", "blue 4").top("red 7").pile("green 4")
    g.turn(0)
    assert_state(g, hands={0: ["blue 4", "green 4"]}, top="red spin 2", cur=1, drawn={0: 1})


# =========================================================================== seven_o
SO3 = "classic(players=3,seven_o=true)"
SO4 = "classic(players=4,seven_o=true)"


def test_seven_swaps_with_the_smallest_other_hand_nearest_on_ties():
    g = Game(SO4, "heuristic").give(0, "red 7", "blue 1", "blue 2")
    g.give(1, "green 1", "green 2", "green 3").give(2, "yellow 1").give(3, "yellow 2")
    g.top("red 3")
    g.turn(0)
    assert_state(
        g,
        hands={
            0: ["yellow 1"],
            1: ["green 1", "green 2", "green 3"],
            2: ["blue 1", "blue 2"],
            3: ["yellow 2"],
        },
        top="red 7",
        colour=RED,
        cur=1,
    )
    assert evs(g, L.EV_SWAP) == [(0, 2, 0)]
    assert evs(g, L.EV_UNO) == [(0, 0, 0)]  # after the swap: seat 0 holds one card
    check_counts(g)


def test_a_spin_seven_is_a_seven_then_spins():
    """spin_cards=9 puts a Spin 7 in the deck: under seven_o it swaps as any 7, and (2005)
    the next seat spins."""
    g = Game("spin2005(players=4,seven_o=true,spin_cards=9)", "heuristic")
    g.give(0, "red spin 7", "blue 1", "blue 2")
    g.give(1, "green 1", "green 2", "green 3").give(2, "yellow 1").give(3, "yellow 2")
    g.top("red 3")
    g.turn(0)
    assert_state(
        g,
        hands={
            0: ["yellow 1"],
            1: ["green 1", "green 2", "green 3"],
            2: ["blue 1", "blue 2"],
            3: ["yellow 2"],
        },
        top="red spin 7",
        colour=RED,
        cur=1,
    )
    assert evs(g, L.EV_SWAP) == [(0, 2, 0)]
    assert g.s(L.S_SPIN_NEXT) == 1
    check_counts(g)


def test_seven_swap_ties_counter_clockwise():
    g = Game(SO4, "heuristic").set(L.S_DIR, -1).give(0, "red 7", "blue 1", "blue 2")
    g.give(1, "green 1").give(2, "yellow 1", "yellow 3").give(3, "yellow 2").top("red 3")
    g.turn(0)
    assert evs(g, L.EV_SWAP) == [(0, 3, 0)]
    assert_state(g, hands={0: ["yellow 2"], 3: ["blue 1", "blue 2"]}, cur=3, direction=-1)


def test_seven_random_target_uniform_among_the_others():
    h1, h2 = ["green 1", "green 2"], ["yellow 3", "yellow 4", "yellow 5"]
    seen = set()
    for seed in range(20):
        g = Game(SO3, seed=seed).give(0, "red 7", "blue 4").give(1, *h1).give(2, *h2)
        g.top("red 1")
        g.turn(0)
        ((a, q, _),) = evs(g, L.EV_SWAP)
        assert a == 0 and q in (1, 2)
        exp = {
            0: h1 if q == 1 else h2,
            1: ["blue 4"] if q == 1 else h1,
            2: ["blue 4"] if q == 2 else h2,
        }
        assert_state(g, hands=exp, top="red 7", cur=1)
        # the player calls UNO after playing, then the receiver of its one card
        assert evs(g, L.EV_UNO) == [(0, 0, 0), (q, 0, 0)]
        codes = g.event_codes()
        assert codes.index(L.EV_UNO) < codes.index(L.EV_SWAP)
        seen.add(q)
    assert seen == {1, 2}


def test_seven_as_the_last_card_wins_without_a_swap():
    g = Game(SO3).give(0, "red 7").give(1, "green 1").top("red 1")
    g.turn(0)
    assert_state(g, hands={0: [], 1: ["green 1"]}, winner=0)
    assert evs(g, L.EV_SWAP) == []


def test_zero_passes_every_hand_clockwise():
    g = Game(SO4).give(0, "red 0", "blue 1").give(1, "green 1", "green 2")
    g.give(2, "yellow 1", "yellow 2", "yellow 3").give(3, "blue 5", "blue 6", "blue 7", "red 9")
    g.top("red 3")
    g.turn(0)
    assert_state(
        g,
        hands={
            0: ["blue 5", "blue 6", "blue 7", "red 9"],
            1: ["blue 1"],
            2: ["green 1", "green 2"],
            3: ["yellow 1", "yellow 2", "yellow 3"],
        },
        top="red 0",
        colour=RED,
        cur=1,
    )
    assert evs(g, L.EV_ZERO_PASS) == [(1, 0, 0)]
    # seat 0 called UNO after playing; after the pass seat 1 holds its one card and calls
    assert evs(g, L.EV_UNO) == [(0, 0, 0), (1, 0, 0)]
    check_counts(g)


def test_zero_passes_every_hand_counter_clockwise():
    g = Game(SO4).set(L.S_DIR, -1).give(0, "red 0", "blue 1").give(1, "green 1", "green 2")
    g.give(2, "yellow 1", "yellow 2", "yellow 3").give(3, "blue 5", "blue 6", "blue 7", "red 9")
    g.top("red 3")
    g.turn(0)
    assert_state(
        g,
        hands={
            0: ["green 1", "green 2"],
            1: ["yellow 1", "yellow 2", "yellow 3"],
            2: ["blue 5", "blue 6", "blue 7", "red 9"],
            3: ["blue 1"],
        },
        top="red 0",
        cur=3,
        direction=-1,
    )
    assert evs(g, L.EV_ZERO_PASS) == [(-1, 0, 0)]
    assert evs(g, L.EV_UNO) == [(0, 0, 0), (3, 0, 0)]


def test_zero_two_players_swaps_the_hands():
    g = Game("classic(players=2,seven_o=true)").give(0, "red 0", "blue 1", "blue 2")
    g.give(1, "green 1").top("red 3")
    g.turn(0)
    assert_state(g, hands={0: ["green 1"], 1: ["blue 1", "blue 2"]}, cur=1)
    assert evs(g, L.EV_UNO) == [(0, 0, 0)]


def test_zero_as_the_last_card_wins_without_a_pass():
    g = Game(SO3).give(0, "red 0").give(1, "green 1").top("red 1")
    g.turn(0)
    assert_state(g, hands={0: [], 1: ["green 1"]}, winner=0)
    assert evs(g, L.EV_ZERO_PASS) == []


def test_zero_receiver_forgets_uno_and_is_caught():
    bots = "random(catch=1),heuristic(forget=1),random(catch=1)"
    g = Game(SO3, bots).give(0, "red 0", "blue 1").give(1, "green 1", "green 2")
    g.give(2, "yellow 1", "yellow 2").top("red 3").pile("yellow 8", "yellow 9")
    g.turn(0)
    # seat 1 receives seat 0's one card, forgets UNO, is caught: draws 2 after the action
    assert_state(
        g,
        hands={
            0: ["yellow 1", "yellow 2"],
            1: ["blue 1", "yellow 8", "yellow 9"],
            2: ["green 1", "green 2"],
        },
        cur=1,
        drawn={1: 2},
        pile=0,
    )
    assert evs(g, L.EV_FORGET) == [(1, 0, 0)] and evs(g, L.EV_PENALTY) == [(1, 0, 0)]


def test_seven_uno_caught_twice_in_one_action_draws_two_twice():
    """INTERPRETATIONS "UNO": every caught forgetting costs 2. Seat 0 plays its 7 down to one
    card (forgets, caught), swaps for seat 1's one card (forgets, caught again): it draws 4
    at the end of the action; seat 1 calls UNO for the card it received."""
    g = Game("classic(players=2,seven_o=true)", "random(forget=1),random(catch=1)")
    g.give(0, "red 7", "blue 1").give(1, "green 3").top("red 0").pile(*["yellow 5"] * 4)
    g.turn(0)
    assert_state(
        g,
        hands={0: ["green 3"] + ["yellow 5"] * 4, 1: ["blue 1"]},
        top="red 7",
        colour=RED,
        cur=1,
        drawn={0: 4, 1: 0},
        pile=0,
    )
    assert evs(g, L.EV_SWAP) == [(0, 1, 0)]
    assert evs(g, L.EV_FORGET) == [(0, 0, 0)] * 2 and evs(g, L.EV_CAUGHT) == [(0, 1, 0)] * 2
    assert evs(g, L.EV_PENALTY) == [(0, 0, 0)] * 2 and evs(g, L.EV_UNO) == [(1, 0, 0)]


def test_a_drawn_seven_that_is_played_swaps():
    g = Game(SO3, "heuristic").give(0, "blue 4", "blue 5").give(1, "green 1")
    g.give(2, "yellow 1", "yellow 2").top("red 1").pile("red 7")
    g.turn(0)
    assert_state(
        g, hands={0: ["green 1"], 1: ["blue 4", "blue 5"]}, top="red 7", cur=1, drawn={0: 1}
    )
    assert evs(g, L.EV_SWAP) == [(0, 1, 0)]


def test_seven_o_off_a_seven_is_a_number():
    g = Game("classic(players=3)").give(0, "red 7", "blue 4").give(1, "green 1").top("red 1")
    g.turn(0)
    assert_state(g, hands={0: ["blue 4"], 1: ["green 1"]}, cur=1)
    assert evs(g, L.EV_SWAP) == []


def test_two_x_seven_swaps_before_the_second_card():
    g = Game("spin2025(players=3,seven_o=true)", "heuristic").set(L.S_TWO_X, 1)
    g.give(0, "red 7", "blue 5", "green 9").give(1, "red 4", "green 1")
    g.give(2, "yellow 1", "yellow 2", "yellow 3").top("red 1")
    g.turn(0)
    # swap with seat 1 (the smallest hand), then the red 4 of the new hand on the red 7
    assert played(g, 0) == ["red 7", "red 4"]
    assert_state(g, hands={0: ["green 1"], 1: ["blue 5", "green 9"]}, top="red 4", cur=1)


def test_wheel_discards_of_sevens_trigger_nothing():
    g = Game("spin2005(players=3,seven_o=true)", "heuristic", wheel_space="discard_number")
    g.set(L.S_SPIN_NEXT, 1).give(1, "green 7", "green 7", "blue 3").give(2, "red 1")
    g.top("yellow 0")
    g.turn(1)
    assert_state(g, hands={1: ["blue 3"], 2: ["red 1"]}, top="green 7", cur=2)
    assert evs(g, L.EV_SWAP) == [] and evs(g, L.EV_ZERO_PASS) == []


# =========================================================================== special wilds
SW4 = "classic(players=4,special_wilds=swap_hands)"
SH3 = "classic(players=3,special_wilds=shuffle_hands)"


def test_wild_swap_hands_heuristic_names_a_colour_and_takes_the_smallest_hand():
    g = Game(SW4, "heuristic").give(0, "wild swap hands", "green 1", "green 2", "blue 3")
    g.give(1, "red 1", "red 2").give(2, "yellow 1").give(3, "yellow 2", "yellow 3")
    g.top("red 9")
    g.turn(0)
    assert_state(
        g,
        hands={
            0: ["yellow 1"],
            1: ["red 1", "red 2"],
            2: ["blue 3", "green 1", "green 2"],
            3: ["yellow 2", "yellow 3"],
        },
        top="wild swap hands",
        colour=GREEN,
        cur=1,
    )
    codes = g.event_codes()
    assert codes.index(L.EV_COLOUR) < codes.index(L.EV_SWAP)
    assert evs(g, L.EV_SWAP) == [(0, 2, 0)]
    assert evs(g, L.EV_UNO) == [(0, 0, 0)]
    check_counts(g)


def test_wild_swap_hands_random_target():
    seen = set()
    hands = {1: ["red 1", "red 2"], 2: ["yellow 1"], 3: ["yellow 2", "yellow 3", "blue 4"]}
    for seed in range(30):
        g = Game(SW4, seed=seed).give(0, "wild swap hands", "green 1")
        for q, h in hands.items():
            g.give(q, *h)
        g.top("red 9")
        g.turn(0)
        ((a, q, _),) = evs(g, L.EV_SWAP)
        exp = dict(hands)
        exp[0], exp[q] = hands[q], ["green 1"]
        assert a == 0 and q in (1, 2, 3)
        assert_state(g, hands=exp, top="wild swap hands", cur=1)
        # the player called UNO after playing; then the receiver of its one card
        assert evs(g, L.EV_UNO)[0] == (0, 0, 0) and (q, 0, 0) in evs(g, L.EV_UNO)
        seen.add(q)
    assert seen == {1, 2, 3}


def test_wild_swap_hands_as_the_last_card_wins():
    g = Game(SW4).give(0, "wild swap hands").give(1, "red 1").top("red 9")
    g.turn(0)
    assert_state(g, hands={0: [], 1: ["red 1"]}, winner=0)
    assert evs(g, L.EV_SWAP) == []


def _redeal_seats(g):
    return [e[0] for e in evs(g, L.EV_REDEAL)]


@pytest.mark.parametrize("direction, order", [(1, [1, 2, 0]), (-1, [2, 1, 0])])
def test_wild_shuffle_hands_deals_everything_from_the_next_player(direction, order):
    start = ["wild shuffle hands", "green 1", "green 2"]
    others = {1: ["red 1", "red 2", "red 3"], 2: ["yellow 1"]}
    cards = sorted(start[1:] + others[1] + others[2])
    where = {c: set() for c in cards}
    for seed in range(60):
        g = Game(SH3, "heuristic", seed=seed).set(L.S_DIR, direction).give(0, *start)
        for q, h in others.items():
            g.give(q, *h)
        g.top("blue 9")
        g.turn(0)
        assert g.top_name == "wild shuffle hands" and g.colour == GREEN
        assert evs(g, L.EV_SHUFFLE) == [(0, order[0], 0)]
        # 6 cards dealt one at a time from the next seat in the direction of play
        assert _redeal_seats(g) == (order * 2)
        assert sorted(g.hand(0) + g.hand(1) + g.hand(2)) == cards
        assert [g.size(q) for q in range(3)] == [2, 2, 2]
        assert g.cur == order[0] and g.drawn(0) == 0
        check_counts(g)
        for q in range(3):
            for c in g.hand(q):
                where[c].add(q)
    assert all(seats == {0, 1, 2} for seats in where.values())


def test_wild_shuffle_hands_uneven_deal_and_uno_checks():
    g = Game("classic(players=4,special_wilds=shuffle_hands)", "heuristic", seed=3)
    g.give(0, "wild shuffle hands", "green 1", "green 2").give(1, "red 1", "red 2")
    g.give(2, "yellow 1").give(3, "blue 1").top("blue 9")
    g.turn(0)
    # 6 cards from seat 1: seats 1 and 2 get 2, seats 3 and 0 get 1 and call UNO
    assert _redeal_seats(g) == [1, 2, 3, 0, 1, 2]
    assert [g.size(q) for q in range(4)] == [1, 2, 2, 1]
    assert evs(g, L.EV_UNO) == [(0, 0, 0), (3, 0, 0)]
    codes = g.event_codes()
    assert codes.index(L.EV_SHUFFLE) < codes.index(L.EV_UNO)


def test_wild_shuffle_hands_as_the_last_card_wins():
    g = Game(SH3).give(0, "wild shuffle hands").give(1, "red 1").top("red 9")
    g.turn(0)
    assert_state(g, hands={0: [], 1: ["red 1"]}, winner=0)
    assert evs(g, L.EV_SHUFFLE) == []


def test_special_wild_forbids_wd4_under_wild_matches_colour():
    g = Game("classic(players=3,special_wilds=swap_hands,wild_matches_colour=true)")
    g.give(0, "wild draw four", "wild swap hands").top("red 2")
    assert not K.wd4_legal(g.st, g.r, 0)
    g2 = Game(SW4).give(0, "wild draw four", "wild swap hands").top("red 2")
    assert K.wd4_legal(g2.st, g2.r, 0)


@pytest.mark.parametrize("rules", [SW4, SH3])
def test_special_wild_as_first_discard_acts_as_a_wild(rules):
    """The deck is all red 5s but one special wild: the seeds where it is turned first."""
    import numpy as np

    g = Game(rules)
    special = KIND["wild swap hands"] if "swap" in rules else KIND["wild shuffle hands"]
    n = 7 * g.rules.players + 5
    deck = np.array([KIND["red 5"]] * (n - 1) + [special], np.int64)
    g.r[L.R_DECK_N] = n
    found = 0
    for seed in range(400):
        g.st.s[L.S_LOG_N] = 0
        K.setup_round(g.st, g.r, deck, g.bots, np.uint64(seed + 1))
        ev_ = [tuple(int(x) for x in row) for row in g.st.log[: g.s(L.S_LOG_N)]]
        if (L.EV_FIRST, special, 0, 0) not in ev_:
            continue
        found += 1
        assert g.s(L.S_FIRST) == 0 and g.s(L.S_CUR) == 0 and g.s(L.S_DIR) == 1
        (col,) = [e[2] for e in ev_ if e[0] == L.EV_COLOUR and e[1] == 0]
        assert g.colour == col
        assert not any(e[0] in (L.EV_SWAP, L.EV_SHUFFLE, L.EV_SKIPPED, L.EV_DRAW) for e in ev_)
    assert found > 0


# =========================================================================== whole rounds
def _stacked(rows):
    """Penalties passed on by a stack (EV_PENALTY_ON right after a play by the old victim)."""
    n = 0
    victim = -1
    for i, r in enumerate(rows):
        if r[0] == L.EV_PENALTY_ON:
            if victim >= 0 and any(x[0] == L.EV_PLAY and x[1] == victim for x in rows[i - 3 : i]):
                n += 1
            victim = r[1]
    return n


def _multi_draws(rows):
    """Turns with two or more ordinary draws in a row (no penalty pending)."""
    n = 0
    for i in range(len(rows) - 2):
        if rows[i][0] == L.EV_TURN and rows[i + 1][0] == L.EV_DRAW and rows[i + 2][0] == L.EV_DRAW:
            n += 1
    return n


@pytest.mark.parametrize(
    "edition, option, measure",
    [
        ("classic", "stacking=true", _stacked),
        ("spin2025", "stacking=true", _stacked),
        ("classic", "draw_until_playable=true", _multi_draws),
        ("spiderman", "draw_until_playable=true", _multi_draws),
        ("classic", "seven_o=true", lambda rows: sum(r[0] == L.EV_SWAP for r in rows)),
        ("spin2005", "seven_o=true", lambda rows: sum(r[0] == L.EV_ZERO_PASS for r in rows)),
        ("classic", "special_wilds=swap_hands", lambda rows: sum(r[0] == L.EV_SWAP for r in rows)),
        (
            "classic",
            "special_wilds=shuffle_hands",
            lambda rows: sum(r[0] == L.EV_SHUFFLE for r in rows),
        ),
    ],
)
def test_each_rule_acts_in_whole_games_and_only_with_its_option(edition, option, measure):
    from unospin_sim.run import trace

    counts = {}
    for opts in (option, ""):
        rules = f"{edition}(players=4{',' + opts if opts else ''})"
        n = 0
        for game in range(40):
            log, _, _, _ = trace(rules, "random", seed=9, game=game)
            n += measure([tuple(int(x) for x in r) for r in log])
        counts[opts] = n
    assert counts[option] > 0 and counts[""] == 0


INVARIANT_GAMES = 20_000


BOTS = ("random(forget=0.3,catch=0.5,challenge=0.3,bluff=0.2)", "heuristic(challenge=0.5)")


def mixed_bots(players):
    """Random and heuristic seats by turns, with UNO, bluff and challenge knobs."""
    return ",".join((BOTS * players)[:players])


def assert_invariants(rules, games=INVARIANT_GAMES):
    res = simulate(
        rules,
        mixed_bots(parse_rules(rules).players),
        games=games,
        seed=5,
        check=True,
        execution=Execution(threads=2),
    )
    r = res.rounds
    assert int(r.invariant_failures.sum()) == 0
    assert (r.winner >= 0).mean() > 0.99
    return r


@pytest.mark.parametrize(
    "rules",
    [
        "classic(players=2,stacking=true)",
        "classic(players=4,stacking=true)",
        "spin2005(players=3,stacking=true)",
        "spin2025(players=2,stacking=true)",
        "spin2025(players=5,stacking=true)",
        "spiderman(players=10,stacking=true)",
    ],
)
def test_stacking_invariants(rules):
    assert_invariants(rules)


@pytest.mark.parametrize(
    "rules",
    [
        "classic(players=2,draw_until_playable=true)",
        "classic(players=6,draw_until_playable=true)",
        "spin2005(players=4,draw_until_playable=true)",
        "spin2025(players=3,draw_until_playable=true)",
        "spiderman(players=4,draw_until_playable=true)",
        "spin2025(players=4,draw_until_playable=true,stacking=true)",
    ],
)
def test_draw_until_playable_invariants(rules):
    assert_invariants(rules)


@pytest.mark.parametrize(
    "rules",
    [
        "classic(players=2,seven_o=true)",
        "classic(players=5,seven_o=true)",
        "spin2005(players=4,seven_o=true)",
        "spin2025(players=3,seven_o=true)",
        "spin2025(players=10,seven_o=true)",
        "spiderman(players=4,seven_o=true)",
        "classic(players=4,seven_o=true,stacking=true,draw_until_playable=true)",
    ],
)
def test_seven_o_invariants(rules):
    assert_invariants(rules)


@pytest.mark.parametrize(
    "rules",
    [
        "classic(players=2,special_wilds=swap_hands)",
        "classic(players=4,special_wilds=swap_hands)",
        "classic(players=3,special_wilds=shuffle_hands)",
        "classic(players=10,special_wilds=shuffle_hands)",
        "classic(players=4,stacking=true,draw_until_playable=true,seven_o=true,"
        "special_wilds=shuffle_hands)",
    ],
)
def test_special_wilds_invariants(rules):
    r = assert_invariants(rules)
    assert r.cards_drawn.sum() > 0


# =========================================================================== force_play
# The built-in strategies always play when they can, so force_play changes nothing for them;
# a strategy id with no branch in engine/policy (99: test-only) answers -1 ("draw") to every
# choose_card, which is the situation the rule exists for.
DRAWER = 99


def _drawer_game(rules):
    g = Game(rules)
    g.bots[0, L.B_STRATEGY] = DRAWER
    g.give(0, "blue 9", "red skip", "red 5").top("red 2").pile("green 7")
    return g


def test_force_play_plays_the_lowest_playable_kind_instead_of_drawing():
    g = _drawer_game("classic(players=3,force_play=true)").turn(0)
    assert played(g) == ["red 5"]
    assert_state(
        g, hands={0: ["blue 9", "red skip"]}, top="red 5", colour=RED, cur=1, drawn={0: 0}, pile=1
    )


def test_without_force_play_the_strategy_may_draw_instead():
    g = _drawer_game("classic(players=3)").turn(0)
    assert played(g) == []
    assert_state(
        g,
        hands={0: ["blue 9", "green 7", "red 5", "red skip"]},
        top="red 2",
        cur=1,
        drawn={0: 1},
        pile=0,
    )


def test_force_play_nothing_playable_draws():
    g = Game("classic(players=3,force_play=true)")
    g.bots[0, L.B_STRATEGY] = DRAWER
    g.give(0, "blue 9").top("red 2").pile("green 7").turn(0)
    assert played(g) == [] and g.hand(0) == ["blue 9", "green 7"] and g.cur == 1
    assert g.drawn(0) == 1


def test_force_play_is_a_house_rule_off_by_default():
    assert "force_play" in HOUSE_RULES
    rs = parse_rules("spin2005(players=4,force_play=true)")
    assert str(rs) == "spin2005(players=4,force_play=true)" and parse_rules(str(rs)) == rs
    from unospin_sim.bots import parse_bots
    from unospin_sim.engine.encode import encode

    ki = encode(rs, parse_bots("random", 4))
    assert ki.rules[L.R_FORCE_PLAY] == 1 and ki.rules[L.R_HOUSE] == 1
    ki = encode(parse_rules("spin2005(players=4)"), parse_bots("random", 4))
    assert ki.rules[L.R_FORCE_PLAY] == 0 and ki.rules[L.R_HOUSE] == 0
    with pytest.raises(RuleError, match="force_play cannot be combined with rlcard=true"):
        parse_rules("classic(rlcard=true,force_play=true)")


@pytest.mark.parametrize("bots", ["random", "heuristic"])
def test_force_play_changes_nothing_for_the_built_in_bots(bots):
    """random and heuristic always play when they can: the same seed gives the same rounds
    with and without force_play (both run the house-rule kernel: stacking on in both)."""
    a = simulate(
        "classic(players=4,stacking=true)", bots, games=300, seed=5, execution=Execution(threads=1)
    ).rounds
    b = simulate(
        "classic(players=4,stacking=true,force_play=true)",
        bots,
        games=300,
        seed=5,
        execution=Execution(threads=1),
    ).rounds
    assert a.equals(b)


# ===================================================== every compatible house rule at once
ALL_HOUSE_GAMES = 100_000


def _all_house_rules(edition: str, players: int) -> str:
    """The rule string with every implemented house rule of ``edition`` on (from the options
    table: a new house rule joins this test by itself), ``special_wilds`` as Shuffle Hands
    (the one that moves the most cards)."""
    from unospin_sim.rules.options import OPTIONS

    on = []
    for o in OPTIONS:
        if not o.house or o.name in NOT_IMPLEMENTED or edition not in o.editions:
            continue
        if o.name == "partners" and (players % 2 or players < 4):
            continue  # teams of two sitting opposite: refused with an odd player count
        if o.type == "bool":
            on.append(f"{o.name}=true")
        elif o.name == "special_wilds":
            on.append("special_wilds=shuffle_hands")
        else:  # an enum house rule: its last value
            on.append(f"{o.name}={o.domain[-1]}")
    return f"{edition}(players={players},{','.join(on)})"


@pytest.mark.parametrize(
    "edition,players", [("classic", 4), ("spin2005", 3), ("spin2025", 4), ("spiderman", 6)]
)
@pytest.mark.slow
def test_invariants_with_every_compatible_house_rule(edition, players):
    """>= 100,000 rounds per edition with every house rule on (issue 9): cards conserved,
    hands and piles consistent after every action, and rounds end."""
    rules = _all_house_rules(edition, players)
    rs = parse_rules(rules)
    on = [
        o
        for o, v in rs.options.items()
        if o in HOUSE_RULES and v != parse_rules(f"{edition}()").option(o)
    ]
    assert len(on) >= 4, rules
    assert_invariants(rules, games=ALL_HOUSE_GAMES)
