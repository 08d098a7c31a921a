"""The policy home (engine/policy/): one registry of strategy ids, every choice function
dispatching to each registered strategy's own module, no fallback to another strategy, and
no choice function changing the state (it may only draw from the game's random stream)."""

from __future__ import annotations

import numpy as np
import pytest
from statekit import Game, kinds

from unospin_sim import bots as bots_mod
from unospin_sim.bots import B_JUMP, B_STRATEGY, STRATEGIES, BotSpec, parse_bots
from unospin_sim.engine import layout as L
from unospin_sim.engine import policy
from unospin_sim.engine.encode import encode
from unospin_sim.engine.policy import aggressor as AG
from unospin_sim.engine.policy import colour_keeper as CK
from unospin_sim.engine.policy import decisions
from unospin_sim.engine.policy import greedy as G
from unospin_sim.engine.policy import heuristic as H
from unospin_sim.engine.policy import hoarder as HO
from unospin_sim.engine.policy import random_bot as R
from unospin_sim.engine.policy import search_bot as SE
from unospin_sim.engine.policy import spin_aware as SA
from unospin_sim.engine.policy import tuned as TU
from unospin_sim.errors import BotError
from unospin_sim.rules import parse_rules
from unospin_sim.rules.cards import KIND_FACE, WILD, WILD_COLOUR, WILD_DRAW_FOUR

_R, _CUM = None, None


def _rules_arrays():
    """Rule and wheel arrays of the spin2025 position (for choose_card)."""
    global _R, _CUM
    if _R is None:
        ki = encode(parse_rules("spin2025(players=4)"), parse_bots("random", 4))
        _R, _CUM = ki.rules, ki.wheel_cum
    return _R, _CUM


# the added strategies whose choice is heuristic's own function
_ADDED = ("greedy", "hoarder", "colour_keeper", "aggressor", "spin_aware", "search", "tuned")


def _card(mod, wd4_ok):
    """{call}: the module's choose_card on the spin2025 position's rule and wheel arrays."""
    return lambda st, pts, p: mod.choose_card(
        st, _rules_arrays()[0], pts, _rules_arrays()[1], p, wd4_ok
    )


def _like_h(f, **own):
    """{strategy: own call}: heuristic's function f for heuristic and every added strategy
    not given in ``own``."""
    d = {name: f for name in ("heuristic",) + _ADDED}
    d.update(own)
    return d


# policy function -> (call through the dispatch, {strategy: call of the strategy's own function})
# Each call takes (st, pts, bots, p) and returns a number.
CASES = {
    "choose_card": (
        lambda st, pts, b, p: policy.choose_card(
            st, _rules_arrays()[0], pts, _rules_arrays()[1], b, p, True
        ),
        {
            "random": lambda st, pts, p: R.choose_card(
                st, _rules_arrays()[0], pts, _rules_arrays()[1], p, True
            ),
            "heuristic": lambda st, pts, p: H.best_card(st, pts, p, True),
            "greedy": _card(G, True),
            "hoarder": lambda st, pts, p: HO.best_card(st, pts, p, True, True),
            "colour_keeper": _card(CK, True),
            "aggressor": _card(AG, True),
            "spin_aware": lambda st, pts, p: SA.choose_card(
                st,
                _rules_arrays()[0],
                pts,
                _rules_arrays()[1],
                _strategy_bots("spin_aware"),
                p,
                True,
            ),
            "search": _card(SE, True),
            "tuned": lambda st, pts, p: TU.choose_card(
                st, _rules_arrays()[0], pts, _rules_arrays()[1], _strategy_bots("tuned"), p, True
            ),
        },
    ),
    "choose_card_rl": (
        lambda st, pts, b, p: policy.choose_card_rl(st, pts, b, p),
        {
            "random": lambda st, pts, p: R.choose_card_rl(st, pts, p),
            "heuristic": lambda st, pts, p: H.best_card(st, pts, p, False),
            "greedy": _card(G, False),
            "hoarder": lambda st, pts, p: HO.best_card(st, pts, p, False, False),
            "colour_keeper": _card(CK, False),
            "aggressor": _card(AG, False),
            "spin_aware": lambda st, pts, p: H.best_card(st, pts, p, False),
            "search": lambda st, pts, p: H.best_card(st, pts, p, False),
            "tuned": lambda st, pts, p: TU.choose_card_rl(st, pts, _strategy_bots("tuned"), p),
        },
    ),
    "choose_colour": (
        lambda st, pts, b, p: policy.choose_colour(st, b, p),
        {
            "random": lambda st, pts, p: R.choose_colour(st, p),
            **_like_h(
                lambda st, pts, p: H.choose_colour(st, p),
                tuned=lambda st, pts, p: TU.choose_colour(st, _strategy_bots("tuned"), p),
                spin_aware=lambda st, pts, p: SA.choose_colour(st, _strategy_bots("spin_aware"), p),
            ),
        },
    ),
    "colour_to_discard": (
        lambda st, pts, b, p: policy.colour_to_discard(st, pts, b, p),
        {
            "random": lambda st, pts, p: R.held_colour(st, p),
            **_like_h(
                lambda st, pts, p: H.held_colour(st, pts, p),
                colour_keeper=lambda st, pts, p: CK.best_colour(st, p),
            ),
        },
    ),
    "colour_to_draw": (
        lambda st, pts, b, p: policy.colour_to_draw(st, b, p),
        {
            "random": lambda st, pts, p: R.held_colour(st, p),
            **_like_h(lambda st, pts, p: H.colour_to_draw(st, p)),
        },
    ),
    "number_to_discard": (
        lambda st, pts, b, p: policy.number_to_discard(st, b, p),
        {
            "random": lambda st, pts, p: R.number_to_discard(st, p),
            **_like_h(lambda st, pts, p: H.number_to_discard(st, p)),
        },
    ),
    "race_discard": (
        lambda st, pts, b, p: policy.race_discard(st, pts, b, p),
        {
            "random": lambda st, pts, p: R.race_discard(st, pts, p),
            **_like_h(
                lambda st, pts, p: H.race_discard(st, pts, p),
                greedy=lambda st, pts, p: G.race_discard(st, pts, p),
                hoarder=lambda st, pts, p: HO.race_discard(st, pts, p),
                colour_keeper=lambda st, pts, p: CK.race_discard(st, pts, p),
            ),
        },
    ),
    "draw_two_to_stack": (
        lambda st, pts, b, p: policy.draw_two_to_stack(st, b, p, 2),
        {
            "random": lambda st, pts, p: R.draw_two_to_stack(st, p, 2),
            **_like_h(lambda st, pts, p: H.draw_two_to_stack(st, p, 2)),
        },
    ),
    "swap_target": (
        lambda st, pts, b, p: policy.swap_target(st, b, p),
        {
            "random": lambda st, pts, p: R.swap_target(st, p),
            **_like_h(lambda st, pts, p: H.swap_target(st, p)),
        },
    ),
    "web_swing_target": (
        lambda st, pts, b, p: policy.web_swing_target(st, b, p, 1, 2, 4),
        {
            "random": lambda st, pts, p: R.web_swing_target(st, p, 1, 2, 4),
            **_like_h(lambda st, pts, p: H.web_swing_target(st, p, 1, 2, 4)),
        },
    ),
    "rl_action": (
        lambda st, pts, b, p: policy.rl_action(st, b, p, 5),
        {"random": lambda st, pts, p: R.rl_action(st, p, 5), **_like_h(lambda st, pts, p: -1)},
    ),
}


def _position():
    """Seat 0 to choose: a hand with two Draw Twos, several colours and numbers, a wild and
    a Wild Draw Four; of the others, seats 1 and 3 hold yellow (colour 1), seat 2 does not."""
    g = Game("spin2025(players=4)", "random", seed=7)
    g.give(
        0,
        "red 5",
        "red draw two",
        "blue draw two",
        "yellow 7",
        "yellow 7",
        "blue 9",
        "wild",
        "wild draw four",
        "red 3",
    )
    g.give(1, "yellow 1", "green 2", "blue 3")
    g.give(2, "red 9")
    g.give(3, "yellow 4", "yellow 6")
    g.top("red 2")
    return g


def _strategy_bots(name, players=4):
    return encode(parse_rules(f"spin2025(players={players})"), parse_bots(name, players)).bots


def _snapshot(st):
    s = st.s.copy()
    s[L.S_RNG] = 0
    return st.hand.copy(), st.cards.copy(), s


def test_registry_is_the_one_source_of_ids():
    assert bots_mod.STRATEGY_RANDOM == STRATEGIES.index("random")
    assert bots_mod.STRATEGY_HEURISTIC == STRATEGIES.index("heuristic")
    assert not hasattr(L, "STRATEGY_RANDOM") and not hasattr(L, "STRATEGY_HEURISTIC")
    assert set(policy.IMPLEMENTED) == set(STRATEGIES)


@pytest.mark.parametrize("name", sorted(CASES))
@pytest.mark.parametrize("strategy", policy.IMPLEMENTED)
def test_dispatch_reaches_the_strategy_and_changes_nothing(name, strategy):
    """The dispatch gives exactly the strategy's own answer from the same random stream,
    and leaves hands, cards and scalars (but the stream) as they were."""
    dispatch, own = CASES[name]
    g = _position()
    b = _strategy_bots(strategy)
    for seed in range(1, 6):
        g.st.s[L.S_RNG] = seed
        before = _snapshot(g.st)
        got = dispatch(g.st, g.pts, b, 0)
        after = _snapshot(g.st)
        for x, y in zip(before, after):
            np.testing.assert_array_equal(x, y)
        g.st.s[L.S_RNG] = seed
        assert got == own[strategy](g.st, g.pts, 0)


@pytest.mark.parametrize("name", sorted(CASES))
def test_unknown_id_never_falls_back_to_a_strategy(name):
    """A strategy id with no branch gets the sentinel -1, not another strategy's move."""
    dispatch, _ = CASES[name]
    g = _position()
    b = _strategy_bots("random")
    b[:, B_STRATEGY] = len(STRATEGIES) + 3
    g.st.s[L.S_RNG] = 1
    rng = int(g.st.s[L.S_RNG])
    assert dispatch(g.st, g.pts, b, 0) == -1
    assert int(g.st.s[L.S_RNG]) == rng  # and no random number was drawn for it


@pytest.mark.parametrize("keep", [2, 3])
def test_almost_uno_keep_only_reorders_the_scratch_list(keep):
    """Almost UNO keeps 2; a wheel program's discard down to 3 keeps a third card (after the
    two wilds: the strategies that keep wilds keep both, greedy its three cheapest)."""
    g = _position()
    n = int(g.st.hand[0, L.HSIZE])
    for strategy in policy.IMPLEMENTED:
        b = _strategy_bots(strategy)
        listed = [k for k in range(L.N_KINDS) for _ in range(int(g.st.hand[0, k]))]
        g.st.cards[L.TMP : L.TMP + n] = listed
        hand = g.st.hand.copy()
        policy.almost_uno_keep(g.st, g.pts, b, 0, n, keep)
        assert sorted(g.st.cards[L.TMP : L.TMP + n].tolist()) == sorted(listed)
        np.testing.assert_array_equal(g.st.hand, hand)
        kept = g.st.cards[L.TMP + n - keep : L.TMP + n].tolist()
        if keep == 3:
            kept = sorted(kept)
            if strategy == "greedy":
                cheap = sorted(listed, key=lambda k: (int(g.pts[k]), k))[:3]
                assert sorted(int(g.pts[k]) for k in kept) == sorted(int(g.pts[k]) for k in cheap)
            elif strategy != "random":
                assert WILD in kept and WILD_DRAW_FOUR in kept
            continue
        if strategy in (
            "heuristic",
            "hoarder",
            "aggressor",
            "spin_aware",
            "colour_keeper",
            "tuned",
        ):  # keep their wilds
            assert sorted(kept) == [WILD, WILD_DRAW_FOUR]
        if strategy == "greedy":  # keeps its two cheapest cards: red 3 and red 5
            assert sorted(kept) == sorted(kinds("red 3", "red 5"))


def test_encode_refuses_a_strategy_without_implementation(monkeypatch):
    """A name added to the registry but not to the policy home is an error at encode time,
    never a silent fallback."""
    monkeypatch.setattr(bots_mod, "STRATEGIES", STRATEGIES + ("newbie",))
    specs = (BotSpec("newbie"),) * 2
    with pytest.raises(BotError, match="'newbie' has no implementation in engine/policy"):
        encode(parse_rules("classic(players=2)"), specs)


@pytest.mark.parametrize("strategy", policy.IMPLEMENTED)
def test_jumps_in_dispatch(strategy):
    """jump_in: every strategy's own answer, then the knob; an unknown id never jumps."""
    g = _position()
    g.give(2, "red 5")
    g.st.s[L.S_CUR] = 1
    own = R.jumps_in if strategy == "random" else H.jumps_in
    b = _strategy_bots(strategy)
    before = _snapshot(g.st)
    assert _is_bool(policy.jumps_in(g.st, b, 2, 0), True) and _is_bool(own(g.st, 2, 0), True)
    for x, y in zip(before, _snapshot(g.st)):
        np.testing.assert_array_equal(x, y)
    b[:, B_JUMP] = 0.0
    assert _is_bool(policy.jumps_in(g.st, b, 2, 0), False)
    b[:, B_JUMP] = 1.0
    b[:, B_STRATEGY] = len(STRATEGIES) + 3
    assert _is_bool(policy.jumps_in(g.st, b, 2, 0), False)


def _is_bool(x, value):
    """x is the boolean ``value``: a bool compiled, a NumPy bool when the engine runs as plain
    Python (NUMBA_DISABLE_JIT=1, as tests/test_mutants.py runs it)."""
    return isinstance(x, (bool, np.bool_)) and bool(x) is value


# ==================================================================== one file per strategy
@pytest.mark.parametrize("strategy", policy.IMPLEMENTED)
def test_every_strategy_module_answers_every_question(strategy):
    """Each strategy module exports one function per question of decisions.DECISIONS, with
    the question's parameters (its own or an alias of another module's), and a number per
    fact of decisions.FACTS."""
    import importlib
    import inspect

    mod = importlib.import_module(
        "unospin_sim.engine.policy." + decisions.STRATEGY_MODULES[strategy][0]
    )
    for d in decisions.DECISIONS:
        fn = getattr(mod, d.name, None)
        assert fn is not None, f"{mod.__name__} exports no {d.name}"
        params = list(inspect.signature(getattr(fn, "py_func", fn)).parameters)  # plain under
        # NUMBA_DISABLE_JIT=1 (tests/test_mutants.py); ``bots`` before the seat when the
        # strategy reads its knobs (decisions.takes_bots)
        want = d.question_params if decisions.takes_bots(fn) else d.params
        assert params == want.split(", "), (mod.__name__, d.name, params)
    for fact in decisions.FACTS:
        assert isinstance(getattr(mod, fact, None), int), f"{mod.__name__} declares no {fact}"


def test_the_generated_dispatch_is_what_the_exports_say():
    """engine/policy/dispatch.py is generated from the exports (``python -m
    unospin_sim.engine.policy``); a strategy export changed without regenerating fails here."""
    assert decisions.DISPATCH_FILE.read_text() == decisions.render()
    assert decisions.main(["--check"]) == 0


def test_strategies_sharing_a_function_share_one_branch():
    """The dispatch groups by function: six strategies deferring to heuristic's colour for a
    discard are one branch calling heuristic's function, colour_keeper its own."""
    src = decisions.DISPATCH_FILE.read_text()
    body = src[src.index("def colour_to_discard(") : src.index("def colour_to_draw(")]
    assert body.count("H.held_colour(st, pts, p)") == 1  # one call for the six
    assert "CK.colour_to_discard(st, pts, p)" in body
    assert "return -1" in body


@pytest.mark.parametrize("strategy", policy.IMPLEMENTED)
def test_a_draw_marks_the_void_the_strategy_declares(strategy):
    """What a draw shows (layout.VOID bits, turn.mark_void from policy.DRAW_SHOWS), red
    (colour 0) in play under a red 2: no red, no 2 and no wild for a strategy that draws only
    for want of a legal card; hoarder, which may keep a legal wild and draw, no red and no 2;
    search, which may draw by choice, nothing. Under a wild on top only the colour bit (and
    the wild bit). An id with no strategy marks nothing."""
    from unospin_sim.engine.turn import mark_void

    g = _position()
    b = _strategy_bots(strategy)
    red, two = 0, KIND_FACE[kinds("red 2")[0]]
    want = {"hoarder": (1 << red) | (1 << (L.VOID_FACE + two)), "search": 0}.get(
        strategy, (1 << red) | (1 << (L.VOID_FACE + two)) | (1 << WILD_COLOUR)
    )
    hand, cards, s = _snapshot(g.st)
    mark_void(g.st, b, 0, red)
    assert int(g.st.hand[0, L.VOID]) == want
    hand[0, L.VOID] = want  # and nothing else changed
    for x, y in zip((hand, cards, s), _snapshot(g.st)):
        np.testing.assert_array_equal(x, y)
    g.st.s[L.S_TOP] = WILD
    g.st.hand[:, L.VOID] = 0
    mark_void(g.st, b, 0, 2)
    assert int(g.st.hand[0, L.VOID]) == {"hoarder": 1 << 2, "search": 0}.get(
        strategy, (1 << 2) | (1 << WILD_COLOUR)
    )
    g.st.hand[:, L.VOID] = 0
    b[:, B_STRATEGY] = len(STRATEGIES) + 3
    mark_void(g.st, b, 0, 2)
    assert int(g.st.hand[0, L.VOID]) == 0
