"""The results format: the tables of a run, their columns, and results directories.

This package owns everything a run's results look like: the :class:`Results` that
:func:`~unospin_sim.simulate` and :func:`load_results` return, the round, spin and match
columns (built in this package only, from the kernel's output layout in ``engine/layout.py``
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

The package's rooms, in the order data flows through them: :mod:`.schema` (every column and
file name), :mod:`.tables` (kernel arrays to pandas frames and Arrow tables), :mod:`.store`
(writing a directory in one go, and what every writer shares), :mod:`.rundir` (a run's
directory chunk by chunk: ``run.json``, ``manifest.jsonl``, resume, ``--overwrite`` beside the
old run) and :mod:`.load` (reading and checking); :class:`Results` is here, at the door.
Every public name of the rooms is importable from ``unospin_sim.results`` as before.
"""

from __future__ import annotations

import os
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import ResultsError, RuleError
from .load import load_matches, newest, read_results, read_summary_only
from .match_tables import empty_frames, match_arrows, match_frames, matches_frame
from .outdir import claim_out_dir, remove_stale
from .schema import (
    CHECK_COLUMN,
    JUMP_COLUMN,
    LABEL_KEY,
    MATCH_COLUMNS,
    MATCH_ROUND_COLUMNS,
    MAX_LABEL,
    MAX_MATCH_ROUNDS,
    READABLE_FORMATS,
    REPLAY_COLUMNS,
    REQUIRED_META,
    RESULTS_FORMAT,
    ROUND_BASE_COLUMNS,
    SEAT_COLUMNS,
    SPIN_COLUMNS,
    TEAM_COLUMNS,
    check_label,
    has_jump_ins,
    is_match_mode,
    is_partners,
    match_round_game,
    round_columns,
    run_label,
)
from .store import ResultsWriter, prepare_out_dir
from .tables import (
    ChunkColumns,
    PartBuffer,
    part_write_options,
    replay_frame,
    rounds_arrow,
    rounds_frame,
    spins_arrow,
    spins_frame,
)

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

__all__ = [
    "CHECK_COLUMN",
    "JUMP_COLUMN",
    "LABEL_KEY",
    "MATCH_COLUMNS",
    "MATCH_ROUND_COLUMNS",
    "MAX_LABEL",
    "MAX_MATCH_ROUNDS",
    "READABLE_FORMATS",
    "REPLAY_COLUMNS",
    "REQUIRED_META",
    "RESULTS_FORMAT",
    "ROUND_BASE_COLUMNS",
    "SEAT_COLUMNS",
    "SPIN_COLUMNS",
    "TEAM_COLUMNS",
    "ChunkColumns",
    "PartBuffer",
    "Results",
    "ResultsWriter",
    "check_label",
    "claim_out_dir",
    "empty_frames",
    "has_jump_ins",
    "is_match_mode",
    "is_partners",
    "load_matches",
    "load_results",
    "match_arrows",
    "match_frames",
    "match_round_game",
    "matches_frame",
    "newest",
    "part_write_options",
    "prepare_out_dir",
    "read_summary_only",
    "remove_stale",
    "replay_frame",
    "round_columns",
    "rounds_arrow",
    "rounds_frame",
    "run_label",
    "spins_arrow",
    "spins_frame",
]


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
        return cls(*read_results(results_dir))

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
        from ..rules import parse_rules

        meta = self.meta if isinstance(self.meta, dict) else {}
        missing = [k for k in REQUIRED_META if k not in meta]
        if missing:
            raise ResultsError(f"cannot save results: meta lacks {', '.join(missing)}")
        try:
            rules = parse_rules(meta["rules"])
        except (RuleError, TypeError) as e:
            raise ResultsError(f"cannot save results: bad rule string in meta: {e}") from None
        if len(self.rounds) == 0:
            raise ResultsError(
                "cannot save results: the round table is empty (a run with "
                "keep=False keeps no rounds)"
            )
        lacking = [c for c in round_columns(rules) if c not in self.rounds.columns]
        if lacking:
            more = f" and {len(lacking) - 5} more" if len(lacking) > 5 else ""
            raise ResultsError(
                f"cannot save results: the round table lacks columns "
                f"{', '.join(lacking[:5])}{more} (a keep='summary' run keeps "
                f"only a few)"
            )
        if len(self.rounds) != meta["games"]:
            raise ResultsError(
                f"cannot save results: {len(self.rounds)} rounds but meta "
                f"says {meta['games']!r} games"
            )
        matches = self.matches
        if is_match_mode(rules):
            if matches is None or len(matches) == 0:
                raise ResultsError(
                    f"cannot save results: {rules} play matches but there is no match table"
                )
            lacking = [c for c in MATCH_COLUMNS(rules.players) if c not in matches.columns]
            if lacking:
                raise ResultsError(
                    f"cannot save results: the match table lacks columns {', '.join(lacking)}"
                )
            if "matches" in meta and len(matches) != meta["matches"]:
                raise ResultsError(
                    f"cannot save results: {len(matches)} matches but meta says {meta['matches']!r}"
                )
        elif matches is not None and len(matches):
            raise ResultsError(
                f"cannot save results: a match table, but {rules} play single rounds"
            )
        writer = ResultsWriter(results_dir, overwrite=overwrite)
        writer.write_rounds(self.rounds)
        writer.write_spins(self.spins)
        if is_match_mode(rules):
            writer.write_matches(matches)
        return writer.finish(dict(meta))

    def __iter__(self):
        """Deprecated: ``rounds, spins, meta = results``; use the attributes instead."""
        warnings.warn(
            "unpacking Results into (rounds, spins, meta) is deprecated; use "
            ".rounds, .spins and .meta",
            DeprecationWarning,
            stacklevel=2,
        )
        return iter((self.rounds, self.spins, self.meta))

    def __repr__(self) -> str:
        rules = self.meta.get("rules", "?") if isinstance(self.meta, dict) else "?"
        more = "" if self.matches is None else f", matches={len(self.matches):,} rows"
        return (
            f"Results(rules={rules!r}, rounds={len(self.rounds):,} rows, "
            f"spins={len(self.spins):,} rows{more})"
        )


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
