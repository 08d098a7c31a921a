#!/usr/bin/env bash
# The deck's numbers, answered (issue "Rules you can write I", item 5): every figure below is
# a `compare` of rule strings played on common seeds, 4 random players, 200,000 rounds each.
#   (a) the hand size at which a 2025 round lasts as long as a 2005 round;
#   (b) the same for classic against 2005;
#   (c) what draw_two_draws=3 and wd4_draws=6 do in classic and 2025, paired against the
#       published numbers.
# Then answers.py reads the JSON and writes README.md beside this script.
# Usage: bash reports/deck-numbers/run.sh   (about 10 minutes on 2 cores)
set -euo pipefail
cd "$(dirname "$0")"
G=${GAMES:-200000}
SEED=${SEED:-48}

python -m unospin_sim compare spin2005 \
    $(for h in 2 3 4 5 6 7; do echo "spin2025(hand_size=$h)"; done) \
    --games "$G" --seed "$SEED" --json --quiet > a_spin2025_vs_2005.json
python -m unospin_sim compare spin2005 \
    $(for h in 4 5 6 7 8; do echo "classic(hand_size=$h)"; done) \
    --games "$G" --seed "$SEED" --json --quiet > b_classic_vs_2005.json
for e in classic spin2025; do
    python -m unospin_sim compare "$e" "$e(draw_two_draws=3)" "$e(wd4_draws=6)" \
        "$e(draw_two_draws=3,wd4_draws=6)" \
        --games "$G" --seed "$SEED" --json --quiet > "c_${e}_penalties.json"
done
python answers.py
