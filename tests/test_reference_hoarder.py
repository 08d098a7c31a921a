"""``hoarder`` and the house rule ``force_play`` in the plain-Python reference engine (issue
29): hand-built situations, the decision and the exact state after one turn. The kernel's
hoarder (engine/policy/hoarder.py) and force_play (engine/house.forced_card) were written
from docs/BOTS.md and docs/HOUSE_RULES.md; this is the second, independent implementation
the cross-checks (tests/test_crosscheck.py ``-k hoarder``, slow tier) compare with.
"""

import pytest
from refkit import BLUE, DT, GREEN, RED, SK, WD4, YELLOW, N, W, make

from unospin_sim import reference as R

FILL = [N(GREEN, 4), N(GREEN, 5), N(GREEN, 6), N(GREEN, 7)]
HO = dict(strategy="hoarder")


def one_turn(r, seat):
    """Run the main loop from ``seat`` until exactly one more turn has been counted."""
    r.cur = seat
    r.turn_cap = r.turns + 1
    r.run()
    return r


def hands(first):
    """Seat 0 holds ``first``; seats 1-3 four cards each (nobody about to win)."""
    return [list(first)] + [[N(GREEN, 1)] * 4 for _ in range(3)]


def test_strategy_and_option_validation():
    R.play_round("classic", 4, 1, R.Options(force_play=True), [HO] * 4)
    with pytest.raises(ValueError, match="force_play must be True or False"):
        R.play_round("classic", 4, 1, R.Options(force_play="yes"))
    with pytest.raises(ValueError, match="strategy"):
        R.play_round("classic", 4, 1, bots=[dict(strategy="hoarders")] * 4)


def test_plays_the_coloured_card_of_best_score_and_keeps_its_wilds():
    # red 9 (9 + 2 x 2 red) beats red skip? no: skip 20 + 4 = 24 > 13; the wild is kept
    r = make(
        "classic", hands([N(RED, 9), SK(RED), W, N(BLUE, 2)]), N(RED, 3), bots=[HO] * 4, draw=FILL
    )
    one_turn(r, 0)
    assert r.top() == SK(RED) and sorted(map(R.card_order, r.hands[0])) == sorted(
        map(R.card_order, [N(RED, 9), W, N(BLUE, 2)])
    )
    # only wilds legal and a big hand: it draws instead (and plays the drawn card if it can)
    r = make(
        "classic",
        hands([W, WD4, N(BLUE, 2), N(BLUE, 5)]),
        N(RED, 3),
        bots=[HO] * 4,
        draw=[N(RED, 7)],
    )
    one_turn(r, 0)
    assert r.top() == N(RED, 7) and r.cards_drawn[0] == 1 and len(r.hands[0]) == 4
    r = make(
        "classic",
        hands([W, WD4, N(BLUE, 2), N(BLUE, 5)]),
        N(RED, 3),
        bots=[HO] * 4,
        draw=[N(YELLOW, 7)],
    )
    one_turn(r, 0)
    assert r.top() == N(RED, 3) and len(r.hands[0]) == 5 and W in r.hands[0]


def test_nothing_to_draw_it_plays_a_kept_wild_a_plain_one_first():
    r = make("classic", hands([WD4, W, N(BLUE, 2), N(BLUE, 5)]), N(RED, 3), bots=[HO] * 4)
    assert not r.draw_pile and len(r.discard) == 1
    one_turn(r, 0)
    assert r.top() == W and r.cards_drawn[0] == 0 and WD4 in r.hands[0]


def test_a_small_hand_plays_wilds_like_any_card():
    # 3 cards: the wild (50) beats red 9 (9 + 2 x 1)
    r = make("classic", hands([N(RED, 9), W, N(BLUE, 2)]), N(RED, 3), bots=[HO] * 4, draw=FILL)
    one_turn(r, 0)
    assert r.top() == W and len(r.hands[0]) == 2


def test_force_play_plays_the_first_playable_card_in_card_order_instead_of_drawing():
    # hoarder would draw (only wilds legal, a big hand); force_play: the plain Wild comes
    # before the Wild Draw Four in card order
    r = make(
        "classic",
        hands([WD4, W, N(BLUE, 2), N(BLUE, 5)]),
        N(RED, 3),
        bots=[HO] * 4,
        draw=FILL,
        force_play=True,
    )
    one_turn(r, 0)
    assert r.top() == W and r.cards_drawn[0] == 0 and len(r.draw_pile) == 4
    # the only playable card is a legal Wild Draw Four (no red held): forced
    r = make(
        "classic",
        hands([WD4, N(BLUE, 2), N(BLUE, 5), N(YELLOW, 9)]),
        N(RED, 3),
        bots=[HO] * 4,
        draw=FILL,
        force_play=True,
    )
    one_turn(r, 0)
    assert r.top() == WD4 and r.cards_drawn[0] == 0
    # nothing playable: it draws, as without the rule
    r = make(
        "classic",
        hands([N(BLUE, 2), N(BLUE, 5), N(YELLOW, 9), DT(BLUE)]),
        N(RED, 3),
        bots=[HO] * 4,
        draw=[N(GREEN, 8)],
        force_play=True,
    )
    one_turn(r, 0)
    assert r.cards_drawn[0] == 1 and r.top() == N(RED, 3)


def test_force_play_changes_nothing_for_random_and_heuristic():
    for strategy in ("random", "heuristic"):
        bots = [dict(strategy=strategy)] * 4
        a = R.play_many("classic", 4, 60, 5, bots=bots)
        b = R.play_many("classic", 4, 60, 5, R.Options(force_play=True), bots)
        assert a.equals(b), strategy


def test_race_discard_coloured_first():
    r = make("spin2005", hands([W, N(RED, 2), SK(BLUE), WD4]), N(RED, 3), bots=[HO] * 4)
    assert r.hands[0][r.race_discard(0)] == SK(BLUE)
    r = make("spin2005", hands([WD4, W]), N(RED, 3), bots=[HO] * 4)
    assert r.hands[0][r.race_discard(0)] == W


def test_hoarder_rounds_conserve_cards():
    for edition in R.EDITIONS:
        for seed in range(5):
            r = R.Round(
                edition,
                4,
                seed,
                R.Options(force_play=seed % 2 == 1),
                bots=[HO, {}, HO, dict(strategy="heuristic")],
            )
            r.setup()
            r.run()
            assert r.winner >= 0
            assert sorted(map(R.card_order, r.all_cards())) == sorted(
                map(R.card_order, R.build_deck(edition))
            )
