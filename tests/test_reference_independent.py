"""The reference engine is the independent witness of the kernel: it must not import the
engine, the rule data or anything that does (it carries its own copy of the rules)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import unospin_sim

REFERENCE = Path(unospin_sim.__file__).parent / "reference"
FORBIDDEN = (
    "unospin_sim.engine",
    "unospin_sim.rules",
    "unospin_sim.bots",
    "unospin_sim.runner",
    "unospin_sim.results",
    "numba",
)


def _imports(path):
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                yield a.name
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: resolve against the reference package
                base = {1: "unospin_sim.reference", 2: "unospin_sim"}.get(node.level, "?")
                yield f"{base}.{node.module}" if node.module else base
            else:
                yield node.module


def test_reference_source_imports_nothing_of_the_engine():
    paths = sorted(REFERENCE.glob("*.py"))
    assert paths, REFERENCE
    bad = [
        (p.name, m)
        for p in paths
        for m in _imports(p)
        if any(m == f or m.startswith(f + ".") for f in FORBIDDEN)
    ]
    assert bad == [], f"reference/ imports {bad}"


def test_importing_the_reference_loads_no_engine_module():
    """At run time too (an import hidden in a helper module would show here)."""
    code = (
        "import sys, unospin_sim.reference; "
        "print(','.join(sorted(m for m in sys.modules "
        "if m.startswith(('unospin_sim.engine', 'unospin_sim.rules', 'numba')))))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""
