"""Writing a results directory in one go (:class:`ResultsWriter`, what
:meth:`~unospin_sim.results.Results.save` uses) and what every writer of one shares: the
output directory's checks, the files this tool owns, JSON of numpy values.  A run's
directory, written chunk by chunk, is :mod:`.rundir`.
"""

from __future__ import annotations

import json
import os
import tempfile
import threading
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import ResultsError, reason
from .schema import META_FILE, OWN_FILE, REQUIRED_META, RESULTS_FORMAT, TABLES
from .tables import part_write_options

__all__ = [
    "ResultsWriter",
    "json_default",
    "own_results",
    "prepare_out_dir",
    "unwritable",
    "write_json",
]


def own_results(out: Path) -> list[Path]:
    """Files of an earlier run in ``out`` that a ResultsWriter would have written."""
    found, foreign = [], []
    if (out / META_FILE).exists():
        found.append(out / META_FILE)
    for table in TABLES:
        d = out / table
        if not d.exists():
            continue
        if not d.is_dir():
            foreign.append(d)
            continue
        for f in sorted(d.iterdir()):
            (found if OWN_FILE.fullmatch(f.name) and f.is_file() else foreign).append(f)
    if foreign:
        raise ResultsError(
            f"{out} holds files this tool did not write ({foreign[0]}); "
            f"remove them or choose another output directory"
        )
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
        raise ResultsError(f"cannot create results directory {out}: {reason(e)}") from None
    if any((out / name).exists() for name in (META_FILE, *TABLES)):
        if not overwrite:
            raise ResultsError(
                f"{out} already holds results; choose another output directory or pass --overwrite"
            )
        for f in own_results(out):  # meta.json first: the old run stops looking complete
            try:
                f.unlink()
            except OSError as e:
                raise ResultsError(f"cannot remove old result file {f}: {reason(e)}") from None
        for table in TABLES:
            if (out / table).is_dir():
                (out / table).rmdir()
    why = unwritable(out)
    if why:
        raise ResultsError(f"results directory {out} is not writable: {why}")
    return out


def unwritable(directory: str | os.PathLike) -> str | None:
    """Why a file cannot be created in ``directory`` (a one-line reason), or None when one
    can: a probe file is created and removed."""
    try:
        fd, probe = tempfile.mkstemp(prefix=".unospin-probe-", dir=directory)
        os.close(fd)
        os.unlink(probe)
    except OSError as e:
        return reason(e)
    return None


def json_default(obj: Any) -> Any:
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


def write_json(path: Path, obj) -> None:
    """Write ``obj`` as indented JSON to ``path`` atomically (a temporary name, then
    :func:`os.replace`); numpy values as plain numbers. One-line ResultsError on failure."""
    tmp = path.with_name(f".{path.name}.tmp")
    try:
        tmp.write_text(json.dumps(obj, indent=2, default=json_default) + "\n", encoding="utf-8")
        os.replace(tmp, path)
    except OSError as e:
        tmp.unlink(missing_ok=True)
        raise ResultsError(f"cannot write {path}: {reason(e)}") from None


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
        self._parts = dict.fromkeys(TABLES, 0)
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
            raise ResultsError(f"cannot write {final}: {reason(e)}") from None
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
        from .. import __version__

        full = {
            "version": __version__,
            **meta,
            "results_format": RESULTS_FORMAT,
            "parts": self.parts,
        }
        final = self.out_dir / META_FILE
        write_json(final, full)
        return final
