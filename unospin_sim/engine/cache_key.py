"""The key of the engine's compiled-code cache (``cache.py`` installs it into numba): a hash of
what the compiled code reads, and no more.

What the key covers (:func:`source_hash`; the files it reads are :func:`source_files`):

1. the key scheme's version (:data:`KEY_VERSION`) and the numba and NumPy versions;
2. the path and bytes of every ``*.py`` under ``engine/``, subpackages included
   (:func:`engine_files`), except :data:`PYTHON_ONLY`: ``cache.py``, ``cache_key.py`` (this
   module), ``encode.py`` and ``policy/decisions.py`` (which writes ``policy/dispatch.py``,
   hashed) define no compiled function and no compiled module imports them (so nothing
   compiled can read them; ``tests/test_kernel_cache.py`` checks both), and ``encode.py``'s
   checks and error messages should not cost a recompile;
3. the constants the engine compiles in from modules outside ``engine/``
   (:func:`compiled_constants`), found from the engine's own imports, not from a list: every
   ``from ..bots import B_JUMP`` or ``from ..rules.cards import N_KINDS`` in a hashed engine
   file names a constant it reads, and ``from ..rules import spaces as sp`` names every
   ``sp.<NAME>`` that file uses (a module alias used any other way, a ``*`` import or an
   absolute ``import unospin_sim.x`` without ``as`` counts the whole module: its bytes are
   hashed). Today that is ``bots.py`` (``STRATEGY_*``, ``B_*``), ``rules/cards.py`` and
   ``rules/spaces.py``. For each such module the key holds ``ast.dump`` (no comments, line
   numbers or spacing) of its top-level statements, in order, that can make those
   constants' values: a statement is kept when it binds a needed name,
   or when it is not an assignment to plain names, a ``def``/``class``, an import or a
   docstring (a ``for`` loop, a call, ``X[i] = ...``: it might change a value); every name a
   kept statement reads, in any nested function too, is needed in turn. So
   ``FIRST_WILD = WILD`` brings in ``WILD``, ``KIND_FACE, ... = _build_tables()`` brings in
   the function ``_build_tables`` (docstrings of kept functions stripped) and every
   constant it reads, and ``STRATEGY_SEARCH = STRATEGIES.index("search")`` brings in
   ``STRATEGIES``. A needed name imported from another module of the package makes that
   name of that module needed, the same way. The assumption: a statement that only assigns
   names the engine does not read, and a ``def`` or ``class`` nothing needed calls, do not
   change a needed value.

Not in the key, so editing them recompiles nothing: everything else. The CLI, the analysis,
the report, ``errors.py``, ``_text.py``, ``rules/ruleset.py``, ``rules/options.py``,
``rules/editions.toml`` and ``engine/encode.py`` (rule data and bots reach the kernel as
arrays at run time, not as compiled-in constants), and in ``bots.py``, ``rules/cards.py`` and
``rules/spaces.py`` the docstrings, comments, functions the constants are not made with,
error messages, and constants the engine does not import (``bots.DEFAULTS``,
``bots.MAX_ROLLOUTS``, ``cards.N_FACES``, ``spaces.SPACE_ID``, ...).

:func:`current_hash` recomputes the key whenever one of those files changes its size or
modification time, or a file is added to or removed from ``engine/`` or a directory holding
one of those modules (the memo compares stat signatures, taken before reading), so a
module reloaded in a long-lived session after an edit does not write into the old hash's
directory. Like numba's own stamp, the key describes the files on disk: a process that
edits a source and then compiles without reloading the module compiles what it imported.
"""

from __future__ import annotations

import ast
import hashlib
import os
import threading

ENGINE_DIR = os.path.dirname(os.path.realpath(__file__))
PACKAGE_DIR = os.path.dirname(ENGINE_DIR)
ENGINE = "engine"  # the engine's directory under the package dir
#: engine modules that define no compiled function and that no compiled module imports:
#: not in the key (tests/test_kernel_cache.py checks both conditions)
PYTHON_ONLY = (
    "engine/cache.py",
    "engine/cache_key.py",
    "engine/encode.py",
    "engine/policy/decisions.py",
)
#: the first bytes hashed; change it when what the key covers changes
KEY_VERSION = b"unospin_sim engine cache key 2: engine sources + compiled-in constants\n"
HASH_CHARS = 16  # of the hex digest, in directory names
_WHOLE = None  # a requirement on a whole module (its bytes are hashed), not on some names


class _Sources:
    """Reads the package's files once each, noting every path's stat signature *before*
    using it (so an edit while the key is computed is seen by the next call of
    :func:`current_hash`): the files read and the directories listed or looked into."""

    def __init__(self, root: str):
        self.root = root
        self.pkg = os.path.basename(os.path.normpath(root))
        self.stats: dict = {}  # absolute path -> (mtime_ns, size) or None
        self._data: dict = {}
        self._trees: dict = {}

    def _path(self, rel: str) -> str:
        return os.path.join(self.root, *rel.split("/")) if rel else self.root

    def _note(self, path: str) -> None:
        if path not in self.stats:
            self.stats[path] = _stat_sig([path])[0]

    def py_files(self, sub: str) -> list[str]:
        """Relative paths (``/``-separated, sorted) of the ``*.py`` files below ``sub``."""
        found = []

        def walk(rel):
            path = self._path(rel)
            self._note(path)  # before listing it
            try:
                entries = sorted(os.scandir(path), key=lambda e: e.name)
            except OSError:
                return
            for e in entries:
                if e.is_dir(follow_symlinks=False):
                    if e.name != "__pycache__":
                        walk(f"{rel}/{e.name}")
                elif e.name.endswith(".py") and e.is_file():
                    found.append(f"{rel}/{e.name}")

        walk(sub)
        return sorted(found)

    def isfile(self, rel: str) -> bool:
        path = self._path(rel)
        self._note(os.path.dirname(path))
        return os.path.isfile(path)

    def read(self, rel: str) -> bytes:
        if rel not in self._data:
            path = self._path(rel)
            self._note(path)
            with open(path, "rb") as f:
                self._data[rel] = f.read()
        return self._data[rel]

    def parse(self, rel: str):
        """The module's syntax tree, or None when it does not parse (its import fails
        anyway; it is hashed whole)."""
        if rel not in self._trees:
            try:
                self._trees[rel] = ast.parse(self.read(rel), filename=rel)
            except (SyntaxError, ValueError):
                self._trees[rel] = None
        return self._trees[rel]

    def engine_files(self) -> list[str]:
        return [f for f in self.py_files(ENGINE) if f not in PYTHON_ONLY]

    def module_file(self, parts: list[str]) -> str | None:
        """The relative path of the package's module ``parts`` (``["rules", "cards"]``),
        or None."""
        for rel in ("/".join(parts) + ".py" if parts else None, "/".join(parts + ["__init__.py"])):
            if rel and self.isfile(rel):
                return rel
        return None


def engine_files(root: str | os.PathLike = PACKAGE_DIR) -> list[str]:
    """Relative paths of the engine sources hashed whole: every ``*.py`` under ``engine/``
    but :data:`PYTHON_ONLY`."""
    return _Sources(os.fspath(root)).engine_files()


def _from_parts(rel: str, level: int, module: str | None, pkg: str) -> list[str] | None:
    """The module a ``from`` import in file ``rel`` reads, as parts relative to the package
    dir, or None when it lies outside the package."""
    if level == 0:
        parts = (module or "").split(".")
        return parts[1:] if parts[0] == pkg else None
    base = rel.split("/")[:-1]
    if level - 1 > len(base):
        return None
    return base[: len(base) - (level - 1)] + (module.split(".") if module else [])


def _merge(req: dict, mod: str, names) -> bool:
    """Add ``names`` (a set, or :data:`_WHOLE`) of module ``mod`` to ``req``; whether it grew."""
    old = req.get(mod, set())
    if old is _WHOLE:
        return False
    new = _WHOLE if names is _WHOLE else old | set(names)
    if mod in req and new == old:
        return False
    req[mod] = new
    return True


def _outside(mod: str | None) -> bool:
    return mod is not None and not mod.startswith(ENGINE + "/")


def _import_targets(src: _Sources, rel: str, node):
    """``(bound name, module file, name)`` for each name import statement ``node`` in file
    ``rel`` binds from a package module outside ``engine/``; ``name`` is None when the bound
    name is that module itself (an alias) and ``"*"`` for a star import."""
    if isinstance(node, ast.ImportFrom):
        parts = _from_parts(rel, node.level, node.module, src.pkg)
        if parts is None or parts[:1] == [ENGINE]:
            return  # outside the package, or hashed whole
        mod = src.module_file(parts)
        package = mod is not None and mod.endswith("__init__.py")
        for a in node.names:
            sub = src.module_file(parts + [a.name]) if package and a.name != "*" else None
            if sub is not None:
                if _outside(sub):
                    yield a.asname or a.name, sub, None
            elif _outside(mod):
                yield a.asname or a.name, mod, a.name
    elif isinstance(node, ast.Import):
        for a in node.names:
            parts = a.name.split(".")
            mod = src.module_file(parts[1:]) if parts[0] == src.pkg else None
            if _outside(mod):
                # without ``as`` it is read as pkg.x.NAME: not traced, the whole module
                yield (a.asname, mod, None) if a.asname else (parts[0], mod, "*")


def _imports(src: _Sources, rel: str, tree, req: dict) -> bool:
    """Add to ``req`` what engine file ``rel`` (parsed: ``tree``) imports from package
    modules outside ``engine/``: names, or the attributes it reads of a module alias;
    whether ``req`` grew."""
    grew = False
    aliases = {}  # bound name -> module file
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            for bound, mod, name in _import_targets(src, rel, node):
                if name is None:
                    aliases[bound] = mod
                else:
                    grew |= _merge(req, mod, _WHOLE if name == "*" else {name})
    if aliases:
        used = {k: set() for k in aliases}
        dotted = set()
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id in aliases
            ):
                used[node.value.id].add(node.attr)
                dotted.add(id(node.value))
        for node in ast.walk(tree):
            if isinstance(node, ast.Name) and node.id in aliases and id(node) not in dotted:
                used[node.id] = _WHOLE  # passed around or rebound: not traced
        for k, mod in aliases.items():
            grew |= _merge(req, mod, used[k])
    return grew


def _plain_names(target, out: set) -> bool:
    """Add the names assignment target ``target`` binds to ``out``; False unless it binds
    plain names only (``X``, ``A, B``, ``*C``)."""
    if isinstance(target, ast.Name):
        out.add(target.id)
        return True
    if isinstance(target, (ast.Tuple, ast.List)):
        return all(_plain_names(t, out) for t in target.elts)
    if isinstance(target, ast.Starred):
        return _plain_names(target.value, out)
    return False


def _binds(stmt) -> set | None:
    """The names top-level statement ``stmt`` binds when it is kept only for them (an
    assignment to plain names, a def, a class, an import, a docstring), else None (kept)."""
    if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return {stmt.name}
    if isinstance(stmt, (ast.Import, ast.ImportFrom)):
        if any(a.name == "*" for a in stmt.names):
            return None
        return {a.asname or a.name.split(".")[0] for a in stmt.names}
    if isinstance(stmt, ast.Pass) or (
        isinstance(stmt, ast.Expr)
        and isinstance(stmt.value, ast.Constant)
        and isinstance(stmt.value.value, str)
    ):
        return set()
    targets = (
        stmt.targets
        if isinstance(stmt, ast.Assign)
        else [stmt.target]
        if isinstance(stmt, (ast.AnnAssign, ast.AugAssign))
        else None
    )
    names: set = set()
    if targets is None or not all(_plain_names(t, names) for t in targets):
        return None
    return names


class _StripDocstrings(ast.NodeTransformer):
    def _strip(self, node):
        self.generic_visit(node)
        body = node.body
        if (
            body
            and isinstance(body[0], ast.Expr)
            and isinstance(body[0].value, ast.Constant)
            and isinstance(body[0].value.value, str)
        ):
            node.body = body[1:] or [ast.Pass()]
        return node

    visit_FunctionDef = visit_AsyncFunctionDef = visit_ClassDef = _strip


def _constant_code(src: _Sources, rel: str, names: set, req: dict) -> tuple[bytes, bool]:
    """What of module ``rel`` the key holds when the engine reads ``names`` of it: the
    ``ast.dump`` of the statements that can make their values (see the module docstring);
    and whether ``req`` grew by the package names those statements import."""
    tree = src.parse(rel)
    if tree is None:
        return src.read(rel), False
    body = tree.body
    binds = [_binds(s) for s in body]
    needed = set(names)
    kept = [b is None for b in binds]
    seen = [False] * len(body)
    changed = True
    while changed:
        changed = False
        for i, s in enumerate(body):
            if not kept[i] and binds[i] & needed:
                kept[i] = True
            if kept[i] and not seen[i]:
                seen[i] = changed = True
                needed |= {n.id for n in ast.walk(s) if isinstance(n, ast.Name)}
    grew = False
    stmts = []
    for s, keep in zip(body, kept):
        if not keep:
            continue
        if isinstance(s, (ast.Import, ast.ImportFrom)):
            for bound, mod, name in _import_targets(src, rel, s):
                if name == "*" or bound in needed:  # a module alias: not traced here
                    grew |= _merge(req, mod, {name} if name not in (None, "*") else _WHOLE)
        stmts.append(ast.dump(_StripDocstrings().visit(s)))
    return "\n".join(stmts).encode(), grew


def _constants(src: _Sources) -> tuple[dict, dict]:
    """The names the engine reads of each package module outside it (:data:`_WHOLE` for a
    whole module), and what the key holds of each of those modules."""
    req: dict = {}
    for rel in src.engine_files():
        tree = src.parse(rel)
        if tree is not None:
            _imports(src, rel, tree, req)
    code: dict = {}
    grew = True
    while grew:  # until the modules' own imports add nothing
        grew = False
        for mod in sorted(req):
            if req[mod] is _WHOLE:
                code[mod] = src.read(mod)
            else:
                code[mod], g = _constant_code(src, mod, req[mod], req)
                grew |= g
    return req, code


def compiled_constants(root: str | os.PathLike = PACKAGE_DIR) -> dict:
    """``{module file: sorted names the engine reads of it, or None for the whole module}``
    for the package modules outside ``engine/`` the engine imports from (see the module
    docstring)."""
    req, _ = _constants(_Sources(os.fspath(root)))
    return {m: None if n is _WHOLE else sorted(n) for m, n in sorted(req.items())}


def source_files(root: str | os.PathLike = PACKAGE_DIR) -> list[str]:
    """Relative paths (``/``-separated, sorted) of the files the key reads under package dir
    ``root``: :func:`engine_files` whole, and the modules of :func:`compiled_constants`."""
    src = _Sources(os.fspath(root))
    return sorted(src.engine_files() + list(_constants(src)[0]))


def _versions() -> bytes:
    import numba
    import numpy

    return f"numba {numba.__version__}\nnumpy {numpy.__version__}\n".encode()


def _key(src: _Sources) -> str:
    """:func:`source_hash` of ``src``'s package dir."""
    h = hashlib.sha256(KEY_VERSION + _versions())
    for rel in src.engine_files():
        data = src.read(rel)
        h.update(b"%s\0%d\0" % (rel.encode(), len(data)))
        h.update(data)
    _, code = _constants(src)
    for mod in sorted(code):
        h.update(b"constants of %s\0%d\0" % (mod.encode(), len(code[mod])))
        h.update(code[mod])
    return h.hexdigest()


def source_hash(root: str | os.PathLike = PACKAGE_DIR) -> str:
    """sha256 (hex) of what the engine's compiled code reads under package dir ``root`` (the
    directory holding ``engine/``, ``rules/`` and ``bots.py``): the key scheme's version,
    numba's and NumPy's versions, the bytes of :func:`engine_files` and the code that makes
    the constants of :func:`compiled_constants` (see the module docstring)."""
    return _key(_Sources(os.fspath(root)))


_memo_lock = threading.Lock()
_memo: tuple = (None, None, None)  # (paths read or listed, their stat signature, hash)


def _stat_sig(paths) -> tuple:
    sig = []
    for p in paths:
        try:
            st = os.stat(p)
            sig.append((st.st_mtime_ns, st.st_size))
        except OSError:
            sig.append(None)
    return tuple(sig)


def current_hash() -> str:
    """:func:`source_hash` of this package, recomputed only when a file it read changed its
    size or mtime, or a directory it listed or looked into changed (a file added, removed
    or replaced), since the last call (this runs once per jitted function defined, so it
    stats rather than reads)."""
    global _memo
    with _memo_lock:
        paths, sig, digest = _memo
        if paths is not None and _stat_sig(paths) == sig:
            return digest
        src = _Sources(PACKAGE_DIR)
        digest = _key(src)
        _memo = (tuple(src.stats), tuple(src.stats.values()), digest)
        return digest
