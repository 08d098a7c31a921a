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
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pandas as pd

from .errors import UserError
from .engine import layout as L
from .engine.encode import encode
from .rules import RuleSet, parse_rules
from .results import (Results, round_columns, rounds_arrow, rounds_frame, spins_arrow,
                      spins_frame)

MAX_SEED = 2**63 - 1
SCHEMA_VERSION = 1
#: round columns kept in memory with ``keep="summary"``
SUMMARY_COLUMNS = ("game", "first_player", "winner", "turns")
#: the tables a run can write
TABLES = ("rounds", "spins")


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


_ENCODED: dict = {}
_ENCODED_LOCK = threading.Lock()


def _encoded(rules_text: str, bots_text: str, check: bool):
    """``(rules, kernel inputs)`` for canonical rule and bot strings, cached per process
    (threads and Dask workers rebuild them once, not per chunk)."""
    key = (rules_text, bots_text, check)
    with _ENCODED_LOCK:
        hit = _ENCODED.get(key)
    if hit is None:
        from .bots import parse_bots
        rules = parse_rules(rules_text)
        hit = (rules, encode(rules, parse_bots(bots_text, rules.players), check))
        with _ENCODED_LOCK:
            _ENCODED[key] = hit
    return hit


def play_chunk_frames(rules_text: str, bots_text: str, seed: int, game0: int, n: int,
                      check: bool = False, rotate: bool = False):
    """Play games ``game0 .. game0+n-1`` of a run and return ``(n, rounds, spins)`` frames.

    Takes only strings and numbers (canonical rule and bot strings round-trip exactly), so
    a worker process rebuilds everything it needs.
    """
    rules, ki = _encoded(rules_text, bots_text, check)
    out_arr, seeds, rec = _play(rules, ki, seed, rotate, game0, n)
    return n, rounds_frame(rules, game0, out_arr, seeds, check), spins_frame(rules, rec)


def _play(rules, ki, seed, rotate, game0, n):
    from .engine import kernel
    out_arr = np.empty((n, L.n_out_columns(rules.players)), np.int64)
    seeds = np.empty(n, np.uint64)
    rec = kernel.play_chunk(*ki.args(), seed, game0, out_arr, seeds, rotate)
    return out_arr, seeds, rec


def run_chunk(rules_text: str, bots_text: str, seed: int, check: bool, rotate: bool,
              chunk: int, game0: int, n: int, store=None, tables=TABLES, keep=False):
    """Play chunk ``chunk`` (games ``game0 .. game0+n-1``): the unit of work of local
    threads and Dask workers alike.

    Writes the chunk's parts into ``store`` (a :class:`~unospin_sim.rundir.RunStore`, when
    given) from the calling thread or worker, and returns ``(entry, frames)``: ``entry``
    is the chunk's manifest line (games, part files, summary counts), ``frames`` the
    ``(rounds, spins)`` DataFrames when ``keep`` is True, the summary columns of the
    rounds when ``keep == "summary"``, else None.
    """
    from .analysis.summary import SummaryAccumulator
    rules, ki = _encoded(rules_text, bots_text, check)
    out_arr, seeds, rec = _play(rules, ki, seed, rotate, game0, n)
    winner = out_arr[:, L.O_WINNER]
    acc = SummaryAccumulator.of_rounds(rules.players, np.arange(game0, game0 + n), winner,
                                       out_arr[:, L.O_TURNS])
    entry = {"chunk": chunk, "game0": game0, "games": n, "parts": {},
             "summary": acc.to_dict()}
    if store is not None:
        parts = {}
        if "rounds" in tables:
            parts["rounds"] = rounds_arrow(rules, game0, out_arr, seeds, check)
        if "spins" in tables and rules.wheel_spaces():
            parts["spins"] = spins_arrow(rules, rec)
        entry["parts"] = store.write_chunk(chunk, parts)
    frames = None
    if keep is True:
        frames = (rounds_frame(rules, game0, out_arr, seeds, check), spins_frame(rules, rec))
    elif keep == "summary":
        frames = (rounds_frame(rules, game0, out_arr, seeds, check)[list(SUMMARY_COLUMNS)],
                  None)
    return entry, frames


def _check_tables(tables) -> tuple:
    if isinstance(tables, str):
        tables = [t.strip() for t in tables.split(",") if t.strip()]
        if tables == ["none"]:
            tables = []
    tables = tuple(tables)
    bad = [t for t in tables if t not in TABLES]
    if bad or len(set(tables)) != len(tables):
        raise UserError(f"tables must be a comma list of {', '.join(TABLES)} or 'none', "
                        f"got {','.join(tables)!r}")
    return tuple(t for t in TABLES if t in tables)


def simulate(rules, bots="random", games: int = 1000, seed: int = 0, *,
             threads: int | None = None, chunk_size: int | None = None,
             out=None, overwrite: bool = False, progress: bool = False,
             keep: bool | str = True, check: bool = False, client=None,
             rotate_bots: bool = False, tables=TABLES, on_start=None) -> Results:
    """Play ``games`` rounds of ``rules`` with ``bots`` and return their results.

    Parameters
    ----------
    rules : RuleSet or str
        Rule set, or its string form such as ``"spin2025(players=4)"``.
    bots : str or sequence of BotSpec
        One strategy for every seat (``"random"``), a comma list with one per seat
        (``"random,heuristic(forget=0.1),random,random"``), or parsed specs.
    games : int
        Number of rounds (>= 1).
    seed : int
        Run seed (0 .. 2**63-1). Game ``g`` uses a stream derived from ``(seed, g)`` only,
        so results do not depend on ``threads`` or ``chunk_size``.
    threads : int, optional
        Worker threads (default: every available core).
    chunk_size : int, optional
        Games per task; also the rows per Parquet part when ``out`` is given.
    out : path-like, optional
        Results directory to write (``rounds/``, ``spins/``, ``meta.json``, plus
        ``run.json`` and ``manifest.jsonl``, which make an interrupted run resumable:
        :func:`resume`, see :mod:`unospin_sim.rundir`).
    overwrite : bool
        Allow ``out`` to hold an earlier run; the new run is built beside it and replaces
        it only once finished.
    progress : bool
        Show a progress bar on stderr.
    rotate_bots : bool
        Pass the deal one seat clockwise from game to game, as in a match: in game ``g`` the
        bot of player ``i`` (the ``i``-th of ``bots``) sits at seat ``(i - g) mod N``, i.e.
        seat ``s`` holds player ``(s + g) mod N``. Consecutive games then form matches for any
        mix of bots (``analysis.assemble_matches``); seat columns stay seats.
    client : dask.distributed.Client, optional
        Play the chunks on a Dask cluster instead of local threads (``threads`` is then
        ignored). The workers write their own parts into ``out`` (which must be storage
        they share with this process) and send back only the summary counts (and the
        tables, when ``keep`` is True). Results are identical to a local run.
    check : bool
        Verify the engine's invariants after every action (every card in exactly one
        place, hand counts consistent); adds the column ``invariant_failures``. Slower.
    keep : bool or "summary"
        Keep the tables in memory. ``"summary"`` keeps only the round columns ``game``,
        ``first_player``, ``winner`` and ``turns`` (6 bytes a round); ``False`` keeps
        nothing (``Results.summary`` still has the run summary). Both need ``out``.
    tables : sequence of str or str
        Tables written to ``out``: ``("rounds", "spins")`` (default), ``("rounds",)``, or
        ``()`` (``"none"``: only ``meta.json`` with the summary counts).
    on_start : callable, optional
        Called with the :class:`~unospin_sim.rundir.RunStore` once its directory exists
        (before any game is played).

    Returns
    -------
    Results
        :class:`unospin_sim.results.Results`: ``.rounds``, ``.spins`` (as ``keep`` says),
        ``.meta``, ``.summary`` (the :class:`~unospin_sim.analysis.summary.SummaryAccumulator`
        of every round); ``.save(DIR)`` writes them as a results directory.
    """
    rules = _as_rules(rules)
    bot_specs = _as_bots(bots, rules.players)
    games = _check_int("games", games, 1)
    seed = _check_int("seed", seed, 0, MAX_SEED)
    threads = default_threads() if threads is None else _check_int("threads", threads, 1, 1024)
    if chunk_size is None:
        chunk_size = int(min(65536, max(1024, games // (threads * 16) + 1)))
    chunk_size = _check_int("chunk_size", chunk_size, 1)
    tables = _check_tables(tables)
    if keep not in (True, False, "summary"):
        raise UserError(f"keep must be True, False or 'summary', got {keep!r}")
    if keep is not True and out is None:
        raise UserError(f"keep={keep!r} needs an output directory (out)")

    ki = encode(rules, bot_specs, check)  # before any output: it can reject the bots
    params = {"rules": str(rules), "bots": [str(b) for b in bot_specs], "seed": seed,
              "games": games, "chunk_size": chunk_size, "rotate_bots": bool(rotate_bots),
              "check": bool(check), "tables": list(tables)}
    store = None
    if out is not None:
        from .rundir import RunStore
        store = RunStore.create(out, params, overwrite=overwrite)
        if on_start is not None:
            on_start(store)
    return _execute(rules, ki, params, store, threads=threads, progress=progress,
                    keep=keep, client=client)


def resume(out, *, threads: int | None = None, progress: bool = False, keep=False,
           client=None, on_start=None) -> Results:
    """Finish an interrupted run in ``out``: play only the chunks its manifest does not
    list as finished (after checking every finished part), then write ``meta.json``.

    The parameters (rules, bots, seed, games, chunk size, ...) come from ``out/run.json``;
    the final tables equal an uninterrupted run's row for row. ``keep`` as in
    :func:`simulate` applies to the chunks played now only (default False).
    """
    from .rundir import RunStore
    threads = default_threads() if threads is None else _check_int("threads", threads, 1, 1024)
    store = RunStore.resume(out)
    p = store.params
    try:
        rules = parse_rules(p["rules"])
        bot_specs = _as_bots(p["bots"], rules.players)
        ki = encode(rules, bot_specs, bool(p.get("check", False)))
    except UserError as e:
        raise UserError(f"{store.path}/run.json: {e}") from None
    if on_start is not None:
        on_start(store)
    return _execute(rules, ki, p, store, threads=threads, progress=progress, keep=keep,
                    client=client)


def _execute(rules, ki, params, store, *, threads, progress, keep, client) -> Results:
    from . import __version__
    from .analysis.summary import SummaryAccumulator
    from .engine import kernel

    seed, games, chunk_size = params["seed"], params["games"], params["chunk_size"]
    rotate, check = bool(params["rotate_bots"]), bool(params["check"])
    tables = tuple(params["tables"])
    ncols = L.n_out_columns(rules.players)
    # compile or load the cached kernel once, in this thread; say so if it takes a while
    note = threading.Timer(2.0, lambda: print(
        "compiling the game kernel (first run only, about a minute; cached afterwards)...",
        file=sys.stderr, flush=True)) if progress else None
    if note is not None:
        note.start()
    try:
        kernel.play_chunk(*ki.args(), seed, 0, np.zeros((0, ncols), np.int64),
                          np.zeros(0, np.uint64), rotate)
    finally:
        if note is not None:
            note.cancel()

    acc = SummaryAccumulator(rules.players)
    nchunks = -(-games // chunk_size)
    todo = list(range(nchunks))
    if store is not None:
        for e in store.done.values():
            acc.merge(SummaryAccumulator.from_dict(e["summary"]))
        todo = store.todo()
    played = sum(min(chunk_size, games - k * chunk_size) for k in todo)
    rules_text, bots_text = params["rules"], ",".join(params["bots"])

    def task_args(k):
        return (rules_text, bots_text, seed, check, rotate, k, k * chunk_size,
                min(chunk_size, games - k * chunk_size))

    kept = {}
    bar = None
    if progress:
        from tqdm.auto import tqdm
        bar = tqdm(total=games, initial=games - played, unit="game", unit_scale=True,
                   dynamic_ncols=True, mininterval=0.5, desc=str(rules))
    stop_after = int(os.environ.get("UNOSPIN_TEST_STOP_AFTER", "0") or 0)  # tests only
    recorded = 0
    t0 = time.perf_counter()
    pending = set()
    tasks = iter(todo)
    if client is None:
        from concurrent.futures import FIRST_COMPLETED, wait
        pool = ThreadPoolExecutor(max_workers=threads)
        window = 2 * threads

        def submit(k):
            return pool.submit(run_chunk, *task_args(k), store, tables, keep)

        def wait_some():
            return wait(pending, return_when=FIRST_COMPLETED)[0]
    else:
        from distributed import wait as dwait
        pool = None
        window = 2 * max(1, sum(client.nthreads().values()))

        def submit(k):
            return client.submit(run_chunk, *task_args(k), store, tables, keep, pure=False)

        def wait_some():
            return dwait(list(pending), return_when="FIRST_COMPLETED").done
    try:
        pending.update(submit(k) for k in itertools.islice(tasks, window))
        while pending:
            for fut in wait_some():
                pending.discard(fut)
                entry, frames = fut.result()
                if store is not None:
                    store.record(entry)  # its parts are in place: the chunk is safe
                acc.merge(SummaryAccumulator.from_dict(entry["summary"]))
                if frames is not None:
                    kept[entry["chunk"]] = frames
                if bar is not None:
                    bar.update(entry["games"])
                recorded += 1
                if recorded == stop_after:
                    import signal
                    os.kill(os.getpid(), signal.SIGSTOP)
            pending.update(submit(k) for k in itertools.islice(tasks, window - len(pending)))
    finally:
        # on an error or Ctrl-C, drop the queued chunks (running ones finish in the background)
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)
        elif pending:
            client.cancel(list(pending))
        if bar is not None:
            bar.close()
    wall = time.perf_counter() - t0

    order = sorted(kept)
    if keep is True and order:
        rounds = pd.concat([kept[k][0] for k in order], ignore_index=True)
        spins = pd.concat([kept[k][1] for k in order], ignore_index=True)
    else:
        rounds = (pd.concat([kept[k][0] for k in order], ignore_index=True) if order else
                  rounds_frame(rules, 0, np.zeros((0, ncols), np.int64),
                               np.zeros(0, np.uint64), check))
        spins = spins_frame(rules, np.zeros((0, L.N_SPIN_FIELDS), np.int64))
    import numba
    meta = {
        "schema_version": SCHEMA_VERSION,
        "rules": str(rules),
        "edition": rules.edition,
        "players": rules.players,
        "seed": seed,
        "games": games,
        "bots": list(params["bots"]),
        "rotate_bots": rotate,
        "threads": threads if client is None else None,
        "dask_scheduler": None if client is None else str(client.scheduler.address),
        "chunk_size": chunk_size,
        "tables": list(tables),
        "version": __version__,
        "numba_version": numba.__version__,
        "wall_seconds": round(wall, 4),
        "games_played": played,   # in this session (less than games after a resume)
        "games_per_second": round(played / wall, 1) if wall > 0 else None,
        "resumed": played != games,
        "created": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
        "round_columns": round_columns(rules, check),
        "wheel_spaces": list(rules.wheel_spaces()),
        "summary": acc.to_dict(),
    }
    if store is not None:
        meta["results_dir"] = os.fspath(store.finish(meta))
    return Results(rounds, spins, meta, summary=acc)


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
