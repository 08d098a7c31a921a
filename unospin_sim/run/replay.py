"""Single games and paired replays: :func:`trace` plays one game with the event log on
(``play``, the golden playthroughs), :func:`replay_spins` replays sampled wheel spins once
per space and once with the blank ``none`` space (the absolute wheel effects).
"""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from ..engine import layout as L
from ..engine.encode import encode
from ..errors import UserError
from ..results import REPLAY_COLUMNS, replay_frame
from .inputs import MAX_SEED, as_bots, as_rules, check_int, default_threads
from .schedule import simulate

__all__ = ["REPLAY_COLUMNS", "replay_spins", "trace"]


def trace(
    rules,
    bots="random",
    seed: int = 0,
    game: int = 0,
    log_rows: int = L.LOG_ROWS_TRACE,
    rotate_bots: bool = False,
):
    """Play game ``game`` of a run seeded ``seed`` with the event log on (``rotate_bots``
    as in :func:`simulate`).

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
    log, st = kernel.trace_game(*ki.args(), seed, game, log_rows, bool(rotate_bots))
    return log, st, rules, specs


def replay_spins(
    rules,
    bots="random",
    games: int = 1000,
    seed: int = 0,
    *,
    spins_per_round: int | None = None,
    threads: int | None = None,
    rotate_bots: bool = False,
    pairs=None,
    spaces=None,
):
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
    from ..engine import kernel
    from ..rules.spaces import SPACE_ID

    rules = as_rules(rules)
    wheel = rules.wheel_spaces()
    if not wheel:
        raise UserError(f"{rules.edition} has no wheel: nothing to replay")
    if rules.plays_matches:
        raise UserError(
            f"the paired replays are of single rounds: drop "
            f"match={rules.option('match')} (a space's effect on the round "
            f"does not depend on it)"
        )
    bot_specs = as_bots(bots, rules.players)
    seed = check_int("seed", seed, 0, MAX_SEED)
    threads = default_threads() if threads is None else check_int("threads", threads, 1, 1024)
    names = list(wheel) if spaces is None else [s for s in spaces if s != "none"]
    for s in names:
        if s not in wheel:
            raise UserError(
                f"space {s!r} is not on the {rules.edition} wheel (spaces: {', '.join(wheel)})"
            )
    names = ["none"] + names
    ids = np.array([L.NONE_SPACE] + [SPACE_ID[s] for s in names[1:]], np.int64)
    ki = encode(rules, bot_specs)
    t0 = time.perf_counter()
    if pairs is None:
        games = check_int("games", games, 1)
        res = simulate(
            rules, bot_specs, games=games, seed=seed, threads=threads, rotate_bots=rotate_bots
        )
        g = res.spins["game"].to_numpy(np.int64)
        idx = np.zeros(len(g), np.int64)
        if len(g):
            starts = np.r_[0, np.flatnonzero(np.diff(g)) + 1]
            counts = np.diff(np.r_[starts, len(g)])
            idx = np.arange(len(g)) - np.repeat(starts, counts)
        if spins_per_round is not None:
            spins_per_round = check_int("spins_per_round", spins_per_round, 1)
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
        futs = [
            pool.submit(
                kernel.replay_spins,
                *args,
                seed,
                gcol[a : a + step],
                kcol[a : a + step],
                ids,
                bool(rotate_bots),
                out[a : a + step],
            )
            for a in range(0, n, step)
        ]
        for f in futs:
            f.result()
    t2 = time.perf_counter()
    df = replay_frame(pairs, names, out)
    if n and not (out[:, :, L.Q_FOUND] == 1).all():
        bad = pairs[~(out[:, :, L.Q_FOUND] == 1).all(axis=1)][0]
        raise UserError(f"game {bad[0]} has no spin {bad[1]} (spins count from 0)")
    df.attrs.update(
        {
            "rules": str(rules),
            "bots": [str(b) for b in bot_specs],
            "seed": seed,
            "players": rules.players,
            "rotate_bots": bool(rotate_bots),
            "spins": n,
            "replays": n * len(ids),
            "replay_seconds": t2 - t1,
            "seconds": t2 - t0,
            "threads": threads,
        }
    )
    return df
