"""The drawn wheel: whole segments from weights, the slot layout (each space's segments spread
evenly, the same every time), the spaces' words from the rule data, the picture (SVG with every
label as text, a PNG) and ``wheel --draw`` on the command line."""

from __future__ import annotations

import random
import re
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import pytest

from unospin_sim.cli import main
from unospin_sim.errors import RuleError
from unospin_sim.plots import MAX_SEGMENTS, format_slots, plot_wheel, wheel_segments, wheel_slots
from unospin_sim.rules import EDITIONS, SPACES, RuleSet, parse_rules
from unospin_sim.rules.editions import MAX_EFFECT_CHARS

#: the wheel `design` recommended in issue 49 (18 segments, green draw gone)
DESIGNED = (
    "spin2025(players=4,wheel={color_draw_red:1,color_draw_yellow:4,color_draw_blue:1,"
    "wild_color_draw:2,color_discard:4,swap_hands:4,two_x:2})"
)


def _gaps(slots, space):
    """The gaps, in slots, between consecutive segments of ``space`` round the wheel."""
    pos = [i for i, s in enumerate(slots) if s == space]
    return [(b - a) % len(slots) or len(slots) for a, b in zip(pos, pos[1:] + pos[:1])]


# ---- segments -----------------------------------------------------------------------------
def test_whole_weights_are_the_segments():
    assert wheel_segments({"a": 2, "b": 4, "c": 0}) == {"a": 2, "b": 4}
    assert wheel_segments(parse_rules(DESIGNED).option("wheel")) == {
        "color_draw_red": 1,
        "color_draw_yellow": 4,
        "color_draw_blue": 1,
        "wild_color_draw": 2,
        "color_discard": 4,
        "swap_hands": 4,
        "two_x": 2,
    }


def test_other_weights_become_the_smallest_whole_numbers_in_their_ratio():
    assert wheel_segments({"a": 0.5, "b": 1.5, "c": 1.0}) == {"a": 1, "b": 3, "c": 2}
    assert wheel_segments({"a": 0.1, "b": 0.3}) == {"a": 1, "b": 3}
    # whole weights over the bound: their ratio
    assert wheel_segments({"a": 100, "b": 50}) == {"a": 2, "b": 1}


@pytest.mark.parametrize(
    "weights", [{"a": 1, "b": 0.013}, {"a": 1, "b": 2**0.5}, {"a": MAX_SEGMENTS, "b": 1}, {"a": 0}]
)
def test_a_wheel_without_a_small_whole_ratio_is_refused(weights):
    with pytest.raises(RuleError):
        wheel_segments(weights)


# ---- slots --------------------------------------------------------------------------------
def test_slots_hold_each_space_once_per_segment_the_same_every_time():
    rng = random.Random(7)
    for _ in range(200):
        k = rng.randint(1, 9)
        weights = {f"s{i}": rng.randint(1, 4) for i in range(k)}
        slots = wheel_slots(weights)
        assert slots == wheel_slots(dict(weights))
        assert {s: slots.count(s) for s in weights} == weights
        n = len(slots)
        for s, c in weights.items():  # spread: every gap near the even gap n / c
            if c > 1:
                assert all(abs(g - n / c) <= 3 for g in _gaps(slots, s)), (weights, slots)


def test_slots_spread_each_space_evenly():
    assert wheel_slots({"a": 2, "b": 2, "c": 2}) == ("a", "b", "c", "a", "b", "c")
    assert wheel_slots({"a": 4, "b": 1, "c": 1, "d": 1, "e": 1}) == tuple("abacadae")
    slots = wheel_slots(parse_rules(DESIGNED).option("wheel"))
    for s in ("color_draw_yellow", "color_discard", "swap_hands"):  # 4 of 18: gaps 4 or 5
        assert sorted(_gaps(slots, s)) == [4, 4, 5, 5]
    assert all(a != b for a, b in zip(slots, slots[1:] + slots[:1]))  # no two side by side


def test_a_published_wheel_keeps_its_order():
    for ed in ("spin2005", "spin2025"):
        rules = RuleSet.build(ed)
        assert wheel_slots(rules.option("wheel")) == rules.wheel_spaces()
    text = format_slots(wheel_slots(RuleSet.build("spin2025").option("wheel")))
    assert text.startswith("8 slots, clockwise from the pointer: color_draw_red, ")


# ---- the spaces' words --------------------------------------------------------------------
def test_every_space_has_a_title_and_a_one_line_effect_named_as_the_rulings_name_it():
    rulings = (Path(__file__).resolve().parents[1] / "docs" / "RULINGS.md").read_text()
    wheels = rulings[rulings.index("## Wheels") : rulings.index("## Spider-Man")]
    for ed in EDITIONS.values():
        for s in ed.wheel_spaces:
            words = SPACES[s]
            assert words.title and 0 < len(words.effect) <= MAX_EFFECT_CHARS
            assert re.sub(r" (Red|Yellow|Green|Blue)$", "", words.title) in wheels, s


# ---- the picture --------------------------------------------------------------------------
def _labels(rules):
    return [w for s in set(wheel_slots(rules.option("wheel"))) for w in SPACES[s].effect.split()]


@pytest.mark.parametrize("rules", ["spin2005(players=4)", "spin2025(players=3)", DESIGNED])
def test_the_svg_holds_every_label_and_the_png_is_written(rules, tmp_path):
    import html

    rs = parse_rules(rules)
    ax = plot_wheel(rs)
    n = len(wheel_slots(rs.option("wheel")))
    assert len(ax.patches) == n + 2  # a wedge per slot, the hub and the pointer
    with matplotlib.rc_context({"svg.fonttype": "none"}):
        ax.figure.savefig(tmp_path / "w.svg")
    ax.figure.savefig(tmp_path / "w.png")
    plt.close(ax.figure)
    svg = html.unescape((tmp_path / "w.svg").read_text())
    for s in set(wheel_slots(rs.option("wheel"))):
        assert SPACES[s].title in svg
    for word in _labels(rs):
        assert word in svg
    assert "assumed" in svg and f"{n} slots" in svg
    assert (tmp_path / "w.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_rule_set_without_a_wheel_is_not_drawn():
    with pytest.raises(RuleError, match="no wheel"):
        plot_wheel("classic(players=4)")


# ---- the command line ---------------------------------------------------------------------
def test_wheel_draw_writes_svg_and_png_and_prints_the_slots(tmp_path, capsys):
    assert main(["wheel", "--edition", "spin2005", "--draw", str(tmp_path / "w")]) == 0
    out = capsys.readouterr().out
    spaces = ", ".join(EDITIONS["spin2005"].wheel_spaces)
    assert f"9 slots, clockwise from the pointer: {spaces}" in out
    assert "assumed" in out
    svg = (tmp_path / "w.svg").read_text()
    assert "Almost UNO" in svg and "Trade Hands" in svg
    assert (tmp_path / "w.png").stat().st_size > 1000
    # again: refused without --overwrite, one line; replaced with it
    assert main(["wheel", "--edition", "spin2005", "--draw", str(tmp_path / "w")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--overwrite" in err
    argv = ["wheel", "--rules", DESIGNED, "--draw", str(tmp_path / "w.svg"), "--overwrite"]
    assert main(argv) == 0
    assert "18 slots" in capsys.readouterr().out
    assert "Color Draw Yellow" in (tmp_path / "w.svg").read_text()
