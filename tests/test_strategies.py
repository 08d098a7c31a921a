"""The added strategies (docs/BOTS.md): each one's characteristic decision on a hand-built
position, beside what ``heuristic`` does there; the invariants over whole rounds of every
strategy in every edition with every knob; results reproducible from the seed and
independent of the thread count."""

from __future__ import annotations

import numpy as np
import pytest
from statekit import KIND, Game

from unospin_sim import simulate
from unospin_sim.engine import kernel as K
from unospin_sim.engine import layout as L
from unospin_sim.engine import policy
from unospin_sim.run import Execution

ADDED = ("greedy", "hoarder", "colour_keeper", "aggressor", "spin_aware")


def card(g, p=0, wd4_ok=True):
    """Name of the card seat p's strategy chooses now (None: it draws)."""
    k = K.choose_card(g.st, g.r, g.pts, g.cum, g.bots, p, wd4_ok)
    return None if k < 0 else next(n for n, v in KIND.items() if v == k)


def played(g, p=0):
    return [
        next(n for n, v in KIND.items() if v == e[2])
        for e in g.events()
        if e[0] == L.EV_PLAY and e[1] == p
    ]


def test_added_strategies_keep_the_old_ids():
    from unospin_sim.bots import STRATEGIES

    assert STRATEGIES[:2] == ("random", "heuristic")
    assert set(ADDED) <= set(STRATEGIES) and set(policy.IMPLEMENTED) == set(STRATEGIES)


# ------------------------------------------------------------------------------- greedy
def test_greedy_sheds_the_most_points_wilds_included():
    def pos(bot):
        return (
            Game("classic(players=3)", bot)
            .give(0, "red 2", "red 9", "red skip", "wild")
            .give(1, "blue 1", "blue 3", "blue 4")
            .give(2, "blue 2", "blue 5", "blue 6")
            .top("red 5")
        )

    assert card(pos("greedy")) == "wild"  # 50 points
    assert card(pos("heuristic")) == "red skip"  # keeps the wild
    g = pos("greedy")
    g.st.hand[0, KIND["wild"]] -= 1
    g.st.hand[0, L.CC + 4] -= 1
    g.st.hand[0, L.HSIZE] -= 1
    assert card(g) == "red skip"  # 20 > 9 > 2


# ------------------------------------------------------------------------------- hoarder
def _hoard(rules="classic(players=3)", bot="hoarder", extra=()):
    g = (
        Game(rules, bot)
        .give(0, "wild", "wild draw four", "blue 3", "blue 4", "green 5", *extra)
        .give(1, "blue 1", "blue 2")
        .give(2, "green 2", "green 3")
        .top("red 2")
    )
    g.pile("yellow 9")
    return g


def test_hoarder_draws_instead_of_playing_a_wild_it_keeps():
    g = _hoard()
    assert card(g) is None  # legal wilds held, but it draws
    g.turn(0)
    assert played(g) == [] and g.size(0) == 6 and g.drawn(0) == 1
    assert g.st.hand[0, KIND["wild"]] == 1 and g.st.hand[0, KIND["wild draw four"]] == 1
    assert card(_hoard(bot="heuristic")) in ("wild", "wild draw four")  # heuristic plays one


def test_hoarder_plays_a_coloured_card_before_its_wilds():
    assert card(_hoard(extra=("red 1",))) == "red 1"


def test_hoarder_plays_its_wilds_when_its_hand_is_small_or_it_may_not_draw():
    g = (
        Game("classic(players=3)", "hoarder")
        .give(0, "wild", "wild draw four", "blue 3")
        .give(1, "blue 1")
        .give(2, "green 2")
        .top("red 2")
    )
    assert card(g) in ("wild", "wild draw four")  # 3 cards: the wilds are for going out
    g = _hoard()
    g.pile()  # nothing left to draw: plays a wild
    assert card(g) == "wild"
    g = _hoard(
        "classic(players=3,rlcard=true)"
    )  # RLCard offers the draw only when nothing is legal
    assert policy.choose_card_rl(g.st, g.pts, g.bots, 0) == KIND["wild"]


# ------------------------------------------------------------------------------- colour_keeper
def _keeper(bot, *extra):
    return (
        Game("classic(players=3)", bot)
        .give(0, "blue 3", "blue 8", "blue 9", "green 1", *extra)
        .give(1, "yellow 1", "yellow 5", "yellow 6")
        .give(2, "yellow 2", "yellow 7", "yellow 8")
        .top("red 3")
    )


def test_colour_keeper_switches_play_to_its_best_colour_by_face():
    assert card(_keeper("colour_keeper", "red 9")) == "blue 3"  # moves play to blue
    assert card(_keeper("heuristic", "red 9")) == "red 9"


def test_colour_keeper_switches_by_a_wild_naming_its_colour():
    def pos(bot):
        return (
            Game("classic(players=3)", bot)
            .give(0, "blue 8", "blue 9", "green 1", "wild", "red 9")
            .give(1, "yellow 1", "yellow 5", "yellow 6")
            .give(2, "yellow 2", "yellow 7", "yellow 8")
            .top("red 3")
        )

    g = pos("colour_keeper")
    assert card(g) == "wild"
    g.turn(0)
    assert played(g) == ["wild"] and g.colour == 3  # names blue
    assert card(pos("heuristic")) == "red 9"


def test_colour_keeper_stays_in_its_colour():
    g = (
        Game("classic(players=3)", "colour_keeper")
        .give(0, "blue 2", "blue 5", "green 9", "wild")
        .give(1, "yellow 1", "yellow 5", "yellow 6")
        .give(2, "yellow 2", "yellow 7", "yellow 8")
        .top("blue 9")
    )
    assert card(g) == "blue 5"  # heuristic: green 9 is worth more (9 + 2 > 5 + 4)
    g2 = (
        Game("classic(players=3)", "heuristic")
        .give(0, "blue 2", "blue 5", "green 9", "wild")
        .give(1, "yellow 1", "yellow 5", "yellow 6")
        .give(2, "yellow 2", "yellow 7", "yellow 8")
        .top("blue 9")
    )
    assert card(g2) == "green 9"


# ------------------------------------------------------------------------------- aggressor
def _attack(bot, next_cards):
    g = Game("classic(players=3)", bot).give(0, "red 9", "red skip", "red draw two", "green 4")
    g.give(1, *["yellow 1", "yellow 2", "yellow 3", "yellow 4", "yellow 5"][:next_cards])
    g.give(2, "blue 1", "blue 2", "blue 3", "blue 4", "blue 5").top("red 2")
    return g


def test_aggressor_aims_a_draw_two_at_a_next_player_low_on_cards():
    assert card(_attack("aggressor", 3)) == "red draw two"
    assert card(_attack("heuristic", 3)) == "red skip"
    assert card(_attack("aggressor", 5)) == card(_attack("heuristic", 5)) == "red skip"


def test_aggressor_prefers_a_wild_draw_four():
    g = Game("classic(players=3)", "aggressor").give(0, "wild draw four", "blue 2", "green 7")
    g.give(1, "yellow 1", "yellow 2").give(2, "blue 1", "blue 3", "blue 4").top("red 2")
    g.pile("green 1", "green 2", "green 3", "green 4", "green 5")
    assert card(g) == "wild draw four"
    g.turn(0)
    assert g.size(1) == 6 and g.cur == 2  # drew 4, passed over


# ------------------------------------------------------------------------------- spin_aware
def _spin25(bot, space):
    g = Game("spin2025(players=3)", bot, wheel_space=space)
    g.give(0, "red spin 1", "red 9", "red 8", "blue 7").give(1, "yellow 1", "yellow 2")
    g.give(2, "green 1", "green 2").top("red 4")
    g.pile("red 1", "blue 1", "blue 2", "green 3", "yellow 3", "yellow 4")
    return g


def test_spin_aware_2025_plays_its_spin_card_when_the_wheel_helps_it():
    # Color Discard only: the spinner (itself) sheds its 3 red cards
    assert card(_spin25("spin_aware", "color_discard")) == "red spin 1"
    # Color Draw red only: it would draw; it holds the Spin card
    assert card(_spin25("spin_aware", "color_draw_red")) == "red 9"
    assert card(_spin25("heuristic", "color_discard")) == "red 9"


def _spin05(bot, space, next_cards):
    g = Game("spin2005(players=3)", bot, wheel_space=space)
    g.give(0, "red spin 1", "red 9", "red 8", "blue 7")
    g.give(1, *["yellow %d" % i for i in range(next_cards)])
    g.give(2, *["green %d" % i for i in range(6)]).top("red 4")
    return g


def test_spin_aware_2005_makes_the_next_player_spin_when_it_hurts_them():
    # the NEXT player spins: Draw Red hurts them (and costs their turn): play the Spin card
    assert card(_spin05("spin_aware", "draw_red", 3)) == "red spin 1"
    # Almost UNO would leave the next player (7 cards) with two: hold it
    assert card(_spin05("spin_aware", "almost_uno", 7)) == "red 9"
    assert card(_spin05("heuristic", "draw_red", 3)) == "red 9"


def test_spin_aware_swaps_with_the_leader():
    g = Game("spin2025(players=4)", "spin_aware", wheel_space="swap_hands")
    g.give(0, "red spin 1", "red 9", "red 8", "blue 7", "blue 8")
    g.give(1, "yellow 1", "yellow 2", "yellow 3").give(2, "green 1")
    g.give(3, "blue 1", "blue 2").top("red 4")
    assert card(g) == "red spin 1"  # a swap gives it the 1-card hand
    g.turn(0)
    assert g.hand(0) == ["green 1"]


# ------------------------------------------------------------------------------- whole rounds
EDITIONS = ("classic", "spin2005", "spin2025", "spiderman")


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("strategy", ADDED)
def test_invariants_hold_for_every_strategy(edition, strategy):
    """Every card in exactly one place after every action, every knob set on one seat; every
    round finishes."""
    bots = f"{strategy},random,{strategy}(forget=0.3,catch=0.9,bluff=0.3,challenge=0.5),heuristic"
    res = simulate(
        f"{edition}(players=4)",
        bots,
        games=2000,
        seed=11,
        check=True,
        rotate_bots=True,
        execution=Execution(threads=1),
    )
    df = res.rounds
    assert int(df["invariant_failures"].sum()) == 0
    assert (df["winner"] >= 0).all()


@pytest.mark.parametrize(
    "rules",
    [
        "classic(players=3,stacking=true,seven_o=true,"
        "draw_until_playable=true,special_wilds=swap_hands)",
        "classic(players=2,rlcard=true)",
        "spin2025(players=3,stacking=true,seven_o=true)",
    ],
)
def test_invariants_hold_under_house_rules_and_rlcard(rules):
    players = int(rules.split("players=")[1].split(",")[0].rstrip(")"))
    bots = ",".join((ADDED * 2)[:players])
    for shift in range(len(ADDED)):
        bots = ",".join((ADDED * 3)[shift : shift + players])
        df = simulate(
            rules, bots, games=400, seed=shift, check=True, execution=Execution(threads=1)
        ).rounds
        assert int(df["invariant_failures"].sum()) == 0
        assert (df["winner"] >= 0).all()


def test_reproducible_and_independent_of_threads():
    bots = "greedy,hoarder,colour_keeper,aggressor"
    cols = ["winner", "turns", "winner_points", "cards_drawn", "spins"]
    a = simulate(
        "spin2005(players=4)", bots, games=3000, seed=5, execution=Execution(threads=1)
    ).rounds[cols]
    b = simulate(
        "spin2005(players=4)",
        bots,
        games=3000,
        seed=5,
        execution=Execution(threads=2, chunk_size=700),
    ).rounds[cols]
    np.testing.assert_array_equal(a.to_numpy(), b.to_numpy())
    c = simulate(
        "spin2025(players=3)",
        "spin_aware,aggressor,random",
        games=3000,
        seed=6,
        execution=Execution(threads=2),
    ).rounds[cols]
    d = simulate(
        "spin2025(players=3)",
        "spin_aware,aggressor,random",
        games=3000,
        seed=6,
        execution=Execution(threads=1, chunk_size=999),
    ).rounds[cols]
    np.testing.assert_array_equal(c.to_numpy(), d.to_numpy())


def _first_best(kinds, score):
    """The kind of best score among ``kinds`` (scan order), the first on ties; -1 when none."""
    best, best_score = -1, -1e18
    for k in kinds:
        sc = score(k)
        if sc > best_score:
            best, best_score = k, sc
    return best


def test_card_choices_are_the_first_best_in_nth_legal_order():
    """heuristic's and each added strategy's card is the legal kind of best score, the first
    on ties in legal.nth_legal's scan order (policy/scan.py: three straight sections with
    early exits, which must visit exactly those kinds in that order): checked against the
    scores of docs/BOTS.md over the quadratic count_legal + nth_legal loop, on random hands, tops,
    next players' hand sizes and wheels; and aggressor facing a next player with many cards
    plays exactly heuristic's card."""
    from unospin_sim.engine.legal import count_legal, nth_legal
    from unospin_sim.engine.policy import aggressor as AG
    from unospin_sim.engine.policy import colour_keeper as CK
    from unospin_sim.engine.policy import greedy as G
    from unospin_sim.engine.policy import heuristic as H
    from unospin_sim.engine.policy import hoarder as HO
    from unospin_sim.engine.policy import spin_aware as SA
    from unospin_sim.rules import spaces as sp
    from unospin_sim.rules.cards import (
        FACE_DRAW_TWO,
        FACE_REVERSE,
        FACE_SKIP,
        FIRST_WILD,
        KIND_COLOUR,
        KIND_FACE,
        KIND_SPINS,
        N_KINDS,
        WILD_DRAW_FOUR,
        WILD_SPIN,
    )

    rng = np.random.default_rng(4)
    editions = (
        "classic(players=3)",
        "spin2005(players=3)",
        "spin2025(players=3)",
        "spin2025(players=2)",
    )
    for trial in range(400):
        rules = editions[trial % len(editions)]
        g = Game(rules, "aggressor", seed=trial)
        st, pts = g.st, g.pts
        np_ = st.s[L.S_NP]
        deck = [k for k in range(N_KINDS) if k <= WILD_SPIN]
        for k in rng.choice(deck, size=int(rng.integers(1, 14))):
            g.st.hand[0, k] += 1
            g.st.hand[0, L.CC + KIND_COLOUR[k]] += 1
            g.st.hand[0, L.HSIZE] += 1
        g.give(1, *["yellow 1"] * int(rng.integers(1, 8)))
        if np_ > 2:
            g.give(2, *["blue 1"] * int(rng.integers(1, 8)))
        top = int(rng.choice(deck))
        st.s[L.S_TOP] = top
        st.s[L.S_COLOUR] = KIND_COLOUR[top] if top < FIRST_WILD else int(rng.integers(0, 4))
        wheel = int(g.r[L.R_WHEEL])
        nxt = 1  # S_DIR is +1
        hn = st.hand[nxt, L.HSIZE]
        next_small, threat, two = hn <= 2, hn <= AG.THREAT, np_ == 2
        b = CK.best_colour(st, 0)
        off = st.s[L.S_COLOUR] != b
        for wd4_ok in (True, False):
            ref = []
            for i in range(count_legal(st, 0, wd4_ok)):
                k = nth_legal(st, 0, i, wd4_ok)
                if k not in ref:
                    ref.append(k)

            def heur(k):
                return float(H.card_score(st, pts, 0, k, next_small))

            def aggr(k):
                f = KIND_FACE[k]
                if threat and k == WILD_DRAW_FOUR:
                    return 3000.0
                if threat and k < FIRST_WILD and f == FACE_DRAW_TWO:
                    return 2000.0 + pts[k]
                if threat and k < FIRST_WILD and (f == FACE_SKIP or (f == FACE_REVERSE and two)):
                    return 1000.0 + pts[k]
                return heur(k)

            def keeper(k):
                if k >= FIRST_WILD:
                    if k == WILD_DRAW_FOUR:
                        return 140.0 if off else -200.0
                    return 150.0 if off else -100.0
                if KIND_COLOUR[k] == b:
                    return 200.0 + pts[k]
                return pts[k] + 2.0 * st.hand[0, L.CC + KIND_COLOUR[k]]

            bonus = SA.spin_bonus(st, g.r, g.cum, wheel, 0, nxt) if wheel != sp.WHEEL_NONE else 0.0

            def spinner(k):
                sc = heur(k)
                if KIND_SPINS[k] and wheel != sp.WHEEL_NONE:
                    if k >= FIRST_WILD and not next_small:
                        sc = pts[k] + 0.0
                    sc += bonus
                return sc

            small = st.hand[0, L.HSIZE] <= HO.HOARD_UNTIL
            coloured = [k for k in ref if k < FIRST_WILD or small]

            def hoarder(k):
                if k >= FIRST_WILD:
                    return pts[k] + 0.0
                return pts[k] + 2.0 * st.hand[0, L.CC + KIND_COLOUR[k]]

            hoard = _first_best(coloured, hoarder)
            if hoard < 0:  # a kept wild (a plain one before a Wild Draw Four) when it may not draw
                wilds = [k for k in ref if k >= FIRST_WILD]
                plain = [k for k in wilds if k != WILD_DRAW_FOUR]
                hoard_no_draw = (plain or wilds or [-1])[0]
            else:
                hoard_no_draw = hoard

            assert H.best_card(st, pts, 0, wd4_ok) == _first_best(ref, heur)
            args = (st, g.r, pts, g.cum, 0, wd4_ok)
            assert G.choose_card(*args) == _first_best(ref, lambda k: pts[k])
            assert AG.choose_card(*args) == _first_best(ref, aggr)
            assert CK.choose_card(*args) == _first_best(ref, keeper)
            assert SA.choose_card(st, g.r, pts, g.cum, g.bots, 0, wd4_ok) == _first_best(
                ref, spinner
            )
            assert HO.best_card(st, pts, 0, wd4_ok, False) == hoard_no_draw
            if not threat:
                assert AG.choose_card(*args) == H.best_card(st, pts, 0, wd4_ok)


# ------------------------------------------------------- spin_aware's skills, denied one by one
def _near_uno(bot, next_cards):
    g = Game("classic(players=3)", bot).give(0, "wild", "red 9", "green 4")
    g.give(1, *["yellow %d" % i for i in range(next_cards)])
    g.give(2, "blue 1", "blue 3", "blue 4").top("red 2")
    return g


def test_spin_aware_attack_denied_ignores_a_next_player_near_uno():
    # the next player holds 2 cards: the full strategy spends its wild on them (250 points
    # of score against red 9's 11), the denied one keeps it as it does against 5 cards
    assert card(_near_uno("spin_aware", 2)) == "wild"
    assert card(_near_uno("spin_aware(attack=0)", 2)) == "red 9"
    assert card(_near_uno("spin_aware", 5)) == "red 9"


def test_spin_aware_hold_wilds_denied_plays_a_wild_for_its_points():
    g = Game("classic(players=3)", "spin_aware(hold_wilds=0)")
    g.give(0, "wild", "red 9", "green 7").give(1, *["yellow %d" % i for i in range(5)])
    g.give(2, "blue 1", "blue 3", "blue 4").top("red 2")
    assert card(g) == "wild"  # 50 points beat red 9's 9 + 2
    g2 = Game("classic(players=3)", "spin_aware")
    g2.give(0, "wild", "red 9", "green 7").give(1, *["yellow %d" % i for i in range(5)])
    g2.give(2, "blue 1", "blue 3", "blue 4").top("red 2")
    assert card(g2) == "red 9"  # the wild is held back


def test_spin_aware_value_wheel_denied_plays_as_heuristic_on_the_wheel():
    assert card(_spin25("spin_aware(value_wheel=0)", "color_discard")) == "red 9"
    assert card(_spin05("spin_aware(value_wheel=0)", "draw_red", 3)) == "red 9"


def test_spin_aware_name_colour_denied_names_a_colour_at_random():
    named = set()
    for seed in range(40):
        g = Game("classic(players=2)", "spin_aware(name_colour=0)", seed=seed)
        g.give(0, "wild", "red 1", "red 2", "red 3").give(1, "blue 1", "blue 2").top("green 5")
        g.turn(0)
        named.add(g.colour)
        if seed == 0:
            g0 = Game("classic(players=2)", "spin_aware", seed=seed)
            g0.give(0, "wild", "red 1", "red 2", "red 3").give(1, "blue 1", "blue 2")
            g0.top("green 5").turn(0)
            assert g0.colour == 0  # red, the colour it holds most of
    assert named == {0, 1, 2, 3}  # 40 draws: each colour missed with chance (3/4)^40
