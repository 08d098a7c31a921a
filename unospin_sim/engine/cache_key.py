"""The key of the engine's compiled-code cache: :func:`source_hash` hashes numba's and NumPy's
versions and, path and bytes, every ``*.py`` under ``engine/`` but :data:`PYTHON_ONLY` (no
compiled function, imported by no compiled module: ``tests/test_kernel_cache.py``) and every
package module they import, in turn (``from ..rules import space_codes``: that file, not
``rules/__init__.py``). The engine's codes live in modules of their own (``bot_codes.py``,
``rules/card_codes.py``, ``rules/space_codes.py``): editing ``bots.py``, ``rules/cards.py``,
the CLI or an error text recompiles nothing."""

from __future__ import annotations

import ast
import hashlib
import os
import threading

ENGINE_DIR = os.path.dirname(os.path.realpath(__file__))
PACKAGE_DIR = os.path.dirname(ENGINE_DIR)
PYTHON_ONLY = ("engine/cache.py", "engine/cache_key.py", "engine/encode.py")
PYTHON_ONLY += ("engine/policy/decisions.py",)  # it writes policy/dispatch.py (hashed)
KEY_VERSION = b"unospin_sim engine cache key 3: the engine's modules and what they import\n"
HASH_CHARS = 16  # of the hex digest, in directory names


def _stat(path: str) -> tuple | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_mtime_ns, st.st_size


class _Sources:
    """The package's files under ``root``; ``stats``: each path's, taken before its use."""

    def __init__(self, root: str):
        self.root, self.pkg = root, os.path.basename(os.path.normpath(root))
        self.stats: dict = {}  # absolute path -> (mtime_ns, size) or None

    def path(self, rel: str) -> str:
        path = os.path.join(self.root, *rel.split("/"))
        self.stats.setdefault(path, _stat(path))
        return path

    def module(self, parts: list[str]) -> str | None:
        """The file of package module ``parts`` (``[]``: ``__init__.py``), or None."""
        for rel in ("/".join(parts) + ".py", "/".join([*parts, "__init__.py"])):
            self.path(os.path.dirname(rel))  # a module added there changes the key
            if rel != ".py" and os.path.isfile(self.path(rel)):
                return rel
        return None

    def imports(self, rel: str, data: bytes):
        """The package modules the imports of file ``rel`` (``data``) read."""
        try:
            tree = ast.parse(data, filename=rel)
        except (SyntaxError, ValueError):
            return  # its import fails anyway
        base = rel.split("/")[:-1]
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for a in node.names:
                    if a.name.split(".")[0] == self.pkg:
                        yield self.module(a.name.split(".")[1:])
            elif isinstance(node, ast.ImportFrom):
                mod = (node.module or "").split(".")
                if node.level:
                    parts = base[: len(base) + 1 - node.level] + [m for m in mod if m]
                elif mod[0] == self.pkg:
                    parts = mod[1:]
                else:
                    continue
                for a in node.names:  # a submodule, else a name of the module
                    yield self.module([*parts, a.name]) or self.module(parts)

    def files(self) -> dict:
        """``{relative path: bytes}`` of :func:`source_files`."""
        todo, found = [], {}
        for top, dirs, names in os.walk(self.path("engine")):
            rel = os.path.relpath(top, self.root).replace(os.sep, "/")
            # each directory's stat taken (self.path) before os.walk lists it
            dirs[:] = [d for d in dirs if d != "__pycache__" and self.path(f"{rel}/{d}")]
            todo += [f"{rel}/{n}" for n in names if n.endswith(".py")]
        while todo:
            rel = todo.pop()
            if rel is None or rel in found or rel in PYTHON_ONLY:
                continue
            with open(self.path(rel), "rb") as f:
                found[rel] = f.read()
            todo += self.imports(rel, found[rel])
        return found


def source_files(root: str | os.PathLike = PACKAGE_DIR) -> list[str]:
    """The files the key hashes (``/``-separated, relative to package dir ``root``)."""
    return sorted(_Sources(os.fspath(root)).files())


def source_hash(root: str | os.PathLike = PACKAGE_DIR, stats: dict | None = None) -> str:
    """sha256 (hex) of the versions and :func:`source_files` under package dir ``root``;
    ``stats`` gets the stat of every path read or looked into (taken before using it)."""
    import numba
    import numpy

    src = _Sources(os.fspath(root))
    h = hashlib.sha256(KEY_VERSION + f"{numba.__version__} {numpy.__version__}".encode())
    for rel, data in sorted(src.files().items()):
        h.update(b"\0%s\0%d\0" % (rel.encode(), len(data)) + data)
    if stats is not None:
        stats.update(src.stats)
    return h.hexdigest()


_memo_lock = threading.Lock()
_memo: tuple = (None, None, None)  # (paths read or listed, their stat signature, hash)


def current_hash() -> str:
    """:func:`source_hash` of this package, redone when a path it read or looked into changed."""
    global _memo
    with _memo_lock:
        paths, sig, digest = _memo
        if paths is None or tuple(map(_stat, paths)) != sig:
            stats: dict = {}
            digest = source_hash(PACKAGE_DIR, stats)
            _memo = (tuple(stats), tuple(stats.values()), digest)
        return digest
