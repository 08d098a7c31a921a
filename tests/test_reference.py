"""Unit tests of the plain-Python reference engine (unospin_sim.reference).

Hand-built situations drive the rules directly on a ``Round``; a few bulk runs check
invariants (card conservation, rounds end, seat win rates).  No cross-checks against
the numba engine here.
"""

from collections import Counter

import pytest
from refkit import BLUE, DT, GREEN, RED, RV, SK, SP, WD4, WEB, WSPIN, YELLOW, N, W, make, one_action

from unospin_sim import reference as R

# ----------------------------------------------------------------------------- decks


def test_deck_sizes_and_points():
    assert len(R.build_deck("classic")) == 108
    assert len(R.build_deck("spin2005")) == 108
    assert len(R.build_deck("spin2025")) == 112
    assert len(R.build_deck("spin2025", wild_spin_cards=0)) == 108
    for k in range(10):  # spin_cards: one copy of each of 1..k has the mark; size unchanged
        d = Counter(R.build_deck("spin2005", spin_cards=k))
        assert sum(d.values()) == 108
        assert [d[SP(RED, n)] for n in range(1, 10)] == [int(n <= k) for n in range(1, 10)]
        assert [d[N(RED, n)] for n in range(1, 10)] == [1 + int(n > k) for n in range(1, 10)]
    with pytest.raises(ValueError, match="spin_cards"):
        R.play_round("spin2005", 2, 0, R.Options(spin_cards=10))
    assert len(R.build_deck("spiderman")) == 112
    classic = Counter(R.build_deck("classic"))
    assert classic[N(RED, 0)] == 1 and classic[N(RED, 5)] == 2
    assert classic[WD4] == 4 and classic[W] == 4
    s05 = Counter(R.build_deck("spin2005"))
    for n in range(6):
        assert s05[N(BLUE, n)] == 1
    for n in range(1, 6):
        assert s05[SP(BLUE, n)] == 1
    for n in range(6, 10):
        assert s05[N(BLUE, n)] == 2
    assert s05[SK(BLUE)] == s05[RV(BLUE)] == s05[DT(BLUE)] == 2
    assert Counter(R.build_deck("spin2025"))[WSPIN] == 4
    assert Counter(R.build_deck("spiderman"))[WEB] == 4
    assert [
        R.card_points(c)
        for c in (N(RED, 7), SP(RED, 3), SK(RED), RV(RED), DT(RED), W, WD4, WSPIN, WEB)
    ] == [7, 3, 20, 20, 20, 50, 50, 50, 50]
    # classic: 4 * (0+2*45) + 24*20 + 8*50
    assert sum(map(R.card_points, R.build_deck("classic"))) == 4 * 90 + 480 + 400


# ----------------------------------------------------------------------------- matching


def test_matching():
    assert R.matches(N(RED, 3), N(BLUE, 3), BLUE)  # number
    assert R.matches(N(BLUE, 1), N(BLUE, 3), BLUE)  # colour
    assert not R.matches(N(RED, 1), N(BLUE, 3), BLUE)
    assert R.matches(SP(RED, 3), N(BLUE, 3), BLUE)  # Spin card by its number
    assert R.matches(N(RED, 3), SP(BLUE, 3), BLUE)
    assert not R.matches(SP(RED, 3), SP(BLUE, 4), BLUE)  # the swirl is no symbol
    assert R.matches(SK(RED), SK(BLUE), BLUE)  # symbol
    assert not R.matches(SK(RED), RV(BLUE), BLUE)
    assert not R.matches(DT(RED), N(BLUE, 2), BLUE)
    assert not R.matches(N(RED, 2), DT(BLUE), BLUE)
    assert R.matches(W, N(BLUE, 2), BLUE)
    assert R.matches(N(GREEN, 2), W, GREEN)  # wild on top: named colour
    assert not R.matches(N(RED, 2), W, GREEN)
    assert not R.matches(SK(RED), WD4, GREEN)


def test_wd4_legality():
    assert not R.wd4_legal([N(RED, 5), WD4], RED, False)
    assert R.wd4_legal([N(BLUE, 5), WD4], RED, False)
    assert R.wd4_legal([SK(BLUE), N(GREEN, 7), WD4], RED, True)
    # another wild forbids it only with wild_matches_colour
    assert R.wd4_legal([W, WD4], RED, False)
    assert not R.wd4_legal([W, WD4], RED, True)
    assert not R.wd4_legal([WSPIN, WD4], RED, True)
    assert not R.wd4_legal([WEB, WD4], RED, True)
    # a second WD4 never forbids the first
    assert R.wd4_legal([WD4, WD4], RED, True)


def test_pick_never_plays_illegal_wd4_without_bluff():
    for seed in range(200):
        r = make("classic", [[N(RED, 5), WD4], [N(BLUE, 1)]], N(RED, 7), seed=seed)
        assert r.pick(0, {"bluff": None}) == 0
    # wild_matches_colour: a Wild makes the WD4 illegal -> only the Wild is legal
    for seed in range(200):
        r = make("spin2005", [[W, WD4], [N(BLUE, 1)]], N(RED, 7), seed=seed)
        assert r.pick(0, {"bluff": None}) == 0
    # without it both are legal, uniformly
    picks = Counter(
        make("classic", [[W, WD4], [N(BLUE, 1)]], N(RED, 7), seed=s).pick(0, {"bluff": None})
        for s in range(400)
    )
    assert set(picks) == {0, 1} and 140 < picks[1] < 260


def test_bluff_one_coin_per_turn():
    bots = [{"bluff": 1.0}, {}]
    picks = Counter()
    for seed in range(400):
        r = make("classic", [[N(RED, 5), WD4], [N(BLUE, 1)]], N(RED, 7), seed=seed, bots=bots)
        state = {"bluff": None}
        picks[r.pick(0, state)] += 1
        assert state["bluff"] is True
    assert 140 < picks[1] < 260


def test_two_x_bluff_coin_tossed_once_and_reused():
    """INTERPRETATIONS "The bluff knob": one coin per turn, tossed at the first pick with an
    illegal WD4 in hand, reused for the 2X second pick (kernel: tests/test_engine_rules.py).
    Here every pick holds an illegal WD4 until it is played; nothing else calls random()."""
    R5, R6 = N(RED, 5), N(RED, 6)
    # (cards played, hand left, next seat, cards seat 1 draws)
    tails = {((R5, R6), (WD4,), 1, 0), ((R6, R5), (WD4,), 1, 0)}
    heads = tails | {
        ((WD4, R5), (R6,), 2, 4),
        ((WD4, R6), (R5,), 2, 4),
        ((WD4,), (R5, R6), 2, 4),
        ((R5, WD4), (R6,), 2, 4),
        ((R6, WD4), (R5,), 2, 4),
    }
    seen = Counter()
    for seed in range(60):
        hands = [[WD4, R5, R6], [N(GREEN, 1), N(GREEN, 2)]] + [[N(GREEN, 3)] * 2] * 2
        r = make(
            "spin2025",
            hands,
            N(RED, 0),
            draw=[N(YELLOW, 3)] * 4,
            seed=seed,
            bots=[{"bluff": 0.5}, {}, {}, {}],
        )
        r.two_x = True
        tosses = []
        real = r.rng.random
        r.rng.random = lambda: tosses.append(real()) or tosses[-1]
        one_action(r, 0)
        assert len(tosses) == 1  # tails: the second pick tosses no coin
        coin = tosses[0] < 0.5
        state = (tuple(r.discard[1:]), tuple(r.hands[0]), r.cur, r.cards_drawn[1])
        assert state in (heads if coin else tails), (coin, state)
        seen[coin, state[0][0] == WD4 or state[0][-1] == WD4] += 1
    # heads with and without a bluff, tails (never a bluff)
    assert set(seen) == {(True, True), (True, False), (False, False)}


def test_draw_when_nothing_playable_then_play_drawn():
    r = make(
        "classic",
        [[N(BLUE, 1), N(BLUE, 2)], [N(GREEN, 1)]],
        N(RED, 7),
        draw=[N(YELLOW, 3), N(RED, 9)],
    )
    one_action(r, 0)
    assert r.top() == N(RED, 9) and r.hands[0] == [N(BLUE, 1), N(BLUE, 2)]
    assert r.cards_drawn == [1, 0] and r.cur == 1 and r.turns == 1
    r = make("classic", [[N(BLUE, 1), N(BLUE, 2)], [N(GREEN, 1)]], N(RED, 7), draw=[N(YELLOW, 3)])
    one_action(r, 0)
    assert r.top() == N(RED, 7) and len(r.hands[0]) == 3 and r.cur == 1


def test_failed_draw_counts_and_reshuffle():
    r = make("classic", [[N(BLUE, 1), N(BLUE, 2)], [N(GREEN, 1)]], N(RED, 7))
    one_action(r, 0)
    assert r.failed_draws == 1 and r.turns == 1 and r.cur == 1
    r = make("classic", [[N(BLUE, 1), N(BLUE, 2)], [N(GREEN, 1)]], N(RED, 7))
    r.discard = [N(YELLOW, 4), N(RED, 7)]
    one_action(r, 0)
    assert r.failed_draws == 0 and r.discard == [N(RED, 7)]
    assert N(YELLOW, 4) in r.hands[0]


# ----------------------------------------------------------------------------- effects


def four(hand0, top, **kw):
    others = [[N(GREEN, 1), N(GREEN, 2)] for _ in range(3)]
    return make(kw.pop("edition", "classic"), [hand0] + others, top, **kw)


def test_skip_reverse_draw_two():
    r = four([SK(RED), N(BLUE, 1)], N(RED, 7))
    one_action(r, 0)
    assert r.cur == 2 and r.direction == 1
    r = four([RV(RED), N(BLUE, 1)], N(RED, 7))
    one_action(r, 0)
    assert r.cur == 3 and r.direction == -1
    r = four([DT(RED), N(BLUE, 1)], N(RED, 7), draw=[N(BLUE, 5)] * 5)
    one_action(r, 0)
    assert r.cur == 2 and len(r.hands[1]) == 4 and r.cards_drawn[1] == 2


def test_two_players_reverse_is_skip():
    r = make("classic", [[RV(RED), N(BLUE, 1)], [N(GREEN, 1)]], N(RED, 7))
    one_action(r, 0)
    assert r.cur == 0 and r.direction == 1


@pytest.mark.parametrize(
    "hand0, challenge, expect",
    [
        # legal WD4, no challenge: victim draws 4 and is passed over
        ([WD4, N(BLUE, 1)], 0.0, dict(cur=2, drawn=[0, 4, 0, 0])),
        # legal WD4, challenged: challenger draws 6 and is passed over
        ([WD4, N(BLUE, 1)], 1.0, dict(cur=2, drawn=[0, 6, 0, 0])),
        # illegal WD4 (bluff), challenged: the player draws 4, the challenger plays next
        ([WD4, N(RED, 1)], 1.0, dict(cur=1, drawn=[4, 0, 0, 0])),
        # illegal WD4, not challenged: victim draws 4
        ([WD4, N(RED, 1)], 0.0, dict(cur=2, drawn=[0, 4, 0, 0])),
    ],
)
def test_wd4_challenge(hand0, challenge, expect):
    bots = [{"bluff": 1.0}, {"challenge": challenge}, {}, {}]
    for seed in range(30):
        r = four(hand0, N(RED, 7), draw=[N(YELLOW, 5)] * 10, bots=bots, seed=seed)
        r.hands[0] = list(hand0)
        # force the WD4 to be the played card
        played = [r.play_card(0, 0)]
        nxt = r.resolve(0, played)
        assert r.seat(nxt) == expect["cur"]
        assert r.cards_drawn == expect["drawn"]


def test_two_x_each_wd4_challenged_on_its_own():
    """INTERPRETATIONS "Challenges under 2X": one challenge decision per WD4 in the order
    played, each about its own card: here a legal WD4, then an illegal one (kernel:
    tests/test_engine_rules.py, same outcomes)."""
    fill = N(YELLOW, 3)
    # challenge results in order (1 = illegal) -> (seat 0 draws, seat 1 draws, next seat)
    outcomes = {(): (0, 8, 3), (0,): (0, 10, 3), (1,): (4, 4, 2), (0, 1): (4, 6, 2)}
    seen = set()
    for seed in range(60):
        trace = []
        hands = [[WD4, WD4, N(GREEN, 5)], [N(BLUE, 1), N(BLUE, 2)]] + [[N(GREEN, 1)] * 2] * 2
        r = make(
            "spin2025",
            hands,
            N(RED, 0),
            draw=[fill] * 14,
            seed=seed,
            trace=trace,
            bots=[{"bluff": 1.0}, {"challenge": 0.5}, {}, {}],
        )
        r.two_x = True
        first = r.play_card(0, 0)  # legal: no red in hand
        r.colour = GREEN  # green named
        second = r.play_card(0, 0)  # illegal: seat 0 holds green 5
        assert (first[1], second[1]) == (False, True)
        nxt = r.resolve(0, [first, second])
        flags = tuple(int("illegal" in t) for t in trace if "challenges" in t)
        d0, d1, cur = outcomes[flags]
        assert r.cards_drawn == [d0, d1, 0, 0] and r.seat(nxt) == cur
        assert r.hands[0] == [N(GREEN, 5)] + [fill] * d0
        assert r.hands[1] == [N(BLUE, 1), N(BLUE, 2)] + [fill] * d1
        seen.add(flags)
    assert seen == set(outcomes)


def test_last_card_draw_two_is_drawn_before_scoring():
    r = four([DT(RED)], N(RED, 7), draw=[N(YELLOW, 5)] * 5)
    one_action(r, 0)
    res = r.result()
    assert res["winner"] == 0 and res["cards_left"] == [0, 4, 2, 2]
    assert res["winner_points"] == 3 + 5 + 5 + 3 + 3 and res["turns"] == 1


def test_last_card_wd4_no_challenge():
    bots = [{}, {"challenge": 1.0}, {}, {}]
    r = four([WD4], N(RED, 7), draw=[N(YELLOW, 5)] * 5, bots=bots)
    one_action(r, 0)
    assert r.winner == 0 and r.cards_drawn == [0, 4, 0, 0]


def test_uno_forgotten_and_caught():
    bots = [{"forget": 1.0}, {"catch": 1.0}, {}, {}]
    r = four([N(RED, 5), N(RED, 6)], N(RED, 7), draw=[N(YELLOW, 5)] * 5, bots=bots)
    one_action(r, 0)
    assert len(r.hands[0]) == 3 and r.cards_drawn[0] == 2
    bots = [{"forget": 1.0}, {"catch": 0.0}, {"catch": 0.0}, {"catch": 0.0}]
    r = four([N(RED, 5), N(RED, 6)], N(RED, 7), draw=[N(YELLOW, 5)] * 5, bots=bots)
    one_action(r, 0)
    assert len(r.hands[0]) == 1


def test_uno_caught_twice_in_one_action_draws_two_twice():
    """INTERPRETATIONS "UNO": every caught forgetting costs 2 (kernel:
    tests/test_engine_rules.py). The Spin card leaves one card (forgotten, caught), Swap
    Hands brings seat 1's one card (forgotten, caught again): 4 cards."""
    trace = []
    r = make(
        "spin2025",
        [[SP(RED, 2), N(BLUE, 4)], [N(GREEN, 3)]],
        N(RED, 7),
        draw=[N(YELLOW, 5)] * 4,
        wheel={"swap_hands": 1},
        trace=trace,
        bots=[{"forget": 1.0}, {"catch": 1.0}],
    )
    one_action(r, 0)
    assert r.hands == [[N(GREEN, 3)] + [N(YELLOW, 5)] * 4, [N(BLUE, 4)]]
    assert r.top() == SP(RED, 2) and r.colour == RED and r.cur == 1
    assert r.cards_drawn == [4, 0] and r.penalties == []
    assert sum("seat 0 forgets UNO and is caught" in t for t in trace) == 2
    assert sum("UNO penalty" in t for t in trace) == 2


def test_first_card_rules():
    base = [N(BLUE, 1)] * 40  # the deal is not redone here
    for top, cur, direction, drawn in [
        (N(RED, 4), 0, 1, 0),
        (SK(RED), 1, 1, 0),
        (RV(RED), 3, -1, 0),
        (DT(RED), 1, 1, 2),
        (W, 0, 1, 0),
        (SP(RED, 3), 0, 1, 0),
    ]:
        r = R.Round("spin2005", 4, 0)
        r.draw_pile = base + [top]
        r.first_card()
        assert (r.first_player, r.direction, r.cards_drawn[0]) == (cur, direction, drawn)
        assert r.discard == [top] and r.colour is not None
        assert r.spin_pending is False
    # a first WD4 goes back; the next card counts
    r = R.Round("classic", 4, 0)
    r.draw_pile = base + [SK(RED), WD4]
    r.first_card()
    assert r.discard == [SK(RED)] and r.first_player == 1
    assert len(r.draw_pile) == 41 and WD4 in r.draw_pile
    # spin2025 / spiderman: turn until a number card, ignored ones go back
    for ed in ("spin2025", "spiderman"):
        r = R.Round(ed, 4, 0)
        r.draw_pile = base + [N(GREEN, 2), RV(RED), W]
        r.first_card()
        assert r.discard == [N(GREEN, 2)] and r.first_player == 0 and r.direction == 1
        assert Counter(r.draw_pile) == Counter(base + [RV(RED), W])


def test_first_player_distribution_classic():
    df = R.play_many("classic", 4, 1500, 11)
    freq = df.first_player.value_counts(normalize=True)
    # 104 candidate first cards (WD4 excluded): 16 Skip/Draw Two, 8 Reverse
    assert abs(freq.get(1, 0) - 16 / 104) < 0.035
    assert abs(freq.get(3, 0) - 8 / 104) < 0.03
    assert (R.play_many("spin2025", 4, 200, 1).first_player == 0).all()


# ----------------------------------------------------------------------------- wheels


def test_war():
    hands = [[N(RED, 9), N(BLUE, 5), SK(RED)], [N(GREEN, 9), N(YELLOW, 3)], [SK(BLUE)]]
    r = make("spin2005", hands, N(RED, 1))
    assert r.war() == 0
    assert r.discard[-2:] == [N(RED, 9), N(BLUE, 5)] and r.colour == BLUE
    assert r.hands[0] == [SK(RED)] and len(r.hands[1]) == 2
    # a tied player with nothing further drops out; the other shows and wins
    hands = [[N(RED, 9), SK(RED)], [N(GREEN, 9), N(YELLOW, 2), SK(BLUE)]]
    r = make("spin2005", hands, N(RED, 1))
    assert r.war() == 1 and r.hands[1] == [SK(BLUE)] and r.top() == N(YELLOW, 2)
    # everybody drops out: nobody wins, hands unchanged
    hands = [[N(RED, 9), SK(RED)], [N(GREEN, 9), SK(BLUE)]]
    r = make("spin2005", hands, N(RED, 1))
    assert r.war() is None and r.hands == hands
    # nobody holds a number
    r = make("spin2005", [[SK(RED)], [W]], N(RED, 1))
    assert r.war() is None


def test_spin2005_next_player_spins_and_trade_hands():
    hands = [[SP(RED, 3), N(BLUE, 1)], [N(GREEN, 1), N(GREEN, 2)], [N(YELLOW, 7)] * 3]
    r = make("spin2005", hands, N(RED, 7), wheel={"trade_hands": 1})
    one_action(r, 0)
    assert r.spin_pending and r.cur == 1 and not r.spin_records
    one_action(r, 1)
    assert r.turns == 2 and r.cur == 2
    assert r.hands == [[N(YELLOW, 7)] * 3, [N(BLUE, 1)], [N(GREEN, 1), N(GREEN, 2)]]
    rec = r.spin_records[0]
    assert (rec["turn"], rec["spinner"], rec["space"], rec["hand_before"], rec["hand_after"]) == (
        2,
        1,
        "trade_hands",
        2,
        1,
    )


def test_spin2005_discards():
    hands = [[N(RED, 3), SP(BLUE, 3), N(GREEN, 3), SK(RED)], [N(GREEN, 1)] * 2]
    r = make("spin2005", hands, N(RED, 7), wheel={"discard_number": 1})
    r.spin(0)
    assert r.hands[0] == [SK(RED)] and r.top().number == 3
    assert r.spin_records[0]["cards_discarded"] == 3
    hands = [[N(RED, 3), SP(RED, 4), SK(RED)], [N(GREEN, 1)] * 2]
    r = make("spin2005", hands, N(BLUE, 7), wheel={"discard_color": 1})
    with pytest.raises(R.RoundOver):
        r.spin(0)
    assert r.winner == 0 and r.colour == RED
    assert r.spin_records[0]["hand_after"] == 0
    r = make("spin2005", [[N(RED, 1)] * 6, [N(GREEN, 1)] * 2], N(BLUE, 7), wheel={"almost_uno": 1})
    r.spin(0)
    assert len(r.hands[0]) == 2 and len(r.discard) == 5


def test_spin2005_draw_red_stops_on_wild():
    r = make(
        "spin2005",
        [[N(GREEN, 1)] * 2] * 2,
        N(BLUE, 7),
        wheel={"draw_red": 1},
        draw=[N(RED, 1), W, N(BLUE, 2)],
    )
    r.spin(0)
    assert r.cards_drawn[0] == 2
    r = make(
        "spin2005",
        [[N(GREEN, 1)] * 2] * 2,
        N(BLUE, 7),
        wheel={"draw_red": 1},
        draw=[N(RED, 1), W, N(BLUE, 2)],
        wild_stops_colour_draw=False,
    )
    r.spin(0)
    assert r.cards_drawn[0] == 3


def test_spin2005_uno_spin_race_reflex():
    bots = [{"reflex": 0}, {"reflex": 1}, {"reflex": 0}]
    r = make(
        "spin2005",
        [[N(GREEN, 1)] * 3, [N(RED, 4), N(RED, 5)], [W] * 2],
        N(BLUE, 7),
        wheel={"uno_spin": 1},
        bots=bots,
    )
    assert r.spin(0) == 1 and len(r.hands[1]) == 1 and r.colour == RED


def test_spin2025_spinner_spins_then_turn_passes():
    hands = [[SP(RED, 3), N(BLUE, 1), N(BLUE, 2)], [N(GREEN, 1)] * 2, [N(GREEN, 2)] * 2]
    r = make("spin2025", hands, N(RED, 7), wheel={"color_discard": 1})
    one_action(r, 0)
    # the only colour held is blue: both blue cards go under the top card -> seat 0 wins
    assert r.winner == 0 and r.top() == SP(RED, 3) and r.colour == RED
    assert r.discard[:2] == [N(BLUE, 1), N(BLUE, 2)]
    hands = [[SP(RED, 3), N(BLUE, 1), N(BLUE, 2)], [N(GREEN, 1)] * 2, [N(GREEN, 2)] * 2]
    r = make("spin2025", hands, N(RED, 7), wheel={"two_x": 1})
    one_action(r, 0)
    assert r.two_x and r.cur == 1 and r.spin_records[0]["spinner"] == 0


def test_color_draw_wilds_do_not_stop():
    r = make(
        "spin2025",
        [[N(GREEN, 1)] * 2] * 2,
        N(BLUE, 7),
        wheel={"color_draw_yellow": 1},
        draw=[N(YELLOW, 1), W, N(BLUE, 2)],
    )
    r.spin(0)
    assert r.cards_drawn[0] == 3
    r = make(
        "spin2025", [[N(GREEN, 1)] * 2] * 2, N(BLUE, 7), wheel={"color_draw_yellow": 1}, draw=[W]
    )
    r.spin(0)
    assert r.cards_drawn[0] == 1 and r.failed_draws == 1


def test_two_x_draw_two_twice():
    hands = [[DT(RED), DT(BLUE), N(GREEN, 5)]] + [[N(GREEN, 1)] * 2 for _ in range(3)]
    r = make("spin2025", hands, N(RED, 7), draw=[N(YELLOW, 1)] * 10)
    r.two_x = True
    one_action(r, 0)
    # the only legal first card is the red Draw Two, then the blue one (symbol match)
    assert r.hands[0] == [N(GREEN, 5)]
    assert r.cards_drawn == [0, 4, 0, 0] and r.cur == 3


def test_two_x_reverse_then_skip():
    hands = [[RV(RED), SK(RED), N(GREEN, 5)]] + [[N(GREEN, 1)] * 2 for _ in range(3)]
    for seed in range(10):
        r = make("spin2025", hands, N(RED, 7), seed=seed)
        r.two_x = True
        one_action(r, 0)
        assert r.direction == -1 and r.cur == 2


def test_two_x_spin_card_ends_it():
    hands = [[SP(RED, 3), N(RED, 5), N(GREEN, 5)]] + [[N(GREEN, 1)] * 2 for _ in range(3)]
    r = make("spin2025", hands, N(BLUE, 3), wheel={"swap_hands": 1})
    r.two_x = True
    one_action(r, 0)
    # the spin card was the only legal card: no second card, 2X ended, hands swapped
    assert not r.two_x and r.cur == 1 and r.spin_records[0]["space"] == "swap_hands"
    assert len(r.hands[0]) == 2


def test_web_swing():
    hands = [[WEB, N(RED, 1)], [W, W], [N(RED, 2), N(YELLOW, 2), N(GREEN, 2), N(BLUE, 2)], [WD4]]
    for seed in range(20):
        r = make("spiderman", hands, N(RED, 7), seed=seed)
        played = [r.play_card(0, 0)]
        assert r.seat(r.resolve(0, played)) == 3
    # nobody holds the named colour: play goes on normally
    hands = [[WEB, N(RED, 1)], [W, W], [W], [WD4]]
    r = make("spiderman", hands, N(RED, 7))
    assert r.seat(r.resolve(0, [r.play_card(0, 0)])) == 1


# ----------------------------------------------------------------------------- bulk

EDITION_PLAYERS = [(ed, n) for ed in R.EDITIONS for n in (2, 4)]


@pytest.mark.slow
@pytest.mark.parametrize("edition, players", EDITION_PLAYERS)
def test_conservation_and_rounds_end(edition, players):
    deck = Counter(R.build_deck(edition))
    for g in range(2000):
        # a quarter of the rounds use every knob, so all code paths run
        bots = (
            [
                {"forget": 0.5, "catch": 0.5, "bluff": 0.5, "challenge": 0.5, "reflex": 1 + i}
                for i in range(players)
            ]
            if g % 4 == 0
            else None
        )
        r = R.Round(edition, players, R.round_seed(5, g), bots=bots)
        r.setup()
        r.run()
        assert Counter(r.all_cards()) == deck
        res = r.result()
        assert res["winner"] >= 0
        assert res["cards_left"][res["winner"]] == 0
        assert all(c > 0 for i, c in enumerate(res["cards_left"]) if i != res["winner"])
        assert res["winner_points"] == sum(res["points_left"])
        assert sum(res["spins"].values()) == len(res["spin_records"])
        for rec in res["spin_records"]:
            assert rec["hand_after"] is not None and 1 <= rec["turn"] <= res["turns"]


def test_turn_cap_unfinished():
    res = R.play_round("classic", 4, 3, R.Options(turn_cap=5))
    assert res["winner"] == -1 and res["turns"] == 5 and res["winner_points"] == 0


def test_seat_win_rates_sane():
    df = R.play_many("classic", 4, 2000, 2)
    assert (df.winner >= 0).all()
    rates = df.winner.value_counts(normalize=True)
    assert all(0.17 < rates.get(i, 0) < 0.33 for i in range(4))


def test_play_many_columns_and_determinism():
    df = R.play_many("spin2005", 3, 20, 9)
    expect = (
        [
            "game",
            "seed",
            "first_player",
            "winner",
            "turns",
            "winner_points",
            "cards_drawn",
            "failed_draws",
            "spins",
        ]
        + [f"{k}_{i}" for k in ("cards_drawn", "cards_left", "points_left") for i in range(3)]
        + [f"spins_{s}" for s in R.WHEELS["spin2005"]]
    )
    assert list(df.columns) == expect
    assert df.equals(R.play_many("spin2005", 3, 20, 9))
    assert not df.equals(R.play_many("spin2005", 3, 20, 10))
    rounds, spins = R.play_many_spins("spin2005", 3, 20, 9)
    assert rounds.equals(df)
    assert len(spins) == df.spins.sum()
    assert (
        spins.groupby("game").size().reindex(df.game, fill_value=0).values == df.spins.values
    ).all()
    assert (df.cards_drawn == df[[f"cards_drawn_{i}" for i in range(3)]].sum(axis=1)).all()
    assert "spins_war" not in R.play_many("classic", 2, 2, 0).columns


def test_bad_options():
    with pytest.raises(ValueError):
        R.play_round("uno", 4, 0)
    with pytest.raises(ValueError):
        R.play_round("classic", 1, 0)
    with pytest.raises(ValueError):
        R.play_round("classic", 4, 0, R.Options(wheel={"war": 1}))
    with pytest.raises(ValueError):
        R.play_round("spin2005", 4, 0, R.Options(wheel={"two_x": 1}))
    with pytest.raises(ValueError):
        R.play_round("spin2025", 4, 0, R.Options(wheel={"two_x": 0}))
    with pytest.raises(ValueError):
        R.play_round("classic", 2, 0, bots=[{"forgot": 1}, {}])
    with pytest.raises(ValueError):
        R.play_round("spin2025", 2, 0, R.Options(wild_spin_cards=5))


def test_trace_is_readable():
    trace = []
    R.play_round("spin2005", 3, 7, trace=trace)
    assert trace and trace[0].startswith("[turn 0] first card")
    assert any("wins" in line for line in trace)
