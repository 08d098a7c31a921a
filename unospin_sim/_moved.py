"""Old import paths of the modules that moved into their rooms in 0.2, kept for one release.

``import unospin_sim.tournament`` (or ``runner``, ``tune``, ``design``, ``inference``,
``precompile``, ``playthrough``, ``run.chunk``) still works and returns the module at its new
home, with a :class:`DeprecationWarning` naming the new path; 0.3 removes these names.
``unospin_sim.runner`` was a door re-exporting names of :mod:`unospin_sim.run`,
:mod:`unospin_sim.bots` and :mod:`unospin_sim.results`: it becomes a module holding the same
names. :func:`install` (run by the package's ``__init__``) puts the finder first in
``sys.meta_path``; it answers only for the names in :data:`MOVED` and their submodules.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.util
import sys
import types
import warnings

#: old module name -> its home since 0.2
MOVED = {
    "unospin_sim.runner": "unospin_sim.run",
    "unospin_sim.tournament": "unospin_sim.studies.tournament",
    "unospin_sim.tune": "unospin_sim.studies.tune",
    "unospin_sim.design": "unospin_sim.studies.design",
    "unospin_sim.inference": "unospin_sim.studies.inference_quality",
    "unospin_sim.precompile": "unospin_sim.run.warmup",
    "unospin_sim.playthrough": "unospin_sim.run.playthrough",
    "unospin_sim.run.chunk": "unospin_sim.run.work",
}
#: names ``unospin_sim.runner`` re-exported from outside :mod:`unospin_sim.run`
RUNNER_EXTRAS = {
    "unospin_sim.bots": (
        "SEARCH_KNOBS_BEFORE_COLOURS",
        "SEARCH_KNOBS_BEFORE_EXTEND",
        "SEARCH_KNOBS_BEFORE_HORIZON",
        "SEARCH_SAVED_KNOBS",
        "saved_bot_string",
        "saved_bots",
    ),
    "unospin_sim.results": ("Results",),
}


def new_home(name: str) -> str | None:
    """The module that old module ``name`` now is (``None``: ``name`` did not move)."""
    for old, new in MOVED.items():
        if name == old or name.startswith(old + "."):
            return new + name[len(old) :]
    return None


class _Finder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def find_spec(self, fullname, path, target=None):
        if new_home(fullname) is None:
            return None
        return importlib.util.spec_from_loader(fullname, self)

    def create_module(self, spec):
        new = new_home(spec.name)
        assert new is not None  # find_spec made a spec only for a moved name
        # stacklevel 2: the import machinery's frames are skipped, so the warning names the
        # line that imported the old name
        warnings.warn(
            f"{spec.name} is now {new}; the old name is removed in unospin_sim 0.3",
            DeprecationWarning,
            stacklevel=2,
        )
        module = importlib.import_module(new)
        if spec.name != "unospin_sim.runner":
            return module
        runner = types.ModuleType(spec.name, "The names of the former runner module.")
        for name in module.__all__:
            setattr(runner, name, getattr(module, name))
        for home, names in RUNNER_EXTRAS.items():
            for name in names:
                setattr(runner, name, getattr(importlib.import_module(home), name))
        # a module's __all__ is a plain attribute, which ModuleType does not declare
        runner.__all__ = sorted(n for n in vars(runner) if not n.startswith("_"))  # type: ignore[attr-defined]
        return runner

    def exec_module(self, module):
        pass


_FINDER = _Finder()


def install() -> None:
    """Put the finder of the old names first in ``sys.meta_path`` (once)."""
    if _FINDER not in sys.meta_path:
        sys.meta_path.insert(0, _FINDER)
