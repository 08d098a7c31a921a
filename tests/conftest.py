"""Shared test helpers."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import settings

REPO = Path(__file__).resolve().parents[1]

# Hypothesis profiles. "ci", the default, is fixed: derandomized (the examples are a function
# of the test, the same on every run and machine), no example database (a failure found
# before cannot change what a later run tries), no deadline (timing on a busy machine must
# not fail a test). HYPOTHESIS_PROFILE=explore draws fresh random examples on every run
# (also without deadline), to hunt for new failures locally. The tests' own @settings
# (max_examples, ...) apply on top of the profile.
settings.register_profile("ci", derandomize=True, database=None, deadline=None,
                          print_blob=True)
settings.register_profile("explore", derandomize=False, deadline=None)  # explicit: with CI set,
# Hypothesis itself loads a derandomized profile that a new one would otherwise inherit
HYPOTHESIS_PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "ci")
settings.load_profile(HYPOTHESIS_PROFILE)


def run_cli(*args: str, cwd: Path | None = None, timeout: float = 600) -> subprocess.CompletedProcess:
    """Run ``python -m unospin_sim ARGS`` in a subprocess (the repo on PYTHONPATH)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    return subprocess.run([sys.executable, "-m", "unospin_sim", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=timeout)


@pytest.fixture
def cli():
    """The :func:`run_cli` helper as a fixture."""
    return run_cli
