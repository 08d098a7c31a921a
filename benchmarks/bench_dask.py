"""One process against a local Dask cluster of process workers (issue 11): rounds/s of
``simulate(..., out=DIR, keep=False)`` with threads, and with ``client=`` a
``LocalCluster(processes=True, n_workers=W, threads_per_worker=1)`` whose workers write
their own parts into DIR.

    python benchmarks/bench_dask.py                      # 1e6 classic rounds, 2 workers
    python benchmarks/bench_dask.py --games 4e6 --rules "spin2005(players=4)" --workers 2

The cluster is started once, and every worker compiles or loads the kernel in a warm-up run
before timing. Medians over ``--repeats`` interleaved repeats; the ratio is dask / threads.
On one 2-core machine the cluster can at best match the threads (it adds process start-up,
pickling of the manifest lines and scheduling); the figure to read is how close it comes, as
the price of being able to add machines.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rules", default="classic(players=4)")
    ap.add_argument("--bots", default="random")
    ap.add_argument("--games", type=float, default=1e6)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--threads", type=int, default=2, help="threads of the one-process run")
    ap.add_argument("--repeats", type=int, default=3)
    a = ap.parse_args(argv)
    games = int(a.games)

    import distributed

    from unospin_sim.runner import simulate

    chunk = int(min(65536, max(1024, games // (a.threads * 16) + 1)))
    simulate(a.rules, a.bots, 1000, 0, threads=1)  # compile or load here
    with distributed.LocalCluster(processes=True, n_workers=a.workers, threads_per_worker=1,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        with tempfile.TemporaryDirectory() as d:  # every worker loads the kernel once
            simulate(a.rules, a.bots, 4 * a.workers * 64, 0, chunk_size=64, client=client,
                     out=f"{d}/w", keep=False)
        times = {"threads": [], "dask": []}
        for rep in range(a.repeats):
            for how in (("threads", "dask") if rep % 2 == 0 else ("dask", "threads")):
                with tempfile.TemporaryDirectory() as d:
                    t0 = time.perf_counter()
                    simulate(a.rules, a.bots, games, 100 + rep, threads=a.threads,
                             chunk_size=chunk, out=f"{d}/r", keep=False,
                             client=client if how == "dask" else None)
                    times[how].append(time.perf_counter() - t0)
    med = {k: statistics.median(v) for k, v in times.items()}
    for k, sec in med.items():
        print(json.dumps({"how": k, "rules": a.rules, "games": games,
                          "workers" if k == "dask" else "threads":
                              a.workers if k == "dask" else a.threads,
                          "seconds_median": round(sec, 3), "rounds_per_s": round(games / sec),
                          "repeats": a.repeats}), flush=True)
    print(json.dumps({"dask/threads (speed)": round(med["threads"] / med["dask"], 3)}))


if __name__ == "__main__":
    main()
