"""Property tests (hypothesis): random rule sets, bots and seeds.

* every invariant the kernel checks holds (``simulate(..., check=True)``), and the round and
  spin tables agree with each other and with the rules;
* every round ends with a winner or is recorded unfinished exactly at the turn cap;
* rule strings and bot strings round-trip and their canonical forms are stable;
* results do not depend on the number of threads or the chunk size.

The strategies are driven by the edition data (``EDITIONS``), so a new option of a known
kind (a boolean, or an integer range in ``INT_OPTIONS``) is covered without editing them.
Game counts stay small (<= 300) and turn caps modest: the whole file runs in well under
40 s once numba's cache is warm.
"""

from __future__ import annotations

import math
import re
from dataclasses import replace

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from unospin_sim.bots import (
    DEFAULTS,
    KNOBS,
    SKILL_KNOBS,
    STRATEGIES,
    TUNED_WEIGHTS,
    BotSpec,
    bots_string,
    parse_bots,
    saved_bot_string,
)
from unospin_sim.errors import RuleError
from unospin_sim.rules import EDITIONS, HOUSE_RULES, RuleSet, parse_rules
from unospin_sim.rules.ruleset import RLCARD_FIXED
from unospin_sim.run import Execution, simulate

EDITION_NAMES = tuple(EDITIONS)
#: integer options and the values worth drawing (turn caps kept small so rounds hit them)
INT_OPTIONS = {
    "turn_cap": st.one_of(st.integers(1, 40), st.integers(41, 600), st.just(2000)),
    "wild_spin_cards": st.integers(0, 4),
    "spin_cards": st.integers(0, 9),
    "draw_two_draws": st.integers(1, 10),
    "wd4_draws": st.integers(1, 20),
    "uno_penalty": st.integers(0, 10),
    "hand_size": st.integers(1, 20),
    "skip_cards": st.integers(0, 4),
    "reverse_cards": st.integers(0, 4),
    "draw_two_cards": st.integers(0, 4),
    "wild_cards": st.integers(0, 8),
    "wd4_cards": st.integers(0, 8),
}
#: options taking one of a few names
ENUM_OPTIONS = {
    "special_wilds": ("none", "swap_hands", "shuffle_hands"),
    "stacked_wd4": ("checked", "free"),
}
#: options never drawn, and why: the tables checked here are a single round's
NOT_DRAWN = {
    "match": "match mode: tests/test_matches.py and the match cross-check",
    "target": "a match option: tests/test_matches.py",
}
#: (rule set options, bot knobs) that may not be combined: the conflicting knob is zeroed
RLCARD_ZERO_KNOBS = ("forget", "bluff", "challenge")

#: the turn cap of an example with a search seat (see games_cases)
SEARCH_TURN_CAP = 200

SIM = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])


# ------------------------------------------------------------------------------------------
# strategies


def weights():
    """A wheel weight: mostly small integers, sometimes an arbitrary non-negative float."""
    return st.one_of(
        st.integers(0, 4).map(float),
        st.floats(0.0, 1e6, allow_nan=False, allow_infinity=False),
        st.sampled_from([1e-300, 5e-324, 0.1, 1 / 3, 1e15]),
    )


@st.composite
def wheels(draw, edition: str) -> dict[str, float]:
    """A wheel for ``edition``: some spaces with weights, at least one of them positive."""
    spaces = EDITIONS[edition].wheel_spaces
    chosen = draw(st.lists(st.sampled_from(spaces), min_size=1, max_size=len(spaces), unique=True))
    wheel = {s: draw(weights()) for s in chosen}
    if not any(w > 0 for w in wheel.values()):
        wheel[chosen[0]] = draw(st.floats(1e-6, 100.0))
    return wheel


@st.composite
def rule_options(draw) -> tuple[str, dict]:
    """An edition and a dict of options valid for it (each option present or not)."""
    edition = draw(st.sampled_from(EDITION_NAMES))
    ed = EDITIONS[edition]
    options: dict = {"players": draw(st.integers(2, 10))}
    for name in ed.options:
        if name == "players" or not draw(st.booleans()):
            continue
        default = ed.defaults[name]
        if name == "wheel":
            options[name] = draw(wheels(edition))
        elif name == "points":  # some kinds' scores, the others at their defaults
            kinds = st.sampled_from(ed.point_kinds)
            options[name] = draw(st.dictionaries(kinds, st.integers(0, 1000), min_size=1))
        elif isinstance(default, bool):
            options[name] = draw(st.booleans())
        elif name in INT_OPTIONS:
            options[name] = draw(INT_OPTIONS[name])
        elif name in ENUM_OPTIONS:
            options[name] = draw(st.sampled_from(ENUM_OPTIONS[name]))
    if options.get("jump_in_wilds"):  # it says which cards jump_in may jump on
        options["jump_in"] = True
    if options.get("stacked_wd4") == "free":  # it says how a stacked Wild Draw Four is judged
        options["stacking"] = True
    if options.get("partners"):  # teams of two sitting opposite
        options["players"] = draw(st.sampled_from([4, 6, 8, 10]))
    # a deal every deck of the edition can serve (rules._check_deal): its 76 number cards
    # stay whatever the copies options, and only non-number cards are put back
    if "hand_size" in options:
        options["hand_size"] = min(options["hand_size"], 70 // options["players"])
    if options.get("rlcard"):
        options["wild_matches_colour"] = False  # RLCard's own Wild Draw Four rule
        for name in HOUSE_RULES + RLCARD_FIXED:  # RLCard's fixed rules: no house rules
            if name in options:
                options[name] = ed.defaults[name]
    return edition, options


def rule_sets():
    return rule_options().map(lambda eo: RuleSet.build(eo[0], **eo[1]))


def probabilities():
    return st.one_of(st.sampled_from([0.0, 0.5, 1.0]), st.floats(0.0, 1.0))


@st.composite
def bot_specs(draw) -> BotSpec:
    strategy = draw(st.sampled_from(STRATEGIES))
    knobs = {}
    for knob in KNOBS:
        if draw(st.booleans()):
            continue  # the default
        if knob == "reflex":
            knobs[knob] = draw(st.one_of(st.floats(1e-3, 1e3), st.sampled_from([1e-300, 1e300])))
        elif knob == "rollouts":  # search's own knob; few rollouts keep the examples fast
            if strategy == "search":
                knobs[knob] = float(draw(st.integers(1, 4)))
        elif knob in ("peek", "colours"):  # search's own knobs, 0 or 1
            if strategy == "search":
                knobs[knob] = float(draw(st.integers(0, 1)))
        elif knob == "infer":  # search's own knob, 0 to 3
            if strategy == "search":
                knobs[knob] = float(draw(st.integers(0, 3)))
        elif knob == "extend":  # search's own knob: how far a close decision runs on
            if strategy == "search":
                knobs[knob] = float(draw(st.integers(1, 3)))
        elif knob == "horizon":  # search's own knob: turns before a rollout is cut off
            if strategy == "search":
                knobs[knob] = float(draw(st.integers(0, 40)))
        elif knob in SKILL_KNOBS:  # spin_aware's own knobs, 0 or 1 (restricted play)
            if strategy == "spin_aware":
                knobs[knob] = float(draw(st.integers(0, 1)))
        elif knob in TUNED_WEIGHTS:  # tuned's own knobs: its weights
            if strategy == "tuned":
                knobs[knob] = draw(
                    st.one_of(st.sampled_from([-1000.0, 0.0, 1000.0]), st.floats(-1000.0, 1000.0))
                )
        else:
            knobs[knob] = draw(probabilities())
    if strategy == "search" and "rollouts" not in knobs:
        knobs["rollouts"] = 2.0  # the default 128 would make every example slow
    return BotSpec(strategy, **knobs)


@st.composite
def seat_bots(draw, rules: RuleSet) -> tuple[BotSpec, ...]:
    """One bot for every seat, or one per seat."""
    if draw(st.booleans()):
        specs = (draw(bot_specs()),) * rules.players
    else:
        specs = tuple(draw(bot_specs()) for _ in range(rules.players))
    if rules.option("rlcard", False):
        specs = tuple(
            BotSpec(
                s.strategy, **{k: (0.0 if k in RLCARD_ZERO_KNOBS else getattr(s, k)) for k in KNOBS}
            )
            for s in specs
        )
    if not rules.option("jump_in", False):  # knob jump is refused without jump_in
        specs = tuple(replace(s, jump=1.0) for s in specs)
    return specs


@st.composite
def games_cases(draw):
    rules = draw(rule_sets())
    bots = draw(seat_bots(rules))
    games = draw(st.integers(1, 300))
    if any(b.strategy == "search" for b in bots):
        # a search seat plays rollouts at every turn, and knobs can make rounds nearly
        # endless by the rules (10 players who always forget UNO while 9 others may catch
        # them: 3,500 turns a round on average, 15 of 230 at the cap of 10,000; with
        # check=True one such example took 45 s here and over 8 minutes in a CI run; rollouts
        # to the round's end, horizon=0, multiply it): few rounds, and a cap that bounds
        # every round and every rollout (measured worst case: 10 such seats, rollouts=4,
        # horizon=0, 25 rounds at a cap of 400: 24 s)
        games = min(games, 12)
        rules = rules.replace(turn_cap=min(rules.option("turn_cap"), SEARCH_TURN_CAP))
    seed = draw(st.one_of(st.integers(0, 1000), st.integers(0, 2**63 - 1)))
    return rules, bots, games, seed


# ------------------------------------------------------------------------------------------
# rule strings and bot strings


def _scramble(options: dict, draw) -> str:
    """A non-canonical spelling of ``options``: shuffled order, other value spellings,
    spaces, wheel given with ``=`` or ``:`` and braces."""
    items = []
    for name, value in options.items():
        if isinstance(value, bool):
            text = draw(
                st.sampled_from(
                    ["true", "True", "1", " TRUE "] if value else ["false", "False", "0"]
                )
            )
        elif isinstance(value, dict):
            sep = draw(st.sampled_from([":", "="]))
            text = "{" + ",".join(f"{s}{sep}{w!r}" for s, w in value.items()) + "}"
        elif isinstance(value, str):
            text = draw(st.sampled_from([value, f" {value} ", value.upper()]))
        else:
            text = draw(st.sampled_from([str(value), f" {value} ", f"+{value}", f"00{value}"]))
        items.append(f"{name}={text}")
    order = draw(st.permutations(items))
    return ",".join(order)


def test_every_option_is_drawn_or_excluded_with_a_reason():
    """A new rule option is drawn by rule_options() (a boolean, an INT_OPTIONS range, an
    ENUM_OPTIONS name, the wheel) or named in NOT_DRAWN; never silently left out."""
    from unospin_sim.rules.options import OPTIONS

    for opt in OPTIONS:
        drawn = (
            opt.type in ("bool", "wheel", "points")
            or opt.name == "players"
            or opt.name in INT_OPTIONS
            or opt.name in ENUM_OPTIONS
        )
        assert drawn != (opt.name in NOT_DRAWN), opt.name
        if opt.name in ENUM_OPTIONS:
            assert set(ENUM_OPTIONS[opt.name]) == set(opt.domain), opt.name
        if opt.name in INT_OPTIONS and opt.name != "turn_cap":
            lo, hi = opt.domain
            assert repr(INT_OPTIONS[opt.name]) == f"integers(min_value={lo}, max_value={hi})", (
                opt.name
            )  # the whole domain


@settings(max_examples=400, deadline=None)
@given(st.data())
def test_rule_strings_round_trip(data):
    edition, options = data.draw(rule_options())
    rs = RuleSet.build(edition, **options)
    text = str(rs)
    assert parse_rules(text) == rs
    assert str(parse_rules(text)) == text  # stable
    assert hash(parse_rules(text)) == hash(rs)
    assert "\n" not in text and " " not in text
    # every spelling of the same options parses to the same rule set
    other = f"{edition.upper()}({_scramble(options, data.draw)})"
    assert parse_rules(other) == rs
    assert str(parse_rules(other)) == text
    # the canonical string lists players and exactly the options that differ from defaults
    ed = EDITIONS[edition]
    listed = re.findall(r"[(,]([a-z_0-9]+)=", text)  # wheel entries are space:weight
    differ = [
        n
        for n in ed.options
        if n == "players"
        or rs.option(n)
        != (
            dict(zip(ed.wheel_spaces, ed.defaults[n]))
            if n == "wheel"
            else dict(zip(ed.point_kinds, ed.defaults[n]))
            if n == "points"
            else ed.defaults[n]
        )
    ]
    assert listed == differ


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_wheel_weights_round_trip_exactly(data):
    edition = data.draw(st.sampled_from([e for e in EDITION_NAMES if EDITIONS[e].wheel_spaces]))
    wheel = data.draw(wheels(edition))
    rs = RuleSet.build(edition, wheel=wheel)
    back = parse_rules(str(rs)).option("wheel")
    for space, w in rs.option("wheel").items():
        assert back[space] == w  # bit for bit, not approximately
        assert w == wheel.get(space, 0.0)


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_bot_strings_round_trip(data):
    players = data.draw(st.integers(2, 10))
    rules = RuleSet.build("classic", players=players)
    specs = data.draw(seat_bots(rules))
    text = bots_string(specs)
    assert parse_bots(text, players) == specs
    assert bots_string(parse_bots(text, players)) == text  # stable
    for spec in specs:
        assert parse_bots(str(spec), 1) == (spec,)
        assert parse_bots(str(spec), players) == (spec,) * players
        assert str(spec) == spec.strategy or str(spec).startswith(spec.strategy + "(")
        for knob in KNOBS:
            # a whole knob name ("attack=", not the end of "w_wild_attack=")
            written = re.search(rf"[(,]{knob}=", str(spec)) is not None
            assert written == (getattr(spec, knob) != DEFAULTS[knob])
    if len(set(specs)) == 1:  # one bot for every seat: the short form says the same
        assert parse_bots(str(specs[0]), players) == specs


# ------------------------------------------------------------------------------------------
# simulation invariants


def _check_tables(rules: RuleSet, games: int, res) -> None:
    rounds, spins = res.rounds, res.spins
    p = rules.players
    cap = rules.option("turn_cap")
    assert len(rounds) == games
    assert (rounds["game"].to_numpy() == np.arange(games)).all()
    # the kernel's own invariants (every card in one place, hand counts consistent)
    assert (rounds["invariant_failures"] == 0).all(), rounds.loc[
        rounds["invariant_failures"] != 0, ["game", "invariant_failures"]
    ]

    winner = rounds["winner"].to_numpy().astype(np.int64)
    turns = rounds["turns"].to_numpy()
    assert ((winner >= -1) & (winner < p)).all()
    assert ((rounds["first_player"] >= 0) & (rounds["first_player"] < p)).all()
    # every round ends with a winner, or is recorded unfinished exactly at the turn cap
    assert (turns <= cap).all()
    assert (turns[winner == -1] == cap).all()
    assert (turns[winner >= 0] >= 1).all()

    left = rounds[[f"cards_left_{i}" for i in range(p)]].to_numpy()
    points = rounds[[f"points_left_{i}" for i in range(p)]].to_numpy()
    drawn = rounds[[f"cards_drawn_{i}" for i in range(p)]].to_numpy()
    assert (left >= 0).all() and (points >= 0).all() and (drawn >= 0).all()
    won = winner >= 0
    assert (left[won, winner[won]] == 0).all()  # the winner's hand is empty
    assert (points[left == 0] == 0).all()
    assert (rounds["winner_points"].to_numpy()[won] == points[won].sum(axis=1)).all()
    assert (rounds["winner_points"].to_numpy()[~won] == 0).all()
    assert (rounds["cards_drawn"].to_numpy() == drawn.sum(axis=1)).all()
    assert (rounds["failed_draws"] >= 0).all()
    # cards are conserved: nobody holds more than the deck
    assert (left.sum(axis=1) <= rules.deck_size()).all()

    # spins: per-space counts add up, match the spin table, and zero-weight spaces never come up
    wheel = rules.wheel_spaces()
    per_space = (
        rounds[[f"spins_{s}" for s in wheel]].to_numpy()
        if wheel
        else np.zeros((games, 0), np.int64)
    )
    assert (rounds["spins"].to_numpy() == per_space.sum(axis=1)).all()
    assert len(spins) == int(rounds["spins"].sum())
    if not wheel:
        assert len(spins) == 0
        return
    assert list(spins["space"].cat.categories) == list(wheel)
    assert spins["space"].notna().all()
    weights = rules.option("wheel")
    landed = set(spins["space"].astype(str))
    assert all(weights[s] > 0 for s in landed), (landed, weights)
    counts = spins.groupby(["game", "space"], observed=False).size().unstack(fill_value=0)
    counts = counts.reindex(index=range(games), columns=list(wheel), fill_value=0)
    assert (counts.to_numpy() == per_space).all()
    assert ((spins["spinner"] >= 0) & (spins["spinner"] < p)).all()
    assert ((spins["turn"] >= 0) & (spins["turn"] <= cap)).all()
    assert (spins["hand_before"] >= 0).all() and (spins["hand_after"] >= 0).all()
    assert (spins["cards_drawn"] >= 0).all() and (spins["cards_discarded"] >= 0).all()
    assert spins["game"].is_monotonic_increasing


def _invariants_hold(case):
    rules, bots, games, seed = case
    res = simulate(rules, bots, games=games, seed=seed, check=True, execution=Execution(threads=1))
    _check_tables(rules, games, res)
    assert res.meta["rules"] == str(rules)
    assert res.meta["bots"] == [saved_bot_string(b) for b in bots]
    assert tuple(parse_bots(",".join(res.meta["bots"]), rules.players)) == tuple(bots)


@settings(SIM, max_examples=10)
@given(games_cases())
def test_invariants_hold(case):
    """Default tier: 10 random rule sets, bots and sizes (the slow tier runs 300)."""
    _invariants_hold(case)


@pytest.mark.slow
@settings(SIM, max_examples=300)
@given(games_cases())
def test_invariants_hold_full_size(case):
    _invariants_hold(case)


@pytest.mark.slow
@settings(SIM, max_examples=100)
@given(games_cases(), st.data())
def test_threads_and_chunks_do_not_change_results(case, data):
    rules, bots, games, seed = case
    chunk = data.draw(st.integers(1, max(1, games // 2)), label="chunk_size")
    a = simulate(
        rules, bots, games=games, seed=seed, execution=Execution(threads=1, chunk_size=games)
    )
    b = simulate(
        rules, bots, games=games, seed=seed, execution=Execution(threads=2, chunk_size=chunk)
    )
    pd.testing.assert_frame_equal(a.rounds, b.rounds)
    pd.testing.assert_frame_equal(a.spins, b.spins)


@pytest.mark.slow
@settings(SIM, max_examples=30)
@given(games_cases())
def test_check_mode_does_not_change_results(case):
    """The invariant checks only observe: the same games with and without them."""
    rules, bots, games, seed = case
    a = simulate(rules, bots, games=games, seed=seed, execution=Execution(threads=1))
    b = simulate(rules, bots, games=games, seed=seed, check=True, execution=Execution(threads=1))
    pd.testing.assert_frame_equal(a.rounds, b.rounds.drop(columns="invariant_failures"))
    pd.testing.assert_frame_equal(a.spins, b.spins)


# ------------------------------------------------------------------------------------------
# invalid values never slip through


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from(EDITION_NAMES),
    st.sampled_from(sorted(INT_OPTIONS) + ["players"]),
    st.one_of(st.integers(-(10**30), 10**30), st.floats(allow_nan=True), st.text(max_size=8)),
)
def test_bad_option_values_raise_rule_errors(edition, name, value):
    """Any value for an integer option either builds a rule set whose string round-trips or
    raises a one-line RuleError (never another exception)."""
    try:
        rs = RuleSet.build(edition, **{name: value})
    except RuleError as e:
        assert "\n" not in str(e) and str(e)
        return
    assert parse_rules(str(rs)) == rs
    assert name in EDITIONS[edition].options
    assert isinstance(rs.option(name), int) and not isinstance(rs.option(name), bool)


@pytest.mark.parametrize("edition", [e for e in EDITION_NAMES if EDITIONS[e].wheel_spaces])
def test_huge_wheel_weights_are_rejected(edition):
    """Weights whose sum overflows would make the wheel land on its last space only."""
    a, b = EDITIONS[edition].wheel_spaces[:2]
    with pytest.raises(RuleError, match="too large"):
        RuleSet.build(edition, wheel={a: 1e308, b: 1e308})
    assert math.isfinite(sum(RuleSet.build(edition, wheel={a: 1e308}).option("wheel").values()))


def test_huge_reflexes_are_rejected():
    """Reflexes whose sum overflows would hand every UNO Spin race to the last seat."""
    from unospin_sim.errors import BotError

    with pytest.raises(BotError, match="too large"):
        parse_bots("random(reflex=1e308)", 4)
    with pytest.raises(BotError, match="too large"):
        simulate("spin2005(players=2)", [BotSpec("random", reflex=1e308)] * 2, games=1)
    assert parse_bots("random(reflex=1e308)", 1) == (BotSpec("random", reflex=1e308),)
