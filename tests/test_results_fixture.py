"""Results directories written by an earlier version still load, summarise and report.

``tests/fixtures/results_format1/`` holds two directories written by ``run`` of version 0.1
(results format 1, before ``results/`` became a package): 300 rounds of
``spin2025(players=3)`` in three chunks, and 12 matches of ``classic(players=2,match=race,
target=100)`` in three chunks. Their bytes must never change: a later version that cannot
read them has broken the format (bump ``RESULTS_FORMAT`` and keep a reader instead).
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from unospin_sim.results import RESULTS_FORMAT, load_matches, load_results

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "results_format1"
SPIN = FIXTURES / "spin2025-p3"
RACE = FIXTURES / "classic-p2-race"


def test_meta_json_carries_the_format_version():
    for d in (SPIN, RACE):
        meta = json.loads((d / "meta.json").read_text())
        assert meta["results_format"] == 1 <= RESULTS_FORMAT


def test_a_newer_format_is_refused_in_one_line(tmp_path):
    import shutil

    from unospin_sim.errors import ResultsError

    d = shutil.copytree(SPIN, tmp_path / "newer")
    meta = json.loads((d / "meta.json").read_text())
    (d / "meta.json").write_text(json.dumps(meta | {"results_format": RESULTS_FORMAT + 1}))
    with pytest.raises(ResultsError, match=f"results format {RESULTS_FORMAT + 1}") as e:
        load_results(d)
    assert "\n" not in str(e.value)


def test_an_interrupted_format_1_run_resumes_in_the_current_format(tmp_path):
    """A run of format 1 (its run.json with ``run_format``) whose last chunk is lost resumes
    under this version: the chunk is played again, the tables equal the original's row for
    row, and meta.json is written in the current format."""
    import shutil

    import pandas as pd

    from unospin_sim.run import resume

    d = shutil.copytree(SPIN, tmp_path / "old")
    (d / "meta.json").unlink()
    lines = (d / "manifest.jsonl").read_text().splitlines(keepends=True)
    lost = [ln for ln in lines if json.loads(ln)["chunk"] == 2]
    (d / "manifest.jsonl").write_text("".join(ln for ln in lines if ln not in lost))
    for table in ("rounds", "spins"):
        (d / table / "part-00002.parquet").unlink()
    resume(d)
    meta = json.loads((d / "meta.json").read_text())
    assert meta["results_format"] == RESULTS_FORMAT and "schema_version" not in meta
    old, new = load_results(SPIN), load_results(d)
    pd.testing.assert_frame_equal(new.rounds, old.rounds)
    pd.testing.assert_frame_equal(new.spins, old.spins)


def test_rounds_spins_and_matches_load():
    r = load_results(SPIN)
    assert len(r.rounds) == 300 and r.matches is None
    assert np.array_equal(r.rounds["game"], np.arange(300))
    assert len(r.spins) == r.rounds["spins"].sum() > 0
    assert list(r.spins["space"].cat.categories) == r.meta["wheel_spaces"]
    # the stored summary counts agree with the rows
    wins = np.bincount(r.rounds["winner"][r.rounds["winner"] >= 0], minlength=3)
    assert wins.tolist() == r.meta["summary"]["wins"]
    m = load_results(RACE)
    assert len(m.matches) == 12 and m.matches["rounds"].sum() == len(m.rounds)
    assert (m.matches[["score_0", "score_1"]].max(axis=1) >= 100).all()
    assert load_matches(RACE).equals(m.matches)


def test_summary_and_report(tmp_path, capsys):
    from unospin_sim.cli import main

    assert main(["summary", str(SPIN)]) == 0
    out = capsys.readouterr().out
    assert "300" in out and "rounds" in out
    assert main(["summary", str(RACE)]) == 0
    assert "match" in capsys.readouterr().out
    assert main(["report", str(SPIN), str(RACE), "--out", str(tmp_path / "rep")]) == 0
    assert (tmp_path / "rep" / "report.md").read_text().strip()
    assert (tmp_path / "rep" / "report.html").exists()


@pytest.mark.parametrize("d", [SPIN, RACE])
def test_the_fixture_bytes_are_unchanged(d):
    """A guard against regenerating the fixtures by accident: their manifests still name
    the parts' SHA-256 (the format's own check)."""
    import hashlib

    for line in (d / "manifest.jsonl").read_text().splitlines():
        entry = json.loads(line)
        for table, part in entry["parts"].items():
            f = d / table / part["file"]
            assert hashlib.sha256(f.read_bytes()).hexdigest() == part["sha256"]
