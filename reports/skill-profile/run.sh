#!/usr/bin/env bash
# The skill profile of each edition at 2 players (python -m unospin_sim skill; issue 50):
# the skill trace (search at 8, 16, 32 rollouts, each doubling against the budget below),
# the strength table (search at 32 and 16, the edition's best cheap strategy, random) and
# the Bradley-Terry rating spread. 20,000 rounds a pairing, seeds 1 and 2 (no seed chose
# any setting here), one thread each: about 5 minutes an edition and seed (20 a seed).
# SEEDS="1" bash run.sh runs one seed; TOP=64 doubles once more (about 3.5 times the time;
# committed for classic: EDITIONS=classic TOP=64 bash run.sh).
# The side-by-side chart draws seed 1's traces.
set -euo pipefail
cd "$(dirname "$0")"
TOP=${TOP:-32}
SUFFIX=$([ "$TOP" = 32 ] || echo "-top$TOP")  # classic-2p-s1, classic-2p-top64-s1
for seed in ${SEEDS:-1 2}; do
    for edition in ${EDITIONS:-classic spiderman spin2005 spin2025}; do
        python -m unospin_sim skill --edition "$edition" --players 2 --top-budget "$TOP" \
            --rounds 20000 --seed "$seed" --threads 1 --quiet --overwrite \
            --out "$edition-2p$SUFFIX-s$seed" > /dev/null
    done
done
if [ "$TOP" = 32 ] && [ -d spin2025-2p-s1 ]; then
    python -m unospin_sim skill --side-by-side classic-2p-s1 spiderman-2p-s1 spin2005-2p-s1 \
        spin2025-2p-s1 --out editions-2p.png
fi
