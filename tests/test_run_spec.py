"""A run as two values: RunSpec (what it plays, checked once where it is built) and
Execution (how it runs, never what it gives); the one parallel map."""

from __future__ import annotations

import pickle

import pandas as pd
import pytest

from unospin_sim.errors import UserError
from unospin_sim.run import Execution, RunSpec, as_completed, parallel_map, simulate


def test_a_spec_is_checked_where_it_is_built():
    with pytest.raises(UserError, match="games must be >= 1"):
        RunSpec.build("classic(players=4)", "random", games=0)
    with pytest.raises(UserError, match="seed must be"):
        RunSpec.build("classic(players=4)", "random", games=1, seed=-1)
    with pytest.raises(UserError, match="rotate_bots cannot be combined with match=race"):
        RunSpec.build("classic(players=2,match=race)", "random", games=1, rotate_bots=True)
    with pytest.raises(UserError, match="3 bots given for 4 players|expected 4"):
        RunSpec.build("classic(players=4)", "random,random,random", games=1)
    with pytest.raises(UserError, match="tables"):
        RunSpec.build("classic(players=4)", "random", games=1, tables="spins")


def test_execution_settings_are_checked_and_filled_in():
    spec = RunSpec.build("classic(players=4)", "random", games=100_000)
    ex = Execution(threads=2).resolved(spec)
    assert ex.workers == 2 and ex.chunk == 100_000 // (2 * 16) + 1
    assert Execution(threads=1).resolved(spec).chunk == 6251
    searching = RunSpec.build("classic(players=2)", "search(rollouts=4),random", games=50)
    assert Execution(threads=2).resolved(searching).chunk == 8  # small chunks for search
    with pytest.raises(UserError, match="threads must be in 1..1024"):
        Execution(threads=0).resolved(spec)
    with pytest.raises(UserError, match="needs an output directory"):
        Execution(keep=False).resolved(spec)
    with pytest.raises(ValueError, match="resolved"):
        Execution().workers  # noqa: B018 - the property raises


def test_a_spec_pickles_and_keeps_its_canonical_form():
    spec = RunSpec.build(
        "spin2025(players=3,wheel={two_x:2,swap_hands:1})",
        "heuristic(forget=0.1),random,random",
        games=10,
        seed=5,
        rotate_bots=True,
    )
    back = pickle.loads(pickle.dumps(spec))
    assert back == spec and back.key == spec.key
    assert RunSpec.from_params(spec.params()) == spec


def test_simulate_of_a_spec_is_simulate_of_its_parts_whatever_the_execution():
    spec = RunSpec.build("classic(players=4)", "random", games=3000, seed=11)
    a = simulate(spec, execution=Execution(threads=1, chunk_size=3000)).rounds
    b = simulate(
        "classic(players=4)", "random", 3000, 11, execution=Execution(threads=2, chunk_size=700)
    )
    pd.testing.assert_frame_equal(a, b.rounds)


def test_the_parallel_map_keeps_input_order_and_bounds_what_is_in_flight():
    import threading

    in_flight, peak, lock = [0], [0], threading.Lock()

    def task(x):
        with lock:
            in_flight[0] += 1
            peak[0] = max(peak[0], in_flight[0])
        with lock:
            in_flight[0] -= 1
        return x * x

    assert parallel_map(task, range(50), threads=3) == [x * x for x in range(50)]
    assert peak[0] <= 3
    got = dict(as_completed(task, iter(range(20)), threads=2))
    assert got == {i: i * i for i in range(20)}


def test_the_parallel_map_raises_the_first_error_of_a_task():
    def task(x):
        if x == 7:
            raise UserError("seven")
        return x

    with pytest.raises(UserError, match="seven"):
        parallel_map(task, range(20), threads=2)
