"""Walk the hostile input catalogue (``tests/hostile_cases.py``) through the real CLI: in
process (``cli.main``, default tier) and as a subprocess (slow tier).

Every case must exit with status 2 and print exactly one line on stderr,
``unospin_sim: error: <message>``, whose message names the problem; no traceback; nothing
on stdout; and nothing on disk may change: the whole temporary directory (the working
directory of the command, where ``run`` would create ``results/``, and the prepared
results directory) is compared byte for byte before and after.
"""

from __future__ import annotations

import collections
import os
from pathlib import Path

import pytest
from hostile_cases import CASES, GROUPS, Case, good_run


def snapshot(root: Path) -> dict[str, object]:
    """Every entry under ``root``: files by content, directories and links by kind."""
    out: dict[str, object] = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            p = Path(dirpath) / name
            rel = str(p.relative_to(root))
            if p.is_symlink():
                out[rel] = ("link", os.readlink(p))
            elif p.is_dir():
                out[rel] = "dir"
            else:
                out[rel] = p.read_bytes()
    return out


def _argv(case: Case, d: Path) -> list[str]:
    return [a.replace("{dir}", str(d)) for a in case.argv]


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_hostile_case(any_cli, tmp_path, case):
    d = tmp_path / "dir"
    if case.setup is not None:
        case.setup(d)
    before = snapshot(tmp_path)
    proc = any_cli(*_argv(case, d), cwd=tmp_path, timeout=120)

    assert "Traceback" not in proc.stderr and "Traceback" not in proc.stdout, proc.stderr
    assert proc.returncode == 2, (proc.returncode, proc.stdout, proc.stderr)
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, proc.stderr
    line = lines[0]
    assert line.startswith("unospin_sim: error: "), line
    for word in case.expect:
        assert word in line, f"{word!r} not in {line!r}"
    assert proc.stdout == ""
    # nothing written, nothing lost: every file byte-identical, nothing created
    after = snapshot(tmp_path)
    assert after.keys() == before.keys(), set(after) ^ set(before)
    changed = [k for k in before if before[k] != after[k]]
    assert not changed, changed


def test_catalogue_shape():
    assert len(CASES) >= 30
    ids = [c.id for c in CASES]
    assert len(ids) == len(set(ids)), [i for i, n in collections.Counter(ids).items() if n > 1]
    groups = collections.Counter(c.group for c in CASES)
    assert set(groups) == set(GROUPS), groups
    assert all(groups[g] >= 5 for g in GROUPS), groups
    for c in CASES:
        assert c.expect and all(c.expect), c.id
        assert all(isinstance(a, str) for a in c.argv), c.id
        # cases against a prepared directory must name it
        if c.setup is not None:
            assert any("{dir}" in a for a in c.argv), c.id


def test_summary_of_a_good_directory(any_cli, tmp_path):
    """The control case: ``summary`` of an intact run prints the run's summary, exit 0."""
    d = tmp_path / "dir"
    proc = any_cli(
        "run",
        "--games",
        "600",
        "--edition",
        "spin2025",
        "--players",
        "3",
        "--seed",
        "7",
        "--threads",
        "2",
        "--chunk-size",
        "200",
        "--quiet",
        "--out",
        str(d),
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    before = snapshot(tmp_path)
    summary = any_cli("summary", str(d), timeout=120)
    assert summary.returncode == 0, summary.stderr
    assert summary.stderr == ""
    assert snapshot(tmp_path) == before  # summary only reads

    def body(text: str) -> list[str]:
        """The summary lines, without the speed line (timed differently by the two)."""
        lines = text.splitlines()
        start = next(i for i, x in enumerate(lines) if x.startswith("rounds "))
        return [x for x in lines[start + 1 :] if not x.startswith("results in")]

    # summary adds the table-side units of length (issue 49 item 6) after what run printed
    units = ("rounds past ", "round length ", "match length ")
    assert [x for x in body(summary.stdout) if not x.startswith(units)] == body(proc.stdout)
    assert sum(x.startswith(units) for x in summary.stdout.splitlines()) == 3
    assert summary.stdout.splitlines()[1].startswith("rounds      600")
    assert "rules spin2025(players=3)" in summary.stdout and "seed 7" in summary.stdout


def test_summary_after_a_refused_overwrite(any_cli, tmp_path):
    """A refused ``run --out`` leaves the earlier results loadable, and equal."""
    d = tmp_path / "dir"
    good_run(d)
    first = any_cli("summary", str(d), timeout=120)
    assert first.returncode == 0, first.stderr
    refused = any_cli("run", "--games", "20", "--quiet", "--out", str(d), timeout=120)
    assert refused.returncode == 2
    again = any_cli("summary", str(d), timeout=120)
    assert again.returncode == 0 and again.stdout == first.stdout
