"""Runs that survive kill -9: manifest, --resume, --overwrite beside the old run, corrupt
parts refused, summary accumulated per chunk, memory that does not grow.

A run is killed at a known point without any clock: tests/stop_launcher.py runs the command
line with a chunk hook that makes it SIGSTOP itself right after recording its k-th chunk in
the manifest; the test waits for the
stop with waitpid(WUNTRACED), then sends SIGKILL (other chunks may be mid-write then).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys

import pandas as pd
import pytest
from conftest import REPO

from unospin_sim.analysis.summary import SummaryAccumulator, format_summary, summarize
from unospin_sim.results import load_results
from unospin_sim.run import Execution

RUN = (
    "run",
    "--edition",
    "spin2025",
    "--players",
    "3",
    "--seed",
    "21",
    "--games",
    "12000",
    "--chunk-size",
    "1000",
    "--threads",
    "2",
    "--quiet",
)


LAUNCHER = REPO / "tests" / "stop_launcher.py"


def _env(**extra):
    env = dict(os.environ, PYTHONPATH=str(REPO), **extra)
    return env


def run_killed(*args, after=3):
    """Start ``run ARGS``, let it record ``after`` chunks, SIGKILL it; returns its stdout."""
    proc = subprocess.Popen(
        [sys.executable, str(LAUNCHER), str(after), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=_env(),
    )
    try:
        _, status = os.waitpid(proc.pid, os.WUNTRACED)
        assert os.WIFSTOPPED(status), "the run ended before it was stopped"
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()  # reaps it (waitpid above only saw the stop)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    return proc.stdout.read().decode()


def manifest_chunks(d):
    text = (d / "manifest.jsonl").read_text()
    return [json.loads(line)["chunk"] for line in text.splitlines() if line.endswith("}")]


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    out = tmp_path_factory.mktemp("ref") / "full"
    from conftest import run_cli

    proc = run_cli(*RUN, "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    return out, proc.stdout


@pytest.mark.slow
def test_sigkill_then_resume_equals_uninterrupted(cli, tmp_path, reference):
    ref, ref_stdout = reference
    out = tmp_path / "r"
    run_killed(*RUN, "--out", str(out), after=3)
    assert not (out / "meta.json").exists()
    assert len(set(manifest_chunks(out))) >= 3
    bad = cli("summary", str(out))
    assert bad.returncode == 2 and "--resume" in bad.stderr
    proc = cli("run", "--resume", str(out), "--quiet")
    assert proc.returncode == 0, proc.stderr
    assert "resumed: played" in proc.stdout
    a, b = load_results(out), load_results(ref)
    pd.testing.assert_frame_equal(a.rounds, b.rounds)
    pd.testing.assert_frame_equal(a.spins, b.spins)
    # the parts are in chunk (= game) order, so plain pandas reads the same rows too
    pd.testing.assert_frame_equal(pd.read_parquet(out / "rounds"), pd.read_parquet(ref / "rounds"))
    # the summary (from the manifest's per-chunk counts) equals the uninterrupted run's
    table = lambda text: [l for l in text.splitlines() if l.startswith(("unfin", "  ", "mean"))]
    assert table(proc.stdout) == table(ref_stdout)
    again = cli("run", "--resume", str(out), "--quiet")
    assert again.returncode == 2 and "unfinished" not in again.stderr


@pytest.mark.slow
def test_interrupted_overwrite_keeps_old_results(cli, tmp_path, reference):
    ref, _ = reference
    out = tmp_path / "o"
    first = cli(
        "run",
        "--edition",
        "classic",
        "--games",
        "3000",
        "--seed",
        "1",
        "--quiet",
        "--out",
        str(out),
    )
    assert first.returncode == 0, first.stderr
    old = load_results(out)
    stdout = run_killed(*RUN, "--out", str(out), "--overwrite", after=2)
    back = load_results(out)  # still the old run, complete and readable
    pd.testing.assert_frame_equal(back.rounds, old.rounds)
    staging = [p for p in tmp_path.iterdir() if p.name.startswith(".o.new-")]
    assert len(staging) == 1 and str(staging[0]) in stdout
    proc = cli("run", "--resume", str(staging[0]), "--quiet")
    assert proc.returncode == 0, proc.stderr
    assert not staging[0].exists() and [p.name for p in tmp_path.iterdir()] == ["o"]
    new = load_results(out)
    pd.testing.assert_frame_equal(new.rounds, load_results(ref).rounds)


@pytest.mark.slow
@pytest.mark.parametrize("damage", ["truncate", "foreign", "stray"])
def test_corrupt_part_on_resume_is_one_line_exit_2(cli, tmp_path, damage):
    out = tmp_path / "c"
    run_killed(*RUN, "--out", str(out), after=2)
    chunk = manifest_chunks(out)[0]
    part = out / "rounds" / f"part-{chunk:05d}.parquet"
    if damage == "truncate":
        part.write_bytes(part.read_bytes()[:100])
    elif damage == "foreign":  # a valid part of another chunk in its place
        other = [p for p in (out / "rounds").glob("part-*.parquet") if p != part][0]
        part.write_bytes(other.read_bytes())
    else:
        (out / "rounds" / "notes.txt").write_text("mine")
    proc = cli("run", "--resume", str(out), "--quiet")
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("unospin_sim: error: "), proc.stderr
    assert "Traceback" not in proc.stderr and not (out / "meta.json").exists()


def test_sigterm_prints_resume_command(tmp_path):
    out = tmp_path / "t"
    proc = subprocess.Popen(
        [sys.executable, str(LAUNCHER), "2", *RUN, "--out", str(out)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=_env(),
    )
    try:
        _, status = os.waitpid(proc.pid, os.WUNTRACED)
        assert os.WIFSTOPPED(status)
        os.kill(proc.pid, signal.SIGTERM)
        os.kill(proc.pid, signal.SIGCONT)
        _, err = proc.communicate()
    finally:
        if proc.poll() is None:
            proc.kill()
    err = err.decode()
    assert proc.returncode == 143, err
    assert f"run --resume {out}" in err and "Traceback" not in err
    assert len(set(manifest_chunks(out))) >= 2


@pytest.mark.slow
def test_resume_refuses_other_flags(cli, tmp_path):
    proc = cli("run", "--resume", str(tmp_path), "--games", "5")
    assert proc.returncode == 2 and "--games" in proc.stderr
    proc = cli("run", "--resume", str(tmp_path / "none"))
    assert proc.returncode == 2 and len(proc.stderr.splitlines()) == 1


@pytest.mark.slow
def test_summary_only_and_no_spins(cli, tmp_path, reference):
    ref, ref_stdout = reference
    for flag, tables in (("--summary-only", []), ("--no-spins", ["rounds"])):
        out = tmp_path / flag.strip("-")
        proc = cli(*RUN, flag, "--out", str(out))
        assert proc.returncode == 0, proc.stderr
        meta = json.loads((out / "meta.json").read_text())
        assert meta["tables"] == tables and not (out / "spins").exists()
        s = cli("summary", str(out))
        assert s.returncode == 0, s.stderr
        strip = lambda t: [l for l in t.splitlines() if l.startswith(("unfin", "  ", "mean"))]
        assert strip(s.stdout) == strip(ref_stdout)


def test_accumulator_matches_summarize():
    """The per-chunk counts give the same printed summary as the rows."""
    from unospin_sim import simulate

    res = simulate(
        "classic(players=3)",
        "random",
        games=5000,
        seed=2,
        rotate_bots=True,
        execution=Execution(chunk_size=700, threads=2),
    )
    merged = SummaryAccumulator(3)
    for start in range(0, 5000, 900):  # any split, merged in any order
        r = res.rounds.iloc[start : start + 900]
        merged.merge(
            SummaryAccumulator.of_rounds(3, r.game, r.winner, r.turns, first=r.first_player)
        )
    for acc in (res.summary, merged):
        assert format_summary(acc.summarize(1.0)) == format_summary(
            summarize(res.rounds, players=3, seconds=1.0)
        )
    from unospin_sim.analysis import player_win_rates

    pd.testing.assert_frame_equal(
        res.summary.player_win_rates(), player_win_rates(res.rounds, rotated=True, players=3)
    )


def _peak_rss_mb(*args):
    proc = subprocess.Popen(
        [sys.executable, "-m", "unospin_sim", *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env=_env(),
    )
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    assert proc.returncode == 0, proc.stderr.read().decode()
    return usage.ru_maxrss / 1024


@pytest.mark.slow
def test_peak_memory_does_not_grow_with_rounds(tmp_path):
    """Peak RSS of `run` at 2e4 and 2e5 rounds (same chunk size): within 15% + 30 MB.
    Before the summary was accumulated per chunk, 1e6 rounds took ~110 MB more."""
    common = (
        "run",
        "--edition",
        "classic",
        "--seed",
        "1",
        "--threads",
        "2",
        "--chunk-size",
        "10000",
        "--quiet",
    )
    small = _peak_rss_mb(*common, "--games", "20000", "--out", str(tmp_path / "s"))
    large = _peak_rss_mb(*common, "--games", "200000", "--out", str(tmp_path / "l"))
    assert large <= small * 1.15 + 30, (small, large)


@pytest.mark.slow
def test_peak_memory_does_not_grow_with_chunk_size(tmp_path):
    """spin2025 (about 15 spins a round): peak RSS of `run` with chunks of 2,000 and of
    40,000 rounds within 15% + 30 MB.  When a chunk was one kernel call, its int64 spin
    records alone took ~45 MB per thread at 31,000 rounds (538 MB peak at 1e6 rounds)."""
    common = (
        "run",
        "--edition",
        "spin2025",
        "--seed",
        "1",
        "--threads",
        "2",
        "--games",
        "80000",
        "--quiet",
    )
    small = _peak_rss_mb(*common, "--chunk-size", "2000", "--out", str(tmp_path / "s"))
    large = _peak_rss_mb(*common, "--chunk-size", "40000", "--out", str(tmp_path / "l"))
    assert large <= small * 1.15 + 30, (small, large)


@pytest.mark.slow
def test_match_mode_peak_memory_does_not_grow_with_chunk_size(tmp_path):
    """Match mode (spin2025 race, ~3.3 rounds a match): peak RSS with chunks of 1,000 and of
    12,000 matches within 15% + 30 MB.  When a chunk of matches was one kernel call the
    larger chunks took 616 MB against 359 MB (measured 2026-12-01); now 363 against 350."""
    common = (
        "run",
        "--edition",
        "spin2025",
        "--match",
        "race",
        "--matches",
        "24000",
        "--seed",
        "1",
        "--threads",
        "2",
        "--quiet",
    )
    small = _peak_rss_mb(*common, "--chunk-size", "1000", "--out", str(tmp_path / "s"))
    large = _peak_rss_mb(*common, "--chunk-size", "12000", "--out", str(tmp_path / "l"))
    assert large <= small * 1.15 + 30, (small, large)


@pytest.mark.parametrize(
    "rules,games,chunk",
    [
        ("spin2005(players=3)", 12_000, 10_000),  # 3 kernel batches in chunk 0
        ("spin2025(players=4,match=race)", 1_500, 1_200),  # 3 match batches in chunk 0
    ],
)
def test_parts_written_batch_by_batch_read_back_as_kept_tables(tmp_path, rules, games, chunk):
    """A chunk's spin part (and in match mode every part) is one Parquet row group per
    kernel batch; the tables read back equal, row for row, those kept in memory."""
    import pyarrow.parquet as pq

    from unospin_sim.run import KERNEL_BATCH, MATCH_BATCH, simulate

    batch = MATCH_BATCH if "match" in rules else KERNEL_BATCH
    assert chunk > 2 * batch
    kept = simulate(
        rules, "random", games=games, seed=8, execution=Execution(threads=2, chunk_size=chunk)
    )
    simulate(
        rules,
        "random",
        games=games,
        seed=8,
        execution=Execution(threads=2, chunk_size=chunk, out=tmp_path / "r", keep=False),
    )
    back = load_results(tmp_path / "r")
    pd.testing.assert_frame_equal(back.rounds, kept.rounds)
    pd.testing.assert_frame_equal(back.spins, kept.spins)
    if kept.matches is not None:
        pd.testing.assert_frame_equal(back.matches, kept.matches)
    first = sorted((tmp_path / "r" / "spins").glob("part-*.parquet"))[0]
    assert pq.ParquetFile(first).metadata.num_row_groups == -(-chunk // batch)
