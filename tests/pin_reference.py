"""Pin reference statistics for the default test tier (``tests/test_reference_pins.py``).

    python tests/pin_reference.py [--rounds N] [--engine-rounds M] [--workers W] [--only REGEX]

For every edition at 2 and 4 players (random bots, the edition's defaults) this plays N rounds
(default 240,000) of the plain-Python reference engine (``unospin_sim.reference``, never the
numba kernel), in W processes, and writes ``tests/pins/reference_stats.json``: per statistic
the reference's mean, standard deviation and round count. The statistics are the ones a rule
bug moves first: mean turns, mean winner points, every seat's win rate and the mean number of
spins landing on each wheel space per round.

The default-tier test plays M engine rounds (default 25,000) per configuration and compares
each statistic with its pin by a two-sample z-score, failing at ``|z| > Z_LIMIT``. N = 240,000
against M = 25,000 makes each pin's standard error sqrt(M / N) = 0.32 of the engine side's, so
the pins add at most 5% to the test's standard error. The file also records each pin's power:
the shift the test detects with probability 0.8 (``shift80``) at that limit.

Reference rounds are drawn from ``reference.round_seed(REF_SEED, g)``; the engine side uses a
different seed, so the two samples are independent. Takes about 7 minutes on 2 cores.
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import datetime as dt
import json
import math
import multiprocessing
import os
import platform
import re
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import crosskit

HERE = Path(__file__).resolve().parent
OUT = HERE / "pins" / "reference_stats.json"
EDITIONS = ("classic", "spin2005", "spin2025", "spiderman")
PLAYERS = (2, 4)
REF_SEED = 20261202
REF_ROUNDS = 240_000
ENGINE_ROUNDS = 25_000
CHUNK = 10_000
Z_LIMIT = 4.0  # two-sided; about 6e-5 per statistic, under 1% over every pin
Z_POWER80 = 0.8416  # the normal quantile of 0.8


def statistics(cols, players):
    """{statistic: per-round numpy array} of one sample ({column: array} as crosskit
    builds it): turns, winner_points, win_<seat> (0/1) and spins_<space>."""
    out = {
        "turns": cols["turns"].astype(float),
        "winner_points": cols["winner_points"].astype(float),
    }
    for seat in range(players):
        out[f"win_{seat}"] = (cols["winner"] == seat).astype(float)
    for k in sorted(cols):
        if k.startswith("spins_"):
            out[k] = cols[k].astype(float)
    return out


def shift80(sd, n_ref, n_engine, z_limit=Z_LIMIT):
    """The difference in means a two-sided z-test at ``|z| > z_limit`` detects with
    probability 0.8, for samples of n_ref and n_engine rounds with standard deviation sd."""
    return (z_limit + Z_POWER80) * sd * math.sqrt(1 / n_ref + 1 / n_engine)


def _git_commit():
    try:
        return subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=HERE, capture_output=True, text=True, check=True
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=REF_ROUNDS)
    ap.add_argument("--engine-rounds", type=int, default=ENGINE_ROUNDS)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--only", default="", help="regex on '<edition>-p<players>'")
    ap.add_argument("--out", type=Path, default=OUT)
    a = ap.parse_args(argv)
    if a.rounds % CHUNK:
        ap.error(f"--rounds must be a multiple of {CHUNK}")

    configs = [(e, p) for e in EDITIONS for p in PLAYERS if re.search(a.only, f"{e}-p{p}")]
    jobs = {
        (e, p): [(e, p, g0, CHUNK, REF_SEED, {}) for g0 in range(0, a.rounds, CHUNK)]
        for e, p in configs
    }
    t0 = time.perf_counter()
    pins = {}
    ctx = multiprocessing.get_context("spawn")
    with cf.ProcessPoolExecutor(a.workers, mp_context=ctx) as pool:
        futures = {
            (e, p): [pool.submit(crosskit.ref_arrays_job, j) for j in js]
            for (e, p), js in jobs.items()
        }
        for (e, p), fs in futures.items():
            cols = crosskit.concat([f.result() for f in fs])
            n = len(cols["turns"])
            assert (cols["winner"] >= 0).all(), f"{e}-p{p}: a reference round did not finish"
            stats = {}
            for k, v in statistics(cols, p).items():
                sd = float(v.std(ddof=1))
                stats[k] = {
                    "mean": float(v.mean()),
                    "sd": sd,
                    "shift80": shift80(sd, n, a.engine_rounds),
                }
            pins[f"{e}-p{p}"] = {"edition": e, "players": p, "rounds": n, "stats": stats}
            print(
                f"{e}-p{p}: {n:,} reference rounds, mean turns "
                f"{stats['turns']['mean']:.3f} (sd {stats['turns']['sd']:.2f}), "
                f"{time.perf_counter() - t0:.0f} s",
                flush=True,
            )

    doc = {
        "about": "Pinned statistics of the plain-Python reference engine (random bots, each "
        "edition's default rules), made by tests/pin_reference.py and checked by "
        "tests/test_reference_pins.py. mean/sd are per round; shift80 is the "
        "difference the test detects with probability 0.8 at |z| > z_limit with "
        "engine_rounds engine rounds.",
        "command": "python tests/pin_reference.py " + " ".join(argv or sys.argv[1:]),
        "made": dt.date.today().isoformat(),
        "commit": _git_commit(),
        "python": platform.python_version(),
        "reference_seed": REF_SEED,
        "engine_rounds": a.engine_rounds,
        "z_limit": Z_LIMIT,
        "configs": pins,
    }
    if a.out.exists() and a.only:  # a partial run updates only its configurations
        old = json.loads(a.out.read_text())
        old["configs"].update(pins)
        doc["configs"] = old["configs"]
    a.out.parent.mkdir(parents=True, exist_ok=True)
    a.out.write_text(json.dumps(doc, indent=1, sort_keys=False) + "\n")
    print(f"wrote {a.out} ({time.perf_counter() - t0:.0f} s)")


if __name__ == "__main__":
    main()
