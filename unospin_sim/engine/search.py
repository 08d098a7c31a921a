"""Strategy ``search``: determinized Monte Carlo rollouts inside the jitted core.

A round with a ``search`` seat runs ``play_round_search``: the deal, then the resumable
loop ``round.run_round_search``, which stops (returns 1) before a search seat's normal turn
that has no decision yet. ``decide`` then scores every candidate first move of that turn:
each distinct legal card kind (a Wild Draw Four only when legal: search never bluffs by
choice) and drawing (not under force_play while a card is legal). For each candidate and
each of the seat's ``rollouts`` (the knob), it copies the state into the scratch state
``sc``, determinizes it (the other hands and the draw pile, which the seat cannot see, are
pooled and dealt again with the same hand sizes), forces the candidate as the seat's move
and plays the round to its end with the same loop, every seat playing its own strategy
(search seats play heuristic in rollouts: ``S_SEARCH_ROLL`` stops them from searching).
Heuristic's card is the incumbent; a candidate replaces the incumbent when its mean result
is higher by more than ``SEARCH_Z`` standard errors; the choice is stored in ``S_SEARCH_*``; the loop resumes and
``policy.search_bot.choose_card`` plays it. Result of a rollout: 1 for a round won by the
seat (or its partner), else 0; in a race match the points the seat wins in the round; under
``match=lowest`` minus the points left in its hand.

Randomness: rollout i of a decision is seeded from (the game's random stream at the
decision, the turn count, i), the same for every candidate (common random numbers: the
candidates are compared on the same deals). The game's own stream is never drawn from, so
a run is reproducible from its seed and independent of the thread count. No recursion: the
rollouts call the same compiled loop, which never stops inside a rollout.
"""

import numpy as np

from ..bots import STRATEGY_SEARCH
from ..rules.cards import N_KINDS
from .jit import hot
from .layout import (B_ROLLOUTS, B_STRATEGY, CC, DISC, HSIZE, MATCH_LOWEST, MATCH_RACE, PILE,
                     N_SCALARS, R_FORCE_PLAY, R_MATCH, S_DISC_N, S_DRAW_N, S_FORCE_AT,
                     S_CUR, S_LOG_ON, S_NP, S_NSPIN, S_RNG, S_SEARCH_HS, S_SEARCH_MOVE,
                     S_SEARCH_ROLL, S_SEARCH_TURN, S_TURNS, S_WINNER, SEAT_COLUMNS, WAR)
from .legal import partner_of, playable, wd4_legal
from .policy import heuristic as H
from .piles import add_card, hand_points, put_in_pile, take_from_pile, winner_points
from .rng import U64, game_seed
from .round import run_round_search, setup_round_default


#: a candidate replaces the incumbent (at first heuristic's card) only when its mean result
#: is higher by more than SEARCH_Z standard errors of the difference (rollout noise alone
#: would otherwise pick moves at random when they are close)
SEARCH_Z = 1.0


@hot
def has_search(bots):
    """1 when some seat plays ``search``."""
    for q in range(bots.shape[0]):
        if bots[q, B_STRATEGY] == STRATEGY_SEARCH:
            return 1
    return 0


@hot
def copy_state(st, sc):
    """Copy what a round needs of ``st`` into the scratch state ``sc`` (hands, draw and
    discard piles, scalars); no event log, no spin records."""
    np_ = st.s[S_NP]
    for q in range(np_):
        for j in range(SEAT_COLUMNS):
            sc.hand[q, j] = st.hand[q, j]
    for i in range(st.s[S_DRAW_N]):
        sc.cards[PILE + i] = st.cards[PILE + i]
    for i in range(st.s[S_DISC_N]):
        sc.cards[DISC + i] = st.cards[DISC + i]
    for j in range(N_SCALARS):
        sc.s[j] = st.s[j]
    sc.s[S_LOG_ON] = 0
    sc.s[S_NSPIN] = 0
    sc.s[S_FORCE_AT] = 0


@hot
def determinize(sc, p, seed):
    """Deal the cards seat p cannot see (every other hand and the draw pile) again at
    random, keeping every hand's size; the stream of ``sc`` is seeded ``seed`` first."""
    s = sc.s
    s[S_RNG] = np.int64(seed)
    np_ = s[S_NP]
    h = sc.hand
    for q in range(np_):
        if q == p:
            continue
        h[q, WAR] = h[q, HSIZE]  # scratch: the size to deal back
        for k in range(N_KINDS):
            for _ in range(h[q, k]):
                put_in_pile(sc, k)
            h[q, k] = 0
        for c in range(5):
            h[q, CC + c] = 0
        h[q, HSIZE] = 0
    for q in range(np_):
        if q == p:
            continue
        for _ in range(h[q, WAR]):
            add_card(sc, q, take_from_pile(sc))
        h[q, WAR] = 0


@hot
def rollout_value(sc, r, pts, p):
    """Result of a finished rollout for seat p (see the module docstring)."""
    w = sc.s[S_WINNER]
    if w < 0:
        return 0.0
    m = r[R_MATCH]
    if m == MATCH_RACE:
        return float(winner_points(sc, pts, w)) if w == p else 0.0
    if m == MATCH_LOWEST:
        return -float(hand_points(sc, pts, p))
    if w == p or w == partner_of(sc, p):
        return 1.0
    return 0.0


@hot
def store(st, k):
    s = st.s
    p_hs = st.hand[s[S_CUR], HSIZE]
    s[S_SEARCH_TURN] = s[S_TURNS] + 1
    s[S_SEARCH_MOVE] = k
    s[S_SEARCH_HS] = p_hs


@hot
def decide(st, sc, r, deck, pts, cum, bots):
    """Decide the first move of the coming turn of the search seat to act (S_CUR) and
    store it in S_SEARCH_* (the game's state changes nowhere else)."""
    s = st.s
    p = s[S_CUR]
    legal = wd4_legal(st, r, p)
    nc = 0
    only = -1
    for k in range(N_KINDS):
        if st.hand[p, k] > 0 and playable(st, k, legal):
            nc += 1
            only = k
    draw_ok = nc == 0 or r[R_FORCE_PLAY] == 0
    if nc + (1 if draw_ok else 0) <= 1:  # one move: nothing to search
        store(st, only if nc == 1 else -1)
        return
    n_roll = np.int64(bots[p, B_ROLLOUTS])
    base = game_seed(U64(s[S_RNG]), U64(s[S_TURNS]))
    turn = s[S_TURNS] + 1
    hs = st.hand[p, HSIZE]
    hk = H.choose_card(st, pts, p, legal)  # heuristic's move: the incumbent (reads only)
    best = hk
    best_m = 0.0
    best_v = 0.0
    for c in range(N_KINDS + 2):
        if c == 0:
            k = hk
        else:
            k = c - 1 if c <= N_KINDS else -1
            if k == hk:
                continue
            if k >= 0:
                if not (st.hand[p, k] > 0 and playable(st, k, legal)):
                    continue
            elif not draw_ok:
                continue
        tot = 0.0
        tot2 = 0.0
        for i in range(n_roll):
            copy_state(st, sc)
            determinize(sc, p, game_seed(base, U64(i)))
            sc.s[S_SEARCH_ROLL] = 1
            sc.s[S_SEARCH_TURN] = turn
            sc.s[S_SEARCH_MOVE] = k
            sc.s[S_SEARCH_HS] = hs
            run_round_search(sc, r, deck, pts, cum, bots)
            v = rollout_value(sc, r, pts, p)
            tot += v
            tot2 += v * v
        m = tot / n_roll
        var = max(tot2 / n_roll - m * m, 0.0)
        if c == 0:
            best_m = m
            best_v = var
        elif m - best_m > SEARCH_Z * np.sqrt((var + best_v) / n_roll) + 1e-9:
            best = k  # better than the incumbent by more than SEARCH_Z standard errors
            best_m = m
            best_v = var
    store(st, best)


@hot
def play_round_search(st, sc, r, deck, pts, cum, bots, gseed):
    """Play one round with a search seat from a fresh deal (every rule set but rlcard);
    ``sc`` is the rollouts' scratch state (``chunk.new_state`` with the same turn cap)."""
    setup_round_default(st, r, deck, bots, gseed)
    while run_round_search(st, r, deck, pts, cum, bots) == 1:
        decide(st, sc, r, deck, pts, cum, bots)
