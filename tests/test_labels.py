"""``run --label``: a run's name, stored in meta.json and used by summary, compare and the
report instead of its rule string (issue 49, item 5); a run without one still loads."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import in_process_cli

from unospin_sim.errors import UserError
from unospin_sim.results import MAX_LABEL, check_label, load_results, run_label
from unospin_sim.run import Execution, simulate

FIXTURES = Path(__file__).parent / "fixtures" / "results_format1"


def test_check_label_and_run_label():
    assert check_label("  stacking on  ") == "stacking on"
    for bad in ("", "   ", "two\nlines", "x" * (MAX_LABEL + 1), 3):
        with pytest.raises(ValueError):
            check_label(bad)
    assert run_label({"rules": "spin2025(players=4)", "label": "plain"}) == "plain"
    assert run_label({"rules": "spin2025(players=4)"}) == "spin2025(players=4)"
    assert run_label({"rules": "spin2025(players=4)"}, "results/x") == "results/x"
    assert run_label({"rules": "spin2025", "label": "a\nb"}) == "spin2025"  # damaged: ignored


def test_label_round_trips_through_meta_json(tmp_path):
    out = tmp_path / "run"
    ex = Execution(threads=1, out=str(out), label=" 2025 plain ")
    res = simulate("classic(players=2)", "random", games=50, seed=1, execution=ex)
    assert res.meta["label"] == "2025 plain"
    assert json.loads((out / "meta.json").read_text())["label"] == "2025 plain"
    assert json.loads((out / "run.json").read_text())["label"] == "2025 plain"  # for resume
    loaded = load_results(out)
    assert run_label(loaded.meta) == "2025 plain"
    # the rounds are those of a run without a label
    plain = simulate("classic(players=2)", "random", games=50, seed=1)
    assert loaded.rounds.drop(columns=[]).equals(plain.rounds)
    with pytest.raises(UserError, match="at most 80"):
        Execution(label="x" * 81).resolved()
    # a resumed run keeps its label (run.json holds it): every chunk done, meta.json lost
    from unospin_sim.run import resume

    (out / "meta.json").unlink()
    assert resume(out, Execution(threads=1)).meta["label"] == "2025 plain"
    assert run_label(load_results(out).meta) == "2025 plain"


def test_an_old_run_without_a_label_still_loads(monkeypatch, capsys):
    """A run of results format 1 (before labels): it loads, goes by its rule string, and
    compare names it by its directory."""
    old = FIXTURES / "spin2025-p3"
    res = load_results(old)
    assert "label" not in res.meta
    assert run_label(res.meta) == res.meta["rules"]
    r = in_process_cli(monkeypatch, capsys)("compare", str(old), str(old), "--quiet")
    assert r.returncode == 0, r.stderr
    assert f"Against {old}, {old} #2:" in r.stdout.replace("\n", " ")


@pytest.fixture(scope="module")
def labelled(tmp_path_factory) -> tuple[Path, Path]:
    """Two labelled runs of 2 players: the published classic rules and stacking."""
    d = tmp_path_factory.mktemp("labelled")
    for name, rules, label in (
        ("a", "classic(players=2)", "published"),
        ("b", "classic(players=2,stacking=true)", "stacking"),
    ):
        ex = Execution(threads=1, out=str(d / name), label=label)
        simulate(rules, "random", games=300, seed=0, execution=ex)
    return d / "a", d / "b"


def test_cli_run_and_summary_show_the_label(tmp_path, labelled, monkeypatch, capsys):
    cli = in_process_cli(monkeypatch, capsys)
    out = tmp_path / "c"
    r = cli("run", "--edition", "classic", "--players", "2", "--games", "50", "--quiet",
            "--out", str(out), "--label", "published")  # fmt: skip
    assert r.returncode == 0, r.stderr
    assert "label 'published'" in r.stdout
    assert json.loads((out / "meta.json").read_text())["label"] == "published"
    r = cli("summary", str(labelled[1]))
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("label 'stacking'  rules classic(players=2,stacking=true)")


def test_cli_compare_names_runs_by_label(labelled, monkeypatch, capsys):
    cli = in_process_cli(monkeypatch, capsys)
    a, b = labelled
    r = cli("compare", str(a), str(b), "--quiet")
    assert r.returncode == 0, r.stderr
    assert "Against published, stacking:" in r.stdout
    legend = r.stdout[r.stdout.index("Runs:") :]
    assert "stacking: classic(players=2,stacking=true)" in legend
    assert "published: classic(players=2)" in legend
    r = cli("compare", str(a), str(b), "--json")
    doc = json.loads(r.stdout)
    assert doc["base"] == "published"
    assert doc["runs"][1] == {
        "label": "stacking",
        "rules": "classic(players=2,stacking=true)",
        "source": str(b),
    }


def test_report_names_runs_by_label(tmp_path, labelled, monkeypatch, capsys):
    cli = in_process_cli(monkeypatch, capsys)
    rep = tmp_path / "rep"
    r = cli("report", *map(str, labelled), "--out", str(rep), "--wheel-games", "0")
    assert r.returncode == 0, r.stderr
    md = (rep / "report.md").read_text()
    assert "`stacking`: rules `classic(players=2,stacking=true)`" in md  # once, in Runs
    assert md.count("classic(players=2,stacking=true)") == 1
    assert "`published`" in md


def test_cli_label_errors(tmp_path, monkeypatch, capsys):
    cli = in_process_cli(monkeypatch, capsys)
    out = tmp_path / "x"
    r = cli("run", "--games", "10", "--out", str(out), "--label", "a\tb", "--quiet")
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1
    assert "printable" in r.stderr and not out.exists()
    r = cli("run", "--resume", str(out), "--label", "x")
    assert r.returncode == 2 and "--label cannot be given" in r.stderr
