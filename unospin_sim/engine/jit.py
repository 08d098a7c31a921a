"""The two ways the engine compiles a function.

Every engine function allocates nothing, so it is compiled without NRT reference counting:
numba otherwise increfs/decrefs each array of the State at every call (~5 ns per array).
Functions on the default round's per-turn path are inlined at numba-IR level (``inl``): a
call that is not inlined passes every array descriptor by value, ~15 ns a call. Measured on
classic, 4 random bots, one thread: 34 us -> 7.6 us -> 2.5 us per round (see benchmarks/).

An ``inl`` function is compiled again into every function that calls it, so compile time
and memory grow with its callers. The rule (docs/ARCHITECTURE.md "Compiling once"): inline
what the default loop runs on most turns (the default turn, random's and heuristic's
choices, the wheel spins of the default rules); make everything else a ``hot`` function,
compiled once and called: the house-rule turn and its spins, a space that runs a program,
the added strategies, the rare policy questions, the search, rlcard, the round loops
themselves. LLVM may still inline a small ``hot`` callee.

The compiled-code cache is keyed on the engine's sources and the constants it compiles in
(``engine/cache.py``, installed by ``engine/__init__.py``), because inlined functions and
module constants come from files other than the one numba stamps.
"""

from numba import njit

#: compiled once, called (a function body of its own)
hot = njit(cache=True, _nrt=False)
#: compiled into each caller (the per-turn path)
inl = njit(cache=True, _nrt=False, inline="always")


def variant(deco, name):
    """``deco`` (``hot``, ``inl`` or an ``njit``) applied to the function renamed
    ``<qualname>_<name>``, for the functions a factory compiles once per variant (the round
    loops, the entry points per loop, the turns).

    They must not share a qualified name: numba names the machine code of a function by its
    module, qualified name and a counter of the compiling process, so two variants compiled
    in two processes (say the default loop by a first ``run``, the house-rule loop by a later
    one) can get the same symbol, and a process that loads both from the cache then runs one
    variant's code for the other (numba/numba#10486). Measured on numba 0.68: a process
    that loaded the default loop's ``trace_game`` first played ``stacking`` rounds without
    stacking (tests/test_kernel_cache.py pins it)."""

    def apply(fn):
        fn.__name__ = f"{fn.__name__}_{name}"
        fn.__qualname__ = f"{fn.__qualname__}_{name}"
        return deco(fn)

    return apply
