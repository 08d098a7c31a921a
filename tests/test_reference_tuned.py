"""The ``tuned`` strategy (docs/BOTS.md) in the plain-Python reference engine: hand-built
situations and the exact state after one turn, what a seat is known to lack, and heuristic's
weights playing exactly as heuristic. Cross-checks against the kernel's ``tuned``:
tests/test_crosscheck.py (``-k tuned``, slow tier)."""

import pytest
from refkit import BLUE, GREEN, RED, SK, YELLOW, N, W, big, make, one_action

from unospin_sim import reference as R

T = dict(strategy="tuned")
FILL = [N(GREEN, 4), N(GREEN, 5), N(GREEN, 6), N(GREEN, 7)]


def tuned(n, **weights):
    return [dict(T, **weights)] * n


@pytest.mark.parametrize("edition", R.EDITIONS)
def test_heuristics_weights_play_exactly_as_heuristic(edition):
    """The reference's defaults are heuristic's numbers: every round the same."""
    for seed in range(4):
        a = R.play_round(edition, 4, seed, bots=[T, dict(strategy="random")] * 2)
        b = R.play_round(
            edition, 4, seed, bots=[dict(strategy="heuristic"), dict(strategy="random")] * 2
        )
        assert a == b


def test_weights_are_checked():
    with pytest.raises(ValueError, match="w_void must be a finite number"):
        R.play_round("classic", 2, 0, bots=[dict(T, w_void=float("nan")), {}])
    with pytest.raises(ValueError, match="unknown bot knob"):
        R.play_round("classic", 2, 0, bots=[dict(T, w_vod=1.0), {}])


def test_a_draw_for_want_of_a_legal_card_marks_the_colour_in_play():
    """Seat 0 holds nothing red on a red 5: it draws (a green 7, not playable) and is known
    to lack red; taking any card later forgets it."""
    r = make("classic", [[N(BLUE, 1), N(YELLOW, 2)]] + big(), N(RED, 5), bots=tuned(4), draw=FILL)
    one_action(r, 0)
    assert r.cards_drawn == [1, 0, 0, 0] and r.void[0] == {RED}
    assert r.void[1:] == [set(), set(), set()]
    r.draw_n(0, 1)
    assert r.void[0] == set()


def test_the_card_the_next_seat_lacks_the_colour_of_scores_w_void():
    """On a red 5: red 3 (3 + 2) or blue 5 (5 + 2); seat 1, next, is known to lack red."""
    hands = [[N(RED, 3), N(BLUE, 5)]] + big()
    for w, played, left in ((1.9, N(BLUE, 5), N(RED, 3)), (2.1, N(RED, 3), N(BLUE, 5))):
        r = make("classic", hands, N(RED, 5), bots=tuned(4, w_void=w))
        r.void[1] = {RED}
        one_action(r, 0)
        assert r.top() == played and r.hands[0] == [left]
    r = make("classic", hands, N(RED, 5), bots=tuned(4, w_void=100.0))
    r.void[1] = {GREEN}  # a colour seat 0 cannot play: no effect
    one_action(r, 0)
    assert r.top() == N(BLUE, 5)


def test_weights_of_points_actions_and_wilds():
    # on a red 5, next seat at 4 cards: red 3, red skip, blue 5, a wild
    hand = [N(RED, 3), SK(RED), N(BLUE, 5), W]
    cases = [
        ({}, SK(RED)),  # 20 + 4 against 5, 7
        (dict(w_points=-1.0), N(RED, 3)),  # -3 + 4 = 1
        (dict(w_points=0.0, w_colour=0.0, w_action=1.0), SK(RED)),
        (dict(w_points=0.0, w_colour=0.0, w_wild=0.5), W),
    ]
    for weights, played in cases:
        r = make("classic", [list(hand)] + big(), N(RED, 5), bots=tuned(4, **weights))
        one_action(r, 0)
        assert r.top() == played, weights
    # next seat at 2 cards: the attack weights
    small = [[N(GREEN, 1)] * 2] + big(2)
    for weights, played in (
        ({}, W),  # 250 against 124
        (dict(w_wild_attack=0.0), SK(RED)),
        (dict(w_wild_attack=0.0, w_attack=0.0), SK(RED)),  # 24 > 7
        # red 3 and blue 5 tie at 7: the colour in play first
        (dict(w_wild_attack=0.0, w_attack=-30.0), N(RED, 3)),
    ):
        r = make("classic", [list(hand)] + small, N(RED, 5), bots=tuned(4, **weights))
        one_action(r, 0)
        assert r.top() == played, weights


def test_colour_named_weighs_what_the_next_seat_lacks():
    hand = [W, N(BLUE, 1), N(BLUE, 2), N(RED, 3)]
    for w, colour in ((0.0, BLUE), (0.9, BLUE), (1.1, RED)):
        r = make(
            "classic", [list(hand)] + big(), N(GREEN, 5), bots=tuned(4, w_name_void=w, w_wild=50.0)
        )
        r.void[1] = {RED}
        one_action(r, 0)
        assert r.top() == W and r.colour == colour, w


def test_what_a_seat_lacks_moves_with_its_hand():
    """seven_o: seat 0 plays a 7 and swaps with the smallest hand, seat 2's, which was known
    to lack yellow: seat 0's hand is now known to lack yellow, seat 2's (seat 0's old one,
    known to lack nothing) nothing."""
    r = make(
        "classic",
        [
            [N(RED, 7), N(BLUE, 1), N(BLUE, 2)],
            [N(BLUE, 3)] * 4,
            [N(GREEN, 1), N(GREEN, 2)],
            [N(BLUE, 4)] * 4,
        ],
        N(RED, 5),
        bots=tuned(4),
        seven_o=True,
    )
    r.void = [set(), {RED}, {YELLOW}, set()]
    one_action(r, 0)
    assert r.hands[0] == [N(GREEN, 1), N(GREEN, 2)] and r.hands[2] == [N(BLUE, 1), N(BLUE, 2)]
    assert r.void == [{YELLOW}, {RED}, set(), set()]
