"""The CLI end to end (needs the engine: runner.simulate and playthrough.play_text)."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from unospin_sim.results import load_results, round_columns
from unospin_sim.rules import parse_rules


def test_run_writes_results(cli, tmp_path):
    out = tmp_path / "r"
    proc = cli("run", "--games", "2_000", "--edition", "classic", "--players", "3",
               "--bots", "random", "--seed", "5", "--threads", "1", "--quiet", "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    for word in ("games", "games/s", "unfinished", "win rate", "mean turns", str(out)):
        assert word in proc.stdout
    rounds = pd.read_parquet(out / "rounds")
    assert len(rounds) == 2000
    meta = json.loads((out / "meta.json").read_text())
    assert parse_rules(meta["rules"]) == parse_rules("classic(players=3)")
    assert meta["seed"] == 5 and meta["games"] == 2000
    assert set(round_columns(parse_rules(meta["rules"]))) <= set(rounds.columns)
    r2, spins, _ = load_results(out)
    assert len(r2) == 2000 and len(spins) == 0


def test_run_threads_do_not_change_results(cli, tmp_path):
    tables = []
    for threads in ("1", "2"):
        out = tmp_path / f"t{threads}"
        proc = cli("run", "--games", "3000", "--edition", "spin2025", "--bots", "random",
                   "--seed", "11", "--threads", threads, "--chunk-size", "700", "--quiet",
                   "--out", str(out))
        assert proc.returncode == 0, proc.stderr
        tables.append(load_results(out))
    pd.testing.assert_frame_equal(tables[0][0], tables[1][0])
    pd.testing.assert_frame_equal(tables[0][1], tables[1][1])


def test_run_default_out_is_printed(cli, tmp_path):
    proc = cli("run", "--games", "500", "--edition", "spin2005", "--players", "2",
               "--seed", "3", "--quiet", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    made = list((tmp_path / "results").iterdir())
    assert len(made) == 1 and made[0].name.startswith("spin2005-p2-s3-")
    assert str(made[0].relative_to(tmp_path)) in proc.stdout
    rounds, spins, meta = load_results(made[0])
    assert len(rounds) == 500 and len(spins) > 0


def test_run_with_rules_and_wheel(cli, tmp_path):
    out = tmp_path / "w"
    proc = cli("run", "--games", "1e3", "--rules", "spin2025(players=3,wheel={two_x:1})",
               "--wheel", "two_x=1", "--quiet", "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    rounds, spins, meta = load_results(out)
    assert meta["rules"] == "spin2025(players=3,wheel={two_x:1})"
    assert set(spins["space"].unique()) <= {"two_x"}


def test_overwrite(cli, tmp_path):
    out = tmp_path / "o"
    args = ("run", "--games", "300", "--edition", "classic", "--quiet", "--out", str(out))
    assert cli(*args).returncode == 0
    assert cli(*args).returncode == 2
    assert cli(*args, "--overwrite").returncode == 0
    assert len(load_results(out)[0]) == 300


@pytest.mark.parametrize("edition", ["classic", "spin2005", "spin2025", "spiderman"])
def test_play(cli, edition):
    proc = cli("play", "--seed", "1", "--edition", edition, "--players", "3")
    assert proc.returncode == 0, proc.stderr
    assert len(proc.stdout.splitlines()) > 5
    again = cli("play", "--seed", "1", "--edition", edition, "--players", "3")
    assert again.stdout == proc.stdout


@pytest.mark.slow
def test_interrupt_keeps_written_parts(tmp_path):
    """Ctrl-C: exit 130, one-line note, the finished parts stay readable."""
    import os
    import signal
    import subprocess
    import sys
    import time

    from conftest import REPO

    out = tmp_path / "big"
    env = dict(os.environ, PYTHONPATH=str(REPO))
    proc = subprocess.Popen(
        [sys.executable, "-m", "unospin_sim", "run", "--games", "1e9", "--edition", "classic",
         "--bots", "random", "--chunk-size", "50000", "--quiet", "--out", str(out)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            parts = list((out / "rounds").glob("part-*.parquet")) if (out / "rounds").is_dir() \
                else []
            if len(parts) >= 2 or proc.poll() is not None:
                break
            time.sleep(0.2)
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130, err
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and "interrupted" in lines[0] and "Traceback" not in err
    assert not (out / "meta.json").exists()
    rounds = pd.read_parquet(out / "rounds")
    assert len(rounds) >= 2 * 50000 and len(rounds) % 50000 == 0
