"""The compile command and the per-loop entry points (issue "Light": compile once)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from conftest import REPO

from unospin_sim import cli
from unospin_sim.bots import parse_bots
from unospin_sim.engine import kernel as K
from unospin_sim.engine.encode import encode
from unospin_sim.rules import parse_rules


@pytest.mark.parametrize(
    "rules, bots, loop",
    [
        ("classic(players=4)", "random", "default"),
        ("spin2025(players=3)", "heuristic,random,greedy", "default"),
        ("classic(players=4,stacking=true)", "random", "house"),
        ("spin2005(players=4,jump_in=true)", "heuristic", "house"),
        ("classic(players=2,rlcard=true)", "random", "rlcard"),
        ("classic(players=2,rlcard=true)", "search,random", "rlcard"),  # search plays heuristic
        ("spin2025(players=4)", "random,search,random,random", "search"),
        ("classic(players=4,stacking=true)", "search,random,random,random", "search"),
    ],
)
def test_loop_of_picks_the_round_loop(rules, bots, loop):
    ki = encode(parse_rules(rules), parse_bots(bots, parse_rules(rules).players))
    r, _, _, _, b = ki.args()
    assert K.loop_of(r, b) == loop
    assert K.ENTRY_POINTS[loop][0] is K.ENTRY_POINTS[K.loop_of(r, b)][0]


def test_each_loop_has_its_own_entry_points():
    assert set(K.ENTRY_POINTS) == set(K.LOOPS) == {"default", "house", "rlcard", "search"}
    compiled = [f for loop in K.LOOPS for f in K.ENTRY_POINTS[loop]]
    assert len({id(f) for f in compiled}) == 16


@pytest.mark.slow
def test_an_entry_point_compiles_only_its_own_loop(tmp_path):
    """In a fresh process with an empty compiled cache, compiling the rlcard loop's
    play_chunk compiles the rlcard turn and none of the other loops' code (the house turn,
    the search loop and decision, the default loop): what a run does not use, it does not
    pay for. (A cold compile of the smallest loop: about half a minute.)"""
    code = """
import numpy as np
from unospin_sim.bots import parse_bots
from unospin_sim.rules import parse_rules
from unospin_sim.engine.encode import encode
from unospin_sim.engine import kernel as K, layout as L
rules = parse_rules("classic(players=2,rlcard=true)")
ki = encode(rules, parse_bots("random", 2))
K.play_chunk(*ki.args(), 0, 0, np.zeros((2, L.n_out_columns(2)), np.int64),
             np.zeros(2, np.uint64), False)
for name in ("play_turn_rl", "play_turn_house", "run_round_search", "decide",
             "play_round_default", "play_round_house"):
    print(name, len(getattr(K, name).signatures))
"""
    env = dict(
        os.environ,
        NUMBA_CACHE_DIR=str(tmp_path / "cache"),
        PYTHONPATH=os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")])),
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=900
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    counts = dict(line.split() for line in proc.stdout.splitlines())
    assert counts == {
        "play_turn_rl": "1",
        "play_turn_house": "0",
        "run_round_search": "0",
        "decide": "0",
        "play_round_default": "0",
        "play_round_house": "0",
    }


@pytest.mark.slow
def test_compile_command_prints_a_line_per_entry_point(capsys):
    """Compiles every entry point not yet cached (105 s measured after only a default run):
    the slow tier; `.ci/run` runs the command itself first."""
    assert cli.main(["compile"]) == 0
    lines = capsys.readouterr().out.splitlines()
    names = [ln.split()[0] for ln in lines]
    for loop in K.LOOPS:
        for entry in ("play_chunk", "play_match_chunk", "replay_spins", "trace_game"):
            assert f"{entry}[{loop}]" in names
    assert names[-1] == "all"
    assert "s CPU" in lines[-1] and "peak memory" in lines[-1]
    for ln in lines[:-1]:
        assert ln.split()[-1] == "s" and float(ln.split()[-2]) >= 0


def test_compile_command_refuses_an_unknown_flag(capsys):
    assert cli.main(["compile", "--everything"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--everything" in err[0]
