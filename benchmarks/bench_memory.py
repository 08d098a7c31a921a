"""Peak RSS of `python -m unospin_sim run` against the number of rounds (one JSON line each).

    python benchmarks/bench_memory.py                      # 1e5, 1e6, 1e7 rounds
    python benchmarks/bench_memory.py --games 1e5 1e6 1e8  # any sizes
    python benchmarks/bench_memory.py --tables none        # the summary-only run

Each run is a child process; its peak RSS is the ru_maxrss that os.wait4 reports for it.
Also prints the disk the results took (bytes per million rounds). The results are deleted.

Measured 2026-12-01 on the shared 2-core machine (load average 3-4), 2 threads, 4 random
players (issue 11; target: peak <= 500 MB whatever --games is):

    python benchmarks/bench_memory.py --games 1e6 1e7 1e8
        classic rounds,spins   1e6 341.2 MB   1e7 338.0 MB   1e8 350.1 MB (621 s)
        disk 22.0 MB per million rounds (1e8: 2.2 GB)
    python benchmarks/bench_memory.py --edition spin2025 --tables T --games 1e6 1e7
        T=rounds,spins  1e6 392.7 MB   1e7 464.0 MB   disk 117.9 MB per million
        T=rounds        1e6 344.9 MB   1e7 370.1 MB   disk 31.8 MB per million
        T=none          1e6 304.7 MB   1e7 313.6 MB   disk 40 kB in all at 1e7

Later on 2026-12-01 (spin parts encoded batch by batch, match mode in batches of
runner.MATCH_BATCH matches), load average 3-5:

    python benchmarks/bench_memory.py --edition spin2025 --games 1e6 1e7
        rounds,spins  1e6 374.1 MB   1e7 402.9 MB   disk 118.0 MB per million rounds
    python benchmarks/bench_memory.py --edition spin2025 --match race --games 1e5 3e5
        (matches; about 3.3 rounds a match) 352.7 MB, 383.1 MB (before the match batches
        425.6 MB, 616.1 MB); disk 435 MB per million matches

Before the chunks were played in kernel batches (runner.KERNEL_BATCH) and the parts written
DELTA_BINARY_PACKED, spin2025 1e6 took 537.5 MB (rounds,spins; 134.1 MB of disk per
million), 513.4 MB (rounds; 39.8 MB per million), 443.5 MB (none); classic took 29 MB of
disk per million. The peak is set by the chunk size (65,536 from 4.2e6 rounds on), not by
the number of rounds.

1e8 rounds of spin2025 (rounds,spins), niced beside other work, 2026-12-01:

    python benchmarks/bench_memory.py --edition spin2025 --games 1e8
        1e8 418.2 MB (2,496 s wall), disk 11.8 GB (118.1 MB per million rounds)
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


def measure(games: int, edition: str, tables: str, threads: int, match: str = "single") -> dict:
    d = tempfile.mkdtemp(prefix="bench-mem-")
    try:
        t0 = time.perf_counter()
        size = (["--games", str(games)] if match == "single" else
                ["--match", match, "--matches", str(games)])
        proc = subprocess.Popen([sys.executable, "-m", "unospin_sim", "run", *size,
                                 "--edition", edition, "--tables", tables,
                                 "--threads", str(threads), "--quiet", "--out", f"{d}/r"],
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - t0
        if os.waitstatus_to_exitcode(status) != 0:
            raise SystemExit(proc.stderr.read().decode())
        disk = sum(f.stat().st_size for f in __import__("pathlib").Path(d).rglob("*")
                   if f.is_file())
        unit = "rounds" if match == "single" else "matches"
        return {"case": "peak_rss", "edition": edition, "tables": tables, "match": match,
                "games": games, "unit": unit,
                "peak_rss_mb": round(usage.ru_maxrss / 1024, 1), "wall_s": round(wall, 2),
                "disk_mb": round(disk / 1e6, 2),
                f"disk_mb_per_million_{unit}": round(disk / 1e6 / (games / 1e6), 2),
                "threads": threads}
    finally:
        shutil.rmtree(d, ignore_errors=True)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", nargs="+", default=["1e5", "1e6", "1e7"])
    ap.add_argument("--edition", default="classic")
    ap.add_argument("--tables", default="rounds,spins")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--match", default="single", choices=("single", "race", "lowest"),
                    help="race/lowest: --games counts whole matches (run --matches)")
    a = ap.parse_args(argv)
    curve = []
    for g in a.games:
        row = measure(int(float(g)), a.edition, a.tables, a.threads, a.match)
        curve.append((row["games"], row["peak_rss_mb"]))
        print(json.dumps(row), flush=True)
    print(json.dumps({"case": "curve", "edition": a.edition, "tables": a.tables,
                      "match": a.match,
                      "games_to_peak_rss_mb": curve}), flush=True)


if __name__ == "__main__":
    main()
