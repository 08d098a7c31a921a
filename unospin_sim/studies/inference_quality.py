"""How well ``search`` infers the hands it cannot see (issue 28): at every decision of a
search seat, its determinization scored against the true hands, per level of its knob
``infer`` on the same states (``engine/determinize.deal_quality``, played by
``engine/inference.measure_inference``).

>>> from unospin_sim.bots import parse_bots
>>> from unospin_sim.rules import parse_rules
>>> rules = parse_rules("classic(players=2)")
>>> out = inference_quality(rules, parse_bots("search,heuristic", 2), 50)  # doctest: +SKIP
>>> inference_table(out, (-1, 0, 1, 2, 3))  # doctest: +SKIP
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..bots import B_STRATEGY, STRATEGY_SEARCH, bots_array
from ..engine.determinize import (
    N_QUALITY,
    Q_CARDS,
    Q_DEALT,
    Q_DECISIONS,
    Q_MISFITS,
    Q_TRUTH,
    Q_UNIFORM,
)
from ..engine.encode import encode
from ..engine.inference import measure_inference
from ..engine.layout import R_RLCARD

__all__ = ["LEVELS", "inference_quality", "inference_table"]

#: the levels measured by default: -1 (no inference: a uniform deal, the yardstick) and the
#: knob's 0 to 3
LEVELS = (-1, 0, 1, 2, 3)


def inference_quality(rules, bots, rounds, seed=1, levels=LEVELS, deals=64):
    """Measure search's inference on ``rounds`` rounds.

    Parameters
    ----------
    rules : RuleSet
        A parsed rule set (``rules.parse_rules``); not the rlcard rules.
    bots : sequence of BotSpec
        One per seat (``bots.parse_bots``), at least one ``search`` seat; seats are not
        rotated.
    rounds : int
        Rounds to play, at least 1 (the kernel seeded ``seed``, as ``play_chunk`` plays them).
    levels : sequence of int
        Knob levels to score at every decision, each -1 (none: a uniform deal) to 3.
    deals : int
        Determinizations a level at each decision, at least 1.

    Returns
    -------
    numpy.ndarray
        float64[rounds, len(levels), N_QUALITY]: per round and level the sums Q_DECISIONS,
        Q_CARDS, Q_UNIFORM, Q_DEALT, Q_TRUTH, Q_MISFITS (``engine/determinize.deal_quality``).
    """
    if rounds < 1 or deals < 1:
        raise ValueError(f"rounds and deals must be at least 1, got {rounds} and {deals}")
    if any(not -1 <= lv <= 3 for lv in levels):
        raise ValueError(f"infer levels are -1 (none: a uniform deal) to 3, got {list(levels)}")
    if not (bots_array(bots)[:, B_STRATEGY] == STRATEGY_SEARCH).any():
        raise ValueError("no search seat: nothing to measure")
    ki = encode(rules, bots)
    if ki.rules[R_RLCARD]:
        raise ValueError("the rlcard rules have no search decisions")
    out = np.zeros((rounds, len(levels), N_QUALITY), np.float64)
    measure_inference(
        *ki.args(), np.int64(seed), np.int64(0), np.asarray(levels, np.int64), np.int64(deals), out
    )
    return out


def inference_table(out, levels) -> pd.DataFrame:
    """One row per level of ``inference_quality``'s result (``levels`` as measured; the
    first must be -1, the uniform deal): ``known`` (bits per hidden card over the uniform
    deal scored the same way, so the estimator's downward bias at a finite number of deals
    cancels) with its standard error over rounds (a ratio estimator), ``truth`` (what a
    clairvoyant knows over the uniform deal), ``share`` (known / truth), ``misfits`` (true
    hands the inference excludes: 0 when it is sound), and the counts."""
    if not levels or levels[0] != -1:
        raise ValueError("the first level must be -1 (the uniform deal known is measured over)")
    tot = out.sum(axis=0)
    cards = out[:, 0, Q_CARDS]
    m = cards > 0
    rows = []
    for j, lv in enumerate(levels):
        known = out[:, j, Q_DEALT] - out[:, 0, Q_DEALT]
        k = known.sum() / cards.sum()
        resid = known[m] - k * cards[m]
        se = np.sqrt((resid**2).sum() * m.sum() / max(m.sum() - 1, 1)) / cards.sum()
        t = (tot[j, Q_TRUTH] - tot[j, Q_UNIFORM]) / cards.sum()
        rows.append(
            {
                "infer": lv,
                "known": k,
                "se": se,
                "truth": t,
                "share": k / t,
                "misfits": int(tot[j, Q_MISFITS]),
                "decisions": int(tot[j, Q_DECISIONS]),
                "cards": int(tot[j, Q_CARDS]),
            }
        )
    return pd.DataFrame(rows).set_index("infer")
