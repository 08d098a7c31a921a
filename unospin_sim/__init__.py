"""unospin_sim: a numba Monte Carlo toolkit for UNO Spin (and classic UNO).

The main entry points are loaded lazily, so ``import unospin_sim`` stays light (no numba,
pandas or pyarrow until they are used)::

    from unospin_sim import simulate, RuleSet, parse_rules, parse_bots, load_results, Results

See README.md for the command line and docs/ARCHITECTURE.md for the internal contracts.
"""

from __future__ import annotations

import importlib

from . import _moved

__version__ = "0.2.0"

_moved.install()  # the modules that moved in 0.2 answer at their old paths for one release

# public name -> module that defines it (imported on first access)
_LAZY = {
    "simulate": "unospin_sim.run",
    "RuleSet": "unospin_sim.rules.ruleset",
    "parse_rules": "unospin_sim.rules.ruleset",
    "parse_bots": "unospin_sim.bots",
    "load_results": "unospin_sim.results",
    "Results": "unospin_sim.results",
}

__all__ = ["__version__", *_LAZY]


def __getattr__(name: str):
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'unospin_sim' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(_LAZY))
