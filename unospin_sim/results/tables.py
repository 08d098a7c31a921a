"""Kernel arrays to tables: the round and spin tables of a chunk as pandas frames or Arrow
tables (the parts a run writes), with the columns of :mod:`.schema`; whole matches in
:mod:`.match_tables`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from .schema import REPLAY_FIELDS, SPIN_FIELDS, out_column, round_fields

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

__all__ = [
    "ChunkColumns",
    "PartBuffer",
    "arrow_table",
    "part_write_options",
    "replay_frame",
    "rounds_arrow",
    "rounds_frame",
    "spins_arrow",
    "spins_frame",
]


def _team_column(rules, out: np.ndarray, which: int) -> np.ndarray:
    """partners: the winner's team (which=0) or the points of the opponents' cards it
    scores (which=1), from the kernel's per-round rows."""
    from ..engine import layout as L

    n = rules.players
    teams = n // 2
    w = out[:, L.O_WINNER]
    team = np.where(w >= 0, w % teams, -1)
    if which == 0:
        return team
    pts = out[:, L.N_OUT_FIXED + 2 * n : L.N_OUT_FIXED + 3 * n]  # points_left_<i>
    seat_team = np.arange(n) % teams
    opp = seat_team[None, :] != team[:, None]
    return np.where(w >= 0, (pts * opp).sum(axis=1), 0)


def _round_plan(rules, check: bool = False) -> list[tuple[str, Any, Any]]:
    """``(name, source, dtype)`` of every round column with ``source`` resolved: ``"game"``,
    ``"seed"``, ``("team", which)`` or the column's index in the kernel's output row (what
    :func:`_rounds_arrays` does per column, worked out once per rule set)."""
    plan = []
    for name, source, dtype in round_fields(rules, check):
        src: str | tuple[str, int] | int
        if name in ("game", "seed"):
            src = name
        elif source[0] == "team":
            src = source
        else:
            src = out_column(source, rules.players)
        plan.append((name, src, dtype))
    return plan


def _rounds_arrays(
    rules,
    game0: int,
    out: np.ndarray,
    seeds: np.ndarray,
    check: bool = False,
    into: dict | None = None,
    at: int = 0,
    plan: list | None = None,
) -> dict:
    """Columns of the round table (name -> 1-D array of the column's dtype), in order.

    With ``into`` (columns of a longer table, see :class:`ChunkColumns`), write the rows
    into ``into[name][at:at + n]`` instead and return ``into``.  ``plan``:
    :func:`_round_plan` of ``(rules, check)``, when the caller keeps it."""
    n = out.shape[0]
    data = {}
    for name, src, dtype in plan if plan is not None else _round_plan(rules, check):
        if src == "game":
            v = (
                np.arange(game0, game0 + n, dtype=dtype)
                if np.ndim(game0) == 0
                else np.asarray(game0, dtype)
            )
        elif src == "seed":
            v = seeds.view(dtype)
        elif isinstance(src, tuple):
            v = _team_column(rules, out, src[1])
        else:
            v = out[:, src]
        if into is None:
            data[name] = v if src in ("game", "seed") and v.dtype == dtype else v.astype(dtype)
        else:
            np.copyto(into[name][at : at + n], v, casting="unsafe")  # = astype(dtype)
    return data if into is None else into


def rounds_frame(
    rules, game0: int, out: np.ndarray, seeds: np.ndarray, check: bool = False
) -> pd.DataFrame:
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


def rounds_arrow(rules, game0: int, out: np.ndarray, seeds: np.ndarray, check: bool = False):
    """The round table as a :class:`pyarrow.Table` (no pandas on the way): the same
    columns and dtypes as :func:`rounds_frame`, as written to ``rounds/`` parts."""
    return arrow_table(_rounds_arrays(rules, game0, out, seeds, check))


def arrow_table(data: dict, cats=None):
    """A :class:`pyarrow.Table` of numpy columns; ``space`` (spin tables) dictionary-encoded
    over ``cats``."""
    import pyarrow as pa

    arrays = []
    for name, v in data.items():
        if name == "space" and cats is not None:
            arrays.append(
                pa.DictionaryArray.from_arrays(pa.array(v, pa.int8()), pa.array(cats, pa.string()))
            )
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
    delta = {
        f.name: "DELTA_BINARY_PACKED"
        for f in table.schema
        if pa.types.is_integer(f.type) and f.name != "seed"
    }
    keys = [k for k in _KEY_COLUMNS if k in names]
    return {
        "use_dictionary": dict_cols or False,
        "column_encoding": delta or None,
        "compression": "snappy",
        "write_statistics": keys or False,
    }


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
        # pyarrow's BufferOutputStream and ParquetWriter once a table came
        self._sink: Any = None
        self._writer: Any = None

    def add(self, table) -> None:
        """Append ``table`` (a :class:`pyarrow.Table`, the schema of every batch alike)."""
        import pyarrow as pa
        import pyarrow.parquet as pq

        if table.num_rows == 0:
            return
        if self._writer is None:
            self._sink = pa.BufferOutputStream()
            self._writer = pq.ParquetWriter(self._sink, table.schema, **part_write_options(table))
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

    def __init__(
        self, rules, n: int, check: bool = False, rounds: bool = True, spins: bool = True
    ) -> None:
        self.rules, self.n, self.check = rules, n, check
        self.filled = 0
        self.rounds = (
            {name: np.empty(n, dtype) for name, _, dtype in round_fields(rules, check)}
            if rounds
            else None
        )
        self._plan = _round_plan(rules, check) if rounds else None
        self._spins: list[dict[str, np.ndarray]] | None = [] if spins else None
        self.cats = list(rules.wheel_spaces())

    def add(self, game0: int, out: np.ndarray, seeds: np.ndarray, rec: np.ndarray) -> None:
        """Add the next batch: games ``game0 ..`` (``out``, ``seeds``: its rows; ``rec``: its
        spin records)."""
        if self.rounds is not None:
            _rounds_arrays(
                self.rules,
                game0,
                out,
                seeds,
                self.check,
                into=self.rounds,
                at=self.filled,
                plan=self._plan,
            )
        if self._spins is not None and len(rec):
            self._spins.append(_spins_arrays(self.rules, rec)[0])
        self.filled += out.shape[0]

    def spins_data(self) -> dict:
        """The spin columns (``space`` as int8 category codes over :attr:`cats`)."""
        from ..engine import layout as L

        parts = self._spins
        if not parts:
            return _spins_arrays(self.rules, np.zeros((0, L.N_SPIN_FIELDS), np.int64))[0]
        if len(parts) > 1:  # column by column, letting go of the batches' pieces as it goes
            whole = {name: np.concatenate([p.pop(name) for p in parts]) for name in list(parts[0])}
            parts[:] = [whole]
        return dict(parts[0])

    def rounds_arrow(self):
        assert self.rounds is not None  # the round columns are kept (rounds=True)
        return arrow_table(self.rounds)

    def spins_arrow(self):
        return arrow_table(self.spins_data(), self.cats)

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
    from ..engine import layout as L
    from ..rules.spaces import N_SPACES

    cats = list(rules.wheel_spaces())
    data = {}
    for name, src, dtype in SPIN_FIELDS:
        values = rec[:, getattr(L, src)]
        if name != "space":
            data[name] = values.astype(dtype)
            continue
        if not cats:
            data[name] = np.zeros(0, np.int8)
            continue
        code_of = np.full(N_SPACES, -1, np.int8)  # global space id -> category code
        code_of[[rules.space_id(s) for s in cats]] = np.arange(len(cats), dtype=np.int8)
        if len(values) and (values.min() < 0 or values.max() >= N_SPACES):
            raise ValueError("spin records hold space ids outside the known spaces")
        codes = code_of[values]
        if (codes < 0).any():
            raise ValueError(f"spin records hold spaces that are not on the {rules.edition} wheel")
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
    return arrow_table(data, cats)


def replay_frame(pairs: np.ndarray, spaces: list, out: np.ndarray) -> pd.DataFrame:
    """The replay table of ``runner.replay_spins``: columns :data:`.schema.REPLAY_COLUMNS`.

    Parameters
    ----------
    pairs : numpy.ndarray
        ``int64[n, 2]``: each replayed spin's game and its number within the game.
    spaces : list of str
        The spaces each spin was replayed with, in the kernel's order (``"none"`` first).
    out : numpy.ndarray
        ``int64[n, len(spaces), layout.N_REPLAY_FIELDS]``: the kernel's replay records.
    """
    import pandas as pd

    from ..engine import layout as L

    n, m = out.shape[0], len(spaces)
    q = out.reshape(n * m, L.N_REPLAY_FIELDS)
    supplied = {
        "pair": lambda: np.repeat(np.arange(n, dtype=np.int64), m),
        "game": lambda: np.repeat(np.ascontiguousarray(pairs[:, 0]), m),
        "spin": lambda: np.repeat(np.ascontiguousarray(pairs[:, 1]), m).astype(np.int32),
        "space": lambda: pd.Categorical.from_codes(np.tile(np.arange(m), n), categories=spaces),
    }
    return pd.DataFrame(
        {
            name: supplied[name]() if src is None else q[:, getattr(L, src)].astype(dtype)
            for name, src, dtype in REPLAY_FIELDS
        }
    )
