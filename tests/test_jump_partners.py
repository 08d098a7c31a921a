"""The house rules jump_in and partners (docs/HOUSE_RULES.md) in the numba kernel.

Style of ``test_house_rules.py``: a hand-built state (``statekit``), one action, the EXACT
resulting state; then whole rounds (invariants with ``check=True``, results identical to the
rules without the option where the option cannot matter, the team columns).
"""

from __future__ import annotations

import numpy as np
import pytest
from statekit import KIND, Game
from test_engine_rules import assert_state, evs
from test_house_rules import assert_invariants

from unospin_sim.engine import layout as L
from unospin_sim.errors import RuleError
from unospin_sim.results import TEAM_COLUMNS, round_columns
from unospin_sim.rules import HOUSE_RULES, NOT_IMPLEMENTED, RuleSet, parse_rules
from unospin_sim.run import simulate

RED, YELLOW, GREEN, BLUE = range(4)
JI4 = "classic(players=4,jump_in=true)"
PJ4 = "classic(players=4,jump_in=true,partners=true)"


def window(g):
    """(kind + 1, seat) of the open jump-in window ((0, x) when none)."""
    return g.s(L.S_JUMP_KIND), g.s(L.S_JUMP_BY)


# =========================================================================== the options
@pytest.mark.parametrize("name", ["jump_in", "partners"])
@pytest.mark.parametrize("edition", ["classic", "spin2005", "spin2025", "spiderman"])
def test_option_canonical_string(name, edition):
    rs = parse_rules(f"{edition}(players=4,{name}=true)")
    assert str(rs) == f"{edition}(players=4,{name}=true)"
    assert parse_rules(str(rs)) == rs and rs.option(name) is True
    assert rs == RuleSet.build(edition, players=4, **{name: True})
    assert parse_rules(f"{edition}(players=4,{name}=false)") == parse_rules(f"{edition}(players=4)")
    assert name in HOUSE_RULES and name not in NOT_IMPLEMENTED
    with pytest.raises(RuleError, match="cannot be combined with rlcard=true"):
        parse_rules(f"classic(rlcard=true,{name}=true)")


def test_options_reach_the_kernel():
    from unospin_sim.bots import parse_bots
    from unospin_sim.engine.encode import encode

    for text, field in [("jump_in", L.R_JUMP_IN), ("partners", L.R_PARTNERS)]:
        r = encode(parse_rules(f"spin2005(players=4,{text}=true)"), parse_bots("random", 4)).rules
        r0 = encode(parse_rules("spin2005(players=4)"), parse_bots("random", 4)).rules
        assert r[field] == 1 and r0[field] == 0 and r[L.R_HOUSE] == 1 and r0[L.R_HOUSE] == 0


@pytest.mark.parametrize(
    "text, words",
    [
        ("classic(players=3,partners=true)", "partners=true cannot be combined with players=3"),
        ("classic(players=2,partners=true)", "partners=true cannot be combined with players=2"),
        ("spin2025(players=5,partners=true)", "partners=true cannot be combined with players=5"),
        (
            "classic(players=4,partners=true,match=lowest)",
            "partners=true cannot be combined with match=lowest",
        ),
    ],
)
def test_partners_nonsense_is_refused_in_one_line(text, words):
    with pytest.raises(RuleError) as info:
        parse_rules(text)
    assert words in str(info.value) and "\n" not in str(info.value)
    for n in (4, 6, 8, 10):
        parse_rules(f"classic(players={n},partners=true)")
        parse_rules(f"classic(players={n},partners=true,match=race)")


# =========================================================================== jump_in
def test_jump_in_on_a_number_play_continues_from_the_jumper():
    g = Game(JI4).give(0, "red 5", "blue 9").give(1, "red 5", "green 1").give(2, "yellow 3")
    g.give(3, "red 5", "green 2").top("red 2")
    g.turn(0)
    assert_state(g, hands={0: ["blue 9"]}, top="red 5", colour=RED, cur=1)
    assert window(g) == (KIND["red 5"] + 1, 0)
    # seat 1 is to act (it plays in its own turn), seat 2 holds none: seat 3 jumps in
    assert g.jump() == 3
    assert_state(
        g,
        hands={0: ["blue 9"], 1: ["red 5", "green 1"], 2: ["yellow 3"], 3: ["green 2"]},
        top="red 5",
        colour=RED,
        cur=0,
    )
    assert g.s(L.S_TURNS) == 1  # a jump-in is not a turn
    assert evs(g, L.EV_JUMP_IN) == [(3, KIND["red 5"], 0)]
    assert window(g) == (KIND["red 5"] + 1, 3) and g.s(L.S_JUMP_PLAY) == 0
    # on seat 3's card: seat 0 is to act, seat 1 now may jump in (chains)
    assert g.jump() == 1
    assert_state(g, hands={1: ["green 1"]}, cur=2)
    assert window(g) == (KIND["red 5"] + 1, 1)
    assert g.jump() == -1  # nobody else holds a red 5
    assert window(g)[0] == 0 and g.s(L.S_TURNS) == 1


def test_jump_in_with_a_skip_passes_the_seat_after_the_jumper():
    g = Game(JI4).give(0, "red skip", "blue 9").give(1, "red skip", "green 1")
    g.give(2, "yellow 3").give(3, "green 2").top("red 2")
    g.turn(0)
    assert_state(g, cur=2)
    assert g.jump() == 1  # the skipped seat is not the seat to act: it may jump in
    assert_state(g, hands={1: ["green 1"]}, top="red skip", cur=3)
    assert evs(g, L.EV_SKIPPED) == [(1, 0, 0), (2, 0, 0)]


def test_jump_in_with_a_draw_two_the_seat_after_the_jumper_draws():
    g = Game(JI4).give(0, "red draw two", "blue 9").give(1, "green 1").give(2, "yellow 3")
    g.give(3, "red draw two", "green 2").top("red 2").pile(
        "green 4", "green 5", "green 6", "green 7"
    )
    g.turn(0)
    assert_state(g, cur=2, drawn={1: 2})
    assert g.jump() == 3
    assert_state(
        g, hands={3: ["green 2"]}, top="red draw two", cur=1, drawn={0: 2, 1: 2, 2: 0, 3: 0}, pile=0
    )
    assert g.size(0) == 3 and g.size(1) == 3
    assert evs(g, L.EV_SKIPPED) == [(1, 0, 0), (0, 0, 0)]


def test_jump_in_reverse_turns_play_around_the_jumper():
    g = (
        Game(JI4)
        .give(0, "red reverse", "blue 9")
        .give(1, "green 1")
        .give(2, "red reverse", "yellow 3")
    )
    g.give(3, "green 2").top("red 2")
    g.turn(0)
    assert_state(g, cur=3, direction=-1)
    assert g.jump() == 2  # counter-clockwise from seat 0: seat 3 is to act, then seat 2
    assert_state(g, hands={2: ["yellow 3"]}, cur=3, direction=1)


def test_no_jump_in_on_wilds_spin_cards_own_card_or_with_the_option_off():
    g = Game(JI4).give(0, "wild", "blue 9").give(2, "wild").give(3, "wild").top("red 2")
    g.turn(0)
    assert window(g)[0] == 0 and g.jump() == -1
    g = Game(JI4).give(0, "red 5", "red 5", "blue 9").give(1, "green 1").give(2, "yellow 3")
    g.give(3, "green 2").top("red 2")
    g.turn(0)
    assert window(g) == (KIND["red 5"] + 1, 0)
    assert g.jump() == -1  # only its own player holds another red 5
    g = Game("spin2025(players=4,jump_in=true)", wheel_space="two_x")
    g.give(0, "red spin 3", "blue 9").give(2, "red spin 3").give(3, "red spin 3").top("red 2")
    g.turn(0)
    assert g.s(L.S_TWO_X) == 1 and g.top_name == "red spin 3"
    assert window(g)[0] == 0 and g.jump() == -1
    g = Game("classic(players=4)").give(0, "red 5", "blue 9").give(3, "red 5").top("red 2")
    g.turn(0)
    assert window(g)[0] == 0


def test_no_jump_in_on_a_pending_stacking_penalty():
    g = Game("classic(players=4,jump_in=true,stacking=true)").give(0, "red draw two", "blue 9")
    g.give(1, "green 1").give(2, "yellow 3").give(3, "red draw two").top("red 2")
    g.turn(0)
    assert g.s(L.S_PEN_N) == 2 and window(g)[0] == 0 and g.jump() == -1


def test_jump_knob_and_order():
    bots = "random,random,random(jump=0),random"
    g = Game(JI4, bots).give(0, "red 5", "blue 9").give(1, "green 1").give(2, "red 5", "green 1")
    g.give(3, "red 5", "green 2").top("red 2")
    g.turn(0)
    assert g.jump() == 3  # seat 2 comes first in turn order but never jumps (jump=0)
    g = Game(JI4).give(0, "red 5", "blue 9").give(1, "green 1").give(2, "red 5", "green 1")
    g.give(3, "red 5", "green 2").top("red 2")
    g.turn(0)
    assert g.jump() == 2  # nearest in turn order after the card's player
    # jump=0.5: both answers happen, nothing else
    seen = set()
    for seed in range(1, 40):
        g = Game(JI4, "random(jump=0.5)", seed=seed).give(0, "red 5", "blue 9")
        g.give(1, "green 1").give(2, "red 5", "green 1").give(3, "red 5", "green 2").top("red 2")
        g.turn(0)
        seen.add(g.jump())
    assert seen == {-1, 2, 3}


def test_a_jump_in_may_win_the_round():
    g = Game(JI4).give(0, "red 5", "blue 9").give(1, "green 1").give(2, "red 5")
    g.give(3, "green 2", "green 3").top("red 2")
    g.turn(0)
    assert g.jump() == 2
    assert_state(g, hands={2: []}, winner=2)


# =========================================================================== partners
def test_partners_never_jump_in_past_the_partner():
    # seat 3's partner is seat 1, the seat to act: jumping in would take its turn
    g = Game(PJ4).give(0, "red 5", "blue 9").give(1, "green 1").give(2, "yellow 3")
    g.give(3, "red 5", "green 2").top("red 2")
    g.turn(0)
    assert g.jump() == -1
    # seat 2 (partner: seat 0) only passes over seat 1, an opponent
    g = Game(PJ4).give(0, "red 5", "blue 9").give(1, "green 1").give(2, "red 5", "yellow 3")
    g.give(3, "red 5", "green 2").top("red 2")
    g.turn(0)
    assert g.jump() == 2
    assert_state(g, cur=3)


def test_partners_swap_target_is_an_opponent():
    def seven(rules, bots, seed=1):
        g = Game(rules, bots, seed=seed).give(0, "red 7", "blue 9", "blue 8")
        g.give(1, "green 1", "green 2", "green 3").give(2, "yellow 1")
        g.give(3, "yellow 2", "yellow 3").top("red 2")
        g.turn(0)
        return g

    g = seven("classic(players=4,seven_o=true,partners=true)", "heuristic")
    assert evs(g, L.EV_SWAP) == [(0, 3, 0)]  # the smallest opponent's hand, not seat 2's
    assert_state(g, hands={0: ["yellow 2", "yellow 3"], 3: ["blue 9", "blue 8"], 2: ["yellow 1"]})
    g = seven("classic(players=4,seven_o=true)", "heuristic")
    assert evs(g, L.EV_SWAP) == [(0, 2, 0)]
    targets = {
        evs(seven("classic(players=4,seven_o=true,partners=true)", "random", s), L.EV_SWAP)[0][1]
        for s in range(1, 30)
    }
    assert targets == {1, 3}


def test_partners_never_catch_each_other():
    bots = "random(forget=1,catch=0),random(catch=0),random(catch=1),random(catch=0)"
    for rules, caught in [
        ("classic(players=4,partners=true)", []),
        ("classic(players=4)", [(0, 2, 0)]),
    ]:
        g = Game(rules, bots).give(0, "red 5", "blue 9").give(1, "green 1").give(2, "green 2")
        g.give(3, "green 3").top("red 2").pile("green 4", "green 5")
        g.turn(0)
        assert evs(g, L.EV_FORGET) == [(0, 0, 0)] and evs(g, L.EV_CAUGHT) == caught
        assert g.size(0) == 1 + 2 * len(caught)


def test_partners_web_swing_stops_short_of_the_partner():
    def swing(rules):
        g = Game(rules, "heuristic").give(0, "wild web swing", "red 1", "red 2")
        g.give(1, "red 4", "green 1", "green 2", "green 3").give(2, "red 5", "green 4")
        g.give(3, "red 6").top("blue 3")
        g.turn(0)
        return g

    g = swing("spiderman(players=4,partners=true)")
    assert evs(g, L.EV_WEB_SWING) == [(0, RED, 1)] and g.cur == 2
    g = swing("spiderman(players=4)")
    assert evs(g, L.EV_WEB_SWING) == [(0, RED, 3)] and g.cur == 0


def test_team_columns():
    for n in (4, 6):
        rules = parse_rules(f"classic(players={n},partners=true)")
        res = simulate(rules, "random", games=400, seed=3)
        r = res.rounds
        assert list(r.columns) == round_columns(rules)
        assert list(r.columns[-2:]) == list(TEAM_COLUMNS)
        teams = n // 2
        done = r.winner >= 0
        assert (r.team_winner[done] == r.winner[done] % teams).all()
        assert (r.team_winner[~done] == -1).all() and (r.team_points[~done] == 0).all()
        opp = sum(
            np.where((i % teams) != (r.winner % teams), r[f"points_left_{i}"], 0) for i in range(n)
        )
        assert (r.team_points[done] == opp[done]).all()
        assert (r.team_points <= r.winner_points).all()
    assert "team_winner" not in round_columns(parse_rules("classic(players=4)"))


# =========================================================================== jump_in_wilds
JW4 = "classic(players=4,jump_in=true,jump_in_wilds=true)"


def test_jump_in_wilds_a_wild_on_a_wild_names_a_colour_anew():
    g = Game(JW4, "heuristic").give(0, "wild", "blue 9").give(1, "green 1")
    g.give(2, "wild", "yellow 3", "yellow 4").give(3, "green 2").top("red 2")
    g.turn(0)  # its only legal card; heuristic names the colour it holds most: blue
    assert_state(g, hands={0: ["blue 9"]}, top="wild", colour=BLUE, cur=1)
    assert window(g) == (KIND["wild"] + 1, 0)
    assert g.jump() == 2
    assert_state(g, hands={2: ["yellow 3", "yellow 4"]}, top="wild", colour=YELLOW, cur=3)
    assert evs(g, L.EV_JUMP_IN) == [(2, KIND["wild"], 0)] and g.s(L.S_TURNS) == 1
    # without the option no window opens on a wild
    g = Game(JI4, "heuristic").give(0, "wild", "blue 9").give(1, "green 1")
    g.give(2, "wild", "yellow 3").give(3, "green 2").top("red 2")
    g.turn(0)
    assert window(g)[0] == 0 and g.jump() == -1


def test_jump_in_wilds_a_wild_draw_four_hits_the_seat_after_the_jumper_when_legal():
    def deal(seat2):
        g = Game(JW4, "heuristic").give(0, "wild draw four", "blue 9").give(1, "green 1")
        g.give(2, "wild draw four", *seat2).give(3, "green 2", "green 3")
        g.top("red 2").pile(*["yellow 4"] * 8)
        g.turn(0)  # legal (no red held); seat 1 draws 4 and is passed over; names blue
        assert_state(g, top="wild draw four", colour=BLUE, cur=2, drawn={1: 4})
        return g

    # seat 2 holds no blue: its Wild Draw Four is legal; but seat 2 is the seat to act, so
    # it plays in its own turn: nobody else holds one
    g = deal(["yellow 3"])
    assert g.jump() == -1
    # seat 1 (the victim) holds the other one and no blue: it jumps in, seat 2 draws 4
    g = Game(JW4, "heuristic").give(0, "wild draw four", "blue 9").give(1, "green 1")
    g.give(3, "green 2", "green 3").give(2, "yellow 3").top("red 2").pile(*["yellow 4"] * 8)
    g.turn(0)
    g.give(1, "wild draw four")  # it drew 4 yellow; now it also holds the twin
    assert g.jump() == 1
    assert_state(
        g,
        hands={2: ["yellow 3"] + ["yellow 4"] * 4},
        top="wild draw four",
        cur=3,
        drawn={0: 0, 1: 4, 2: 4, 3: 0},
    )
    assert g.colour == YELLOW  # heuristic: the colour it holds most (4 yellow 4s)
    # the same, but seat 1 holds a blue card (the colour named): illegal, no jump-in
    g = Game(JW4, "heuristic").give(0, "wild draw four", "blue 9").give(1, "green 1")
    g.give(3, "green 2", "green 3").give(2, "yellow 3").top("red 2").pile(*["yellow 4"] * 8)
    g.turn(0)
    g.give(1, "wild draw four", "blue 5")
    assert g.jump() == -1


def test_jump_in_wilds_never_on_a_wild_spin():
    g = Game(
        "spin2025(players=4,jump_in=true,jump_in_wilds=true)", "heuristic", wheel_space="two_x"
    )
    g.give(0, "wild spin", "blue 9").give(1, "green 1").give(2, "wild spin", "yellow 3")
    g.give(3, "green 2").top("red 2").pile(*["yellow 4"] * 4)
    g.turn(0)
    assert g.top_name == "wild spin" and window(g)[0] == 0 and g.jump() == -1


def test_jump_in_wilds_needs_jump_in():
    with pytest.raises(RuleError, match="jump_in_wilds=true cannot be combined with jump_in=false"):
        parse_rules("classic(players=4,jump_in_wilds=true)")
    assert str(parse_rules(JW4)) == JW4


# =========================================================================== jump-ins counted
def test_jump_ins_are_counted_per_seat_and_are_not_turns():
    g = Game(JI4).give(0, "red 5", "blue 9").give(1, "red 5", "green 1").give(2, "yellow 3")
    g.give(3, "red 5", "green 2").top("red 2")
    g.turn(0)
    assert [g.st.hand[q, L.JUMPS] for q in range(4)] == [0, 0, 0, 0]
    assert g.jump() == 3 and g.jump() == 1 and g.jump() == -1
    assert [g.st.hand[q, L.JUMPS] for q in range(4)] == [0, 1, 0, 1]
    assert g.s(L.S_TURNS) == 1
    # a Swap Hands moves the hand, not the count (it is the seat's)
    assert L.JUMPS >= L.HAND_FIELDS


def _jump_columns(players):
    return ["jump_ins"] + [f"jump_ins_{i}" for i in range(players)]


@pytest.mark.parametrize(
    "rules, rotate",
    [
        ("classic(players=4,jump_in=true)", False),
        ("classic(players=4,jump_in=true)", True),
        ("spin2025(players=6,jump_in=true,partners=true)", False),
        ("classic(players=3,jump_in=true,match=race,target=200)", False),
    ],
)
def test_jump_in_columns(rules, rotate):
    """Under jump_in the round table counts jump-ins per round and per seat (per player in
    match mode); the count per round is the sum of the seats', and the summary shows its mean
    per round with an interval."""
    from unospin_sim.analysis.summary import summarize

    rs = parse_rules(rules)
    res = simulate(rs, "random", games=300, seed=8, rotate_bots=rotate)
    r, n = res.rounds, rs.players
    cols = _jump_columns(n)
    assert set(cols) <= set(r.columns) and list(r.columns) == round_columns(rs)
    assert (r.jump_ins == sum(r[f"jump_ins_{i}"] for i in range(n))).all()
    assert r.jump_ins.sum() > 0 and (r[cols] >= 0).all().all()
    s = summarize(r, players=n).set_index("statistic")
    assert s.at["mean_jump_ins", "value"] == pytest.approx(r.jump_ins.mean())
    assert s.at["mean_jump_ins", "ci_low"] < r.jump_ins.mean() < s.at["mean_jump_ins", "ci_high"]
    acc = res.summary.summarize().set_index("statistic")  # the run's own accumulator
    assert acc.loc["mean_jump_ins"].to_numpy() == pytest.approx(s.loc["mean_jump_ins"].to_numpy())
    assert not any(c.startswith("jump_ins") for c in round_columns(rs.replace(jump_in=False)))


def test_no_jump_in_columns_without_the_rule():
    for rules in ("classic(players=4)", "spin2025(players=4,partners=true)"):
        rs = parse_rules(rules)
        assert not any(c.startswith("jump_ins") for c in round_columns(rs))
        s = simulate(rs, "random", games=50, seed=1).summary.summarize()
        assert "mean_jump_ins" not in set(s.statistic)


# =========================================================================== whole rounds
@pytest.mark.parametrize(
    "rules",
    [
        "classic(players=4,jump_in=true)",
        "classic(players=2,jump_in=true)",
        "spin2005(players=3,jump_in=true)",
        "spin2025(players=4,jump_in=true)",
        "spiderman(players=5,jump_in=true)",
        "spin2025(players=4,jump_in=true,stacking=true,seven_o=true,draw_until_playable=true)",
        "classic(players=4,partners=true)",
        "spiderman(players=6,partners=true,jump_in=true)",
        "spin2025(players=4,partners=true,seven_o=true)",
        "classic(players=10,jump_in=true,partners=true,special_wilds=swap_hands,stacking=true)",
    ],
)
def test_invariants(rules):
    r = assert_invariants(rules)
    if "partners" in rules:
        assert (r.team_winner >= 0).mean() > 0.99


def test_jump_in_with_nobody_willing_is_the_rules_without_it():
    """jump=0 for every seat: the house-rule round loop gives the default rules' rounds."""
    a = simulate(
        "spin2025(players=4,jump_in=true)",
        "random(jump=0),heuristic(jump=0),random(jump=0,forget=0.3),heuristic(jump=0,bluff=0.3)",
        games=2000,
        seed=4,
    )
    b = simulate(
        "spin2025(players=4)",
        "random,heuristic,random(forget=0.3),heuristic(bluff=0.3)",
        games=2000,
        seed=4,
    )
    jumps = [c for c in a.rounds.columns if c.startswith("jump_ins")]
    assert len(jumps) == 5 and (a.rounds[jumps] == 0).all().all()
    assert a.rounds.drop(columns=jumps).equals(b.rounds) and a.spins.equals(b.spins)


def test_jump_in_happens_and_shortens_rounds():
    a = simulate(JI4, "random", games=3000, seed=6).rounds
    b = simulate("classic(players=4)", "random", games=3000, seed=6).rounds
    assert a.turns.mean() < b.turns.mean() - 3


def test_partners_without_a_choice_to_make_changes_no_round():
    """classic, random bots that never forget UNO: no choice partners changes (no swap, no
    catch, no jump-in), so the rounds are the plain rules' rounds plus the team columns."""
    a = simulate("classic(players=4,partners=true)", "random", games=2000, seed=8).rounds
    b = simulate("classic(players=4)", "random", games=2000, seed=8).rounds
    assert a.drop(columns=list(TEAM_COLUMNS)).equals(b)


def test_once_per_seat_between_two_turns():
    """The endless Draw Two: the pile is empty, each victim draws back the other copy from
    the reshuffled discards and jumps in with it. A seat jumps in at most once between two
    turns, so the chain stops and the seat to act takes its turn."""
    g = Game("classic(players=2,jump_in=true)").give(0, "red draw two", "blue 9")
    g.give(1, "green 1").top("red 2").discards("red draw two")
    g.turn(0)  # seat 1 draws the reshuffled red 2 and red draw two
    assert_state(g, hands={1: ["green 1", "red 2", "red draw two"]}, cur=0)
    assert g.jump() == 1  # seat 1 jumps in with the other copy
    assert_state(g, hands={0: ["blue 9", "red draw two"], 1: ["green 1", "red 2"]}, cur=1)
    assert g.jump() == 0  # seat 0 draws it back and jumps in too (its card came in a turn)
    assert_state(g, hands={0: ["blue 9"], 1: ["green 1", "red 2", "red draw two"]}, cur=0)
    assert g.jump() == -1  # seat 1 already jumped in since the last turn
    assert g.s(L.S_JUMPED) == 0b11 and g.s(L.S_TURNS) == 1
    assert [e[0] for e in evs(g, L.EV_JUMP_IN)] == [1, 0]
    g.turn(0)  # a turn: every seat may jump in again
    assert g.s(L.S_TURNS) == 2


def test_the_endless_draw_two_round_ends():
    """Game 2860 of test_invariants' spin2025 jump_in run went round for ever before the
    once-per-seat rule (found by that test)."""
    from test_house_rules import mixed_bots

    from unospin_sim.bots import parse_bots
    from unospin_sim.engine import kernel as K
    from unospin_sim.engine.encode import encode

    rules = parse_rules("spin2025(players=4,jump_in=true)")
    r, deck, pts, cum, bots = encode(rules, parse_bots(mixed_bots(4), 4), check=True).args()
    out = np.zeros((1, L.n_out_columns(4)), np.int64)
    seeds = np.zeros(1, np.uint64)
    K.play_chunk(r, deck, pts, cum, bots, 5, 2860, out, seeds, False)
    assert out[0, L.O_WINNER] >= 0 and out[0, L.O_VIOLATIONS] == 0


# The partners guard (issue 29): a jump-in is forbidden only when a seat that actually loses its
# turn is the jumper's partner. Jumping in takes the turns of the seats from the one to act up to
# the jumper; a seat passed over by a Skip or a Draw Two sits between the card's player and the
# seat to act and takes nobody's turn. (rules, seat 0's card, {seat: extra cards}, expected
# jumper or -1, the expected state after the jump-in.)
PJ6 = "classic(players=6,jump_in=true,partners=true)"
PARTNER_JUMPS = [
    # 4 players, partners 0+2 and 1+3
    ("skip, the victim jumps", PJ4, "red skip", {1: ["red skip"]}, 1, dict(cur=3)),
    ("skip, past an opponent", PJ4, "red skip", {3: ["red skip"]}, 3, dict(cur=1)),
    ("number, past the partner", PJ4, "red 5", {3: ["red 5"]}, -1, {}),
    (
        "draw two, the victim jumps",
        PJ4,
        "red draw two",
        {1: ["red draw two"]},
        1,
        dict(
            cur=3,
            drawn={0: 0, 1: 2, 2: 2, 3: 0},
            hands={1: ["green 2", "yellow 4", "yellow 4"], 2: ["green 3", "yellow 4", "yellow 4"]},
        ),
    ),
    ("number, past an opponent", PJ4, "red 5", {2: ["red 5"]}, 2, dict(cur=3)),
    ("reverse, past the partner", PJ4, "red reverse", {1: ["red reverse"]}, -1, {}),
    (
        "reverse, past an opponent",
        PJ4,
        "red reverse",
        {2: ["red reverse"]},
        2,
        dict(cur=3, direction=1),
    ),
    # 6 players, partners 0+3, 1+4, 2+5
    ("6p skip, the victim jumps", PJ6, "red skip", {1: ["red skip"]}, 1, dict(cur=3)),
    ("6p skip, past opponents", PJ6, "red skip", {4: ["red skip"]}, 4, dict(cur=0)),
    ("6p skip, past the partner", PJ6, "red skip", {5: ["red skip"]}, -1, {}),
    ("6p number, past the partner", PJ6, "red 5", {4: ["red 5"]}, -1, {}),
    ("6p number, past opponents", PJ6, "red 5", {3: ["red 5"]}, 3, dict(cur=4)),
    (
        "6p reverse, past an opponent",
        PJ6,
        "red reverse",
        {4: ["red reverse"]},
        4,
        dict(cur=5, direction=1),
    ),
    (
        "6p reverse, past opponents",
        PJ6,
        "red reverse",
        {3: ["red reverse"]},
        3,
        dict(cur=4, direction=1),
    ),
    ("6p reverse, past the partner", PJ6, "red reverse", {2: ["red reverse"]}, -1, {}),
]


@pytest.mark.parametrize(
    "name, rules, card, extra, jumper, after", PARTNER_JUMPS, ids=[c[0] for c in PARTNER_JUMPS]
)
def test_partners_jump_in_only_when_no_partner_loses_a_turn(
    name, rules, card, extra, jumper, after
):
    g = Game(rules)
    n = g.s(L.S_NP)
    for seat in range(n):
        g.give(seat, *extra.get(seat, []), f"green {seat + 1}")
    g.give(0, card)
    g.top("red 2").pile(*["yellow 4"] * 4)
    g.turn(0)
    assert g.jump() == jumper
    if jumper >= 0:
        after = dict(after)
        hands = after.pop("hands", {jumper: [f"green {jumper + 1}"]})
        assert_state(g, hands=hands, top=card, **after)
        assert evs(g, L.EV_JUMP_IN) == [(jumper, KIND[card], 0)]
    # the same deal without partners: every one of these seats may jump in
    g = Game(rules.replace(",partners=true", ""))
    for seat in range(n):
        g.give(seat, *extra.get(seat, []), f"green {seat + 1}")
    g.give(0, card)
    g.top("red 2").pile(*["yellow 4"] * 4)
    g.turn(0)
    assert g.jump() == next(iter(extra))
