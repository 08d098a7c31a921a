"""Running a whole run: :func:`simulate` and :func:`resume` check their inputs once, then
play the chunks (:func:`~unospin_sim.run.work.run_chunk`) on local threads or a Dask
cluster with a progress bar, record each finished chunk in the run's directory, and write
``meta.json`` last.

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

from ..bots import saved_bot_string, saved_bots
from ..engine import layout as L
from ..engine.encode import encode
from ..errors import UserError
from ..results import MAX_MATCH_ROUNDS, Results, empty_frames, round_columns
from ..rules import parse_rules
from .inputs import MAX_SEED, TABLES, as_bots, as_rules, check_int, check_tables, default_threads
from .work import SUMMARY_COLUMNS, run_chunk

__all__ = ["SCHEMA_VERSION", "resume", "simulate"]

SCHEMA_VERSION = 1


def simulate(
    rules,
    bots="random",
    games: int = 1000,
    seed: int = 0,
    *,
    threads: int | None = None,
    chunk_size: int | None = None,
    out=None,
    overwrite: bool = False,
    progress: bool = False,
    keep: bool | str = True,
    check: bool = False,
    client=None,
    rotate_bots: bool = False,
    tables=TABLES,
    on_start=None,
) -> Results:
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
        Results directory to write (``rounds/``, ``spins/``, ``meta.json``, plus
        ``run.json`` and ``manifest.jsonl``, which make an interrupted run resumable:
        :func:`resume`, see :mod:`unospin_sim.results.rundir`).
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
        Called with the :class:`~unospin_sim.results.rundir.RunStore` once its directory exists
        (before any game is played).

    Match mode (``match=race|lowest``, ``target``): match m is a unit of work seeded from
    (seed, m), its round j from (that, j); the deal passes one seat clockwise each round for
    any mix of bots. The round table's seat columns are then PLAYERS (the i-th bot) and it
    gains ``match``, ``round`` and ``score_<i>`` (running scores after the round); ``game``
    of round j of match m is ``m * MAX_MATCH_ROUNDS + j`` (known where the chunk is played, so
    chunks of matches are written by the workers in any order and resume like rounds, and
    the spin table's ``game`` points at its round); ``Results.matches`` (``DIR/matches/``) holds one row per
    match: ``match``, ``rounds``, ``turns``, ``score_<i>``, ``winner`` (-1: still running
    after MAX_MATCH_ROUNDS rounds). ``meta["games"]`` is then the number of rounds played,
    ``meta["matches"]`` the number of matches. The match table is kept unless
    ``keep=False``.

    Returns
    -------
    Results
        :class:`unospin_sim.results.Results`: ``.rounds``, ``.spins`` (as ``keep`` says),
        ``.meta``, ``.matches`` (match mode; else ``None``), ``.summary`` (the
        :class:`~unospin_sim.analysis.summary.SummaryAccumulator` of every round);
        ``.save(DIR)`` writes them as a results directory.
    """
    rules = as_rules(rules)
    bot_specs = as_bots(bots, rules.players)
    games = check_int("games", games, 1)
    seed = check_int("seed", seed, 0, MAX_SEED)
    threads = default_threads() if threads is None else check_int("threads", threads, 1, 1024)
    if chunk_size is None:
        # search plays ~1000x slower rounds: small chunks so that every thread gets work
        least = 8 if any(b.strategy == "search" for b in bot_specs) else 1024
        chunk_size = int(min(65536, max(least, games // (threads * 16) + 1)))
    chunk_size = check_int("chunk_size", chunk_size, 1)
    tables = check_tables(tables)
    if keep not in (True, False, "summary"):
        raise UserError(f"keep must be True, False or 'summary', got {keep!r}")
    if keep is not True and out is None:
        raise UserError(f"keep={keep!r} needs an output directory (out)")

    ki = encode(rules, bot_specs, check)  # before any output: it can reject the bots
    if rules.plays_matches and rotate_bots:
        raise UserError(
            f"rotate_bots cannot be combined with match={rules.option('match')}: "
            f"a match passes the deal itself"
        )
    params = {
        "rules": str(rules),
        "bots": [saved_bot_string(b) for b in bot_specs],
        "seed": seed,
        "games": games,
        "chunk_size": chunk_size,
        "rotate_bots": bool(rotate_bots),
        "check": bool(check),
        "tables": list(tables),
    }
    store = None
    if out is not None:
        from ..results.rundir import RunStore

        store = RunStore.create(out, params, overwrite=overwrite)
        if on_start is not None:
            on_start(store)
    return _execute(
        rules, ki, params, store, threads=threads, progress=progress, keep=keep, client=client
    )


def resume(
    out,
    *,
    threads: int | None = None,
    progress: bool = False,
    keep=False,
    client=None,
    on_start=None,
) -> Results:
    """Finish an interrupted run in ``out``: play only the chunks its manifest does not
    list as finished (after checking every finished part), then write ``meta.json``.

    The parameters (rules, bots, seed, games, chunk size, ...) come from ``out/run.json``;
    the final tables equal an uninterrupted run's row for row. ``keep`` as in
    :func:`simulate` applies to the chunks played now only (default False).
    """
    from ..results.rundir import RunStore

    threads = default_threads() if threads is None else check_int("threads", threads, 1, 1024)
    store = RunStore.resume(out)
    p = store.params
    try:
        rules = parse_rules(p["rules"])
        if not (isinstance(p["bots"], list) and all(isinstance(b, str) for b in p["bots"])):
            raise UserError(f"bots must be a list of bot strings, got {p['bots']!r:.60}")
        bot_specs = as_bots(saved_bots(p["bots"]), rules.players)
        ki = encode(rules, bot_specs, bool(p.get("check", False)))
    except UserError as e:
        raise UserError(f"{store.path}/run.json: {e}") from None
    if on_start is not None:
        on_start(store)
    return _execute(
        rules, ki, p, store, threads=threads, progress=progress, keep=keep, client=client
    )


def _execute(rules, ki, params, store, *, threads, progress, keep, client) -> Results:
    """Play the chunks of a run not played yet (all, or what a resumed run lacks) and return
    its results; with ``store``, its ``meta.json`` written last."""
    _warm_kernel(rules, ki, params, progress)
    acc, kept, played, rounds_played, wall = _play_chunks(
        rules, params, store, threads, progress, keep, client
    )
    return _finish(
        rules, params, store, threads, keep, client, acc, kept, played, rounds_played, wall
    )


def _warm_kernel(rules, ki, params, progress: bool) -> None:
    """Compile or load the cached kernel once, in this thread; say so if it takes a while."""
    from ..engine import kernel

    seed, rotate = params["seed"], bool(params["rotate_bots"])
    ncols = L.n_out_columns(rules.players)
    note = (
        threading.Timer(
            2.0,
            lambda: print(
                "compiling the game kernel for this rule set's round loop (first run only; about "
                "75 s for the default rules on 2 cores, longer with house rules or a search seat; "
                "cached afterwards; `python -m unospin_sim compile` does it ahead)...",
                file=sys.stderr,
                flush=True,
            ),
        )
        if progress
        else None
    )
    if note is not None:
        note.start()
    try:
        if rules.plays_matches:
            kernel.play_match_chunk(*ki.args(), seed, 0, 0, MAX_MATCH_ROUNDS)
        else:
            kernel.play_chunk(
                *ki.args(), seed, 0, np.zeros((0, ncols), np.int64), np.zeros(0, np.uint64), rotate
            )
    finally:
        if note is not None:
            note.cancel()


def _play_chunks(rules, params, store, threads, progress, keep, client):
    """The chunks still to play, on local threads or the Dask ``client``, with a progress
    bar; each finished chunk recorded in ``store``'s manifest as it lands. Returns ``(summary
    of every round, kept frames by chunk, games or matches played now, rounds played now,
    wall seconds)``."""
    from ..analysis.summary import SummaryAccumulator

    seed, games, chunk_size = params["seed"], params["games"], params["chunk_size"]
    rotate, check = bool(params["rotate_bots"]), bool(params["check"])
    tables = tuple(params["tables"])
    match_mode = rules.plays_matches
    acc = SummaryAccumulator(rules.players)
    nchunks = -(-games // chunk_size)
    todo = list(range(nchunks))
    if store is not None:
        for e in store.done.values():
            acc.merge(SummaryAccumulator.from_dict(e["summary"]))
        todo = store.todo()
    played = sum(min(chunk_size, games - k * chunk_size) for k in todo)
    rules_text, bots_text = params["rules"], ",".join(saved_bots(params["bots"]))

    def task_args(k):
        return (
            rules_text,
            bots_text,
            seed,
            check,
            rotate,
            k,
            k * chunk_size,
            min(chunk_size, games - k * chunk_size),
        )

    kept = {}
    bar = None
    if progress:
        from tqdm.auto import tqdm

        bar = tqdm(
            total=games,
            initial=games - played,
            unit="match" if match_mode else "round",
            unit_scale=True,
            dynamic_ncols=True,
            mininterval=0.5,
            desc=str(rules),
        )
    stop_after = int(os.environ.get("UNOSPIN_TEST_STOP_AFTER", "0") or 0)  # tests only
    recorded = 0
    rounds_played = 0  # in this session (match mode: more than the matches)
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
                rounds_played += entry["summary"]["games"]
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

    return acc, kept, played, rounds_played, wall


def _finish(
    rules, params, store, threads, keep, client, acc, kept, played, rounds_played, wall
) -> Results:
    """The run's :class:`Results` and ``meta.json`` (written last, with ``store``)."""
    import numba

    from .. import __version__

    seed, games, chunk_size = params["seed"], params["games"], params["chunk_size"]
    rotate, check = bool(params["rotate_bots"]), bool(params["check"])
    tables = tuple(params["tables"])
    match_mode = rules.plays_matches
    order = sorted(kept)
    empty = empty_frames(rules)
    rounds, spins, matches = (
        pd.concat([kept[k][i] for k in order], ignore_index=True)
        if order and kept[order[0]][i] is not None
        else empty[i]
        for i in range(3)
    )
    if keep == "summary" and not order:
        rounds = empty[0][list(SUMMARY_COLUMNS)]
    meta = {
        "schema_version": SCHEMA_VERSION,
        "rules": str(rules),
        "edition": rules.edition,
        "players": rules.players,
        "seed": seed,
        "games": acc.games if match_mode else games,  # rounds
        "bots": list(params["bots"]),
        "rotate_bots": rotate,
        "threads": threads if client is None else None,
        "dask_scheduler": None if client is None else str(client.scheduler.address),
        "chunk_size": chunk_size,
        "tables": list(tables),
        "version": __version__,
        "numba_version": numba.__version__,
        "wall_seconds": round(wall, 4),
        "games_played": rounds_played,  # in this session (fewer after a resume)
        "games_per_second": round(rounds_played / wall, 1) if wall > 0 else None,
        "resumed": played != games,
        "created": _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds"),
        "round_columns": round_columns(rules, check),
        "wheel_spaces": list(rules.wheel_spaces()),
        "summary": acc.to_dict(),
    }
    if match_mode:
        meta.update(
            {
                "match": rules.option("match"),
                "target": rules.option("target"),
                "matches": games,
                "matches_played": played,
                "matches_per_second": round(played / wall, 1) if wall > 0 else None,
            }
        )
    if store is not None:
        meta["results_dir"] = os.fspath(store.finish(meta))
    return Results(rounds, spins, meta, matches=matches, summary=acc)
