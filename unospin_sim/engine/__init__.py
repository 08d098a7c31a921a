"""The jitted game core: kernel modules, the state layout and the encoder of rule sets and bots.

Importing this package first installs the engine's compiled-code cache (``cache.py``): every
``njit(cache=True)`` function defined under ``engine/`` is cached in a directory keyed on a
hash of the engine's modules and of the package modules they import (the codes of
``bot_codes.py``, ``rules/card_codes.py`` and ``rules/space_codes.py``: a ``STRATEGY_*`` or
card-kind value, say), so such an edit recompiles the kernel instead of loading a stale one,
while an edit elsewhere (an error text, the CLI, ``bots.py``) does not. This does not import
numba.
"""

from . import cache as _cache

_cache.install()
