"""Package surface: version, lazy top-level names, light import, package data."""

from __future__ import annotations

import os
import subprocess
import sys

import unospin_sim
from conftest import REPO


def test_version():
    assert unospin_sim.__version__ == "0.1.0"


def test_import_is_light():
    code = ("import sys, unospin_sim; "
            "heavy = [m for m in ('numba', 'pandas', 'pyarrow', 'matplotlib') if m in sys.modules]; "
            "print(heavy)")
    env = dict(os.environ, PYTHONPATH=str(REPO))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                         check=True).stdout.strip()
    assert out == "[]"


def test_lazy_names():
    from unospin_sim import RuleSet, load_results, parse_bots, parse_rules

    assert parse_rules("classic") == RuleSet.build("classic")
    assert len(parse_bots("random", 3)) == 3
    assert callable(load_results)
    assert {"simulate", "RuleSet", "parse_rules", "parse_bots", "load_results"} <= \
        set(dir(unospin_sim))


def test_unknown_attribute():
    import pytest

    with pytest.raises(AttributeError):
        unospin_sim.nope  # noqa: B018


def test_editions_toml_is_package_data():
    from importlib import resources

    assert resources.files("unospin_sim.rules").joinpath("editions.toml").is_file()
