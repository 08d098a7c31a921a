"""The shared harness of benchmarks/: workloads, repeats, medians, interleaved A/B runs of two
source trees, identity hashes, one JSON line per figure.

Every script here is a thin set of workloads over these functions:

- :func:`timed` runs a workload ``repeats`` times after a warm-up and returns the times;
  :func:`rate` turns them into a median (or best) rate;
- :func:`run_in_tree` runs Python code against one source tree in a fresh process, and
  :func:`interleave` alternates two trees (A B A B ...) so that the machine's load hits
  both alike, returning each tree's figures and the pair ratios;
- :func:`digest` hashes arrays for the identity checks (a refactor changes no result);
- :func:`emit` prints one JSON line;
- :func:`dispatch` runs the workload a script's command line names.

Quote medians, or ratios measured in one run: the machine is shared and noisy.
"""

from __future__ import annotations

import hashlib
import json
import os
import statistics
import subprocess
import sys
import time


def emit(record: dict) -> None:
    """Print one figure as a JSON line (flushed, so a long run shows its progress)."""
    print(json.dumps(record), flush=True)


def timed(work, repeats: int, warm=None, clock=time.perf_counter) -> list:
    """Seconds of ``work(i)`` for i in 0..repeats-1, after ``warm()`` (a warm-up run that
    loads or compiles the kernel; not timed)."""
    if warm is not None:
        warm()
    out = []
    for i in range(repeats):
        t = clock()
        work(i)
        out.append(clock() - t)
    return out


def rate(units, seconds: list, best: bool = False) -> float:
    """Units per second: over the median time (default) or the best one."""
    return units / (min(seconds) if best else statistics.median(seconds))


def run_in_tree(tree, code, args=(), capture=True):
    """Run ``python -c code *args`` against ``tree``; return the finished process (its text
    output captured unless ``capture`` is false). A failure exits with the child's last
    error lines.

    The process gets ``PYTHONPATH`` set to the tree *and* the tree as its working
    directory: ``python -c`` puts the working directory first on ``sys.path``, so run from
    inside another checkout it would import that checkout instead (a bug these scripts
    had until 2026-12-01, which made them compare a tree with itself)."""
    tree = os.path.abspath(tree)
    try:
        return subprocess.run(
            [sys.executable, "-c", code, *map(str, args)],
            check=True,
            capture_output=capture,
            text=True,
            cwd=tree,
            env=dict(os.environ, PYTHONPATH=tree),
        )
    except subprocess.CalledProcessError as e:
        tail = (e.stderr or "").strip().splitlines()[-15:]
        raise SystemExit(
            f"run in {tree} failed (exit {e.returncode}):\n" + "\n".join(tail)
        ) from None


def interleave(runs, pairs: int, measure, swap: bool = False):
    """Measure two runs alternately, ``pairs`` times: ``measure(run)`` returns a number.
    ``swap``: alternate the order too (A B, B A, ...). Returns ([A figures], [B figures],
    [B / A per pair])."""
    got = ([], [])
    for k in range(pairs):
        order = (1, 0) if swap and k % 2 else (0, 1)
        for i in order:
            got[i].append(measure(runs[i]))
    return got[0], got[1], [b / a for a, b in zip(*got)]


def digest(*arrays, n: int = 16) -> str:
    """The first ``n`` hex digits of the SHA-256 of the arrays' bytes (C order)."""
    import numpy as np

    h = hashlib.sha256()
    for a in arrays:
        h.update(np.ascontiguousarray(a).tobytes())
    return h.hexdigest()[:n]


def wilson(share: float, n: int):
    """95% Wilson interval of a share of n rounds (the package's own,
    ``unospin_sim.analysis.stats.wilson_interval``)."""
    from unospin_sim.analysis.stats import wilson_interval

    return wilson_interval(round(share * n), n)


def dispatch(script: str, doc: str, workloads: dict, argv=None) -> None:
    """Run ``workloads[argv[0]](argv[1:])``; with no workload (or ``-h``) print ``doc``, with
    an unknown one exit with a one-line error naming the known ones."""
    argv = sys.argv[1:] if argv is None else argv
    if not argv or argv[0] in ("-h", "--help"):
        print(doc)
        return
    if argv[0] not in workloads:
        sys.exit(f"{script}: unknown workload {argv[0]!r} (known: {', '.join(workloads)})")
    workloads[argv[0]](argv[1:])


#: the text of :func:`how`, for code run in a fresh interpreter against another tree
HOW = """
def how(**kw):
    try:
        from unospin_sim.run import Execution
    except ImportError:
        return kw
    return {"execution": Execution(**kw)}
"""


def how(**kw) -> dict:
    """Execution settings (``threads=``, ``chunk_size=`` ...) as keywords of ``simulate`` or
    ``replay_spins`` for the tree imported: ``**how(...)`` since 0.2, loose
    keywords before, so that one script measures both trees of an A/B pair."""
    try:
        from unospin_sim.run import Execution
    except ImportError:
        return kw
    return {"execution": Execution(**kw)}
