"""Where a run plays when one machine is not enough: a Dask client for an address.

``run --dask ADDRESS`` and ``design --dask ADDRESS`` open one with :func:`dask_client`;
:func:`unospin_sim.run.simulate` and :func:`unospin_sim.studies.design.run_design` take it as
``client``.
"""

from __future__ import annotations

import contextlib

from ..errors import UserError

__all__ = ["dask_client"]


@contextlib.contextmanager
def dask_client(address, threads: int):
    """A Dask client for ``address`` (``'local'``: a local cluster of ``threads``
    single-thread process workers), or None for ``address`` None; closed on exit.

    Parameters
    ----------
    address : str or None
        A scheduler address (``tcp://host:8786``), ``'local'``, or None.
    threads : int
        Workers of a local cluster.

    Raises
    ------
    UserError
        dask.distributed is not installed, or the scheduler cannot be reached (one line).
    """
    if address is None:
        yield None
        return
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError:
        raise UserError("--dask needs dask.distributed: pip install 'unospin_sim[dask]'") from None
    try:
        if address == "local":
            cluster = LocalCluster(n_workers=threads, threads_per_worker=1, dashboard_address=None)
            client = Client(cluster)
        else:
            cluster = None
            client = Client(address, timeout="10s")
    except (OSError, TimeoutError, ValueError) as e:
        raise UserError(
            f"cannot reach the Dask scheduler {address}: "
            f"{str(e).splitlines()[0] if str(e) else type(e).__name__}"
        ) from None
    try:
        yield client
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
