"""Compatibility door: the names of the former ``runner.py``, which became the package
:mod:`unospin_sim.run` (inputs, chunk, schedule, replay; CHANGELOG.md, 2026-12-03). New code
imports from :mod:`unospin_sim.run` or from the top-level package.

>>> from unospin_sim.runner import simulate, replay_spins   # as before
"""

from .bots import (
    SEARCH_KNOBS_BEFORE_COLOURS,
    SEARCH_KNOBS_BEFORE_EXTEND,
    SEARCH_KNOBS_BEFORE_HORIZON,
    SEARCH_SAVED_KNOBS,
    saved_bot_string,
    saved_bots,
)
from .results import Results
from .run import (
    KERNEL_BATCH,
    MATCH_BATCH,
    MAX_SEED,
    REPLAY_COLUMNS,
    SCHEMA_VERSION,
    SUMMARY_COLUMNS,
    TABLES,
    default_threads,
    play_chunk_frames,
    replay_spins,
    resume,
    run_chunk,
    simulate,
    trace,
)

__all__ = [
    "KERNEL_BATCH",
    "MATCH_BATCH",
    "MAX_SEED",
    "REPLAY_COLUMNS",
    "SCHEMA_VERSION",
    "SEARCH_KNOBS_BEFORE_COLOURS",
    "SEARCH_KNOBS_BEFORE_EXTEND",
    "SEARCH_KNOBS_BEFORE_HORIZON",
    "SEARCH_SAVED_KNOBS",
    "SUMMARY_COLUMNS",
    "TABLES",
    "Results",
    "default_threads",
    "play_chunk_frames",
    "replay_spins",
    "resume",
    "run_chunk",
    "saved_bot_string",
    "saved_bots",
    "simulate",
    "trace",
]
