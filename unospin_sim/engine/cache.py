"""Compiled-code cache of the engine: keyed on what the compiled code reads, and no more.

:func:`install` (run by ``engine/__init__.py``; numba not imported) puts first in numba's
list a locator that caches each function defined under ``engine/`` in ``numba-<hash>``
(``cache_key.source_hash``, also the source stamp) under ``$NUMBA_CACHE_DIR/<dir>_<sha1>/``
when that is set, else ``engine/__pycache__/``, else numba's user-wide cache dir, else a
temporary directory removed at exit: the first writable. Other functions keep numba's own.
"""

from __future__ import annotations

import atexit
import functools
import importlib.util
import os
import shutil
import sys
import tempfile
import threading

from .cache_key import ENGINE_DIR, HASH_CHARS, current_hash

_CACHING = "numba.core.caching"
_lock = threading.Lock()
_installed = False
_dirs: dict = {}  # (source dir, hash, NUMBA_CACHE_DIR) -> cache dir, once found writable


@functools.cache
def in_engine(py_file: str) -> bool:
    """Whether source file ``py_file`` lies under this package's ``engine/`` directory."""
    path = os.path.realpath(py_file) if isinstance(py_file, str) else ""
    return path.startswith(ENGINE_DIR + os.sep) and os.path.isfile(path)


@functools.cache
def _private_cache_dir() -> str:
    """A temporary directory of this process, removed at exit (nothing else was writable)."""
    path = tempfile.mkdtemp(prefix="unospin_sim-numba-")
    atexit.register(shutil.rmtree, path, ignore_errors=True)
    return path


@functools.cache
def locator_class():
    """The engine's numba cache locator class (made on first use: it subclasses numba's)."""
    from numba.core import caching, config
    from numba.misc.appdirs import AppDirs

    class EngineCacheLocator(caching._CacheLocator):
        """Caches an engine function under a directory keyed on the engine's source hash."""

        engine_dir = ENGINE_DIR

        def __init__(self, py_func, py_file, cache_path, digest):
            self._lineno = py_func.__code__.co_firstlineno
            self._cache_path = cache_path
            self._stamp = ("unospin_sim.engine", digest)

        get_cache_path = lambda self: self._cache_path
        get_source_stamp = lambda self: self._stamp
        get_disambiguator = lambda self: str(self._lineno)

        @classmethod
        def from_function(cls, py_func, py_file):
            if not in_engine(py_file):
                return None  # numba's own locators
            digest = current_hash()
            where = (os.path.dirname(py_file), digest, config.CACHE_DIR)
            if where not in _dirs:  # the first writable, found once a process
                key, sub = f"numba-{digest[:HASH_CHARS]}", cls.get_suitable_cache_subpath(py_file)
                user = AppDirs(appname="numba", appauthor=False).user_cache_dir
                dirs = [os.path.join(config.CACHE_DIR, sub, key)] if config.CACHE_DIR else []
                dirs += [os.path.join(where[0], "__pycache__", key), os.path.join(user, sub, key)]
                for path in dirs:
                    try:
                        cls(py_func, py_file, path, digest).ensure_cache_path()
                        break
                    except OSError:
                        continue
                else:  # never numba's locators: they key on one file
                    path = _private_cache_dir()
                _dirs[where] = path
            return cls(py_func, py_file, _dirs[where], digest)

    return EngineCacheLocator


def _patch(caching) -> None:
    """Put the engine locator first in ``caching.CacheImpl._locator_classes`` (once)."""
    classes = caching.CacheImpl._locator_classes
    if not any(getattr(c, "engine_dir", None) == ENGINE_DIR for c in classes):
        classes.insert(0, locator_class())


class _CachingImportHook:
    """Finds ``numba.core.caching`` through the other finders; patches it once loaded."""

    def find_spec(self, fullname, path=None, target=None):  # a meta path finder
        if fullname != _CACHING:
            return None
        sys.meta_path.remove(self)
        spec = importlib.util.find_spec(fullname)
        run = getattr(spec and spec.loader, "exec_module", None)
        if run is not None:

            def exec_module(module):
                run(module)
                _patch(module)

            spec.loader.exec_module = exec_module
        return spec


def install() -> None:
    """Patch ``numba.core.caching`` now if imported, else once it is (idempotent)."""
    global _installed
    with _lock:
        if not _installed:
            _installed = True
            if _CACHING in sys.modules:
                _patch(sys.modules[_CACHING])
            else:
                sys.meta_path.insert(0, _CachingImportHook())
