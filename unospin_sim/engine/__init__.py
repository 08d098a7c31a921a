"""The jitted game core: kernel modules, the state layout and the encoder of rule sets and bots.

Importing this package first installs the engine's compiled-code cache (``cache.py``): every
``njit(cache=True)`` function defined under ``engine/`` is cached in a directory keyed on a
hash of the engine's, the rules' and the bots' sources, so an edit to any of them (a constant
in ``layout.py`` or ``rules/cards.py``, say) recompiles the kernel instead of loading a stale
one. This does not import numba.
"""

from . import cache as _cache

_cache.install()
