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


#: the harness's cases (fairness.CASES) in two halves of about equal cost, run side by side
#: (the engine as plain Python uses one core; CI's machine has two)
HALVES = ("0,1,2,8,9", "3,4,5,6,7,10")


def _start(*args):
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    return subprocess.Popen(
        [sys.executable, str(HARNESS), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )


def _finish(proc):
    out, err = proc.communicate()
    assert proc.returncode == 0, err[-3000:]
    return json.loads(out)


def _contract(*args):
    return _finish(_start(*args))


def _merged(reports):
    """One report of the harness from the reports of disjoint sets of cases."""
    out = {"checked": {}, "n_violations": 0, "violated": {}, "violations": []}
    for rep in reports:
        for question, per in rep["checked"].items():
            for strategy, n in per.items():
                into = out["checked"].setdefault(question, {})
                into[strategy] = into.get(strategy, 0) + n
        for key, n in rep["violated"].items():
            out["violated"][key] = out["violated"].get(key, 0) + n
        out["n_violations"] += rep["n_violations"]
        out["violations"] += rep["violations"]
    return out


def test_halves_cover_every_case():
    from fairness import CASES

    picked = sorted(int(i) for half in HALVES for i in half.split(","))
    assert picked == list(range(len(CASES)))


@pytest.mark.slow  # every case, the engine as plain Python: ~20 s of CPU per half
def test_no_strategy_reads_a_hidden_card():
    """Every decision of every strategy, in every edition and card-showing house rule, is
    the same on every re-deal of what its seat cannot see; and the harness asked every
    question of every strategy (so a question it never reached cannot pass silently)."""
    procs = [_start("--cases", half) for half in HALVES]
    out = _merged([_finish(p) for p in procs])
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
    in the default tier, so the harness cannot pass by never comparing), and only there:
    the classic case seats every strategy, and no other question of any seat changes on a
    re-deal (the default tier's share of the contract; every case in the slow tier)."""
    out = _contract("--cases", "0", "--plant", strategy)
    question = "search.decide" if strategy == "search" else "choose_card"
    assert out["violated"].get(f"{question}/{strategy}", 0) > 0, out["violated"]
    assert set(out["violated"]) == {f"{question}/{strategy}"}, out["violated"]
