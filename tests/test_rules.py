"""Rule data and rule sets: decks, points, wheels, canonical strings, validation."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from unospin_sim.errors import RuleError, UserError
from unospin_sim.rules import (
    EDITIONS,
    NOT_IMPLEMENTED,
    OPTION_ORDER,
    RuleSet,
    cards,
    parse_rules,
    parse_wheel,
    spaces,
)

DECKS = {
    "classic": (108, 1240),
    "spin2005": (108, 1240),
    "spin2025": (112, 1440),
    "spiderman": (112, 1440),
}


def test_every_edition_is_checked():
    assert set(EDITIONS) == set(DECKS)


@pytest.mark.parametrize("edition", sorted(DECKS))
def test_deck_size_and_points(edition):
    rs = RuleSet.build(edition)
    counts, points = rs.deck_counts(), rs.points()
    assert counts.dtype == np.int64 and counts.shape == (cards.N_KINDS,)
    assert points.dtype == np.int64 and points.shape == (cards.N_KINDS,)
    size, total = DECKS[edition]
    assert counts.sum() == size == rs.deck_size()
    assert (counts * points).sum() == total
    assert (counts >= 0).all()


def test_deck_contents():
    classic = RuleSet.build("classic").deck_counts()
    spin = RuleSet.build("spin2005").deck_counts()
    for c in range(4):
        assert classic[cards.number_kind(c, 0)] == 1
        assert all(classic[cards.number_kind(c, n)] == 2 for n in range(1, 10))
        assert all(classic[cards.spin_kind(c, n)] == 0 for n in range(1, 6))
        # 2005: 0-5 once, 6-9 twice, Spin 1-5 once
        assert [spin[cards.number_kind(c, n)] for n in range(10)] == [1] * 6 + [2] * 4
        assert all(spin[cards.spin_kind(c, n)] == 1 for n in range(1, 6))
        for off in (cards.SKIP_OFFSET, cards.REVERSE_OFFSET, cards.DRAW_TWO_OFFSET):
            assert classic[c * cards.KINDS_PER_COLOUR + off] == 2
            assert spin[c * cards.KINDS_PER_COLOUR + off] == 2
    assert classic[cards.WILD] == classic[cards.WILD_DRAW_FOUR] == 4
    assert classic[cards.WILD_SPIN :].sum() == 0
    assert RuleSet.build("spin2025").deck_counts()[cards.WILD_SPIN] == 4
    assert RuleSet.build("spiderman").deck_counts()[cards.WILD_WEB_SWING] == 4


@pytest.mark.parametrize("n", range(5))
def test_wild_spin_cards_option(n):
    rs = RuleSet.build("spin2025", wild_spin_cards=n)
    assert rs.deck_counts()[cards.WILD_SPIN] == n
    assert rs.deck_size() == 108 + n


@pytest.mark.parametrize("edition", ["spin2005", "spin2025"])
@pytest.mark.parametrize("k", range(10))
def test_spin_cards_option(edition, k):
    """spin_cards=k: one copy of each of the numbers 1..k carries the Spin mark, no other
    card does (k < 5: Spin k+1..5 become plain numbers; k > 5: one of the two copies of
    6..k becomes a Spin card); the deck's size and its numbers do not change; k=5
    (default) is the listed deck."""
    base = RuleSet.build(edition).deck_counts()
    rs = RuleSet.build(edition, spin_cards=k)
    d = rs.deck_counts()
    assert rs.deck_size() == RuleSet.build(edition).deck_size()
    for c in range(4):
        for n in range(1, 10):
            assert d[cards.spin_kind(c, n)] == (1 if n <= k else 0)
            assert d[cards.number_kind(c, n)] == (1 if n <= k else 2)
            assert d[cards.spin_kind(c, n)] + d[cards.number_kind(c, n)] == 2
    assert d[: cards.FIRST_WILD][cards.KIND_SPINS[: cards.FIRST_WILD] == 1].sum() == 4 * k
    others = np.ones(cards.N_KINDS, bool)
    for c in range(4):
        for n in range(1, 10):
            others[[cards.spin_kind(c, n), cards.number_kind(c, n)]] = False
    assert (d[others] == base[others]).all()
    if k == 5:
        assert (d == base).all() and str(rs) == f"{edition}(players=4)"
    else:
        assert str(rs) == f"{edition}(players=4,spin_cards={k})"


def test_spin_cards_bad_values():
    with pytest.raises(RuleError, match="spin_cards"):
        RuleSet.build("classic", spin_cards=3)
    with pytest.raises(RuleError, match="spin_cards"):
        RuleSet.build("spin2025", spin_cards=10)
    with pytest.raises(RuleError, match="spin_cards"):
        RuleSet.build("spin2005", spin_cards=-1)


def test_points_table():
    pts = RuleSet.build("classic").points()
    assert pts[cards.number_kind(2, 7)] == 7
    assert pts[cards.spin_kind(1, 4)] == 4
    assert pts[cards.number_kind(0, 0)] == 0
    assert pts[cards.SKIP_OFFSET] == pts[cards.REVERSE_OFFSET] == pts[cards.DRAW_TWO_OFFSET] == 20
    assert pts[cards.WILD] == pts[cards.WILD_DRAW_FOUR] == pts[cards.WILD_SPIN] == 50
    assert pts[cards.WILD_WEB_SWING] == 50
    assert pts[cards.WILD_SWAP_HANDS] == pts[cards.WILD_SHUFFLE_HANDS] == 40


def test_arrays_are_fresh_copies():
    rs = RuleSet.build("classic")
    rs.deck_counts()[0] = 99
    rs.points()[0] = 99
    assert rs.deck_counts()[0] == 1 and rs.points()[0] == 0


def test_edition_data():
    assert RuleSet.build("classic").wheel_family == spaces.WHEEL_NONE
    assert RuleSet.build("spiderman").wheel_family == spaces.WHEEL_NONE
    assert RuleSet.build("spin2005").wheel_family == spaces.WHEEL_2005
    assert RuleSet.build("spin2025").wheel_family == spaces.WHEEL_2025
    assert RuleSet.build("spin2005").wheel_spaces() == spaces.SPACES_2005
    assert RuleSet.build("spin2025").wheel_spaces() == spaces.SPACES_2025
    assert RuleSet.build("classic").wheel_spaces() == ()
    assert RuleSet.build("classic").first_card == "action_effects"
    assert RuleSet.build("spin2005").first_card == "action_effects"
    assert RuleSet.build("spin2025").first_card == "numbers_only"
    assert RuleSet.build("spiderman").first_card == "numbers_only"


def test_defaults():
    assert RuleSet.build("classic").option("wild_matches_colour") is False
    for e in ("spin2005", "spin2025", "spiderman"):
        assert RuleSet.build(e).option("wild_matches_colour") is True
    assert RuleSet.build("spin2005").option("wild_stops_colour_draw") is True
    assert RuleSet.build("spin2025").option("wild_stops_colour_draw") is False
    for e in EDITIONS:
        rs = RuleSet.build(e)
        assert rs.players == 4 and rs.option("turn_cap") == 10000
        assert str(rs) == f"{e}(players=4)"


def test_option_for_other_edition():
    rs = RuleSet.build("classic")
    assert rs.option("wild_spin_cards", None) is None
    with pytest.raises(RuleError, match="not valid for classic"):
        rs.option("wild_spin_cards")


def test_wheel_weights_global_ids():
    rs = RuleSet.build("spin2025", wheel={"two_x": 2, "swap_hands": 1})
    w = rs.wheel_weights()
    assert w.dtype == np.float64 and w.shape == (spaces.N_SPACES,)
    expected = np.zeros(spaces.N_SPACES)
    expected[spaces.TWO_X], expected[spaces.SWAP_HANDS] = 2, 1
    np.testing.assert_array_equal(w, expected)
    default = RuleSet.build("spin2005").wheel_weights()
    assert default[:9].tolist() == [1.0] * 9 and default[9:].sum() == 0
    assert RuleSet.build("classic").wheel_weights().sum() == 0


def test_architecture_example():
    rs = RuleSet.build("spin2025", players=4, wheel={"two_x": 2, "swap_hands": 1})
    assert str(rs) == "spin2025(players=4,wheel={swap_hands:1,two_x:2})"
    assert parse_rules(str(rs)) == rs
    assert hash(parse_rules(str(rs))) == hash(rs)
    assert {rs: 1}[parse_rules(str(rs))] == 1


ROUND_TRIP = [
    ("classic", {}),
    ("classic", {"players": 2}),
    ("classic", {"players": 10, "turn_cap": 1}),
    ("classic", {"wild_matches_colour": True}),
    ("spiderman", {"players": 3, "wild_matches_colour": False}),
    ("spin2005", {"wild_stops_colour_draw": False}),
    ("spin2005", {"wheel": {"war": 3, "uno_spin": 0.5}}),
    ("spin2005", {"wheel": {"trade_hands": 1e-9, "almost_uno": 123456789}}),
    ("spin2005", {"wheel": {"show_hand": 0.1234567891}}),
    ("spin2025", {"wild_spin_cards": 0, "turn_cap": 500}),
    ("spin2025", {"wheel": {"two_x": 1}}),
    ("spin2025", {"wheel": {"two_x": 2, "swap_hands": 1, "color_discard": 0}}),
    ("spin2025", {"wheel": "two_x=2,swap_hands=1"}),
    (
        "spin2025",
        {
            "players": 7,
            "wild_matches_colour": False,
            "wild_stops_colour_draw": True,
            "wild_spin_cards": 2,
            "turn_cap": 99,
            "wheel": {"color_draw_red": 5},
        },
    ),
]


@pytest.mark.parametrize("edition,options", ROUND_TRIP)
def test_canonical_round_trip(edition, options):
    rs = RuleSet.build(edition, **options)
    text = str(rs)
    back = parse_rules(text)
    assert back == rs and hash(back) == hash(rs)
    assert str(back) == text
    assert text.startswith(f"{edition}(players=")
    assert " " not in text


def test_canonical_order_and_defaults_omitted():
    rs = RuleSet.build(
        "spin2025",
        wheel={"two_x": 1},
        wild_spin_cards=2,
        turn_cap=50,
        players=3,
        wild_matches_colour=True,
    )
    assert str(rs) == "spin2025(players=3,turn_cap=50,wild_spin_cards=2,wheel={two_x:1})"
    # the full default wheel, written out, is the default
    full = {s: 1 for s in spaces.SPACES_2025}
    assert RuleSet.build("spin2025", wheel=full) == RuleSet.build("spin2025")
    assert str(RuleSet.build("spin2025", wheel=full)) == "spin2025(players=4)"


def test_parse_lenient_forms():
    assert parse_rules("classic") == RuleSet.build("classic")
    assert parse_rules(" classic() ") == RuleSet.build("classic")
    assert parse_rules(
        "Spin2025( players = 3 , wheel = { two_x : 2 , swap_hands:1 } )"
    ) == RuleSet.build("spin2025", players=3, wheel={"two_x": 2, "swap_hands": 1})
    assert parse_rules("classic(wild_matches_colour=1)").option("wild_matches_colour") is True


def test_string_and_python_values_agree():
    assert RuleSet.build(
        "classic", players="3", turn_cap="7", wild_matches_colour="true"
    ) == RuleSet.build("classic", players=3, turn_cap=7, wild_matches_colour=True)


def test_replace():
    rs = RuleSet.build("spin2025", wheel={"two_x": 1})
    r2 = rs.replace(players=5)
    assert r2.players == 5 and r2.option("wheel") == rs.option("wheel")
    assert rs.players == 4


def test_frozen():
    rs = RuleSet.build("classic")
    with pytest.raises(AttributeError):
        rs.edition = "spin2025"


def test_parse_wheel():
    assert parse_wheel("two_x=2,swap_hands=1", "spin2025") == {"swap_hands": 1.0, "two_x": 2.0}
    assert parse_wheel("{war:1}", "spin2005") == {"war": 1.0}
    assert parse_wheel(" war = 0.5 , show_hand : 2 ", "spin2005") == {"show_hand": 2.0, "war": 0.5}


@st.composite
def rule_sets(draw):
    edition = draw(st.sampled_from(sorted(EDITIONS)))
    ed = EDITIONS[edition]
    opts = {"players": draw(st.integers(2, 10))}
    if draw(st.booleans()):
        opts["turn_cap"] = draw(st.integers(1, 10**6))
    for name in ("wild_matches_colour", "wild_stops_colour_draw"):
        if name in ed.defaults and draw(st.booleans()):
            opts[name] = draw(st.booleans())
    if "wild_spin_cards" in ed.defaults and draw(st.booleans()):
        opts["wild_spin_cards"] = draw(st.integers(0, 4))
    if ed.wheel_spaces and draw(st.booleans()):
        weights = draw(
            st.lists(
                st.one_of(
                    st.just(0.0),
                    st.integers(0, 100).map(float),
                    st.floats(1e-6, 1e6, allow_nan=False, allow_infinity=False),
                ),
                min_size=len(ed.wheel_spaces),
                max_size=len(ed.wheel_spaces),
            )
        )
        if not any(weights):
            weights[0] = 1.0
        opts["wheel"] = dict(zip(ed.wheel_spaces, weights))
    return RuleSet.build(edition, **opts)


@settings(max_examples=300, deadline=None)
@given(rule_sets())
def test_round_trip_property(rs):
    assert parse_rules(str(rs)) == rs
    assert str(parse_rules(str(rs))) == str(rs)


# --- validation: every error is a one-line UserError naming the problem --------------------

BAD_RULES = [
    ("nope", "unknown edition"),
    ("nope(players=4)", "classic, spin2005, spin2025, spiderman"),
    ("classic(players=11)", "players"),
    ("classic(players=1)", "players"),
    ("classic(players=four)", "players"),
    ("classic(players=4.5)", "players"),
    ("classic(turn_cap=0)", "turn_cap"),
    ("classic(foo=1)", "unknown rule option 'foo'"),
    ("classic(wild_spin_cards=2)", "not valid for classic"),
    ("classic(wild_stops_colour_draw=true)", "not valid for classic"),
    ("spiderman(wild_spin_cards=2)", "not valid for spiderman"),
    ("spin2005(wild_spin_cards=2)", "not valid for spin2005"),
    ("classic(wheel={war:1})", "no wheel"),
    ("spin2025(wild_spin_cards=5)", "wild_spin_cards"),
    ("spin2025(wild_matches_colour=maybe)", "true or false"),
    ("spin2025(wheel={war:1})", "spin2005 wheel"),
    ("spin2005(wheel={two_x:1})", "spin2025 wheel"),
    ("spin2025(wheel={nope:1})", "unknown wheel space 'nope'"),
    ("spin2025(wheel={two_x:-1})", "negative"),
    ("spin2025(wheel={two_x:0})", "all be zero"),
    ("spin2025(wheel={two_x:0,swap_hands:0})", "all be zero"),
    ("spin2025(wheel={two_x:abc})", "must be a number"),
    ("spin2025(wheel={two_x:inf})", "finite"),
    ("spin2025(wheel={two_x:nan})", "finite"),
    ("spin2025(wheel={two_x})", "needs a weight"),
    ("spin2025(wheel={two_x:1,two_x:2})", "twice"),
    ("spin2025(wheel={})", "empty wheel"),
    ("spin2025(wheel={two_x:1)", "malformed"),
    ("spin2025(players=4", "malformed"),
    ("spin2025(players=4))", "malformed"),
    ("spin2025(players)", "needs a value"),
    ("spin2025(players=)", "no value"),
    ("spin2025(,)", "malformed"),
    ("spin2025(players=4,players=3)", "twice"),
    ("spin2025(4=4)", "bad option name"),
    ("", "empty rule string"),
    ("   ", "empty rule string"),
    ("(players=4)", "no edition"),
    ("no\npe", "unknown edition"),
]


@pytest.mark.parametrize("text,word", BAD_RULES)
def test_bad_rule_strings(text, word):
    with pytest.raises(RuleError) as info:
        parse_rules(text)
    msg = str(info.value)
    assert isinstance(info.value, UserError) and isinstance(info.value, ValueError)
    assert "\n" not in msg and msg.strip()
    assert word in msg


@pytest.mark.parametrize("name", NOT_IMPLEMENTED)
def test_not_implemented_options(name):
    with pytest.raises(RuleError, match=f"^option '{name}' is not implemented yet$"):
        RuleSet.build("spin2025", **{name: "true"})
    with pytest.raises(RuleError, match="not implemented yet"):
        parse_rules(f"classic({name}=true)")


@pytest.mark.parametrize(
    "name",
    [
        "stacking",
        "jump_in",
        "seven_o",
        "partners",
        "draw_until_playable",
        "force_play",
        "special_wilds",
    ],
)
def test_rulings_house_rules_are_named(name):
    """Every house rule of RULINGS.md is either an option or rejected as not implemented."""
    implemented = name in OPTION_ORDER and any(name in ed.defaults for ed in EDITIONS.values())
    assert (name in NOT_IMPLEMENTED) != implemented


@pytest.mark.parametrize(
    "kwargs,word",
    [
        ({"wheel": {"two_x": True}}, "must be a number"),
        ({"wheel": 5}, "mapping"),
        ({"players": True}, "players"),
        ({"wild_matches_colour": 2}, "true or false"),
        ({"turn_cap": -3}, "turn_cap"),
    ],
)
def test_bad_python_values(kwargs, word):
    with pytest.raises(RuleError) as info:
        RuleSet.build("spin2025", **kwargs)
    assert word in str(info.value) and "\n" not in str(info.value)


@pytest.mark.parametrize(
    "text,edition,word",
    [
        ("war=1", "spin2025", "spin2005 wheel"),
        ("two_x=1", "classic", "no wheel"),
        ("two_x=1", "nope", "unknown edition"),
        ("two_x=-2", "spin2025", "negative"),
        ("two_x=0", "spin2025", "zero"),
        ("two_x=x", "spin2025", "number"),
        ("two_x", "spin2025", "needs a weight"),
        ("", "spin2025", "empty"),
        ("{two_x=1", "spin2025", "braces"),
        ("two_x=1,,", "spin2025", "malformed"),
        ("two x=1", "spin2025", "malformed"),
    ],
)
def test_bad_wheels(text, edition, word):
    with pytest.raises(RuleError) as info:
        parse_wheel(text, edition)
    assert word in str(info.value) and "\n" not in str(info.value)


def test_option_order_covers_edition_defaults():
    for ed in EDITIONS.values():
        assert set(ed.defaults) <= set(OPTION_ORDER)
        assert ed.options[0] == "players"


def test_readme_options_table_is_the_option_table():
    """The README's options table is generated from rules/options.py (options_markdown)."""
    from pathlib import Path

    from unospin_sim.rules.options import options_markdown

    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    assert options_markdown() in readme
    rows = [ln for ln in readme.splitlines() if ln.startswith("| `") and ln.count("|") == 7]
    assert [r.split("`")[1] for r in rows] == list(OPTION_ORDER)


def test_option_table_drives_editions_and_kernel_parameters():
    from unospin_sim.engine import layout as L
    from unospin_sim.rules.options import OPTIONS

    for o in OPTIONS:
        for name, ed in EDITIONS.items():
            assert (o.name in ed.defaults) == (name in o.editions), (o.name, name)
        if o.param is not None:
            assert 0 <= getattr(L, o.param) < L.N_RULE_PARAMS
    params = [o.param for o in OPTIONS if o.param]
    assert len(set(params)) == len(params)


def test_house_switch_is_derived_from_the_table():
    """R_HOUSE is 1 exactly when some house rule of the table is off its default."""
    from unospin_sim.bots import parse_bots
    from unospin_sim.engine import layout as L
    from unospin_sim.engine.encode import encode
    from unospin_sim.rules.options import OPTIONS

    for o in OPTIONS:
        for edition in o.editions:
            ed = EDITIONS[edition]
            if o.type == "bool":
                value = not ed.defaults[o.name]
            elif o.type == "enum":
                value = o.domain[1]
            else:
                continue
            if o.name == "target" or (o.name == "wild_matches_colour" and edition == "classic"):
                continue
            needs = {
                "stacked_wd4": {"stacking": True},  # its companion
                "jump_in_wilds": {"jump_in": True},
            }.get(o.name, {})
            rs = RuleSet.build(edition, **{o.name: value}, **needs)
            r = encode(rs, parse_bots("random", rs.players)).rules
            assert r[L.R_HOUSE] == int(o.house), (o.name, edition)


def test_target_needs_a_match_mode():
    with pytest.raises(RuleError, match="^target=300 cannot be combined with match=single"):
        parse_rules("classic(target=300)")
    rs = parse_rules("spin2005(players=4,match=race,target=300)")
    assert str(rs) == "spin2005(players=4,match=race,target=300)" and parse_rules(str(rs)) == rs


@pytest.mark.parametrize(
    "rules, matches, partners, teams",
    [
        ("classic(players=4)", False, False, None),
        ("classic(players=4,match=race)", True, False, None),
        ("spin2025(players=3,match=lowest)", True, False, None),
        ("classic(players=6,partners=true)", False, True, 3),
        ("spin2005(players=4,partners=true,match=race)", True, True, 2),
    ],
)
def test_match_mode_and_partners_are_asked_one_way(rules, matches, partners, teams):
    """RuleSet.plays_matches / .partners / .teams answer what the results schema, the runner
    and the CLI ask (results.is_match_mode and is_partners defer to them)."""
    from unospin_sim.results import is_match_mode, is_partners

    rs = parse_rules(rules)
    assert (rs.plays_matches, rs.partners, rs.teams) == (matches, partners, teams)
    assert is_match_mode(rs) is matches and is_partners(rs) is partners
