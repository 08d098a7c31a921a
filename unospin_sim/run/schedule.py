"""Running a whole run: :func:`simulate` and :func:`resume` check their inputs once, then
play the chunks (:func:`~unospin_sim.run.work.run_chunk`) on local threads or a Dask
cluster with a progress bar, record each finished chunk in the run's directory, and write
``meta.json`` last.

>>> from unospin_sim import simulate
>>> res = simulate("classic(players=4)", "random", games=1000, seed=1)   # doctest: +SKIP
>>> res = simulate(spec, execution=Execution(threads=2, out="results/r"))  # doctest: +SKIP
>>> res.to_df().winner.value_counts()                                      # doctest: +SKIP
"""

from __future__ import annotations

import datetime as _dt
import functools
import os
import time
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, NamedTuple

import pandas as pd

from ..errors import UserError
from ..results import Results, empty_frames, round_columns
from ..results.schema import VARIANT_KEY
from .inputs import TABLES
from .pool import as_completed
from .spec import Execution, RunSpec
from .warmup import warm
from .work import SUMMARY_COLUMNS, run_chunk

if TYPE_CHECKING:  # pragma: no cover
    from ..analysis.summary import SummaryAccumulator

__all__ = ["CHUNK_HOOKS", "resume", "simulate"]


#: called with each chunk's manifest entry once the chunk is recorded (after its parts are
#: safely in the results directory), in the process that schedules the run: an observer's
#: hook (a test stops a run at a known chunk through it); empty by default
CHUNK_HOOKS: list[Callable[[dict], None]] = []


def simulate(
    rules,
    bots="random",
    games: int = 1000,
    seed: int = 0,
    *,
    rotate_bots: bool = False,
    check: bool = False,
    tables=TABLES,
    execution: Execution | None = None,
) -> Results:
    """Play ``games`` rounds of ``rules`` with ``bots`` and return their results.

    Parameters
    ----------
    rules : RuleSet, str or RunSpec
        Rule set, or its string form such as ``"spin2025(players=4)"``; or a whole
        :class:`~unospin_sim.run.spec.RunSpec` (then give none of ``bots`` .. ``tables``).
    bots : str or sequence of BotSpec
        One strategy for every seat (``"random"``), a comma list with one per seat
        (``"random,heuristic(forget=0.1),random,random"``), or parsed specs.
    games : int
        Number of rounds (>= 1); under a match mode (rule option ``match=race`` or
        ``lowest``) the number of whole MATCHES, each played in the engine (see below).
    seed : int
        Run seed (0 .. 2**63-1). Game ``g`` uses a stream derived from ``(seed, g)`` only,
        so results do not depend on the threads, the chunk size or a Dask cluster.
    rotate_bots : bool
        Pass the deal one seat clockwise from game to game, as in a match: in game ``g`` the
        bot of player ``i`` (the ``i``-th of ``bots``) sits at seat ``(i - g) mod N``, i.e.
        seat ``s`` holds player ``(s + g) mod N``. Consecutive games then form matches for any
        mix of bots (``analysis.assemble_matches``); seat columns stay seats.
    check : bool
        Verify the engine's invariants after every action (every card in exactly one
        place, hand counts consistent); adds the column ``invariant_failures``. Slower.
    tables : sequence of str or str
        Tables written to the results directory: ``("rounds", "spins")`` (default),
        ``("rounds",)``, or ``()`` (``"none"``: only ``meta.json`` with the summary counts).
    execution : Execution, optional
        How to run it (:class:`~unospin_sim.run.spec.Execution`): threads, chunk size, the
        results directory ``out`` (``rounds/``, ``spins/``, ``meta.json``, plus ``run.json``
        and ``manifest.jsonl``, which make an interrupted run resumable: :func:`resume`),
        ``overwrite``, a progress bar, which tables to ``keep`` in memory, a Dask ``client``
        (the workers write their parts into ``out``, storage they share with this process;
        results identical to a local run), ``on_start``. Default: every core, nothing
        written, every table kept.

    Match mode (``match=race|lowest``, ``target``): match m is a unit of work seeded from
    (seed, m), its round j from (that, j); the deal passes one seat clockwise each round for
    any mix of bots. The round table's seat columns are then PLAYERS (the i-th bot) and it
    gains ``match``, ``round`` and ``score_<i>`` (running scores after the round); ``game``
    of round j of match m is ``m * MAX_MATCH_ROUNDS + j`` (known where the chunk is played,
    so chunks of matches are written by the workers in any order and resume like rounds,
    and the spin table's ``game`` points at its round); ``Results.matches``
    (``DIR/matches/``) holds one row per match: ``match``, ``rounds``, ``turns``,
    ``score_<i>``, ``winner`` (-1: still running after MAX_MATCH_ROUNDS rounds).
    ``meta["games"]`` is then the number of rounds played, ``meta["matches"]`` the number
    of matches. The match table is kept unless ``keep=False``.

    Returns
    -------
    Results
        :class:`unospin_sim.results.Results`: ``.rounds``, ``.spins`` (as ``keep`` says),
        ``.meta``, ``.matches`` (match mode; else ``None``), ``.summary`` (the
        :class:`~unospin_sim.analysis.summary.SummaryAccumulator` of every round);
        ``.save(DIR)`` writes them as a results directory.
    """
    if isinstance(rules, RunSpec):
        spec = rules
    else:
        spec = RunSpec.build(
            rules, bots, games, seed, rotate_bots=rotate_bots, check=check, tables=tables
        )
    ex = (execution or Execution()).resolved(spec)
    store = None
    if ex.out is not None:
        from ..results.rundir import RunStore

        params = spec.params() | {"chunk_size": ex.chunk_size}
        if ex.label is not None:
            params["label"] = ex.label
        store = RunStore.create(ex.out, params, overwrite=ex.overwrite)
        if ex.on_start is not None:
            ex.on_start(store)
    return _execute(spec, ex, store)


def resume(out, execution: Execution | None = None) -> Results:
    """Finish an interrupted run in ``out``: play only the chunks its manifest does not
    list as finished (after checking every finished part), then write ``meta.json``.

    The run (rules, bots, seed, games, chunk size, ...) comes from ``out/run.json``; the
    final tables equal an uninterrupted run's row for row. ``execution`` as in
    :func:`simulate`, but its ``out``, ``chunk_size`` and ``overwrite`` are the run's own,
    and it keeps no table in memory unless told (``keep`` applies to the chunks played now).
    """
    from ..results.rundir import RunStore

    ex = replace(execution or Execution(keep=False), out=out)
    ex.resolved()  # its threads and keep, checked before the directory is touched
    store = RunStore.resume(out)
    try:
        spec = RunSpec.from_params(store.params)
    except UserError as e:
        raise UserError(f"{store.path}/run.json: {e}") from None
    label = store.params.get("label", ex.label)  # the run's own label, as it started
    ex = replace(ex, out=store.path, chunk_size=store.params["chunk_size"], label=label).resolved(
        spec
    )
    if ex.on_start is not None:
        ex.on_start(store)
    return _execute(spec, ex, store)


class _Played(NamedTuple):
    """What the chunks played in this session add up to."""

    summary: SummaryAccumulator  # of every round, earlier sessions' included
    kept: dict  # chunk -> kept frames
    games: int  # games (matches) played now
    rounds: int  # rounds played now (more than games in match mode)
    wall: float  # seconds


def _execute(spec: RunSpec, ex: Execution, store) -> Results:
    """Play the chunks of a run not played yet (all, or what a resumed run lacks) and return
    its results; with ``store``, its ``meta.json`` written last."""
    warm(spec, ex.progress)
    return _finish(spec, ex, store, _play_chunks(spec, ex, store))


def _chunk_task(spec: RunSpec, store, keep, chunk: tuple[int, int, int]):
    """One chunk ``(k, game0, n)`` of ``spec``: the task the parallel map runs."""
    return run_chunk(spec, *chunk, store=store, keep=keep)


def _play_chunks(spec: RunSpec, ex: Execution, store) -> _Played:
    """The chunks still to play, on local threads or the Dask client, with a progress bar;
    each finished chunk recorded in ``store``'s manifest as it lands."""
    from ..analysis.summary import SummaryAccumulator

    games, chunk_size = spec.games, ex.chunk
    acc = SummaryAccumulator(spec.rules.players)
    todo = list(range(-(-games // chunk_size)))
    if store is not None:
        for e in store.done.values():
            acc.merge(SummaryAccumulator.from_dict(e["summary"]))
        todo = store.todo()
    chunks = [(k, k * chunk_size, min(chunk_size, games - k * chunk_size)) for k in todo]
    played = sum(n for _, _, n in chunks)
    kept = {}
    bar = None
    if ex.progress:
        from tqdm.auto import tqdm

        bar = tqdm(
            total=games,
            initial=games - played,
            unit="match" if spec.rules.plays_matches else "round",
            unit_scale=True,
            dynamic_ncols=True,
            mininterval=0.5,
            desc=str(spec.rules),
        )
    rounds_played = 0  # in this session (match mode: more than the matches)
    t0 = time.perf_counter()
    task = functools.partial(_chunk_task, spec, store, ex.keep)
    try:
        for _, (entry, frames) in as_completed(task, chunks, ex.workers, ex.client):
            if store is not None:
                store.record(entry)  # its parts are in place: the chunk is safe
            acc.merge(SummaryAccumulator.from_dict(entry["summary"]))
            rounds_played += entry["summary"]["games"]
            if frames is not None:
                kept[entry["chunk"]] = frames
            if bar is not None:
                bar.update(entry["games"])
            for hook in CHUNK_HOOKS:
                hook(entry)
    finally:
        if bar is not None:
            bar.close()
    return _Played(acc, kept, played, rounds_played, time.perf_counter() - t0)


def _finish(spec: RunSpec, ex: Execution, store, played: _Played) -> Results:
    """The run's :class:`Results` and ``meta.json`` (written last, with ``store``)."""
    import numba

    from .. import __version__

    rules, games, wall = spec.rules, spec.games, played.wall
    match_mode = rules.plays_matches
    kept = played.kept
    order = sorted(kept)
    empty = empty_frames(rules)
    rounds, spins, matches = (
        pd.concat([kept[k][i] for k in order], ignore_index=True)
        if order and kept[order[0]][i] is not None
        else empty[i]
        for i in range(3)
    )
    if ex.keep == "summary" and not order:
        rounds = empty[0][list(SUMMARY_COLUMNS)]
    acc = played.summary
    params = spec.params()
    meta = {
        "rules": params["rules"],
        "edition": rules.edition,
        "players": rules.players,
        "seed": spec.seed,
        "games": acc.games if match_mode else games,  # rounds
        "bots": params["bots"],
        "rotate_bots": spec.rotate_bots,
        "threads": ex.threads if ex.client is None else None,
        "dask_scheduler": None if ex.client is None else str(ex.client.scheduler.address),
        "chunk_size": ex.chunk_size,
        "tables": list(spec.tables),
        "version": __version__,
        "numba_version": numba.__version__,
        "wall_seconds": round(wall, 4),
        "games_played": played.rounds,  # in this session (fewer after a resume)
        "games_per_second": round(played.rounds / wall, 1) if wall > 0 else None,
        "resumed": played.games != games,
        "created": _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds"),
        "round_columns": round_columns(rules, spec.check),
        "wheel_spaces": list(rules.wheel_spaces()),
        "summary": acc.to_dict(),
    }
    if ex.label is not None:
        meta["label"] = ex.label
    if VARIANT_KEY in params:  # the variant file the run played, as read
        meta[VARIANT_KEY] = params[VARIANT_KEY]
    if match_mode:
        meta.update(
            {
                "match": rules.option("match"),
                "target": rules.option("target"),
                "matches": games,
                "matches_played": played.games,
                "matches_per_second": round(played.games / wall, 1) if wall > 0 else None,
            }
        )
    if store is not None:
        meta["results_dir"] = os.fspath(store.finish(meta))
    return Results(rounds, spins, meta, matches=matches, summary=acc)
