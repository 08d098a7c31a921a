"""The same run on a Dask cluster gives the same results as on local threads."""

import pandas as pd
import pytest

distributed = pytest.importorskip("dask.distributed")

from unospin_sim.runner import simulate  # noqa: E402


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
