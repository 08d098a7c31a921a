"""Random numbers: one SplitMix64 stream per game, kept in ``State.s[S_RNG]``.

Game ``g`` of a run seeded ``S`` is seeded ``game_seed(S, g)``, so results never depend on
the thread count or the chunking. Bounded integers use multiply-shift (``below``).
"""

import numpy as np

from .jit import hot
from .layout import S_RNG

U64 = np.uint64
GOLDEN = np.uint64(0x9E3779B97F4A7C15)
MIX1 = np.uint64(0xBF58476D1CE4E5B9)
MIX2 = np.uint64(0x94D049BB133111EB)
SH30, SH27, SH31, SH32, SH11 = U64(30), U64(27), U64(31), U64(32), U64(11)
INV53 = 1.0 / 9007199254740992.0


@hot
def mix64(z):
    z = (z ^ (z >> SH30)) * MIX1
    z = (z ^ (z >> SH27)) * MIX2
    return z ^ (z >> SH31)


@hot
def game_seed(seed, game):
    """Seed of game ``game`` of a run seeded ``seed`` (both uint64)."""
    return mix64(seed + (game + U64(1)) * GOLDEN)


@hot
def rnext(s):
    z = U64(s[S_RNG]) + GOLDEN
    s[S_RNG] = np.int64(z)
    return mix64(z)


@hot
def below(s, n):
    """Uniform integer in [0, n), n < 2**32 (multiply-shift); the stream is s[S_RNG]."""
    return np.int64(((rnext(s) >> SH32) * U64(n)) >> SH32)


@hot
def unif(s):
    """Uniform float in [0, 1) from the stream s[S_RNG]."""
    return np.float64(rnext(s) >> SH11) * INV53
