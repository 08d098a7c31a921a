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
from .results import (MAX_MATCH_ROUNDS, ChunkColumns, PartBuffer, Results, empty_frames,
                      has_jump_ins, is_match_mode, match_arrows, match_frames, round_columns,
                      replay_frame, rounds_frame, spins_arrow, spins_frame)

MAX_SEED = 2**63 - 1
SCHEMA_VERSION = 1
#: round columns kept in memory with ``keep="summary"``
SUMMARY_COLUMNS = ("game", "first_player", "winner", "turns")
#: the tables a run can write
TABLES = ("rounds", "spins")
#: games per kernel call within a chunk (rounds, not match mode): the kernel's int64 output
#: rows and spin records are this many games' worth, whatever the chunk size (a spin2025
#: chunk of 31,000 rounds made ~45 MB of spin records per thread); results do not depend on it
KERNEL_BATCH = 4096
#: matches per kernel call within a chunk in match mode (about 4,000 rounds in 4-player
#: classic): the same bound for whole matches; results do not depend on it
MATCH_BATCH = 512


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


#: what a search seat saved without ``horizon`` played: the knob and the defaults of 128
#: rollouts cut off at 16 turns came on 2026-12-01; before, 64 rollouts played to the end
SEARCH_KNOBS_BEFORE_HORIZON = (("rollouts", "64"), ("horizon", "0"))
#: what a search seat saved without ``colours`` played: the knobs ``colours`` (searched wild
#: colours) and ``infer`` (what a draw proves) came on 2026-12-02; before, search named
#: heuristic's colour and inferred only the colours a seat lacks
SEARCH_KNOBS_BEFORE_COLOURS = (("colours", "0"), ("infer", "0"))
#: the knobs a saved search seat always names (:func:`saved_bot_string`)
SEARCH_SAVED_KNOBS = ("rollouts", "horizon", "colours", "infer")


def saved_bot_string(spec) -> str:
    """The string a run saves for one seat's bot (``run.json``, ``meta.json``): the canonical
    form, except that a ``search`` seat always names its ``rollouts``, ``horizon``,
    ``colours`` and ``infer`` (:data:`SEARCH_SAVED_KNOBS`), so that a later change of their
    defaults cannot change what a saved run played."""
    from .bots import DEFAULTS, KNOBS, _fmt
    if spec.strategy != "search":
        return str(spec)
    knobs = [f"{k}={_fmt(getattr(spec, k))}" for k in KNOBS
             if getattr(spec, k) != DEFAULTS[k] or k in SEARCH_SAVED_KNOBS]
    return f"search({','.join(knobs)})"


def saved_bots(bots) -> list[str]:
    """The bot strings of a saved run (``run.json`` / ``meta.json``) as that run played them:
    a ``search`` seat saved without ``horizon`` predates that knob (2026-12-01) and gets the
    defaults of then (:data:`SEARCH_KNOBS_BEFORE_HORIZON`) for the knobs it does not name;
    one saved without ``colours`` predates that knob and ``infer`` (2026-12-02) and gets
    ``colours=0`` and ``infer=0`` (:data:`SEARCH_KNOBS_BEFORE_COLOURS`). A string that is not a well-formed bot is left for
    the parser to refuse."""
    from .bots import knob_names
    if not isinstance(bots, (list, tuple)):
        return bots  # not a saved list: parsed (or refused) as it is
    out = []
    for b in bots:
        if not isinstance(b, str):
            return bots  # refused when parsed, with the parser's message
        parsed = knob_names(b)
        if parsed is None or parsed[0] != "search":
            out.append(b)
            continue
        names, written = parsed[1], parsed[2]
        if any("(" in x or ")" in x for x in written):
            out.append(b)  # malformed: left for the parser to refuse
            continue
        before = ()
        if "horizon" not in names:
            before += SEARCH_KNOBS_BEFORE_HORIZON
        if "colours" not in names:
            before += SEARCH_KNOBS_BEFORE_COLOURS
        extra = [f"{k}={v}" for k, v in before if k not in names]
        if extra:
            b = f"search({','.join([x for x in written if x] + extra)})"
        out.append(b)
    return out


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
    """Play chunk ``chunk`` (games ``game0 .. game0+n-1``; in match mode whole matches
    ``game0 .. game0+n-1``): the unit of work of local threads and Dask workers alike.

    Writes the chunk's parts into ``store`` (a :class:`~unospin_sim.results.rundir.RunStore`, when
    given) from the calling thread or worker, and returns ``(entry, frames)``: ``entry``
    is the chunk's manifest line (games, in match mode also rounds, part files, summary
    counts of its rounds), ``frames`` the ``(rounds, spins, matches)`` DataFrames when
    ``keep`` is True (``matches`` None unless match mode), the summary columns of the
    rounds (and the match table) when ``keep == "summary"``, else None.
    """
    from .analysis.summary import SummaryAccumulator
    rules, ki = _encoded(rules_text, bots_text, check)
    jumps = has_jump_ins(rules)  # house rule jump_in: the summary counts jump-ins
    entry = {"chunk": chunk, "game0": game0, "games": n, "parts": {}}
    if is_match_mode(rules):
        from .engine import kernel
        # batches of MATCH_BATCH matches (a match depends only on (seed, match)), each
        # appended to the parts as a row group: memory does not grow with the chunk
        names = ["matches"] + [t for t in ("rounds", "spins") if t in tables
                               and (t == "rounds" or rules.wheel_spaces())]
        parts = {t: PartBuffer() for t in names} if store is not None else None
        acc = SummaryAccumulator(rules.players)
        kept_frames = []
        entry["rounds"] = 0
        for a in range(0, n, MATCH_BATCH):
            b = min(MATCH_BATCH, n - a)
            rows, seeds, mrows, rec = kernel.play_match_chunk(*ki.args(), seed, game0 + a, b,
                                                              MAX_MATCH_ROUNDS)
            # round j seats player i at seat (i - j) mod N: the deal rotates as in rotate_bots
            rnd = rows[:, L.n_out_columns(rules.players) + 1]
            acc.merge(SummaryAccumulator.of_rounds(rules.players, rnd, rows[:, L.O_WINNER],
                                                   rows[:, L.O_TURNS],
                                                   rows[:, L.O_JUMP_INS] if jumps else None))
            entry["rounds"] += len(rows)
            if parts is not None:
                r_tab, s_tab, m_tab = match_arrows(rules, rows, seeds, mrows, rec, check)
                for t, tab in zip(("rounds", "spins", "matches"), (r_tab, s_tab, m_tab)):
                    if t in parts:
                        parts[t].add(tab)
            if keep is not False:
                f = match_frames(rules, rows, seeds, mrows, rec, check)
                if keep == "summary":
                    f = (f[0][list(SUMMARY_COLUMNS)], None, f[2])
                kept_frames.append(f)
            del rows, seeds, mrows, rec
        if parts is not None:
            entry["parts"] = store.write_chunk(chunk, parts)
        frames = None
        if keep is not False:
            frames = tuple(None if kept_frames[0][i] is None else
                           pd.concat([f[i] for f in kept_frames], ignore_index=True)
                           for i in range(3))
    else:
        write = tables if store is not None else ()
        want_rounds = "rounds" in write or keep is not False
        # spin parts are encoded batch by batch (a row group each): no thread holds a
        # whole chunk's spin columns unless the run keeps its tables in memory
        spin_part = (PartBuffer() if "spins" in write and rules.wheel_spaces() else None)
        cols = ChunkColumns(rules, n, check, rounds=want_rounds, spins=keep is True)
        acc = SummaryAccumulator(rules.players)
        for a in range(0, n, KERNEL_BATCH):
            b = min(KERNEL_BATCH, n - a)
            out_arr, seeds, rec = _play(rules, ki, seed, rotate, game0 + a, b)
            if not want_rounds:
                acc.merge(SummaryAccumulator.of_rounds(
                    rules.players, np.arange(game0 + a, game0 + a + b),
                    out_arr[:, L.O_WINNER], out_arr[:, L.O_TURNS],
                    out_arr[:, L.O_JUMP_INS] if jumps else None))
            cols.add(game0 + a, out_arr, seeds, rec)
            if spin_part is not None:
                spin_part.add(spins_arrow(rules, rec))
            del out_arr, seeds, rec
        if want_rounds:  # the same counts, from the gathered columns in one go
            acc = SummaryAccumulator.of_rounds(rules.players, cols.rounds["game"],
                                               cols.rounds["winner"], cols.rounds["turns"],
                                               cols.rounds["jump_ins"] if jumps else None)
        if store is not None:
            parts = {}
            if "rounds" in tables:
                parts["rounds"] = cols.rounds_arrow()
            if spin_part is not None:
                parts["spins"] = spin_part
            entry["parts"] = store.write_chunk(chunk, parts)
            del parts
        frames = None
        if keep is True:
            frames = (cols.rounds_frame(), cols.spins_frame(), None)
        elif keep == "summary":
            frames = (cols.rounds_frame()[list(SUMMARY_COLUMNS)], None, None)
    entry["summary"] = acc.to_dict()
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
    rules = _as_rules(rules)
    bot_specs = _as_bots(bots, rules.players)
    games = _check_int("games", games, 1)
    seed = _check_int("seed", seed, 0, MAX_SEED)
    threads = default_threads() if threads is None else _check_int("threads", threads, 1, 1024)
    if chunk_size is None:
        # search plays ~1000x slower rounds: small chunks so that every thread gets work
        least = 8 if any(b.strategy == "search" for b in bot_specs) else 1024
        chunk_size = int(min(65536, max(least, games // (threads * 16) + 1)))
    chunk_size = _check_int("chunk_size", chunk_size, 1)
    tables = _check_tables(tables)
    if keep not in (True, False, "summary"):
        raise UserError(f"keep must be True, False or 'summary', got {keep!r}")
    if keep is not True and out is None:
        raise UserError(f"keep={keep!r} needs an output directory (out)")

    ki = encode(rules, bot_specs, check)  # before any output: it can reject the bots
    if is_match_mode(rules) and rotate_bots:
        raise UserError(f"rotate_bots cannot be combined with match={rules.option('match')}: "
                        f"a match passes the deal itself")
    params = {"rules": str(rules), "bots": [saved_bot_string(b) for b in bot_specs], "seed": seed,
              "games": games, "chunk_size": chunk_size, "rotate_bots": bool(rotate_bots),
              "check": bool(check), "tables": list(tables)}
    store = None
    if out is not None:
        from .results.rundir import RunStore
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
    from .results.rundir import RunStore
    threads = default_threads() if threads is None else _check_int("threads", threads, 1, 1024)
    store = RunStore.resume(out)
    p = store.params
    try:
        rules = parse_rules(p["rules"])
        if not (isinstance(p["bots"], list) and all(isinstance(b, str) for b in p["bots"])):
            raise UserError(f"bots must be a list of bot strings, got {p['bots']!r:.60}")
        bot_specs = _as_bots(saved_bots(p["bots"]), rules.players)
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
    match_mode = is_match_mode(rules)
    # compile or load the cached kernel once, in this thread; say so if it takes a while
    note = threading.Timer(2.0, lambda: print(
        "compiling the game kernel for this rule set's round loop (first run only; measured "
        "2026-12-02 on 2 cores: 2-3 minutes for the default rules; cached afterwards; "
        "`python -m unospin_sim compile` does it ahead)...",
        file=sys.stderr, flush=True)) if progress else None
    if note is not None:
        note.start()
    try:
        if match_mode:
            kernel.play_match_chunk(*ki.args(), seed, 0, 0, MAX_MATCH_ROUNDS)
        else:
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
    rules_text, bots_text = params["rules"], ",".join(saved_bots(params["bots"]))

    def task_args(k):
        return (rules_text, bots_text, seed, check, rotate, k, k * chunk_size,
                min(chunk_size, games - k * chunk_size))

    kept = {}
    bar = None
    if progress:
        from tqdm.auto import tqdm
        bar = tqdm(total=games, initial=games - played,
                   unit="match" if match_mode else "round", unit_scale=True,
                   dynamic_ncols=True, mininterval=0.5, desc=str(rules))
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

    order = sorted(kept)
    empty = empty_frames(rules)
    rounds, spins, matches = (
        pd.concat([kept[k][i] for k in order], ignore_index=True)
        if order and kept[order[0]][i] is not None else empty[i] for i in range(3))
    if keep == "summary" and not order:
        rounds = empty[0][list(SUMMARY_COLUMNS)]
    import numba
    meta = {
        "schema_version": SCHEMA_VERSION,
        "rules": str(rules),
        "edition": rules.edition,
        "players": rules.players,
        "seed": seed,
        "games": acc.games if match_mode else games,   # rounds
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
        "created": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
        "round_columns": round_columns(rules, check),
        "wheel_spaces": list(rules.wheel_spaces()),
        "summary": acc.to_dict(),
    }
    if match_mode:
        meta.update({"match": rules.option("match"), "target": rules.option("target"),
                     "matches": games, "matches_played": played,
                     "matches_per_second": round(played / wall, 1) if wall > 0 else None})
    if store is not None:
        meta["results_dir"] = os.fspath(store.finish(meta))
    return Results(rounds, spins, meta, matches=matches, summary=acc)


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


#: columns of the table returned by :func:`replay_spins` (one row per spin and forced space)
REPLAY_COLUMNS = ("pair", "game", "spin", "space", "winner", "winner_points", "turns",
                  "spin_turn", "spinner", "direction", "other", "hand_before", "hand_after")


def replay_spins(rules, bots="random", games: int = 1000, seed: int = 0, *,
                 spins_per_round: int | None = None, threads: int | None = None,
                 rotate_bots: bool = False, pairs=None, spaces=None):
    """Paired replays of wheel spins: each sampled spin replayed once per wheel space and
    once with the ``none`` control (the spin happens but does nothing), the round before
    the spin identical (same random stream up to the spin).

    Parameters
    ----------
    rules, bots, seed, rotate_bots
        As in :func:`simulate`.
    games : int
        Rounds ``0 .. games-1`` of the run are played once to find their spins.
    spins_per_round : int, optional
        Replay at most this many spins of each round, chosen at random (seeded by ``seed``);
        default every spin.
    threads : int, optional
        Worker threads (default every core).
    pairs : array_like, optional
        ``int64[n, 2]`` (game, spin index from 0) to replay instead of sampling.
    spaces : sequence of str, optional
        Spaces to force (default the edition's wheel); ``"none"`` is always added.

    Returns
    -------
    pandas.DataFrame
        :data:`REPLAY_COLUMNS`: ``pair`` numbers the replayed spin, ``space`` (categorical,
        ``none`` first) the forced space, then the replayed round's ``winner`` (-1
        unfinished), ``winner_points``, ``turns`` and the forced spin's record: the turn it
        happened in, ``spinner``, ``direction`` of play, ``other`` (the space's other party,
        -1 if none) and the spinner's hand size before and after. Its ``attrs`` hold the
        rule string, bots, seed, players and seconds.
    """
    from .engine import kernel
    from .rules.spaces import SPACE_ID

    rules = _as_rules(rules)
    wheel = rules.wheel_spaces()
    if not wheel:
        raise UserError(f"{rules.edition} has no wheel: nothing to replay")
    bot_specs = _as_bots(bots, rules.players)
    seed = _check_int("seed", seed, 0, MAX_SEED)
    threads = default_threads() if threads is None else _check_int("threads", threads, 1, 1024)
    names = list(wheel) if spaces is None else [s for s in spaces if s != "none"]
    for s in names:
        if s not in wheel:
            raise UserError(f"space {s!r} is not on the {rules.edition} wheel "
                            f"(spaces: {', '.join(wheel)})")
    names = ["none"] + names
    ids = np.array([L.NONE_SPACE] + [SPACE_ID[s] for s in names[1:]], np.int64)
    ki = encode(rules, bot_specs)
    t0 = time.perf_counter()
    if pairs is None:
        games = _check_int("games", games, 1)
        res = simulate(rules, bot_specs, games=games, seed=seed, threads=threads,
                       rotate_bots=rotate_bots)
        g = res.spins["game"].to_numpy(np.int64)
        idx = np.zeros(len(g), np.int64)
        if len(g):
            starts = np.r_[0, np.flatnonzero(np.diff(g)) + 1]
            counts = np.diff(np.r_[starts, len(g)])
            idx = np.arange(len(g)) - np.repeat(starts, counts)
        if spins_per_round is not None:
            spins_per_round = _check_int("spins_per_round", spins_per_round, 1)
            rng = np.random.default_rng([seed, 0x5EED])
            key = rng.random(len(g))
            order = np.lexsort((key, g))
            rank = np.empty(len(g), np.int64)
            rank[order] = idx  # rank of the random key within its game
            keep = rank < spins_per_round
            g, idx = g[keep], idx[keep]
        pairs = np.column_stack([g, idx]).astype(np.int64)
    else:
        pairs = np.asarray(pairs, np.int64).reshape(-1, 2)
    n = len(pairs)
    out = np.empty((n, len(ids), L.N_REPLAY_FIELDS), np.int64)
    gcol = np.ascontiguousarray(pairs[:, 0])
    kcol = np.ascontiguousarray(pairs[:, 1])
    args = ki.args()
    kernel.replay_spins(*args, seed, gcol[:0], kcol[:0], ids, bool(rotate_bots), out[:0])
    t1 = time.perf_counter()
    step = max(1, min(4096, n // (threads * 8) + 1))
    with ThreadPoolExecutor(max_workers=threads) as pool:
        futs = [pool.submit(kernel.replay_spins, *args, seed, gcol[a:a + step],
                            kcol[a:a + step], ids, bool(rotate_bots), out[a:a + step])
                for a in range(0, n, step)]
        for f in futs:
            f.result()
    t2 = time.perf_counter()
    df = replay_frame(pairs, names, out)
    if n and not (out[:, :, L.Q_FOUND] == 1).all():
        bad = pairs[~(out[:, :, L.Q_FOUND] == 1).all(axis=1)][0]
        raise UserError(f"game {bad[0]} has no spin {bad[1]} (spins count from 0)")
    df.attrs.update({"rules": str(rules), "bots": [str(b) for b in bot_specs], "seed": seed,
                     "players": rules.players, "rotate_bots": bool(rotate_bots),
                     "spins": n, "replays": n * len(ids), "replay_seconds": t2 - t1,
                     "seconds": t2 - t0, "threads": threads})
    return df
