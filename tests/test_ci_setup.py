"""The test setup itself: a fixed Hypothesis profile, golden files that cannot pass against
themselves, CI that refuses to regenerate them and runs the RLCard comparison."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import HYPOTHESIS_PROFILE, REPO
from hypothesis import given, settings
from hypothesis import strategies as st

TESTS = Path(__file__).parent


@pytest.mark.skipif(HYPOTHESIS_PROFILE != "ci", reason="HYPOTHESIS_PROFILE selects another")
def test_hypothesis_profile_is_fixed():
    """The default profile is derandomized, keeps no example database and has no deadline;
    and two runs of one property see exactly the same examples."""
    assert settings.default.derandomize is True
    assert settings.default.database is None
    assert settings.default.deadline is None

    def examples():
        seen = []

        @settings(max_examples=25)
        @given(st.integers(), st.lists(st.text(), max_size=3))
        def prop(n, xs):
            seen.append((n, tuple(xs)))

        prop()
        return seen

    first, second = examples(), examples()
    assert len(first) >= 10 and first == second
    # explicit per-test settings (as tests/test_properties.py uses) keep the profile's seed
    assert settings(settings.default, max_examples=7).derandomize is True


def test_explore_profile_is_random():
    """HYPOTHESIS_PROFILE=explore draws fresh examples: the profile the variable selects."""
    explore = settings.get_profile("explore")
    assert explore.derandomize is False and explore.deadline is None


def test_no_test_sleeps():
    """No test waits on the clock: waits are on events (a subprocess's output, a file)."""
    offenders = [
        p.name
        for p in TESTS.glob("*.py")
        if "sleep(" in p.read_text() and p.name != Path(__file__).name
    ]
    assert not offenders


def test_regenerating_goldens_writes_and_fails(tmp_path, monkeypatch):
    """UNOSPIN_REGEN writes the golden file and then fails the test instead of comparing the
    file with the text it was just written from."""
    import test_playthroughs as tp

    from unospin_sim.run.playthrough import play_text

    monkeypatch.setattr(tp, "HERE", tmp_path)
    monkeypatch.setenv("UNOSPIN_REGEN", "1")
    with pytest.raises(pytest.fail.Exception, match="UNOSPIN_REGEN is set"):
        tp.test_playthrough_replays("classic", 2, "random", 11, "")
    written = tmp_path / "classic-p2-random-s11.txt"
    assert written.read_text() == play_text("classic(players=2)", "random", seed=11, game=0)
    # without the variable the same call compares, and passes against that file
    monkeypatch.delenv("UNOSPIN_REGEN")
    tp.test_playthrough_replays("classic", 2, "random", 11, "")


def test_ci_refuses_to_regenerate_goldens(tmp_path):
    """.ci/run exits at once (status 2, before building anything) with UNOSPIN_REGEN set."""
    env = dict(os.environ, UNOSPIN_REGEN="1", TMPDIR=str(tmp_path))
    proc = subprocess.run(
        ["bash", str(REPO / ".ci" / "run")], env=env, capture_output=True, text=True
    )
    assert proc.returncode == 2
    assert "UNOSPIN_REGEN" in proc.stderr and "refusing" in proc.stderr
    assert list(tmp_path.iterdir()) == []  # no virtual environment was made


def test_ci_installs_rlcard_and_sets_ci():
    """.ci/run installs the dev extra, which holds the rlcard extra (pinned to 1.2.0), and
    sets CI and the profile; it runs the linter, the formatter's check and the type checker."""
    text = (REPO / ".ci" / "run").read_text()
    pyproject = (REPO / "pyproject.toml").read_text()
    assert "'.[dev]'" in text and '"unospin_sim[dask,rlcard]"' in pyproject
    for step in ("ruff check", "ruff format --check", "mypy"):
        assert step in text
    assert 'export CI="${CI:-1}"' in text and "export HYPOTHESIS_PROFILE=ci" in text
    assert 'rlcard = ["rlcard==1.2.0"]' in pyproject


@pytest.mark.slow
@pytest.mark.parametrize("ci, outcome", [("1", "failed"), ("", "skipped")])
def test_rlcard_comparison_fails_under_ci_without_rlcard(tmp_path, ci, outcome):
    """With rlcard not importable, the RLCard comparison fails when CI is set and skips
    otherwise (run in a subprocess where a stand-in `rlcard` raises ImportError)."""
    fake = tmp_path / "fake" / "rlcard"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text("raise ImportError('rlcard hidden by the test')\n")
    env = dict(os.environ, CI=ci)
    env["PYTHONPATH"] = os.pathsep.join(
        filter(None, [str(fake.parent), str(REPO), env.get("PYTHONPATH")])
    )
    proc = subprocess.run(
        # -m slow: the comparison is in the slow tier, which the default addopts deselect
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "-rsf",
            "-m",
            "slow",
            str(TESTS / "test_rlcard.py") + "::test_matches_rlcard_statistically",
        ],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
    )
    assert f"1 {outcome}" in proc.stdout, proc.stdout[-2000:]
    if outcome == "failed":
        assert proc.returncode == 1 and "CI is set but rlcard cannot be imported" in proc.stdout
    else:
        assert proc.returncode == 0 and "rlcard is not installed" in proc.stdout
