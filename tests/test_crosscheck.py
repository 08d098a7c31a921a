"""The numba engine against the independent plain-Python reference (unospin_sim.reference).

Both implement RULINGS.md separately; their distributions of outcomes must agree.
Tolerance: |z| < 4.5 for every compared mean (two-sample z-score, fixed seeds), i.e. a
false alarm about once in 150,000 comparisons; a rule difference that moves a mean by a
few percent shows up as |z| >> 5 at these sample sizes.
"""

import numpy as np
import pytest

from unospin_sim import reference
from unospin_sim.runner import simulate

Z_MAX = 4.5
REF_GAMES = 2500
ENGINE_GAMES = 40_000


def _z(a, b):
    a = np.asarray(a, float)
    b = np.asarray(b, float)
    se = np.sqrt(a.var(ddof=1) / len(a) + b.var(ddof=1) / len(b))
    if se == 0:
        return 0.0 if a.mean() == b.mean() else np.inf
    return (a.mean() - b.mean()) / se


@pytest.mark.slow
@pytest.mark.parametrize("edition", ["classic", "spin2005", "spin2025", "spiderman"])
@pytest.mark.parametrize("players", [2, 4])
def test_engine_agrees_with_reference(edition, players):
    eng = simulate(f"{edition}(players={players})", "random", games=ENGINE_GAMES, seed=21,
                   threads=2)
    ref_rounds, ref_spins = reference.play_many_spins(edition, players, REF_GAMES, 22)
    e, r = eng.rounds, ref_rounds
    checks = {col: _z(e[col], r[col]) for col in
              ("turns", "winner_points", "cards_drawn", "spins", "failed_draws")}
    for seat in range(players):
        checks[f"win_{seat}"] = _z(e.winner == seat, r.winner == seat)
        checks[f"cards_left_{seat}"] = _z(e[f"cards_left_{seat}"], r[f"cards_left_{seat}"])
    # per-space spinner statistics: frequency per round and the hand-size change
    if len(eng.spins):
        es, rs = eng.spins, ref_spins
        for space in es.space.cat.categories:
            checks[f"spins_{space}"] = _z(e[f"spins_{space}"], r[f"spins_{space}"])
            ed = es[es.space == space]
            rd = rs[rs.space == space]
            if len(rd) > 30:
                checks[f"delta_{space}"] = _z(ed.hand_after - ed.hand_before,
                                              rd.hand_after - rd.hand_before)
    bad = {k: round(v, 2) for k, v in checks.items() if abs(v) > Z_MAX}
    assert not bad, f"{edition} p{players}: engine and reference disagree: {bad}"


@pytest.mark.slow
def test_engine_agrees_with_reference_with_knobs():
    """UNO forget/catch and challenges (random strategy plus knobs)."""
    knobs = dict(forget=0.5, catch=0.5, challenge=0.3, bluff=0.0, reflex=1.0)
    bots = ",".join(["random(forget=0.5,catch=0.5,challenge=0.3)"] * 4)
    eng = simulate("classic(players=4)", bots, games=ENGINE_GAMES, seed=23, threads=2)
    ref = reference.play_many("classic", 4, REF_GAMES, 24, bots=[knobs] * 4)
    for col in ("turns", "winner_points", "cards_drawn"):
        z = _z(eng.rounds[col], ref[col])
        assert abs(z) < Z_MAX, (col, z)
