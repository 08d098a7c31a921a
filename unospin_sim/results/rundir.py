"""A results directory written chunk by chunk: survives kill -9, resumes, replaces safely.

Layout (on top of the results format of :mod:`unospin_sim.results`)::

    DIR/run.json          the run's parameters, written (atomically) before any chunk is played
    DIR/manifest.jsonl    one JSON line per finished chunk, appended as chunks finish
    DIR/rounds/part-<chunk>.parquet, DIR/spins/part-<chunk>.parquet
    DIR/meta.json         written last: the run is complete

Chunk ``k`` holds games ``k * chunk_size ..`` and writes the parts numbered ``k`` (zero
padded to one width per run, so file-name order is chunk order, which is game order).  A
part is written under a hidden temporary name and moved into place with :func:`os.replace`,
and only then is its manifest line appended (one ``write`` of one line: a line cut short by
a kill is ignored).  Each line holds the chunk's games, every part's file name, row count,
size and SHA-256, and the chunk's summary counts, so ``run --resume DIR`` can check every
finished part (a part that does not match its line is an error, never reused), play only the
missing chunks and print the summary of the whole run without reading the parts.

``--overwrite`` of a directory holding results builds the new run in a hidden sibling
directory ``.<name>.new-<random>`` (its ``run.json`` names the directory it replaces) and
swaps it in only when it has finished; until then the old results stay complete and
readable, and an interrupted replacement is resumed like any run.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import secrets
import shutil
import threading
from pathlib import Path

from ..errors import ResultsError, reason
from .schema import META_FILE, READABLE_FORMATS, RESULTS_FORMAT, TABLES
from .store import json_default, own_results, prepare_out_dir, write_json

RUN_FILE = "run.json"
MANIFEST = "manifest.jsonl"
#: files of the chunked layout besides the tables and meta.json
RUN_FILES = (RUN_FILE, MANIFEST)
_PART = re.compile(r"part-(\d{5,})\.parquet")


def _sha256_file(path: Path) -> tuple[int, str]:
    h = hashlib.sha256()
    size = 0
    with open(path, "rb") as f:
        while True:
            block = f.read(1 << 20)
            if not block:
                break
            size += len(block)
            h.update(block)
    return size, h.hexdigest()


def holds_run(out: Path) -> bool:
    """Whether ``out`` holds results or an unfinished run."""
    return any((out / name).exists() for name in (META_FILE, *TABLES, *RUN_FILES))


class RunStore:
    """The directory of one chunked run (create with :meth:`create`, reopen with
    :meth:`resume`).  :meth:`write_chunk` may be called from any thread or process
    (it touches only the chunk's own files); :meth:`record` appends the manifest line."""

    def __init__(self, path: Path, params: dict, done: dict | None = None) -> None:
        self.path = Path(path)
        self.params = params
        self.done: dict[int, dict] = dict(done or {})  # chunk -> manifest entry
        self._lock = threading.Lock()

    def __getstate__(self):  # sent to Dask workers: the directory and parameters only
        return {"path": self.path.absolute(), "params": self.params}

    def __setstate__(self, state):
        RunStore.__init__(self, state["path"], state["params"])

    # --------------------------------------------------------------------------------------
    @property
    def target(self) -> Path:
        """The directory the results end up in (``path`` unless replacing another run)."""
        return Path(self.params.get("replace") or self.path)

    @property
    def nchunks(self) -> int:
        g, c = self.params["games"], self.params["chunk_size"]
        return -(-g // c)

    @property
    def width(self) -> int:
        return max(5, len(str(self.nchunks - 1)))

    def chunk_games(self, k: int) -> tuple[int, int]:
        c = self.params["chunk_size"]
        return k * c, min(c, self.params["games"] - k * c)

    def todo(self) -> list[int]:
        return [k for k in range(self.nchunks) if k not in self.done]

    # --------------------------------------------------------------------------------------
    @classmethod
    def create(cls, out, params: dict, overwrite: bool = False) -> RunStore:
        """Start a new run in ``out`` (or, with ``overwrite`` of existing results, in a
        hidden sibling that replaces ``out`` when the run finishes); writes ``run.json``."""
        out = Path(out)
        if out.exists() and not out.is_dir():
            raise ResultsError(f"results directory {out} exists and is not a directory")
        params = {"results_format": RESULTS_FORMAT, **params}
        path = out
        if out.is_dir() and holds_run(out):
            if not overwrite:
                if (out / RUN_FILE).exists() and not (out / META_FILE).exists():
                    raise ResultsError(
                        f"{out} holds an unfinished run; finish it with "
                        f"'run --resume {out}' or pass --overwrite"
                    )
                raise ResultsError(
                    f"{out} already holds results; choose another output "
                    f"directory or pass --overwrite"
                )
            own_results(out)  # refuses a directory holding files this tool did not write
            for extra in out.iterdir():
                if extra.name not in (META_FILE, *TABLES, *RUN_FILES) and not extra.name.startswith(
                    "."
                ):
                    raise ResultsError(
                        f"{out} holds files this tool did not write "
                        f"({extra}); remove them or choose another output "
                        f"directory"
                    )
            path = out.parent / f".{out.name}.new-{secrets.token_hex(4)}"
            params["replace"] = os.fspath(out.absolute())
        elif out.is_dir():  # a run's directory is its own: nothing else in it
            other = sorted(p.name for p in out.iterdir() if not p.name.startswith("."))
            if other:
                raise ResultsError(
                    f"{out} holds files this tool did not write ({other[0]}); "
                    f"choose another output directory"
                )
        prepare_out_dir(path)
        store = cls(path, params)
        write_json(path / RUN_FILE, params)
        try:
            (path / MANIFEST).touch()
        except OSError as e:
            raise ResultsError(f"cannot write {path / MANIFEST}: {reason(e)}") from None
        return store

    @classmethod
    def resume(cls, path) -> RunStore:
        """Reopen an unfinished run: read ``run.json`` and the manifest and check every
        finished part against its manifest line (one-line :class:`ResultsError` if not)."""
        path = Path(path)
        if not path.is_dir():
            raise ResultsError(f"no results directory at {path}")
        run_file = path / RUN_FILE
        if (path / META_FILE).exists():
            raise ResultsError(f"{path} is a finished run: nothing to resume")
        if not run_file.is_file():
            raise ResultsError(f"{path} has no {RUN_FILE}: not a run this tool can resume")
        try:
            params = json.loads(run_file.read_text(encoding="utf-8"))
            if not isinstance(params, dict):
                raise ValueError("not a JSON object")
            for key in ("rules", "bots", "seed", "games", "chunk_size"):
                params[key]
        except (OSError, ValueError, KeyError, RecursionError) as e:
            raise ResultsError(f"{run_file} is not a valid run file: {reason(e)}") from None
        if params.get("results_format") not in READABLE_FORMATS:
            raise ResultsError(f"{run_file} was written by another version of this tool")
        store = cls(path, params)
        store._read_manifest()
        for table in TABLES:  # a leftover temporary file of a killed write
            d = path / table
            if d.is_dir():
                for f in d.iterdir():
                    if f.name.startswith(".part-") and f.name.endswith(".tmp"):
                        f.unlink(missing_ok=True)
                    elif not _PART.fullmatch(f.name) or not f.is_file():
                        raise ResultsError(
                            f"{path} holds files this tool did not write "
                            f"({f}); remove them before resuming"
                        )
        return store

    def _read_manifest(self) -> None:
        mpath = self.path / MANIFEST
        try:
            text = mpath.read_text(encoding="utf-8")
        except FileNotFoundError:
            text = ""
        except (OSError, ValueError) as err:
            raise ResultsError(f"cannot read {mpath}: {reason(err)}") from None
        lines = text.split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        elif lines:
            lines.pop()  # cut short by a kill while it was being appended: ignored
        for i, line in enumerate(lines, 1):
            try:
                e = json.loads(line)
                k = e["chunk"]
                if (e["game0"], e["games"]) != self.chunk_games(k) or not 0 <= k < self.nchunks:
                    raise ValueError("games do not match the run's chunks")
                parts = e["parts"]
                e["summary"]["games"]
            except (ValueError, KeyError, TypeError) as err:
                raise ResultsError(f"{mpath} line {i} is corrupt: {reason(err)}") from None
            if k in self.done:
                continue
            for table, info in parts.items():
                if table not in TABLES:
                    raise ResultsError(f"{mpath} line {i} is corrupt: unknown table {table!r}")
                f = self.path / table / info["file"]
                if not f.is_file():
                    raise ResultsError(f"{f} is missing but {MANIFEST} lists it as finished")
                size, digest = _sha256_file(f)
                if size != info["bytes"] or digest != info["sha256"]:
                    raise ResultsError(
                        f"{f} does not match its {MANIFEST} entry (corrupt, or "
                        f"a part of another run); remove the directory or that "
                        f"chunk's line to replay it"
                    )
            self.done[k] = e

    # --------------------------------------------------------------------------------------
    def part_name(self, k: int) -> str:
        return f"part-{k:0{self.width}d}.parquet"

    def write_chunk(self, k: int, tables: dict) -> dict:
        """Write chunk ``k``'s parts atomically; returns their manifest info
        ``{table: {file, rows, bytes, sha256}}``.  ``tables`` maps a table's name to a
        :class:`pyarrow.Table`, a :class:`~unospin_sim.results.PartBuffer` (a part
        already encoded batch by batch) or None."""
        import pyarrow as pa
        import pyarrow.parquet as pq

        from .tables import PartBuffer, part_write_options

        info = {}
        name = self.part_name(k)
        for table, tab in tables.items():
            if isinstance(tab, PartBuffer):
                rows, buf = tab.rows, tab.getvalue()
            elif tab is not None and tab.num_rows:
                sink = pa.BufferOutputStream()
                pq.write_table(tab, sink, **part_write_options(tab))
                rows, buf = tab.num_rows, sink.getvalue()
            else:
                rows, buf = 0, None
            if not rows:
                continue
            d = self.path / table
            final, tmp = d / name, d / f".{name}.tmp"
            try:
                d.mkdir(exist_ok=True)
                with open(tmp, "wb") as f:
                    f.write(memoryview(buf))
                os.replace(tmp, final)
            except OSError as e:
                tmp.unlink(missing_ok=True)
                raise ResultsError(f"cannot write {final}: {reason(e)}") from None
            except BaseException:
                tmp.unlink(missing_ok=True)
                raise
            info[table] = {
                "file": name,
                "rows": rows,
                "bytes": buf.size,
                "sha256": hashlib.sha256(memoryview(buf)).hexdigest(),
            }
        return info

    def record(self, entry: dict) -> None:
        """Append chunk ``entry["chunk"]``'s manifest line (after its parts are in place)."""
        line = json.dumps(entry, separators=(",", ":"), default=json_default) + "\n"
        with self._lock:
            try:
                fd = os.open(self.path / MANIFEST, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
                try:
                    os.write(fd, line.encode())
                finally:
                    os.close(fd)
            except OSError as e:
                raise ResultsError(f"cannot write {self.path / MANIFEST}: {reason(e)}") from None
            self.done[entry["chunk"]] = entry

    def parts(self) -> dict[str, int]:
        counts = dict.fromkeys(TABLES, 0)
        for e in self.done.values():
            for table in e["parts"]:
                counts[table] += 1
        return counts

    def finish(self, meta: dict) -> Path:
        """Write ``meta.json``; when replacing another run, swap this one into its place
        (the old directory is removed only after the new one is there).  Returns the
        final directory."""
        if len(self.done) != self.nchunks:
            raise ResultsError(
                f"{self.path}: {self.nchunks - len(self.done)} chunks are not finished"
            )
        full = {**meta, "results_format": RESULTS_FORMAT, "parts": self.parts()}
        write_json(self.path / META_FILE, full)
        target = self.target
        if target == self.path:
            return self.path
        old = target.parent / f".{target.name}.old-{secrets.token_hex(4)}"
        try:
            if target.exists():
                os.rename(target, old)
            os.rename(self.path, target)
        except OSError as e:
            raise ResultsError(
                f"cannot move the finished run {self.path} to {target}: {reason(e)}"
            ) from None
        shutil.rmtree(old, ignore_errors=True)
        self.path = target
        return target
