"""Running games: the inputs checked once (:mod:`.inputs`), one chunk of a run played
(:mod:`.chunk`), a whole run scheduled on threads or Dask with progress and its
``meta.json`` (:mod:`.schedule`), single games and paired spin replays (:mod:`.replay`),
a Dask client for a cluster (:mod:`.cluster`).
``unospin_sim.runner`` re-exports these names, as before.
"""

from .cluster import dask_client
from .inputs import (
    DEFAULT_MATCHES,
    DEFAULT_ROUNDS,
    MAX_SEED,
    TABLES,
    default_threads,
    games_to_play,
)
from .replay import REPLAY_COLUMNS, replay_spins, trace
from .schedule import SCHEMA_VERSION, resume, simulate
from .work import KERNEL_BATCH, MATCH_BATCH, SUMMARY_COLUMNS, play_chunk_frames, run_chunk

__all__ = [
    "DEFAULT_MATCHES",
    "DEFAULT_ROUNDS",
    "KERNEL_BATCH",
    "MATCH_BATCH",
    "MAX_SEED",
    "REPLAY_COLUMNS",
    "SCHEMA_VERSION",
    "SUMMARY_COLUMNS",
    "TABLES",
    "dask_client",
    "default_threads",
    "games_to_play",
    "play_chunk_frames",
    "replay_spins",
    "resume",
    "run_chunk",
    "simulate",
    "trace",
]
