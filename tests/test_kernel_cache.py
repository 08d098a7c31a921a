"""The engine's compiled-code cache is keyed on what the kernel compiles in (engine/cache.py).

Every test works on a copy of the package in a temporary directory. The key tests edit the
copy and compare ``source_hash``: an edit of what the engine does not import (``bots.py``,
``rules/cards.py``, error messages, option checks, the CLI, the analysis) leaves the key, an
edit of an engine module or of a module it imports (``engine/bot_codes.py``,
``rules/card_codes.py``, ``rules/space_codes.py``) changes it. The probe tests run the copy
in fresh interpreters and edit a constant there to show that the compiled code is not
reused. The slow test does it with the real kernel (only under ``pytest -m slow``)."""

from __future__ import annotations

import ast
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from unospin_sim.engine import cache, cache_key
from unospin_sim.engine.cache_key import source_files, source_hash

PACKAGE = Path(cache_key.PACKAGE_DIR)

PROBE = """
from numba import njit

from ..rules.card_codes import N_FACES
from .layout import MAX_CARDS


@njit(cache=True)
def probe(x):
    return x + MAX_CARDS * 1000 + N_FACES
"""

OUTSIDE = """
from numba import njit


@njit(cache=True)
def outside(x):
    return x + 1
"""

RUN_PROBE = """
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
"""

RUN_KERNEL = """
import json
from unospin_sim.run import simulate
simulate("classic(players=2)", "random", games=10, seed=0, threads=1)
from unospin_sim.engine import kernel
st = kernel.ENTRY_POINTS["default"][0].stats  # the default rules' play_chunk
print(json.dumps({"file": kernel.__file__, "hits": sum(st.cache_hits.values()),
                  "misses": sum(st.cache_misses.values()), "cache_path": st.cache_path}))
"""


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
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("NUMBA_CACHE_DIR", "NUMBA_CACHE_LOCATOR_CLASSES", "NUMBA_DISABLE_JIT")
    }
    env["PYTHONPATH"] = str(pkg.parent)
    env.update(env_extra or {})
    out = subprocess.run(
        [sys.executable, "-c", code],
        cwd=pkg.parent.parent,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    assert out.returncode == 0, out.stderr
    res = json.loads(out.stdout.strip().splitlines()[-1])
    assert Path(res["file"]).resolve().is_relative_to(pkg.resolve()), res  # the copy ran
    return res


def run_probe(pkg: Path, with_outside: bool = False, **kw) -> dict:
    return run_copy(pkg, RUN_PROBE.replace("WITH_OUTSIDE", str(with_outside)), **kw)


def hash_dir(pkg: Path) -> str:
    return "numba-" + source_hash(pkg)[: cache_key.HASH_CHARS]


def touch_later(path: Path) -> None:
    """Move ``path``'s mtime a second on, so a stat signature sees even a same-size edit."""
    st = path.stat()
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000_000))


def replace_once(path: Path, old: str, new: str) -> None:
    """Replace the one occurrence of ``old`` in ``path`` by ``new``."""
    text = path.read_text()
    assert text.count(old) == 1, f"{old!r} not found once in {path}"
    path.write_text(text.replace(old, new))
    touch_later(path)


def append(path: Path, text: str) -> None:
    path.write_text(path.read_text() + text)
    touch_later(path)


def test_hash_reads_the_engine_and_the_modules_it_imports(tmp_path):
    pkg = copy_package(tmp_path)
    h0 = source_hash(pkg)
    assert h0 == source_hash(PACKAGE)  # the place of the tree does not matter
    files = set(source_files(pkg))
    engine = {
        p.relative_to(pkg).as_posix()
        for p in (pkg / "engine").rglob("*.py")
        if "__pycache__" not in p.parts
    }
    # the engine whole, and the code modules it imports, found from its imports
    assert files == engine - set(cache_key.PYTHON_ONLY) | {
        "rules/card_codes.py",
        "rules/space_codes.py",
    }
    assert "engine/bot_codes.py" in files and len(files) >= 35

    (pkg / "engine" / "future_room").mkdir()  # a new subpackage of the engine
    (pkg / "engine" / "future_room" / "probe.py").write_text("X = 1\n")
    h1 = source_hash(pkg)
    assert h1 != h0
    # a new engine import of a package module: that module joins the key, whole
    (pkg / "engine" / "future_room" / "probe.py").write_text(
        "from ...rules.values import parse_number\nX = 1\n"
    )
    h2 = source_hash(pkg)
    assert h2 not in (h0, h1) and "rules/values.py" in source_files(pkg)
    replace_once(
        pkg / "rules" / "values.py",
        "must be a whole number, got {str(value)!r}",
        "must be an integer, got {str(value)!r}",
    )
    assert source_hash(pkg) not in (h0, h1, h2)


def test_a_new_engine_import_is_covered(edited):
    """An engine module that starts importing a package module (here rules/options.py, by
    `from ..rules import options`, and `import unospin_sim.errors`): an edit there then
    changes the key, the modules those import too; before, it did not."""
    pkg, h0 = edited
    options, errors = pkg / "rules" / "options.py", pkg / "errors.py"
    replace_once(options, "The one table of rule options", "The single table of rule options")
    replace_once(errors, "A bot string or bot knob is invalid.", "A bot string is invalid.")
    assert source_hash(pkg) == h0
    append(pkg / "engine" / "turn.py", "\nfrom ..rules import options as _options\n")
    h1 = source_hash(pkg)
    assert h1 != h0 and "rules/options.py" in source_files(pkg)
    assert "rules/__init__.py" not in source_files(pkg)  # the submodule, not the package
    replace_once(options, "The single table of rule options", "The table of rule options")
    h2 = source_hash(pkg)
    assert h2 != h1
    append(pkg / "engine" / "legal.py", "\nimport unospin_sim.errors as _errors\n")
    h3 = source_hash(pkg)
    assert h3 != h2 and "errors.py" in source_files(pkg)
    replace_once(errors, "A bot string is invalid.", "A bot string or knob is invalid.")
    assert source_hash(pkg) != h3


@pytest.fixture(scope="module")
def pristine(tmp_path_factory):
    """One copy of the package for the edit tests below, and its hash."""
    pkg = copy_package(tmp_path_factory.mktemp("edits"))
    return pkg, source_hash(pkg)


@pytest.fixture
def edited(pristine):
    """The pristine copy and its hash; what a test edits or adds is undone afterwards."""
    pkg, h0 = pristine
    saved = {p: p.read_bytes() for p in pkg.rglob("*") if p.is_file()}
    yield pkg, h0
    for p in list(pkg.rglob("*")):
        if p.is_file() and p not in saved:
            p.unlink()
    for p, data in saved.items():
        if p.read_bytes() != data:
            p.write_bytes(data)
    assert source_hash(pkg) == h0


#: edits of what the kernel does not compile in, (file, old text, new text): the key stays
NOT_COMPILED = {
    # bots.py: an error message, the docstring, a function body, an option default and
    # limit, the parser's regex, __all__, the knob defaults of tuned
    "bots-message": ("bots.py", 'expected knob=value"', 'expected knob=number"'),
    "bots-docstring": (
        "bots.py",
        "Bot specifications: a strategy per seat",
        "Bot specs: one strategy per seat",
    ),
    "bots-function": (
        "bots.py",
        'return ",".join(str(s) for s in specs)',
        'return ",".join(map(str, specs))',
    ),
    "bots-default": ("bots.py", '"catch": 0.5,', '"catch": 0.25,'),
    "bots-limit": ("bots.py", "MAX_ROLLOUTS = 100_000", "MAX_ROLLOUTS = 50_000"),
    "bots-regex": ("bots.py", '\\s*", re.S)', '\\s*", re.S | re.I)'),
    "bots-all": ("bots.py", '    "saved_bots",\n]', '    "saved_bots",\n    "DEFAULTS",\n]'),
    "bots-tuned-weights": ("bots.py", '"w_points": 0.173111,', '"w_points": 0.2,'),
    "bots-saved-knobs": (
        "bots.py",
        'SEARCH_KNOBS_BEFORE_EXTEND = (("extend", "1"),)',
        'SEARCH_KNOBS_BEFORE_EXTEND = (("extend", "2"),)',
    ),
    "errors": (
        "errors.py",
        '"""A bot string or bot knob is invalid."""',
        '"""A bot string or a bot knob is invalid."""\n\n    code = 2',
    ),
    "text": ("_text.py", '"""Small text helpers', '"""Text helpers'),
    "ruleset-message": (
        "rules/ruleset.py",
        "cannot be combined with match=single",
        "does not go with match=single",
    ),
    "editions-message": (
        "rules/editions.py",
        "unknown card kind {key!r} in [points]",
        "unknown kind {key!r} in [points]",
    ),
    "values-message": (
        "rules/values.py",
        "must be a whole number, got {str(value)!r}",
        "must be an integer, got {str(value)!r}",
    ),
    "options-docstring": (
        "rules/options.py",
        "The one table of rule options",
        "The single table of rule options",
    ),
    "editions-toml": (
        "rules/editions.toml",
        "# Rule DATA for every edition",
        "# Rule data for every edition",
    ),
    # rules/cards.py and rules/spaces.py: the prose, the names, the helpers
    "cards-docstring": (
        "rules/cards.py",
        "Card kinds: the fixed enumeration",
        "Card kinds: the enumeration",
    ),
    "cards-function": (
        "rules/cards.py",
        "return k < FIRST_WILD and KIND_FACE[k] <= 9",
        "return bool(k < FIRST_WILD and KIND_FACE[k] < 10)",
    ),
    "cards-names": ("rules/cards.py", 'COLOURS = ("red", "yellow"', 'COLOURS = ("Red", "yellow"'),
    "spaces-docstring": (
        "rules/spaces.py",
        "Wheel spaces: one global id",
        "Wheel spaces: a global id",
    ),
    "spaces-names": ("rules/spaces.py", '    "war",\n', '    "wars",\n'),
    "spaces-table": (
        "rules/spaces.py",
        "SPACE_ID = {name: i for i, name in enumerate(SPACE_NAMES)}",
        "SPACE_ID = dict(zip(SPACE_NAMES, range(len(SPACE_NAMES))))",
    ),
    "cli": ("cli/__init__.py", "The command line:", "The command-line interface:"),
    "analysis": (
        "analysis/stats.py",
        "Estimators with confidence intervals",
        "Estimators, with confidence intervals,",
    ),
    "report": ("report/__init__.py", "The balance report:", "The balance report, i.e."),
    "encode-message": (
        "engine/encode.py",
        'f"{len(bots)} bots for {rules.players} players"',
        'f"{len(bots)} bots given for {rules.players} players"',
    ),
}

#: edits of a code the kernel compiles in (a strategy id, a bot column, a card kind, a space
#: id), or of the code that makes it: the key changes
COMPILED = {
    "bots-strategy-ids": (
        "engine/bot_codes.py",
        '"greedy",\n    "hoarder",',
        '"hoarder",\n    "greedy",',
    ),
    "bots-new-strategy": (
        "engine/bot_codes.py",
        '    "search",\n    "tuned",\n)',
        '    "search",\n    "tuned",\n    "new",\n)',
    ),
    "bots-strategy-constant": (
        "engine/bot_codes.py",
        'STRATEGY_HOARDER = STRATEGIES.index("hoarder")',
        'STRATEGY_HOARDER = STRATEGIES.index("greedy")',
    ),
    "bots-columns": (
        "engine/bot_codes.py",
        "B_VALUE_WHEEL) = range(27)",
        "B_VALUE_WHEEL) = range(1, 28)",
    ),
    "bots-n-columns": ("engine/bot_codes.py", "N_BOT_COLUMNS = 27", "N_BOT_COLUMNS = 28"),
    "cards-n-kinds": ("rules/card_codes.py", "N_KINDS = 94", "N_KINDS = 95"),
    "cards-kinds-per-colour": (
        "rules/card_codes.py",
        "KINDS_PER_COLOUR = 22",
        "KINDS_PER_COLOUR = 23",
    ),
    "cards-first-wild": ("rules/card_codes.py", "\nWILD = 88\n", "\nWILD = 87\n"),
    "cards-wd4": ("rules/card_codes.py", "WILD_DRAW_FOUR = 89", "WILD_DRAW_FOUR = 90"),
    "cards-face-table": (
        "rules/card_codes.py",
        "face[k] = FACE_SKIP + i - SKIP_OFFSET",
        "face[k] = FACE_SKIP + i - SKIP_OFFSET + 1",
    ),
    "spaces-wheels": (
        "rules/space_codes.py",
        "WHEEL_NONE, WHEEL_2005, WHEEL_2025 = 0, 1, 2",
        "WHEEL_NONE, WHEEL_2005, WHEEL_2025 = 0, 2, 1",
    ),
    "spaces-ids": ("rules/space_codes.py", "TWO_X) = range(9, 17)", "TWO_X) = range(10, 18)"),
    "spaces-n-spaces": (
        "rules/space_codes.py",
        "MAX_VARIANT_SPACES = 15",
        "MAX_VARIANT_SPACES = 16",
    ),
}


@pytest.mark.parametrize("case", sorted(NOT_COMPILED))
def test_key_ignores_an_edit_the_kernel_does_not_compile(edited, case):
    pkg, h0 = edited
    rel, old, new = NOT_COMPILED[case]
    replace_once(pkg / rel, old, new)
    assert source_hash(pkg) == h0


@pytest.mark.parametrize("case", sorted(COMPILED))
def test_key_follows_a_compiled_in_constant(edited, case):
    pkg, h0 = edited
    rel, old, new = COMPILED[case]
    replace_once(pkg / rel, old, new)
    assert source_hash(pkg) != h0


def test_key_ignores_new_code_outside_what_the_engine_imports(edited):
    pkg, h0 = edited
    for rel in (
        "bots.py",
        "errors.py",
        "rules/ruleset.py",
        "rules/editions.py",
        "rules/values.py",
        "rules/cards.py",
        "rules/spaces.py",
        "rules/__init__.py",
        "cli/__init__.py",
        "analysis/stats.py",
        "report/__init__.py",
    ):
        append(pkg / rel, '\n\ndef _added(x):\n    """New."""\n    raise ValueError(f"no {x}")\n')
        assert source_hash(pkg) == h0, rel
    (pkg / "analysis" / "new_analysis.py").write_text("X = 1\n")  # a new module elsewhere
    assert source_hash(pkg) == h0


def test_the_codes_and_their_names_agree():
    """cards.py and spaces.py name the codes card_codes.py and space_codes.py number."""
    from unospin_sim.rules import card_codes, cards, space_codes, spaces

    assert len(cards.KIND_NAMES) == card_codes.N_KINDS
    assert len(cards.WILD_NAMES) == card_codes.N_KINDS - card_codes.FIRST_WILD
    for i, name in enumerate(cards.WILD_NAMES):
        assert getattr(card_codes, name.upper()) == card_codes.FIRST_WILD + i
    assert spaces.N_PUBLISHED == len(spaces.SPACE_NAMES) == space_codes.N_PUBLISHED
    assert space_codes.N_SPACES == space_codes.N_PUBLISHED + space_codes.MAX_VARIANT_SPACES
    for name, i in spaces.SPACE_ID.items():
        assert getattr(space_codes, name.upper()) == getattr(spaces, name.upper()) == i


def test_key_follows_every_engine_module(edited):
    pkg, h0 = edited
    hashed = [f for f in source_files(pkg) if f.startswith("engine/")]
    assert len(hashed) >= 30 and set(hashed) == {
        p.relative_to(pkg).as_posix()
        for p in (pkg / "engine").rglob("*.py")
        if "__pycache__" not in p.parts
    } - set(cache_key.PYTHON_ONLY)
    for rel in source_files(pkg):  # even a comment: the files are hashed byte for byte
        path = pkg / rel
        data = path.read_bytes()
        append(path, "\n# edited\n")
        assert source_hash(pkg) != h0, rel
        path.write_bytes(data)
    assert source_hash(pkg) == h0


JIT_NAMES = {
    "njit",
    "jit",
    "hot",
    "inl",
    "cfunc",
    "vectorize",
    "guvectorize",
    "stencil",
    "jitclass",
    "overload",
    "generated_jit",
}


def _relative_imports(rel: str, tree) -> set[str]:
    """Package paths (``engine/encode``, no suffix) that file ``rel`` may import from, by its
    relative ``from`` imports (a module, or a submodule named in the import)."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level:
            base = rel.split("/")[:-1]
            base = base[: len(base) - (node.level - 1)]
            base += node.module.split(".") if node.module else []
            out.add("/".join(base))
            out.update("/".join(base + [a.name]) for a in node.names)
    return out


def test_python_only_engine_modules_compile_nothing():
    """What lets PYTHON_ONLY stay out of the key: they define no jitted function, and no
    engine module that does imports from them."""

    def uses_jit(tree):
        names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
        names |= {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
        return bool(names & JIT_NAMES)

    python_only = {rel.removesuffix(".py") for rel in cache_key.PYTHON_ONLY}
    assert python_only == {
        "engine/cache",
        "engine/cache_key",
        "engine/encode",
        "engine/policy/decisions",
    }
    for rel in cache_key.PYTHON_ONLY:
        assert not uses_jit(ast.parse((PACKAGE / rel).read_text())), rel
    jitting = 0
    for rel in source_files(PACKAGE):
        tree = ast.parse((PACKAGE / rel).read_text())
        if uses_jit(tree):
            jitting += 1
            assert not _relative_imports(rel, tree) & python_only, rel
    assert jitting >= 25


def test_current_hash_sees_edits_and_new_files(tmp_path, monkeypatch):
    pkg = copy_package(tmp_path)
    monkeypatch.setattr(cache_key, "PACKAGE_DIR", str(pkg))
    monkeypatch.setattr(cache_key, "_memo", (None, None, None))
    h0 = cache_key.current_hash()
    assert h0 == cache_key.current_hash() == source_hash(pkg)
    set_constant(pkg / "engine" / "layout.py", "MAX_CARDS", add=1)
    touch_later(pkg / "engine" / "layout.py")
    h1 = cache_key.current_hash()
    assert h1 == source_hash(pkg) != h0
    (pkg / "engine" / "rounds.py").write_text("X = 1\n")  # a new module of the engine
    h2 = cache_key.current_hash()
    assert h2 == source_hash(pkg) != h1
    # the modules the engine imports are watched too
    replace_once(
        pkg / "engine" / "bot_codes.py",
        "B_VALUE_WHEEL) = range(27)",
        "B_VALUE_WHEEL) = range(1, 28)",
    )
    h3 = cache_key.current_hash()
    assert h3 == source_hash(pkg) not in (h0, h1, h2)
    replace_once(pkg / "rules" / "card_codes.py", "N_KINDS = 94", "N_KINDS = 93")
    h4 = cache_key.current_hash()
    assert h4 == source_hash(pkg) not in (h0, h1, h2, h3)
    # an edit of what the engine does not import leaves the key
    replace_once(pkg / "bots.py", "MAX_ROLLOUTS = 100_000", "MAX_ROLLOUTS = 100")
    replace_once(pkg / "errors.py", '"""A bot string or bot knob is invalid."""', '"""Bad."""')
    assert cache_key.current_hash() == h4


def test_install_is_idempotent():
    from numba.core import caching

    cache.install()
    cache.install()
    cache._patch(caching)
    classes = caching.CacheImpl._locator_classes
    assert classes[0] is cache.locator_class()
    assert sum(getattr(c, "engine_dir", None) == cache_key.ENGINE_DIR for c in classes) == 1


def test_locator_falls_back_when_nothing_is_writable(monkeypatch):
    from numba.core import config

    monkeypatch.setattr(config, "CACHE_DIR", "")  # as without NUMBA_CACHE_DIR
    monkeypatch.setattr(cache, "_dirs", {})
    loc = cache.locator_class()
    engine_file = cache.__file__
    key = "numba-" + cache_key.current_hash()[: cache_key.HASH_CHARS]
    first = loc.from_function(cache.install, engine_file)
    assert first.get_cache_path() == os.path.join(cache_key.ENGINE_DIR, "__pycache__", key)
    assert first.get_source_stamp() == ("unospin_sim.engine", cache_key.current_hash())
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
    n_faces = set_constant(pkg / "rules" / "card_codes.py", "N_FACES")

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

    set_constant(pkg / "rules" / "card_codes.py", "N_FACES", add=1)
    fourth = run_probe(pkg)
    assert (fourth["misses"], fourth["hits"]) == (1, 0)
    assert fourth["value"] == 1 + (max_cards + 1) * 1000 + n_faces + 1

    # back to the original sources: the first directory is still there and is used
    set_constant(pkg / "engine" / "layout.py", "MAX_CARDS", max_cards)
    set_constant(pkg / "rules" / "card_codes.py", "N_FACES", n_faces)
    fifth = run_probe(pkg)
    assert (fifth["misses"], fifth["hits"]) == (0, 1)
    assert fifth["value"] == first["value"]
    assert fifth["cache_path"] == first["cache_path"]


@pytest.mark.slow  # two fresh interpreters, each compiling the probe
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
@pytest.mark.expensive
def test_kernel_recompiles_after_a_layout_constant_changes(tmp_path):
    """Two cold compiles of the kernel (minutes on 2 cores): the expensive tier
    (``pytest -m slow --run-expensive``); the probe tests above show the mechanism."""
    pkg = copy_package(tmp_path)
    timeout = 3600  # a cold compile of the whole kernel, on a busy machine

    first = run_copy(pkg, RUN_KERNEL, timeout=timeout)
    assert first["misses"] >= 1 and first["hits"] == 0
    path = Path(first["cache_path"])  # play_chunk may live in any module of the engine
    assert path.name == hash_dir(pkg) and path.is_relative_to(pkg / "engine"), path

    second = run_copy(pkg, RUN_KERNEL, timeout=timeout)
    assert second["hits"] >= 1 and second["misses"] == 0
    assert second["cache_path"] == first["cache_path"]

    # the kernel compiles MAX_CARDS in (pile offsets); 2 more plays the same games
    set_constant(pkg / "engine" / "layout.py", "MAX_CARDS", add=2)
    third = run_copy(pkg, RUN_KERNEL, timeout=timeout)
    assert third["misses"] >= 1 and third["hits"] == 0
    assert third["cache_path"] != first["cache_path"]


# ------------------------------------------------------------------ variants of one function
def _engine_dispatchers():
    """Every compiled engine function reachable from the engine's modules (module globals
    and the entry points per round loop), by its Python function."""
    import importlib
    import pkgutil

    from numba.core.dispatcher import Dispatcher

    import unospin_sim.engine as E
    from unospin_sim.engine import chunk

    found = {}
    for m in pkgutil.walk_packages(E.__path__, E.__name__ + "."):
        mod = importlib.import_module(m.name)
        for obj in vars(mod).values():
            if isinstance(obj, Dispatcher):
                found[id(obj.py_func)] = obj.py_func
    for eps in chunk.ENTRY_POINTS.values():
        for ep in eps:
            found[id(ep.py_func)] = ep.py_func
    return list(found.values())


def test_no_two_compiled_engine_functions_share_a_qualified_name():
    """numba names a function's machine code by module, qualified name and a per-process
    counter: two different functions with one qualified name (the variants a factory makes,
    such as the entry points of each round loop), compiled in two processes, can get one
    symbol, and a process that loads both from the cache runs one for the other
    (numba/numba#10486). jit.variant gives each variant a name of its own."""
    funcs = _engine_dispatchers()
    names = [(f.__module__, f.__qualname__) for f in funcs]
    dupes = sorted({n for n in names if names.count(n) > 1})
    assert not dupes, f"compiled engine functions sharing a qualified name: {dupes}"
    assert len(funcs) > 40
    assert {f.__qualname__.rsplit(".", 1)[-1] for f in funcs} >= {
        f"trace_game_{loop}" for loop in ("default", "house", "rlcard", "search")
    }


LOADER = r"""
import sys
from unospin_sim.run.playthrough import play_text
BOTS = ",".join(["random(forget=0.3,catch=0.7,bluff=1,challenge=1)"] * 3)
for rules in sys.argv[1:]:
    text = play_text(rules, BOTS, seed=7, game=0)
    print(rules, "stacks" if "faces a penalty of 4 cards" in text else "no stacking")
"""


@pytest.mark.slow
def test_loops_compiled_in_separate_processes_load_side_by_side(tmp_path):
    """The default loop compiled by one process, the house-rule loop by another (as a first
    `run` and a later `run --rules ...` would), then both loaded by a third: each runs its
    own code. (Before jit.variant the third process played the stacking game without
    stacking: 2026-12-02.)"""
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"), PYTHONPATH=str(PACKAGE.parent))
    plain, stacking = "classic(players=3)", "classic(players=3,stacking=true)"

    def run(*rules):
        proc = subprocess.run(
            [sys.executable, "-c", LOADER, *rules],
            env=env,
            capture_output=True,
            text=True,
            timeout=900,
        )
        assert proc.returncode == 0, proc.stderr[-2000:]
        return proc.stdout.split("\n")

    assert run(plain)[0] == f"{plain} no stacking"
    assert run(stacking)[0] == f"{stacking} stacks"
    assert run(plain, stacking)[:2] == [f"{plain} no stacking", f"{stacking} stacks"]
