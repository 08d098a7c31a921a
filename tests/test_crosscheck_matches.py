"""Slow tier: the numba engine's matches against the reference engine's (a quick,
underpowered run of ``tests/crosscheck_matches.py`` over every match configuration).

Each configuration plays 600 reference matches and 2,400 engine matches with fixed seeds and
fails when any test rejects at alpha = 1e-4 (rounds per match, player 0's match win rate, the
winners' chi-square, KS on rounds and final scores, every player's final score). At this size
it sees gross errors (the deal not passing, scores given to the wrong player or team, a
match ending at the wrong total: ``tests/test_reference_matches.py`` pins the reference's side
exactly); the powered run is committed in ``reports/crosscheck/matches.md``.
"""

from __future__ import annotations

import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import crosscheck_matches


@pytest.mark.slow
def test_engine_matches_agree_with_the_reference_matches(capsys):
    rc = crosscheck_matches.main(
        ["--quick", "--quick-matches", "600", "--pilot", "2000", "--workers", "1", "--threads", "2"]
    )
    out = capsys.readouterr().out
    assert rc == 0, out
    assert out.count("PASS") == len(crosscheck_matches.configs()), out


def test_match_configurations_cover_every_match_mode():
    modes = {
        (c.options["match"], bool(c.options.get("partners"))) for c in crosscheck_matches.configs()
    }
    assert modes == {("race", False), ("lowest", False), ("race", True)}
    names = [c.name for c in crosscheck_matches.configs()]
    assert len(names) == len(set(names))
