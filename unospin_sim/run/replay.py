"""Single games and paired replays: :func:`trace` plays one game with the event log on
(``play``, the golden playthroughs), :func:`replay_spins` replays sampled wheel spins once
per space and once with the blank ``none`` space (the absolute wheel effects).
"""

from __future__ import annotations

import time

import numpy as np

from ..engine import layout as L
from ..engine.encode import encode
from ..errors import UserError
from ..results import REPLAY_COLUMNS, replay_frame
from .inputs import MAX_SEED, as_bots, as_rules, check_int
from .pool import parallel_map
from .schedule import simulate
from .spec import Execution, RunSpec, kernel_inputs

__all__ = ["REPLAY_COLUMNS", "replay_spins", "trace"]


def trace(
    rules,
    bots="random",
    seed: int = 0,
    game: int = 0,
    log_rows: int = L.LOG_ROWS_TRACE,
    rotate_bots: bool = False,
    explain: bool = False,
):
    """Play game ``game`` of a run seeded ``seed`` with the event log on (``rotate_bots``
    as in :func:`simulate`; ``explain``: search seats also log their candidates' values).

    Returns
    -------
    (events, state, rules, bots)
        ``events`` is an int64[n, 4] array of (code, a, b, c) rows (``layout.EV_*``);
        ``state`` the final :class:`~unospin_sim.engine.layout.State`.
    """
    from ..engine import kernel

    rules = as_rules(rules)
    specs = as_bots(bots, rules.players)
    seed = check_int("seed", seed, 0, MAX_SEED)
    game = check_int("game", game, 0)
    ki = encode(rules, specs)
    log, st = kernel.trace_game(*ki.args(), seed, game, log_rows, bool(rotate_bots), bool(explain))
    return log, st, rules, specs


def replay_spins(
    rules,
    bots="random",
    games: int = 1000,
    seed: int = 0,
    *,
    spins_per_round: int | None = None,
    pairs=None,
    spaces=None,
    execution: Execution | None = None,
):
    """Paired replays of wheel spins: each sampled spin replayed once per wheel space and
    once with the ``none`` control (the spin happens but does nothing), the round before
    the spin identical (same random stream up to the spin).

    Parameters
    ----------
    rules, bots, seed
        As in :func:`simulate`; ``rules`` may be a whole
        :class:`~unospin_sim.run.spec.RunSpec` (with ``rotate_bots``, say).
    games : int
        Rounds ``0 .. games-1`` of the run are played once to find their spins.
    spins_per_round : int, optional
        Replay at most this many spins of each round, chosen at random (seeded by ``seed``);
        default every spin.
    pairs : array_like, optional
        ``int64[n, 2]`` (game, spin index from 0) to replay instead of sampling.
    spaces : sequence of str, optional
        Spaces to force (default the edition's wheel); ``"none"`` is always added.
    execution : Execution, optional
        Its ``threads`` (default every core); nothing is written.

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
    spec = rules if isinstance(rules, RunSpec) else RunSpec.build(rules, bots, games, seed)
    threads = (execution or Execution()).resolved().workers
    names = _space_names(spec.rules, spaces)  # checked before any round is played
    t0 = time.perf_counter()
    if pairs is None:
        pairs = _spins_to_replay(spec, spins_per_round, threads)
    df = _replay(spec, np.asarray(pairs, np.int64).reshape(-1, 2), names, threads)
    df.attrs["seconds"] = time.perf_counter() - t0
    return df


def _spins_to_replay(spec: RunSpec, spins_per_round, threads: int) -> np.ndarray:
    """(game, spin index) of every spin of the run's rounds, or of at most
    ``spins_per_round`` of each, chosen at random (seeded by the run's seed)."""
    res = simulate(spec, execution=Execution(threads=threads))
    g = res.spins["game"].to_numpy(np.int64)
    idx = np.zeros(len(g), np.int64)
    if len(g):
        starts = np.r_[0, np.flatnonzero(np.diff(g)) + 1]
        counts = np.diff(np.r_[starts, len(g)])
        idx = np.arange(len(g)) - np.repeat(starts, counts)
    if spins_per_round is not None:
        spins_per_round = check_int("spins_per_round", spins_per_round, 1)
        rng = np.random.default_rng([spec.seed, 0x5EED])
        key = rng.random(len(g))
        order = np.lexsort((key, g))
        rank = np.empty(len(g), np.int64)
        rank[order] = idx  # rank of the random key within its game
        keep = rank < spins_per_round
        g, idx = g[keep], idx[keep]
    return np.column_stack([g, idx]).astype(np.int64)


def _space_names(rules, spaces) -> list[str]:
    """``none`` and the spaces to force (default the edition's wheel), checked."""
    wheel = rules.wheel_spaces()
    if not wheel:
        raise UserError(f"{rules.edition} has no wheel: nothing to replay")
    if rules.plays_matches:
        raise UserError(
            f"the paired replays are of single rounds: drop "
            f"match={rules.option('match')} (a space's effect on the round "
            f"does not depend on it)"
        )
    names = list(wheel) if spaces is None else [s for s in spaces if s != "none"]
    for s in names:
        if s not in wheel:
            raise UserError(
                f"space {s!r} is not on the {rules.edition} wheel (spaces: {', '.join(wheel)})"
            )
    return ["none", *names]


def _replay(spec: RunSpec, pairs: np.ndarray, names: list[str], threads: int):
    """Replay every spin of ``pairs`` once per space of ``names``; the replay table."""
    from ..engine import kernel

    rules, seed, rotate = spec.rules, spec.seed, spec.rotate_bots
    ids = np.array([L.NONE_SPACE] + [spec.rules.space_id(s) for s in names[1:]], np.int64)
    args = kernel_inputs(spec).args()
    n = len(pairs)
    out = np.empty((n, len(ids), L.N_REPLAY_FIELDS), np.int64)
    gcol = np.ascontiguousarray(pairs[:, 0])
    kcol = np.ascontiguousarray(pairs[:, 1])
    kernel.replay_spins(*args, seed, gcol[:0], kcol[:0], ids, rotate, out[:0])
    t1 = time.perf_counter()
    step = max(1, min(4096, n // (threads * 8) + 1))

    def replay(a):
        sl = slice(a, a + step)
        kernel.replay_spins(*args, seed, gcol[sl], kcol[sl], ids, rotate, out[sl])

    parallel_map(replay, range(0, n, step), threads)
    t2 = time.perf_counter()
    df = replay_frame(pairs, names, out)
    if n and not (out[:, :, L.Q_FOUND] == 1).all():
        bad = pairs[~(out[:, :, L.Q_FOUND] == 1).all(axis=1)][0]
        raise UserError(f"game {bad[0]} has no spin {bad[1]} (spins count from 0)")
    df.attrs.update(
        {
            "rules": str(rules),
            "bots": [str(b) for b in spec.bots],
            "seed": seed,
            "players": rules.players,
            "rotate_bots": rotate,
            "spins": n,
            "replays": n * len(ids),
            "replay_seconds": t2 - t1,
            "threads": threads,
        }
    )
    return df
