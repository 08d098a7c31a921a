"""The numba engine against statistics pinned from a large run of the reference engine.

``tests/pins/reference_stats.json`` holds, for every edition at 2 and 4 players (random bots,
default rules), the mean and standard deviation per round of mean turns, winner points, each
seat's win rate and the spins landing on each wheel space, from 240,000 rounds of the
plain-Python reference engine (``unospin_sim.reference``; never the kernel) made by
``python tests/pin_reference.py``. Here the engine plays 25,000 rounds per configuration
(200,000 in all, about a second once compiled) and every statistic must lie within
``|z| <= 4`` of its pin (two-sample z-score; a false alarm about once in 16,000 comparisons,
and the seeds are fixed). Each pin's standard error is 0.32 of the engine side's, so the
test's power is nearly that of an exact pin: the file's ``shift80`` gives, per statistic, the
difference detected with probability 0.8 (e.g. classic at 4 players: 0.8 turns on a mean of
50, and 1.4 points of a seat's win rate; docs/TESTING.md has the table). This is the
default tier's statistical check; the powered cross-check of every rule option is
``tests/crosscheck_powered.py``.
"""

import json
import math
from pathlib import Path

import crosskit
import numpy as np
import pin_reference
import pytest

from unospin_sim.rules.options import ALL_EDITIONS
from unospin_sim.run import Execution, simulate

PINS = json.loads((Path(__file__).parent / "pins" / "reference_stats.json").read_text())
ENGINE_SEED = 4242


def test_pins_cover_every_edition_and_are_precise_enough():
    """A pin for every edition at 2 and 4 players, with each statistic's standard error at
    most a third of the engine side's (same standard deviation on both sides)."""
    assert {(c["edition"], c["players"]) for c in PINS["configs"].values()} == {
        (e, p) for e in ALL_EDITIONS for p in (2, 4)
    }
    m = PINS["engine_rounds"]
    for name, c in PINS["configs"].items():
        assert math.sqrt(1 / c["rounds"]) <= math.sqrt(1 / m) / 3, name
        assert {"turns", "winner_points"} <= set(c["stats"]), name
        assert {f"win_{s}" for s in range(c["players"])} <= set(c["stats"]), name
        wins = sum(c["stats"][f"win_{s}"]["mean"] for s in range(c["players"]))
        assert wins == pytest.approx(1.0, abs=1e-9), f"{name}: every reference round has a winner"


@pytest.mark.parametrize("name", sorted(PINS["configs"]))
def test_engine_matches_reference_pins(name):
    pin = PINS["configs"][name]
    edition, players, m = pin["edition"], pin["players"], PINS["engine_rounds"]
    res = simulate(
        f"{edition}(players={players})",
        "random",
        games=m,
        seed=ENGINE_SEED,
        execution=Execution(threads=2),
    )
    eng = pin_reference.statistics(crosskit.engine_arrays(res.rounds, players), players)
    assert set(eng) == set(pin["stats"]), f"{name}: the engine's statistics differ in kind"
    bad = {}
    for stat, ref in pin["stats"].items():
        x = eng[stat]
        se = math.sqrt(x.var(ddof=1) / len(x) + ref["sd"] ** 2 / pin["rounds"])
        z = (x.mean() - ref["mean"]) / se if se else (0.0 if x.mean() == ref["mean"] else np.inf)
        if abs(z) > PINS["z_limit"]:
            bad[stat] = f"engine {x.mean():.4f} vs pinned {ref['mean']:.4f} (z = {z:+.1f})"
    assert not bad, f"{name}: the engine departs from the reference's pinned statistics: {bad}"
