"""The information contract: no strategy's decision reads what its seat cannot see.

tests/fairness.py plays real rounds of every edition and of the house rules that show or
move cards, with every strategy seated, the engine as plain Python, and answers each
question again on copies where the hidden cards are dealt again (its docstring says what
is kept); any answer that changes is a violation. docs/BOTS.md "What a seat may know".
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from unospin_sim.engine.policy import IMPLEMENTED, decisions

HARNESS = Path(__file__).resolve().parent / "fairness.py"


def _contract(*args):
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    proc = subprocess.run(
        [sys.executable, str(HARNESS), *args], capture_output=True, text=True, env=env
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout)


def test_no_strategy_reads_a_hidden_card():
    """Every decision of every strategy, in every edition and card-showing house rule, is
    the same on every re-deal of what its seat cannot see; and the harness asked every
    question of every strategy (so a question it never reached cannot pass silently)."""
    out = _contract()
    assert out["n_violations"] == 0, json.dumps(out["violations"][:5], indent=1)
    checked = out["checked"]
    for strategy in IMPLEMENTED:
        question = "search.decide" if strategy == "search" else "choose_card"
        assert checked.get(question, {}).get(strategy, 0) > 20, (strategy, checked)
    for d in decisions.DECISIONS:
        assert sum(checked.get(d.function, {}).values()) > 0, (d.function, sorted(checked))
    for knob in ("bluffs", "challenges", "forgets_uno", "catches"):
        assert sum(checked.get(knob, {}).values()) > 0, knob


@pytest.mark.parametrize(
    "strategy",
    [
        "heuristic",
        *(
            pytest.param(s, marks=[pytest.mark.slow, pytest.mark.expensive])
            for s in IMPLEMENTED
            if s != "heuristic"
        ),
    ],
)
def test_the_contract_catches_a_planted_peek(strategy):
    """A card choice made to draw whenever the next seat holds more than two red cards
    (fairness.plant_peek) is caught, in each strategy module (the expensive tier; heuristic's
    in the default tier, so the harness cannot pass by never comparing)."""
    out = _contract("--cases", "0", "--plant", strategy)
    question = "search.decide" if strategy == "search" else "choose_card"
    assert out["violated"].get(f"{question}/{strategy}", 0) > 0, out["violated"]
