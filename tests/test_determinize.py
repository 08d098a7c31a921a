"""What a search seat deals the hands it cannot see (engine/determinize.py, knob ``infer``):
the older voids a take keeps (turn.mark_void, piles.add_card), the choice the search loop records
(turn.note_play), the deals each knob level allows, and the measure of the deals against
the true hands (deal_quality; inference_quality in the slow tier)."""

from __future__ import annotations

import numpy as np
import pytest
from statekit import KIND, Game

from unospin_sim.bots import STRATEGY_HEURISTIC, STRATEGY_RANDOM, parse_bots
from unospin_sim.engine import kernel as K
from unospin_sim.engine import layout as L
from unospin_sim.engine.determinize import (
    N_QUALITY,
    Q_CARDS,
    Q_DEALT,
    Q_DECISIONS,
    Q_TRUTH,
    Q_UNIFORM,
    copy_determinized,
    deal_quality,
    restore_deal,
    save_deal,
    unseen_pool,
    void_layers,
)
from unospin_sim.engine.piles import add_card, known_void, remove_card
from unospin_sim.rules import parse_rules
from unospin_sim.rules.cards import COLOURS, N_KINDS, WILD_COLOUR

NAME = {v: n for n, v in KIND.items()}
RED, YELLOW, GREEN, BLUE = (COLOURS.index(c) for c in ("red", "yellow", "green", "blue"))


def _void(*colours, face=None, wild=False):
    m = 0
    for c in colours:
        m |= 1 << c
    if face is not None:
        m |= 1 << (L.VOID_FACE + face)
    if wild:
        m |= 1 << WILD_COLOUR
    return m


def test_a_take_keeps_what_a_draw_proved_as_an_older_void():
    """Seat 1 (heuristic, 2 cards: a yellow 2 and a yellow 4) draws on a red 9 for want of a
    legal card (a green 5 from the pile): it lacks red, 9s and wilds, true of its 3 cards
    (infer 1 and 2 read it). Seat 0 plays on, and seat 1 draws again on a blue 6 (a green 1):
    now it lacks blue, 6s and wilds, and of its 4 cards 3 (those held at the first draw)
    still lack red and 9s (infer=2: the older void; infer=1 forgets it). A card taken by
    any other means (a penalty, say) makes both voids older: of its 5 cards, 4 lack blue
    and 6s, 3 also red and 9s. Cards given up leave fewer old ones known."""
    g = Game("classic(players=2)", "search,heuristic").give(1, "yellow 2", "yellow 4").top("red 9")
    g.pile("green 5")
    g.turn(1)
    no_red_9 = _void(RED, face=9, wild=True)
    assert g.hand(1) == ["green 5", "yellow 2", "yellow 4"]
    assert void_layers(g.st, 1, 1) == (no_red_9, 0, 0, 0, 0)
    assert void_layers(g.st, 1, 2) == (no_red_9, 0, 0, 0, 0)
    g.top("blue 6")
    g.pile("green 1")
    g.turn(1)
    no_blue_6 = _void(BLUE, face=6, wild=True)
    assert g.st.hand[1, L.HSIZE] == 4
    assert void_layers(g.st, 1, 1) == (no_blue_6, 0, 0, 0, 0)
    assert void_layers(g.st, 1, 2) == (no_blue_6, no_red_9, 3, 0, 0)
    add_card(g.st, 1, KIND["red 7"])  # taken by any means: no void is true of every card
    assert void_layers(g.st, 1, 1) == (0, 0, 0, 0, 0)
    assert void_layers(g.st, 1, 2) == (0, no_blue_6, 4, no_red_9, 3)
    for name in ("green 5", "yellow 2", "yellow 4", "green 1"):
        remove_card(g.st, 1, KIND[name])  # a hand that gives cards up keeps fewer old ones
    assert void_layers(g.st, 1, 2) == (0, no_blue_6, 0, no_red_9, 0)


def test_the_search_loop_records_a_heuristic_seats_chosen_card():
    """Seat 1 (heuristic) holds a red 3, a red 9 and a blue 1 on a red 5 and plays the red 9
    (its best score): the search loop's turn records the card, the top card and colour it
    chose on, and that seat 0 holds more than 2 cards. The rule tests' turn records
    nothing: the loops without a search seat pay nothing."""

    def game():
        return (
            Game("classic(players=2)", "search,heuristic")
            .give(0, "green 1", "green 2", "green 3")
            .give(1, "red 3", "red 9", "blue 1")
            .top("red 5")
        )

    g = game().run(1)  # plays seat 1's turn, stops before seat 0 (search) decides
    h = g.st.hand
    assert g.hand(1) == ["blue 1", "red 3"] and g.top_name == "red 9"
    assert (
        h[1, L.LAST_PLAY],
        h[1, L.LAST_TOP],
        h[1, L.LAST_COLOUR],
        h[1, L.LAST_SMALL],
        h[1, L.LAST_NAMED],
        h[1, L.LAST_HS],
        h[1, L.LAST_TAKEN],
        h[1, L.LAST_BOT],
    ) == (KIND["red 9"] + 1, KIND["red 5"], RED, 0, 0, 2, 0, STRATEGY_HEURISTIC)
    g = game().turn(1)
    assert g.top_name == "red 9" and g.st.hand[1, L.LAST_PLAY] == 0


def test_a_second_choice_keeps_the_first_as_the_choice_before():
    """Seat 1 (heuristic) plays the red 9 on a red 5, then (no card taken) the red 3 on it:
    the red 9's record moves to PREV_*, the red 3's is the last. A draw then breaks the
    chain: a later choice has no choice before it."""
    g = (
        Game("classic(players=2)", "search,heuristic")
        .give(0, "green 1", "green 2", "green 3")
        .give(1, "red 3", "red 9", "blue 1", "blue 2")
        .top("red 5")
    )
    g.run(1).run(1)
    h = g.st.hand
    assert g.hand(1) == ["blue 1", "blue 2"] and g.top_name == "red 3"
    assert (
        h[1, L.LAST_PLAY],
        h[1, L.LAST_TOP],
        h[1, L.PREV_PLAY],
        h[1, L.PREV_TOP],
        h[1, L.PREV_COLOUR],
        h[1, L.PREV_BOT],
    ) == (
        KIND["red 3"] + 1,
        KIND["red 9"],
        KIND["red 9"] + 1,
        KIND["red 5"],
        RED,
        STRATEGY_HEURISTIC,
    )
    g.pile("green 7")
    g.run(1)  # no blue on a red 3, no 3: it draws (a green 7, kept)
    g.top("blue 5").run(1)  # plays a blue: the record before it is gone with the draw
    assert h[1, L.LAST_PLAY] - 1 in (KIND["blue 1"], KIND["blue 2"])
    assert h[1, L.PREV_PLAY] == 0


def test_the_record_names_the_colour_and_a_draw_clears_it():
    """A heuristic seat with no legal coloured card plays its wild and names blue (most
    held): recorded with the colour. A seat that draws for want of a legal card has
    chosen nothing: no record (the draw's void is set instead)."""
    g = (
        Game("classic(players=2)", "search,heuristic")
        .give(0, "green 1", "green 2")
        .give(1, "wild", "blue 1", "blue 2", "green 3")
        .top("red 5")
    ).run(1)
    h = g.st.hand
    assert (h[1, L.LAST_PLAY], h[1, L.LAST_NAMED], h[1, L.LAST_SMALL]) == (
        KIND["wild"] + 1,
        BLUE + 1,
        1,
    )
    g = (
        Game("classic(players=2)", "search,heuristic")
        .give(0, "green 1", "green 2")
        .give(1, "blue 1")
        .top("red 5")
    )
    g.pile("green 2")
    g.run(1)
    assert g.hand(1) == ["blue 1", "green 2"]
    assert g.st.hand[1, L.LAST_PLAY] == 0 and known_void(g.st, 1) != 0


def _deals(g, infer, seeds=300):
    """Seat 1's dealt hands over ``seeds`` determinizations of seat 0's view: kind -> count."""
    sc = K.new_state(int(g.r[L.R_TURN_CAP]), L.SEARCH_WORK_ROWS)
    n = unseen_pool(g.st, 0, sc.log)
    dealt = np.zeros(N_KINDS, dtype=np.int64)
    hands = []
    for seed in range(seeds):
        copy_determinized(g.st, sc, g.r, g.pts, 0, seed, sc.log, n, infer)
        assert sc.hand[1, L.HSIZE] == g.st.hand[1, L.HSIZE]
        dealt += sc.hand[1, :N_KINDS]
        hands.append(sc.hand[1, :N_KINDS].copy())
    return {NAME[k]: int(v) for k, v in enumerate(dealt) if v}, hands


def test_infer_2_deals_an_older_void_to_the_cards_held_then():
    """Seat 1 holds 3 cards; it lacked green, 5s and wilds when it held 2 of them and has
    taken one card since (VOID1, 1 taken). With infer=2 at most one of its 3 dealt cards is
    green, a 5 or a wild (the card taken since may be); with infer=1 (the older void
    unread) hands with two such cards are dealt too."""
    g = (
        Game("classic(players=2)", "search,heuristic")
        .give(0, "blue 8")
        .give(1, "red 1", "yellow 2", "green 3")
        .top("blue 3")
    )
    g.pile("green 5", "green 7", "yellow 5", "wild", "red 8", "yellow 8", "green 1", "red 4")
    g.st.hand[1, L.VOID] = _void(GREEN, face=5, wild=True)  # true of the 2 cards held then
    g.st.hand[1, L.TAKEN] = 1  # and one card taken since
    special = [KIND[n] for n in ("green 5", "green 7", "yellow 5", "wild", "green 1", "green 3")]

    def most_special(hands):
        return max(int(h[special].sum()) for h in hands)

    assert most_special(_deals(g, 2)[1]) == 1
    assert most_special(_deals(g, 1)[1]) >= 2


def _red_3_chosen(bot=STRATEGY_HEURISTIC, taken=0):
    """Seat 1 (2 cards: a green 1, a yellow 2) chose a red 3 on a red 9 (a record made by
    strategy ``bot``, ``taken`` cards taken since); seat 0 holds a blue 8; 8 cards in the
    pile, a red 8, a red Skip and a red 1 among them."""
    g = (
        Game("classic(players=2)", "search,heuristic")
        .give(0, "blue 8")
        .give(1, "green 1", "yellow 2")
        .top("red 3")
    )
    g.pile("red 8", "red skip", "red 1", "green 5", "yellow 6", "blue 4", "green 7", "yellow 7")
    h = g.st.hand
    h[1, L.LAST_PLAY] = KIND["red 3"] + 1
    h[1, L.LAST_TOP] = KIND["red 9"]
    h[1, L.LAST_COLOUR] = RED
    h[1, L.LAST_HS] = 2  # the record is of this hand (2 cards)
    h[1, L.LAST_BOT] = bot
    h[1, L.TAKEN] = taken
    return g


def test_infer_3_deals_only_hands_on_which_heuristic_chooses_its_card():
    """Seat 1 (heuristic) chose a red 3 on a red 9. Holding a red 8 or a red Skip (higher
    scores) it would have played that, so with infer=3 neither is ever dealt to it; with
    infer=1 both are. A red 1 (lower score) is dealt either way."""
    g = _red_3_chosen()
    modelled, _ = _deals(g, 3)
    plain, _ = _deals(g, 1)
    assert "red 8" not in modelled and "red skip" not in modelled and "red 1" in modelled
    assert plain["red 8"] > 30 and plain["red skip"] > 30  # 2 of 10 cards a seed: about 60


def test_infer_3_reads_only_heuristic_choices():
    """The same record made by a random seat: random's choice is not replayed (infer=3
    deals as infer=2, which deals as infer=1 without older voids)."""
    g = _red_3_chosen(bot=STRATEGY_RANDOM)
    assert _deals(g, 3)[0] == _deals(g, 1)[0]


def test_infer_3_ignores_a_record_the_hand_has_changed_since():
    """The record of the infer=3 test above, but the hand has taken a card since (TAKEN
    moved on): the choice is not replayed, red 8 and red Skip are dealt again."""
    g = _red_3_chosen(taken=1)
    assert _deals(g, 3)[0] == _deals(g, 1)[0]


def test_deal_quality_scores_the_true_hand_against_a_uniform_deal():
    """Seat 1 holds a green 1 and a yellow 2; seat 0 cannot see those nor the pile (a red 5,
    a blue 6, a green 1, a yellow 9): 6 unseen cards. A uniform deal gives a card of seat
    1's the kind green 1 with chance 2/6 and yellow 2 with 1/6 (Q_UNIFORM = log2(1/3) +
    log2(1/6)); the truth 1/2 each (Q_TRUTH = -2). Known to lack red and blue, seat 1 is
    dealt 2 of the 4 greens and yellows: 1/2 and 1/4 (Q_DEALT -> -3, within 0.05 at 20000
    deals, about 3 standard errors); without the void the deals score as the uniform deal
    (within 0.05)."""
    g = (
        Game("classic(players=2)", "search,heuristic")
        .give(0, "blue 8")
        .give(1, "green 1", "yellow 2")
        .top("blue 3")
    )
    g.pile("red 5", "blue 6", "green 1", "yellow 9")
    sc = K.new_state(int(g.r[L.R_TURN_CAP]), L.SEARCH_WORK_ROWS)
    cnt = np.zeros((L.MAX_PLAYERS, N_KINDS), np.int64)

    def quality(infer):
        acc = np.zeros(N_QUALITY)
        deal_quality(g.st, sc, g.r, g.pts, 0, infer, 20000, 7, cnt, acc)
        return acc

    uniform = np.log2(1 / 3) + np.log2(1 / 6)
    acc = quality(1)
    assert acc[Q_DECISIONS] == 1 and acc[Q_CARDS] == 2
    assert acc[Q_UNIFORM] == pytest.approx(uniform, abs=1e-12)
    assert acc[Q_TRUTH] == pytest.approx(-2.0, abs=1e-12)
    assert acc[Q_DEALT] == pytest.approx(uniform, abs=0.05)
    g.st.hand[1, L.VOID] = _void(RED, BLUE)
    acc = quality(1)
    assert acc[Q_DEALT] == pytest.approx(-3.0, abs=0.05)
    assert acc[Q_UNIFORM] == pytest.approx(uniform, abs=1e-12)


def test_inference_table_measures_over_the_uniform_deal():
    """Two rounds, levels -1 and 2: 10 and 30 hidden cards; the uniform deal scored -40 and
    -120 bits as dealt, level 2 -30 and -96: it knows (10 + 24) / 40 = 0.85 bits a card over
    it; the truth (-10 and -30 against a uniform -40 and -120) 3 bits a card."""
    from unospin_sim.studies.inference_quality import inference_table

    out = np.zeros((2, 2, N_QUALITY))
    for i, (cards, uniform, dealt2) in enumerate([(10, -40, -30), (30, -120, -96)]):
        out[i, :, Q_DECISIONS] = 1
        out[i, :, Q_CARDS] = cards
        out[i, :, Q_UNIFORM] = uniform
        out[i, :, Q_TRUTH] = uniform / 4
        out[i, 0, Q_DEALT] = uniform
        out[i, 1, Q_DEALT] = dealt2
    t = inference_table(out, (-1, 2))
    assert t.loc[-1, "known"] == 0 and t.loc[2, "known"] == pytest.approx(34 / 40)
    assert t.loc[2, "truth"] == pytest.approx(3.0) and t.loc[2, "share"] == pytest.approx(34 / 120)
    assert t.loc[2, "misfits"] == 0 and t.loc[2, "decisions"] == 2 and t.loc[2, "cards"] == 40
    with pytest.raises(ValueError, match="first level must be -1"):
        inference_table(out, (0, 2))


def test_inference_quality_refuses_a_table_without_a_search_seat():
    from unospin_sim.studies.inference_quality import inference_quality

    rules = parse_rules("classic(players=2)")
    with pytest.raises(ValueError, match="no search seat"):
        inference_quality(rules, parse_bots("heuristic,random", 2), 5)
    with pytest.raises(ValueError, match="levels"):
        inference_quality(rules, parse_bots("search,random", 2), 5, levels=(4,))


@pytest.mark.slow
def test_each_level_of_infer_knows_more_of_the_hidden_hands():
    """40 rounds of 2-player classic, search against heuristic, seed 1: what the deals know
    (bits per hidden card over a uniform deal) grows with the knob level, 1 < 2 < 3, and
    stays below what there is to know; the truth is the same for every level (the same
    states)."""
    from unospin_sim.studies.inference_quality import inference_quality

    rules = parse_rules("classic(players=2)")
    out = inference_quality(
        rules, parse_bots("search(rollouts=16),heuristic", 2), 40, levels=(1, 2, 3), deals=32
    ).sum(axis=0)
    known = (out[:, Q_DEALT] - out[:, Q_UNIFORM]) / out[:, Q_CARDS]
    truth = (out[:, Q_TRUTH] - out[:, Q_UNIFORM]) / out[:, Q_CARDS]
    assert out[0, Q_DECISIONS] > 200 and np.ptp(truth) == 0
    assert known[0] < known[1] < known[2] < truth[0]


SOUNDNESS_CASES = [
    ("classic(players=2)", "search(rollouts=8),heuristic"),
    ("classic(players=4)", "search(rollouts=8),heuristic,random,heuristic"),
    ("spin2005(players=3)", "search(rollouts=8),heuristic,hoarder"),
    ("spin2025(players=4,stacking=true)", "search(rollouts=8),random,heuristic,heuristic"),
    ("spiderman(players=3)", "search(rollouts=8),heuristic,heuristic"),
    (
        "classic(players=4,seven_o=true,jump_in=true)",
        "search(rollouts=8),heuristic,random,heuristic",
    ),
    (
        "classic(players=3,draw_until_playable=true,force_play=true)",
        "search(rollouts=8),heuristic,heuristic",
    ),
    ("spin2025(players=4,partners=true)", "search(rollouts=8),heuristic,heuristic,heuristic"),
]


@pytest.mark.slow
@pytest.mark.parametrize("rules, bots", SOUNDNESS_CASES)
def test_the_inference_never_excludes_the_true_hands(rules, bots):
    """At every search decision of 40 rounds (seed 3), every other seat's true hand fits
    what each level of ``infer`` infers of it (its voids, the older voids, heuristic's last
    choice replayed on it): the inference proves only what is true, in every edition and
    under the house rules that move cards and hands."""
    from unospin_sim.engine.determinize import Q_MISFITS
    from unospin_sim.studies.inference_quality import inference_quality

    rs = parse_rules(rules)
    out = inference_quality(
        rs, parse_bots(bots, rs.players), 40, seed=3, levels=(1, 2, 3), deals=2
    ).sum(axis=0)
    assert out[0, Q_DECISIONS] > 100
    assert out[:, Q_MISFITS].tolist() == [0, 0, 0]


def test_restore_deal_starts_the_next_candidate_from_the_same_deal():
    """search deals once per rollout index and starts every other candidate from that deal
    (save_deal, restore_deal): after a rollout has changed the scratch state (here: cards
    moved, scalars, the discard pile and the stream overwritten), restore_deal gives back
    the state copy_determinized made, value for value, for every seat that may decide."""
    g = (
        Game("classic(players=4)", "search,random,heuristic,random")
        .give(0, "red 1", "blue 2", "wild")
        .give(1, "green 3", "yellow 4", "red 7")
        .give(2, "blue 5", "blue 6")
        .give(3, "yellow 9", "green 2", "red 3", "wild draw four")
        .top("red 5")
    )
    g.pile("green 5", "green 7", "yellow 5", "red 8", "yellow 8", "green 1", "red 4")
    g.st.hand[2, L.VOID] = _void(RED, face=5)
    sc = K.new_state(int(g.r[L.R_TURN_CAP]), L.SEARCH_WORK_ROWS)
    for p in range(4):
        n = unseen_pool(g.st, p, sc.log)
        assert n == 7 + sum(int(g.st.hand[q, L.HSIZE]) for q in range(4) if q != p)
        copy_determinized(g.st, sc, g.r, g.pts, p, 11 + p, sc.log, n, 3)
        save_deal(sc, sc.log, p)
        dealt = (sc.hand.copy(), sc.cards.copy(), sc.s.copy())
        sc.hand[:4, :] += 1  # what a rollout may change
        sc.cards[: L.MAX_CARDS + 40] = 3
        sc.s[:] = 9
        restore_deal(g.st, sc, sc.log, p)
        np.testing.assert_array_equal(sc.hand[:4], dealt[0][:4])
        np.testing.assert_array_equal(sc.s, dealt[2])
        assert sc.s[L.S_DRAW_N] == 7  # the pile keeps its size; every hand too
        np.testing.assert_array_equal(sc.hand[:4, L.HSIZE], g.st.hand[:4, L.HSIZE])
        np.testing.assert_array_equal(sc.hand[p], g.st.hand[p])  # its own hand, as it is
        k = int(sc.s[L.S_DRAW_N])
        np.testing.assert_array_equal(sc.cards[L.PILE : L.PILE + k], dealt[1][L.PILE : L.PILE + k])
        d = int(g.st.s[L.S_DISC_N])
        np.testing.assert_array_equal(
            sc.cards[L.DISC : L.DISC + d], g.st.cards[L.DISC : L.DISC + d]
        )


def _public_twin(hidden):
    """4 players, seat 0 to decide (its hand, the top card, the discards, every hand's size,
    seat 2's void and seat 3's last choice are public); ``hidden`` places the 12 cards seat 0
    cannot see: hands of 3, 2 and 4 cards for seats 1-3, then the draw pile (3 cards)."""
    g = Game("classic(players=4)", "search(rollouts=16),random,heuristic,heuristic")
    g.give(0, "red 1", "blue 2", "wild").top("red 5").discards("red 9", "blue 9")
    g.give(1, *hidden[:3]).give(2, *hidden[3:5]).give(3, *hidden[5:9]).pile(*hidden[9:])
    h = g.st.hand
    h[2, L.VOID] = _void(GREEN, face=4)
    h[3, L.LAST_PLAY] = KIND["red 5"] + 1  # seat 3 chose the red 5 on a red 9
    h[3, L.LAST_TOP] = KIND["red 9"]
    h[3, L.LAST_COLOUR] = RED
    h[3, L.LAST_HS] = 4
    h[3, L.LAST_BOT] = STRATEGY_HEURISTIC
    return g


_UNSEEN = [
    "green 3",
    "yellow 4",
    "red 7",
    "blue 5",
    "blue 6",
    "yellow 9",
    "green 2",
    "red 3",
    "wild draw four",
    "green 4",
    "red 8",
    "yellow 4",
]


@pytest.mark.parametrize("infer", [0, 1, 2, 3])
def test_the_deals_depend_on_public_facts_only(infer):
    """The unseen pool is the multiset of the cards seat 0 cannot see, in kind order: the
    same public state with the hidden cards placed otherwise (other hands, the pile in
    another order) gives the same pool and, seed for seed, the same deals, and search
    decides the same; every knob level of ``infer`` reads only public facts."""
    moved = [_UNSEEN[i] for i in (8, 11, 0, 10, 1, 2, 9, 3, 7, 5, 6, 4)]
    assert sorted(moved) == sorted(_UNSEEN) and moved != _UNSEEN
    a, b = _public_twin(_UNSEEN), _public_twin(moved)
    assert [a.size(q) for q in range(4)] == [b.size(q) for q in range(4)] == [3, 3, 2, 4]
    wa = K.new_state(int(a.r[L.R_TURN_CAP]), L.SEARCH_WORK_ROWS)
    wb = K.new_state(int(b.r[L.R_TURN_CAP]), L.SEARCH_WORK_ROWS)
    n = unseen_pool(a.st, 0, wa.log)
    assert n == unseen_pool(b.st, 0, wb.log) == 12
    pool = wa.log.reshape(-1)[4 * L.W_POOL : 4 * L.W_POOL + n]
    assert pool.tolist() == sorted(KIND[c] for c in _UNSEEN)  # kind order
    np.testing.assert_array_equal(pool, wb.log.reshape(-1)[4 * L.W_POOL : 4 * L.W_POOL + n])
    for seed in range(20):
        copy_determinized(a.st, wa, a.r, a.pts, 0, seed, wa.log, n, infer)
        copy_determinized(b.st, wb, b.r, b.pts, 0, seed, wb.log, n, infer)
        np.testing.assert_array_equal(wa.hand[:4], wb.hand[:4])
        np.testing.assert_array_equal(wa.cards[L.PILE : L.PILE + 3], wb.cards[L.PILE : L.PILE + 3])
        assert wa.s[L.S_RNG] == wb.s[L.S_RNG]
    for g in (a, b):
        g.bots[0, L.B_INFER] = infer
    moves = []
    for g, sc in ((a, wa), (b, wb)):
        K.decide(g.st, sc, g.r, g.deck, g.pts, g.cum, g.bots)
        moves.append((int(g.st.s[L.S_SEARCH_MOVE]), int(g.st.s[L.S_SEARCH_COLOUR])))
    assert moves[0] == moves[1]
