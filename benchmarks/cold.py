"""Whole commands in fresh processes: what a newcomer's first command costs, compile
included, and the peak memory of ``run`` against the number of rounds. Each command is a
child process; its CPU time (user + system) and peak resident set come from ``os.wait4``.

    python benchmarks/cold.py first-run [--games 1e5] [--skip-1e6] [--skip-compile]
    python benchmarks/cold.py memory [--games 1e5 1e6 1e7] [--edition E] [--tables T]
                                     [--match race]

``first-run`` (an empty compiled cache, its own ``NUMBA_CACHE_DIR`` in a temporary
directory, as after a fresh clone; wall, CPU, peak MB per case):

- ``first run --games 1e5``: ``python -m unospin_sim run --games 1e5`` (spin2025
  defaults). Target: <= 150 s of CPU, <= 2 GB peak.
- ``warm run --games 1e6``: the README's first command with the cache filled by the first
  run (the compiled code is loaded, not compiled).
- ``first run --games 1e6``: the README's first command with an empty cache. Target:
  <= 150 s of wall time, compile included.
- ``compile --tests``: ``python -m unospin_sim compile --tests`` with an empty cache (what
  ``.ci/run`` pays first).

Run it on an otherwise idle machine: a second compile beside it slows both (2 cores).

``memory`` (one JSON line per size, then the curve; also the disk the results took, bytes
per million rounds; the results are deleted). Target (issue 11): peak <= 500 MB whatever
``--games`` is. Measured 2026-12-01 on the shared 2-core machine (load average 3-4), 2 threads, 4 random
players (issue 11; target: peak <= 500 MB whatever --games is):

    python benchmarks/cold.py memory --games 1e6 1e7 1e8
        classic rounds,spins   1e6 341.2 MB   1e7 338.0 MB   1e8 350.1 MB (621 s)
        disk 22.0 MB per million rounds (1e8: 2.2 GB)
    python benchmarks/cold.py memory --edition spin2025 --tables T --games 1e6 1e7
        T=rounds,spins  1e6 392.7 MB   1e7 464.0 MB   disk 117.9 MB per million
        T=rounds        1e6 344.9 MB   1e7 370.1 MB   disk 31.8 MB per million
        T=none          1e6 304.7 MB   1e7 313.6 MB   disk 40 kB in all at 1e7

Later on 2026-12-01 (spin parts encoded batch by batch, match mode in batches of
runner.MATCH_BATCH matches), load average 3-5:

    python benchmarks/cold.py memory --edition spin2025 --games 1e6 1e7
        rounds,spins  1e6 374.1 MB   1e7 402.9 MB   disk 118.0 MB per million rounds
    python benchmarks/cold.py memory --edition spin2025 --match race --games 1e5 3e5
        (matches; about 3.3 rounds a match) 352.7 MB, 383.1 MB (before the match batches
        425.6 MB, 616.1 MB); disk 435 MB per million matches

Before the chunks were played in kernel batches (runner.KERNEL_BATCH) and the parts written
DELTA_BINARY_PACKED, spin2025 1e6 took 537.5 MB (rounds,spins; 134.1 MB of disk per
million), 513.4 MB (rounds; 39.8 MB per million), 443.5 MB (none); classic took 29 MB of
disk per million. The peak is set by the chunk size (65,536 from 4.2e6 rounds on), not by
the number of rounds.

1e8 rounds of spin2025 (rounds,spins), niced beside other work, 2026-12-01:

    python benchmarks/cold.py memory --edition spin2025 --games 1e8
        1e8 418.2 MB (2,496 s wall), disk 11.8 GB (118.1 MB per million rounds)
"""

from __future__ import annotations

import argparse
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile
import time

from harness import dispatch, emit

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def command(argv, cwd, env=None):
    """(wall s, CPU s, peak MB) of ``python -m unospin_sim ARGV`` run in ``cwd``; a failure
    exits with the command's last error lines."""
    with open(os.path.join(cwd, "stderr.txt"), "w+") as err:
        t = time.perf_counter()
        proc = subprocess.Popen([sys.executable, "-m", "unospin_sim", *argv], cwd=cwd,
                                env=env, stdout=subprocess.DEVNULL, stderr=err)
        _, status, ru = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - t
        if os.waitstatus_to_exitcode(status) != 0:
            err.seek(0)
            raise SystemExit(f"cold.py: {' '.join(argv)} failed:\n{err.read()[-2000:]}")
    return wall, ru.ru_utime + ru.ru_stime, ru.ru_maxrss / 1024


def first_run(argv):
    ap = argparse.ArgumentParser(prog="cold.py first-run")
    ap.add_argument("--games", default="1e5", help="rounds of the first run (default 1e5)")
    ap.add_argument("--skip-1e6", action="store_true", help="leave out the 1e6 first run")
    ap.add_argument("--skip-compile", action="store_true", help="leave out compile --tests")
    a = ap.parse_args(argv)
    print(f"{'case':28s} {'wall s':>8s} {'CPU s':>8s} {'peak MB':>8s}")
    with tempfile.TemporaryDirectory(prefix="cold-") as tmp:
        cases = [("first run --games " + a.games, "c1", ["run", "--games", a.games, "--quiet"]),
                 ("warm run --games 1e6", "c1", ["run", "--games", "1e6", "--quiet"])]
        if not a.skip_1e6:
            cases.append(("first run --games 1e6", "c2", ["run", "--games", "1e6", "--quiet"]))
        if not a.skip_compile:
            cases.append(("compile --tests", "c3", ["compile", "--tests"]))
        for i, (name, cache, cmd) in enumerate(cases):
            out = os.path.join(tmp, f"out{i}")
            os.makedirs(out)
            env = dict(os.environ, NUMBA_CACHE_DIR=os.path.join(tmp, cache),
                       PYTHONPATH=os.pathsep.join(filter(None, [REPO,
                                                                os.environ.get("PYTHONPATH")])))
            wall, cpu, peak = command(cmd, out, env)
            print(f"{name:28s} {wall:8.1f} {cpu:8.1f} {peak:8.0f}", flush=True)


def memory(argv):
    ap = argparse.ArgumentParser(prog="cold.py memory")
    ap.add_argument("--games", nargs="+", default=["1e5", "1e6", "1e7"])
    ap.add_argument("--edition", default="classic")
    ap.add_argument("--tables", default="rounds,spins")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--match", default="single", choices=("single", "race", "lowest"),
                    help="race/lowest: --games counts whole matches (run --matches)")
    a = ap.parse_args(argv)
    unit = "rounds" if a.match == "single" else "matches"
    curve = []
    for g in a.games:
        games = int(float(g))
        d = tempfile.mkdtemp(prefix="cold-mem-")
        try:
            size = (["--games", str(games)] if a.match == "single" else
                    ["--match", a.match, "--matches", str(games)])
            wall, _, peak = command(["run", *size, "--edition", a.edition, "--tables",
                                     a.tables, "--threads", str(a.threads), "--quiet",
                                     "--out", f"{d}/r"], d)
            disk = sum(f.stat().st_size for f in pathlib.Path(d, "r").rglob("*")
                       if f.is_file())
        finally:
            shutil.rmtree(d, ignore_errors=True)
        emit({"case": "peak_rss", "edition": a.edition, "tables": a.tables, "match": a.match,
              unit: games, "peak_rss_mb": round(peak, 1), "wall_s": round(wall, 2),
              "disk_mb": round(disk / 1e6, 2),
              f"disk_mb_per_million_{unit}": round(disk / 1e6 / (games / 1e6), 2),
              "threads": a.threads})
        curve.append((games, round(peak, 1)))
    emit({"case": "curve", "edition": a.edition, "tables": a.tables, "match": a.match,
          f"{unit}_to_peak_rss_mb": curve})


WORKLOADS = {"first-run": first_run, "memory": memory}


def main(argv=None):
    dispatch("cold.py", __doc__, WORKLOADS, argv)


if __name__ == "__main__":
    main()
