"""Unit tests of the house rules of docs/HOUSE_RULES.md in the plain-Python reference
engine (unospin_sim.reference): stacking, draw_until_playable, seven_o, special_wilds.

Hand-built situations drive the rules directly on a ``Round`` (as in
tests/test_reference.py); a few bulk runs check invariants with every option on.
No cross-checks against the numba engine here (tests/test_crosscheck.py has those).
"""

from collections import Counter

import pytest
from refkit import (
    BLUE,
    DT,
    GREEN,
    RED,
    RV,
    SK,
    SP,
    WD4,
    WSHUF,
    WSWAP,
    YELLOW,
    N,
    W,
    make,
    one_action,
)

from unospin_sim import reference as R

FILL = [N(YELLOW, 5)] * 30  # a draw pile of unplayable-on-red filler cards


def others(k=3, card=N(GREEN, 1)):
    return [[card, card] for _ in range(k)]


# ============================================================================ options


def test_option_validation():
    for bad in (
        dict(stacking=1),
        dict(seven_o="true"),
        dict(draw_until_playable=None),
        dict(special_wilds="swap"),
        dict(special_wilds=None),
    ):
        with pytest.raises(ValueError):
            R.play_round("classic", 4, 0, R.Options(**bad))
    for ed in ("spin2005", "spin2025", "spiderman"):
        with pytest.raises(ValueError, match="special_wilds"):
            R.play_round(ed, 4, 0, R.Options(special_wilds="swap_hands"))
        opts = R.Options(
            special_wilds="none", stacking=True, seven_o=True, draw_until_playable=True
        )
        R.play_round(ed, 4, 0, opts)
    with pytest.raises(TypeError):  # a misspelt option name
        R.Options(stackng=True)
    with pytest.raises(TypeError, match="options must be a reference Options"):
        R.play_round("classic", 4, 0, {"stacking": True})


def test_defaults_off():
    r = R.Round("classic", 4, 0)
    assert (r.stacking, r.draw_until_playable, r.seven_o, r.special_wilds) == (
        False,
        False,
        False,
        "none",
    )
    assert len(r.deck) == 108


# ============================================================================ stacking


def test_draw_two_starts_pending_penalty():
    r = make("classic", [[DT(RED), N(BLUE, 1)]] + others(), N(RED, 7), draw=FILL, stacking=True)
    one_action(r, 0)
    assert (r.penalty, r.penalty_kind, r.penalty_from) == (2, R.DRAW_TWO, 0)
    assert r.cur == 1 and r.cards_drawn == [0, 0, 0, 0] and r.turns == 1


def test_accept_draws_all_is_skipped_and_takes_no_turn():
    r = make(
        "classic",
        [[N(BLUE, 1)] * 2, [N(GREEN, 1), WD4], [N(RED, 1)] * 2, [N(GREEN, 2)] * 2],
        DT(RED),
        draw=FILL,
        stacking=True,
    )
    r.penalty, r.penalty_kind, r.penalty_from = 6, R.DRAW_TWO, 0
    r.penalty_passes = 1
    assert r.face_penalty(1) == 2  # a WD4 does not stack on a Draw Two
    assert r.cards_drawn == [0, 6, 0, 0] and r.penalty == 0 and r.turns == 0
    # through the loop: the accept is not a turn, seat 2 then takes the one turn
    r = make(
        "classic",
        [[N(BLUE, 1)] * 2, [N(GREEN, 1)] * 2, [N(RED, 1)] * 2, [N(GREEN, 2)] * 2],
        DT(RED),
        draw=FILL,
        stacking=True,
    )
    r.penalty, r.penalty_kind, r.penalty_from = 2, R.DRAW_TWO, 0
    r.penalty_passes = 1
    one_action(r, 1)
    assert r.turns == 1 and r.cards_drawn == [0, 2, 0, 0]
    assert r.hands[2] == [N(RED, 1)] and r.cur == 3


def test_stack_draw_two_any_colour():
    hands = [
        [N(BLUE, 1)] * 2,
        [DT(GREEN), N(YELLOW, 2), N(YELLOW, 3)],
        [N(RED, 1)] * 2,
        [N(GREEN, 2)] * 2,
    ]
    r = make("classic", hands, DT(RED), draw=FILL, stacking=True)
    r.penalty, r.penalty_kind, r.penalty_from = 2, R.DRAW_TWO, 0
    r.penalty_passes = 1
    one_action(r, 1)
    assert r.turns == 1 and r.top() == DT(GREEN) and r.colour == GREEN
    assert (r.penalty, r.penalty_kind, r.penalty_from) == (4, R.DRAW_TWO, 1)
    assert r.cur == 2 and r.cards_drawn == [0, 0, 0, 0]
    # seat 2 cannot stack: draws 4, skipped, seat 3 plays
    one_action(r, 2)
    assert r.turns == 2 and r.cards_drawn == [0, 0, 4, 0] and r.penalty == 0
    assert r.cur == 0 and len(r.hands[3]) == 1


def test_free_stacked_wild_draw_four_always_allowed_and_names_colour():
    # stacked_wd4="free": seat 1 holds red (the current colour): a WD4 would be illegal,
    # but stacking is fine
    hands = [[N(BLUE, 1)] * 2, [WD4, N(RED, 2), DT(RED)], [N(RED, 1)] * 2, [N(GREEN, 2)] * 2]
    for seed in range(20):
        r = make(
            "classic",
            hands,
            WD4,
            colour=RED,
            draw=FILL,
            stacking=True,
            seed=seed,
            bots=[{"challenge": 0.0}] * 4,
            stacked_wd4="free",
        )
        r.penalty, r.penalty_kind, r.penalty_from, r.penalty_illegal = 4, R.WILD_DRAW_FOUR, 0, True
        r.penalty_passes = 1
        one_action(r, 1)
        assert r.top() == WD4 and r.hands[1] == [N(RED, 2), DT(RED)]
        assert r.penalty == 8 and r.penalty_from == 1 and r.penalty_illegal is False
        assert r.cur == 2 and r.colour in range(4)


def _wd4_pending_on_seat_1(hand, bots=None, edition="classic"):
    hands = [[N(BLUE, 1)] * 2, hand, [N(RED, 1)] * 2, [N(GREEN, 2)] * 2]
    r = make(edition, hands, WD4, colour=RED, draw=FILL, stacking=True, bots=bots)
    r.penalty, r.penalty_kind, r.penalty_from, r.penalty_illegal = 4, R.WILD_DRAW_FOUR, 0, True
    r.penalty_passes = 1
    return r


def test_checked_stacked_wd4_not_stacked_while_illegal():
    # the default stacked_wd4="checked": holding red, seat 1 may not stack its WD4 and
    # does not bluff: it draws 4 and is passed over (not a turn)
    r = _wd4_pending_on_seat_1([WD4, N(RED, 2), DT(RED)])
    assert r.seat(r.face_penalty(1)) == 2
    assert r.cards_drawn == [0, 4, 0, 0] and r.penalty == 0 and r.turns == 0
    assert r.hands[1][:3] == [WD4, N(RED, 2), DT(RED)] and r.top() == WD4


def test_checked_stacked_wd4_legal_without_the_colour_in_play():
    r = _wd4_pending_on_seat_1([WD4, N(BLUE, 2)])
    assert r.seat(r.face_penalty(1)) == 2 and r.turns == 1
    assert (r.penalty, r.penalty_from, r.penalty_illegal) == (8, 1, False)
    assert r.hands[1] == [N(BLUE, 2)] and r.cards_drawn == [0, 0, 0, 0]


def test_checked_stacked_wd4_under_wild_matches_colour():
    # spin editions: another wild in hand forbids a Wild Draw Four, stacked or not
    r = _wd4_pending_on_seat_1([WD4, W, N(BLUE, 2)], edition="spin2005")
    assert r.seat(r.face_penalty(1)) == 2 and r.cards_drawn == [0, 4, 0, 0]


def test_checked_stacked_wd4_bluff_then_caught():
    # seat 1 (bluff=1) stacks its illegal WD4; seat 2 challenges: seat 1 draws 4, seat 2
    # draws the 4 left (no pass left) and takes its own turn
    bots = [{}, {"bluff": 1.0}, {"challenge": 1.0}, {}]
    r = _wd4_pending_on_seat_1([WD4, N(RED, 2), DT(RED)], bots=bots)
    assert r.seat(r.face_penalty(1)) == 2
    assert (r.penalty, r.penalty_from, r.penalty_illegal) == (8, 1, True)
    assert r.face_penalty(2) is None
    assert r.cards_drawn == [0, 4, 4, 0] and r.penalty == 0 and r.turns == 1
    assert r.hands[1][:2] == [N(RED, 2), DT(RED)] and len(r.hands[1]) == 6


def test_stacked_wd4_option_validation():
    with pytest.raises(ValueError, match="stacked_wd4"):
        R.play_round("classic", 4, 0, R.Options(stacked_wd4="free"))  # needs stacking
    with pytest.raises(ValueError, match="stacked_wd4"):
        R.play_round("classic", 4, 0, R.Options(stacking=True, stacked_wd4="loose"))
    R.play_round("classic", 4, 0, R.Options(stacking=True, stacked_wd4="free"))


def test_stack_uniform_among_instances():
    hands = [[N(BLUE, 1)] * 2, [DT(GREEN), DT(BLUE), DT(BLUE), N(RED, 3)], [N(RED, 1)] * 2]
    tops = Counter()
    for seed in range(600):
        r = make("classic", hands, DT(RED), draw=FILL, stacking=True, seed=seed)
        r.penalty, r.penalty_kind, r.penalty_from = 2, R.DRAW_TWO, 0
        r.penalty_passes = 1
        r.face_penalty(1)
        tops[r.top()] += 1
    assert set(tops) == {DT(GREEN), DT(BLUE)}
    assert 150 < tops[DT(GREEN)] < 250  # 1/3 of 600


def test_wd4_penalty_then_draw_two_does_not_stack():
    hands = [[N(BLUE, 1)] * 2, [DT(RED), N(YELLOW, 2)], [N(RED, 1)] * 2]
    r = make("classic", hands, WD4, colour=RED, draw=FILL, stacking=True)
    r.penalty, r.penalty_kind, r.penalty_from = 4, R.WILD_DRAW_FOUR, 0
    r.penalty_passes = 1
    assert r.seat(r.face_penalty(1)) == 2 and r.cards_drawn == [0, 4, 0]


@pytest.mark.parametrize(
    "penalty, passes, illegal, expect",
    [
        # illegal, penalty 4: the WD4 player draws 4, the challenger takes a normal turn
        (4, 1, True, dict(nxt=None, drawn=[4, 0, 0, 0])),
        # illegal, penalty 8 (a 2X turn WD4 + WD4, 2 passes): the WD4 player draws 4, the
        # challenger draws 4 and is skipped
        (8, 2, True, dict(nxt=2, drawn=[4, 4, 0, 0])),
        # illegal, 2X Skip + WD4: no card left to draw, but the Skip's pass remains
        (4, 2, True, dict(nxt=2, drawn=[4, 0, 0, 0])),
        # legal: the challenger draws the penalty + 2 and is skipped, passes kept
        (4, 1, False, dict(nxt=2, drawn=[0, 6, 0, 0])),
        (8, 1, False, dict(nxt=2, drawn=[0, 10, 0, 0])),
        (8, 2, False, dict(nxt=3, drawn=[0, 10, 0, 0])),
    ],
)
def test_stacking_challenge(penalty, passes, illegal, expect):
    # seat 1 holds a WD4 but challenges first
    hands = [[N(BLUE, 1)] * 2, [WD4, N(RED, 2)], [N(RED, 1)] * 2, [N(GREEN, 2)] * 2]
    bots = [{}, {"challenge": 1.0}, {}, {}]
    r = make("classic", hands, WD4, colour=RED, draw=FILL, stacking=True, bots=bots)
    r.penalty, r.penalty_kind, r.penalty_from, r.penalty_illegal = (
        penalty,
        R.WILD_DRAW_FOUR,
        0,
        illegal,
    )
    r.penalty_passes = passes
    nxt = r.face_penalty(1)
    assert (None if nxt is None else r.seat(nxt)) == expect["nxt"]
    assert r.cards_drawn == expect["drawn"] and r.penalty == 0
    assert r.hands[1][0] == WD4  # it did not stack


def test_stacking_challenge_then_normal_turn_counts_one_turn():
    hands = [[N(BLUE, 1)] * 2, [N(RED, 2), N(YELLOW, 2)], [N(RED, 1)] * 2, [N(GREEN, 2)] * 2]
    bots = [{}, {"challenge": 1.0}, {}, {}]
    r = make("classic", hands, WD4, colour=RED, draw=FILL, stacking=True, bots=bots)
    r.penalty, r.penalty_kind, r.penalty_from, r.penalty_illegal = 4, R.WILD_DRAW_FOUR, 0, True
    r.penalty_passes = 1
    one_action(r, 1)
    assert r.turns == 1 and r.top() == N(RED, 2) and r.cards_drawn == [4, 0, 0, 0]
    assert r.cur == 2


@pytest.mark.parametrize(
    "turns, penalty, passes, expect",
    [
        # count at cap - 1: the bluffer draws 4, the challenger (no pass left) plays the last
        # turn (red 2, the only card on red)
        (4, 4, 1, dict(drawn=[4, 0, 0, 0], top=N(RED, 2), cur=2, penalty=0, left=[6, 1, 2, 2])),
        # a 2X WD4 + WD4 penalty (two passes): the challenger draws the 4 left and is passed
        # over; seat 2 plays the last turn (red 3)
        (4, 8, 2, dict(drawn=[4, 4, 0, 0], top=N(RED, 3), cur=3, penalty=0, left=[6, 6, 1, 2])),
        # count at the cap: the round ends before the challenge; the penalty stays pending
        (5, 4, 1, dict(drawn=[0, 0, 0, 0], top=WD4, cur=1, penalty=4, left=[2, 2, 2, 2])),
    ],
)
def test_turn_cap_after_an_illegal_challenge(turns, penalty, passes, expect):
    """docs/HOUSE_RULES.md "Turn cap" (kernel: tests/test_house_rules.py): the main loop
    from a pending, illegal WD4 penalty on seat 1, which challenges (turn_cap 5)."""
    hands = [
        [N(BLUE, 1), N(BLUE, 2)],
        [N(RED, 2), N(YELLOW, 2)],
        [N(RED, 3), N(GREEN, 1)],
        [N(GREEN, 3), N(GREEN, 4)],
    ]
    r = make(
        "classic",
        hands,
        WD4,
        colour=RED,
        draw=[N(YELLOW, 9)] * 8,
        stacking=True,
        bots=[{}, {"challenge": 1.0}, {}, {}],
        turn_cap=5,
    )
    r.penalty, r.penalty_kind, r.penalty_from, r.penalty_illegal = (
        penalty,
        R.WILD_DRAW_FOUR,
        0,
        True,
    )
    r.penalty_passes = passes
    r.turns = turns
    r.cur = 1
    r.run()
    assert r.turns == 5 and r.winner == -1 and r.penalty == expect["penalty"]
    assert r.cards_drawn == expect["drawn"] and r.top() == expect["top"]
    assert r.colour == RED and r.cur == expect["cur"]
    assert [len(h) for h in r.hands] == expect["left"]
    assert len(r.draw_pile) == 8 - sum(expect["drawn"])


def test_no_challenge_of_draw_two_penalty():
    hands = [[N(BLUE, 1)] * 2, [N(RED, 2), N(YELLOW, 2)], [N(RED, 1)] * 2]
    r = make("classic", hands, DT(RED), draw=FILL, stacking=True, bots=[{}, {"challenge": 1.0}, {}])
    r.penalty, r.penalty_kind, r.penalty_from = 2, R.DRAW_TWO, 0
    r.penalty_passes = 1
    assert r.seat(r.face_penalty(1)) == 2 and r.cards_drawn == [0, 2, 0]


def test_bluffed_wd4_starts_challengeable_penalty():
    bots = [{"bluff": 1.0}, {}, {}, {}]
    r = make(
        "classic",
        [[WD4, N(RED, 1), N(RED, 2)]] + others(),
        N(RED, 7),
        draw=FILL,
        stacking=True,
        bots=bots,
    )
    played = [r.play_card(0, 0)]
    assert r.resolve(0, played) == 1
    assert (r.penalty, r.penalty_kind, r.penalty_illegal) == (4, R.WILD_DRAW_FOUR, True)
    assert r.cards_drawn == [0, 0, 0, 0]


def test_stacking_last_card_wins_next_draws_whole_penalty():
    hands = [[N(BLUE, 1)] * 2, [DT(GREEN)], [N(RED, 1)] * 2, [N(GREEN, 2)] * 2]
    r = make("classic", hands, DT(RED), draw=FILL, stacking=True)
    r.penalty, r.penalty_kind, r.penalty_from = 4, R.DRAW_TWO, 0
    r.penalty_passes = 1
    one_action(r, 1)
    res = r.result()
    assert res["winner"] == 1 and res["turns"] == 1
    assert res["cards_drawn"] == [0, 0, 6, 0] and res["cards_left"] == [2, 0, 8, 2]
    # and a plain last Draw Two (starting the penalty) makes the next player draw 2
    r = make("classic", [[DT(RED)]] + others(), N(RED, 7), draw=FILL, stacking=True)
    one_action(r, 0)
    assert r.winner == 0 and r.cards_drawn == [0, 2, 0, 0]


def test_stacking_uno_check():
    hands = [[N(BLUE, 1)] * 2, [DT(GREEN), N(YELLOW, 3)], [N(RED, 1)] * 2]
    bots = [{"catch": 1.0}, {"forget": 1.0}, {"catch": 1.0}]
    r = make("classic", hands, DT(RED), draw=FILL, stacking=True, bots=bots)
    r.penalty, r.penalty_kind, r.penalty_from = 2, R.DRAW_TWO, 0
    r.penalty_passes = 1
    one_action(r, 1)
    assert r.cards_drawn == [0, 2, 0] and len(r.hands[1]) == 3 and r.penalty == 4


def test_stacking_two_players_and_reverse_direction():
    r = make(
        "classic",
        [[DT(RED), N(BLUE, 1)], [DT(BLUE), N(YELLOW, 1)]],
        N(RED, 7),
        draw=FILL,
        stacking=True,
    )
    one_action(r, 0)
    assert r.cur == 1 and r.penalty == 2
    one_action(r, 1)
    assert r.cur == 0 and r.penalty == 4 and r.penalty_from == 1
    # counter-clockwise: the victim is the seat before
    r = make("classic", [[DT(RED), N(BLUE, 1)]] + others(), N(RED, 7), draw=FILL, stacking=True)
    r.direction = -1
    one_action(r, 0)
    assert r.cur == 3 and r.penalty == 2


def test_stacking_two_x():
    # two Draw Twos in one 2X turn: a pending penalty of 4 on the next player
    hands = [[DT(RED), DT(BLUE), N(GREEN, 5)]] + others()
    r = make("spin2025", hands, N(RED, 7), draw=FILL, stacking=True)
    r.two_x = True
    one_action(r, 0)
    assert r.hands[0] == [N(GREEN, 5)] and r.cards_drawn == [0, 0, 0, 0]
    assert (r.penalty, r.penalty_kind, r.cur) == (4, R.DRAW_TWO, 1)
    # Draw Two then WD4: penalty 6, the face to stack on is the last draw card's
    hands = [[DT(RED), WD4, N(GREEN, 5)]] + others()
    r = make("spin2025", hands, N(RED, 7), draw=FILL, stacking=True, seed=3)
    r.two_x = True
    played = [r.play_card(0, 0), r.play_card(0, 0)]
    assert r.resolve(0, played) == 1
    assert (r.penalty, r.penalty_kind) == (6, R.WILD_DRAW_FOUR)
    # under 2X a stacking play is one card
    hands = [[N(BLUE, 1)] * 2, [DT(GREEN), DT(YELLOW), N(GREEN, 3)], [N(RED, 1)] * 2]
    for seed in range(10):
        r = make("spin2025", hands, DT(RED), draw=FILL, stacking=True, seed=seed)
        r.two_x = True
        r.penalty, r.penalty_kind, r.penalty_from = 2, R.DRAW_TWO, 0
        r.penalty_passes = 1
        one_action(r, 1)
        assert len(r.hands[1]) == 2 and r.penalty == 4 and r.cur == 2


def test_stacking_penalty_carries_the_turns_passes():
    # 2X Skip + Draw Two: penalty 2 on seat 1 with 2 passes; seat 1 cannot stack:
    # draws 2, then seats 1 and 2 are passed over (as without stacking)
    hands = [[SK(RED), DT(RED), N(GREEN, 5)]] + others(2) + [[N(RED, 1)] * 3]
    for seed in range(10):
        r = make("spin2025", hands, N(RED, 7), draw=FILL, stacking=True, seed=seed)
        r.two_x = True
        one_action(r, 0)
        assert r.hands[0] == [N(GREEN, 5)]
        assert (r.penalty, r.penalty_passes, r.cur) == (2, 2, 1)
        one_action(r, 1)  # take (no turn), then seat 3 plays
        assert r.cards_drawn == [0, 2, 0, 0] and r.turns == 2
        assert len(r.hands[3]) == 1 and len(r.hands[2]) == 2  # 2X: two cards
    # a stack resets the passes to 1
    hands = [[N(BLUE, 1)] * 2, [DT(GREEN), N(YELLOW, 2)], [N(RED, 1)] * 2, [N(RED, 2)] * 2]
    r = make("classic", hands, DT(RED), draw=FILL, stacking=True)
    r.penalty, r.penalty_kind, r.penalty_from, r.penalty_passes = 4, R.DRAW_TWO, 0, 2
    assert r.seat(r.face_penalty(1)) == 2 and r.penalty_passes == 1
    assert r.seat(r.face_penalty(2)) == 3 and r.cards_drawn == [0, 0, 6, 0]
    # single-card Draw Two and WD4: one pass
    for card in (DT(RED), WD4):
        r = make("classic", [[card, N(BLUE, 1)]] + others(), N(RED, 7), draw=FILL, stacking=True)
        one_action(r, 0)
        assert r.penalty_passes == 1 and r.cur == 1


def test_stacking_penalty_equals_no_stacking_when_nobody_stacks():
    """A penalty nobody stacks ends exactly as without stacking (2X combinations)."""
    combos = [
        [DT(RED), DT(BLUE)],
        [SK(RED), DT(RED)],
        [DT(RED), SK(RED)],
        [RV(RED), DT(RED)],
        [DT(RED), RV(RED)],
        [DT(RED)],
    ]
    for first_two in combos:
        for players in (2, 3, 4):
            end = {}
            for stacking in (False, True):
                hands = [first_two + [N(GREEN, 5)]] + others(players - 1)
                r = make("spin2025", hands, N(RED, 7), draw=FILL, stacking=stacking)
                r.two_x = True
                one_action(r, 0)
                if stacking:
                    assert r.penalty and r.cards_drawn == [0] * players
                    r.cur = r.seat(r.face_penalty(r.cur))
                end[stacking] = (r.cur, r.cards_drawn, r.direction)
            assert end[False] == end[True], (first_two, players)


def test_stacking_off_unchanged():
    r = make("classic", [[DT(RED), N(BLUE, 1)]] + [[DT(BLUE)] * 2] * 3, N(RED, 7), draw=FILL)
    one_action(r, 0)
    assert r.penalty == 0 and r.cards_drawn == [0, 2, 0, 0] and r.cur == 2


# ============================================================================ draw_until_playable


def test_draw_until_playable():
    draw = [N(RED, 9), N(YELLOW, 3), N(GREEN, 4), N(BLUE, 2)]  # top is the last
    hands = [[N(BLUE, 1), N(BLUE, 2)], [N(GREEN, 1)] * 2]
    r = make("classic", hands, N(RED, 7), draw=draw, draw_until_playable=True)
    one_action(r, 0)
    assert r.cards_drawn == [4, 0] and r.top() == N(RED, 9) and len(r.hands[0]) == 5
    assert r.turns == 1 and r.cur == 1
    # option off: one card, kept
    r = make("classic", hands, N(RED, 7), draw=draw)
    one_action(r, 0)
    assert r.cards_drawn == [1, 0] and r.top() == N(RED, 7) and len(r.hands[0]) == 3


def test_draw_until_playable_by_number_and_wild():
    hands = [[N(BLUE, 1)], [N(GREEN, 1)] * 2]
    r = make(
        "classic",
        hands,
        N(RED, 7),
        draw=[N(RED, 1), N(GREEN, 7), N(YELLOW, 2)],
        draw_until_playable=True,
    )
    one_action(r, 0)
    assert r.cards_drawn == [2, 0] and r.top() == N(GREEN, 7) and r.colour == GREEN
    r = make("classic", hands, N(RED, 7), draw=FILL + [WD4, N(YELLOW, 2)], draw_until_playable=True)
    one_action(r, 0)
    assert r.top() == WD4 and r.cards_drawn == [2, 4]  # the WD4 took effect


def test_draw_until_playable_runs_dry():
    hands = [[N(BLUE, 1)], [N(GREEN, 1)] * 2]
    r = make(
        "classic", hands, N(RED, 7), draw=[N(GREEN, 2), N(YELLOW, 2)], draw_until_playable=True
    )
    one_action(r, 0)
    assert r.cards_drawn == [2, 0] and r.failed_draws == 1 and len(r.hands[0]) == 3
    assert r.turns == 1 and r.cur == 1 and r.top() == N(RED, 7)


def test_draw_until_playable_penalties_unchanged():
    r = make(
        "classic",
        [[DT(RED), N(BLUE, 1)]] + others(),
        N(RED, 7),
        draw=FILL,
        draw_until_playable=True,
    )
    one_action(r, 0)
    assert r.cards_drawn == [0, 2, 0, 0]


def test_draw_until_playable_two_x_only_drawn_card():
    hands = [[N(BLUE, 1), N(RED, 9)]] + others()
    r = make(
        "spin2025", hands, N(YELLOW, 7), draw=[N(YELLOW, 1), N(GREEN, 3)], draw_until_playable=True
    )
    r.two_x = True
    one_action(r, 0)
    # drew green 3, then yellow 1 (playable): played it, no second card (red 9 is legal)
    assert r.top() == N(YELLOW, 1) and sorted(r.hands[0]) == sorted(
        [N(BLUE, 1), N(RED, 9), N(GREEN, 3)]
    )


# ============================================================================ seven_o


def test_seven_swaps_with_uniform_other():
    targets = Counter()
    for seed in range(600):
        hands = [
            [N(RED, 7), N(BLUE, 1), N(BLUE, 2)],
            [N(GREEN, 1)],
            [N(GREEN, 2)] * 2,
            [N(GREEN, 3)] * 3,
        ]
        r = make("classic", hands, N(RED, 4), seed=seed, seven_o=True)
        one_action(r, 0)
        assert r.top() == N(RED, 7) and r.cur == 1
        assert sorted(map(len, r.hands)) == [1, 2, 2, 3]
        (t,) = [j for j in (1, 2, 3) if r.hands[j] == [N(BLUE, 1), N(BLUE, 2)]]
        assert r.hands[0] == hands[t]
        targets[t] += 1
    assert all(150 < targets[t] < 250 for t in (1, 2, 3))


def test_a_spin_seven_is_a_seven():
    """spin_cards=9: a Spin 7 swaps hands under seven_o as any 7 (the engine's
    test_a_spin_seven_is_a_seven_then_spins), and still spins the wheel."""
    hands = [
        [SP(RED, 7), N(BLUE, 1), N(BLUE, 2)],
        [N(GREEN, 1)],
        [N(GREEN, 2)] * 2,
        [N(GREEN, 3)] * 3,
    ]
    for seed in range(20):
        r = make("spin2005", hands, N(RED, 4), seed=seed, seven_o=True, spin_cards=9)
        one_action(r, 0)
        assert r.top() == SP(RED, 7) and r.cur == 1
        assert [N(BLUE, 1), N(BLUE, 2)] in r.hands[1:]  # swapped with another seat
        assert len(r.hands[0]) in (1, 2, 3) and r.hands[0] in hands[1:]
        assert r.spin_pending  # 2005: seat 1 spins next


def test_zero_passes_hands_in_direction_of_play():
    hands = [[N(RED, 0), N(BLUE, 1)], [N(GREEN, 1)], [N(GREEN, 2)] * 2, [N(GREEN, 3)] * 3]
    r = make("classic", hands, N(RED, 4), seven_o=True)
    one_action(r, 0)
    assert r.hands == [hands[3], [N(BLUE, 1)], hands[1], hands[2]]
    r = make("classic", hands, N(RED, 4), seven_o=True)
    r.direction = -1
    one_action(r, 0)
    assert r.hands == [hands[1], hands[2], hands[3], [N(BLUE, 1)]] and r.cur == 3


def test_seven_o_last_card_wins_without_effect():
    hands = [[N(RED, 7)], [N(GREEN, 1)], [N(GREEN, 2)] * 2]
    r = make("classic", hands, N(RED, 4), seven_o=True)
    one_action(r, 0)
    assert r.winner == 0 and r.hands[0] == [] and r.hands[1:] == hands[1:]


def test_seven_o_uno_check_after_swap():
    # seat 0 comes down to one card, then passes it on: the receiver is checked
    hands = [[N(RED, 0), N(BLUE, 1)], [N(GREEN, 1), N(GREEN, 4)], [N(GREEN, 2)] * 2]
    bots = [{"catch": 1.0}, {"forget": 1.0, "catch": 1.0}, {"catch": 1.0}]
    r = make("classic", hands, N(RED, 4), draw=FILL, seven_o=True, bots=bots)
    one_action(r, 0)
    assert r.hands[1][0] == N(BLUE, 1) and r.cards_drawn == [0, 2, 0]


def test_seven_uno_caught_twice_in_one_action_draws_two_twice():
    """INTERPRETATIONS "UNO": every caught forgetting costs 2 (kernel:
    tests/test_house_rules.py). The 7 leaves one card (forgotten, caught), the swap brings
    seat 1's one card (forgotten, caught again): 4 cards; seat 1 calls UNO."""
    trace = []
    r = make(
        "classic",
        [[N(RED, 7), N(BLUE, 1)], [N(GREEN, 3)]],
        N(RED, 0),
        draw=[N(YELLOW, 5)] * 4,
        seven_o=True,
        trace=trace,
        bots=[{"forget": 1.0}, {"catch": 1.0}],
    )
    one_action(r, 0)
    assert r.hands == [[N(GREEN, 3)] + [N(YELLOW, 5)] * 4, [N(BLUE, 1)]]
    assert r.top() == N(RED, 7) and r.colour == RED and r.cur == 1
    assert r.cards_drawn == [4, 0] and r.penalties == []
    assert sum("seat 0 forgets UNO and is caught" in t for t in trace) == 2
    assert sum("UNO penalty" in t for t in trace) == 2


def test_seven_swap_checks_only_the_two_seats():
    # seat 2 already holds one card (and forgets UNO): a swap it is not part of does not
    # check it again; a swap with it moves its card to seat 0, who calls UNO
    hands = [[N(RED, 7), N(BLUE, 1), N(BLUE, 2)], [N(GREEN, 1), N(GREEN, 2)], [N(GREEN, 3)]]
    bots = [{"catch": 1.0}, {"catch": 1.0}, {"forget": 1.0, "catch": 1.0}]
    for seed in range(20):
        for sw in (dict(seven_o=True), dict(special_wilds="swap_hands")):
            h = [list(x) for x in hands]
            if "special_wilds" in sw:
                h[0][0] = WSWAP
            r = make("classic", h, N(RED, 4), draw=FILL, seed=seed, bots=bots, **sw)
            one_action(r, 0)
            assert r.cards_drawn == [0, 0, 0]


def test_seven_o_two_x_effect_before_second_card():
    # seat 0 plays red 7 and swaps; the second card comes from the new hand
    hands = [[N(RED, 7), N(BLUE, 1)], [N(RED, 3), N(GREEN, 8), N(GREEN, 9)]]
    r = make("spin2025", hands, N(RED, 4), seven_o=True)
    r.two_x = True
    one_action(r, 0)
    assert r.hands[1] == [N(BLUE, 1)]
    assert r.top() == N(RED, 3) and sorted(r.hands[0]) == sorted([N(GREEN, 8), N(GREEN, 9)])


def test_seven_o_only_plain_number_cards_and_wheel_discards_inert():
    hands = [[N(RED, 7), N(BLUE, 1)], [N(GREEN, 1)] * 2, [N(GREEN, 2)] * 2]
    r = make("classic", hands, N(RED, 4))  # option off
    one_action(r, 0)
    assert r.hands[0] == [N(BLUE, 1)] and r.hands[1:] == hands[1:]
    # spin2005 Discard Number of 7s: no swap
    hands = [[N(RED, 7), N(BLUE, 7), N(BLUE, 1)], [N(GREEN, 1)] * 2, [N(GREEN, 2)] * 2]
    for seed in range(20):
        r = make("spin2005", hands, N(RED, 4), seven_o=True, seed=seed, wheel={"discard_number": 1})
        r.spin(0)
        assert r.hands[1:] == hands[1:]


# ============================================================================ special_wilds


def test_special_wild_decks_and_points():
    for sw, card in (("swap_hands", WSWAP), ("shuffle_hands", WSHUF)):
        deck = Counter(R.build_deck("classic", special_wilds=sw))
        assert sum(deck.values()) == 109 and deck[card] == 1
        assert R.card_points(card) == 40
        assert R.card_name(card) in ("wild swap hands", "wild shuffle hands")
        r = R.Round("classic", 4, 0, R.Options(special_wilds=sw))
        assert Counter(r.deck) == deck


def test_wild_swap_hands():
    targets = Counter()
    for seed in range(600):
        hands = [
            [WSWAP, N(BLUE, 1), N(BLUE, 2)],
            [N(GREEN, 1)],
            [N(GREEN, 2)] * 2,
            [N(GREEN, 3)] * 3,
        ]
        r = make("classic", hands, N(RED, 4), seed=seed, special_wilds="swap_hands")
        one_action(r, 0)
        assert r.top() == WSWAP and r.colour in range(4) and r.cur == 1
        (t,) = [j for j in (1, 2, 3) if r.hands[j] == [N(BLUE, 1), N(BLUE, 2)]]
        assert r.hands[0] == hands[t]
        targets[t] += 1
    assert all(150 < targets[t] < 250 for t in (1, 2, 3))


@pytest.mark.parametrize("direction, sizes", [(1, [2, 3, 3, 2]), (-1, [2, 2, 3, 3])])
def test_wild_shuffle_hands(direction, sizes):
    # 10 cards after the play, dealt from the next player in the direction of play
    hands = [[WSHUF, N(BLUE, 1), N(BLUE, 2)], [N(GREEN, 1)], [N(GREEN, 2)] * 2, [N(GREEN, 3)] * 5]
    for seed in range(20):
        r = make("classic", hands, N(RED, 4), seed=seed, special_wilds="shuffle_hands")
        r.direction = direction
        one_action(r, 0)
        assert r.top() == WSHUF
        assert [len(h) for h in r.hands] == sizes
        assert Counter(c for h in r.hands for c in h) == Counter(
            c for h in hands for c in h
        ) - Counter([WSHUF])


def test_wild_shuffle_hands_is_random():
    hands = [[WSHUF, N(BLUE, 1)], [N(GREEN, 1)], [N(YELLOW, 2)]]
    got = Counter()
    for seed in range(300):
        r = make("classic", hands, N(RED, 4), seed=seed, special_wilds="shuffle_hands")
        one_action(r, 0)
        got[tuple(h[0] for h in r.hands)] += 1
    assert len(got) == 6  # every permutation occurs


def test_special_wild_uno_check_and_last_card():
    hands = [[WSWAP, N(BLUE, 1)], [N(GREEN, 1)] * 3, [N(GREEN, 2)] * 2]
    bots = [{"catch": 1.0}, {"forget": 1.0}, {"forget": 1.0}]
    for seed in range(20):
        r = make(
            "classic", hands, N(RED, 4), draw=FILL, seed=seed, bots=bots, special_wilds="swap_hands"
        )
        one_action(r, 0)
        # the seat that received the one-card hand forgot UNO and was caught
        t = 1 if r.hands[0] == hands[1] else 2
        assert r.cards_drawn[t] == 2 and len(r.hands[t]) == 3
    r = make(
        "classic",
        [[WSHUF], [N(GREEN, 1)], [N(GREEN, 2)] * 2],
        N(RED, 4),
        special_wilds="shuffle_hands",
    )
    one_action(r, 0)
    assert r.winner == 0 and [len(h) for h in r.hands] == [0, 1, 2]


def test_special_wild_first_discard_acts_as_wild():
    base = [N(BLUE, 1)] * 40
    for card in (WSWAP, WSHUF):
        r = R.Round("classic", 4, 0, R.Options(special_wilds="swap_hands"))
        r.draw_pile = base + [card]
        r.first_card()
        assert r.discard == [card] and r.first_player == 0 and r.colour in range(4)
        assert r.direction == 1 and r.cards_drawn == [0] * 4


def test_special_wild_and_wild_draw_four_legality():
    # wild_matches_colour (off in classic): a special wild then forbids the WD4
    assert R.wd4_legal([WSWAP, WD4], RED, False)
    assert not R.wd4_legal([WSWAP, WD4], RED, True)


# ============================================================================ bulk

COMBOS = [
    ("classic", dict(stacking=True)),
    ("classic", dict(draw_until_playable=True)),
    ("classic", dict(seven_o=True)),
    ("classic", dict(special_wilds="swap_hands")),
    (
        "classic",
        dict(special_wilds="shuffle_hands", seven_o=True, stacking=True, draw_until_playable=True),
    ),
    ("spin2005", dict(stacking=True, seven_o=True, draw_until_playable=True)),
    ("spin2025", dict(stacking=True, seven_o=True, draw_until_playable=True)),
    ("spiderman", dict(stacking=True, seven_o=True, draw_until_playable=True)),
]


@pytest.mark.parametrize("edition, kw", COMBOS)
@pytest.mark.parametrize("players", [2, 4])
def test_conservation_with_house_rules(edition, kw, players):
    deck = Counter(R.build_deck(edition, special_wilds=kw.get("special_wilds", "none")))
    for g in range(400):
        bots = (
            [
                {"forget": 0.5, "catch": 0.5, "bluff": 0.5, "challenge": 0.5, "reflex": 1 + i}
                for i in range(players)
            ]
            if g % 4 == 0
            else None
        )
        r = R.Round(edition, players, R.round_seed(7, g), R.Options(**kw), bots)
        r.setup()
        r.run()
        assert Counter(r.all_cards()) == deck
        res = r.result()
        assert res["winner"] >= 0 and res["cards_left"][res["winner"]] == 0
        assert all(c > 0 for i, c in enumerate(res["cards_left"]) if i != res["winner"])
        assert res["winner_points"] == sum(res["points_left"])


@pytest.mark.slow
def test_house_rules_change_outcomes():
    """Each option changes the distribution in the expected direction (sanity)."""
    base = R.play_many("classic", 4, 1500, 3)
    dup = R.play_many("classic", 4, 1500, 3, R.Options(draw_until_playable=True))
    # hands grow: many more cards drawn, and longer rounds
    assert dup.cards_drawn.mean() > 1.5 * base.cards_drawn.mean()
    assert dup.turns.mean() > base.turns.mean()
    stack = R.play_many("classic", 4, 1500, 3, R.Options(stacking=True))
    assert stack.cards_drawn.mean() != base.cards_drawn.mean()
    assert R.play_many("classic", 4, 50, 3, R.Options(seven_o=True)).equals(
        R.play_many("classic", 4, 50, 3, R.Options(seven_o=True))
    )
