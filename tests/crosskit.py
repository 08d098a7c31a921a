"""Shared plumbing of the engine-vs-reference cross-checks that run outside pytest's default
tier: ``tests/test_mutants.py`` (its cross-check stage) and ``tests/crosscheck_powered.py``.

Both sides are reduced to the same per-round numpy arrays (:func:`ref_arrays` from
``unospin_sim.reference``, :func:`engine_arrays` from the numba engine's ``Results.rounds``)
and compared statistic by statistic (:func:`zscores`). The reference side calls only the
reference's public API (``play_round``, ``round_seed``, ``WHEELS``); nothing here touches
``unospin_sim.engine``.
"""

from __future__ import annotations

import numpy as np

#: per-round columns compared for every configuration (besides the per-seat ones)
ROUND_COLS = ("turns", "winner_points", "cards_drawn", "failed_draws", "spins")


def ref_round(edition, players, seed, options=None, bots=None, programs=None, wheel=None):
    """One reference round: ``reference.play_round``, or with ``programs`` and ``wheel`` (a
    variant file's spaces as step dicts, and its wheel) ``reference.play_program_round``."""
    from unospin_sim import reference

    if programs is None:
        return reference.play_round(edition, players, seed, options, bots)
    return reference.play_program_round(edition, players, seed, programs, wheel, options, bots)


def ref_arrays(
    edition, players, game0, games, seed, options=None, bots=None, programs=None, wheel=None
):
    """Reference rounds ``game0 .. game0 + games - 1`` of a run with ``seed`` (the same rounds
    ``reference.play_many`` plays for those games), as {column: numpy array}. ``options``
    (a ``reference.Options``) and ``bots`` as ``reference.play_round``'s; ``programs`` and
    ``wheel`` as :func:`ref_round`'s."""
    from unospin_sim import reference

    spaces = tuple(wheel) if wheel is not None else reference.WHEELS.get(edition, ())
    cols = {c: np.empty(games, np.int32) for c in ROUND_COLS}
    cols["winner"] = np.empty(games, np.int32)
    for key in ("cards_left", "cards_drawn"):
        for i in range(players):
            cols[f"{key}_{i}"] = np.empty(games, np.int32)
    for space in spaces:
        cols[f"spins_{space}"] = np.empty(games, np.int32)
    jump_in = options is not None and bool(options.jump_in)
    if jump_in:  # jump-ins per round and per seat
        for key in ["jump_ins"] + [f"jump_ins_{i}" for i in range(players)]:
            cols[key] = np.empty(games, np.int32)
    for j in range(games):
        s = reference.round_seed(seed, game0 + j)
        res = ref_round(edition, players, s, options, bots, programs, wheel)
        cols["turns"][j] = res["turns"]
        cols["winner"][j] = res["winner"]
        cols["winner_points"][j] = res["winner_points"]
        cols["cards_drawn"][j] = sum(res["cards_drawn"])
        cols["failed_draws"][j] = res["failed_draws"]
        cols["spins"][j] = sum(res["spins"].values())
        for i in range(players):
            cols[f"cards_left_{i}"][j] = res["cards_left"][i]
            cols[f"cards_drawn_{i}"][j] = res["cards_drawn"][i]
        for space in spaces:
            cols[f"spins_{space}"][j] = res["spins"][space]
        if jump_in:
            cols["jump_ins"][j] = sum(res["jump_ins"])
            for i in range(players):
                cols[f"jump_ins_{i}"][j] = res["jump_ins"][i]
    return cols


def ref_arrays_job(args):
    """``ref_arrays(*args[:5], **args[5])``: one picklable job for a process pool (``args[5]``:
    the keywords ``options`` and ``bots``, as ``crosscheck_powered.Config.ref_kwargs``)."""
    edition, players, game0, games, seed, kw = args
    return ref_arrays(edition, players, game0, games, seed, **kw)


def concat(parts):
    """Join a list of {column: array} dicts (same keys) end to end."""
    return {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}


def engine_arrays(rounds, players):
    """The engine's ``Results.rounds`` as the same {column: array} dict as ref_arrays."""
    cols = {c: rounds[c].to_numpy(np.int32) for c in ROUND_COLS + ("winner",)}
    for key in ("cards_left", "cards_drawn"):
        for i in range(players):
            cols[f"{key}_{i}"] = rounds[f"{key}_{i}"].to_numpy(np.int32)
    for c in rounds.columns:
        if c.startswith(("spins_", "jump_ins")):
            cols[c] = rounds[c].to_numpy(np.int32)
    return cols


def z_two_sample(a, b):
    """Two-sample z-score of mean(a) - mean(b) (unpooled variances)."""
    a = np.asarray(a, float)
    b = np.asarray(b, float)
    se = np.sqrt(a.var(ddof=1) / len(a) + b.var(ddof=1) / len(b))
    if se == 0:
        return 0.0 if a.mean() == b.mean() else float("inf")
    return float((a.mean() - b.mean()) / se)


def zscores(eng, ref, players):
    """{statistic: z} of the engine's arrays against the reference's: every per-round column
    both have, and each seat's win rate."""
    out = {}
    for k in eng:
        if k != "winner" and k in ref:
            out[k] = z_two_sample(eng[k], ref[k])
    for seat in range(players):
        out[f"win_{seat}"] = z_two_sample(eng["winner"] == seat, ref["winner"] == seat)
    return out
