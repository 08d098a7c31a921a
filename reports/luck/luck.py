"""How much is luck, per edition (issue 50 item 3): each edition's drama (how often the
round's winner held the most cards after the first third of the round, and lead changes
per round) and its wheel luck (the segment-weighted standard deviation of the spaces'
effects on the spinner's round-win chance, from paired replays), 4 random players, on two
fresh seeds. Writes luck-4p.csv and prints the table (luck-4p.txt)::

    python reports/luck/luck.py [--games 20000] [--seeds 1,2] [--threads 2]
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

import pandas as pd

from unospin_sim.analysis.luck import wheel_luck
from unospin_sim.run import Execution, replay_spins, simulate
from unospin_sim.run.drama import results_drama

EDITIONS = ("classic", "spin2005", "spin2025", "spiderman")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=20_000, help="rounds per edition and seed")
    ap.add_argument("--seeds", default="1,2")
    ap.add_argument("--threads", type=int, default=2)
    a = ap.parse_args()
    here = Path(__file__).parent
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for seed in (int(s) for s in a.seeds.split(",")):
            for ed in EDITIONS:
                rules = f"{ed}(players=4)"
                out = Path(tmp) / f"{ed}-{seed}"
                ex = Execution(out=out, threads=a.threads, progress=False)
                simulate(rules, "random", games=a.games, seed=seed, execution=ex)
                d = results_drama(out, a.games)["rounds"]
                row = dict(rules=rules, bots="random", seed=seed, rounds=d["n"])
                row |= {k: d[k] for k in ("comeback", "comeback_low", "comeback_high")}
                row |= {k: d[k] for k in ("lead_changes", "lead_changes_low", "lead_changes_high")}
                if ed.startswith("spin"):
                    rep = replay_spins(
                        rules,
                        "random",
                        games=a.games,
                        seed=seed,
                        execution=Execution(threads=a.threads, progress=False),
                    )
                    lk = wheel_luck(rep)
                    row |= dict(
                        wheel_luck=lk["luck"],
                        wheel_luck_low=lk["low"],
                        wheel_luck_high=lk["high"],
                        spins_replayed=lk["spins"],
                    )
                rows.append(row)
    t = pd.DataFrame(rows)
    t.to_csv(here / "luck-4p.csv", index=False)
    lines = [
        "How much is luck: 4 random players, rounds (not matches); 95% intervals",
        "came back: % of rounds whose winner held strictly the most cards after the first "
        "third of its turns",
        "wheel luck: points of the spinner's round-win chance, segment-weighted SD of the "
        "spaces' effects (paired replays)",
        "",
        f"{'rules':22}{'seed':>5}{'rounds':>8}  {'came back (%)':24}{'lead changes':22}"
        "wheel luck (points)",
    ]
    for r in t.itertuples():
        wl = getattr(r, "wheel_luck", float("nan"))
        luck = (
            "no wheel"
            if pd.isna(wl)
            else f"{wl:.2f} [{r.wheel_luck_low:.2f}, {r.wheel_luck_high:.2f}]"
        )
        lines.append(
            f"{r.rules:22}{r.seed:>5}{r.rounds:>8,}  "
            f"{f'{r.comeback:.2f} [{r.comeback_low:.2f}, {r.comeback_high:.2f}]':24}"
            f"{f'{r.lead_changes:.2f} [{r.lead_changes_low:.2f}, {r.lead_changes_high:.2f}]':22}"
            f"{luck}"
        )
    text = "\n".join(lines) + "\n"
    (here / "luck-4p.txt").write_text(text)
    print(text, end="")


if __name__ == "__main__":
    main()
