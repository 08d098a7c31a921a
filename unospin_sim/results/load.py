"""Reading a results directory back, every check on the way: :func:`read_results` (what
:meth:`~unospin_sim.results.Results.load` returns), :func:`load_matches` (the match table
alone) and :func:`newest` (the run written last).  Every problem is one
:class:`~unospin_sim.errors.ResultsError` line.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from ..errors import ResultsError, RuleError, reason
from .schema import (
    JUMP_COLUMN,
    MATCH_COLUMNS,
    MAX_MATCH_ROUNDS,
    META_FILE,
    READABLE_FORMATS,
    REQUIRED_META,
    SEAT_COLUMNS,
    SPIN_COLUMNS,
    SPIN_FIELDS,
    VARIANT_KEY,
    is_match_mode,
    match_round_game,
    round_columns,
)

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

__all__ = ["load_matches", "newest", "read_results", "read_summary_only"]


def learn_variant(meta: dict, where: str) -> None:
    """Make the variant file a results directory's ``meta.json`` or ``run.json`` keeps
    (:data:`~unospin_sim.results.schema.VARIANT_KEY`) known to ``parse_rules``, so its rule
    string parses; nothing when it keeps none."""
    from ..rules.variants import variant_from_text

    record = meta.get(VARIANT_KEY)
    if record is None:
        return
    if not isinstance(record, dict) or not isinstance(record.get("text"), str):
        raise ResultsError(f"{where}: {VARIANT_KEY!r} must hold the variant file's text")
    try:
        variant = variant_from_text(record["text"], f"{where}: variant {record.get('path')!r}")
    except RuleError as e:
        raise ResultsError(str(e)) from None
    if record.get("content_hash", variant.content_hash) != variant.content_hash:
        raise ResultsError(f"{where}: the variant's text does not match its content_hash")


def _read_meta(d: Path) -> dict:
    path = d / META_FILE
    if not path.is_file() and (d / "run.json").is_file():
        raise ResultsError(
            f"{d} is an unfinished run (no {META_FILE}); finish it with "
            f"'python -m unospin_sim run --resume {d}'"
        )
    if not path.is_file():
        raise ResultsError(
            f"{d} has no {META_FILE}: not a results directory, or the run did not finish"
        )
    try:
        meta = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError) as e:
        # ValueError: bad JSON, bad UTF-8 or an integer too long to convert;
        # RecursionError: absurdly deep nesting
        raise ResultsError(f"{path} is not valid JSON: {reason(e)}") from None
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
        isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in parts.values()
    ):
        raise ResultsError(f"{path}: 'parts' must map table names to part counts")
    learn_variant(meta, str(path))
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
        raise ResultsError(
            f"{t} holds {len(files)} part files but meta.json lists "
            f"{expected_parts}: parts are missing or extra"
        )
    if not files:
        if optional:  # the spin table of a run without spins: its columns, no rows
            return pd.DataFrame(
                {
                    name: pd.Series(dtype=object if dtype is None else dtype)
                    for name, _, dtype in SPIN_FIELDS
                }
            )
        raise ResultsError(f"{d} has no {table} part files ({table}/part-*.parquet)")
    frames: list[pd.DataFrame] = []
    names0: set[str] | None = None
    for f in files:
        try:
            tab = pq.read_table(f)
        except (pa.ArrowException, OSError) as e:
            raise ResultsError(
                f"{f} is not a readable Parquet file (truncated or corrupt): {reason(e)}"
            ) from None
        if names0 is None:
            names0 = set(tab.column_names)
        elif set(tab.column_names) != names0:
            raise ResultsError(
                f"{f} has other columns than {files[0].name}: the parts do not belong to one run"
            )
        frames.append(tab.to_pandas())
    assert names0 is not None  # files is not empty
    missing = [c for c in required if c not in names0]
    if missing:
        more = f" and {len(missing) - 5} more" if len(missing) > 5 else ""
        raise ResultsError(
            f"{t} lacks columns {', '.join(missing[:5])}{more}: written by "
            f"another version or for other rules"
        )
    df = pd.concat(frames, ignore_index=True) if len(frames) > 1 else frames[0]
    for c in required:
        if c != "space" and not pd.api.types.is_integer_dtype(df[c].dtype):
            raise ResultsError(
                f"{t}: column {c!r} holds {df[c].dtype} values, not whole "
                f"numbers: not a table written by this tool"
            )
    return df


def _check_rounds(d: Path, rounds, rules) -> None:
    """Check that ``rounds`` (sorted by game) fits ``rules``: games 0..n-1 once each,
    winners and per-seat columns within the rule set's seats."""
    t = d / "rounds"
    game = rounds["game"].to_numpy()
    if is_match_mode(rules):
        want = match_round_game(rounds["match"].to_numpy(), rounds["round"].to_numpy())
        if not np.array_equal(game, want) or (len(game) > 1 and (np.diff(game) <= 0).any()):
            raise ResultsError(
                f"{t}: 'game' is not match * {MAX_MATCH_ROUNDS} + round once "
                f"per round: parts of different runs, or a part copied twice"
            )
    elif not np.array_equal(game, np.arange(len(game))):
        raise ResultsError(
            f"{t}: 'game' does not hold the games 0..{len(game) - 1} once each: "
            f"parts of different runs, or a part copied twice"
        )
    winner = rounds["winner"].to_numpy()
    if len(winner) and (winner.min() < -1 or winner.max() >= rules.players):
        raise ResultsError(
            f"{t}: 'winner' holds seats outside -1..{rules.players - 1}, "
            f"but meta.json's rules {rules} have {rules.players} players"
        )
    for c in rounds.columns:
        m = re.fullmatch(r"(?:%s)_(\d+)" % "|".join(SEAT_COLUMNS + (JUMP_COLUMN,)), c)
        if m is not None and int(m.group(1)) >= rules.players:
            raise ResultsError(
                f"{t} has column {c!r} for a seat beyond the "
                f"{rules.players} players of meta.json's rules {rules}"
            )


def _open(results_dir: str | os.PathLike):
    """``(path, meta, rules)`` of a results directory, its ``meta.json`` checked."""
    from ..rules import parse_rules

    d = Path(results_dir)
    if not d.exists():
        raise ResultsError(f"no results directory at {d}")
    if not d.is_dir():
        raise ResultsError(f"{d} is not a directory")
    meta = _read_meta(d)
    fmt = meta.get("results_format", 1)
    if fmt not in READABLE_FORMATS:
        raise ResultsError(
            f"{d / META_FILE}: results format {fmt!r}, but this version of unospin_sim reads "
            f"formats {', '.join(map(str, READABLE_FORMATS))}: written by a newer version?"
        )
    try:
        rules = parse_rules(meta["rules"])
    except RuleError as e:
        raise ResultsError(f"{d / META_FILE}: bad rule string: {e}") from None
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
        raise ResultsError(f"{d / META_FILE}: 'matches' must be a whole number >= 0, got {n!r}")
    matches = _read_table(
        d,
        "matches",
        MATCH_COLUMNS(rules.players),
        meta.get("parts", {}).get("matches"),
        optional=False,
    )
    if n is not None and len(matches) != n:
        raise ResultsError(f"{t} holds {len(matches)} matches but meta.json says {n}")
    matches = matches.sort_values("match", kind="stable", ignore_index=True)
    if not np.array_equal(matches["match"].to_numpy(), np.arange(len(matches))):
        raise ResultsError(
            f"{t}: 'match' does not hold the matches 0..{len(matches) - 1} "
            f"once each: parts of different runs, or a part copied twice"
        )
    winner = matches["winner"].to_numpy()
    if len(winner) and (winner.min() < -1 or winner.max() >= rules.players):
        raise ResultsError(
            f"{t}: 'winner' holds players outside -1..{rules.players - 1}, "
            f"but meta.json's rules {rules} have {rules.players} players"
        )
    return matches


def read_results(results_dir: str | os.PathLike):
    """Read and validate a results directory (see :meth:`Results.load`): ``(rounds, spins,
    meta, matches)``."""
    import pandas as pd

    from ..rules.spaces import SPACE_NAMES

    d, meta, rules = _open(results_dir)
    parts = meta.get("parts", {})
    # the jump-in columns (house rule jump_in) came after format 1's first runs: a jump_in
    # run of format 1 may lack them and still loads
    required = [
        c for c in round_columns(rules) if not (c == JUMP_COLUMN or c.startswith(JUMP_COLUMN + "_"))
    ]
    rounds = _read_table(d, "rounds", required, parts.get("rounds"), optional=False)
    if len(rounds) != meta["games"]:
        raise ResultsError(
            f"{d / 'rounds'} holds {len(rounds)} rounds but meta.json says {meta['games']} games"
        )
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
        raise ResultsError(
            f"{d / 'spins'}: 'space' holds names that are not spaces of the {rules.edition} wheel"
        )
    spins["space"] = pd.Categorical(space, categories=wheel)
    matches = _read_matches(d, meta, rules)
    if matches is not None and matches["rounds"].sum() != len(rounds):
        raise ResultsError(
            f"{d / 'matches'}: its matches have {matches['rounds'].sum()} "
            f"rounds but {d / 'rounds'} holds {len(rounds)}"
        )
    return rounds, spins, meta, matches


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


def newest(root: str | os.PathLike | None = None, *, matches: bool | None = None) -> Path:
    """The newest finished results directory: the one ``python -m unospin_sim run`` wrote last.

    Parameters
    ----------
    root : path, optional
        Look only in this directory.  By default look in ``results/`` of the current
        directory, then of each of its parents in turn (a notebook running in
        ``notebooks/`` finds the repository's ``results/``); the nearest ``results/``
        holding a finished run is used.
    matches : bool, optional
        False: only runs of single rounds (``meta.json``'s ``match`` absent or
        ``single``); True: only match runs; None (default): either.

    Returns
    -------
    pathlib.Path
        The subdirectory whose ``meta.json`` was written last (``meta.json`` is written
        when a run finishes, so unfinished runs are never chosen) among the runs with a
        round table (a ``run --summary-only`` run has none, and is skipped); absolute when
        ``root`` is not given.  Load it with :func:`load_results`.

    Raises
    ------
    ResultsError
        No finished run was found; the message is one line naming the ``run`` command.
    """
    here = Path.cwd().resolve()
    roots = [Path(root)] if root is not None else [d / "results" for d in (here, *here.parents)]
    for r in roots:
        found = (
            [
                m
                for m in r.glob("*/meta.json")
                if m.is_file() and _has_rounds(m) and _kind_fits(m, matches)
            ]
            if r.is_dir()
            else []
        )
        if found:
            return max(found, key=lambda m: (m.stat().st_mtime_ns, m.parent.name)).parent
    where = f"{roots[0]}/" if root is not None else f"results/ of {here} or of its parents"
    kind = {None: "", False: " of single rounds", True: " of matches"}[matches]
    raise ResultsError(
        f"no results directory{kind} with a round table found in {where}: run "
        f"`python -m unospin_sim run --games 1e6` first"
    )


def _kind_fits(meta_file: Path, matches: bool | None) -> bool:
    """Whether the run of ``meta_file`` is of the kind asked (:func:`newest`); an unreadable
    ``meta.json`` fits (loading it then says what is wrong)."""
    if matches is None:
        return True
    try:
        mode = json.loads(meta_file.read_text(encoding="utf-8")).get("match") or "single"
    except (OSError, ValueError, AttributeError, RecursionError):
        return True
    return (mode != "single") is matches


def _has_rounds(meta_file: Path) -> bool:
    """Whether the run of ``meta_file`` wrote a round table (an unreadable ``meta.json``
    counts as one: loading it then says what is wrong)."""
    try:
        tables = json.loads(meta_file.read_text(encoding="utf-8")).get("tables")
    except (OSError, ValueError, AttributeError, RecursionError):
        return True
    return not isinstance(tables, list) or "rounds" in tables


def read_summary_only(results_dir: str | os.PathLike) -> dict | None:
    """``meta.json`` of a run written with ``tables=()`` (``run --tables none``): no round
    table, only the summary counts under ``"summary"``; None for any other directory (which
    :func:`read_results` reads and checks).

    Raises
    ------
    ResultsError
        A summary-only ``meta.json`` whose rules do not parse or without a summary object.
    """
    from ..rules import parse_rules

    path = Path(results_dir) / META_FILE
    try:
        meta = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        return None  # read_results reports it
    if not isinstance(meta, dict) or meta.get("tables") != []:
        return None
    learn_variant(meta, str(path))
    try:
        parse_rules(meta["rules"])
        if not isinstance(meta["summary"], dict):
            raise TypeError("'summary' is not an object")
    except (KeyError, TypeError, ValueError) as e:
        raise ResultsError(
            f"{path}: a summary-only run without valid summary counts: {e}"
        ) from None
    return meta
