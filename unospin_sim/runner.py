"""Run many games: validate, seed, split into chunks, play them on threads, collect results.

>>> from unospin_sim import simulate
>>> res = simulate("classic(players=4)", "random", games=1000, seed=1)   # doctest: +SKIP
>>> res.to_df().winner.value_counts()                                      # doctest: +SKIP
"""

from __future__ import annotations

import datetime as _dt
import itertools
import os
import sys
import threading
import time
from collections import deque
from concurrent.futures import ThreadPoolExecutor
from functools import partial

import numpy as np
import pandas as pd

from .errors import UserError
from .engine import layout as L
from .engine.encode import encode
from .rules import RuleSet, parse_rules
from .results import (Results, empty_frames, is_match_mode, match_frames, round_columns,
                      rounds_frame, spins_frame)

MAX_SEED = 2**63 - 1
SCHEMA_VERSION = 1
#: round columns kept in memory with ``keep="summary"``
SUMMARY_COLUMNS = ("game", "first_player", "winner", "turns")


def default_threads() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


def _as_rules(rules) -> RuleSet:
    if isinstance(rules, RuleSet):
        return rules
    if isinstance(rules, str):
        return parse_rules(rules)
    raise UserError(f"rules must be a RuleSet or a rule string, not {type(rules).__name__}")


def _as_bots(bots, players: int):
    from .bots import parse_bots
    if isinstance(bots, str):
        return parse_bots(bots, players)
    from .bots import check_seats
    bots = tuple(bots)
    if all(isinstance(b, str) for b in bots):  # e.g. meta["bots"] of an earlier run
        return parse_bots(",".join(bots), players)
    if len(bots) != players:
        raise UserError(f"{len(bots)} bots given for {players} players")
    check_seats(bots)
    return bots


def _check_int(name: str, value, lo: int, hi: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise UserError(f"{name} must be an integer, got {value!r}")
    value = int(value)
    if value < lo or (hi is not None and value > hi):
        bound = f">= {lo}" if hi is None else f"in {lo}..{hi}"
        raise UserError(f"{name} must be {bound}, got {value}")
    return value


def _ordered_map(submit, tasks, window: int, pending: deque):
    """Results of ``submit(task)`` futures in task order, with at most ``window`` tasks
    queued or running: memory stays bounded and an interruption cancels little.
    ``pending`` holds the outstanding futures (for the caller to cancel)."""
    tasks = iter(tasks)
    pending.extend(submit(t) for t in itertools.islice(tasks, window))
    while pending:
        result = pending.popleft().result()
        for t in itertools.islice(tasks, 1):
            pending.append(submit(t))
        yield result


def play_chunk_frames(rules_text: str, bots_text: str, seed: int, game0: int, n: int,
                      check: bool = False, rotate: bool = False):
    """Play games ``game0 .. game0+n-1`` of a run; the unit of work sent to Dask workers.

    Takes only strings and numbers (canonical rule and bot strings round-trip exactly), so
    a worker process rebuilds everything it needs. Returns ``(n, rounds, spins)`` frames.
    """
    from .bots import parse_bots
    rules = parse_rules(rules_text)
    ki = encode(rules, parse_bots(bots_text, rules.players), check)
    return _play_frames(rules, ki, seed, check, rotate, (game0, n))


def play_match_chunk_frames(rules_text: str, bots_text: str, seed: int, match0: int, n: int,
                            check: bool = False):
    """Play matches ``match0 .. match0+n-1`` (match mode); the Dask unit of work.
    Returns ``(n, rounds, spins, matches)`` frames (see :func:`_play_match_frames`)."""
    from .bots import parse_bots
    rules = parse_rules(rules_text)
    ki = encode(rules, parse_bots(bots_text, rules.players), check)
    return _play_match_frames(rules, ki, seed, check, (match0, n))


def _play_frames(rules, ki, seed, check, rotate, task):
    from .engine import kernel
    game0, n = task
    out_arr = np.empty((n, L.n_out_columns(rules.players)), np.int64)
    seeds = np.empty(n, np.uint64)
    rec = kernel.play_chunk(*ki.args(), seed, game0, out_arr, seeds, rotate)
    return n, rounds_frame(rules, game0, out_arr, seeds, check), spins_frame(rules, rec)


#: rounds after which a match still running ends with winner -1 (e.g. every round unfinished)
MAX_MATCH_ROUNDS = 10_000


def _play_match_frames(rules, ki, seed, check, task):
    """Play matches ``task = (match0, n)``: ``(n, rounds, spins, matches)`` frames
    (:func:`results.match_frames`: seat columns and the spinner are PLAYERS, the i-th bot;
    ``game`` counts rounds from 0 within these matches, the caller offsets it)."""
    from .engine import kernel
    match0, n = task
    rows, seeds, mrows, rec = kernel.play_match_chunk(*ki.args(), seed, match0, n,
                                                      MAX_MATCH_ROUNDS)
    return (n, *match_frames(rules, rows, seeds, mrows, rec, check))


def _chunks(games: int, chunk_size: int):
    start = 0
    while start < games:
        n = min(chunk_size, games - start)
        yield start, n
        start += n


def simulate(rules, bots="random", games: int = 1000, seed: int = 0, *,
             threads: int | None = None, chunk_size: int | None = None,
             out=None, overwrite: bool = False, progress: bool = False,
             keep: bool | str = True, check: bool = False, client=None,
             rotate_bots: bool = False) -> Results:
    """Play ``games`` rounds of ``rules`` with ``bots`` and return their results.

    Parameters
    ----------
    rules : RuleSet or str
        Rule set, or its string form such as ``"spin2025(players=4)"``.
    bots : str or sequence of BotSpec
        One strategy for every seat (``"random"``), a comma list with one per seat
        (``"random,heuristic(forget=0.1),random,random"``), or parsed specs.
    games : int
        Number of rounds (>= 1); under a match mode (rule option ``match=race`` or
        ``lowest``) the number of whole MATCHES, each played in the engine (see below).
    seed : int
        Run seed (0 .. 2**63-1). Game ``g`` uses a stream derived from ``(seed, g)`` only,
        so results do not depend on ``threads`` or ``chunk_size``.
    threads : int, optional
        Worker threads (default: every available core).
    chunk_size : int, optional
        Games per task; also the rows per Parquet part when ``out`` is given.
    out : path-like, optional
        Results directory to write (``rounds/``, ``spins/``, ``meta.json``).
    overwrite : bool
        Allow ``out`` to hold an earlier results directory.
    progress : bool
        Show a progress bar on stderr.
    rotate_bots : bool
        Pass the deal one seat clockwise from game to game, as in a match: in game ``g`` the
        bot of player ``i`` (the ``i``-th of ``bots``) sits at seat ``(i - g) mod N``, i.e.
        seat ``s`` holds player ``(s + g) mod N``. Consecutive games then form matches for any
        mix of bots (``analysis.assemble_matches``); seat columns stay seats.
    client : dask.distributed.Client, optional
        Play the chunks on a Dask cluster instead of local threads (``threads`` is then
        ignored). Results are identical to a local run with the same seed.
    check : bool
        Verify the engine's invariants after every action (every card in exactly one
        place, hand counts consistent); adds the column ``invariant_failures``. Slower.
    keep : bool or "summary"
        Keep the tables in memory. ``"summary"`` keeps only the round columns ``game``,
        ``first_player``, ``winner`` and ``turns`` (6 bytes a round: enough for the run
        summary of a run larger than memory); ``False`` keeps nothing. Both need ``out``.

    Match mode (``match=race|lowest``, ``target``): match m is a unit of work seeded from
    (seed, m), its round j from (that, j); the deal passes one seat clockwise each round for
    any mix of bots. The round table's seat columns are then PLAYERS (the i-th bot) and it
    gains ``match``, ``round`` and ``score_<i>`` (running scores after the round); ``game``
    numbers the rounds of the run; ``Results.matches`` (``DIR/matches/``) holds one row per
    match: ``match``, ``rounds``, ``turns``, ``score_<i>``, ``winner`` (-1: still running
    after MAX_MATCH_ROUNDS rounds). ``meta["games"]`` is then the number of rounds played,
    ``meta["matches"]`` the number of matches. The match table is kept unless
    ``keep=False``.

    Returns
    -------
    Results
        :class:`unospin_sim.results.Results`: ``.rounds``, ``.spins`` (as ``keep`` says),
        ``.meta``, ``.matches`` (match mode; else ``None``); ``.save(DIR)`` writes them as a
        results directory.
    """
    from . import __version__
    from .engine import kernel

    rules = _as_rules(rules)
    bot_specs = _as_bots(bots, rules.players)
    games = _check_int("games", games, 1)
    seed = _check_int("seed", seed, 0, MAX_SEED)
    threads = default_threads() if threads is None else _check_int("threads", threads, 1, 1024)
    if chunk_size is None:
        chunk_size = int(min(65536, max(1024, games // (threads * 16) + 1)))
    chunk_size = _check_int("chunk_size", chunk_size, 1)
    if keep not in (True, False, "summary"):
        raise UserError(f"keep must be True, False or 'summary', got {keep!r}")
    if keep is not True and out is None:
        raise UserError(f"keep={keep!r} needs an output directory (out)")

    ki = encode(rules, bot_specs, check)  # before any output: it can reject the bots
    match_mode = is_match_mode(rules)
    if match_mode and rotate_bots:
        raise UserError(f"rotate_bots cannot be combined with match={rules.option('match')}: "
                        f"a match passes the deal itself")

    writer = None
    if out is not None:
        from .results import ResultsWriter
        writer = ResultsWriter(out, overwrite=overwrite)

    ncols = L.n_out_columns(rules.players)
    args = ki.args()
    # compile or load the cached kernel once, in this thread; say so if it takes a while
    note = threading.Timer(2.0, lambda: print(
        "compiling the game kernel (first run only, about a minute; cached afterwards)...",
        file=sys.stderr, flush=True)) if progress else None
    if note is not None:
        note.start()
    try:
        if match_mode:
            kernel.play_match_chunk(*args, seed, 0, 0, MAX_MATCH_ROUNDS)
        else:
            kernel.play_chunk(*args, seed, 0, np.zeros((0, ncols), np.int64),
                              np.zeros(0, np.uint64), bool(rotate_bots))
    finally:
        if note is not None:
            note.cancel()

    if match_mode:
        work = partial(_play_match_frames, rules, ki, seed, check)
    else:
        work = partial(_play_frames, rules, ki, seed, check, bool(rotate_bots))

    rounds_parts, spin_parts, match_parts = [], [], []
    n_rounds = 0  # match mode: rounds played so far
    bar = None
    if progress:
        from tqdm.auto import tqdm
        bar = tqdm(total=games, unit="match" if match_mode else "game", unit_scale=True,
                   dynamic_ncols=True, mininterval=0.5, desc=str(rules))
    t0 = time.perf_counter()
    pending = deque()
    if client is None:
        pool = ThreadPoolExecutor(max_workers=threads)
        submit, window = partial(pool.submit, work), 2 * threads
    else:
        pool = None
        window = 2 * max(1, sum(client.nthreads().values()))
        rules_text, bots_text = str(rules), ",".join(str(b) for b in bot_specs)

        def submit(task):
            if match_mode:
                return client.submit(play_match_chunk_frames, rules_text, bots_text, seed,
                                     task[0], task[1], check, pure=False)
            return client.submit(play_chunk_frames, rules_text, bots_text, seed, task[0],
                                 task[1], check, bool(rotate_bots), pure=False)
    try:
        # chunks come back in game (match) order, so parts are written in that order
        for n, rdf, sdf, *mdf in _ordered_map(submit, _chunks(games, chunk_size), window,
                                              pending):
            if match_mode:  # number the rounds of the run in match order
                rdf["game"] += n_rounds
                sdf["game"] += n_rounds
                n_rounds += len(rdf)
                mdf = mdf[0]
                if writer is not None:
                    writer.write_matches(mdf)
                if keep is not False:
                    match_parts.append(mdf)
            if writer is not None:
                writer.write_rounds(rdf)
                if rules.wheel_spaces():
                    writer.write_spins(sdf)
            if keep is True:
                rounds_parts.append(rdf)
                spin_parts.append(sdf)
            elif keep == "summary":
                rounds_parts.append(rdf[list(SUMMARY_COLUMNS)])
            if bar is not None:
                bar.update(n)
    finally:
        # on an error or Ctrl-C, drop the queued chunks (running ones finish in the background)
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)
        elif pending:
            client.cancel(list(pending))
        if bar is not None:
            bar.close()
    wall = time.perf_counter() - t0

    empty = empty_frames(rules)
    rounds = pd.concat(rounds_parts, ignore_index=True) if rounds_parts else empty[0]
    spins = pd.concat(spin_parts, ignore_index=True) if spin_parts else empty[1]
    matches = pd.concat(match_parts, ignore_index=True) if match_parts else empty[2]
    if match_mode:
        n_matches, games = games, n_rounds
    import numba
    meta = {
        "schema_version": SCHEMA_VERSION,
        "rules": str(rules),
        "edition": rules.edition,
        "players": rules.players,
        "seed": seed,
        "games": games,
        "bots": [str(b) for b in bot_specs],
        "rotate_bots": bool(rotate_bots),
        "threads": threads if client is None else None,
        "dask_scheduler": None if client is None else str(client.scheduler.address),
        "chunk_size": chunk_size,
        "version": __version__,
        "numba_version": numba.__version__,
        "wall_seconds": round(wall, 4),
        "games_per_second": round(games / wall, 1) if wall > 0 else None,
        "created": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
        "round_columns": round_columns(rules),
        "wheel_spaces": list(rules.wheel_spaces()),
    }
    if match_mode:
        meta.update({"match": rules.option("match"), "target": rules.option("target"),
                     "matches": n_matches,
                     "matches_per_second": round(n_matches / wall, 1) if wall > 0 else None})
    if writer is not None:
        writer.finish(meta)
    return Results(rounds, spins, meta, matches)


def trace(rules, bots="random", seed: int = 0, game: int = 0,
          log_rows: int = L.LOG_ROWS_TRACE, rotate_bots: bool = False):
    """Play game ``game`` of a run seeded ``seed`` with the event log on (``rotate_bots``
    as in :func:`simulate`).

    Returns
    -------
    (events, state, rules, bots)
        ``events`` is an int64[n, 4] array of (code, a, b, c) rows (``layout.EV_*``);
        ``state`` the final :class:`~unospin_sim.engine.layout.State`.
    """
    from .engine import kernel
    rules = _as_rules(rules)
    specs = _as_bots(bots, rules.players)
    seed = _check_int("seed", seed, 0, MAX_SEED)
    game = _check_int("game", game, 0)
    ki = encode(rules, specs)
    log, st = kernel.trace_game(*ki.args(), seed, game, log_rows, bool(rotate_bots))
    return log, st, rules, specs
