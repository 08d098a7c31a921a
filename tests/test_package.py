"""Package surface: version, lazy top-level names, light import, package data."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from conftest import REPO

import unospin_sim
from unospin_sim import _moved


def test_version():
    assert unospin_sim.__version__ == "0.2.0"


def test_import_is_light():
    code = (
        "import sys, unospin_sim; "
        "heavy = [m for m in ('numba', 'pandas', 'pyarrow', 'matplotlib') if m in sys.modules]; "
        "print(heavy)"
    )
    env = dict(os.environ, PYTHONPATH=str(REPO))
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
    ).stdout.strip()
    assert out == "[]"


def test_lazy_names():
    from unospin_sim import RuleSet, load_results, parse_bots, parse_rules

    assert parse_rules("classic") == RuleSet.build("classic")
    assert len(parse_bots("random", 3)) == 3
    assert callable(load_results)
    assert {"simulate", "RuleSet", "parse_rules", "parse_bots", "load_results"} <= set(
        dir(unospin_sim)
    )


def test_unknown_attribute():
    import pytest

    with pytest.raises(AttributeError):
        unospin_sim.nope  # noqa: B018


def test_editions_toml_is_package_data():
    from importlib import resources

    assert resources.files("unospin_sim.rules").joinpath("editions.toml").is_file()


def test_numba_and_numpy_lie_in_the_supported_ranges():
    """pyproject.toml states a range for numba and NumPy (the compiled-code cache depends
    on numba's private API and keys on both versions); the installed ones lie in it."""
    import tomllib
    from importlib import metadata
    from importlib.metadata import version

    from packaging.requirements import Requirement
    from packaging.version import Version

    with open(REPO / "pyproject.toml", "rb") as f:
        deps = [Requirement(d) for d in tomllib.load(f)["project"]["dependencies"]]
    stated = {r.name.lower(): r.specifier for r in deps}
    for name in ("numba", "numpy"):
        spec = stated[name]
        ops = {s.operator for s in spec}
        assert ops & {">=", ">", "~=", "=="} and ops & {"<", "<=", "~=", "=="}, (
            f"pyproject.toml states no lower and upper bound for {name}: {spec}"
        )
        installed = Version(version(name))
        assert spec.contains(installed, prereleases=True), f"{name} {installed} not in {spec}"
    # nor does the NumPy range reach past what the installed numba accepts
    numba_deps = [Requirement(r) for r in metadata.requires("numba") or []]
    numba_numpy = next(r.specifier for r in numba_deps if r.name.lower() == "numpy")
    ours = [Version(s.version) for s in stated["numpy"] if s.operator == "<"]
    theirs = [Version(s.version) for s in numba_numpy if s.operator == "<"]
    assert ours and theirs and max(ours) <= max(theirs), (stated["numpy"], numba_numpy)


@pytest.mark.parametrize("old", sorted(_moved.MOVED))
def test_moved_modules_answer_at_their_old_paths_with_a_warning(old):
    """Every module that moved in 0.2 still imports by its old name for one release, as the
    very module at its new home (the former ``runner`` door as a module of the same names),
    with a DeprecationWarning naming the new path."""
    import importlib
    import sys

    new = _moved.MOVED[old]
    sys.modules.pop(old, None)
    with pytest.warns(DeprecationWarning, match=f"{old} is now {new}"):
        module = importlib.import_module(old)
    sys.modules.pop(old, None)
    home = importlib.import_module(new)
    if old == "unospin_sim.runner":
        assert module.simulate is home.simulate and module.saved_bots is not None
    else:
        assert module is home


def test_a_submodule_of_a_moved_package_answers_too():
    import importlib
    import sys

    for name in ("unospin_sim.design.goals", "unospin_sim.design"):
        sys.modules.pop(name, None)
    with pytest.warns(DeprecationWarning, match="unospin_sim.design.goals is now"):
        goals = importlib.import_module("unospin_sim.design.goals")
    assert goals is importlib.import_module("unospin_sim.studies.design.goals")


def test_no_comment_or_docstring_in_the_package_names_a_date():
    """History belongs in git and CHANGELOG.md: the package's text names versions, never
    dates (a date such as 2026-12-04 in a comment, a docstring or the rules data)."""
    import re
    from pathlib import Path

    date = re.compile(r"\b20\d\d-[01]\d-[0-3]\d\b")
    root = Path(unospin_sim.__file__).parent
    found = [
        f"{p.relative_to(root)}:{i}"
        for p in sorted([*root.rglob("*.py"), *root.rglob("*.toml")])
        for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
        if date.search(line)
    ]
    assert not found, found
