"""The CLI end to end (needs the engine: runner.simulate and playthrough.play_text)."""

from __future__ import annotations

import json
import re

import pandas as pd
import pytest

from unospin_sim import simulate
from unospin_sim.results import Results, load_results, round_columns
from unospin_sim.rules import parse_rules
from unospin_sim.run import Execution


def test_run_writes_results(cli, tmp_path):
    out = tmp_path / "r"
    proc = cli(
        "run",
        "--games",
        "2_000",
        "--edition",
        "classic",
        "--players",
        "3",
        "--bots",
        "random",
        "--seed",
        "5",
        "--threads",
        "1",
        "--quiet",
        "--out",
        str(out),
    )
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    for word in ("rounds", "rounds/s", "unfinished", "win rate", "mean turns", str(out)):
        assert word in proc.stdout
    rounds = pd.read_parquet(out / "rounds")
    assert len(rounds) == 2000
    meta = json.loads((out / "meta.json").read_text())
    assert parse_rules(meta["rules"]) == parse_rules("classic(players=3)")
    assert meta["seed"] == 5 and meta["games"] == 2000
    assert set(round_columns(parse_rules(meta["rules"]))) <= set(rounds.columns)
    res = load_results(out)
    assert len(res.rounds) == 2000 and len(res.spins) == 0


@pytest.mark.slow
def test_run_threads_do_not_change_results(cli, tmp_path):
    tables = []
    for threads in ("1", "2"):
        out = tmp_path / f"t{threads}"
        proc = cli(
            "run",
            "--games",
            "3000",
            "--edition",
            "spin2025",
            "--bots",
            "random",
            "--seed",
            "11",
            "--threads",
            threads,
            "--chunk-size",
            "700",
            "--quiet",
            "--out",
            str(out),
        )
        assert proc.returncode == 0, proc.stderr
        tables.append(load_results(out))
    pd.testing.assert_frame_equal(tables[0].rounds, tables[1].rounds)
    pd.testing.assert_frame_equal(tables[0].spins, tables[1].spins)


def test_run_default_out_is_printed(any_cli, tmp_path):
    proc = any_cli(
        "run",
        "--games",
        "500",
        "--edition",
        "spin2005",
        "--players",
        "2",
        "--seed",
        "3",
        "--quiet",
        cwd=tmp_path,
    )
    assert proc.returncode == 0, proc.stderr
    made = list((tmp_path / "results").iterdir())
    assert len(made) == 1 and made[0].name.startswith("spin2005-p2-s3-")
    assert str(made[0].relative_to(tmp_path)) in proc.stdout
    res = load_results(made[0])
    assert len(res.rounds) == 500 and len(res.spins) > 0


@pytest.mark.slow
def test_run_with_rules_and_wheel(cli, tmp_path):
    out = tmp_path / "w"
    proc = cli(
        "run",
        "--games",
        "1e3",
        "--rules",
        "spin2025(players=3,wheel={two_x:1})",
        "--wheel",
        "two_x=1",
        "--quiet",
        "--out",
        str(out),
    )
    assert proc.returncode == 0, proc.stderr
    res = load_results(out)
    assert res.meta["rules"] == "spin2025(players=3,wheel={two_x:1})"
    assert set(res.spins["space"].unique()) <= {"two_x"}


@pytest.mark.slow
def test_overwrite(cli, tmp_path):
    out = tmp_path / "o"
    args = ("run", "--games", "300", "--edition", "classic", "--quiet", "--out", str(out))
    assert cli(*args).returncode == 0
    assert cli(*args).returncode == 2
    assert cli(*args, "--overwrite").returncode == 0
    assert len(load_results(out).rounds) == 300


@pytest.mark.parametrize("rules", ["spin2005(players=3)", "classic(players=2)"])
def test_simulate_out_save_and_load_agree(tmp_path, rules):
    """simulate's Results, the directory it writes, and Results.save of it hold the same
    tables, dtypes and column order included."""
    res = simulate(
        rules,
        "random",
        games=700,
        seed=4,
        execution=Execution(threads=2, chunk_size=300, out=tmp_path / "run"),
    )
    assert isinstance(res, Results)
    saved = res.save(tmp_path / "saved")
    assert saved == tmp_path / "saved" / "meta.json"
    for d in ("run", "saved"):
        back = Results.load(tmp_path / d)
        pd.testing.assert_frame_equal(back.rounds, res.rounds)
        pd.testing.assert_frame_equal(back.spins, res.spins)
        assert back.meta["games"] == 700 and back.meta["rules"] == rules
    assert list(res.rounds.columns) == round_columns(parse_rules(rules))


@pytest.mark.slow
@pytest.mark.parametrize("edition", ["classic", "spin2005", "spin2025", "spiderman"])
def test_play(cli, edition):
    proc = cli("play", "--seed", "1", "--edition", edition, "--players", "3")
    assert proc.returncode == 0, proc.stderr
    assert len(proc.stdout.splitlines()) > 5
    again = cli("play", "--seed", "1", "--edition", edition, "--players", "3")
    assert again.stdout == proc.stdout


# the run's progress bar (tqdm, unit_scale): "... | 150k/1.00G [..."
_PROGRESS = re.compile(r"(\d+(?:\.\d+)?)([kMG]?)/1\.00G")
_SCALE = {"": 1, "k": 10**3, "M": 10**6, "G": 10**9}


def _games_done(text):
    """The largest game count the progress bar has shown in ``text``."""
    return max((float(n) * _SCALE[u] for n, u in _PROGRESS.findall(text)), default=0)


def _read_until_games(fd, games, limit=1 << 18):
    """Read a run's stderr until its progress bar shows ``games`` games done.

    Event-driven: blocking reads on the pipe, no clock. The bar is updated after each chunk
    is written, so ``games`` = k chunks means k parts on disk. Ends also at EOF (the run
    died) or after ``limit`` bytes (a bar that never gets there)."""
    import os

    buf = b""
    while len(buf) < limit:
        chunk = os.read(fd, 4096)
        if not chunk:
            break
        buf += chunk
        if _games_done(buf.decode(errors="replace")) >= games:
            break
    return buf.decode(errors="replace")


@pytest.mark.slow
def test_interrupt_keeps_written_parts(tmp_path):
    """Ctrl-C: exit 130, one-line note, the finished parts stay readable.

    The interrupt is sent when the run's own progress output says two chunks are written
    (no sleeping or polling on the clock)."""
    import os
    import signal
    import subprocess
    import sys

    from conftest import REPO

    out = tmp_path / "big"
    env = dict(os.environ, PYTHONPATH=str(REPO))
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "unospin_sim",
            "run",
            "--games",
            "1e9",
            "--edition",
            "classic",
            "--bots",
            "random",
            "--chunk-size",
            "50000",
            "--out",
            str(out),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        before = _read_until_games(proc.stderr.fileno(), 2 * 50000)
        assert _games_done(before) >= 2 * 50000, before[-500:]
        proc.send_signal(signal.SIGINT)
        _, rest = proc.communicate()
    finally:
        if proc.poll() is None:
            proc.kill()
    err = before + rest.decode(errors="replace")
    assert proc.returncode == 130, err[-2000:]
    # apart from the progress bar (and a first-run compile note): one line, no traceback
    lines = [
        line
        for line in re.split(r"[\r\n]", err)
        if line.strip() and not _PROGRESS.search(line) and "compiling the game kernel" not in line
    ]
    assert len(lines) == 1 and "interrupted" in lines[0] and "Traceback" not in err, lines
    assert not (out / "meta.json").exists()
    rounds = pd.read_parquet(out / "rounds")
    assert len(rounds) >= 2 * 50000 and len(rounds) % 50000 == 0


def test_run_and_summary_print_the_jump_in_rate(monkeypatch, capsys, tmp_path):
    """Under jump_in, `run` and `summary` print the mean jump-ins per round with its 95%
    interval (the same figures: the run's accumulator and the table), and the rounds table
    has the jump-in columns."""
    from conftest import in_process_cli

    cli = in_process_cli(monkeypatch, capsys)
    out = tmp_path / "j"
    proc = cli(
        "run",
        "--games",
        "600",
        "--rules",
        "classic(players=4,jump_in=true)",
        "--seed",
        "3",
        "--threads",
        "1",
        "--quiet",
        "--out",
        str(out),
    )
    assert proc.returncode == 0, proc.stderr
    line = [s for s in proc.stdout.splitlines() if s.startswith("jump-ins")]
    assert len(line) == 1 and "per round, 95% interval [" in line[0], proc.stdout
    rounds = pd.read_parquet(out / "rounds")
    assert f"{rounds.jump_ins.mean():.3f}" in line[0]
    again = cli("summary", str(out))
    assert again.returncode == 0 and line[0] in again.stdout.splitlines()
    plain = cli(
        "run",
        "--games",
        "50",
        "--edition",
        "classic",
        "--players",
        "4",
        "--seed",
        "3",
        "--threads",
        "1",
        "--quiet",
        "--out",
        str(tmp_path / "p"),
    )
    assert plain.returncode == 0 and "jump-ins" not in plain.stdout


def test_default_run_names_carry_the_options_off_the_default():
    """results/ names tell runs apart: the options off the edition's default, a wheel by
    its hash, at most 80 characters with whole options only."""
    from unospin_sim.cli.flags import MAX_RUN_NAME, run_name
    from unospin_sim.rules import parse_rules

    stamp = "20261206-091500"
    assert run_name(parse_rules("spin2025(players=4)"), 0, stamp) == f"spin2025-p4-s0-{stamp}"
    assert (
        run_name(parse_rules("spin2025(players=4,stacking=true)"), 0, stamp)
        == f"spin2025-stacking-p4-s0-{stamp}"
    )
    off = run_name(parse_rules("spin2025(players=3,wild_matches_colour=false)"), 5, stamp)
    assert off == f"spin2025-no-wild_matches_colour-p3-s5-{stamp}"
    race = run_name(parse_rules("classic(players=4,match=race,target=300)"), 1, stamp)
    assert race == f"classic-match-race-target-300-p4-s1-{stamp}"
    a = run_name(parse_rules("spin2025(players=4,wheel={color_discard:2})"), 0, stamp)
    b = run_name(parse_rules("spin2025(players=4,wheel={color_discard:3})"), 0, stamp)
    assert a.startswith("spin2025-wheel-") and a != b and len(a.split("-")[2]) == 6
    many = parse_rules(
        "classic(players=4,stacking=true,seven_o=true,jump_in=true,partners=true,"
        "special_wilds=swap_hands,draw_until_playable=true,force_play=true)"
    )
    name = run_name(many, 0, stamp)
    assert len(name) <= MAX_RUN_NAME - 3 and name.endswith(f"-p4-s0-{stamp}")
    assert name.startswith("classic-stacking-")
