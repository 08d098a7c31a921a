"""Peak RSS of `python -m unospin_sim run` against the number of rounds (one JSON line each).

    python benchmarks/bench_memory.py                      # 1e5, 1e6, 1e7 rounds
    python benchmarks/bench_memory.py --games 1e5 1e6 1e8  # any sizes
    python benchmarks/bench_memory.py --tables none        # the summary-only run

Each run is a child process; its peak RSS is the ru_maxrss that os.wait4 reports for it.
Also prints the disk the results took (bytes per million rounds). The results are deleted.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time


def measure(games: int, edition: str, tables: str, threads: int) -> dict:
    d = tempfile.mkdtemp(prefix="bench-mem-")
    try:
        t0 = time.perf_counter()
        proc = subprocess.Popen([sys.executable, "-m", "unospin_sim", "run", "--games",
                                 str(games), "--edition", edition, "--tables", tables,
                                 "--threads", str(threads), "--quiet", "--out", f"{d}/r"],
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - t0
        if os.waitstatus_to_exitcode(status) != 0:
            raise SystemExit(proc.stderr.read().decode())
        disk = sum(f.stat().st_size for f in __import__("pathlib").Path(d).rglob("*")
                   if f.is_file())
        return {"case": "peak_rss", "edition": edition, "tables": tables, "games": games,
                "peak_rss_mb": round(usage.ru_maxrss / 1024, 1), "wall_s": round(wall, 2),
                "disk_mb": round(disk / 1e6, 2),
                "disk_mb_per_million": round(disk / 1e6 / (games / 1e6), 2),
                "threads": threads}
    finally:
        shutil.rmtree(d, ignore_errors=True)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", nargs="+", default=["1e5", "1e6", "1e7"])
    ap.add_argument("--edition", default="classic")
    ap.add_argument("--tables", default="rounds,spins")
    ap.add_argument("--threads", type=int, default=2)
    a = ap.parse_args(argv)
    curve = []
    for g in a.games:
        row = measure(int(float(g)), a.edition, a.tables, a.threads)
        curve.append((row["games"], row["peak_rss_mb"]))
        print(json.dumps(row), flush=True)
    print(json.dumps({"case": "curve", "edition": a.edition, "tables": a.tables,
                      "games_to_peak_rss_mb": curve}), flush=True)


if __name__ == "__main__":
    main()
