"""Running games: a run as two values, what it plays and how (:mod:`.spec`: ``RunSpec``,
``Execution``), its inputs checked once (:mod:`.inputs`), one chunk of a run played
(:mod:`.work`), the one parallel map over chunks on threads or Dask (:mod:`.pool`), a whole
run scheduled with progress and its ``meta.json`` (:mod:`.schedule`), single games and
paired spin replays (:mod:`.replay`), a Dask client for a cluster (:mod:`.cluster`), the
compile-ahead warm-up (:mod:`.warmup`) and one game as text (:mod:`.playthrough`).
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
from .pool import as_completed, parallel_map
from .replay import REPLAY_COLUMNS, replay_spins, trace
from .schedule import CHUNK_HOOKS, resume, simulate
from .spec import Execution, RunSpec, kernel_inputs
from .work import KERNEL_BATCH, MATCH_BATCH, SUMMARY_COLUMNS, play_chunk_frames, run_chunk

__all__ = [
    "CHUNK_HOOKS",
    "DEFAULT_MATCHES",
    "DEFAULT_ROUNDS",
    "KERNEL_BATCH",
    "MATCH_BATCH",
    "MAX_SEED",
    "REPLAY_COLUMNS",
    "SUMMARY_COLUMNS",
    "TABLES",
    "Execution",
    "RunSpec",
    "as_completed",
    "dask_client",
    "default_threads",
    "games_to_play",
    "kernel_inputs",
    "parallel_map",
    "play_chunk_frames",
    "replay_spins",
    "resume",
    "run_chunk",
    "simulate",
    "trace",
]
