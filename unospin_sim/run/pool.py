"""One parallel map over chunks, on local threads or a Dask client: the runs' chunks, the
paired spin replays, the tuner's and the designer's tables all go through it.

The compiled kernel releases the GIL (``nogil=True``), so threads play in parallel.
:func:`as_completed` streams results as they land with at most ``window`` tasks in flight
(a run records each finished chunk at once, and its memory does not grow with the number
of chunks); :func:`parallel_map` collects them in input order.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from typing import Any

__all__ = ["as_completed", "parallel_map"]


def as_completed(
    fn: Callable, items: Iterable, threads: int = 1, client: Any = None
) -> Iterator[tuple[int, Any]]:
    """``(i, fn(item_i))`` for every item, in the order they finish.

    Parameters
    ----------
    fn : callable
        Called with one item; with a Dask ``client`` it runs on a worker, so it and the item
        must pickle.
    items : iterable
        Consumed lazily: at most two tasks a thread (a worker thread with ``client``) are in
        flight at once.
    threads : int
        Local worker threads (ignored with ``client``).
    client : dask.distributed.Client, optional
        Run the tasks on this Dask cluster instead.

    On an error, or when the caller stops early (Ctrl-C, ``break``), the queued tasks are
    dropped; tasks already running finish in the background.
    """
    tasks = iter(enumerate(items))
    pending: dict = {}
    if client is None:
        pool = ThreadPoolExecutor(max_workers=threads)
        window = 2 * threads

        def submit(i, item):
            return pool.submit(fn, item)

        def done():
            return wait(list(pending), return_when=FIRST_COMPLETED)[0]
    else:
        from distributed import wait as dwait

        pool = None
        window = 2 * max(1, sum(client.nthreads().values()))

        def submit(i, item):
            return client.submit(fn, item, pure=False)

        def done():
            return dwait(list(pending), return_when="FIRST_COMPLETED").done

    try:
        for i, item in itertools.islice(tasks, window):
            pending[submit(i, item)] = i
        while pending:
            for fut in done():
                i = pending.pop(fut)
                yield i, fut.result()
            for i, item in itertools.islice(tasks, window - len(pending)):
                pending[submit(i, item)] = i
    finally:
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)
        elif pending:
            client.cancel(list(pending))


def parallel_map(fn: Callable, items: Iterable, threads: int = 1, client: Any = None) -> list:
    """``[fn(item) for item in items]``, the calls spread over ``threads`` local threads (or
    a Dask ``client``), the results in input order."""
    out = dict(as_completed(fn, items, threads, client))
    return [out[i] for i in range(len(out))]
