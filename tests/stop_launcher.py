"""The command line, stopped at a known chunk: ``python tests/stop_launcher.py K ARGS...``
runs ``python -m unospin_sim ARGS...`` with a chunk hook (``unospin_sim.run.CHUNK_HOOKS``)
that stops the process (SIGSTOP) right after its K-th chunk is recorded in the manifest, so
that tests/test_resume.py can kill or signal a run at that point without any clock.
"""

import os
import signal
import sys

from unospin_sim.cli import main
from unospin_sim.run import CHUNK_HOOKS


def stop_after(k: int):
    seen = 0

    def hook(entry: dict) -> None:
        nonlocal seen
        seen += 1
        if seen == k:
            os.kill(os.getpid(), signal.SIGSTOP)

    return hook


if __name__ == "__main__":
    CHUNK_HOOKS.append(stop_after(int(sys.argv[1])))
    raise SystemExit(main(sys.argv[2:]))
