"""How well a search seat infers the hidden hands: rounds played with ``search`` seats, each
decision measured before it is made (``determinize.deal_quality``), for several levels of
the knob ``infer`` on the same states.

The entry point :func:`measure_inference` is compiled only when called (a run or a
tournament never compiles it); ``unospin_sim.studies.inference_quality.inference_quality`` calls it, and
``benchmarks/inference.py`` prints the figures (docs/BOTS.md).
"""

import numpy as np
from numba import njit

from ..rules.card_codes import N_KINDS
from .chunk import new_state
from .determinize import deal_quality
from .layout import MAX_PLAYERS, R_TURN_CAP, S_CUR, S_TURNS, SEARCH_WORK_ROWS
from .rng import U64, game_seed
from .round import run_round_search, setup_round_default
from .search import decide


@njit(cache=True, nogil=True)
def measure_inference(r, deck, pts, cum, bots, seed, game0, levels, n_deals, out):
    """Play rounds game0 .. game0 + len(out) - 1 of the run seeded ``seed`` (seats as in
    ``bots``, not rotated; every rule set but rlcard) and, at every decision of a search
    seat, before it is made, add ``deal_quality`` of ``n_deals`` deals at each knob level
    ``levels[j]`` into ``out[i, j, :]`` (float64[rounds, len(levels), N_QUALITY]). The
    seats play their own knobs; the deals measured draw on streams of their own, so the
    rounds are those ``play_chunk`` plays from the same seed without rotation."""
    st = new_state(r[R_TURN_CAP], 0)
    sc = new_state(r[R_TURN_CAP], SEARCH_WORK_ROWS)
    cnt = np.zeros((MAX_PLAYERS, N_KINDS), np.int64)
    for i in range(out.shape[0]):
        gs = game_seed(U64(seed), U64(game0 + i))
        setup_round_default(st, r, deck, bots, gs)
        while run_round_search(st, r, deck, pts, cum, bots) == 1:
            p = st.s[S_CUR]
            qseed = game_seed(gs, U64(st.s[S_TURNS] + (1 << 40)))
            for j in range(levels.shape[0]):
                deal_quality(st, sc, r, pts, p, levels[j], n_deals, qseed, cnt, out[i, j])
            decide(st, sc, r, deck, pts, cum, bots)
