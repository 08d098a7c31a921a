"""Compatibility door: the names of the former ``runner.py``, which became the package
:mod:`unospin_sim.run` (inputs, chunk, schedule, replay; CHANGELOG.md, 2026-12-03). New code
imports from :mod:`unospin_sim.run` or from the top-level package.

>>> from unospin_sim.runner import simulate, replay_spins   # as before
"""

from .bots import (SEARCH_KNOBS_BEFORE_COLOURS, SEARCH_KNOBS_BEFORE_EXTEND,
                   SEARCH_KNOBS_BEFORE_HORIZON,
                   SEARCH_SAVED_KNOBS, saved_bot_string, saved_bots)
from .results import Results
from .run import (KERNEL_BATCH, MATCH_BATCH, MAX_SEED, REPLAY_COLUMNS, SCHEMA_VERSION,
                  SUMMARY_COLUMNS, TABLES, default_threads, play_chunk_frames, replay_spins,
                  resume, run_chunk, simulate, trace)

__all__ = ["simulate", "resume", "trace", "replay_spins", "run_chunk", "play_chunk_frames",
           "default_threads", "saved_bot_string", "saved_bots", "Results", "KERNEL_BATCH",
           "MATCH_BATCH", "SUMMARY_COLUMNS", "MAX_SEED", "TABLES", "SCHEMA_VERSION",
           "REPLAY_COLUMNS", "SEARCH_KNOBS_BEFORE_HORIZON", "SEARCH_KNOBS_BEFORE_COLOURS",
           "SEARCH_KNOBS_BEFORE_EXTEND",
           "SEARCH_SAVED_KNOBS"]
