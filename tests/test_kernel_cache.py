"""The engine's compiled-code cache is keyed on its sources (unospin_sim/engine/cache.py).

Each test works on a copy of the package in a temporary directory, run in fresh interpreters
with the copy first on PYTHONPATH, and edits a constant there to show that the compiled code
is not reused. The slow test does it with the real kernel.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from unospin_sim.engine import cache

PACKAGE = Path(cache.PACKAGE_DIR)

PROBE = '''
from numba import njit

from ..rules.cards import N_FACES
from .layout import MAX_CARDS


@njit(cache=True)
def probe(x):
    return x + MAX_CARDS * 1000 + N_FACES
'''

OUTSIDE = '''
from numba import njit


@njit(cache=True)
def outside(x):
    return x + 1
'''

RUN_PROBE = '''
import json
import unospin_sim.engine._probe as p
value = p.probe(1)
st = p.probe.stats
out = {"file": p.__file__, "value": int(value), "hits": sum(st.cache_hits.values()),
       "misses": sum(st.cache_misses.values()), "cache_path": st.cache_path}
if WITH_OUTSIDE:
    import unospin_sim._outside as o
    o.outside(1)
    out["outside_path"] = o.outside.stats.cache_path
print(json.dumps(out))
'''

RUN_KERNEL = '''
import json
from unospin_sim.runner import simulate
simulate("classic(players=2)", "random", games=10, seed=0, threads=1)
from unospin_sim.engine import kernel
st = kernel.play_chunk.stats
print(json.dumps({"file": kernel.__file__, "hits": sum(st.cache_hits.values()),
                  "misses": sum(st.cache_misses.values()), "cache_path": st.cache_path}))
'''


def copy_package(tmp_path: Path) -> Path:
    """A copy of the package (no __pycache__) at ``tmp_path/src/unospin_sim``."""
    dst = tmp_path / "src" / "unospin_sim"
    shutil.copytree(PACKAGE, dst, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    return dst


def set_constant(path: Path, name: str, value: int | None = None, add: int = 0) -> int:
    """Set the integer module constant ``name = ...`` in ``path`` to ``value`` (or to its
    value plus ``add``); the old value."""
    text = path.read_text()
    pattern = re.compile(rf"^({name}\s*=\s*)(\d+)\b", re.M)
    found = pattern.findall(text)
    assert len(found) == 1, f"{name} = <int> not found once in {path}"
    old = int(found[0][1])
    new = old + add if value is None else value
    path.write_text(pattern.sub(lambda m: f"{m.group(1)}{new}", text))
    return old


def run_copy(pkg: Path, code: str, env_extra: dict | None = None, timeout: float = 300) -> dict:
    """Run ``code`` in a fresh interpreter with the copy first on the path; its last line of
    output, as JSON."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("NUMBA_CACHE_DIR", "NUMBA_CACHE_LOCATOR_CLASSES", "NUMBA_DISABLE_JIT")}
    env["PYTHONPATH"] = str(pkg.parent)
    env.update(env_extra or {})
    out = subprocess.run([sys.executable, "-c", code], cwd=pkg.parent.parent, env=env,
                         capture_output=True, text=True, timeout=timeout)
    assert out.returncode == 0, out.stderr
    res = json.loads(out.stdout.strip().splitlines()[-1])
    assert Path(res["file"]).resolve().is_relative_to(pkg.resolve()), res  # the copy ran
    return res


def run_probe(pkg: Path, with_outside: bool = False, **kw) -> dict:
    return run_copy(pkg, RUN_PROBE.replace("WITH_OUTSIDE", str(with_outside)), **kw)


def hash_dir(pkg: Path) -> str:
    return "numba-" + cache.source_hash(pkg)[:cache.HASH_CHARS]


def test_hash_follows_the_compiled_in_sources(tmp_path):
    pkg = copy_package(tmp_path)
    h0 = cache.source_hash(pkg)
    assert h0 == cache.source_hash(PACKAGE)  # the place of the tree does not matter
    assert {"engine/layout.py", "rules/cards.py", "rules/spaces.py", "rules/editions.toml",
            "bots.py", "errors.py", "_text.py"} <= set(cache.source_files(pkg))

    (pkg / "cli.py").write_text((pkg / "cli.py").read_text() + "\n# not compiled in\n")
    assert cache.source_hash(pkg) == h0

    set_constant(pkg / "engine" / "layout.py", "MAX_CARDS", add=1)
    h1 = cache.source_hash(pkg)
    assert h1 != h0
    set_constant(pkg / "rules" / "cards.py", "N_FACES", add=1)
    h2 = cache.source_hash(pkg)
    assert h2 not in (h0, h1)
    (pkg / "engine" / "future_room").mkdir()  # a new subpackage of the engine
    (pkg / "engine" / "future_room" / "probe.py").write_text("X = 1\n")
    assert cache.source_hash(pkg) not in (h0, h1, h2)


def test_current_hash_sees_edits_and_new_files(tmp_path, monkeypatch):
    pkg = copy_package(tmp_path)
    monkeypatch.setattr(cache, "PACKAGE_DIR", str(pkg))
    monkeypatch.setattr(cache, "_memo", (None, None, None))
    h0 = cache.current_hash()
    assert h0 == cache.current_hash() == cache.source_hash(pkg)
    set_constant(pkg / "engine" / "layout.py", "MAX_CARDS", add=1)
    h1 = cache.current_hash()
    assert h1 == cache.source_hash(pkg) != h0
    (pkg / "engine" / "rounds.py").write_text("X = 1\n")  # a new module of the engine
    assert cache.current_hash() == cache.source_hash(pkg) != h1


def test_install_is_idempotent():
    from numba.core import caching
    cache.install()
    cache.install()
    cache._patch(caching)
    classes = caching.CacheImpl._locator_classes
    assert classes[0] is cache.locator_class()
    assert sum(getattr(c, "engine_dir", None) == cache.ENGINE_DIR for c in classes) == 1


def test_locator_falls_back_when_nothing_is_writable(monkeypatch):
    loc = cache.locator_class()
    engine_file = cache.__file__
    key = "numba-" + cache.current_hash()[:cache.HASH_CHARS]
    first = loc.from_function(cache.install, engine_file)
    assert first.get_cache_path() == os.path.join(cache.ENGINE_DIR, "__pycache__", key)
    assert first.get_source_stamp() == ("unospin_sim.engine", cache.current_hash())
    assert loc.from_function(pytest.approx, pytest.__file__) is None  # not an engine file

    def unwritable(self):
        raise PermissionError(self.get_cache_path())
    monkeypatch.setattr(loc, "ensure_cache_path", unwritable)
    monkeypatch.setattr(cache, "_dirs", {})  # forget the directory found writable above
    private = loc.from_function(cache.install, engine_file).get_cache_path()
    assert Path(private).is_dir() and "unospin_sim-numba-" in private


def test_probe_recompiles_after_a_constant_changes(tmp_path):
    pkg = copy_package(tmp_path)
    (pkg / "engine" / "_probe.py").write_text(PROBE)
    (pkg / "_outside.py").write_text(OUTSIDE)
    in_tree = pkg / "engine" / "__pycache__"
    key0 = hash_dir(pkg)
    max_cards = set_constant(pkg / "engine" / "layout.py", "MAX_CARDS")
    n_faces = set_constant(pkg / "rules" / "cards.py", "N_FACES")

    first = run_probe(pkg, with_outside=True)
    assert (first["misses"], first["hits"]) == (1, 0)
    assert first["value"] == 1 + max_cards * 1000 + n_faces
    assert Path(first["cache_path"]) == in_tree / key0
    # outside the engine, numba's own in-tree cache
    assert Path(first["outside_path"]) == pkg / "__pycache__"

    second = run_probe(pkg)
    assert (second["misses"], second["hits"]) == (0, 1)
    assert second["cache_path"] == first["cache_path"]

    set_constant(pkg / "engine" / "layout.py", "MAX_CARDS", add=1)
    third = run_probe(pkg)
    assert (third["misses"], third["hits"]) == (1, 0)
    assert third["value"] == 1 + (max_cards + 1) * 1000 + n_faces
    assert Path(third["cache_path"]) == in_tree / hash_dir(pkg) != in_tree / key0

    set_constant(pkg / "rules" / "cards.py", "N_FACES", add=1)
    fourth = run_probe(pkg)
    assert (fourth["misses"], fourth["hits"]) == (1, 0)
    assert fourth["value"] == 1 + (max_cards + 1) * 1000 + n_faces + 1

    # back to the original sources: the first directory is still there and is used
    set_constant(pkg / "engine" / "layout.py", "MAX_CARDS", max_cards)
    set_constant(pkg / "rules" / "cards.py", "N_FACES", n_faces)
    fifth = run_probe(pkg)
    assert (fifth["misses"], fifth["hits"]) == (0, 1)
    assert fifth["value"] == first["value"]
    assert fifth["cache_path"] == first["cache_path"]


def test_numba_cache_dir_is_respected(tmp_path):
    pkg = copy_package(tmp_path)
    (pkg / "engine" / "_probe.py").write_text(PROBE)
    user_dir = tmp_path / "numba-cache"
    env = {"NUMBA_CACHE_DIR": str(user_dir)}

    first = run_probe(pkg, env_extra=env)
    path = Path(first["cache_path"])
    assert path.is_relative_to(user_dir) and path.name == hash_dir(pkg)
    assert (first["misses"], first["hits"]) == (1, 0)
    assert not (pkg / "engine" / "__pycache__" / hash_dir(pkg)).exists()

    set_constant(pkg / "engine" / "layout.py", "MAX_CARDS", add=1)
    second = run_probe(pkg, env_extra=env)
    assert (second["misses"], second["hits"]) == (1, 0)
    assert Path(second["cache_path"]).parent == path.parent
    assert Path(second["cache_path"]).name == hash_dir(pkg) != path.name


@pytest.mark.slow
def test_kernel_recompiles_after_a_layout_constant_changes(tmp_path):
    pkg = copy_package(tmp_path)
    timeout = 3600  # a cold compile of the whole kernel, on a busy machine

    first = run_copy(pkg, RUN_KERNEL, timeout=timeout)
    assert first["misses"] >= 1 and first["hits"] == 0
    assert Path(first["cache_path"]) == pkg / "engine" / "__pycache__" / hash_dir(pkg)

    second = run_copy(pkg, RUN_KERNEL, timeout=timeout)
    assert second["hits"] >= 1 and second["misses"] == 0
    assert second["cache_path"] == first["cache_path"]

    # the kernel compiles MAX_CARDS in (pile offsets); 2 more plays the same games
    set_constant(pkg / "engine" / "layout.py", "MAX_CARDS", add=2)
    third = run_copy(pkg, RUN_KERNEL, timeout=timeout)
    assert third["misses"] >= 1 and third["hits"] == 0
    assert third["cache_path"] != first["cache_path"]
