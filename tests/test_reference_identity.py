"""The reference engine plays exactly as pinned: its tables (``play_many``,
``play_many_spins``, ``play_many_matches``) and round traces on fixed seeds hash to the
lines of ``tests/pins/reference_identity.json`` (the ``reference`` workload of
``benchmarks/identity.py``). A refactor of the reference keeps every hash; a change of its
play renews the pin on purpose."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
PINS = json.loads((REPO / "tests" / "pins" / "reference_identity.json").read_text())


def _lines(factor):
    sys.path.insert(0, str(REPO / "benchmarks"))
    try:
        import identity
    finally:
        sys.path.remove(str(REPO / "benchmarks"))
    return identity.reference_lines(factor)


def test_reference_identity_small():
    """Every case at 1/20 of its rounds (a few seconds)."""
    assert _lines(0.05) == PINS["factors"]["0.05"]


@pytest.mark.slow
def test_reference_identity_full():
    """Every case at its full rounds (about a minute)."""
    assert _lines(1.0) == PINS["factors"]["1"]
