"""The unit of work of local threads and Dask workers alike: play one chunk of a run (games
or whole matches), write its parts, return its manifest line and, as asked, its tables.
The run arrives as its :class:`~unospin_sim.run.spec.RunSpec` (it pickles), checked where it
was built; a worker encodes it for the kernel once (:func:`~unospin_sim.run.spec.kernel_inputs`).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..engine import layout as L
from ..results import (
    MAX_MATCH_ROUNDS,
    ChunkColumns,
    PartBuffer,
    has_jump_ins,
    match_arrows,
    match_frames,
    rounds_frame,
    spins_arrow,
    spins_frame,
)
from .spec import RunSpec, kernel_inputs

__all__ = ["KERNEL_BATCH", "MATCH_BATCH", "SUMMARY_COLUMNS", "play_chunk_frames", "run_chunk"]

#: round columns kept in memory with ``keep="summary"``
SUMMARY_COLUMNS = ("game", "first_player", "winner", "turns")
#: games per kernel call within a chunk (rounds, not match mode): the kernel's int64 output
#: rows and spin records are this many games' worth, whatever the chunk size (a spin2025
#: chunk of 31,000 rounds made ~45 MB of spin records per thread); results do not depend on it
KERNEL_BATCH = 4096
#: matches per kernel call within a chunk in match mode (about 4,000 rounds in 4-player
#: classic): the same bound for whole matches; results do not depend on it
MATCH_BATCH = 512


def play_chunk_frames(spec: RunSpec, game0: int, n: int):
    """Play games ``game0 .. game0+n-1`` of the run ``spec`` and return ``(n, rounds,
    spins)`` frames (single rounds only)."""
    out_arr, seeds, rec = _play(spec, game0, n)
    return (
        n,
        rounds_frame(spec.rules, game0, out_arr, seeds, spec.check),
        spins_frame(spec.rules, rec),
    )


def _play(spec: RunSpec, game0: int, n: int):
    from ..engine import kernel

    ki = kernel_inputs(spec)
    out_arr = np.empty((n, L.n_out_columns(spec.rules.players)), np.int64)
    seeds = np.empty(n, np.uint64)
    rec = kernel.play_chunk(*ki.args(), spec.seed, game0, out_arr, seeds, spec.rotate_bots)
    return out_arr, seeds, rec


def run_chunk(spec: RunSpec, chunk: int, game0: int, n: int, store=None, keep=False):
    """Play chunk ``chunk`` of the run ``spec`` (games ``game0 .. game0+n-1``; in match mode
    whole matches ``game0 .. game0+n-1``): the unit of work of local threads and Dask
    workers alike.

    Writes the chunk's parts into ``store`` (a :class:`~unospin_sim.results.rundir.RunStore`,
    when given) from the calling thread or worker, and returns ``(entry, frames)``: ``entry``
    is the chunk's manifest line (games, in match mode also rounds, part files, summary
    counts of its rounds), ``frames`` the ``(rounds, spins, matches)`` DataFrames when
    ``keep`` is True (``matches`` None unless match mode), the summary columns of the
    rounds (and the match table) when ``keep == "summary"``, else None.
    """
    entry = {"chunk": chunk, "game0": game0, "games": n, "parts": {}}
    play = _play_matches if spec.rules.plays_matches else _play_rounds
    acc, frames = play(spec, chunk, game0, n, store, keep, entry)
    entry["summary"] = acc.to_dict()
    return entry, frames


def _play_matches(spec: RunSpec, chunk, game0, n, store, keep, entry):
    """run_chunk in match mode: whole matches ``game0 .. game0+n-1``; ``(summary, frames)``."""
    from ..analysis.summary import SummaryAccumulator
    from ..engine import kernel

    rules, ki, seed, check, tables = (
        spec.rules,
        kernel_inputs(spec),
        spec.seed,
        spec.check,
        spec.tables,
    )
    jumps = has_jump_ins(rules)  # house rule jump_in: the summary counts jump-ins
    # batches of MATCH_BATCH matches (a match depends only on (seed, match)), each
    # appended to the parts as a row group: memory does not grow with the chunk
    names = ["matches"] + [
        t for t in ("rounds", "spins") if t in tables and (t == "rounds" or rules.wheel_spaces())
    ]
    parts = {t: PartBuffer() for t in names} if store is not None else None
    acc = SummaryAccumulator(rules.players)
    kept_frames = []
    entry["rounds"] = 0
    for a in range(0, n, MATCH_BATCH):
        b = min(MATCH_BATCH, n - a)
        rows, seeds, mrows, rec = kernel.play_match_chunk(
            *ki.args(), seed, game0 + a, b, MAX_MATCH_ROUNDS
        )
        # round j seats player i at seat (i - j) mod N: the deal rotates as in rotate_bots
        rnd = rows[:, L.n_out_columns(rules.players) + 1]
        acc.merge(
            SummaryAccumulator.of_rounds(
                rules.players,
                rnd,
                rows[:, L.O_WINNER],
                rows[:, L.O_TURNS],
                rows[:, L.O_JUMP_INS] if jumps else None,
                rows[:, L.O_FIRST],  # a seat, as the winner here
            )
        )
        entry["rounds"] += len(rows)
        if parts is not None:
            r_tab, s_tab, m_tab = match_arrows(rules, rows, seeds, mrows, rec, check)
            for t, tab in zip(("rounds", "spins", "matches"), (r_tab, s_tab, m_tab)):
                if t in parts:
                    parts[t].add(tab)
        if keep is not False:
            f = match_frames(rules, rows, seeds, mrows, rec, check)
            if keep == "summary":
                f = (f[0][list(SUMMARY_COLUMNS)], None, f[2])
            kept_frames.append(f)
        del rows, seeds, mrows, rec
    if parts is not None:
        entry["parts"] = store.write_chunk(chunk, parts)
    frames = None
    if keep is not False:
        frames = tuple(
            None
            if kept_frames[0][i] is None
            else pd.concat([f[i] for f in kept_frames], ignore_index=True)
            for i in range(3)
        )
    return acc, frames


def _play_rounds(spec: RunSpec, chunk, game0, n, store, keep, entry):
    """run_chunk for single rounds: games ``game0 .. game0+n-1``; ``(summary, frames)``."""
    from ..analysis.summary import SummaryAccumulator

    rules, check, tables = spec.rules, spec.check, spec.tables
    jumps = has_jump_ins(rules)  # house rule jump_in: the summary counts jump-ins
    write = tables if store is not None else ()
    want_rounds = "rounds" in write or keep is not False
    # spin parts are encoded batch by batch (a row group each): no thread holds a
    # whole chunk's spin columns unless the run keeps its tables in memory
    spin_part = PartBuffer() if "spins" in write and rules.wheel_spaces() else None
    cols = ChunkColumns(rules, n, check, rounds=want_rounds, spins=keep is True)
    acc = SummaryAccumulator(rules.players)
    for a in range(0, n, KERNEL_BATCH):
        b = min(KERNEL_BATCH, n - a)
        out_arr, seeds, rec = _play(spec, game0 + a, b)
        if not want_rounds:
            acc.merge(
                SummaryAccumulator.of_rounds(
                    rules.players,
                    np.arange(game0 + a, game0 + a + b),
                    out_arr[:, L.O_WINNER],
                    out_arr[:, L.O_TURNS],
                    out_arr[:, L.O_JUMP_INS] if jumps else None,
                    out_arr[:, L.O_FIRST],
                )
            )
        cols.add(game0 + a, out_arr, seeds, rec)
        if spin_part is not None:
            spin_part.add(spins_arrow(rules, rec))
        del out_arr, seeds, rec
    if want_rounds:  # the same counts, from the gathered columns in one go
        assert cols.rounds is not None  # kept: want_rounds
        acc = SummaryAccumulator.of_rounds(
            rules.players,
            cols.rounds["game"],
            cols.rounds["winner"],
            cols.rounds["turns"],
            cols.rounds["jump_ins"] if jumps else None,
            cols.rounds["first_player"],
        )
    if store is not None:
        parts = {}
        if "rounds" in tables:
            parts["rounds"] = cols.rounds_arrow()
        if spin_part is not None:
            parts["spins"] = spin_part
        entry["parts"] = store.write_chunk(chunk, parts)
        del parts
    frames = None
    if keep is True:
        frames = (cols.rounds_frame(), cols.spins_frame(), None)
    elif keep == "summary":
        frames = (cols.rounds_frame()[list(SUMMARY_COLUMNS)], None, None)
    return acc, frames
