"""Drama measured on a run's own games: each round replayed with the event log on.

Default runs keep no per-turn history (their speed and row layout stay as they are). This
opt-in path plays rounds again through the kernel's ``trace_game`` entry point, the one
``play`` uses: round ``g`` of a single-round run is game ``g`` of its seed, and round ``j``
of match ``m`` of a match run is the match's round as ``play --match`` replays it, so these
are the run's games, card for card. The hand sizes at the start of every turn are rebuilt
from the log (deals, draws, plays, wheel discards, the hand moves) and checked against the
kernel's final hands; :mod:`unospin_sim.analysis.drama` turns them into drama figures.

Cost: about 1 ms a round of random bots on one core (20,000 rounds in 16-24 s).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from ..analysis.drama import drama_summary, match_standings
from ..engine import layout as L
from ..errors import UserError
from ..rules.cards import N_KINDS
from .inputs import check_int
from .spec import RunSpec, kernel_inputs

__all__ = ["hand_sizes", "results_drama", "round_histories", "rounds_drama"]

#: log rows of a first try (a round of 4 random bots logs about 300 events); a round that
#: fills them is traced again with ``layout.LOG_ROWS_TRACE``
_LOG_ROWS = 4096
_MOVES = (L.EV_TRADE, L.EV_SWAP, L.EV_ZERO_PASS, L.EV_SHUFFLE, L.EV_GIVE)
#: event code -> the change of its seat's (field ``a``) hand size
_STEP = np.zeros(64, np.int64)
_STEP[[L.EV_DEAL, L.EV_DRAW, L.EV_REDEAL]] = 1
_STEP[[L.EV_PLAY, L.EV_WHEEL_DISCARD]] = -1
#: event code -> moves whole hands, or a card between two hands (EV_GIVE)
_IS_MOVE = np.zeros(64, bool)
_IS_MOVE[list(_MOVES)] = True


def _move(sizes: np.ndarray, code: int, a: int, b: int, c: int) -> None:
    """Apply a move (``_MOVES``) to ``sizes`` in place."""
    if code == L.EV_GIVE:
        sizes[a] -= 1
        sizes[c] += 1
    elif code == L.EV_TRADE:
        sizes[:] = np.roll(sizes, 1 if a == 0 else -1)
    elif code == L.EV_ZERO_PASS:
        sizes[:] = np.roll(sizes, 1 if a > 0 else -1)
    elif code == L.EV_SWAP:
        sizes[[a, b]] = sizes[[b, a]]
    else:  # EV_SHUFFLE: every hand emptied, then dealt again (EV_REDEAL)
        sizes[:] = 0


def hand_sizes(log: np.ndarray, players: int) -> np.ndarray:
    """Every seat's hand size at the start of each turn of a traced round, then at its end.

    Parameters
    ----------
    log : numpy.ndarray
        ``int64[n, 4]`` event log of one round (:func:`unospin_sim.run.trace`).
    players : int

    Returns
    -------
    numpy.ndarray
        ``int64[turns + 1, players]``: row ``t`` before turn ``t`` (turns count from 0), the
        last row after the round.
    """
    log = np.asarray(log, np.int64).reshape(-1, 4)
    code, a = log[:, 0], log[:, 1]
    step = _STEP[code]
    delta = np.zeros((len(log), players), np.int64)
    rows = np.flatnonzero(step)
    delta[rows, a[rows]] = step[rows]
    turn = code == L.EV_TURN
    moves = np.flatnonzero(_IS_MOVE[code])
    sizes = np.zeros(players, np.int64)
    out, start = [], 0
    for stop in [*moves.tolist(), len(log)]:
        running = sizes + np.cumsum(delta[start:stop], axis=0)
        out.append(running[turn[start:stop]])
        if stop > start:
            sizes = running[-1].copy()
        if stop < len(log):
            _move(sizes, int(code[stop]), int(a[stop]), int(log[stop, 2]), int(log[stop, 3]))
        start = stop + 1
    out.append(sizes[None, :])
    return np.concatenate(out)


def _games(spec: RunSpec, rounds: int, match_rounds) -> list[tuple[int, int, bool]]:
    """(stream seed, game, rotate) of the rounds to trace, in the run's order."""
    if not spec.rules.plays_matches:
        return [(spec.seed, g, spec.rotate_bots) for g in range(rounds)]
    from ..engine.rng import game_seed

    if match_rounds is None:
        raise UserError("a match run's rounds are traced from its round table")
    out = []
    for m, j in match_rounds[:rounds]:
        mseed = int(np.uint64(game_seed(np.uint64(spec.seed), np.uint64(m))).view(np.int64))
        out.append((mseed, int(j), True))
    return out


def round_histories(spec: RunSpec, rounds: int, match_rounds=None):
    """Trace rounds of a run: (hand sizes, winner, turns) of each.

    Parameters
    ----------
    spec : RunSpec
        The run (its rules, bots, seed, seat rotation).
    rounds : int
        How many: rounds ``0 .. rounds-1`` of a single-round run; of a match run the first
        ``rounds`` pairs of ``match_rounds``.
    match_rounds : array_like, optional
        ``int[n, 2]`` (match, round) of a match run's rounds, in order.

    Returns
    -------
    list of (numpy.ndarray, int, int)
        :func:`hand_sizes`, the winning seat (-1 unfinished) and the turns of each round.
    """
    from ..engine import kernel

    rounds = check_int("rounds", rounds, 1)
    args, p = kernel_inputs(spec).args(), spec.rules.players
    out = []
    for seed, g, rotate in _games(spec, rounds, match_rounds):
        log, st = kernel.trace_game(*args, seed, g, _LOG_ROWS, rotate)
        if len(log) >= _LOG_ROWS:
            log, st = kernel.trace_game(*args, seed, g, L.LOG_ROWS_TRACE, rotate)
            if len(log) >= L.LOG_ROWS_TRACE:
                raise UserError(
                    f"round {g} logs over {L.LOG_ROWS_TRACE:,} events: lower the turn cap"
                )
        sizes = hand_sizes(log, p)
        if not np.array_equal(sizes[-1], st.hand[:p, :N_KINDS].sum(axis=1)):
            raise AssertionError(f"round {g}: the event log and the final hands disagree")
        won = log[log[:, 0] == L.EV_WIN, 1]
        out.append((sizes, int(won[0]) if len(won) else -1, len(sizes) - 1))
    return out


def rounds_drama(histories) -> dict:
    """:func:`~unospin_sim.analysis.drama.drama_summary` of traced rounds (cards in hand,
    fewer is better; unfinished rounds left out and counted in ``unfinished``)."""
    done = [(h, w) for h, w, _ in histories if w >= 0]
    out = drama_summary(done, lower_is_better=True)
    out["unfinished"] = len(histories) - len(done)
    return out


def results_drama(results_dir, rounds: int = 20_000) -> dict:
    """Drama of a results directory: its first ``rounds`` rounds traced and, for a match
    run, every finished match's drama on points read from its tables.

    Returns
    -------
    dict
        ``rules``, ``bots``, ``seed``; ``rounds``: :func:`rounds_drama` of the traced rounds;
        ``matches``: the match drama (None for a single-round run). The traced rounds'
        winners and turns are checked against the round table.
    """
    import json

    from ..results import Results

    rounds = check_int("rounds", rounds, 1)
    path = Path(results_dir)
    if not (path / "run.json").is_file():
        raise UserError(f"{path} is not a results directory written by 'run' (no run.json)")
    try:
        params = json.loads((path / "run.json").read_text())
    except (OSError, ValueError) as e:
        raise UserError(f"{path}/run.json cannot be read: {e}") from None
    if "rounds" not in params.get("tables", ["rounds"]):
        raise UserError(f"{path} has no round table: drama needs a run that kept its rounds")
    spec = RunSpec.from_params(params)
    res = Results.load(path)
    table = res.rounds.sort_values(["match", "round"] if "match" in res.rounds else "game")
    n = min(rounds, len(table))
    pairs = table[["match", "round"]].to_numpy(np.int64) if "match" in table else None
    hist = round_histories(spec, n, pairs)
    got = np.array([(w, t) for _, w, t in hist], np.int64).reshape(-1, 2)
    if pairs is not None:  # a match's round j seats player (s + j) mod N at seat s
        won = got[:, 0] >= 0
        got[won, 0] = (got[won, 0] + pairs[:n, 1][won]) % spec.rules.players
    if not np.array_equal(got, table[["winner", "turns"]].to_numpy(np.int64)[:n]):
        raise UserError(f"{path}: a traced round differs from its row (not this engine?)")
    out = {"rules": str(spec.rules), "bots": [str(b) for b in spec.bots], "seed": spec.seed}
    out["rounds"] = rounds_drama(hist)
    out["matches"] = None
    if res.matches is not None:
        lower = spec.rules.option("match") == "lowest"
        out["matches"] = drama_summary(
            match_standings(res.rounds, res.matches), lower_is_better=lower
        )
    return out
