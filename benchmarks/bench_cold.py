"""The cold path: what a newcomer's first command costs, compile included, and a warm rerun.

Each case runs as a fresh process with an empty compiled cache (its own ``NUMBA_CACHE_DIR``
in a temporary directory), as after a fresh clone, and prints wall time, CPU time (user +
system, of the process and its children) and peak memory (the largest resident set)::

    python benchmarks/bench_cold.py                 # the issue's targets, below
    python benchmarks/bench_cold.py --games 1e5     # another size for the first run

Cases:

- ``first run --games 1e5``: ``python -m unospin_sim run --games 1e5`` (spin2025 defaults)
  with an empty cache. Target: <= 150 s of CPU, <= 2 GB peak.
- ``warm run --games 1e6``: the README's first command with the cache filled by the first
  run (the compiled code is loaded, not compiled).
- ``first run --games 1e6``: the README's first command with an empty cache. Target: <= 150 s
  of wall time, compile included.
- ``compile --tests``: ``python -m unospin_sim compile --tests`` with an empty cache (what
  ``.ci/run`` pays first).

Run it on an otherwise idle machine: a second compile beside it slows both (2 cores).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def measure(argv, cache_dir, out_dir):
    """(wall s, CPU s, peak MB) of ``python -m unospin_sim ARGV`` in ``out_dir`` with the
    compiled cache at ``cache_dir`` (os.wait4: this child's own resource usage)."""
    env = dict(os.environ, NUMBA_CACHE_DIR=cache_dir,
               PYTHONPATH=os.pathsep.join(filter(None, [REPO, os.environ.get("PYTHONPATH")])))
    with open(os.path.join(out_dir, "stderr.txt"), "w+") as err:
        t = time.perf_counter()
        proc = subprocess.Popen([sys.executable, "-m", "unospin_sim", *argv], cwd=out_dir,
                                env=env, stdout=subprocess.DEVNULL, stderr=err)
        _, status, ru = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - t
        proc.returncode = os.waitstatus_to_exitcode(status)
        if proc.returncode != 0:
            err.seek(0)
            raise SystemExit(f"bench_cold: {' '.join(argv)} failed:\n{err.read()[-2000:]}")
    return wall, ru.ru_utime + ru.ru_stime, ru.ru_maxrss / 1024


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", default="1e5", help="rounds of the first run (default 1e5)")
    ap.add_argument("--skip-1e6", action="store_true", help="leave out the 1e6 first run")
    ap.add_argument("--skip-compile", action="store_true", help="leave out compile --tests")
    a = ap.parse_args()
    print(f"{'case':28s} {'wall s':>8s} {'CPU s':>8s} {'peak MB':>8s}")
    with tempfile.TemporaryDirectory(prefix="bench_cold-") as tmp:
        cases = [("first run --games " + a.games, "c1", ["run", "--games", a.games, "--quiet"]),
                 ("warm run --games 1e6", "c1", ["run", "--games", "1e6", "--quiet"])]
        if not a.skip_1e6:
            cases.append(("first run --games 1e6", "c2", ["run", "--games", "1e6", "--quiet"]))
        if not a.skip_compile:
            cases.append(("compile --tests", "c3", ["compile", "--tests"]))
        for i, (name, cache, argv) in enumerate(cases):
            out = os.path.join(tmp, f"out{i}")
            os.makedirs(out)
            wall, cpu, peak = measure(argv, os.path.join(tmp, cache), out)
            print(f"{name:28s} {wall:8.1f} {cpu:8.1f} {peak:8.0f}", flush=True)


if __name__ == "__main__":
    main()
