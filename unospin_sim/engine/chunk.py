"""Chunks of rounds: the state allocated once per chunk, one output row per round, the
spin records gathered, rotated seating; and one traced round for ``play``.

These are the kernel's entry points (``kernel.py`` re-exports them); only arrays and numbers
cross them (``encode.py`` builds the arrays).

Each entry point is compiled once per round loop (:data:`LOOPS`: the default rules, house
rules, rlcard, a search seat), by :func:`_make_entry_points` with the loop frozen at compile
time and passed to :func:`play_round`, so a run compiles only the loop its rule set and bots
use (a default run never compiles the house rules, rlcard or search). :func:`loop_of` picks the loop, as the
kernel's round loop always did: rlcard first, then a search seat, then any house rule.
"""

import numpy as np
from numba import njit, types
from numba.extending import overload

from ..rules import space_codes as sp
from . import match
from .bot_codes import STRATEGY_SEARCH
from .jit import hot, variant
from .layout import (
    B_STRATEGY,
    CARDS_COLUMNS,
    DRAWN,
    HSIZE,
    JUMPS,
    MATCH_LOWEST,
    MAX_PLAYERS,
    N_OUT_FIXED,
    N_REPLAY_FIELDS,
    N_SCALARS,
    N_SEAT_BLOCKS,
    N_SPIN_FIELDS,
    O_CARDS_DRAWN,
    O_FAILED,
    O_FIRST,
    O_JUMP_INS,
    O_SPINS,
    O_TURNS,
    O_VIOLATIONS,
    O_WINNER,
    O_WINNER_POINTS,
    P_DIR,
    P_GAME,
    P_HAND_AFTER,
    P_HAND_BEFORE,
    P_OTHER,
    P_SPACE,
    P_SPINNER,
    P_TURN,
    Q_DIR,
    Q_FOUND,
    Q_HAND_AFTER,
    Q_HAND_BEFORE,
    Q_OTHER,
    Q_SPACE,
    Q_SPIN_TURN,
    Q_SPINNER,
    Q_TURNS,
    Q_WINNER,
    Q_WINNER_POINTS,
    R_HOUSE,
    R_MATCH,
    R_NP,
    R_PARTNERS,
    R_RLCARD,
    R_TARGET,
    R_TURN_CAP,
    S_EXPLAIN,
    S_FAILED,
    S_FIRST,
    S_FORCE_AT,
    S_FORCE_SPACE,
    S_LOG_N,
    S_NP,
    S_NSPIN,
    S_SPIN0,
    S_TURNS,
    S_VIOLATIONS,
    S_WINNER,
    SEARCH_WORK_ROWS,
    SEAT_COLUMNS,
    State,
)
from .piles import hand_points
from .rlcard import play_round_rl
from .rng import U64, game_seed
from .round import play_round_default, play_round_house
from .search import play_round_search

#: match scoring (``match.py``), compiled
add_round = hot(match.add_round)
match_winner = hot(match.match_winner)


@hot
def write_row(st, pts, out, i):
    s = st.s
    np_ = s[S_NP]
    w = s[S_WINNER]
    out[i, O_FIRST] = s[S_FIRST]
    out[i, O_WINNER] = w
    out[i, O_TURNS] = s[S_TURNS]
    tot = 0
    left = 0
    jumps = 0
    for q in range(np_):
        tot += st.hand[q, DRAWN]
        hp = hand_points(st, pts, q)
        left += hp
        out[i, N_OUT_FIXED + q] = st.hand[q, DRAWN]
        out[i, N_OUT_FIXED + np_ + q] = st.hand[q, HSIZE]
        out[i, N_OUT_FIXED + 2 * np_ + q] = hp
        out[i, N_OUT_FIXED + 3 * np_ + q] = st.hand[q, JUMPS]
        jumps += st.hand[q, JUMPS]
    out[i, O_WINNER_POINTS] = left if w >= 0 else 0  # the winner's own hand is empty
    out[i, O_CARDS_DRAWN] = tot
    out[i, O_JUMP_INS] = jumps
    out[i, O_FAILED] = s[S_FAILED]
    out[i, O_VIOLATIONS] = s[S_VIOLATIONS]
    nsp = 0
    for j in range(sp.N_SPACES):
        out[i, N_OUT_FIXED + N_SEAT_BLOCKS * np_ + j] = st.s[S_SPIN0 + j]
        nsp += st.s[S_SPIN0 + j]
    out[i, O_SPINS] = nsp


@njit(cache=True)
def new_state(turn_cap, log_rows):
    return State(
        np.zeros((MAX_PLAYERS, SEAT_COLUMNS), np.int64),
        np.zeros(CARDS_COLUMNS, np.int64),
        np.zeros(N_SCALARS, np.int64),
        np.zeros((max(log_rows, 1), 4), np.int64),
        np.zeros((turn_cap + 1, N_SPIN_FIELDS), np.int64),
    )


@njit(cache=True)
def search_scratch(r, search):
    """The scratch state of a search seat's rollouts (``search`` true), else a minimal
    unused state."""
    if search:
        return new_state(r[R_TURN_CAP], SEARCH_WORK_ROWS)  # log rows: decide's work area
    return new_state(0, 0)


@hot
def seat_bots(bots, g, seated):
    """Rotated seating of game g: seat s gets the bot of player (s + g) mod N, so that the
    deal passes one seat clockwise from game to game, as in a match."""
    n = bots.shape[0]
    for s in range(n):
        src = (s + g) % n
        for j in range(bots.shape[1]):
            seated[s, j] = bots[src, j]


#: the round loops an entry point is compiled for (:func:`loop_of`)
LOOPS = ("default", "house", "rlcard", "search")


def loop_of(r, bots) -> str:
    """The round loop of rule parameters ``r`` and bots ``bots`` (arrays of ``encode``):
    ``rlcard`` under the RLCard rules (where a search seat plays heuristic's cards), else
    ``search`` when a seat plays search, else ``house`` when a house rule is on, else
    ``default``."""
    if r[R_RLCARD]:
        return "rlcard"
    if (bots[:, B_STRATEGY] == STRATEGY_SEARCH).any():
        return "search"
    if r[R_HOUSE]:
        return "house"
    return "default"


def _round_default(loop, st, sc, r, deck, pts, cum, seated, gs):
    play_round_default(st, r, deck, pts, cum, seated, gs)


def _round_house(loop, st, sc, r, deck, pts, cum, seated, gs):
    play_round_house(st, r, deck, pts, cum, seated, gs)


def _round_rlcard(loop, st, sc, r, deck, pts, cum, seated, gs):
    play_round_rl(st, r, deck, pts, seated, gs)


def _round_search(loop, st, sc, r, deck, pts, cum, seated, gs):
    play_round_search(st, sc, r, deck, pts, cum, seated, gs)


#: round loop -> its round (the implementations of :func:`play_round`)
_ROUNDS = {
    "default": _round_default,
    "house": _round_house,
    "rlcard": _round_rlcard,
    "search": _round_search,
}


def play_round(loop, st, sc, r, deck, pts, cum, seated, gs):
    """Play one round of round loop ``loop`` (one of :data:`LOOPS`) seeded ``gs`` on state
    ``st`` (``sc``: the search scratch state, read by the search loop alone).

    Compiled, ``loop`` must be a constant (an entry point's ``loop``, frozen at compile
    time): the overload below compiles that loop's round alone, so an entry point compiles
    no other loop. It is compiled without NRT reference counting (as ``jit.hot``): inlined
    into the entry point, it would incref and decref every array it passes on, each round.
    No dispatcher is frozen into the entry point (numba's cache index pickles a closure's
    cells, and a dispatcher pickles differently in each process: the cache would miss in
    every process)."""
    _ROUNDS[loop](loop, st, sc, r, deck, pts, cum, seated, gs)


@overload(play_round, prefer_literal=True, jit_options={"_nrt": False})
def _play_round_overload(loop, st, sc, r, deck, pts, cum, seated, gs):
    if isinstance(loop, types.StringLiteral) and loop.literal_value in _ROUNDS:
        return _ROUNDS[loop.literal_value]
    return None  # not a constant loop: no implementation (a typing error)


@njit(cache=True, inline="always")
def append_spins(spins, m, spinrec, ns, game):
    """Append the ``ns`` spin records ``spinrec`` of the round just played (game column
    ``game``) to the ``m`` rows kept in ``spins``, in a larger array when they do not fit;
    returns (spins, rows kept). It takes the record array, not the state: an inlined call
    increfs and decrefs every array it is passed, each round."""
    if ns > 0:
        if m + ns > spins.shape[0]:
            bigger = np.empty((2 * (m + ns), N_SPIN_FIELDS), np.int64)
            bigger[:m] = spins[:m]
            spins = bigger
        for j in range(ns):
            for f in range(N_SPIN_FIELDS):
                spins[m + j, f] = spinrec[j, f]
            spins[m + j, P_GAME] = game
    return spins, m + ns


def _make_play_chunk(loop):
    """The compiled ``play_chunk`` of round loop ``loop``."""
    search = loop == "search"  # frozen at compile time

    @variant(njit(cache=True, nogil=True), loop)
    def play_chunk(r, deck, pts, cum, bots, seed, game0, out, seeds, rotate):
        """Play games game0 .. game0+len(out)-1; fill ``out`` and ``seeds``; return spin records
        (int64[m, N_SPIN_FIELDS], game column = global game index). ``rotate``: see
        ``seat_bots``."""
        st = new_state(r[R_TURN_CAP], 0)
        sc = search_scratch(r, search)
        seated = bots.copy()
        n = out.shape[0]
        cap_rows = 4 * n + 16
        spins = np.empty((cap_rows, N_SPIN_FIELDS), np.int64)
        m = 0
        useed = U64(seed)
        for i in range(n):
            g = game0 + i
            gs = game_seed(useed, U64(g))
            seeds[i] = gs
            if rotate:
                seat_bots(bots, g, seated)
            play_round(loop, st, sc, r, deck, pts, cum, seated, gs)
            write_row(st, pts, out, i)
            spins, m = append_spins(spins, m, st.spinrec, st.s[S_NSPIN], g)
        return spins[:m]

    return play_chunk


def _make_replay_spins(loop):
    """The compiled ``replay_spins`` of round loop ``loop``."""
    search = loop == "search"  # frozen at compile time

    @variant(njit(cache=True, nogil=True), loop)
    def replay_spins(r, deck, pts, cum, bots, seed, games, ks, spaces, rotate, out):
        """Paired replays: for each pair ``i`` (game ``games[i]`` of the run seeded ``seed``, its
        spin ``ks[i]``, counted from 0) and each ``spaces[j]`` (a global space id or
        layout.NONE_SPACE), replay the game from its seed with that spin forced to that space.
        Everything before the spin is the unforced game's (the forced spin still draws its
        uniform, so the random stream stays aligned). Fills ``out[i, j, :]`` (layout.Q_*)."""
        st = new_state(r[R_TURN_CAP], 0)
        sc = search_scratch(r, search)
        seated = bots.copy()
        s = st.s
        for i in range(games.shape[0]):
            g = games[i]
            k = ks[i]
            gs = game_seed(U64(seed), U64(g))
            if rotate:
                seat_bots(bots, g, seated)
            for j in range(spaces.shape[0]):
                s[S_FORCE_AT] = k + 1
                s[S_FORCE_SPACE] = spaces[j]
                play_round(loop, st, sc, r, deck, pts, cum, seated, gs)
                o = out[i, j]
                o[Q_WINNER] = s[S_WINNER]
                w = s[S_WINNER]
                left = 0
                if w >= 0:
                    for q in range(s[S_NP]):
                        left += hand_points(st, pts, q)
                o[Q_WINNER_POINTS] = left
                o[Q_TURNS] = s[S_TURNS]
                if s[S_NSPIN] > k:
                    o[Q_FOUND] = 1
                    o[Q_SPIN_TURN] = st.spinrec[k, P_TURN]
                    o[Q_SPINNER] = st.spinrec[k, P_SPINNER]
                    o[Q_SPACE] = st.spinrec[k, P_SPACE]
                    o[Q_DIR] = st.spinrec[k, P_DIR]
                    o[Q_OTHER] = st.spinrec[k, P_OTHER]
                    o[Q_HAND_BEFORE] = st.spinrec[k, P_HAND_BEFORE]
                    o[Q_HAND_AFTER] = st.spinrec[k, P_HAND_AFTER]
                else:
                    o[Q_FOUND] = 0
                    for f in range(Q_SPIN_TURN, N_REPLAY_FIELDS):
                        o[f] = -1
        s[S_FORCE_AT] = 0
        return 0

    return replay_spins


def _make_play_match_chunk(loop):
    """The compiled ``play_match_chunk`` of round loop ``loop``."""
    search = loop == "search"  # frozen at compile time

    @variant(njit(cache=True, nogil=True), loop)
    def play_match_chunk(r, deck, pts, cum, bots, seed, match0, nmatch, max_rounds):
        """Play whole matches match0 .. match0+nmatch-1 (rule options match / target).

        Match m draws its stream from (seed, m) and its round j from (that, j), so a match is a
        unit of work and results do not depend on the threads. Round j seats the bots rotated by
        j (``seat_bots``): the deal passes one seat clockwise each round and player i (the i-th
        bot) sits at seat (i - j) mod N. Scoring (``race``, ``lowest``, ``partners``) and the
        match's end are ``match.add_round`` and ``match.match_winner``. A match still running
        after ``max_rounds`` rounds ends with winner -1.

        Returns (rows, seeds, matches, spins): rows int64[R, n_out_columns + 2 + N] are the
        round rows (seat columns as played; then match, round, each player's running score),
        seeds uint64[R], matches int64[nmatch, 4 + N] (match, rounds, turns, winner, score_i),
        spins int64[m, N_SPIN_FIELDS] with the game column = row index in ``rows``.
        """
        np_ = r[R_NP]
        st = new_state(r[R_TURN_CAP], 0)
        sc = search_scratch(r, search)
        seated = bots.copy()
        base = N_OUT_FIXED + N_SEAT_BLOCKS * np_ + sp.N_SPACES  # layout.n_out_columns
        width = base + 2 + np_
        cap = 8 * nmatch + 16
        rows = np.zeros((cap, width), np.int64)
        seeds = np.zeros(cap, np.uint64)
        spins = np.empty((4 * cap + 16, N_SPIN_FIELDS), np.int64)
        matches = np.zeros((nmatch, 4 + np_), np.int64)
        score = np.zeros(np_, np.int64)
        lowest = r[R_MATCH] == MATCH_LOWEST
        target = r[R_TARGET]
        teams = np_ // 2 if r[R_PARTNERS] else 0
        useed = U64(seed)
        n = 0
        m = 0
        for i in range(nmatch):
            mt = match0 + i
            mseed = game_seed(useed, U64(mt))
            score[:] = 0
            turns = 0
            winner = -1
            j = 0
            while j < max_rounds:
                if n == rows.shape[0]:
                    bigger = np.zeros((2 * n, width), np.int64)
                    bigger[:n] = rows
                    rows = bigger
                    bs = np.zeros(2 * n, np.uint64)
                    bs[:n] = seeds
                    seeds = bs
                gs = game_seed(mseed, U64(j))
                seeds[n] = gs
                seat_bots(bots, j, seated)
                play_round(loop, st, sc, r, deck, pts, cum, seated, gs)
                write_row(st, pts, rows, n)
                turns += st.s[S_TURNS]
                add_round(
                    score,
                    lowest,
                    teams,
                    j,
                    st.s[S_WINNER],
                    rows[n, N_OUT_FIXED + 2 * np_ : N_OUT_FIXED + 3 * np_],
                    rows[n, O_WINNER_POINTS],
                )
                rows[n, base] = mt
                rows[n, base + 1] = j
                for q in range(np_):
                    rows[n, base + 2 + q] = score[q]
                spins, m = append_spins(spins, m, st.spinrec, st.s[S_NSPIN], n)
                n += 1
                j += 1
                winner = match_winner(score, lowest, target)
                if winner >= 0:
                    break
            matches[i, 0] = mt
            matches[i, 1] = j
            matches[i, 2] = turns
            matches[i, 3] = winner
            for q in range(np_):
                matches[i, 4 + q] = score[q]
        return rows[:n], seeds[:n], matches, spins[:m]

    return play_match_chunk


def _make_trace_game(loop):
    """The compiled ``trace_game`` of round loop ``loop``."""
    search = loop == "search"  # frozen at compile time

    @variant(njit(cache=True), loop)
    def trace_game(r, deck, pts, cum, bots, seed, game, log_rows, rotate, explain):
        """Play one game with the event log on; returns (log, state) for inspection.
        ``explain``: search seats also log their candidates' values (play --explain)."""
        st = new_state(r[R_TURN_CAP], log_rows)
        st.s[S_EXPLAIN] = 1 if explain else 0
        sc = search_scratch(r, search)
        gs = game_seed(U64(seed), U64(game))
        seated = bots.copy()
        if rotate:
            seat_bots(bots, game, seated)
        play_round(loop, st, sc, r, deck, pts, cum, seated, gs)
        return st.log[: st.s[S_LOG_N]].copy(), st

    return trace_game


def _make_entry_points(loop):
    """The entry points (play_chunk, replay_spins, play_match_chunk, trace_game) compiled
    for round loop ``loop`` (one of :data:`LOOPS`)."""
    return (
        _make_play_chunk(loop),
        _make_replay_spins(loop),
        _make_play_match_chunk(loop),
        _make_trace_game(loop),
    )


#: loop name -> (play_chunk, replay_spins, play_match_chunk, trace_game) for that loop
ENTRY_POINTS = {loop: _make_entry_points(loop) for loop in LOOPS}


def play_chunk(r, deck, pts, cum, bots, seed, game0, out, seeds, rotate):
    """Play games game0 .. game0+len(out)-1; fill ``out`` and ``seeds``; return spin records
    (int64[m, N_SPIN_FIELDS], game column = global game index). ``rotate``: see
    ``seat_bots``. (The compiled entry point of the rule set's round loop, ``loop_of``.)"""
    return ENTRY_POINTS[loop_of(r, bots)][0](
        r, deck, pts, cum, bots, seed, game0, out, seeds, rotate
    )


def replay_spins(r, deck, pts, cum, bots, seed, games, ks, spaces, rotate, out):
    """Paired spin replays (see the compiled ``replay_spins`` of :func:`_make_replay_spins`)."""
    return ENTRY_POINTS[loop_of(r, bots)][1](
        r, deck, pts, cum, bots, seed, games, ks, spaces, rotate, out
    )


def play_match_chunk(r, deck, pts, cum, bots, seed, match0, nmatch, max_rounds):
    """Whole matches (see the compiled ``play_match_chunk`` of :func:`_make_play_match_chunk`)."""
    return ENTRY_POINTS[loop_of(r, bots)][2](
        r, deck, pts, cum, bots, seed, match0, nmatch, max_rounds
    )


def trace_game(r, deck, pts, cum, bots, seed, game, log_rows, rotate, explain=False):
    """Play one game with the event log on; returns (log, state) for inspection.
    ``explain``: a search seat's decisions also write its candidates' values to the log
    (layout.EV_SEARCH, EV_CANDIDATE; ``play --explain``)."""
    return ENTRY_POINTS[loop_of(r, bots)][3](
        r, deck, pts, cum, bots, seed, game, log_rows, rotate, explain
    )
