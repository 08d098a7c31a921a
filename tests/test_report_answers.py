"""The report opens with its answers: one headline per question, the largest effect whose
95% interval excludes no effect (issue 26, item 3)."""

from __future__ import annotations

import re
from pathlib import Path

from unospin_sim.report.context import QUESTIONS, Answer, headline
from unospin_sim.run import Execution, simulate


def test_headline_picks_the_largest_clear_effect_per_question():
    answers = [
        Answer("seat", 0.030, False, "A big but unclear edge."),
        Answer("seat", -0.012, True, "A clear handicap."),
        Answer("seat", 0.008, True, "A small clear edge."),
        Answer("wheel", 0.02, False, "An unclear space."),
        Answer("wheel", -0.05, False, "A larger unclear space."),
        Answer("length", None, True, "50 turns a round."),
    ]
    lines = headline(answers)
    assert len(lines) == len(QUESTIONS)
    by = dict(zip(QUESTIONS, lines))
    assert by["seat"] == "**Does the seat matter?** A clear handicap."
    assert by["wheel"].endswith(
        "no effect distinguishable from none at 95%; the largest seen: A larger unclear space."
    )
    assert by["length"].endswith("50 turns a round.")  # a level: no effect offered
    assert "not measured here (needs tournaments" in by["skill"]
    assert "not measured here (needs a spin2005 and a spin2025 run)" in by["editions"]


def test_headline_prefers_an_effect_to_a_level():
    lines = headline(
        [Answer("length", None, True, "level"), Answer("length", 0.2, True, "20% longer")]
    )
    assert lines[0] == "**How long is a round?** 20% longer"


def test_report_opens_with_one_answer_per_question(tmp_path):
    from unospin_sim.report import build_report

    for ed in ("spin2005", "spin2025"):
        simulate(
            f"{ed}(players=4)", "random", games=3000, seed=4, execution=Execution(out=tmp_path / ed)
        )
    text = build_report(
        [tmp_path / "spin2005", tmp_path / "spin2025"], tmp_path / "rep", wheel_games=0
    ).read_text()
    assert text.index("## Answers") < text.index("## Findings")
    block = text.split("## Answers", 1)[1].split("\n## ", 1)[0]
    lines = [ln for ln in block.splitlines() if ln.startswith("- ")]
    assert [re.match(r"- \*\*(.+?)\*\*", ln).group(1) for ln in lines] == [
        q for q, _ in QUESTIONS.values()
    ]
    by = dict(zip(QUESTIONS, lines))
    # 2025 rounds are longer than 2005's and their winners score more (about 2.3 times the
    # points at 4 players): the larger ratio, its interval excluding 1 at 3,000 rounds each
    m = re.search(r"(\d+\.\d+) times .*\[(\d+\.\d+), (\d+\.\d+)\]", by["editions"])
    assert m and 1 < float(m.group(2)) <= float(m.group(1)) <= float(m.group(3))
    assert (
        "2005 against 2025** a `spin2025(players=4) random` round winner scores" in by["editions"]
    )
    assert "rounds are" in by["length"] and "longer than `spin2005" in by["length"]
    assert "against 25% for a lead that meant nothing" in by["race"]
    assert "not measured here (needs tournaments" in by["skill"]
    assert "relative swing" in by["wheel"]  # no paired replays: wheel_games=0
    assert "not measured here (needs a run with a wheel and its paired replays" in by["luck"]
    assert "## 2005 against 2025 (per round)" in text
    assert "## Drama" not in text  # wheel_games=0 and no drama_games: no replays at all


def test_luck_line_adds_the_runs_drama(tmp_path):
    """The drama of every run (its first rounds replayed) completes the luck line and has a
    section and a table of its own."""
    from unospin_sim.report import build_report

    for ed in ("classic", "spin2005"):
        simulate(
            f"{ed}(players=4)", "random", games=400, seed=4, execution=Execution(out=tmp_path / ed)
        )
    rep = tmp_path / "rep"
    text = build_report(
        [tmp_path / "classic", tmp_path / "spin2005"], rep, wheel_games=0, drama_games=300
    ).read_text()
    block = text.split("## Answers", 1)[1].split("\n## ", 1)[0]
    line = next(ln for ln in block.splitlines() if "How much is luck?" in ln)
    assert "held the most cards after the first third of the round in" in line, line
    assert "`classic(players=4) random`'s rounds" in line and "spin2005" in line
    assert "## Drama: did the winner come from behind?" in text
    import pandas as pd

    table = pd.read_csv(rep / "tables" / "drama.csv")
    assert list(table["rounds"]) == [300, 300]
    assert (
        (table["comeback_low"] <= table["comeback"]) & (table["comeback"] <= table["comeback_high"])
    ).all()
    assert "--drama-games 300" in text  # the command that reproduces the report


def test_wheel_luck_answers_with_paired_replays(tmp_path):
    """With paired replays the luck question is answered by the wheel's luck (analysis.luck),
    its interval above 0 for the 2025 wheel (colour draws hurt the spinner, Color Discard
    helps), and the wheel section states it."""
    from unospin_sim.report import build_report

    simulate(
        "spin2025(players=4)", "random", games=300, seed=4, execution=Execution(out=tmp_path / "r")
    )
    text = build_report([tmp_path / "r"], tmp_path / "rep", wheel_games=300, threads=1).read_text()
    block = text.split("## Answers", 1)[1].split("\n## ", 1)[0]
    line = next(ln for ln in block.splitlines() if "How much is luck?" in ln)
    m = re.search(r"by (\d+\.\d+) \[(\d+\.\d+), (\d+\.\d+)\] percentage points", line)
    assert m and 0 < float(m.group(2)) <= float(m.group(1)) <= float(m.group(3)), line
    assert "Wheel luck: " in text


def test_one_run_answers_length_in_table_units(tmp_path):
    """Issue 49 item 6: the length answer gives the rounds past 100 and 150 turns and minutes
    at a stated (assumed) seconds per turn."""
    from unospin_sim.report import build_report

    fixture = Path(__file__).parent / "fixtures" / "results_format1" / "spin2025-p3"
    text = build_report([fixture], tmp_path / "rep", wheel_games=0).read_text()
    block = text.split("## Answers", 1)[1].split("\n## ", 1)[0]
    line = next(ln for ln in block.splitlines() if "How long is a round?" in ln)
    assert re.search(r"\d+\.\d% of rounds past 100 turns and \d+\.\d% past 150", line)
    assert "minutes at 10 s a turn (an assumption, not measured)" in line


def test_several_runs_answer_in_compare_words(tmp_path):
    """Issue 49 item 3: a report of several runs says, as `compare` does, what changed
    against the first run: paired where the runs dealt the same rounds (here the same deck,
    players and seed), and 'no change distinguishable' for a run equal to the first."""
    from unospin_sim.report import build_report

    for name, rules in (
        ("base", "classic(players=4)"),
        ("same", "classic(players=4)"),
        ("d2", "classic(players=4,draw_two_draws=4)"),
    ):
        simulate(rules, "random", games=2000, seed=9, execution=Execution(out=tmp_path / name))
    dirs = [tmp_path / n for n in ("base", "same", "d2")]
    text = build_report(dirs, tmp_path / "rep", wheel_games=0).read_text()
    block = text.split("## Answers", 1)[1].split("\n## ", 1)[0]
    line = next(ln for ln in block.splitlines() if "What changed against the first run" in ln)
    assert "round length (mean turns) higher" in line and "paired" in line, line
    section = text.split("## Verdict: every run against", 1)[1].split("\n## ", 1)[0]
    paragraphs = [p for p in section.split("\n\n") if p.startswith("Against ")]
    assert len(paragraphs) == 2, section
    same, d2 = paragraphs
    assert "nothing changed clearly" in same and "Intervals: paired" in same, same
    assert "draw_two_draws=4" in d2 and "winner's points higher" in d2, d2
    assert (tmp_path / "rep" / "tables" / "verdict.csv").exists()
