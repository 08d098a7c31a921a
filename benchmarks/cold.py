"""Whole commands in fresh processes: what a newcomer's first command costs, compile
included, and the peak memory of ``run`` against the number of rounds. Each command is a
child process; its CPU time (user + system) and peak resident set come from ``os.wait4``.

    python benchmarks/cold.py first-run [--games 1e5] [--skip-1e6] [--skip-compile]
    python benchmarks/cold.py memory [--games 1e5 1e6 1e7] [--edition E] [--tables T]
                                     [--match race]
    python benchmarks/cold.py compile-profile [--tree T] [--top N] [-- COMMAND...]

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

``compile-profile [--tree T] [--top N] [COMMAND...]``: where the compile time of a first
command goes, per engine function (numba's compile events; fresh cache; one JSON line for
the whole command, then one per function, slowest first). Two trees side by side show which
function a change made dearer (2026-12-04: the policy rewrite's ``inl`` wrappers).

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
import json
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
        proc = subprocess.Popen(
            [sys.executable, "-m", "unospin_sim", *argv],
            cwd=cwd,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=err,
        )
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
        cases = [
            ("first run --games " + a.games, "c1", ["run", "--games", a.games, "--quiet"]),
            ("warm run --games 1e6", "c1", ["run", "--games", "1e6", "--quiet"]),
        ]
        if not a.skip_1e6:
            cases.append(("first run --games 1e6", "c2", ["run", "--games", "1e6", "--quiet"]))
        if not a.skip_compile:
            cases.append(("compile --tests", "c3", ["compile", "--tests"]))
        for i, (name, cache, cmd) in enumerate(cases):
            out = os.path.join(tmp, f"out{i}")
            os.makedirs(out)
            env = dict(
                os.environ,
                NUMBA_CACHE_DIR=os.path.join(tmp, cache),
                PYTHONPATH=os.pathsep.join(filter(None, [REPO, os.environ.get("PYTHONPATH")])),
            )
            wall, cpu, peak = command(cmd, out, env)
            print(f"{name:28s} {wall:8.1f} {cpu:8.1f} {peak:8.0f}", flush=True)


def memory(argv):
    ap = argparse.ArgumentParser(prog="cold.py memory")
    ap.add_argument("--games", nargs="+", default=["1e5", "1e6", "1e7"])
    ap.add_argument("--edition", default="classic")
    ap.add_argument("--tables", default="rounds,spins")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument(
        "--match",
        default="single",
        choices=("single", "race", "lowest"),
        help="race/lowest: --games counts whole matches (run --matches)",
    )
    a = ap.parse_args(argv)
    unit = "rounds" if a.match == "single" else "matches"
    curve = []
    for g in a.games:
        games = int(float(g))
        d = tempfile.mkdtemp(prefix="cold-mem-")
        try:
            size = (
                ["--games", str(games)]
                if a.match == "single"
                else ["--match", a.match, "--matches", str(games)]
            )
            wall, _, peak = command(
                [
                    "run",
                    *size,
                    "--edition",
                    a.edition,
                    "--tables",
                    a.tables,
                    "--threads",
                    str(a.threads),
                    "--quiet",
                    "--out",
                    f"{d}/r",
                ],
                d,
            )
            disk = sum(f.stat().st_size for f in pathlib.Path(d, "r").rglob("*") if f.is_file())
        finally:
            shutil.rmtree(d, ignore_errors=True)
        emit(
            {
                "case": "peak_rss",
                "edition": a.edition,
                "tables": a.tables,
                "match": a.match,
                unit: games,
                "peak_rss_mb": round(peak, 1),
                "wall_s": round(wall, 2),
                "disk_mb": round(disk / 1e6, 2),
                f"disk_mb_per_million_{unit}": round(disk / 1e6 / (games / 1e6), 2),
                "threads": a.threads,
            }
        )
        curve.append((games, round(peak, 1)))
    emit(
        {
            "case": "curve",
            "edition": a.edition,
            "tables": a.tables,
            "match": a.match,
            f"{unit}_to_peak_rss_mb": curve,
        }
    )


#: run in the child of ``compile-profile``: the CLI under a listener of numba's compile events
_PROFILE_CHILD = r"""
import collections, json, sys, time
from numba.core import event
stack, excl, count = [], collections.defaultdict(float), collections.Counter()
class Listener(event.Listener):
    def on_start(self, ev):
        f = ev.data["dispatcher"].py_func
        stack.append([f.__module__ + "." + f.__qualname__, time.perf_counter(), 0.0])
    def on_end(self, ev):
        name, t0, child = stack.pop()
        dt = time.perf_counter() - t0
        excl[name] += dt - child
        count[name] += 1
        if stack:
            stack[-1][2] += dt
event.register("numba:compile", Listener())
from unospin_sim.cli import main
cpu = time.process_time()
rc = main(sys.argv[1:])
print(json.dumps({"cpu_s": time.process_time() - cpu, "functions": {
    k: [round(v, 2), count[k]] for k, v in sorted(excl.items(), key=lambda kv: -kv[1])}}))
sys.exit(rc or 0)
"""


def compile_profile(argv):
    """Where a first command's compile time goes: each engine function's compile time (wall
    s, without the compiles it triggers: callees compiled on its behalf count for
    themselves) and how many signatures, from numba's compile events, in a fresh cache.
    ``--tree`` profiles another checkout; compare two trees' lines function by function."""
    ap = argparse.ArgumentParser(prog="cold.py compile-profile")
    ap.add_argument("--tree", default=REPO, help="the checkout to profile (default: this one)")
    ap.add_argument("--top", type=int, default=15, help="functions listed (default 15)")
    ap.add_argument(
        "args",
        nargs="*",
        default=["run", "--games", "1e4", "--quiet"],
        help="the unospin_sim command (default: run --games 1e4 --quiet)",
    )
    a = ap.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="cold-prof-") as tmp:
        env = dict(
            os.environ,
            NUMBA_CACHE_DIR=os.path.join(tmp, "cache"),
            PYTHONPATH=os.path.abspath(a.tree),
        )
        args = a.args + (["--out", os.path.join(tmp, "r")] if a.args[:1] == ["run"] else [])
        proc = subprocess.run(
            [sys.executable, "-c", _PROFILE_CHILD, *args],
            cwd=tmp,
            env=env,
            capture_output=True,
            text=True,
        )
    if proc.returncode != 0:
        raise SystemExit(f"cold.py compile-profile failed:\n{proc.stderr[-2000:]}")
    prof = json.loads(proc.stdout.strip().splitlines()[-1])
    fns = prof["functions"]
    emit(
        {
            "case": "compile_profile",
            "tree": os.path.abspath(a.tree),
            "command": a.args,
            "cpu_s": round(prof["cpu_s"], 1),
            "compile_s": round(sum(v[0] for v in fns.values()), 1),
            "functions": len(fns),
        }
    )
    for name, (sec, n) in list(fns.items())[: a.top]:
        emit({"function": name, "compile_s": sec, "signatures": n})


WORKLOADS = {"first-run": first_run, "memory": memory, "compile-profile": compile_profile}


def main(argv=None):
    dispatch("cold.py", __doc__, WORKLOADS, argv)


if __name__ == "__main__":
    main()
