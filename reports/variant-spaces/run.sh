#!/usr/bin/env bash
# Issue 51's answers on variant spaces, regenerated (reports/variant-spaces/README.md):
#   effects-2025/   (and effects-2025.txt, what `wheel` printed) the absolute effect of every space of examples/variants/spin2025_plus_two.toml
#                   (the 2025 wheel with everyone_draws_one and give_away) on the spinner and
#                   on the others, by paired replays against a blank space (`wheel`)
#   effects-2005/   give_away on the 2005 wheel (examples/variants/give_away.toml), likewise
#   turns-as-2005/  a design study whose candidate spaces include both: the 2025 wheel that
#                   plays 2005's round length with the fewest segments moved
#   skilled-field.txt  the recommended design with every seat spin_aware (skilled_field.py)
# Usage: bash reports/variant-spaces/run.sh   (WGAMES=4000 DGAMES=2000 ... to try it)
set -euo pipefail
cd "$(dirname "$0")/../.."
SEED=${SEED:-2026}
R=${RESULTS:-results/reports}
WGAMES=${WGAMES:-40000}        # rounds whose spins are replayed once per space
DGAMES=${DGAMES:-10000}        # rounds per screened design
OUT=reports/variant-spaces
EX=examples/variants
effects() {  # effects NAME VARIANT
    rm -rf "${OUT:?}/$1" "$OUT/$1".txt "$OUT/$1"-wheel.*
    python -m unospin_sim wheel --variant "$2" --games "$WGAMES" --seed "$SEED" \
        --out "$OUT/$1" --draw "$OUT/$1-wheel" > "$OUT/$1.txt"
}
effects effects-2025 "$EX/spin2025_plus_two.toml"
effects effects-2005 "$EX/give_away.toml"

# 2005's mean round length with random bots, as the designer's own study measured it
T2005=$(python -c "import json; print(json.load(open('reports/designer/turns-as-2005/yardstick.json'))['random'])")
rm -rf "$R/variant-spaces/turns-as-2005"
python -m unospin_sim design --edition spin2025 --players 4 \
    --variant "$EX/spin2025_plus_two.toml" --goal "mean_turns=$T2005" --goal min:segments_moved \
    --vary wheel --vary space:everyone_draws_one.draw=1:2 \
    --tie color_draw_red,color_draw_yellow,color_draw_green,color_draw_blue --trials 60 \
    --games "$DGAMES" --seed "$SEED" --out "$R/variant-spaces/turns-as-2005" --quiet \
    > /dev/null
mkdir -p "$OUT/turns-as-2005"
for f in design.json designs.csv best.json pareto.png summary.md wheel.svg wheel.png wheel.txt; do
    if [[ -f "$R/variant-spaces/turns-as-2005/$f" ]]; then
        cp "$R/variant-spaces/turns-as-2005/$f" "$OUT/turns-as-2005/$f"
    fi
done

# the recommended design with a skilled field, with the bots of this tree
python reports/variant-spaces/skilled_field.py > "$OUT/skilled-field.txt"
