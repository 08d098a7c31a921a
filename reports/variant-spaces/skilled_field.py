"""The recommended design of turns-as-2005/ played by a skilled field, every seat
``spin_aware``: the design's robustness check (best.json ``robustness``) again, with the
bots of this tree, so that the figure follows the bots when they change (README.md).

Usage: python reports/variant-spaces/skilled_field.py [--games 1000000]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np

from unospin_sim.rules import variants as V
from unospin_sim.rules.variant_text import with_step_number
from unospin_sim.run import Execution, simulate

HERE = Path(__file__).resolve().parent


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1_000_000, help="rounds (default 1000000)")
    ap.add_argument("--threads", type=int, default=1)
    ns = ap.parse_args()
    best = json.loads((HERE / "turns-as-2005" / "best.json").read_text())
    variant = V.load_variant(
        HERE.parent.parent / "examples" / "variants" / "spin2025_plus_two.toml"
    )
    for name, n in best["steps"].items():  # the designer's step numbers: the same variant
        space, kind = name.split(".")
        variant = with_step_number(variant, space, kind, n)
    rob = best["robustness"]
    res = simulate(
        best["rules"],
        rob["bots"],
        games=ns.games,
        seed=best["seed"],
        execution=Execution(threads=ns.threads),
    )
    turns = res.to_df()["turns"].to_numpy(float)
    m = turns.mean()
    h = 1.96 * turns.std(ddof=1) / np.sqrt(len(turns))
    print(f"{best['rules']}")
    print(f"bots {rob['bots']}, {ns.games:,} rounds, seed {best['seed']}")
    print(f"mean round length {m:.2f} [{m - h:.2f}, {m + h:.2f}] turns")
    was = rob["metrics"]["mean_turns"]
    print(
        f"best.json (the bots of the design's run): {was['value']:.2f} [{was['low']:.2f}, {was['high']:.2f}]"
    )


if __name__ == "__main__":
    main()
