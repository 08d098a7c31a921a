"""Strategy ``search`` (engine/search.py, docs/BOTS.md): its characteristic decision on
hand-built positions, its margin over ``random``, reproducibility (seed, threads), its knob,
and whole rounds in every edition, under house rules, rlcard and match mode. Rollouts are
kept small so that the file runs in seconds once the kernel is compiled."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from statekit import KIND, Game

from unospin_sim import simulate
from unospin_sim.bots import parse_bots, saved_bot_string, saved_bots
from unospin_sim.engine import kernel as K
from unospin_sim.engine import layout as L
from unospin_sim.engine.determinize import copy_determinized, unseen_pool
from unospin_sim.engine.search import (
    NO_CUTOFF,
    SEARCH_EXTEND_BAND,
    SEARCH_SCALE,
    SEARCH_Z,
    close_challenger,
    rollout_value,
)
from unospin_sim.errors import BotError
from unospin_sim.rules.cards import COLOURS, N_KINDS, WILD_COLOUR
from unospin_sim.run import Execution

NAME = {v: n for n, v in KIND.items()}


def decision(g):
    """The first move search decides for the seat to act (card name, or None: draw)."""
    sc = K.new_state(int(g.r[L.R_TURN_CAP]), L.SEARCH_WORK_ROWS)
    K.decide(g.st, sc, g.r, g.deck, g.pts, g.cum, g.bots)
    assert g.st.s[L.S_SEARCH_TURN] == g.st.s[L.S_TURNS] + 1
    k = int(g.st.s[L.S_SEARCH_MOVE])
    return None if k < 0 else NAME[k]


def play_search_round(g):
    """The round loop of search from the hand-built state: decide whenever it stops."""
    sc = K.new_state(int(g.r[L.R_TURN_CAP]), L.SEARCH_WORK_ROWS)
    while K.run_round_search(g.st, g.r, g.deck, g.pts, g.cum, g.bots) == 1:
        K.decide(g.st, sc, g.r, g.deck, g.pts, g.cum, g.bots)


def first_play(g, p=0):
    return next(NAME[e[2]] for e in g.events() if e[0] == L.EV_PLAY and e[1] == p)


def _heads_up(bot):
    """2 players: seat 0 holds a Wild and a red Skip on a red 8; seat 1 holds one card.
    The Skip gives seat 0 another turn in a two-player game, and the Wild then wins: a sure
    win. heuristic plays the Wild first (250 against the Skip's 122 when the next player
    holds <= 2 cards), which gives seat 1 a turn to go out."""
    g = Game("classic(players=2)", bot).give(0, "wild", "red skip").give(1, "yellow 2").top("red 8")
    g.pile(
        "red 1",
        "red 2",
        "red 4",
        "blue 7",
        "yellow 9",
        "green 8",
        "blue 9",
        "red 6",
        "yellow 1",
        "blue 3",
        "green 9",
        "red 9",
        "wild",
        "green 5",
    )
    return g


def test_search_plays_the_skip_that_wins_heuristic_does_not():
    assert NAME[int(K.choose_card(*_args(_heads_up("heuristic")), 0, True))] == "wild"
    assert decision(_heads_up("search(rollouts=32),heuristic")) == "red skip"
    g = _heads_up("search(rollouts=32),heuristic")
    play_search_round(g)
    assert first_play(g) == "red skip"
    assert g.st.s[L.S_WINNER] == 0


def test_the_horizon_reaches_the_decision():
    """horizon=1: a rollout plays only the seat's own turn, after which the Skip and the
    Wild each leave one card against one (both score 1/2 by the hand sizes): no challenger
    beats heuristic's Wild. horizon=2: after the Skip the seat takes the next turn too and
    goes out (SEARCH_SCALE every time), after the Wild seat 1 moves: the Skip wins."""
    assert decision(_heads_up("search(rollouts=32,horizon=1),heuristic")) == "wild"
    assert decision(_heads_up("search(rollouts=32,horizon=2),heuristic")) == "red skip"


def _no_winner_soon(players=3):
    """Every seat holds three cards of its own colour on a yellow 0, ten turns played."""
    g = Game(f"classic(players={players})", "random")
    for p, colour in enumerate(["red", "blue", "green", "red"][:players]):
        g.give(p, f"{colour} 1", f"{colour} 2", f"{colour} 3")
    g.top("yellow 0")
    g.pile(
        "yellow 1",
        "yellow 2",
        "yellow 3",
        "yellow 4",
        "yellow 5",
        "yellow 6",
        "red 4",
        "blue 4",
        "green 4",
        "red 5",
        "blue 5",
        "green 5",
        "red 6",
        "blue 6",
        "green 6",
    )
    g.set(L.S_TURNS, 10)
    return g


def test_a_rollout_stops_at_its_cut_off():
    """In a rollout's scratch state the search loop stops when the turn count reaches
    S_SEARCH_ROLL, with no winner (4 turns cannot empty a hand of 3 cards here, 2 of them
    seat 0's); with NO_CUTOFF the same position plays to a winner."""
    g = _no_winner_soon()
    g.set(L.S_SEARCH_ROLL, 14)
    assert K.run_round_search(g.st, g.r, g.deck, g.pts, g.cum, g.bots) == 0
    assert g.s(L.S_TURNS) == 14 and g.s(L.S_WINNER) == -1
    g = _no_winner_soon()
    g.set(L.S_SEARCH_ROLL, NO_CUTOFF)
    K.run_round_search(g.st, g.r, g.deck, g.pts, g.cum, g.bots)
    assert g.s(L.S_WINNER) >= 0 and g.s(L.S_TURNS) > 14


def test_a_cut_off_rollout_scores_the_hand_size_share():
    """Hands of 1, 2 and 4 cards: 1 / hand size is 1, 1/2, 1/4 of a sum 7/4, so the seats'
    shares are 4/7, 2/7, 1/7 (x SEARCH_SCALE, rounded); without a cut-off (scale 1) an
    unfinished rollout scores 0; a won round scores the whole scale to the winner (and its
    partner)."""
    assert SEARCH_SCALE == 1000
    g = Game("classic(players=3)").give(0, "red 1").give(1, "red 2", "red 3")
    g.give(2, "blue 1", "blue 2", "blue 3", "blue 4")
    assert [rollout_value(g.st, g.r, g.pts, p, 1000) for p in range(3)] == [571, 286, 143]
    assert rollout_value(g.st, g.r, g.pts, 0, 1) == 0
    g.set(L.S_WINNER, 1)
    assert [rollout_value(g.st, g.r, g.pts, p, 1000) for p in range(3)] == [0, 1000, 0]
    # partners (seats 0 and 2 against 1 and 3): (1 + 1/4) / (1 + 1/2 + 1/4 + 1/4) = 0.625
    g = Game("classic(players=4,partners=true)").give(0, "red 1").give(1, "red 2", "red 3")
    g.give(2, "blue 1", "blue 2", "blue 3", "blue 4").give(
        3, "green 1", "green 2", "green 3", "green 4"
    )
    assert [rollout_value(g.st, g.r, g.pts, p, 1000) for p in range(4)] == [625, 375, 625, 375]


def _won_by(rules, w):
    """4 players, seat ``w`` has gone out; the other seats hold, in seat order, a blue 7
    (7 points), a red 2 and a red Skip (22), a Wild and a green 3 (53)."""
    g = Game(rules)
    hands = iter([["blue 7"], ["red 2", "red skip"], ["wild", "green 3"]])
    for q in range(4):
        if q != w:
            g.give(q, *next(hands))
    return g.set(L.S_WINNER, w)


def test_a_partners_rollout_values_the_teams_outcome():
    """Under partners (seats 0 and 2 against 1 and 3) a rollout scores the team's outcome:
    (a) the partner wins a race round: both partners score the team's points, the
    opponents' cards (22 + 53 = 75, as the match credits them; winner_points, 82, would
    count seat 0's 7 too); (b) the partner wins a single round: the whole scale; (c) an
    opponent wins: 0 (its team scores, here the cards of seats 0 and 2: 7 + 22 = 29)."""
    race = "classic(players=4,match=race,partners=true)"
    g = _won_by(race, 2)
    assert [rollout_value(g.st, g.r, g.pts, p, 1) for p in range(4)] == [75, 0, 75, 0]
    g = _won_by("classic(players=4,partners=true)", 2)
    assert [rollout_value(g.st, g.r, g.pts, p, 1) for p in range(4)] == [1, 0, 1, 0]
    assert [rollout_value(g.st, g.r, g.pts, p, SEARCH_SCALE) for p in range(4)] == [
        SEARCH_SCALE,
        0,
        SEARCH_SCALE,
        0,
    ]
    g = _won_by(race, 1)
    assert [rollout_value(g.st, g.r, g.pts, p, 1) for p in range(4)] == [0, 29, 0, 29]
    # without partners a race round scores the winner's points to the winner alone
    g = _won_by("classic(players=4,match=race)", 2)
    assert [rollout_value(g.st, g.r, g.pts, p, 1) for p in range(4)] == [0, 0, 82, 0]


@pytest.mark.parametrize(
    "rules",
    ["classic(players=2,match=race,target=100)", "classic(players=3,match=lowest,target=100)"],
)
def test_matches_never_cut_rollouts_off(rules):
    """Race and lowest matches score points, which a hand-size share cannot estimate: their
    rollouts play to the end whatever the horizon (the same tables at horizon 1 and 0),
    while a single round's decisions do change with it (the check has the power to fail)."""
    players = int(rules.split("players=")[1][0])

    def bots(horizon):
        return ",".join([f"search(rollouts=4,horizon={horizon})"] + ["random"] * (players - 1))

    a, b = (
        simulate(rules, bots(h), games=3, seed=5, execution=Execution(threads=1)) for h in (1, 0)
    )
    pd.testing.assert_frame_equal(a.rounds, b.rounds)
    pd.testing.assert_frame_equal(a.matches, b.matches)
    single = f"classic(players={players})"
    y, z = (
        simulate(single, bots(h), games=30, seed=5, execution=Execution(threads=1)).rounds
        for h in (1, 0)
    )
    assert not y.equals(z)


def test_saved_runs_keep_their_search_knobs():
    """A run saves search's rollouts, horizon and colours by name (a later change of the
    defaults cannot change what it played); a search seat saved without horizon predates
    that knob and played 64 rollouts to the end of the round, one saved without colours
    predates that knob and named heuristic's colour (runner.saved_bots: resume, report); one
    saved with infer=1 (2026-12-02 to 12-04) keeps it; one saved without extend predates
    that knob (2026-12-05) and never ran on past its rollouts."""
    spec = parse_bots("search", 1)[0]
    assert saved_bot_string(spec) == "search(rollouts=128,horizon=16,colours=1,infer=3,extend=2)"
    assert parse_bots(saved_bot_string(spec), 1)[0] == spec
    assert saved_bot_string(parse_bots("heuristic(forget=0.1)", 1)[0]) == "heuristic(forget=0.1)"
    assert saved_bots(["search", "search(rollouts=8)", "random", "search(peek=1)"]) == [
        "search(rollouts=64,horizon=0,colours=0,infer=0,extend=1)",
        "search(rollouts=8,horizon=0,colours=0,infer=0,extend=1)",
        "random",
        "search(peek=1,rollouts=64,horizon=0,colours=0,infer=0,extend=1)",
    ]
    assert saved_bots(
        ["search(rollouts=128,horizon=16)", "search(Horizon=4, colours=1, infer=0)"]
    ) == [
        "search(rollouts=128,horizon=16,colours=0,infer=0,extend=1)",
        "search(Horizon=4,colours=1,infer=0,extend=1)",
    ]
    assert saved_bots(["search(rollouts=128,horizon=16,colours=1,infer=1)", "random"]) == [
        "search(rollouts=128,horizon=16,colours=1,infer=1,extend=1)",
        "random",
    ]
    new = ["search(rollouts=128,horizon=16,colours=1,infer=3,extend=2)", "random"]
    assert saved_bots(new) == new
    assert saved_bots(["search(rollouts=8,)", "search(colours=1,horizon=4)"]) == [
        "search(rollouts=8,horizon=0,colours=0,infer=0,extend=1)",
        "search(colours=1,horizon=4,extend=1)",
    ]
    for damaged in (
        ["search(rollouts=8", "random"],
        "search,random",
        [3, "random"],
        ["search(rollouts=8)(x)"],
    ):
        assert saved_bots(damaged) == damaged  # left for the parser to refuse
    res = simulate(
        "classic(players=2)",
        "search(rollouts=2),random",
        games=2,
        seed=1,
        execution=Execution(threads=1),
    )
    assert res.meta["bots"] == [
        "search(rollouts=2,horizon=16,colours=1,infer=3,extend=2)",
        "random",
    ]


def _work(results):
    """A decision's work area (``decide``: row c holds candidate c's kind, alive, sum and
    sum of squares of its results) with these candidates: (alive, wins out of 100)."""
    w = np.zeros((L.SEARCH_WORK_ROWS, 4), dtype=np.int64)
    for c, (alive, wins) in enumerate(results):
        w[c] = (c, alive, wins, wins)  # results of 0 or 1: the sum of squares is the sum
    return w


def test_a_close_final_test_names_the_challenger_to_run_on():
    """After 100 rollouts, heuristic's move (candidate 0) won 50. A challenger that won 57 is
    0.99 standard errors above it (unpaired: 0.07 / sqrt((0.2451 + 0.25) / 100)), within
    SEARCH_EXTEND_BAND of SEARCH_Z = 1: close, so knob extend runs it on; one that won 75
    is 3.8 above (clearly better), one that won 43 is 0.99 below (clearly not); a dropped
    challenger is never named."""
    assert SEARCH_Z == 1.0 and SEARCH_EXTEND_BAND == 1.0
    assert close_challenger(_work([(1, 50), (1, 43), (1, 57)]), 3, 100) == 2
    assert close_challenger(_work([(1, 50), (1, 57), (1, 75)]), 3, 100) == -1
    assert close_challenger(_work([(1, 50), (1, 43)]), 2, 100) == -1
    assert close_challenger(_work([(1, 50), (0, 57), (1, 43)]), 3, 100) == -1
    assert close_challenger(_work([(1, 50), (1, 52)]), 2, 100) == 1  # 0.28 above: close


def test_extend_reaches_the_engine():
    """On the same seeded rounds ``search(extend=4)`` plays some rounds otherwise than
    ``extend=1`` (which plays as search did before the knob: ``benchmarks/identity.py
    search --knobs extend=1`` checks that bit for bit, docs/BOTS.md), not every round."""
    cols = ["winner", "turns", "winner_points"]
    a, b = (
        simulate(
            "classic(players=2)",
            f"search(rollouts=8,extend={e}),heuristic",
            games=200,
            seed=6,
            execution=Execution(threads=1),
        ).rounds[cols]
        for e in (1, 4)
    )
    same = (a.to_numpy() == b.to_numpy()).all(axis=1).sum()
    assert 0 < 200 - same < 200


def _void_in_blue(bots):
    """2 players: seat 0 holds two Wilds on a green 8; seat 1 holds one card and drew
    earlier for want of blue (layout.VOID: it holds no blue card), and no wild is unseen.
    heuristic names red (no colour held: the first on ties), and seat 1 goes out at once
    when its card is red. Naming blue, seat 1 cannot play its card (a card it draws and
    plays leaves it with that card) and seat 0 goes out with its second Wild: a sure win.
    Without the void blue would be as risky as red."""
    g = Game("classic(players=2)", bots).give(0, "wild", "wild").give(1, "red 7").top("green 8")
    g.pile(
        "red 1",
        "red 2",
        "yellow 1",
        "yellow 2",
        "green 1",
        "green 2",
        "blue 1",
        "blue 2",
        "blue 3",
        "red 6",
        "yellow 6",
        "green 6",
        "blue 6",
        "yellow 7",
        "green 7",
        "red 9",
    )
    g.st.hand[1, L.VOID] = 1 << COLOURS.index("blue")
    return g


@pytest.mark.parametrize(
    "strategy,top,bits",
    [
        ("random", "red 7", ["red", "face 7", "wild"]),
        ("heuristic", "red skip", ["red", "face 10", "wild"]),
        ("hoarder", "red 7", ["red", "face 7"]),  # hoarder may draw holding a wild
        ("random", "wild", ["red", "wild"]),  # a wild on top (red named): no face to match
        ("search", "red 7", []),  # search may draw by choice: its draws prove nothing
    ],
)
def test_a_draw_marks_what_it_proves(strategy, top, bits):
    """Seat 1 holds a blue 3 and a green 9 with red in play and draws a yellow 2 it cannot
    play: layout.VOID gets the colour in play, the top card's face when it is coloured, and
    no wild but for hoarder (every strategy but search draws only for want of a legal card)."""
    g = (
        Game("classic(players=2)", f"random,{strategy}")
        .give(1, "blue 3", "green 9")
        .top(top, colour=COLOURS.index("red"))
    )
    g.pile("yellow 2")
    g.turn(1)
    assert g.hand(1) == ["blue 3", "green 9", "yellow 2"]
    want = 0
    for b in bits:
        want |= (
            1 << (L.VOID_FACE + int(b.split()[1]))
            if b.startswith("face")
            else 1 << WILD_COLOUR
            if b == "wild"
            else 1 << COLOURS.index(b)
        )
    assert g.st.hand[1, L.VOID] == want


def test_a_drawn_card_played_marks_the_rest_of_the_hand():
    """Seat 1 (random) holds a blue 3 and a green 9 on a red 7, draws a red 2 and plays it:
    the hand left holds no red, no 7 and no wild."""
    g = Game("classic(players=2)", "random").give(1, "blue 3", "green 9").top("red 7")
    g.pile("red 2")
    g.turn(1)
    assert g.hand(1) == ["blue 3", "green 9"] and g.top_name == "red 2"
    assert g.st.hand[1, L.VOID] == (
        (1 << COLOURS.index("red")) | (1 << (L.VOID_FACE + 7)) | (1 << WILD_COLOUR)
    )


@pytest.mark.parametrize("infer", [1, 0])
def test_the_determinization_deals_what_a_draw_proves_missing(infer):
    """Seat 1 (3 cards) drew on a green 5: it holds no green, no 5 and no wild. Seat 0's
    rollouts deal it 3 of the 18 cards seat 0 cannot see (greens, 5s and wilds among them),
    over 300 seeds: with knob infer never a green, a 5 or a wild; with infer=0 never a green
    but 5s and wilds (as before the knob)."""
    g = (
        Game("classic(players=3)", "search,random,random")
        .give(0, "blue 8")
        .give(1, "red 1", "yellow 2", "red 3")
        .give(2, "green 7", "yellow 9")
        .top("blue 3")
    )
    g.pile(
        "red 5",
        "yellow 5",
        "red 5",
        "yellow 5",
        "wild",
        "wild draw four",
        "wild",
        "green 1",
        "green 2",
        "red 8",
        "yellow 8",
        "red 4",
        "yellow 4",
    )
    g.st.hand[1, L.VOID] = (
        (1 << COLOURS.index("green")) | (1 << (L.VOID_FACE + 5)) | (1 << WILD_COLOUR)
    )
    sc = K.new_state(int(g.r[L.R_TURN_CAP]), L.SEARCH_WORK_ROWS)
    n = unseen_pool(g.st, 0, sc.log)
    assert n == 18
    dealt = np.zeros(N_KINDS, dtype=np.int64)
    for seed in range(300):
        copy_determinized(g.st, sc, g.r, g.pts, 0, seed, sc.log, n, infer)
        assert sc.hand[1, L.HSIZE] == 3 and sc.hand[2, L.HSIZE] == 2
        assert (sc.hand[0, : L.HSIZE + 1] == g.st.hand[0, : L.HSIZE + 1]).all()
        dealt += sc.hand[1, : len(dealt)]
    names = {NAME[k]: int(v) for k, v in enumerate(dealt) if v}
    assert not any(nm.startswith("green") for nm in names)
    fives_and_wilds = sum(v for nm, v in names.items() if nm.endswith(" 5") or "wild" in nm)
    if infer:
        assert fives_and_wilds == 0
        assert set(names) == {
            "red 1",
            "yellow 2",
            "red 3",
            "red 8",
            "yellow 8",
            "red 4",
            "yellow 4",
            "yellow 9",
        }
    else:
        assert fives_and_wilds > 300  # 7 of the 15 cards it may hold, 3 a seed: about 420


def test_search_names_the_colour_the_next_player_cannot_follow():
    """With knob colours (the default) search names blue, the colour seat 1 is known to
    lack, and wins; with colours=0 it names heuristic's red and seat 1 goes out on it."""
    g = _void_in_blue("search(rollouts=64),random")
    assert decision(g) == "wild"
    assert g.st.s[L.S_SEARCH_COLOUR] == COLOURS.index("blue") + 1
    g = _void_in_blue("search(rollouts=64,colours=0),random")
    assert decision(g) == "wild"
    assert g.st.s[L.S_SEARCH_COLOUR] == 0
    g = _void_in_blue("search(rollouts=64),random")
    play_search_round(g)
    assert [e[2] for e in g.events() if e[0] == L.EV_COLOUR and e[1] == 0][0] == COLOURS.index(
        "blue"
    )
    assert g.st.s[L.S_WINNER] == 0
    g = _void_in_blue("search(rollouts=64,colours=0),random")
    play_search_round(g)
    assert [(e[1], NAME[e[2]]) for e in g.events() if e[0] == L.EV_PLAY][:2] == [
        (0, "wild"),
        (1, "red 7"),
    ]  # heuristic's red lets seat 1 out
    assert g.st.s[L.S_WINNER] == 1


def test_search_plays_its_last_card_rather_than_draw():
    g = (
        Game("classic(players=2)", "search(rollouts=8),random")
        .give(0, "red 4")
        .give(1, "blue 1", "blue 2")
        .top("red 2")
    )
    g.pile("green 1", "green 2", "yellow 5")
    assert decision(g) == "red 4"


def test_one_move_needs_no_rollout():
    """Nothing legal: the decision is to draw, found without rollouts (the scratch state is
    never touched)."""
    g = (
        Game("classic(players=2)", "search(rollouts=8),random")
        .give(0, "blue 4", "green 7")
        .give(1, "blue 1")
        .top("red 2")
    )
    g.pile("green 1")
    assert decision(g) is None


def _last_card_threat(opponent_card, bots="search(rollouts=64,peek=1),random"):
    """2 players, seat 1 (random) holds one card; seat 0 holds a blue 5 and a red 9 (and a
    green 2, unplayable) on a red 5. The blue 5 lets a blue last card go out at once, the
    red 9 a red one: only a seat that sees seat 1's card knows which to keep back."""
    g = (
        Game("classic(players=2)", bots)
        .give(0, "blue 5", "red 9", "green 2")
        .give(1, opponent_card)
        .top("red 5")
    )
    g.pile(
        "green 1",
        "green 3",
        "yellow 4",
        "yellow 6",
        "green 6",
        "yellow 8",
        "green 8",
        "yellow 1",
        "green 4",
        "yellow 3",
    )
    return g


@pytest.mark.parametrize("opponent_card,losing", [("blue 3", "blue 5"), ("red 3", "red 9")])
def test_peek_keeps_back_the_card_that_lets_the_seen_last_card_out(opponent_card, losing):
    """search(peek=1) sees seat 1's last card and never plays the card that lets it out;
    seat 0 sees the same in both positions, and whichever card heuristic prefers is the
    losing one in one of them."""
    g = _last_card_threat("blue 3", "heuristic,random")
    heuristic_move = NAME[int(K.choose_card(*_args(g), 0, True))]
    assert heuristic_move in ("blue 5", "red 9")
    assert decision(_last_card_threat(opponent_card)) != losing


def test_the_game_stream_is_not_drawn_from():
    g = _heads_up("search(rollouts=8),heuristic")
    before = g.st.s.copy(), g.st.hand.copy(), g.st.cards.copy()
    decision(g)
    after = g.st.s.copy(), g.st.hand.copy(), g.st.cards.copy()
    search_fields = [L.S_SEARCH_TURN, L.S_SEARCH_MOVE, L.S_SEARCH_HS, L.S_SEARCH_COLOUR]
    before[0][search_fields] = 0
    after[0][search_fields] = 0
    for x, y in zip(before, after):
        np.testing.assert_array_equal(x, y)


def _args(g):
    return g.st, g.r, g.pts, g.cum, g.bots


def _share(res, player, players):
    df = res.rounds
    won = df["winner"] >= 0
    return float((((df["winner"] + df["game"]) % players == player) & won).sum() / len(df))


def test_search_beats_random_by_a_margin():
    """2-player classic, seats rotated, 400 rounds at 32 rollouts, seed 7: search wins 66.0%
    of the rounds with the default knobs (measured 2026-12-02), 61.75% with
    colours=0,infer=0, 59.5% with horizon=0 too; the test asks >= 58%, 3.2 standard errors
    above the fair 50% (heuristic wins 56.75% of the same deals)."""
    res = simulate(
        "classic(players=2)",
        "search(rollouts=32),random",
        games=400,
        seed=7,
        rotate_bots=True,
        execution=Execution(threads=1),
    )
    assert _share(res, 0, 2) >= 0.58


def test_reproducible_and_independent_of_threads():
    bots = "search(rollouts=4),random,heuristic,search(rollouts=2)"
    cols = ["winner", "turns", "winner_points", "cards_drawn"]
    a = simulate(
        "classic(players=4)", bots, games=60, seed=3, execution=Execution(threads=1)
    ).rounds[cols]
    b = simulate(
        "classic(players=4)", bots, games=60, seed=3, execution=Execution(threads=2, chunk_size=17)
    ).rounds[cols]
    c = simulate(
        "classic(players=4)", bots, games=60, seed=3, execution=Execution(threads=1)
    ).rounds[cols]
    np.testing.assert_array_equal(a.to_numpy(), b.to_numpy())
    np.testing.assert_array_equal(a.to_numpy(), c.to_numpy())
    d = simulate(
        "classic(players=4)", bots, games=60, seed=4, execution=Execution(threads=1)
    ).rounds[cols]
    assert not np.array_equal(a.to_numpy(), d.to_numpy())


def test_knob():
    assert str(parse_bots("search(rollouts=8)", 1)[0]) == "search(rollouts=8)"
    assert str(parse_bots("search", 1)[0]) == "search"
    assert parse_bots("search", 1)[0].rollouts == 128
    assert parse_bots("search", 1)[0].horizon == 16
    assert parse_bots("search", 1)[0].extend == 2
    assert str(parse_bots("search(extend=1)", 1)[0]) == "search(extend=1)"
    assert str(parse_bots("search(horizon=0)", 1)[0]) == "search(horizon=0)"
    for bad, word in [
        ("search(rollouts=0)", "rollouts"),
        ("search(rollouts=1.5)", "rollouts"),
        ("search(rollouts=1e9)", "rollouts"),
        ("search(depth=2)", "depth"),
        ("heuristic(rollouts=4)", "only to strategy 'search'"),
        ("search(peek=0.5)", "peek"),
        ("heuristic(peek=1)", "only to strategy"),
        ("search(horizon=-1)", "horizon"),
        ("search(horizon=2.5)", "horizon"),
        ("search(horizon=1e9)", "horizon"),
        ("search(colours=2)", "colours"),
        ("search(colours=0.5)", "colours"),
        ("search(infer=-1)", "infer"),
        ("search(infer=4)", "infer"),
        ("search(infer=2.5)", "infer"),
        ("search(extend=0)", "extend"),
        ("search(extend=65)", "extend"),
        ("search(extend=1.5)", "extend"),
        ("heuristic(extend=3)", "extend"),
        ("random(infer=0)", "only to strategy 'search'"),
        ("colour_keeper(colours=0)", "only to strategy 'search'"),
        ("greedy(horizon=8)", "only to strategy 'search'"),
    ]:
        with pytest.raises(BotError, match=word) as e:
            parse_bots(bad, 2)
        assert "\n" not in str(e.value)


@pytest.mark.parametrize(
    "rules",
    [
        "classic(players=3)",
        "spin2005(players=4)",
        "spin2025(players=3)",
        "spiderman(players=4)",
        "classic(players=4,stacking=true,seven_o=true,draw_until_playable=true,jump_in=true)",
        "spin2025(players=4,partners=true,force_play=true)",
        "classic(players=3,special_wilds=shuffle_hands,stacking=true)",
    ],
)
def test_invariants_hold_in_whole_rounds(rules):
    players = int(rules.split("players=")[1].split(",")[0].rstrip(")"))
    bots = ",".join(
        [
            "search(rollouts=2,forget=0.3,bluff=0.3,challenge=0.5)",
            "random",
            "heuristic",
            "search(rollouts=3)",
        ][:players]
    )
    df = simulate(
        rules, bots, games=40, seed=2, check=True, rotate_bots=True, execution=Execution(threads=1)
    ).rounds
    assert int(df["invariant_failures"].sum()) == 0
    assert (df["winner"] >= 0).all()


def test_rlcard_plays_heuristics_cards():
    a = simulate(
        "classic(players=2,rlcard=true)",
        "search(rollouts=2),random",
        games=200,
        seed=1,
        execution=Execution(threads=1),
    ).rounds
    b = simulate(
        "classic(players=2,rlcard=true)",
        "heuristic,random",
        games=200,
        seed=1,
        execution=Execution(threads=1),
    ).rounds
    np.testing.assert_array_equal(
        a[["winner", "turns"]].to_numpy(), b[["winner", "turns"]].to_numpy()
    )


def test_match_mode_and_trace():
    res = simulate(
        "classic(players=2,match=race,target=100)",
        "search(rollouts=2),random",
        games=3,
        seed=1,
        execution=Execution(threads=1),
    )
    assert len(res.matches) == 3 and (res.matches["winner"] >= 0).all()
    from unospin_sim.engine.encode import encode
    from unospin_sim.rules import parse_rules

    rs = parse_rules("classic(players=2)")
    ki = encode(rs, parse_bots("search(rollouts=2),random", 2))
    log, st = K.trace_game(*ki.args(), 1, 0, L.LOG_ROWS_TRACE, False)
    assert st.s[L.S_WINNER] >= 0 and (log[:, 0] == L.EV_WIN).sum() == 1
