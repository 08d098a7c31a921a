"""Run Python code against one source tree, for the scripts that compare two trees
(``bench_ab.py``, ``bench_search_ab.py``, ``bench_strategies_cpu.py``, ``search_paired.py``).

The code runs in a fresh process with ``PYTHONPATH`` set to the tree *and* the tree as its
working directory: ``python -c`` puts the working directory first on ``sys.path``, so run
from inside another checkout it would import that checkout instead (a bug these scripts
had until 2026-12-01, which made them compare a tree with itself).
"""

from __future__ import annotations

import os
import subprocess
import sys


def run_in_tree(tree, code, args, capture=True):
    """Run ``python -c code *args`` in ``tree``; return the finished process (its text output
    captured unless ``capture`` is false). A failure raises ``CalledProcessError``."""
    tree = os.path.abspath(tree)
    return subprocess.run([sys.executable, "-c", code, *map(str, args)], check=True,
                          capture_output=capture, text=True, cwd=tree,
                          env=dict(os.environ, PYTHONPATH=tree))
