"""The same run on a Dask cluster gives the same results as on local threads."""

import os

import pandas as pd
import pytest

if os.environ.get("CI"):  # .ci/run installs .[dev]: a missing dask is a failure, not a skip
    import dask.distributed as distributed
else:
    distributed = pytest.importorskip("dask.distributed")

from unospin_sim.runner import simulate  # noqa: E402

pytestmark = pytest.mark.slow  # process workers and a local cluster: the slow tier


def test_dask_cluster_matches_local_threads(tmp_path):
    with distributed.Client(processes=False, n_workers=1, threads_per_worker=2,
                            dashboard_address=None) as client:
        remote = simulate("spin2005(players=3)", "random", games=5000, seed=13,
                          chunk_size=700, client=client, out=tmp_path / "r")
    local = simulate("spin2005(players=3)", "random", games=5000, seed=13, threads=2)
    pd.testing.assert_frame_equal(remote.rounds, local.rounds)
    pd.testing.assert_frame_equal(remote.spins, local.spins)
    assert remote.meta["dask_scheduler"]
    assert len(pd.read_parquet(tmp_path / "r" / "rounds")) == 5000


def test_process_workers_write_their_own_parts(tmp_path):
    """Two worker processes on loopback write the parts themselves and send back only the
    summary counts; the directory equals a local run's, the summary too."""
    with distributed.LocalCluster(processes=True, n_workers=2, threads_per_worker=1,
                                  host="127.0.0.1", dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        remote = simulate("spin2025(players=3)", "random", games=4000, seed=5,
                          chunk_size=600, client=client, out=tmp_path / "r", keep=False)
    assert len(remote.rounds) == 0  # nothing but the counts came back
    local = simulate("spin2025(players=3)", "random", games=4000, seed=5, threads=2,
                     chunk_size=900, out=tmp_path / "l", keep=True)
    from unospin_sim.results import load_results
    back = load_results(tmp_path / "r")
    pd.testing.assert_frame_equal(back.rounds, local.rounds)
    pd.testing.assert_frame_equal(back.spins, local.spins)
    assert remote.summary.to_dict() == local.summary.to_dict()
