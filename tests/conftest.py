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
settings.register_profile("ci", derandomize=True, database=None, deadline=None, print_blob=True)
settings.register_profile("explore", derandomize=False, deadline=None)  # explicit: with CI set,
# Hypothesis itself loads a derandomized profile that a new one would otherwise inherit
HYPOTHESIS_PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "ci")
settings.load_profile(HYPOTHESIS_PROFILE)


# ---- test tiers (docs/TESTING.md) ------------------------------------------------------------
# default `pytest`: every test not marked slow (pyproject's addopts: -m "not slow");
# `pytest -m slow`: the slow tier; `--run-expensive`: also run the tests marked expensive
# (they are skipped without it, whatever the -m expression). No test reads the -m string.


def pytest_addoption(parser):
    parser.addoption(
        "--run-expensive",
        action="store_true",
        default=False,
        help="run the expensive tier too (tests marked expensive: the mutants, "
        "the seat-pin re-derivation, the kernel recompile test)",
    )
    parser.addoption(
        "--mutant-table",
        default=None,
        metavar="FILE",
        help="tests/test_mutants.py: write the table of which tests caught each "
        "mutant to FILE (Markdown)",
    )


# ---- a hung test fails the run with every thread's stack --------------------------------
# CI has 90 minutes for everything: a test that hangs (a deadlock, a kernel that never ends)
# would otherwise use them all and print nothing. After UNOSPIN_TEST_TIMEOUT seconds (default
# 1200; the slowest test takes ~150 s on 2 cores) one test's call dumps the stack of every
# thread to stderr and exits the process with status 1. 0 turns the watchdog off.
TEST_TIMEOUT = float(os.environ.get("UNOSPIN_TEST_TIMEOUT", "1200"))


_watchdog_out = None  # a copy of the real stderr: a test's own stderr is captured


def pytest_configure(config):
    global _watchdog_out
    if TEST_TIMEOUT > 0 and _watchdog_out is None:
        _watchdog_out = os.fdopen(os.dup(sys.__stderr__.fileno()), "w")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item):
    if _watchdog_out is None:
        yield
        return
    import faulthandler

    faulthandler.dump_traceback_later(TEST_TIMEOUT, exit=True, file=_watchdog_out)
    try:
        yield
    finally:
        faulthandler.cancel_dump_traceback_later()


def pytest_collection_modifyitems(config, items):
    if config.getoption("--run-expensive"):
        return
    skip = pytest.mark.skip(reason="expensive tier: run with --run-expensive")
    for item in items:
        if "expensive" in item.keywords:
            item.add_marker(skip)


def run_cli(
    *args: str, cwd: Path | None = None, timeout: float = 600
) -> subprocess.CompletedProcess:
    """Run ``python -m unospin_sim ARGS`` in a subprocess (the repo on PYTHONPATH)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    return subprocess.run(
        [sys.executable, "-m", "unospin_sim", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


@pytest.fixture
def cli():
    """The :func:`run_cli` helper as a fixture."""
    return run_cli


def in_process_cli(monkeypatch, capsys):
    """A :func:`run_cli` look-alike that calls ``unospin_sim.cli.main(argv)`` in this process
    (working directory changed for the call, output captured): the same exit status, stdout
    and stderr, without a Python start-up per case."""
    from unospin_sim.cli import main

    def run(*args: str, cwd: Path | None = None, timeout: float | None = None):
        capsys.readouterr()
        with monkeypatch.context() as m:
            if cwd is not None:
                m.chdir(cwd)
            try:
                code = main(list(args))
            except SystemExit as e:  # argparse's --help / --version
                code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
        out, err = capsys.readouterr()
        return subprocess.CompletedProcess(["unospin_sim", *args], code, out, err)

    return run


@pytest.fixture(params=["in_process", pytest.param("subprocess", marks=pytest.mark.slow)])
def any_cli(request, monkeypatch, capsys):
    """The command line in process (default tier) and as a real subprocess (slow tier): a
    test using it runs once each way."""
    return in_process_cli(monkeypatch, capsys) if request.param == "in_process" else run_cli
