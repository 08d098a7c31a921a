"""The results format: the tables of a run, their columns, and results directories.

This module owns everything a run's results look like: the :class:`Results` that
:func:`~unospin_sim.simulate` and :func:`load_results` return, the round, spin and match
columns (built here and only here, from the kernel's output layout in ``engine/layout.py``
and, in match mode, the output of ``engine/chunk.py: play_match_chunk``), and the results
directory that :meth:`Results.save` and ``run`` write.

Layout of a results directory ``DIR``::

    DIR/meta.json               run metadata (written last, atomically)
    DIR/rounds/part-00000.parquet, part-00001.parquet, ...   one row per round
    DIR/spins/part-00000.parquet, ...                          one row per wheel spin
    DIR/matches/part-00000.parquet, ...    match mode only: one row per match

``pandas.read_parquet(DIR / "rounds")`` loads the round table; :meth:`Results.load` (or
:func:`load_results`) loads and validates everything.  Every part file is written under a
hidden temporary name and moved into place with :func:`os.replace`, so a part is either
complete or absent, and an interrupted run keeps the parts it finished.  A directory without
``meta.json`` is an unfinished run.

Round columns (see docs/ARCHITECTURE.md): :data:`ROUND_BASE_COLUMNS`, then per seat ``i``
``cards_drawn_<i>``, ``cards_left_<i>``, ``points_left_<i>``, then ``spins_<space>`` for each
space of the edition's wheel, then in match mode (rule option ``match`` = ``race`` or
``lowest``) :data:`MATCH_ROUND_COLUMNS` and ``score_<i>`` per player (:func:`round_columns`); a
run with ``check=True`` adds :data:`CHECK_COLUMN`.  Spin columns: :data:`SPIN_COLUMNS`.  Match
columns (match mode): :func:`MATCH_COLUMNS`.  :func:`rounds_frame`, :func:`spins_frame` and
(match mode) :func:`match_frames` turn the kernel's output arrays into these tables.

``meta.json`` must hold at least :data:`REQUIRED_META` (``rules``: the canonical rule string;
``games``: the number of rounds in ``rounds/``); runs also record ``seed``, ``bots``,
``version``, ``wall_seconds`` and ``threads``; match-mode runs ``match``, ``target`` and
``matches`` (the number of matches).  :meth:`ResultsWriter.finish` adds ``results_format`` and
``parts`` (part files per table; ``matches`` only when match parts were written, so a
single-round run's ``meta.json`` is as it always was), which :meth:`Results.load` checks.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
import threading
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from .errors import ResultsError, RuleError

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

__all__ = ["Results", "ResultsWriter", "load_results", "load_matches", "prepare_out_dir",
           "round_columns", "rounds_frame", "spins_frame", "match_frames", "matches_frame",
           "match_arrows", "match_round_game", "MAX_MATCH_ROUNDS", "empty_frames", "is_match_mode", "ROUND_BASE_COLUMNS", "SEAT_COLUMNS",
           "SPIN_COLUMNS", "MATCH_ROUND_COLUMNS", "MATCH_COLUMNS", "CHECK_COLUMN", "TEAM_COLUMNS", "JUMP_COLUMN", "has_jump_ins", "is_partners",
           "REQUIRED_META", "RESULTS_FORMAT", "newest"]

# Where every column comes from: (name, source, dtype).  ``source`` names a constant of
# ``engine/layout.py`` (a column of the kernel's per-round output row, or a field of a spin
# record); ``None`` marks the two round columns the runner supplies (game number, game seed).
_ROUND_BASE_FIELDS = (
    ("game", None, np.int64),
    ("seed", None, np.int64),            # the game's SplitMix64 seed (its uint64 bits)
    ("first_player", "O_FIRST", np.int8),
    ("winner", "O_WINNER", np.int8),
    ("turns", "O_TURNS", np.int32),
    ("winner_points", "O_WINNER_POINTS", np.int32),
    ("cards_drawn", "O_CARDS_DRAWN", np.int32),
    ("failed_draws", "O_FAILED", np.int32),
    ("spins", "O_SPINS", np.int32),
)
#: per-seat blocks of the output row, in the kernel's order: ``<prefix>_<seat>``, int32
SEAT_COLUMNS = ("cards_drawn", "cards_left", "points_left")
#: house rule jump_in: the round's jump-ins (not turns), then ``jump_ins_<i>`` per seat (the
#: kernel's fourth per-seat block; in match mode per player, as every per-seat column)
JUMP_COLUMN = "jump_ins"
_JUMP_FIELD = (JUMP_COLUMN, "O_JUMP_INS", np.int32)
_JUMP_BLOCK = len(SEAT_COLUMNS)   # its block in the kernel's output row
_SEAT_DTYPE = _SPACE_DTYPE = np.int32
#: the round column a run with ``check=True`` adds (invariant failures of the round)
CHECK_COLUMN = "invariant_failures"
_CHECK_FIELD = (CHECK_COLUMN, "O_VIOLATIONS", np.int32)
_SPIN_FIELDS = (
    ("game", "P_GAME", np.int64),
    ("turn", "P_TURN", np.int32),
    ("spinner", "P_SPINNER", np.int8),
    ("space", "P_SPACE", None),           # categorical over the edition's wheel spaces
    ("hand_before", "P_HAND_BEFORE", np.int16),
    ("hand_after", "P_HAND_AFTER", np.int16),
    ("cards_drawn", "P_DRAWN", np.int16),
    ("cards_discarded", "P_DISCARDED", np.int16),
    # the space's other party: 2025 Swap Hands target, 2005 Trade Hands receiver, War winner,
    # UNO Spin race winner; -1 if none
    ("other", "P_OTHER", np.int8),
    ("direction", "P_DIR", np.int8),      # direction of play at the spin: +1 clockwise
    ("leader", "P_LEADER", np.int8),      # the seat with strictly the fewest cards, -1: a tie
)
# Match mode.  ``play_match_chunk`` returns round rows that are the per-round output row
# followed by match, round and each player's running score: source ``("match", k)`` is column
# ``layout.n_out_columns(players) + k`` of such a row.  The round table gains these columns
# (after the per-space ones), then ``score_<i>`` per player (source ``("match", 2 + i)``).
_MATCH_ROUND_FIELDS = (
    ("match", ("match", 0), np.int64),
    ("round", ("match", 1), np.int32),     # the round's number within its match, from 0
)
_SCORE_DTYPE = np.int32
# House rule partners: two round columns computed from the output row (winner, points_left_<i>)
# after the per-space ones: the winner's team (seat mod players/2; -1 unfinished) and the
# points of the opponents' cards the team scores (0 unfinished).
_TEAM_FIELDS = (
    ("team_winner", ("team", 0), np.int8),
    ("team_points", ("team", 1), np.int32),
)
# The match table: (name, column of play_match_chunk's match rows, dtype); the rows are
# (match, rounds, turns, winner, score_0 .. score_<N-1>); ``score_<i>`` (column 4 + i, int32)
# go between turns and winner.
_MATCH_FIELDS_HEAD = (
    ("match", 0, np.int64),
    ("rounds", 1, np.int32),
    ("turns", 2, np.int64),
)
_MATCH_FIELDS_TAIL = (
    ("winner", 3, np.int8),                # the player who won the match; -1: unfinished
)
_MATCH_SCORE0 = 4

#: house rule partners: round columns after the per-space ones
TEAM_COLUMNS = tuple(name for name, _, _ in _TEAM_FIELDS)
#: per-round columns every rule set has
ROUND_BASE_COLUMNS = tuple(name for name, _, _ in _ROUND_BASE_FIELDS)
#: per-spin columns
SPIN_COLUMNS = tuple(name for name, _, _ in _SPIN_FIELDS)
#: match mode: round columns after the per-space ones (then ``score_<i>`` per player)
MATCH_ROUND_COLUMNS = tuple(name for name, _, _ in _MATCH_ROUND_FIELDS)
#: keys meta.json must have
REQUIRED_META = ("rules", "games")
#: version of this directory layout, stored in meta.json
RESULTS_FORMAT = 1

_TABLES = ("rounds", "spins", "matches")
_META = "meta.json"
_OWN_FILE = re.compile(r"(part-\d{5,}\.parquet|\.part-\d{5,}\.parquet\.tmp)")


# ------------------------------------------------------------------------------------------
# columns


def is_match_mode(rules) -> bool:
    """Whether ``rules`` play whole matches (rule option ``match`` = ``race`` or ``lowest``):
    then the round table has the match columns and the run a match table."""
    option = getattr(rules, "option", None)  # (stand-in rule sets of tests may lack options)
    return option is not None and option("match") != "single"


def is_partners(rules) -> bool:
    """Whether ``rules`` play the house rule ``partners`` (then the round table has
    :data:`TEAM_COLUMNS`)."""
    option = getattr(rules, "option", None)
    return option is not None and bool(option("partners", False))


def has_jump_ins(rules) -> bool:
    """Whether ``rules`` play the house rule ``jump_in`` (then the round table has
    :data:`JUMP_COLUMN` and ``jump_ins_<i>`` per seat)."""
    option = getattr(rules, "option", None)
    return option is not None and bool(option("jump_in", False))


def _team_column(rules, out: np.ndarray, which: int) -> np.ndarray:
    """partners: the winner's team (which=0) or the points of the opponents' cards it
    scores (which=1), from the kernel's per-round rows."""
    from .engine import layout as L

    n = rules.players
    teams = n // 2
    w = out[:, L.O_WINNER]
    team = np.where(w >= 0, w % teams, -1)
    if which == 0:
        return team
    pts = out[:, L.N_OUT_FIXED + 2 * n:L.N_OUT_FIXED + 3 * n]  # points_left_<i>
    seat_team = np.arange(n) % teams
    opp = (seat_team[None, :] != team[:, None])
    return np.where(w >= 0, (pts * opp).sum(axis=1), 0)


def _round_fields(rules, check: bool = False) -> list[tuple[str, Any, Any]]:
    """``(name, source, dtype)`` of every round column of ``rules``, in table order.

    ``source`` says where the column is in the kernel's per-round output row
    (``engine/layout.py``): the name of an ``O_*`` constant, ``("seat", j, i)`` for seat
    ``i`` of the ``j``-th per-seat block (blocks in :data:`SEAT_COLUMNS` order),
    ``("space", name)`` for the column of that space's GLOBAL id (``rules/spaces.py``), or in
    match mode ``("match", k)`` for column ``k`` after the per-round row in the round rows of
    ``play_match_chunk`` (match, round, then each player's running score); ``None`` for the
    game number and seed, which the runner supplies.  Resolved by :func:`_out_column` (only
    :func:`rounds_frame` needs the engine's layout).
    """
    fields = list(_ROUND_BASE_FIELDS)
    for j, prefix in enumerate(SEAT_COLUMNS):
        fields += [(f"{prefix}_{i}", ("seat", j, i), _SEAT_DTYPE)
                   for i in range(rules.players)]
    fields += [(f"spins_{s}", ("space", s), _SPACE_DTYPE) for s in rules.wheel_spaces()]
    if has_jump_ins(rules):
        fields.append(_JUMP_FIELD)
        fields += [(f"{JUMP_COLUMN}_{i}", ("seat", _JUMP_BLOCK, i), _SEAT_DTYPE)
                   for i in range(rules.players)]
    if is_partners(rules):
        fields += _TEAM_FIELDS
    if is_match_mode(rules):
        fields += _MATCH_ROUND_FIELDS
        fields += [(f"score_{i}", ("match", len(_MATCH_ROUND_FIELDS) + i), _SCORE_DTYPE)
                   for i in range(rules.players)]
    if check:
        fields.append(_CHECK_FIELD)
    return fields


def _out_column(source, players: int) -> int:
    """Index in the kernel's per-round output row of a :func:`_round_fields` source."""
    from .engine import layout as L
    from .rules.spaces import SPACE_ID

    if isinstance(source, str):
        return getattr(L, source)
    if source[0] == "seat":
        return L.N_OUT_FIXED + source[1] * players + source[2]
    if source[0] == "match":
        return L.n_out_columns(players) + source[1]
    return L.N_OUT_FIXED + L.N_SEAT_BLOCKS * players + SPACE_ID[source[1]]


def _out_width(rules) -> int:
    """Columns of the kernel's round rows for ``rules`` (wider in match mode)."""
    from .engine import layout as L

    extra = len(_MATCH_ROUND_FIELDS) + rules.players if is_match_mode(rules) else 0
    return L.n_out_columns(rules.players) + extra


def _match_fields(players: int) -> list[tuple[str, int, Any]]:
    """``(name, column of play_match_chunk's match rows, dtype)`` of the match table."""
    return [*_MATCH_FIELDS_HEAD,
            *((f"score_{i}", _MATCH_SCORE0 + i, _SCORE_DTYPE) for i in range(players)),
            *_MATCH_FIELDS_TAIL]


def MATCH_COLUMNS(players: int) -> list[str]:  # noqa: N802 - a table's column list
    """Columns of the match table (match mode): match, rounds, turns, score_<i>, winner."""
    return [name for name, _, _ in _match_fields(players)]


def round_columns(rules, check: bool = False) -> list[str]:
    """Names of the columns a round table must have for ``rules``.

    Parameters
    ----------
    rules : RuleSet
    check : bool
        Include :data:`CHECK_COLUMN`, which runs with ``check=True`` add.

    Returns
    -------
    list of str
        :data:`ROUND_BASE_COLUMNS`, the per-seat columns, then ``spins_<space>`` per space
        of the edition's wheel (in wheel order); in match mode then
        :data:`MATCH_ROUND_COLUMNS` and ``score_<i>`` per player; :data:`CHECK_COLUMN` last.
    """
    return [name for name, _, _ in _round_fields(rules, check)]


def _round_plan(rules, check: bool = False) -> list[tuple[str, Any, Any]]:
    """``(name, source, dtype)`` of every round column with ``source`` resolved: ``"game"``,
    ``"seed"``, ``("team", which)`` or the column's index in the kernel's output row (what
    :func:`_rounds_arrays` does per column, worked out once per rule set)."""
    plan = []
    for name, source, dtype in _round_fields(rules, check):
        if name in ("game", "seed"):
            src = name
        elif source[0] == "team":
            src = source
        else:
            src = _out_column(source, rules.players)
        plan.append((name, src, dtype))
    return plan


def _rounds_arrays(rules, game0: int, out: np.ndarray, seeds: np.ndarray,
                   check: bool = False, into: dict | None = None, at: int = 0,
                   plan: list | None = None) -> dict:
    """Columns of the round table (name -> 1-D array of the column's dtype), in order.

    With ``into`` (columns of a longer table, see :class:`ChunkColumns`), write the rows
    into ``into[name][at:at + n]`` instead and return ``into``.  ``plan``:
    :func:`_round_plan` of ``(rules, check)``, when the caller keeps it."""
    n = out.shape[0]
    data = {}
    for name, src, dtype in plan if plan is not None else _round_plan(rules, check):
        if src == "game":
            v = (np.arange(game0, game0 + n, dtype=dtype) if np.ndim(game0) == 0
                 else np.asarray(game0, dtype))
        elif src == "seed":
            v = seeds.view(dtype)
        elif isinstance(src, tuple):
            v = _team_column(rules, out, src[1])
        else:
            v = out[:, src]
        if into is None:
            data[name] = v if src in ("game", "seed") and v.dtype == dtype else v.astype(dtype)
        else:
            np.copyto(into[name][at:at + n], v, casting="unsafe")  # = astype(dtype)
    return data if into is None else into


def rounds_frame(rules, game0: int, out: np.ndarray, seeds: np.ndarray,
                 check: bool = False) -> pd.DataFrame:
    """The round table of games ``game0 .. game0+n-1`` from the kernel's output.

    Parameters
    ----------
    rules : RuleSet
    game0 : int or numpy.ndarray
        Number of the first game (the ``game`` column counts up from it), or every row's
        game number (match mode: :func:`match_round_game`).
    out : numpy.ndarray
        ``int64[n, layout.n_out_columns(players)]``: the kernel's per-round output rows; in
        match mode ``int64[n, layout.n_out_columns(players) + 2 + players]``, the round rows
        of ``play_match_chunk`` with their seat columns already turned into player columns
        (:func:`match_frames` does both).
    seeds : numpy.ndarray
        ``uint64[n]``: each game's seed (stored as int64 with the same bits).
    check : bool
        Add :data:`CHECK_COLUMN` (the run verified invariants).

    Returns
    -------
    pandas.DataFrame
        Columns :func:`round_columns` ``(rules, check)``.
    """
    import pandas as pd

    return pd.DataFrame(_rounds_arrays(rules, game0, out, seeds, check))


def rounds_arrow(rules, game0: int, out: np.ndarray, seeds: np.ndarray,
                 check: bool = False):
    """The round table as a :class:`pyarrow.Table` (no pandas on the way): the same
    columns and dtypes as :func:`rounds_frame`, as written to ``rounds/`` parts."""
    return _arrow_table(_rounds_arrays(rules, game0, out, seeds, check))


def _arrow_table(data: dict, cats=None):
    """A :class:`pyarrow.Table` of numpy columns; ``space`` (spin tables) dictionary-encoded
    over ``cats``."""
    import pyarrow as pa

    arrays = []
    for name, v in data.items():
        if name == "space" and cats is not None:
            arrays.append(pa.DictionaryArray.from_arrays(pa.array(v, pa.int8()),
                                                         pa.array(cats, pa.string())))
        else:
            arrays.append(pa.array(v))
    return pa.Table.from_arrays(arrays, names=list(data))


def part_write_options(table) -> dict:
    """Keyword arguments of :func:`pyarrow.parquet.write_table` for a part of ``table``
    (a :class:`pyarrow.Table` of a run's chunk).

    Integer columns are written DELTA_BINARY_PACKED without a dictionary (except ``seed``,
    random 64-bit values: plain), dictionary columns (the spin table's ``space``) with their
    dictionary, all Snappy-compressed.  Column statistics (min and max) are written only
    for the keys (``game``, ``match``), which is what a reader's filter on a range of
    games or matches uses to skip parts; the other columns' statistics cost 7-12% of the
    write and no reader here uses them.  The same tables read back as Parquet's defaults
    would give; the parts are about 20% smaller and written 1.5-2.5 times faster (issue 11).
    """
    import pyarrow as pa

    names = table.schema.names
    dict_cols = [f.name for f in table.schema if pa.types.is_dictionary(f.type)]
    delta = {f.name: "DELTA_BINARY_PACKED" for f in table.schema
             if pa.types.is_integer(f.type) and f.name != "seed"}
    keys = [k for k in _KEY_COLUMNS if k in names]
    return {"use_dictionary": dict_cols or False, "column_encoding": delta or None,
            "compression": "snappy", "write_statistics": keys or False}


#: the columns whose Parquet statistics a part keeps (see :func:`part_write_options`)
_KEY_COLUMNS = ("game", "match")


class PartBuffer:
    """One part file encoded batch by batch in memory: each :meth:`add` appends a Parquet
    row group (same options as :func:`part_write_options`), so a chunk's table never has
    to be held whole; :meth:`getvalue` closes it and returns the file's bytes (``None``
    when no row was added).  The rows read back are those of one table of every batch.
    """

    def __init__(self) -> None:
        self.rows = 0
        self._sink = self._writer = None

    def add(self, table) -> None:
        """Append ``table`` (a :class:`pyarrow.Table`, the schema of every batch alike)."""
        import pyarrow as pa
        import pyarrow.parquet as pq

        if table.num_rows == 0:
            return
        if self._writer is None:
            self._sink = pa.BufferOutputStream()
            self._writer = pq.ParquetWriter(self._sink, table.schema,
                                            **part_write_options(table))
        self._writer.write_table(table)
        self.rows += table.num_rows

    def getvalue(self):
        """Close the file and return its bytes (a :class:`pyarrow.Buffer`), or ``None``."""
        if self._writer is None:
            return None
        self._writer.close()
        self._writer = None
        return self._sink.getvalue()


class ChunkColumns:
    """The round and spin columns of one chunk of games, gathered from the kernel's output
    of consecutive batches of its games (so the kernel's int64 buffers stay the size of a
    batch, whatever the chunk size): :meth:`add` each batch in game order, then
    :meth:`rounds_arrow` / :meth:`spins_arrow` (the parts) or :meth:`rounds_frame` /
    :meth:`spins_frame`.  The tables equal :func:`rounds_frame` and :func:`spins_frame` of
    the whole chunk's output at once.

    ``n`` is the chunk's number of games; ``rounds`` / ``spins``: whether to gather that
    table at all.
    """

    def __init__(self, rules, n: int, check: bool = False, rounds: bool = True,
                 spins: bool = True) -> None:
        self.rules, self.n, self.check = rules, n, check
        self.filled = 0
        self.rounds = ({name: np.empty(n, dtype) for name, _, dtype in
                        _round_fields(rules, check)} if rounds else None)
        self._plan = _round_plan(rules, check) if rounds else None
        self._spins = [] if spins else None
        self.cats = list(rules.wheel_spaces())

    def add(self, game0: int, out: np.ndarray, seeds: np.ndarray, rec: np.ndarray) -> None:
        """Add the next batch: games ``game0 ..`` (``out``, ``seeds``: its rows; ``rec``: its
        spin records)."""
        if self.rounds is not None:
            _rounds_arrays(self.rules, game0, out, seeds, self.check, into=self.rounds,
                           at=self.filled, plan=self._plan)
        if self._spins is not None and len(rec):
            self._spins.append(_spins_arrays(self.rules, rec)[0])
        self.filled += out.shape[0]

    def spins_data(self) -> dict:
        """The spin columns (``space`` as int8 category codes over :attr:`cats`)."""
        from .engine import layout as L

        parts = self._spins
        if not parts:
            return _spins_arrays(self.rules, np.zeros((0, L.N_SPIN_FIELDS), np.int64))[0]
        if len(parts) > 1:  # column by column, letting go of the batches' pieces as it goes
            whole = {name: np.concatenate([p.pop(name) for p in parts])
                     for name in list(parts[0])}
            parts[:] = [whole]
        return dict(parts[0])

    def rounds_arrow(self):
        return _arrow_table(self.rounds)

    def spins_arrow(self):
        return _arrow_table(self.spins_data(), self.cats)

    def rounds_frame(self) -> pd.DataFrame:
        import pandas as pd

        return pd.DataFrame(self.rounds)

    def spins_frame(self) -> pd.DataFrame:
        import pandas as pd

        data = self.spins_data()
        data["space"] = pd.Categorical.from_codes(data["space"], categories=self.cats)
        return pd.DataFrame(data)


def _spins_arrays(rules, rec: np.ndarray) -> tuple[dict, list]:
    """Columns of the spin table (``space`` as int8 category codes) and the categories."""
    from .engine import layout as L
    from .rules.spaces import N_SPACES, SPACE_ID

    cats = list(rules.wheel_spaces())
    data = {}
    for name, src, dtype in _SPIN_FIELDS:
        values = rec[:, getattr(L, src)]
        if name != "space":
            data[name] = values.astype(dtype)
            continue
        if not cats:
            data[name] = np.zeros(0, np.int8)
            continue
        code_of = np.full(N_SPACES, -1, np.int8)  # global space id -> category code
        code_of[[SPACE_ID[s] for s in cats]] = np.arange(len(cats), dtype=np.int8)
        if len(values) and (values.min() < 0 or values.max() >= N_SPACES):
            raise ValueError("spin records hold space ids outside the known spaces")
        codes = code_of[values]
        if (codes < 0).any():
            raise ValueError(f"spin records hold spaces that are not on the "
                             f"{rules.edition} wheel")
        data[name] = codes
    return data, cats


def spins_frame(rules, rec: np.ndarray) -> pd.DataFrame:
    """The spin table from the kernel's spin records.

    Parameters
    ----------
    rules : RuleSet
    rec : numpy.ndarray
        ``int64[n, layout.N_SPIN_FIELDS]``: one record per spin (``layout.P_*`` fields);
        the space is a GLOBAL space id (``rules/spaces.py``).

    Returns
    -------
    pandas.DataFrame
        Columns :data:`SPIN_COLUMNS`; ``space`` is categorical over the edition's wheel
        spaces (``rules.wheel_spaces()``, in wheel order), mapped by id, so an edition's
        spaces need not have consecutive ids.

    Raises
    ------
    ValueError
        A record names a space that is not on the edition's wheel (an engine bug).
    """
    import pandas as pd

    data, cats = _spins_arrays(rules, rec)
    data["space"] = pd.Categorical.from_codes(data["space"], categories=cats)
    return pd.DataFrame(data)


def spins_arrow(rules, rec: np.ndarray):
    """The spin table as a :class:`pyarrow.Table` (``space`` dictionary-encoded over the
    edition's wheel spaces), as written to ``spins/`` parts."""
    data, cats = _spins_arrays(rules, rec)
    return _arrow_table(data, cats)


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

    return pd.DataFrame({name: mrows[:, col].astype(dtype)
                         for name, col, dtype in _match_fields(rules.players)})


#: in match mode the round table's ``game`` of round ``j`` of match ``m`` is
#: ``m * MAX_MATCH_ROUNDS + j`` (known where the chunk is played, so chunks of matches are
#: written in any order and resumed like chunks of rounds); a match still running after
#: this many rounds ends with winner -1.
MAX_MATCH_ROUNDS = 10_000


def match_round_game(match, rnd):
    """The ``game`` number of round ``rnd`` of match ``match`` (match mode)."""
    return np.asarray(match, np.int64) * MAX_MATCH_ROUNDS + np.asarray(rnd, np.int64)


def _match_arrays(rules, rows: np.ndarray, rec: np.ndarray):
    """``(out, rec, game)``: the round rows and spin records of ``play_match_chunk`` with
    seats turned into players, and each round's ``game`` number (see :func:`match_frames`)."""
    from .engine import layout as L

    p = rules.players
    mt = rows[:, _out_column(("match", 0), p)]
    rnd = rows[:, _out_column(("match", 1), p)]
    out = rows.copy()
    for col in (L.O_FIRST, L.O_WINNER):
        seat = out[:, col]
        out[:, col] = np.where(seat >= 0, (seat + rnd) % p, seat)
    take = (np.arange(p)[None, :] - rnd[:, None]) % p   # row r, player i -> seat
    ix = np.arange(out.shape[0])[:, None]
    for j in range(L.N_SEAT_BLOCKS):
        c = _out_column(("seat", j, 0), p)
        out[:, c:c + p] = rows[:, c:c + p][ix, take]
    game = match_round_game(mt, rnd)
    rec = rec.copy()
    if len(rec):
        row = rec[:, L.P_GAME]
        for f in (L.P_SPINNER, L.P_OTHER, L.P_LEADER):  # seats -> players (-1 stays)
            seat = rec[:, f]
            rec[:, f] = np.where(seat >= 0, (seat + rnd[row]) % p, seat)
        rec[:, L.P_GAME] = game[row]
    return out, rec, game


def match_frames(rules, rows: np.ndarray, seeds: np.ndarray, mrows: np.ndarray,
                 rec: np.ndarray, check: bool = False):
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
    return (rounds_frame(rules, game, out, seeds, check), spins_frame(rules, rec),
            matches_frame(rules, mrows))


def match_arrows(rules, rows: np.ndarray, seeds: np.ndarray, mrows: np.ndarray,
                 rec: np.ndarray, check: bool = False):
    """:func:`match_frames` as :class:`pyarrow.Table` s, as written to the parts."""
    import pyarrow as pa

    out, rec, game = _match_arrays(rules, rows, rec)
    mt = {name: mrows[:, col].astype(dtype) for name, col, dtype in _match_fields(rules.players)}
    return (rounds_arrow(rules, game, out, seeds, check), spins_arrow(rules, rec),
            pa.Table.from_arrays([pa.array(v) for v in mt.values()], names=list(mt)))


def empty_frames(rules):
    """``(rounds, spins, matches)`` with no rows: the tables of a run that kept none, with
    their columns and dtypes; ``matches`` is ``None`` unless ``rules`` play matches."""
    from .engine import layout as L

    p = rules.players
    no_spins = np.zeros((0, L.N_SPIN_FIELDS), np.int64)
    if not is_match_mode(rules):
        return (rounds_frame(rules, 0, np.zeros((0, _out_width(rules)), np.int64),
                             np.zeros(0, np.uint64)), spins_frame(rules, no_spins), None)
    return match_frames(rules, np.zeros((0, _out_width(rules)), np.int64),
                        np.zeros(0, np.uint64),
                        np.zeros((0, _MATCH_SCORE0 + p), np.int64), no_spins)


def _why(err: BaseException) -> str:
    """A short one-line reason from an OS or Arrow error."""
    if isinstance(err, OSError) and err.strerror:
        return err.strerror
    text = " ".join(str(err).split()) or type(err).__name__
    return text if len(text) <= 120 else text[:117] + "..."


# ------------------------------------------------------------------------------------------
# writing


def _own_results(out: Path) -> list[Path]:
    """Files of an earlier run in ``out`` that a ResultsWriter would have written."""
    found, foreign = [], []
    if (out / _META).exists():
        found.append(out / _META)
    for table in _TABLES:
        d = out / table
        if not d.exists():
            continue
        if not d.is_dir():
            foreign.append(d)
            continue
        for f in sorted(d.iterdir()):
            (found if _OWN_FILE.fullmatch(f.name) and f.is_file() else foreign).append(f)
    if foreign:
        raise ResultsError(f"{out} holds files this tool did not write ({foreign[0]}); "
                           f"remove them or choose another output directory")
    return found


def prepare_out_dir(out_dir: str | os.PathLike, overwrite: bool = False) -> Path:
    """Create ``out_dir`` if needed and check it can take a new run's results.

    Parameters
    ----------
    out_dir : path
        The results directory.
    overwrite : bool
        When ``out_dir`` already holds results, remove that earlier run's ``meta.json`` and
        part files (only files in the results layout; anything else there is an error)
        instead of refusing.

    Returns
    -------
    pathlib.Path

    Raises
    ------
    ResultsError
        The directory cannot be created or written, is a file, or already holds results
        (without ``overwrite``).
    """
    out = Path(out_dir)
    if out.exists() and not out.is_dir():
        raise ResultsError(f"results directory {out} exists and is not a directory")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise ResultsError(f"cannot create results directory {out}: {_why(e)}") from None
    if any((out / name).exists() for name in (_META, *_TABLES)):
        if not overwrite:
            raise ResultsError(f"{out} already holds results; choose another output "
                               f"directory or overwrite it")
        for f in _own_results(out):  # meta.json first: the old run stops looking complete
            try:
                f.unlink()
            except OSError as e:
                raise ResultsError(f"cannot remove old result file {f}: {_why(e)}") from None
        for table in _TABLES:
            if (out / table).is_dir():
                (out / table).rmdir()
    try:
        fd, probe = tempfile.mkstemp(prefix=".unospin-probe-", dir=out)
        os.close(fd)
        os.unlink(probe)
    except OSError as e:
        raise ResultsError(f"results directory {out} is not writable: {_why(e)}") from None
    return out


def _json_default(obj: Any) -> Any:
    if isinstance(obj, np.integer):
        return int(obj)
    if isinstance(obj, np.floating):
        return float(obj)
    if isinstance(obj, np.bool_):
        return bool(obj)
    if isinstance(obj, np.ndarray):
        return obj.tolist()
    if isinstance(obj, os.PathLike):
        return os.fspath(obj)
    if isinstance(obj, (tuple, set, frozenset)):
        return list(obj)
    return str(obj)


class ResultsWriter:
    """Write one run's results directory, part by part.

    Parameters
    ----------
    out_dir : path
        Created if missing (see :func:`prepare_out_dir`).
    overwrite : bool
        Replace an earlier run's results in ``out_dir`` instead of refusing.

    Raises
    ------
    ResultsError
        ``out_dir`` cannot be created or written, or already holds results.

    Notes
    -----
    :meth:`write_rounds`, :meth:`write_spins` and :meth:`write_matches` may be called from
    several threads.  The writer never deletes anything it did not write.
    """

    def __init__(self, out_dir: str | os.PathLike, overwrite: bool = False) -> None:
        self.out_dir = prepare_out_dir(out_dir, overwrite=overwrite)
        self._parts = dict.fromkeys(_TABLES, 0)
        self._lock = threading.Lock()

    @property
    def parts(self) -> dict[str, int]:
        """Part files written so far, per table (``matches`` only once a match part was
        written, i.e. in match mode, so that a single-round run's meta.json is as before)."""
        with self._lock:
            return {k: v for k, v in self._parts.items() if k != "matches" or v}

    def write_rounds(self, df) -> Path | None:
        """Append ``df`` (rows of the round table) as the next ``rounds/`` part file.

        Returns the part's path, or ``None`` for an empty frame (nothing is written).
        """
        return self._write("rounds", df)

    def write_spins(self, df) -> Path | None:
        """Append ``df`` (rows of the spin table) as the next ``spins/`` part file.

        Returns the part's path, or ``None`` for an empty frame (nothing is written).
        """
        return self._write("spins", df)

    def write_matches(self, df) -> Path | None:
        """Append ``df`` (rows of the match table; match mode) as the next ``matches/``
        part file.

        Returns the part's path, or ``None`` for an empty frame (nothing is written).
        """
        return self._write("matches", df)

    def _write(self, table: str, df) -> Path | None:
        import pyarrow as pa
        import pyarrow.parquet as pq

        if len(df) == 0:
            return None
        with self._lock:
            index = self._parts[table]
            self._parts[table] += 1
        d = self.out_dir / table
        final = d / f"part-{index:05d}.parquet"
        tmp = d / f".part-{index:05d}.parquet.tmp"
        try:
            d.mkdir(exist_ok=True)
            tab = pa.Table.from_pandas(df, preserve_index=False)
            pq.write_table(tab, tmp, **part_write_options(tab))
            os.replace(tmp, final)
        except OSError as e:
            tmp.unlink(missing_ok=True)
            raise ResultsError(f"cannot write {final}: {_why(e)}") from None
        except BaseException:  # e.g. KeyboardInterrupt mid-write: leave no temporary file
            tmp.unlink(missing_ok=True)
            raise
        return final

    def finish(self, meta: dict) -> Path:
        """Write ``meta.json`` (atomically); call once, after the last part.

        Parameters
        ----------
        meta : dict
            Run metadata; must hold :data:`REQUIRED_META`.  ``results_format``, ``parts``
            and (when missing) ``version`` are added.

        Returns
        -------
        pathlib.Path
            The path of ``meta.json``.
        """
        missing = [k for k in REQUIRED_META if k not in meta]
        if missing:
            raise ValueError(f"meta lacks required keys {missing}")
        from . import __version__

        full = {"version": __version__, **meta, "results_format": RESULTS_FORMAT,
                "parts": self.parts}
        final = self.out_dir / _META
        tmp = self.out_dir / f".{_META}.tmp"
        try:
            tmp.write_text(json.dumps(full, indent=2, default=_json_default) + "\n",
                           encoding="utf-8")
            os.replace(tmp, final)
        except OSError as e:
            tmp.unlink(missing_ok=True)
            raise ResultsError(f"cannot write {final}: {_why(e)}") from None
        return final


# ------------------------------------------------------------------------------------------
# reading


def _read_meta(d: Path) -> dict:
    path = d / _META
    if not path.is_file() and (d / "run.json").is_file():
        raise ResultsError(f"{d} is an unfinished run (no {_META}); finish it with "
                           f"'python -m unospin_sim run --resume {d}'")
    if not path.is_file():
        raise ResultsError(f"{d} has no {_META}: not a results directory, or the run "
                           f"did not finish")
    try:
        meta = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError) as e:
        # ValueError: bad JSON, bad UTF-8 or an integer too long to convert;
        # RecursionError: absurdly deep nesting
        raise ResultsError(f"{path} is not valid JSON: {_why(e)}") from None
    if not isinstance(meta, dict):
        raise ResultsError(f"{path} does not hold a JSON object")
    missing = [k for k in REQUIRED_META if k not in meta]
    if missing:
        raise ResultsError(f"{path} lacks required keys: {', '.join(missing)}")
    games = meta["games"]
    if isinstance(games, bool) or not isinstance(games, int) or games < 0:
        raise ResultsError(f"{path}: 'games' must be a whole number >= 0, got {games!r}")
    if not isinstance(meta["rules"], str):
        raise ResultsError(f"{path}: 'rules' must be a rule string, got {meta['rules']!r}")
    parts = meta.get("parts", {})
    if not isinstance(parts, dict) or not all(
            isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in parts.values()):
        raise ResultsError(f"{path}: 'parts' must map table names to part counts")
    return meta


def _read_table(d: Path, table: str, required, expected_parts: int | None, optional: bool):
    """The ``table`` of results directory ``d`` (its parts concatenated), with the
    ``required`` columns checked; ``optional``: the spin table, which a run without spins
    has no parts of (then an empty table with the spin columns and dtypes)."""
    import pandas as pd
    import pyarrow as pa
    import pyarrow.parquet as pq

    t = d / table
    files = sorted(t.glob("part-*.parquet")) if t.is_dir() else []
    for f in files:
        if not f.is_file():
            raise ResultsError(f"{f} is not a file: not a part written by this tool")
    if expected_parts is not None and len(files) != expected_parts:
        raise ResultsError(f"{t} holds {len(files)} part files but meta.json lists "
                           f"{expected_parts}: parts are missing or extra")
    if not files:
        if optional:  # the spin table of a run without spins: its columns, no rows
            return pd.DataFrame({name: pd.Series(dtype=object if dtype is None else dtype)
                                 for name, _, dtype in _SPIN_FIELDS})
        raise ResultsError(f"{d} has no {table} part files ({table}/part-*.parquet)")
    frames, names0 = [], None
    for f in files:
        try:
            tab = pq.read_table(f)
        except (pa.ArrowException, OSError) as e:
            raise ResultsError(f"{f} is not a readable Parquet file (truncated or corrupt): "
                               f"{_why(e)}") from None
        if names0 is None:
            names0 = set(tab.column_names)
        elif set(tab.column_names) != names0:
            raise ResultsError(f"{f} has other columns than {files[0].name}: the parts do "
                               f"not belong to one run")
        frames.append(tab.to_pandas())
    missing = [c for c in required if c not in names0]
    if missing:
        more = f" and {len(missing) - 5} more" if len(missing) > 5 else ""
        raise ResultsError(f"{t} lacks columns {', '.join(missing[:5])}{more}: written by "
                           f"another version or for other rules")
    df = pd.concat(frames, ignore_index=True) if len(frames) > 1 else frames[0]
    for c in required:
        if c != "space" and not pd.api.types.is_integer_dtype(df[c].dtype):
            raise ResultsError(f"{t}: column {c!r} holds {df[c].dtype} values, not whole "
                               f"numbers: not a table written by this tool")
    return df


def _check_rounds(d: Path, rounds, rules) -> None:
    """Check that ``rounds`` (sorted by game) fits ``rules``: games 0..n-1 once each,
    winners and per-seat columns within the rule set's seats."""
    t = d / "rounds"
    game = rounds["game"].to_numpy()
    if is_match_mode(rules):
        want = match_round_game(rounds["match"].to_numpy(), rounds["round"].to_numpy())
        if not np.array_equal(game, want) or (len(game) > 1 and (np.diff(game) <= 0).any()):
            raise ResultsError(f"{t}: 'game' is not match * {MAX_MATCH_ROUNDS} + round once "
                               f"per round: parts of different runs, or a part copied twice")
    elif not np.array_equal(game, np.arange(len(game))):
        raise ResultsError(f"{t}: 'game' does not hold the games 0..{len(game) - 1} once each: "
                           f"parts of different runs, or a part copied twice")
    winner = rounds["winner"].to_numpy()
    if len(winner) and (winner.min() < -1 or winner.max() >= rules.players):
        raise ResultsError(f"{t}: 'winner' holds seats outside -1..{rules.players - 1}, "
                           f"but meta.json's rules {rules} have {rules.players} players")
    for c in rounds.columns:
        m = re.fullmatch(r"(?:%s)_(\d+)" % "|".join(SEAT_COLUMNS + (JUMP_COLUMN,)), c)
        if m is not None and int(m.group(1)) >= rules.players:
            raise ResultsError(f"{t} has column {c!r} for a seat beyond the "
                               f"{rules.players} players of meta.json's rules {rules}")


def _open(results_dir: str | os.PathLike):
    """``(path, meta, rules)`` of a results directory, its ``meta.json`` checked."""
    from .rules import parse_rules

    d = Path(results_dir)
    if not d.exists():
        raise ResultsError(f"no results directory at {d}")
    if not d.is_dir():
        raise ResultsError(f"{d} is not a directory")
    meta = _read_meta(d)
    try:
        rules = parse_rules(meta["rules"])
    except RuleError as e:
        raise ResultsError(f"{d / _META}: bad rule string: {e}") from None
    return d, meta, rules


def _read_matches(d: Path, meta: dict, rules):
    """The match table of results directory ``d`` sorted by ``match`` and checked (matches
    0..n-1 once each, ``meta["matches"]`` of them, winners among the players), or ``None``
    when ``rules`` play single rounds."""
    if not is_match_mode(rules):
        return None
    t = d / "matches"
    n = meta.get("matches")
    if n is not None and (isinstance(n, bool) or not isinstance(n, int) or n < 0):
        raise ResultsError(f"{d / _META}: 'matches' must be a whole number >= 0, got {n!r}")
    matches = _read_table(d, "matches", MATCH_COLUMNS(rules.players),
                          meta.get("parts", {}).get("matches"), optional=False)
    if n is not None and len(matches) != n:
        raise ResultsError(f"{t} holds {len(matches)} matches but meta.json says {n}")
    matches = matches.sort_values("match", kind="stable", ignore_index=True)
    if not np.array_equal(matches["match"].to_numpy(), np.arange(len(matches))):
        raise ResultsError(f"{t}: 'match' does not hold the matches 0..{len(matches) - 1} "
                           f"once each: parts of different runs, or a part copied twice")
    winner = matches["winner"].to_numpy()
    if len(winner) and (winner.min() < -1 or winner.max() >= rules.players):
        raise ResultsError(f"{t}: 'winner' holds players outside -1..{rules.players - 1}, "
                           f"but meta.json's rules {rules} have {rules.players} players")
    return matches


def _load(results_dir: str | os.PathLike):
    """Read and validate a results directory (see :meth:`Results.load`): ``(rounds, spins,
    meta, matches)``."""
    import pandas as pd

    from .rules.spaces import SPACE_NAMES

    d, meta, rules = _open(results_dir)
    parts = meta.get("parts", {})
    # the jump-in columns (house rule jump_in) came after RESULTS_FORMAT 1's first runs:
    # a jump_in run written before 2026-12-02 lacks them and still loads
    required = [c for c in round_columns(rules)
                if not (c == JUMP_COLUMN or c.startswith(JUMP_COLUMN + "_"))]
    rounds = _read_table(d, "rounds", required, parts.get("rounds"), optional=False)
    if len(rounds) != meta["games"]:
        raise ResultsError(f"{d / 'rounds'} holds {len(rounds)} rounds but meta.json says "
                           f"{meta['games']} games")
    spins = _read_table(d, "spins", SPIN_COLUMNS, parts.get("spins"), optional=True)

    rounds = rounds.sort_values("game", kind="stable", ignore_index=True)
    _check_rounds(d, rounds, rules)
    spins = spins.sort_values("game", kind="stable", ignore_index=True)
    space = spins["space"]
    if pd.api.types.is_integer_dtype(space) and len(space):
        if space.min() < 0 or space.max() >= len(SPACE_NAMES):
            raise ResultsError(f"{d / 'spins'}: 'space' holds unknown space ids")
        space = pd.Series(np.asarray(SPACE_NAMES, dtype=object)[space.to_numpy()])
    space = space.astype(object)
    wheel = list(rules.wheel_spaces())
    if not space.isin(wheel).all():
        raise ResultsError(f"{d / 'spins'}: 'space' holds names that are not spaces of the "
                           f"{rules.edition} wheel")
    spins["space"] = pd.Categorical(space, categories=wheel)
    matches = _read_matches(d, meta, rules)
    if matches is not None and matches["rounds"].sum() != len(rounds):
        raise ResultsError(f"{d / 'matches'}: its matches have {matches['rounds'].sum()} "
                           f"rounds but {d / 'rounds'} holds {len(rounds)}")
    return rounds, spins, meta, matches


# ------------------------------------------------------------------------------------------
# the results of a run


@dataclass(eq=False)
class Results:
    """The results of a run: what :func:`~unospin_sim.simulate` and :meth:`load` return.

    Parameters
    ----------
    rounds : pandas.DataFrame
        One row per round, columns :func:`round_columns` (plus :data:`CHECK_COLUMN` for a
        run with ``check=True``).
    spins : pandas.DataFrame
        One row per wheel spin, columns :data:`SPIN_COLUMNS`, ``space`` categorical over
        the edition's wheel spaces; empty (with those columns) for editions without a wheel.
    meta : dict
        Run metadata: at least :data:`REQUIRED_META` (the canonical rule string ``rules``
        and the number of rounds ``games``); runs add seed, bots, version, wall time, ...;
        match-mode runs ``match``, ``target`` and ``matches``.
    matches : pandas.DataFrame or None
        Match mode (rule option ``match`` = ``race`` or ``lowest``): one row per match,
        columns :func:`MATCH_COLUMNS`; ``None`` for runs of single rounds.

    Attributes
    ----------
    rounds, spins, meta, matches
        As above.
    summary
        Summary counts of every round of the run (``simulate`` sets it, whatever ``keep``).

    Notes
    -----
    Unpacking ``rounds, spins, meta = results`` still works (the tuple :func:`load_results`
    used to return) but is deprecated: it warns with a :class:`DeprecationWarning`; use the
    attributes.
    """

    rounds: pd.DataFrame
    spins: pd.DataFrame
    meta: dict = field(default_factory=dict)
    matches: pd.DataFrame | None = None
    #: the run's :class:`~unospin_sim.analysis.summary.SummaryAccumulator` (set by
    #: ``simulate``; ``None`` for loaded results)
    summary: Any = field(default=None, repr=False)

    def to_df(self) -> pd.DataFrame:
        """The round table (one row per round): :attr:`rounds`."""
        return self.rounds

    @classmethod
    def load(cls, results_dir: str | os.PathLike) -> Results:
        """Load and validate a results directory.

        Parameters
        ----------
        results_dir : path
            A directory written by a run or by :meth:`save` (see the module docstring).

        Returns
        -------
        Results
            ``rounds`` sorted by ``game``; ``spins`` sorted by ``game`` (stable, so in turn
            order within a game) with ``space`` categorical over the edition's wheel
            spaces, empty (with the spin columns) for editions without a wheel; ``meta``
            the contents of ``meta.json``; ``matches`` (match mode) sorted by ``match``,
            else ``None``.

        Raises
        ------
        ResultsError
            A missing directory or ``meta.json``, invalid JSON, an unknown rule string,
            missing or extra part files, a truncated or corrupt Parquet file, missing
            columns or columns that do not hold whole numbers, a row count that differs
            from ``meta["games"]``, games other than ``0..games-1`` once each, or winners /
            per-seat columns beyond the rule set's players; in match mode also a missing
            or inconsistent match table (see :func:`load_matches`, and its rounds must add
            up to the round table's); the message is one line.
        """
        return cls(*_load(results_dir))

    def save(self, results_dir: str | os.PathLike, overwrite: bool = False) -> Path:
        """Write these results as a results directory (one part file per table).

        Parameters
        ----------
        results_dir : path
            Created if missing (see :func:`prepare_out_dir`).
        overwrite : bool
            Replace an earlier run's results in ``results_dir`` instead of refusing.

        Returns
        -------
        pathlib.Path
            The path of the written ``meta.json``; it holds :attr:`meta` plus
            ``results_format`` and ``parts`` (see :meth:`ResultsWriter.finish`).  The match
            table is written in match mode only.

        Raises
        ------
        ResultsError
            :attr:`meta` lacks ``rules`` or ``games`` or has an unknown rule string, the
            round table is empty, lacks columns of the rules (e.g. a ``keep="summary"``
            run) or does not hold ``meta["games"]`` rows, the match table is missing,
            lacks columns or does not hold ``meta["matches"]`` rows (match mode) or is
            given for single rounds, or the directory cannot be written or already holds
            results (without ``overwrite``); the message is one line.  Nothing is written
            when the results themselves are at fault.
        """
        from .rules import parse_rules

        meta = self.meta if isinstance(self.meta, dict) else {}
        missing = [k for k in REQUIRED_META if k not in meta]
        if missing:
            raise ResultsError(f"cannot save results: meta lacks {', '.join(missing)}")
        try:
            rules = parse_rules(meta["rules"])
        except (RuleError, TypeError) as e:
            raise ResultsError(f"cannot save results: bad rule string in meta: {e}") from None
        if len(self.rounds) == 0:
            raise ResultsError("cannot save results: the round table is empty (a run with "
                               "keep=False keeps no rounds)")
        lacking = [c for c in round_columns(rules) if c not in self.rounds.columns]
        if lacking:
            more = f" and {len(lacking) - 5} more" if len(lacking) > 5 else ""
            raise ResultsError(f"cannot save results: the round table lacks columns "
                               f"{', '.join(lacking[:5])}{more} (a keep='summary' run keeps "
                               f"only a few)")
        if len(self.rounds) != meta["games"]:
            raise ResultsError(f"cannot save results: {len(self.rounds)} rounds but meta "
                               f"says {meta['games']!r} games")
        matches = self.matches
        if is_match_mode(rules):
            if matches is None or len(matches) == 0:
                raise ResultsError(f"cannot save results: {rules} play matches but there is "
                                   f"no match table")
            lacking = [c for c in MATCH_COLUMNS(rules.players) if c not in matches.columns]
            if lacking:
                raise ResultsError(f"cannot save results: the match table lacks columns "
                                   f"{', '.join(lacking)}")
            if "matches" in meta and len(matches) != meta["matches"]:
                raise ResultsError(f"cannot save results: {len(matches)} matches but meta "
                                   f"says {meta['matches']!r}")
        elif matches is not None and len(matches):
            raise ResultsError(f"cannot save results: a match table, but {rules} play "
                               f"single rounds")
        writer = ResultsWriter(results_dir, overwrite=overwrite)
        writer.write_rounds(self.rounds)
        writer.write_spins(self.spins)
        if is_match_mode(rules):
            writer.write_matches(matches)
        return writer.finish(dict(meta))

    def __iter__(self):
        """Deprecated: ``rounds, spins, meta = results``; use the attributes instead."""
        warnings.warn("unpacking Results into (rounds, spins, meta) is deprecated; use "
                      ".rounds, .spins and .meta", DeprecationWarning, stacklevel=2)
        return iter((self.rounds, self.spins, self.meta))

    def __repr__(self) -> str:
        rules = self.meta.get("rules", "?") if isinstance(self.meta, dict) else "?"
        more = "" if self.matches is None else f", matches={len(self.matches):,} rows"
        return (f"Results(rules={rules!r}, rounds={len(self.rounds):,} rows, "
                f"spins={len(self.spins):,} rows{more})")


def load_results(results_dir: str | os.PathLike) -> Results:
    """Load and validate a results directory: the same as :meth:`Results.load`.

    Parameters
    ----------
    results_dir : path
        A directory written by a run (see the module docstring).

    Returns
    -------
    Results

    Raises
    ------
    ResultsError
        Anything wrong with the directory (see :meth:`Results.load`); one line.
    """
    return Results.load(results_dir)


def load_matches(results_dir: str | os.PathLike) -> pd.DataFrame | None:
    """The match table of a results directory, without reading the other tables.

    Parameters
    ----------
    results_dir : path
        A directory written by a run (see the module docstring).

    Returns
    -------
    pandas.DataFrame or None
        Match mode: one row per match (columns :func:`MATCH_COLUMNS`), sorted by
        ``match``; ``None`` when the run played single rounds.

    Raises
    ------
    ResultsError
        A missing directory or ``meta.json``, an unknown rule string, or (match mode)
        missing or extra part files, missing columns, a row count other than
        ``meta["matches"]``, matches other than ``0..n-1`` once each, or winners beyond
        the players; one line.
    """
    return _read_matches(*_open(results_dir))


def newest(root: str | os.PathLike | None = None) -> Path:
    """The newest finished results directory: the one ``python -m unospin_sim run`` wrote last.

    Parameters
    ----------
    root : path, optional
        Look only in this directory.  By default look in ``results/`` of the current
        directory, then of each of its parents in turn (a notebook running in
        ``notebooks/`` finds the repository's ``results/``); the nearest ``results/``
        holding a finished run is used.

    Returns
    -------
    pathlib.Path
        The subdirectory whose ``meta.json`` was written last (``meta.json`` is written
        when a run finishes, so unfinished runs are never chosen); absolute when ``root``
        is not given.  Load it with :func:`load_results`.

    Raises
    ------
    ResultsError
        No finished run was found; the message is one line naming the ``run`` command.
    """
    here = Path.cwd().resolve()
    roots = [Path(root)] if root is not None else [d / "results" for d in (here, *here.parents)]
    for r in roots:
        found = [m for m in r.glob("*/meta.json") if m.is_file()] if r.is_dir() else []
        if found:
            return max(found, key=lambda m: (m.stat().st_mtime_ns, m.parent.name)).parent
    where = f"{roots[0]}/" if root is not None else f"results/ of {here} or of its parents"
    raise ResultsError(f"no results directory found in {where}: run "
                       f"`python -m unospin_sim run --games 1e6` first")
