#!/usr/bin/env bash
# The designer's answers (issue 27), regenerated: four `design` studies. Each runs into
# $RESULTS/designer/NAME (default results/reports/designer/NAME, with its optuna database);
# its answer files are copied to reports/designer/NAME, then make_index.py writes
# reports/designer/README.md. Called by reports/regenerate.sh; alone:
#   bash reports/designer/run.sh          (DGAMES=2000 bash reports/designer/run.sh to try it)
set -euo pipefail
cd "$(dirname "$0")/../.."
SEED=${SEED:-2026}
R=${RESULTS:-results/reports}
DGAMES=${DGAMES:-10000}        # rounds per screened design (matches for the match metrics)
design() {  # design NAME ARGS...
    local name=$1
    shift
    rm -rf "$R/designer/$name"
    python -m unospin_sim design "$@" --seed "$SEED" --out "$R/designer/$name" --quiet > /dev/null
    mkdir -p "reports/designer/$name"
    for f in design.json designs.csv best.json pareto.png summary.md; do
        cp "$R/designer/$name/$f" "reports/designer/$name/$f"
    done
    # the recommended wheel, which `design` draws (SVG and PNG) with its slot layout as text
    rm -f "reports/designer/$name"/wheel.{png,svg,txt}
    for f in wheel.svg wheel.png wheel.txt; do
        if [[ -f "$R/designer/$name/$f" ]]; then
            cp "$R/designer/$name/$f" "reports/designer/$name/$f"
        fi
    done
}
# the yardstick: 2005's mean round length with random bots and with the robustness field
mkdir -p "$R/designer"
T2005=$(python - "$SEED" "$R/designer/yardstick.json" <<'PY'
import json, sys
from unospin_sim.studies.design.evaluate import measure
from unospin_sim.studies.design.study import ROBUST_BOT
from unospin_sim.rules import RuleSet
seed, n, bot = int(sys.argv[1]), 1_000_000, ROBUST_BOT["spin2005"]
rules = RuleSet.build("spin2005", players=4)
t = measure(rules, ["mean_turns"], n, seed, threads=2).metrics["mean_turns"][0]
r = measure(rules, ["mean_turns"], n, seed, bots=bot, threads=2).metrics["mean_turns"][0]
json.dump({"what": "2005's mean round length (turns, 4 players)", "random": t, "robust": r,
           "robust_bot": bot, "rounds": n, "seed": seed}, open(sys.argv[2], "w"))
print(f"{t:.2f}")
PY
)
# a designer keeps the four Color Draw spaces alike (2025) and Draw Red like Draw Blue (2005)
TIE25=color_draw_red,color_draw_yellow,color_draw_green,color_draw_blue
design turns-as-2005 --edition spin2025 --players 4 --goal "mean_turns=$T2005" \
    --goal min:segments_moved --vary wheel --vary wild_spin_cards --tie "$TIE25" --trials 60 \
    --games "$DGAMES"
cp "$R/designer/yardstick.json" reports/designer/turns-as-2005/yardstick.json
design no-first-player-edge --edition spin2025 --players 4 --goal "first_player_advantage=0±0.2" \
    --goal min:segments_moved --vary wheel --vary wild_spin_cards --tie "$TIE25" --trials 100 \
    --games $((2 * DGAMES))
design length-vs-comebacks --edition spin2025 --players 4 --goal min:mean_turns \
    --goal min:leader_wins_match --vary wheel --tie "$TIE25" --trials 40 --games $((DGAMES / 2)) \
    --stages 5,25
design 2005-comebacks --edition spin2005 --players 4 --goal max:comeback_rate \
    --goal "mean_turns<=50" --vary wheel --tie draw_red,draw_blue --trials 40 \
    --games $((DGAMES / 2)) --stages 5,25
python reports/designer/make_index.py
