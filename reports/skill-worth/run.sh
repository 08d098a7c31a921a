#!/usr/bin/env bash
# What each skill is worth to spin_aware, per edition, 2 and 4 players: restricted play
# (python -m unospin_sim worth; docs/BOTS.md "What each skill is worth"). The challenge rate
# of the full bot is chosen on seed 0; seeds 1 and 2 are reported.
set -euo pipefail
cd "$(dirname "$0")"
for players in 2 4; do
    for edition in classic spin2005 spin2025 spiderman; do
        python -m unospin_sim worth --edition "$edition" --players "$players" --games 40000 \
            --seeds 1,2 --tune-seed 0 --threads "${THREADS:-2}" --quiet \
            --out "$edition-${players}p.csv" > "$edition-${players}p.txt"
    done
done
