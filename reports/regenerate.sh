#!/usr/bin/env bash
# Regenerate the committed reports (issue 10) from scratch:
#   reports/editions-4p-random/  the four editions side by side, 1,000,000 rounds each,
#                                with the skill section (every strategy, search included,
#                                against random fields)
#   reports/sensitivity-2025/    2005 against the 2025 wheel under every layout and
#                                interpretation option tried: which verdicts hold
#   reports/designer/            the designer's answers (issue 27): four `design` studies
#   notebooks/*.ipynb            re-executed in place at their own defaults, outputs saved
#                                (notebook 01 opens the README's run, made here last)
# Usage: bash reports/regenerate.sh            (GAMES=1e5 bash reports/regenerate.sh to try it)
# The runs go to $RESULTS (default results/reports, the paths the reports quote); about
# 20-40 minutes on 2 cores, and a few more for the notebooks.
set -euo pipefail
cd "$(dirname "$0")/.."
GAMES=${GAMES:-1e6}            # rounds per run
TGAMES=${TGAMES:-20000}        # rounds per tournament pairing
SEED=${SEED:-2026}
R=${RESULTS:-results/reports}
run() {  # run OUT RULES
    python -m unospin_sim run --games "$GAMES" --rules "$2" --seed "$SEED" --out "$R/$1" \
        --overwrite --quiet
}

# the skill ladder: every strategy (search at its default budget) against three random bots;
# no head-to-head pairings (the report's skill section reads only the pairings against random
# fields, and three searching seats would cost most of the time)
LADDER=heuristic,greedy,hoarder,colour_keeper,aggressor,spin_aware,tuned,search
for ed in classic spin2005 spin2025 spiderman; do
    run "$ed" "$ed(players=4)"
    python -m unospin_sim tournament --edition "$ed" --players 4 --games "$TGAMES" \
        --strategies "$LADDER" --no-head-to-head --seed "$SEED" --out "$R/tournament-$ed" \
        --overwrite --quiet > /dev/null
done
# the skill profiles (reports/skill-profile/run.sh, about 20 minutes a seed on one core) and
# the worth tables (reports/skill-worth/run.sh) are read as committed
SP=reports/skill-profile
python -m unospin_sim report "$R/classic" "$R/spin2005" "$R/spin2025" "$R/spiderman" \
    --skill "$R/tournament-classic" "$R/tournament-spin2005" "$R/tournament-spin2025" \
    "$R/tournament-spiderman" "$SP"/{classic,spin2005,spin2025,spiderman}-2p-s{1,2} \
    reports/skill-worth/*-4p.csv --wheel-games 20000 --out reports/editions-4p-random

W='color_draw_red:%s,color_draw_yellow:%s,color_draw_green:%s,color_draw_blue:%s'
run s25-draws-as-one "spin2025(players=4,wheel={$(printf "$W" 0.25 0.25 0.25 0.25),wild_color_draw:1,color_discard:1,swap_hands:1,two_x:1})"
run s25-draws-as-two "spin2025(players=4,wheel={$(printf "$W" 0.5 0.5 0.5 0.5),wild_color_draw:1,color_discard:1,swap_hands:1,two_x:1})"
run s25-2x-swap-doubled "spin2025(players=4,wheel={$(printf "$W" 1 1 1 1),wild_color_draw:1,color_discard:1,swap_hands:2,two_x:2})"
run s25-wild-matches-false "spin2025(players=4,wild_matches_colour=false)"
run s25-wild-stops-true "spin2025(players=4,wild_stops_colour_draw=true)"
python -m unospin_sim report "$R/spin2005" "$R/spin2025" "$R/s25-draws-as-one" \
    "$R/s25-draws-as-two" "$R/s25-2x-swap-doubled" "$R/s25-wild-matches-false" \
    "$R/s25-wild-stops-true" --wheel-games 0 --out reports/sensitivity-2025

# The designer's answers (reports/designer/, about 10 minutes on 2 cores)
SEED="$SEED" RESULTS="$R" bash reports/designer/run.sh

# The notebooks are committed executed (their charts show when browsing the repository).
# First the README's run (spin2025, 4 players, random bots, seed 0), written last so that it
# is the newest results directory, the one notebook 01 opens; then every notebook at its own
# defaults, in notebooks/ as under `jupyter lab notebooks/`.
python -m unospin_sim run --games "$GAMES" --out results/spin2025-p4-s0-regenerate --overwrite \
    --quiet > /dev/null
jupyter nbconvert --to notebook --execute --inplace --ExecutePreprocessor.timeout=7200 \
    --ExecutePreprocessor.record_timing=False notebooks/*.ipynb
