"""The designer's speed (issue 27): the example study of docs/DESIGN.md, screening and the later
stages timed apart (median over repeats; JIT cache warm; one JSON line per repeat, then the
medians).

    python benchmarks/bench_design.py                  # 40 trials x 10,000 rounds, 3 repeats
    python benchmarks/bench_design.py --quick          # 10 trials x 2,000 rounds, 1 repeat

Goal: the 40 screening trials of 10,000 rounds take at most 60 s on 2 cores after the
compile (the per-trial overhead, not the engine, is what to keep small).
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
from pathlib import Path


def one(trials: int, games: int, seed: int, stages: list[int]) -> dict:
    from unospin_sim.design import DesignSpec, run_design
    with tempfile.TemporaryDirectory() as d:
        spec = DesignSpec("spin2025", 4, goals=["mean_turns=50"], vary=["wheel"],
                          trials=trials, games=games, seed=seed, stages=stages)
        answer = run_design(spec, Path(d) / "study", progress=False)
        t = json.loads((Path(d) / "study" / "timings.json").read_text())
    t.update(trials=trials, games=games, seed=seed, rules=answer["rules"],
             per_trial_seconds=round(t["screening_seconds"] / trials, 4))
    return t


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--trials", type=int, default=40)
    ap.add_argument("--games", type=int, default=10_000)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--quick", action="store_true")
    a = ap.parse_args()
    if a.quick:
        a.trials, a.games, a.repeats = 10, 2000, 1
    from unospin_sim.design.evaluate import measure
    from unospin_sim.rules import RuleSet
    measure(RuleSet.build("spin2025"), ["mean_turns"], 100, 0)  # load the compiled loop
    rows = []
    for i in range(a.repeats):
        rows.append(one(a.trials, a.games, 3 + i, [10, 100]))
        print(json.dumps(rows[-1]), flush=True)
    med = {k: statistics.median(r[k] for r in rows) for k in
           ("screening_seconds", "per_trial_seconds", "refine_seconds", "confirm_seconds",
            "robustness_seconds")}
    print(json.dumps({"median_over": a.repeats, **med}))


if __name__ == "__main__":
    main()
