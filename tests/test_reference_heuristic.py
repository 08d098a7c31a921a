"""The ``heuristic`` strategy (docs/BOTS.md, its column) in the plain-Python reference engine
(issue 8): hand-built situations, the heuristic's characteristic decision at each choice and
the exact state after it. Cross-checks against the kernel's heuristic:
tests/test_crosscheck.py (``-k heuristic``, slow tier). Two choices are pinned only here:
the statistics compared there hardly see the Wild Color Draw colour or which Draw Two is
stacked (see the comments of its HEURISTIC_SHORT_CASES), nor a card choice that ignored
the direction of play or ties of the colour named going to the last colour.
"""

import pytest
from refkit import (
    BLUE,
    DT,
    GREEN,
    RED,
    SK,
    SP,
    WD4,
    WEB,
    WSWAP,
    YELLOW,
    N,
    W,
    big,
    make,
    one_action,
)

from unospin_sim import reference as R

H = dict(strategy="heuristic")
FILL = [N(GREEN, 4), N(GREEN, 5), N(GREEN, 6), N(GREEN, 7)]


def heur(n, **knobs):
    return [dict(H, **knobs)] * n


# ============================================================================ the knob


def test_strategy_knob_and_validation():
    r = R.Round("classic", 2, 0, bots=[H, {}])
    assert [b["strategy"] for b in r.bots] == ["heuristic", "random"]
    for bad in ("smart", None, 1, "greedy"):
        with pytest.raises(ValueError, match="strategy"):
            R.play_round("classic", 2, 0, bots=[dict(strategy=bad), {}])
    with pytest.raises(ValueError, match="unknown bot knob"):
        R.play_round("classic", 2, 0, bots=[dict(stratgy="heuristic"), {}])


@pytest.mark.parametrize("edition", R.EDITIONS)
def test_random_strategy_unchanged(edition):
    """strategy="random" is the default, draw for draw."""
    for seed in range(5):
        a = R.play_round(edition, 4, seed)
        b = R.play_round(edition, 4, seed, bots=[dict(strategy="random")] * 4)
        assert a == b


@pytest.mark.parametrize("edition", R.EDITIONS)
def test_heuristic_rounds_conserve_cards(edition):
    opts = dict(stacking=True, seven_o=True, jump_in=True, partners=True)
    for seed in range(8):
        bots = [H, {}, H, dict(H, bluff=0.5, challenge=0.5, forget=0.3)]
        r = R.Round(edition, 4, seed, R.Options(**opts), bots)
        r.setup()
        r.run()
        assert sorted(map(repr, r.all_cards())) == sorted(map(repr, r.deck))
        assert r.winner >= 0


# ============================================================================ card to play


def test_card_best_score_points_plus_colour():
    # red 9: 9 + 2 x 2 reds = 13; red 3: 7; the blue 5 matches by number: 5 + 2 x 3 = 11
    r = make(
        "classic",
        [[N(RED, 3), N(RED, 9), N(BLUE, 5), N(BLUE, 1), N(BLUE, 2)]] + big(),
        N(RED, 5),
        bots=heur(4),
    )
    one_action(r, 0)
    assert r.top() == N(RED, 9) and r.colour == RED and r.cur == 1
    assert r.hands[0] == [N(RED, 3), N(BLUE, 5), N(BLUE, 1), N(BLUE, 2)]
    # a face match with more of its colour beats the colour in play
    r = make(
        "classic",
        [[N(RED, 3), N(BLUE, 5), N(BLUE, 1), N(BLUE, 2)]] + big(),
        N(RED, 5),
        bots=heur(4),
    )
    one_action(r, 0)
    assert r.top() == N(BLUE, 5) and r.colour == BLUE


def test_card_ties_scan_order():
    # yellow 5 and blue 5 both score 7: the other colours are looked at red, yellow, green,
    # blue, so yellow goes first
    r = make("classic", [[N(BLUE, 5), N(YELLOW, 5), N(RED, 1)]] + big(), N(RED, 5), bots=heur(4))
    one_action(r, 0)
    assert r.top() == N(YELLOW, 5) and r.hands[0] == [N(BLUE, 5), N(RED, 1)]
    # the colour in play first: red 4 (4 + 2) ties green 2 on a red 2 (2 + 2 x 2)
    r = make("classic", [[N(GREEN, 2), N(GREEN, 8), N(RED, 4)]] + big(), N(RED, 2), bots=heur(4))
    one_action(r, 0)
    assert r.top() == N(RED, 4)
    # a number before the Spin card of the same number and colour (both 3 + 2 x 2)
    r = make("spin2025", [[SP(BLUE, 3), N(BLUE, 3), N(RED, 0)]] + big(), N(GREEN, 3), bots=heur(4))
    one_action(r, 0)
    assert r.top() == N(BLUE, 3) and r.hands[0] == [SP(BLUE, 3), N(RED, 0)]


def test_wilds_kept_unless_next_player_is_about_to_win():
    # next player holds 4: a wild scores -100, the red 0 scores 2
    r = make("classic", [[W, N(RED, 0), N(BLUE, 9)]] + big(), N(RED, 5), bots=heur(4))
    one_action(r, 0)
    assert r.top() == N(RED, 0) and r.hands[0] == [W, N(BLUE, 9)]
    # only a wild is legal: it is played (draws only when nothing is legal)
    r = make("classic", [[W, N(BLUE, 9), N(BLUE, 8)]] + big(), N(RED, 5), bots=heur(4), draw=FILL)
    one_action(r, 0)
    assert r.top() == W and r.colour == BLUE and r.cards_drawn == [0, 0, 0, 0]


def test_next_player_small_wd4_then_wild_then_action_cards():
    others = [[N(GREEN, 1)] * 2] + big(2)  # seat 1 holds 2 cards
    # a legal WD4 (no red held) 300 > Wild 250 > a Skip 20 + 2 + 100
    r = make(
        "classic",
        [[W, WD4, SK(BLUE), N(BLUE, 9), N(BLUE, 1)]] + others,
        N(RED, 5),
        bots=heur(4),
        draw=FILL,
    )
    one_action(r, 0)
    assert r.top() == WD4 and r.colour == BLUE
    assert r.hands[0] == [W, SK(BLUE), N(BLUE, 9), N(BLUE, 1)]
    assert r.cards_drawn == [0, 4, 0, 0] and r.cur == 2
    # the WD4 is illegal (a red card held): the Wild, named for the most held colour
    r = make("classic", [[W, WD4, N(RED, 9), N(BLUE, 1)]] + others, N(RED, 5), bots=heur(4))
    one_action(r, 0)
    assert r.top() == W and r.colour == RED  # red and blue tie: the first, red
    # no wild: the Skip (20 + 2 + 100) over the red 9 (9 + 4)
    r = make("classic", [[N(RED, 9), SK(RED), N(RED, 8)]] + others, N(RED, 5), bots=heur(4))
    one_action(r, 0)
    assert r.top() == SK(RED) and r.cur == 2
    # the direction counts: after a Reverse the next player is seat 3
    r = make(
        "classic",
        [[W, N(RED, 0), N(BLUE, 9), N(BLUE, 8)]] + big(2) + [[N(GREEN, 1)] * 2],
        N(RED, 5),
        bots=heur(4),
    )
    r.direction = -1
    one_action(r, 0)
    assert r.top() == W and r.colour == BLUE


def test_second_card_under_2x_same_rule():
    r = make(
        "spin2025",
        [[N(RED, 2), N(RED, 9), N(BLUE, 2), N(GREEN, 7), N(GREEN, 8)]] + big(),
        N(RED, 5),
        bots=heur(4),
    )
    r.two_x = True
    one_action(r, 0)
    # first red 9 (9 + 4), then on the red 9 the red 2 (2 + 2; nothing else is legal)
    assert r.discard[-2:] == [N(RED, 9), N(RED, 2)]
    assert r.hands[0] == [N(BLUE, 2), N(GREEN, 7), N(GREEN, 8)]


def test_draws_only_when_nothing_is_legal_and_plays_the_drawn_card():
    r = make(
        "classic",
        [[N(BLUE, 9), N(BLUE, 8)]] + big(),
        N(RED, 5),
        bots=heur(4),
        draw=[N(GREEN, 3), N(RED, 1)],
    )
    one_action(r, 0)
    assert r.top() == N(RED, 1) and r.hands[0] == [N(BLUE, 9), N(BLUE, 8)]


# ============================================================================ colours


def test_colour_named_most_held_after_the_wild_left():
    r = make(
        "classic",
        [[W, N(GREEN, 1), N(BLUE, 1), N(BLUE, 2), N(GREEN, 3)]] + big(),
        N(RED, 5),
        bots=heur(4),
    )
    one_action(r, 0)
    assert r.top() == W and r.colour == GREEN  # green and blue 2 each: green first


def test_first_card_wild_seat_0_names():
    r = make(
        "classic",
        [[N(BLUE, 1), N(YELLOW, 2), N(YELLOW, 3)]] + big(),
        N(RED, 5),
        bots=heur(4),
        draw=FILL + [W],
    )
    r.discard = []
    r.first_card()
    assert r.top() == W and r.colour == YELLOW and r.first_player == 0


# ============================================================================ 2005 wheel


def test_discard_number_count_times_number_plus_one():
    # four 1s (Spin 1 included): 4 x 2 = 8; one 9: 10
    hand = [N(RED, 1), N(YELLOW, 1), SP(GREEN, 1), N(BLUE, 1), N(BLUE, 9), SK(RED)]
    r = make("spin2005", [hand] + big(), N(RED, 5), bots=heur(4))
    r.space_effect(0, "discard_number")
    assert r.hands[0] == hand[:4] + [SK(RED)] and r.top() == N(BLUE, 9)
    # ties: the lowest number (three 4s = 15 = one 4 ... two 2s x 3 = 6 vs one 5 x 6 = 6)
    hand = [N(RED, 2), N(BLUE, 2), N(GREEN, 5), SK(RED)]
    r = make("spin2005", [hand] + big(), N(RED, 7), bots=heur(4))
    r.space_effect(0, "discard_number")
    assert r.hands[0] == [N(GREEN, 5), SK(RED)]


def test_discard_color_worth_the_most():
    # red: Skip 20 + 1 = 21; yellow: 9 + 8 + 2 = 19; green 1 + 1
    hand = [N(YELLOW, 9), SK(RED), N(YELLOW, 8), N(GREEN, 1), W]
    r = make("spin2005", [hand] + big(), N(BLUE, 5), bots=heur(4))
    r.space_effect(0, "discard_color")
    assert r.hands[0] == [N(YELLOW, 9), N(YELLOW, 8), N(GREEN, 1), W]
    assert r.top() == SK(RED) and r.colour == RED


def test_almost_uno_keeps_wilds():
    hand = [N(RED, 1), W, WD4, N(BLUE, 2), W, SK(GREEN)]
    r = make("spin2005", [hand] + big(), N(BLUE, 5), bots=heur(4))
    r.space_effect(0, "almost_uno")
    assert r.hands[0] == [W, WD4]  # a WD4 and one plain Wild
    assert len(r.discard) == 5
    for seed in range(20):  # one wild: kept, the other uniformly
        hand = [N(RED, 1), N(BLUE, 2), W, SK(GREEN)]
        r = make("spin2005", [hand] + big(), N(BLUE, 5), bots=heur(4), seed=seed)
        r.space_effect(0, "almost_uno")
        assert W in r.hands[0] and len(r.hands[0]) == 2


def test_uno_spin_race_discard_most_points_wilds_last():
    bots = [dict(H, reflex=1.0)] + [dict(H, reflex=0.0)] * 3
    hand = [W, N(RED, 9), SK(BLUE), DT(RED)]
    r = make("spin2005", [hand] + big(), N(BLUE, 5), bots=bots)
    r.spin_records.append({})
    assert r.space_effect(0, "uno_spin") == 0
    # 20 points: the red Draw Two before the blue Skip (red first)
    assert r.hands[0] == [W, N(RED, 9), SK(BLUE)] and r.top() == DT(RED)
    r = make("spin2005", [[W, N(RED, 0)]] + big(), N(BLUE, 5), bots=bots)
    r.spin_records.append({})
    r.space_effect(0, "uno_spin")
    assert r.hands[0] == [W] and r.top() == N(RED, 0)
    r = make("spin2005", [[W, WD4]] + big(), N(BLUE, 5), bots=bots)
    r.spin_records.append({})
    r.space_effect(0, "uno_spin")  # only wilds: the first, a plain Wild
    assert r.hands[0] == [WD4] and r.top() == W


# ============================================================================ 2025 wheel


def test_color_discard_worth_the_most():
    hand = [N(YELLOW, 9), SK(RED), N(YELLOW, 8), N(GREEN, 1), W]
    r = make("spin2025", [hand] + big(), N(BLUE, 5), bots=heur(4))
    r.space_effect(0, "color_discard")
    assert r.hands[0] == [N(YELLOW, 9), N(YELLOW, 8), N(GREEN, 1), W]
    assert r.discard == [SK(RED), N(BLUE, 5)] and r.colour == BLUE


def test_wild_color_draw_fewest_held():
    # red 2, yellow 0, green 1, blue 0: yellow (first of the fewest)
    hand = [N(RED, 1), N(RED, 2), N(GREEN, 3)]
    r = make(
        "spin2025",
        [hand] + big(),
        N(BLUE, 5),
        bots=heur(4),
        draw=[N(BLUE, 2), N(YELLOW, 3), N(GREEN, 1)],
    )
    r.space_effect(0, "wild_color_draw")
    assert r.hands[0] == hand + [N(GREEN, 1), N(YELLOW, 3)]


def test_swap_hands_smallest_nearest():
    hands = [[N(RED, 1)] * 6, [N(RED, 2)] * 5, [N(RED, 3)] * 3, [N(RED, 4)] * 3]
    r = make("spin2025", hands, N(BLUE, 5), bots=heur(4))
    r.spin_records.append({})
    r.space_effect(0, "swap_hands")  # seats 2 and 3 tie: 2 is nearer
    assert r.hands[0] == [N(RED, 3)] * 3 and r.hands[2] == [N(RED, 1)] * 6
    r = make("spin2025", hands, N(BLUE, 5), bots=heur(4))
    r.direction = -1
    r.spin_records.append({})
    r.space_effect(0, "swap_hands")  # counter-clockwise seat 3 is nearer
    assert r.hands[0] == [N(RED, 4)] * 3 and r.hands[3] == [N(RED, 1)] * 6
    # partners: never the partner (seat 2), the smallest opponent's hand
    r = make("spin2025", hands, N(BLUE, 5), bots=heur(4), partners=True)
    r.spin_records.append({})
    r.space_effect(0, "swap_hands")
    assert r.hands[0] == [N(RED, 4)] * 3 and r.spin_records[-1]["other"] == 3


def test_seven_o_and_wild_swap_hands_target():
    hands = [
        [N(RED, 7), N(BLUE, 1), N(BLUE, 2)],
        [N(GREEN, 1)] * 5,
        [N(GREEN, 2)] * 4,
        [N(GREEN, 3)] * 6,
    ]
    r = make("classic", hands, N(RED, 5), bots=heur(4), seven_o=True)
    one_action(r, 0)
    assert r.hands[0] == [N(GREEN, 2)] * 4 and r.hands[2] == [N(BLUE, 1), N(BLUE, 2)]
    hands = [
        [WSWAP, N(BLUE, 1), N(BLUE, 2)],
        [N(GREEN, 1)] * 3,
        [N(GREEN, 2)] * 4,
        [N(GREEN, 3)] * 3,
    ]
    r = make("classic", hands, N(RED, 5), bots=heur(4), special_wilds="swap_hands")
    one_action(r, 0)
    # named blue (the hand before the swap), swapped with seat 1 (3 cards, nearer than 3)
    assert r.colour == BLUE and r.hands[0] == [N(GREEN, 1)] * 3
    assert r.hands[1] == [N(BLUE, 1), N(BLUE, 2)]


# ============================================================================ Spider-Man


def test_web_swing_fewest_cards_lowest_seat():
    hands = [
        [WEB, N(BLUE, 1), N(BLUE, 2)],
        [N(BLUE, 3)] * 4,
        [N(BLUE, 4), N(RED, 1)],
        [N(BLUE, 5), N(RED, 2)],
        [N(RED, 3)],
    ]
    r = make("spiderman", hands, N(RED, 5), bots=heur(5))
    one_action(r, 0)
    # blue named; seats 2 and 3 hold blue with 2 cards: seat 2, play jumps to seat 3
    assert r.colour == BLUE and r.cur == 3
    # partners (6 players, partner seat 3): only seats short of it, seat 4 is not eligible
    hands = [
        [WEB, N(BLUE, 1), N(BLUE, 2)],
        [N(BLUE, 3)] * 4,
        [N(BLUE, 4)] * 3,
        [N(BLUE, 5)],
        [N(BLUE, 6)],
        [N(RED, 3)],
    ]
    r = make("spiderman", hands, N(RED, 5), bots=heur(6), partners=True)
    one_action(r, 0)
    assert r.cur == 3  # seat 2 (3 cards) beats seat 1 (4)


# ============================================================================ house rules


def test_stack_the_draw_two_of_the_most_held_colour():
    hand = [DT(RED), DT(BLUE), N(BLUE, 1), N(BLUE, 2)]
    r = make(
        "classic",
        [[N(GREEN, 1)] * 2, hand, [N(GREEN, 2)] * 3, [N(GREEN, 3)] * 3],
        DT(GREEN),
        bots=heur(4),
        stacking=True,
    )
    r.penalty, r.penalty_kind, r.penalty_from, r.penalty_passes = 2, R.DRAW_TWO, 0, 1
    assert r.face_penalty(1) == 2
    assert r.hands[1] == [DT(RED), N(BLUE, 1), N(BLUE, 2)] and r.top() == DT(BLUE)
    assert r.penalty == 4 and r.turns == 1
    # ties: red first
    hand = [DT(BLUE), DT(RED), N(BLUE, 1), N(RED, 2)]
    r = make(
        "classic",
        [[N(GREEN, 1)] * 2, hand, [N(GREEN, 2)] * 3, [N(GREEN, 3)] * 3],
        DT(GREEN),
        bots=heur(4),
        stacking=True,
    )
    r.penalty, r.penalty_kind, r.penalty_from, r.penalty_passes = 2, R.DRAW_TWO, 0, 1
    r.face_penalty(1)
    assert r.top() == DT(RED)


def test_stacked_wd4_names_most_held_colour():
    hand = [WD4, WD4, N(YELLOW, 1), N(YELLOW, 2)]
    r = make(
        "classic",
        [[N(GREEN, 1)] * 2, hand, [N(GREEN, 2)] * 3, [N(GREEN, 3)] * 3],
        WD4,
        colour=RED,
        bots=heur(4),
        stacking=True,
    )
    r.penalty, r.penalty_kind, r.penalty_from, r.penalty_passes = 4, R.WILD_DRAW_FOUR, 0, 1
    r.face_penalty(1)
    assert r.hands[1] == [WD4, N(YELLOW, 1), N(YELLOW, 2)] and r.colour == YELLOW
    assert r.penalty == 8


def test_jump_in_as_random_never_past_partner():
    hands = [
        [N(RED, 5), N(BLUE, 9)],
        [N(GREEN, 1)] * 2,
        [N(YELLOW, 3)] * 2,
        [N(RED, 5), N(GREEN, 2)],
    ]
    r = make("classic", hands, N(RED, 2), bots=heur(4), jump_in=True)
    one_action(r, 0)
    assert r.jumper(N(RED, 5), 0) == 3
    # partners: seat 3 would take its partner's (seat 1's) turn
    r = make("classic", hands, N(RED, 2), bots=heur(4), jump_in=True, partners=True)
    one_action(r, 0)
    assert r.jumper(N(RED, 5), 0) is None


def test_partners_never_catch_the_partner():
    r = make(
        "classic",
        [[N(RED, 1)], [N(GREEN, 1)] * 2, [N(GREEN, 2)] * 2, [N(GREEN, 3)] * 2],
        N(RED, 5),
        partners=True,
        bots=[dict(H, forget=1.0), dict(H, catch=0.0), dict(H, catch=1.0), dict(H, catch=0.0)],
    )
    r.uno_check(0)
    assert r.penalties == []
