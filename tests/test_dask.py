"""The same run on a Dask cluster gives the same results as on local threads."""

import os

import pandas as pd
import pytest

if os.environ.get("CI"):  # .ci/run installs .[dev]: a missing dask is a failure, not a skip
    import dask.distributed as distributed
else:
    distributed = pytest.importorskip("dask.distributed")

from unospin_sim.run import Execution, simulate

pytestmark = pytest.mark.slow  # process workers and a local cluster: the slow tier


def test_dask_cluster_matches_local_threads(tmp_path):
    with distributed.Client(
        processes=False, n_workers=1, threads_per_worker=2, dashboard_address=None
    ) as client:
        remote = simulate(
            "spin2005(players=3)",
            "random",
            games=5000,
            seed=13,
            execution=Execution(chunk_size=700, client=client, out=tmp_path / "r"),
        )
    local = simulate(
        "spin2005(players=3)", "random", games=5000, seed=13, execution=Execution(threads=2)
    )
    pd.testing.assert_frame_equal(remote.rounds, local.rounds)
    pd.testing.assert_frame_equal(remote.spins, local.spins)
    assert remote.meta["dask_scheduler"]
    assert len(pd.read_parquet(tmp_path / "r" / "rounds")) == 5000


def test_process_workers_write_their_own_parts(tmp_path):
    """Two worker processes on loopback write the parts themselves and send back only the
    summary counts; the directory equals a local run's, the summary too."""
    with (
        distributed.LocalCluster(
            processes=True,
            n_workers=2,
            threads_per_worker=1,
            host="127.0.0.1",
            dashboard_address=None,
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        remote = simulate(
            "spin2025(players=3)",
            "random",
            games=4000,
            seed=5,
            execution=Execution(chunk_size=600, client=client, out=tmp_path / "r", keep=False),
        )
    assert len(remote.rounds) == 0  # nothing but the counts came back
    local = simulate(
        "spin2025(players=3)",
        "random",
        games=4000,
        seed=5,
        execution=Execution(threads=2, chunk_size=900, out=tmp_path / "l", keep=True),
    )
    from unospin_sim.results import load_results

    back = load_results(tmp_path / "r")
    pd.testing.assert_frame_equal(back.rounds, local.rounds)
    pd.testing.assert_frame_equal(back.spins, local.spins)
    assert remote.summary.to_dict() == local.summary.to_dict()


def test_design_on_a_cluster_measures_what_local_threads_measure(tmp_path):
    """A design study whose measurements are Dask tasks: every trial finishes, every stage
    runs, and each measurement equals the same design measured on local threads (common
    random numbers do not depend on where a design is played)."""
    import json

    from unospin_sim.rules import parse_rules
    from unospin_sim.studies.design import DesignSpec, run_design
    from unospin_sim.studies.design.evaluate import Evaluation, measure

    spec = DesignSpec(
        "spin2025", 3, ["mean_turns=60+-3"], ["wheel"], trials=5, games=400, stages=[2], seed=7
    )
    with distributed.Client(
        processes=False, n_workers=1, threads_per_worker=2, dashboard_address=None
    ) as client:
        answer = run_design(spec, tmp_path / "d", progress=False, client=client)
    assert answer["rules"] is not None
    designs = pd.read_csv(tmp_path / "d" / "designs.csv")
    assert {"screen", "refine x2", "confirm", "baseline"} <= set(designs["stage"])
    lines = [json.loads(x) for x in (tmp_path / "d" / "evaluations.jsonl").read_text().splitlines()]
    keys = [(d["rules"], d["games"], d["seed"], d["bots"]) for d in lines]
    assert len(keys) == len(set(keys))  # no measurement played twice
    assert sum(d["games"] == 400 for d in lines) == designs["stage"].eq("screen").sum()
    for d in lines[:2] + lines[-1:]:
        here = measure(
            parse_rules(d["rules"]),
            list(d["metrics"]),
            d["games"],
            d["seed"],
            d["bots"],
            spec.skill_bot,
            threads=2,
        )
        assert (
            Evaluation.from_dict(d).metrics
            == Evaluation.from_dict(json.loads(json.dumps(here.to_dict()))).metrics
        )
