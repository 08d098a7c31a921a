"""Kernel arrays of whole matches to tables: the match table, and the round and spin tables
of matches with their seats turned into players (the deal passes one seat a round), as pandas
frames or Arrow tables, with the columns of :mod:`.schema`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .schema import (
    MATCH_SCORE0,
    is_match_mode,
    match_fields,
    match_round_game,
    out_column,
    out_width,
)
from .tables import rounds_arrow, rounds_frame, spins_arrow, spins_frame

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

__all__ = ["empty_frames", "match_arrows", "match_frames", "matches_frame"]


def matches_frame(rules, mrows: np.ndarray) -> pd.DataFrame:
    """The match table (match mode) from the match rows of ``play_match_chunk``.

    Parameters
    ----------
    rules : RuleSet
    mrows : numpy.ndarray
        ``int64[n, 4 + players]``: per match (match, rounds, turns, winner, score_0 ..).

    Returns
    -------
    pandas.DataFrame
        Columns :func:`MATCH_COLUMNS` ``(rules.players)``.
    """
    import pandas as pd

    return pd.DataFrame(
        {name: mrows[:, col].astype(dtype) for name, col, dtype in match_fields(rules.players)}
    )


def _match_arrays(rules, rows: np.ndarray, rec: np.ndarray):
    """``(out, rec, game)``: the round rows and spin records of ``play_match_chunk`` with
    seats turned into players, and each round's ``game`` number (see :func:`match_frames`)."""
    from ..engine import layout as L

    p = rules.players
    mt = rows[:, out_column(("match", 0), p)]
    rnd = rows[:, out_column(("match", 1), p)]
    out = rows.copy()
    for col in (L.O_FIRST, L.O_WINNER):
        seat = out[:, col]
        out[:, col] = np.where(seat >= 0, (seat + rnd) % p, seat)
    take = (np.arange(p)[None, :] - rnd[:, None]) % p  # row r, player i -> seat
    ix = np.arange(out.shape[0])[:, None]
    for j in range(L.N_SEAT_BLOCKS):
        c = out_column(("seat", j, 0), p)
        out[:, c : c + p] = rows[:, c : c + p][ix, take]
    game = match_round_game(mt, rnd)
    rec = rec.copy()
    if len(rec):
        row = rec[:, L.P_GAME]
        for f in (L.P_SPINNER, L.P_OTHER, L.P_LEADER):  # seats -> players (-1 stays)
            seat = rec[:, f]
            rec[:, f] = np.where(seat >= 0, (seat + rnd[row]) % p, seat)
        rec[:, L.P_GAME] = game[row]
    return out, rec, game


def match_frames(
    rules,
    rows: np.ndarray,
    seeds: np.ndarray,
    mrows: np.ndarray,
    rec: np.ndarray,
    check: bool = False,
):
    """The round, spin and match tables of a chunk of matches from ``play_match_chunk``.

    In round ``j`` of a match the deal has passed ``j`` seats: player ``i`` (the ``i``-th
    bot) sits at seat ``(i - j) mod N``.  The kernel reports seats; the tables report
    PLAYERS: ``first_player``, ``winner``, the per-seat columns ``<prefix>_<i>`` and the
    spin table's ``spinner``.

    Parameters
    ----------
    rules : RuleSet
        Rules in match mode (:func:`is_match_mode`).
    rows : numpy.ndarray
        ``int64[R, layout.n_out_columns(players) + 2 + players]``: the round rows (the
        per-round output row, then match, round, each player's running score).
    seeds : numpy.ndarray
        ``uint64[R]``: each round's seed.
    mrows : numpy.ndarray
        ``int64[n, 4 + players]``: the match rows (see :func:`matches_frame`).
    rec : numpy.ndarray
        ``int64[m, layout.N_SPIN_FIELDS]``: spin records, ``P_GAME`` = row index in ``rows``.
    check : bool
        Add :data:`CHECK_COLUMN` to the round table.

    Returns
    -------
    (rounds, spins, matches) : pandas.DataFrame
        ``game`` of round ``j`` of match ``m`` is :func:`match_round_game` ``(m, j)``, in
        both the round and the spin table.
    """
    out, rec, game = _match_arrays(rules, rows, rec)
    return (
        rounds_frame(rules, game, out, seeds, check),
        spins_frame(rules, rec),
        matches_frame(rules, mrows),
    )


def match_arrows(
    rules,
    rows: np.ndarray,
    seeds: np.ndarray,
    mrows: np.ndarray,
    rec: np.ndarray,
    check: bool = False,
):
    """:func:`match_frames` as :class:`pyarrow.Table` s, as written to the parts."""
    import pyarrow as pa

    out, rec, game = _match_arrays(rules, rows, rec)
    mt = {name: mrows[:, col].astype(dtype) for name, col, dtype in match_fields(rules.players)}
    return (
        rounds_arrow(rules, game, out, seeds, check),
        spins_arrow(rules, rec),
        pa.Table.from_arrays([pa.array(v) for v in mt.values()], names=list(mt)),
    )


def empty_frames(rules):
    """``(rounds, spins, matches)`` with no rows: the tables of a run that kept none, with
    their columns and dtypes; ``matches`` is ``None`` unless ``rules`` play matches."""
    from ..engine import layout as L

    p = rules.players
    no_spins = np.zeros((0, L.N_SPIN_FIELDS), np.int64)
    if not is_match_mode(rules):
        return (
            rounds_frame(
                rules, 0, np.zeros((0, out_width(rules)), np.int64), np.zeros(0, np.uint64)
            ),
            spins_frame(rules, no_spins),
            None,
        )
    return match_frames(
        rules,
        np.zeros((0, out_width(rules)), np.int64),
        np.zeros(0, np.uint64),
        np.zeros((0, MATCH_SCORE0 + p), np.int64),
        no_spins,
    )
