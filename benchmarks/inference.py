"""Inference: how close search's dealt hands come to the hidden ones (issue 28, item 1).

At every decision of a ``search`` seat, before it is made, the seat's determinization is
drawn DEALS times at each level of the knob ``infer`` (0: the colour a draw proves missing;
1: all a draw proves; 2: what earlier draws proved of the cards held then; 3: and a
heuristic seat's last choice replayed on the dealt hand), on the same states, and each
hidden card of the other hands is scored by the chance the deals give its kind in its
seat's hand (``engine/determinize.deal_quality``). Printed per level, in bits per hidden
card: what the deals know over a uniform deal of the unseen cards (``known``: over level
-1, no inference, whose deals are scored the same way, so the estimator's bias at DEALS
deals cancels), and what there is to know (``truth``: a clairvoyant's score over the
uniform deal); ``share`` is known / truth; ``misfits`` counts the hidden hands the
inference excludes (it must be 0: the inference proves only what is true). Rounds as
``play_chunk`` plays them (seats not rotated), seeded (``unospin_sim.studies.inference_quality``)::

    python benchmarks/inference.py RULES BOTS ROUNDS [--seed 1] [--deals 256] [--levels 0,1,2,3]
    python benchmarks/inference.py "classic(players=2)" "search,heuristic" 300
"""

from __future__ import annotations

import argparse
import time


def main(argv=None) -> None:
    from unospin_sim.bots import parse_bots
    from unospin_sim.rules import parse_rules
    from unospin_sim.studies.inference_quality import inference_quality, inference_table

    ap = argparse.ArgumentParser(prog="inference.py", description=__doc__.split("\n")[0])
    ap.add_argument("rules")
    ap.add_argument("bots")
    ap.add_argument("rounds", type=int)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--deals", type=int, default=256)
    ap.add_argument("--levels", default="0,1,2,3")
    a = ap.parse_args(argv)
    t0 = time.perf_counter()
    try:  # bad input: one line and exit 2, as the package's CLI does
        rules = parse_rules(a.rules)
        bots = parse_bots(a.bots, rules.players)
        levels = (-1,) + tuple(int(x) for x in a.levels.split(",") if int(x) != -1)
        out = inference_quality(rules, bots, a.rounds, seed=a.seed, levels=levels, deals=a.deals)
    except ValueError as e:  # errors.UserError is a ValueError
        ap.exit(2, f"inference.py: error: {e}\n")
    dt = time.perf_counter() - t0
    t = inference_table(out, levels)
    print(
        f"{a.rules} {a.bots}: {a.rounds} rounds, seed {a.seed}, "
        f"{int(t['decisions'].iloc[0])} search decisions, {int(t['cards'].iloc[0])} hidden cards "
        f"scored, {a.deals} deals a level ({dt:.1f} s)"
    )
    print("| infer | known (bits/card) | se | truth (bits/card) | share | misfits |")
    print("|---|---|---|---|---|---|")
    for lv, r in t.iterrows():
        print(
            f"| {lv} | {r.known:.4f} | {r.se:.4f} | {r.truth:.4f} | {r.share:.1%} "
            f"| {int(r.misfits)} |"
        )


if __name__ == "__main__":
    main()
