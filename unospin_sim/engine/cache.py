"""Compiled-code cache of the engine: keyed on what the compiled code reads, and no more.

numba's ``cache=True`` checks only the file a function is defined in. The engine's
functions also inline functions of the other engine modules and compile in constants of
``layout.py``, ``rules/cards.py``, ``rules/spaces.py`` and ``bots.py``, so an edit there
would leave a compiled kernel in ``__pycache__`` that still loads and silently plays the
old rules. :func:`install` (run by ``engine/__init__.py`` before any engine module is
imported) puts a numba cache locator first in numba's list. For functions defined in files
under ``unospin_sim/engine/`` it

* caches in a directory keyed on :func:`source_hash` (``cache_key.py`` says what the key
  covers): ``engine/__pycache__/numba-<hash>/``,
  or ``$NUMBA_CACHE_DIR/<dir>_<sha1>/numba-<hash>/`` when ``NUMBA_CACHE_DIR`` is set, or the
  user-wide numba cache dir (``~/.cache/numba/<dir>_<sha1>/numba-<hash>/``) when the package
  dir is not writable, or a private temporary directory of the process (removed at exit)
  when none of these is writable;
* returns the full hash as the source stamp, so an index can never be reused across sources.

Functions outside the engine keep numba's default behaviour.

Old ``numba-<hash>`` directories are not removed (each holds one compiled kernel, a few
MB); deleting ``__pycache__/numba-*`` at any time is safe. The locator is bypassed if the
user sets ``NUMBA_CACHE_LOCATOR_CLASSES`` (numba then uses only the classes named there).

Importing this module does not import numba: if numba is not imported yet, :func:`install`
hooks the import of ``numba.core.caching`` and patches it as soon as it is loaded.
"""

from __future__ import annotations

import atexit
import functools
import importlib.abc
import os
import shutil
import sys
import tempfile
import threading

from .cache_key import (
    ENGINE_DIR,
    HASH_CHARS,
    PACKAGE_DIR,
    PYTHON_ONLY,
    compiled_constants,
    current_hash,
    engine_files,
    source_files,
    source_hash,
)

__all__ = [
    "PACKAGE_DIR",
    "PYTHON_ONLY",
    "compiled_constants",
    "current_hash",
    "engine_files",
    "in_engine",
    "install",
    "locator_class",
    "source_files",
    "source_hash",
]

_CACHING = "numba.core.caching"
_lock = threading.Lock()


@functools.cache
def in_engine(py_file: str) -> bool:
    """Whether source file ``py_file`` lies under this package's ``engine/`` directory."""
    try:
        path = os.path.realpath(py_file)
    except (TypeError, ValueError):
        return False
    return path.startswith(ENGINE_DIR + os.sep) and os.path.isfile(path)


_private_dir = None


def _private_cache_dir() -> str:
    """A temporary directory of this process, removed at exit (nothing else was writable)."""
    global _private_dir
    with _lock:
        if _private_dir is None:
            _private_dir = tempfile.mkdtemp(prefix="unospin_sim-numba-")
            atexit.register(shutil.rmtree, _private_dir, ignore_errors=True)
        return _private_dir


_locator_class = None
_dirs: dict = {}  # (source dir, hash, NUMBA_CACHE_DIR) -> cache dir, once found writable


def locator_class():
    """The numba cache locator class for engine functions (created on first use, since it
    subclasses a numba class)."""
    global _locator_class
    if _locator_class is not None:
        return _locator_class
    from numba.core import caching, config
    from numba.misc.appdirs import AppDirs

    class EngineCacheLocator(caching._CacheLocator):
        """Caches an engine function under a directory keyed on the engine's source hash."""

        engine_dir = ENGINE_DIR

        def __init__(self, py_func, py_file, cache_path, digest):
            self._py_file = py_file
            self._lineno = py_func.__code__.co_firstlineno
            self._cache_path = cache_path
            self._stamp = ("unospin_sim.engine", digest)

        def get_cache_path(self):
            return self._cache_path

        def get_source_stamp(self):
            return self._stamp

        def get_disambiguator(self):
            return str(self._lineno)

        @classmethod
        def candidate_dirs(cls, py_file, digest):
            """Cache directories to try, best first."""
            key = f"numba-{digest[:HASH_CHARS]}"
            if config.CACHE_DIR:
                yield os.path.join(config.CACHE_DIR, cls.get_suitable_cache_subpath(py_file), key)
            yield os.path.join(os.path.dirname(py_file), "__pycache__", key)
            yield os.path.join(
                AppDirs(appname="numba", appauthor=False).user_cache_dir,
                cls.get_suitable_cache_subpath(py_file),
                key,
            )

        @classmethod
        def from_function(cls, py_func, py_file):
            if not in_engine(py_file):
                return None  # numba's own locators
            digest = current_hash()
            # one writable directory per source directory and hash, checked once a process
            # (numba checks again before each save)
            where = (os.path.dirname(py_file), digest, config.CACHE_DIR)
            path = _dirs.get(where)
            if path is None:
                for path in cls.candidate_dirs(py_file, digest):
                    try:
                        cls(py_func, py_file, path, digest).ensure_cache_path()
                        break
                    except OSError:
                        continue
                else:
                    # never numba's locators: they would key on this file only
                    path = _private_cache_dir()
                _dirs[where] = path
            return cls(py_func, py_file, path, digest)

    _locator_class = EngineCacheLocator
    return _locator_class


def _patch(caching) -> None:
    """Put the engine locator first in ``caching.CacheImpl._locator_classes`` (once)."""
    classes = caching.CacheImpl._locator_classes
    if not any(getattr(c, "engine_dir", None) == ENGINE_DIR for c in classes):
        classes.insert(0, locator_class())


class _PatchingLoader(importlib.abc.Loader):
    """Runs the real loader of ``numba.core.caching``, then patches the module."""

    def __init__(self, loader, finder):
        self._loader, self._finder = loader, finder

    def create_module(self, spec):
        return self._loader.create_module(spec)

    def exec_module(self, module):
        self._loader.exec_module(module)
        module.__loader__ = self._loader
        if module.__spec__ is not None:
            module.__spec__.loader = self._loader
        _patch(module)
        if self._finder in sys.meta_path:
            sys.meta_path.remove(self._finder)

    def __getattr__(self, name):
        loader = self.__dict__.get("_loader")
        if loader is None:
            raise AttributeError(name)
        return getattr(loader, name)


class _CachingImportHook(importlib.abc.MetaPathFinder):
    """Finds ``numba.core.caching`` through the other finders and wraps its loader."""

    def find_spec(self, fullname, path, target=None):
        if fullname != _CACHING:
            return None
        for finder in list(sys.meta_path):
            find = getattr(finder, "find_spec", None)
            if finder is self or find is None:
                continue
            spec = find(fullname, path, target)
            if spec is not None:
                if spec.loader is not None and hasattr(spec.loader, "exec_module"):
                    spec.loader = _PatchingLoader(spec.loader, self)
                return spec
        return None


_installed = False
_install_lock = threading.Lock()


def install() -> None:
    """Make numba cache engine functions under the source hash. Idempotent; does not import
    numba (patches ``numba.core.caching`` when it is imported, or now if it already is)."""
    global _installed
    with _install_lock:
        if _installed:
            return
        _installed = True
        caching = sys.modules.get(_CACHING)
        if caching is not None:
            _patch(caching)
        else:
            sys.meta_path.insert(0, _CachingImportHook())
