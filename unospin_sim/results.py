"""Results directories: Parquet part files plus ``meta.json``, written safely and read back.

Layout of a results directory ``DIR``::

    DIR/meta.json               run metadata (written last, atomically)
    DIR/rounds/part-00000.parquet, part-00001.parquet, ...   one row per round
    DIR/spins/part-00000.parquet, ...                          one row per wheel spin
    DIR/matches/part-00000.parquet, ...    match mode only: one row per match

``pandas.read_parquet(DIR / "rounds")`` loads the round table; :func:`load_results` loads
and validates everything.  Every part file is written under a hidden temporary name and
moved into place with :func:`os.replace`, so a part is either complete or absent, and an
interrupted run keeps the parts it finished.  A directory without ``meta.json`` is an
unfinished run.

Round columns (see docs/ARCHITECTURE.md): :data:`ROUND_BASE_COLUMNS`, then per seat ``i``
``cards_drawn_<i>``, ``cards_left_<i>``, ``points_left_<i>``, then ``spins_<space>`` for each
space of the edition's wheel (:func:`round_columns`).  Spin columns: :data:`SPIN_COLUMNS`.

``meta.json`` must hold at least :data:`REQUIRED_META` (``rules``: the canonical rule string;
``games``: the number of rounds in ``rounds/``); runs also record ``seed``, ``bots``,
``version``, ``wall_seconds`` and ``threads``.  :meth:`ResultsWriter.finish` adds
``results_format`` and ``parts`` (part files per table), which :func:`load_results` checks.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
import threading
from pathlib import Path
from typing import Any

import numpy as np

from .errors import ResultsError, RuleError

__all__ = ["ResultsWriter", "load_results", "load_matches", "MATCH_COLUMNS", "prepare_out_dir",
           "round_columns", "ROUND_BASE_COLUMNS", "SEAT_COLUMNS", "SPIN_COLUMNS", "REQUIRED_META",
           "RESULTS_FORMAT"]

#: per-round columns every rule set has
ROUND_BASE_COLUMNS = ("game", "seed", "first_player", "winner", "turns", "winner_points",
                      "cards_drawn", "failed_draws", "spins")
#: per-seat column prefixes: ``<prefix>_<seat>``
SEAT_COLUMNS = ("cards_drawn", "cards_left", "points_left")
#: per-spin columns
SPIN_COLUMNS = ("game", "turn", "spinner", "space", "hand_before", "hand_after",
                "cards_drawn", "cards_discarded")
#: match mode: columns of the round table after the per-seat ones (seat columns are players)
MATCH_ROUND_COLUMNS = ("match", "round")


def MATCH_COLUMNS(players: int) -> list[str]:  # noqa: N802 - a table's column list
    """Columns of the match table (match mode): match, rounds, turns, score_<i>, winner."""
    return ["match", "rounds", "turns"] + [f"score_{i}" for i in range(players)] + ["winner"]


#: keys meta.json must have
REQUIRED_META = ("rules", "games")
#: version of this directory layout, stored in meta.json
RESULTS_FORMAT = 1

_TABLES = ("rounds", "spins", "matches")
_META = "meta.json"
_OWN_FILE = re.compile(r"(part-\d{5}\.parquet|\.part-\d{5}\.parquet\.tmp)")


def round_columns(rules) -> list[str]:
    """Names of the columns a round table must have for ``rules``.

    Parameters
    ----------
    rules : RuleSet

    Returns
    -------
    list of str
        :data:`ROUND_BASE_COLUMNS`, the per-seat columns, then ``spins_<space>`` per space.
    """
    cols = list(ROUND_BASE_COLUMNS)
    for prefix in SEAT_COLUMNS:
        cols += [f"{prefix}_{i}" for i in range(rules.players)]
    cols += [f"spins_{s}" for s in rules.wheel_spaces()]
    if rules.option("match") != "single":
        cols += list(MATCH_ROUND_COLUMNS) + [f"score_{i}" for i in range(rules.players)]
    return cols


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
    :meth:`write_rounds` and :meth:`write_spins` may be called from several threads.  The
    writer never deletes anything it did not write.
    """

    def __init__(self, out_dir: str | os.PathLike, overwrite: bool = False) -> None:
        self.out_dir = prepare_out_dir(out_dir, overwrite=overwrite)
        self._parts = dict.fromkeys(_TABLES, 0)
        self._lock = threading.Lock()

    @property
    def parts(self) -> dict[str, int]:
        """Part files written so far, per table (``matches`` only in match mode, so that a
        single-round run's meta.json is as before)."""
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
        """Append ``df`` (rows of the match table, match mode) as the next ``matches/``
        part file."""
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
            pq.write_table(pa.Table.from_pandas(df, preserve_index=False), tmp)
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
        if optional:
            return pd.DataFrame({c: pd.Series(dtype="int64") for c in required})
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
    if not np.array_equal(game, np.arange(len(game))):
        raise ResultsError(f"{t}: 'game' does not hold the games 0..{len(game) - 1} once each: "
                           f"parts of different runs, or a part copied twice")
    winner = rounds["winner"].to_numpy()
    if len(winner) and (winner.min() < -1 or winner.max() >= rules.players):
        raise ResultsError(f"{t}: 'winner' holds seats outside -1..{rules.players - 1}, "
                           f"but meta.json's rules {rules} have {rules.players} players")
    for c in rounds.columns:
        m = re.fullmatch(r"(?:%s)_(\d+)" % "|".join(SEAT_COLUMNS), c)
        if m is not None and int(m.group(1)) >= rules.players:
            raise ResultsError(f"{t} has column {c!r} for a seat beyond the "
                               f"{rules.players} players of meta.json's rules {rules}")


def load_results(results_dir: str | os.PathLike):
    """Load and validate a results directory.

    Parameters
    ----------
    results_dir : path
        A directory written by a run (see the module docstring).

    Returns
    -------
    rounds : pandas.DataFrame
        One row per round, sorted by ``game``.
    spins : pandas.DataFrame
        One row per spin, sorted by ``game`` (stable, so in turn order within a game);
        ``space`` is categorical over the edition's wheel spaces.  Empty (with the spin
        columns) for editions without a wheel.
    meta : dict
        The contents of ``meta.json``.

    Raises
    ------
    ResultsError
        A missing directory or ``meta.json``, invalid JSON, an unknown rule string, missing
        or extra part files, a truncated or corrupt Parquet file, missing columns or columns
        that do not hold whole numbers, a row count that differs from ``meta["games"]``,
        games other than ``0..games-1`` once each, or winners / per-seat columns beyond the
        rule set's players; the message is one line.
    """
    import pandas as pd

    from .rules import parse_rules
    from .rules.spaces import SPACE_NAMES

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
    parts = meta.get("parts", {})
    rounds = _read_table(d, "rounds", round_columns(rules), parts.get("rounds"), optional=False)
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
    return rounds, spins, meta


def load_matches(results_dir: str | os.PathLike):
    """The match table of a match-mode results directory (one row per match, sorted by
    ``match``), or ``None`` when the run played single rounds."""
    from .rules import parse_rules
    d = Path(results_dir)
    meta = _read_meta(d)
    try:
        rules = parse_rules(meta["rules"])
    except RuleError as e:
        raise ResultsError(f"{d / _META}: bad rule string: {e}") from None
    if rules.option("match") == "single":
        return None
    df = _read_table(d, "matches", MATCH_COLUMNS(rules.players),
                     meta.get("parts", {}).get("matches"), optional=True)
    if "matches" in meta and len(df) != meta["matches"]:
        raise ResultsError(f"{d / 'matches'} holds {len(df)} matches but meta.json says "
                           f"{meta['matches']}")
    return df.sort_values("match", kind="stable", ignore_index=True)
