"""Bot strings: parsing, canonical form, validation, the engine array."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from unospin_sim.bots import (
    B_BLUFF,
    B_CATCH,
    B_CHALLENGE,
    B_COLOURS,
    B_EXTEND,
    B_FORGET,
    B_HORIZON,
    B_INFER,
    B_JUMP,
    B_PEEK,
    B_REFLEX,
    B_ROLLOUTS,
    B_STRATEGY,
    B_W_NAME_VOID,
    B_W_POINTS,
    DEFAULTS,
    KNOBS,
    STRATEGIES,
    TUNED_WEIGHTS,
    BotSpec,
    bots_array,
    bots_string,
    knob_names,
    parse_bots,
)
from unospin_sim.errors import BotError, UserError


def test_defaults():
    for name in STRATEGIES:
        spec = BotSpec(name)
        assert (spec.forget, spec.catch, spec.bluff, spec.challenge, spec.reflex) == (
            0.0,
            0.5,
            0.0,
            0.0,
            1.0,
        )
        assert str(spec) == name
    assert STRATEGIES.index("random") == 0 and STRATEGIES.index("heuristic") == 1


def test_one_name_for_every_seat():
    specs = parse_bots("random", 4)
    assert specs == (BotSpec("random"),) * 4


def test_one_per_seat():
    specs = parse_bots("random, heuristic(forget=0.1, catch=0.7),heuristic,random(reflex=2)", 4)
    assert [s.strategy for s in specs] == ["random", "heuristic", "heuristic", "random"]
    assert specs[1] == BotSpec("heuristic", forget=0.1, catch=0.7)
    assert specs[3].reflex == 2.0


def test_canonical_string():
    spec = BotSpec("heuristic", forget=0.1, catch=0.5, bluff=0.25)
    assert str(spec) == "heuristic(forget=0.1,bluff=0.25)"
    specs = parse_bots("heuristic(catch=0.9),random,random", 3)
    text = bots_string(specs)
    assert text == "heuristic(catch=0.9),random,random"
    assert parse_bots(text, 3) == specs


def test_random_takes_every_knob():
    spec = parse_bots("random(forget=0.5,bluff=0.2,challenge=0.3)", 2)[0]
    assert (spec.strategy, spec.forget, spec.bluff, spec.challenge) == ("random", 0.5, 0.2, 0.3)
    assert str(spec) == "random(forget=0.5,bluff=0.2,challenge=0.3)"


def test_knob_value_forms():
    assert parse_bots("heuristic(forget=1e-3)", 2)[0].forget == 0.001
    assert parse_bots("HEURISTIC(Forget=1)", 2)[0].forget == 1.0
    assert parse_bots("heuristic()", 2)[0] == BotSpec("heuristic")


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(["heuristic"]),
            st.floats(0, 1),
            st.floats(0, 1),
            st.floats(0, 1),
            st.floats(0, 1),
            st.floats(1e-9, 1e9),
        ),
        min_size=2,
        max_size=10,
    )
)
def test_round_trip_property(rows):
    specs = tuple(BotSpec(*row) for row in rows)
    assert parse_bots(bots_string(specs), len(specs)) == specs


def test_the_engines_codes_are_re_exported_and_name_every_knob():
    """The strategy ids, the columns and bots_array live in engine/bot_codes.py; bots.py
    re-exports them, and the columns hold the knobs bots.py knows, weights in order."""
    from unospin_sim import bots
    from unospin_sim.engine import bot_codes

    for name in bot_codes.__all__:
        assert getattr(bots, name) is getattr(bot_codes, name) and name in bots.__all__
    assert bots.N_BOT_COLUMNS == bot_codes.N_BOT_COLUMNS == 1 + len(bot_codes.COLUMN_KNOBS)
    assert sorted(bot_codes.COLUMN_KNOBS) == sorted(KNOBS)
    for i, knob in enumerate(bot_codes.COLUMN_KNOBS, start=1):
        assert getattr(bot_codes, "B_" + knob.upper()) == i, knob
    w = bot_codes.COLUMN_KNOBS.index("w_points")
    assert bot_codes.COLUMN_KNOBS[w : w + len(TUNED_WEIGHTS)] == tuple(TUNED_WEIGHTS)


def test_bots_array():
    specs = parse_bots("random,heuristic(forget=0.1,catch=0.2,bluff=0.3,challenge=0.4,reflex=5)", 2)
    a = bots_array(specs)
    assert a.dtype == np.float64 and a.shape == (2, 17 + len(TUNED_WEIGHTS))
    assert B_EXTEND == 12 + len(TUNED_WEIGHTS)  # search's knob extend, then spin_aware's skills
    assert (
        B_STRATEGY,
        B_FORGET,
        B_CATCH,
        B_BLUFF,
        B_CHALLENGE,
        B_REFLEX,
        B_JUMP,
        B_ROLLOUTS,
        B_PEEK,
        B_HORIZON,
        B_COLOURS,
        B_INFER,
    ) == tuple(range(12))
    weights = list(TUNED_WEIGHTS.values())  # tuned's weights, read by tuned only
    skills = [1, 1, 1, 1]  # spin_aware's name_colour, hold_wilds, attack, value_wheel
    np.testing.assert_array_equal(
        a[0], [0, 0, 0.5, 0, 0, 1, 1, 128, 0, 16, 1, 3] + weights + [2] + skills
    )
    np.testing.assert_array_equal(
        a[1], [1, 0.1, 0.2, 0.3, 0.4, 5, 1, 128, 0, 16, 1, 3] + weights + [2] + skills
    )
    s = bots_array(parse_bots("spin_aware(hold_wilds=0,value_wheel=0)", 1))
    assert list(s[0, -4:]) == [1, 0, 1, 0]
    assert str(parse_bots("spin_aware(attack=0)", 1)[0]) == "spin_aware(attack=0)"
    with pytest.raises(BotError, match="applies only to strategy 'spin_aware'"):
        parse_bots("heuristic(attack=0)", 1)
    with pytest.raises(BotError, match="'attack' must be 0 or 1"):
        parse_bots("spin_aware(attack=0.5)", 1)
    c = bots_array(parse_bots("search(extend=4)", 1))
    assert c[0, B_EXTEND] == 4 and str(parse_bots("search(extend=4)", 1)[0]) == "search(extend=4)"
    t = bots_array(parse_bots("tuned(w_points=-3,w_name_void=7)", 1))
    assert (
        t[0, B_W_POINTS] == -3 and t[0, B_W_NAME_VOID] == 7 and t[0, 0] == STRATEGIES.index("tuned")
    )
    c = bots_array(parse_bots("search(peek=1)", 1))
    assert c[0, B_PEEK] == 1 and str(parse_bots("search(peek=1)", 1)[0]) == "search(peek=1)"
    c = bots_array(parse_bots("search(infer=0)", 1))
    assert c[0, B_INFER] == 0 and str(parse_bots("search(infer=0)", 1)[0]) == "search(infer=0)"
    c = bots_array(parse_bots("search(colours=0)", 1))
    assert (
        c[0, B_COLOURS] == 0 and str(parse_bots("search(colours=0)", 1)[0]) == "search(colours=0)"
    )
    c = bots_array(parse_bots("search(horizon=0)", 1))
    assert (
        c[0, B_HORIZON] == 0 and str(parse_bots("search(horizon=0)", 1)[0]) == "search(horizon=0)"
    )
    b = bots_array(parse_bots("greedy(jump=0.25)", 1))
    assert (
        b[0, B_JUMP] == 0.25 and str(parse_bots("greedy(jump=0.25)", 1)[0]) == "greedy(jump=0.25)"
    )


def test_knob_names_match_fields():
    assert tuple(DEFAULTS) == KNOBS


def test_knob_names_reads_what_a_string_writes():
    """knob_names (runner.saved_bots) tells the knobs a string names, as written, from the
    defaults a parsed spec cannot tell apart; a string the parser would refuse gives None."""
    assert knob_names(" Search( Rollouts=8, horizon = 4 ,)") == (
        "search",
        ["rollouts", "horizon", ""],
        ["Rollouts=8", "horizon = 4", ""],
    )
    assert knob_names("random") == ("random", [], [])
    assert knob_names("search()") == ("search", [], [])
    assert knob_names("search(rollouts=8)(x)")[2] == ["rollouts=8)(x"]
    assert knob_names("random heuristic") is None
    assert knob_names("search(rollouts=8") is None


@pytest.mark.parametrize(
    "text,players,word",
    [
        ("nope", 4, "unknown bot strategy 'nope'"),
        ("random,nope,random,random", 4, "nope"),
        ("heuristic(foo=1)", 4, "unknown bot knob 'foo'"),
        ("heuristic(forget=1.5)", 4, "forget"),
        ("heuristic(catch=-0.1)", 4, "catch"),
        ("heuristic(bluff=nan)", 4, "bluff"),
        ("heuristic(challenge=2)", 4, "challenge"),
        ("heuristic(reflex=0)", 4, "reflex"),
        ("heuristic(reflex=-1)", 4, "reflex"),
        ("heuristic(reflex=inf)", 4, "reflex"),
        ("heuristic(forget=x)", 4, "must be a number"),
        ("heuristic(forget)", 4, "knob=value"),
        ("heuristic(forget=0.1,forget=0.2)", 4, "twice"),
        ("random,random", 4, "2 bots given for 4 players"),
        ("random,random,random", 2, "3 bots given for 2 players"),
        ("heuristic(forget=0.1", 4, "missing ')'"),
        ("heuristic)", 4, "unbalanced"),
        ("heuristic((forget=1))", 4, "nested"),
        ("random,,random", 3, "empty entry"),
        ("", 4, "empty bot string"),
        ("random heuristic", 2, "malformed bot"),
    ],
)
def test_bad_bot_strings(text, players, word):
    with pytest.raises(BotError) as info:
        parse_bots(text, players)
    msg = str(info.value)
    assert isinstance(info.value, UserError)
    assert "\n" not in msg and word in msg


def test_botspec_validates_directly():
    with pytest.raises(BotError, match="unknown bot strategy"):
        BotSpec("smart")
    with pytest.raises(BotError, match="must be a number"):
        BotSpec("heuristic", forget="0.1")
    with pytest.raises(BotError, match="must be a number"):
        BotSpec("heuristic", forget=True)


def test_botspec_frozen_and_hashable():
    spec = BotSpec("heuristic", forget=0.1)
    assert hash(spec) == hash(BotSpec("heuristic", forget=0.1))
    with pytest.raises(AttributeError):
        spec.forget = 0.2
