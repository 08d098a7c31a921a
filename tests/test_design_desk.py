"""The designer's desk (issue 49, item 2): ``--tie`` and ``--segments`` built into the design
space (every proposal meets them), the published wheel as the first trial and its
neighbours next, the summary's two verdicts, ``--json``, one-line errors."""

from __future__ import annotations

import json

import optuna
import pytest

from unospin_sim.cli import main
from unospin_sim.cli.design import summary_text
from unospin_sim.errors import RuleError
from unospin_sim.studies.design import parse_vary
from unospin_sim.studies.design.constraints import first_trials, make_plan, nearest, propose
from unospin_sim.studies.design.space import design_rules, segments_moved
from unospin_sim.studies.design.spec import read_spec

COLOURS = "color_draw_red,color_draw_yellow,color_draw_green,color_draw_blue"


@pytest.mark.parametrize(
    "vary, ties, segments",
    [
        (["wheel"], [COLOURS], 0),
        (["wheel"], [COLOURS], 12),
        (["wheel"], [], 9),
        (["wheel"], ["color_draw_red,color_draw_yellow", "two_x,swap_hands,color_discard"], 15),
        (
            ["wheel=two_x,swap_hands,color_discard,wild_color_draw", "stacking"],
            ["two_x,swap_hands"],
            10,
        ),
        (["wheel"], [COLOURS, "two_x,swap_hands"], 24),
    ],
)
@pytest.mark.parametrize("sampler", ["random", "tpe"])
def test_every_proposal_keeps_its_ties_and_total(vary, ties, segments, sampler):
    """A property over many proposals: no tied group ever breaks, the total is always
    ``--segments``, every count 0-4, and the rule set built from it has that wheel."""
    knobs = parse_vary(vary, "spin2025")
    plan = make_plan("spin2025", knobs, ties, segments)
    groups = [t.split(",") for t in ties]
    s = (
        optuna.samplers.RandomSampler(seed=1)
        if sampler == "random"
        else optuna.samplers.TPESampler(seed=1, n_startup_trials=10)
    )
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    study = optuna.create_study(sampler=s)
    seen = set()

    def objective(trial):
        values = propose(trial, knobs, plan)
        try:
            rules = design_rules("spin2025", 4, values)
        except RuleError:  # an empty wheel: refused as before, never with a total
            assert not segments and not any(v for k, v in values.items() if "wheel" in k)
            raise optuna.TrialPruned() from None
        wheel = {k: int(v) for k, v in rules.option("wheel").items()}
        for g in groups:
            assert len({wheel[x] for x in g}) == 1, (g, wheel)
        if segments:
            assert sum(wheel.values()) == segments, wheel
        assert all(0 <= c <= 4 for c in wheel.values())
        seen.add(tuple(wheel.values()))
        return float(sum(wheel.values()))

    study.optimize(objective, n_trials=150)
    assert len(seen) > 10  # the space is searched, not one design


def test_first_trials_published_then_one_segment_away():
    knobs = parse_vary(["wheel", "wild_spin_cards"], "spin2025")
    plan = make_plan("spin2025", knobs, [], 0)
    first, *near = first_trials("spin2025", knobs, plan, neighbours=True)
    values = dict(first)
    assert str(design_rules("spin2025", 4, values)) == "spin2025(players=4)"
    assert len(near) == 16  # every space one up or one down (from 1 segment each)
    for p in near:
        r = design_rules("spin2025", 4, p)
        assert segments_moved(r) == 1 and p["wild_spin_cards"] == first["wild_spin_cards"]
    assert first_trials("spin2025", knobs, plan, neighbours=False) == [first]
    # with a total the published wheel (8 segments) cannot meet: the nearest design first,
    # and its neighbours move one segment from one space to another
    tplan = make_plan("spin2025", knobs, [COLOURS], 12)
    published = {k.name[6:]: 1 for k in knobs if k.is_wheel}
    assert sum(nearest(tplan, published).values()) == 12
    first, *near = first_trials("spin2025", knobs, tplan, neighbours=True)
    base = design_rules("spin2025", 4, propose(optuna.trial.FixedTrial(first), knobs, tplan))
    assert near and segments_moved(base) == 4 and sum(base.option("wheel").values()) == 12
    for p in near:
        trial = optuna.trial.FixedTrial(p)
        r = design_rules("spin2025", 4, propose(trial, knobs, tplan))
        assert sum(r.option("wheel").values()) == 12


# -- the command line -------------------------------------------------------------------------

BASE = ["design", "--edition", "spin2025", "--players", "4", "--quiet", "--trials", "3"]
BASE += ["--games", "100", "--stages", "1", "--threads", "1", "--goal", "mean_turns=60±3"]


def _cli_error(capsys, argv) -> str:
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("unospin_sim: error: ") and "\n" not in err
    assert "Traceback" not in err
    return err


@pytest.mark.parametrize(
    "extra, words",
    [
        (["--vary", "wheel", "--tie", "red,blue"], "'red' is not a space of the spin2025 wheel"),
        (["--vary", "wheel", "--tie", "two_x,two_x"], "'two_x' is tied twice"),
        (
            ["--vary", "wheel", "--tie", "two_x,swap_hands", "--tie", "two_x,color_discard"],
            "tied twice",
        ),
        (["--vary", "wheel", "--tie", "two_x"], "name at least two spaces"),
        (["--vary", "wheel=two_x,swap_hands", "--tie", "two_x,color_discard"], "is not varied"),
        (["--vary", "stacking", "--tie", "two_x,swap_hands"], "--tie constrains the wheel"),
        (["--vary", "stacking", "--segments", "8"], "--segments constrains the wheel"),
        (["--vary", "wheel", "--segments", "0"], "segments must be a whole number from 1"),
        (["--vary", "wheel", "--segments", "40"], "--segments 40: impossible"),
        (["--vary", "wheel=two_x,swap_hands", "--segments", "5"], "can have 6 to 14 segments"),
        (["--vary", "wheel", "--tie", COLOURS, "--segments", "33"], "impossible"),
    ],
)
def test_bad_constraints_are_one_line(capsys, tmp_path, extra, words):
    err = _cli_error(capsys, BASE + extra + ["--out", str(tmp_path / "x")])
    assert words in err
    assert not (tmp_path / "x" / "study.db").exists()


def test_design_prints_a_summary_and_json_on_request(capsys, tmp_path):
    """A tiny study: the published wheel is trial 0, the tie and total hold in every trial,
    stdout is the summary with its two verdict lines; --json (on the finished study) is
    best.json's content; an old design.json without the new fields still reads."""
    out = tmp_path / "s"
    argv = BASE + ["--vary", "wheel=two_x,swap_hands,color_discard", "--goal", "min:segments_moved"]
    assert main(argv + ["--tie", "two_x,swap_hands", "--segments", "9", "--out", str(out)]) == 0
    text = capsys.readouterr().out
    lines = text.splitlines()
    assert lines[0].startswith("recommended: spin2025(")
    assert any(x.startswith(("confirmed: yes", "confirmed: no")) for x in lines)
    sk = [x for x in lines if x.startswith("holds with a skilled field: ")]
    assert len(sk) == 1 and sk[0].split(": ")[1].split()[0] in ("yes", "no", "not")
    answer = json.loads((out / "best.json").read_text())
    assert f"confirmed: {'yes' if answer['confirmed'] else 'no'}" in text
    study = optuna.load_study(storage=f"sqlite:///{out / 'study.db'}", study_name="design")
    # 9 segments: the published 8 plus one; two_x and swap_hands tied
    assert study.trials[0].params == {"wheel.two_x+swap_hands": 1}  # color_discard: 2
    for t in study.trials:
        w = parse_rules_wheel(t.user_attrs["rules"])
        assert sum(w.values()) == 9 and w["two_x"] == w["swap_hands"]
    if answer["rules"] is not None:  # the recommended wheel drawn beside the answer
        assert f"wheel drawn: {out}/wheel.svg" in text
        layout = (out / "wheel.txt").read_text()
        assert layout.startswith(f"rules {answer['rules']}\n9 slots, clockwise")
        assert "slot order assumed" in layout
        assert "SPIN" in (out / "wheel.svg").read_text()  # the labels as text
        assert (out / "wheel.png").stat().st_size > 10_000
        assert "`wheel.svg`" in (out / "summary.md").read_text()
    assert main(["design", "--resume", str(out), "--json", "--quiet"]) == 0
    assert json.loads(capsys.readouterr().out) == answer
    d = json.loads((out / "design.json").read_text())
    assert d["ties"] == ["two_x,swap_hands"] and d["segments"] == 9
    for k in ("ties", "segments", "robust"):
        del d[k]
    (out / "design.json").write_text(json.dumps(d))
    assert read_spec(out).ties == [] and read_spec(out).segments == 0


def test_published_wheel_is_trial_zero(capsys, tmp_path):
    out = tmp_path / "p"
    argv = BASE + ["--vary", "wheel=two_x,swap_hands", "--goal", "min:segments_moved"]
    assert main(argv + ["--robust", "--out", str(out)]) == 0
    capsys.readouterr()
    study = optuna.load_study(storage=f"sqlite:///{out / 'study.db'}", study_name="design")
    assert study.trials[0].user_attrs["rules"] == "spin2025(players=4)"
    assert study.trials[0].params == {"wheel.two_x": 1, "wheel.swap_hands": 1}
    # neighbours one segment away next (at most half the trials: one of four)
    moved = segments_moved(design_rules("spin2025", 4, study.trials[1].params))
    assert moved == 1
    answer = json.loads((out / "best.json").read_text())
    assert answer["robust_required"] is True
    if answer["confirmed"] and answer["holds_with_skilled_field"] is not None:
        assert "robustness" in answer


def parse_rules_wheel(text: str) -> dict:
    from unospin_sim.rules import parse_rules

    return {k: int(v) for k, v in parse_rules(text).option("wheel").items()}


def test_summary_verdict_lines():
    answer = {
        "rules": "spin2025(players=4)",
        "confirmed": True,
        "holds_with_skilled_field": False,
        "robust_required": False,
        "holds": {"mean_turns=50±1": True},
        "games": 1000,
        "unit": "rounds",
        "seed": 7,
        "segments_moved": 0,
        "options_changed": 0,
        "metrics": {"mean_turns": {"value": 50.2, "low": 49.0, "high": 51.0}},
        "robustness": {
            "bots": "spin_aware,spin_aware",
            "metrics": {"mean_turns": {"value": 44.0, "low": 43.0, "high": 45.0}},
            "holds": {"mean_turns=50±1": False},
        },
    }
    text = summary_text(answer, "DIR").splitlines()
    assert "confirmed: yes (every goal holds on the fresh seed)" in text
    assert "holds with a skilled field: no (every seat spin_aware; fails: mean_turns=50±1)" in text
    answer["robust_required"] = True
    assert "--robust: no candidate held every goal on both; this is the best of the rest" in (
        summary_text(answer, "DIR").splitlines()
    )
    answer.update(confirmed=False, holds_with_skilled_field=None, robust_required=False)
    del answer["robustness"]
    text = summary_text(answer, "DIR").splitlines()
    assert "confirmed: no (not every goal holds on the fresh seed)" in text
    assert any(x.startswith("holds with a skilled field: not measured") for x in text)


def test_draw_recommended_writes_the_wheel_or_nothing(tmp_path):
    """The design's wheel files: drawn for a wheel, removed when there is none to draw."""
    from unospin_sim.studies.design.drawn import WHEEL_FILES, draw_recommended

    rules = "spin2025(players=4,wheel={two_x:2,swap_hands:2,color_discard:1})"
    assert draw_recommended(tmp_path, rules) == list(WHEEL_FILES)
    text = (tmp_path / "wheel.txt").read_text()
    assert text.splitlines()[1].startswith("5 slots, clockwise from the pointer: ")
    svg = (tmp_path / "wheel.svg").read_text()
    assert svg.count("<path") >= 5 and "assumed" in svg
    assert draw_recommended(tmp_path, None) == []
    assert not any((tmp_path / f).exists() for f in WHEEL_FILES)
    assert draw_recommended(tmp_path, "classic(players=4)") == []
