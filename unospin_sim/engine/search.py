"""Strategy ``search``: determinized Monte Carlo rollouts inside the jitted core.

A round with a ``search`` seat runs ``play_round_search``: the deal, then the resumable
loop ``round.run_round_search``, which stops (returns 1) before a search seat's normal turn
that has no decision yet. ``decide`` then scores every candidate first move of that turn:
each distinct legal card kind (a Wild Draw Four only when legal: search never bluffs by
choice) and drawing (not under force_play while a card is legal); with knob ``colours`` (on
by default) a legal wild is also a candidate with each colour heuristic would not name (the
colour is then stored in ``S_SEARCH_COLOUR`` and ``policy.search_bot.choose_colour`` names
it; a wild candidate without a colour names heuristic's). For each candidate and
each of the seat's ``rollouts`` (the knob), it copies the state into the scratch state
``sc``, determinizes it (engine/determinize.py: the other hands and the draw pile, which
the seat cannot see, are pooled and dealt again with the same hand sizes, narrowed by what
the seat saw, knob ``infer``: the voids a draw for want of a legal card proves, older ones
for the cards held then, a heuristic seat's last choices replayed on the dealt hand; dealt
once per rollout index, for its first candidate, and restored for the others:
``determinize.save_deal``), forces the candidate as the seat's move and plays the round
with the same loop, every seat playing its own strategy (search seats play heuristic in
rollouts: ``S_SEARCH_ROLL`` stops them from searching), to the end of the round or until
the cut-off: knob ``horizon`` (default 16) turns after the decision, every seat's turns
counted (``S_SEARCH_ROLL`` holds the turn count to stop at; ``horizon=0``, a
race match and a ``lowest`` match play every rollout to the end).
Heuristic's card is the incumbent; a candidate replaces the incumbent when its mean result
over all the rollouts is higher by more than ``SEARCH_Z`` standard errors; the choice is
stored in ``S_SEARCH_*``; the loop resumes and ``policy.search_bot.choose_card`` plays it.

Cost: the rollouts run in batches of ``SEARCH_BATCH`` (rollout i of every live candidate,
on the same deal, before rollout i + 1); from ``SEARCH_MIN`` rollouts on, a challenger whose
mean result is below the incumbent's by more than ``SEARCH_DROP_Z`` standard errors of their
paired difference is dropped, and the search ends when only the incumbent is left. The final
test is the one above, on the candidates that ran every rollout. Knob ``extend`` (default
2): when that test is close (``close_challenger``: the best challenger's margin within
SEARCH_EXTEND_BAND standard errors of SEARCH_Z), the incumbent and that challenger (the
others dropped) run on, with the same early elimination, to ``extend`` times the knob
``rollouts``, and the final test is made on all their rollouts; ``extend=1`` never runs
on. A seat holding one
playable card (not in a race match) plays it without rollouts: it wins the round. The
unseen cards are pooled once per decision and each rollout's state is copied and dealt in
one pass (``copy_determinized``).

Knob ``peek=1`` (a clairvoyant search, not a fair player): the rollouts start from the true
hands (``copy_open``) instead of a determinization; the draws stay random (the draw pile is
unordered and every draw takes a random card of it). Everything else is the same, so the
difference between ``search`` and ``search(peek=1)`` is what seeing the hidden hands is
worth to this search.

Result of a rollout: 1 for a round won by the seat (or its partner), else 0; in a race
match the points a round won by the seat (or its partner) credits to it (the cards left in
the other hands; under partners the team's points, the opponents' cards: ``race_points``,
as engine/match.py credits them), 0 for a round won by an opponent; under ``match=lowest``
(never with partners) minus the points left in its hand. With a cut-off (``horizon`` > 0, not a race or ``lowest`` match) the results
are scaled by ``SEARCH_SCALE`` so they stay integers: a round won by the seat (or partner)
scores SEARCH_SCALE, one won by another 0, and a rollout cut off (or stopped by the turn
cap) its estimate of the seat's chance of winning from the hand sizes: the seat's (and
partner's) share of the sum over all seats of 1 / hand size, times SEARCH_SCALE, rounded.
The tests are scale-free, so ``horizon=0`` decides exactly as before the knob existed.

Randomness: rollout i of a decision is seeded from (the game's random stream at the
decision, the turn count, i), the same for every candidate (common random numbers: the
candidates are compared on the same deals). The game's own stream is never drawn from, so
a run is reproducible from its seed and independent of the thread count. No recursion: the
rollouts call the same compiled loop, which never stops inside a rollout.
"""

import numpy as np

from ..rules.card_codes import FIRST_WILD, N_KINDS
from .determinize import copy_determinized, copy_open, restore_deal, save_deal, unseen_pool
from .explain import explain_decision
from .jit import hot
from .layout import (
    B_COLOURS,
    B_EXTEND,
    B_HORIZON,
    B_INFER,
    B_PEEK,
    B_ROLLOUTS,
    HSIZE,
    MATCH_LOWEST,
    MATCH_RACE,
    R_FORCE_PLAY,
    R_MATCH,
    S_CUR,
    S_EXPLAIN,
    S_NP,
    S_RNG,
    S_SEARCH_COLOUR,
    S_SEARCH_HS,
    S_SEARCH_MOVE,
    S_SEARCH_ROLL,
    S_SEARCH_TURN,
    S_TURNS,
    S_WINNER,
    SEARCH_VALUE_CUTOFF,
    SEARCH_VALUE_LOWEST,
    SEARCH_VALUE_RACE,
    SEARCH_VALUE_WIN,
    SEARCH_WORK_ROWS,
    W_DIF,
)
from .legal import partner_of, playable, wd4_legal
from .piles import hand_points, winner_points
from .policy import heuristic as H
from .rng import U64, game_seed
from .round import run_round_search, setup_round_default

#: a candidate replaces the incumbent (at first heuristic's card) only when its mean result
#: is higher by more than SEARCH_Z standard errors of the difference (rollout noise alone
#: would otherwise pick moves at random when they are close)
SEARCH_Z = 1.0
#: rollouts run in batches of SEARCH_BATCH (rollout i of every live candidate, then i + 1...);
#: from SEARCH_MIN rollouts on, after each batch, a challenger whose mean result is below
#: heuristic's card's by more than SEARCH_DROP_Z standard errors of their paired difference
#: (the rollouts of a same index share the deal) is dropped; the search ends when only
#: heuristic's card is left
SEARCH_BATCH = 4
SEARCH_MIN = 8
SEARCH_DROP_Z = 1.5
#: knob extend: the final test after ``rollouts`` is close when the best challenger's margin
#: over the incumbent is within SEARCH_EXTEND_BAND standard errors of SEARCH_Z; then the two
#: run on to ``extend`` times ``rollouts`` (docs/BOTS.md: the band and the top two were
#: chosen by paired runs)
SEARCH_EXTEND_BAND = 1.0
#: results of a cut-off search (knob horizon > 0) are scaled by this to stay integers
SEARCH_SCALE = 1000
#: the cut-off turn of a rollout that plays to the end of the round
NO_CUTOFF = np.int64(1) << 60


@hot
def rollout_value(sc, r, pts, p, scale):
    """Result of a finished or cut-off rollout for seat p (see the module docstring);
    ``scale`` is 1 without a cut-off, SEARCH_SCALE with one."""
    w = sc.s[S_WINNER]
    if w < 0:
        if scale == 1:
            return 0.0
        return np.floor(scale * hand_size_share(sc, p) + 0.5)
    m = r[R_MATCH]
    ours = w == p or w == partner_of(sc, p)
    if m == MATCH_RACE:
        return float(race_points(sc, pts, w)) if ours else 0.0
    if m == MATCH_LOWEST:  # never under partners (the rules refuse partners with lowest)
        return -float(hand_points(sc, pts, p))
    return float(scale) if ours else 0.0


@hot
def race_points(st, pts, w):
    """The points a race match credits for a round won by seat w (engine/match.py,
    ``add_round``): the cards left in every other hand (``winner_points``); under partners
    the team's points, the cards left in the opponents' hands (the partner's not counted)."""
    pw = partner_of(st, w)
    if pw < 0:
        return winner_points(st, pts, w)
    t = 0
    for q in range(st.s[S_NP]):
        if q != w and q != pw:
            t += hand_points(st, pts, q)
    return t


@hot
def hand_size_share(st, p):
    """Seat p's (and its partner's) share of the sum over every seat of 1 / hand size: the
    score of a rollout cut off before the round ends (a seat with fewer cards is likelier to
    go out first)."""
    num = 0.0
    den = 0.0
    pp = partner_of(st, p)
    for q in range(st.s[S_NP]):
        x = 1.0 / max(st.hand[q, HSIZE], 1)
        den += x
        if q == p or q == pp:
            num += x
    return num / den


@hot
def store(st, k, colour):
    """Store the decision for the coming turn of seat S_CUR: first card ``k`` (-1: draw) and
    ``colour`` + 1 named for it when it is a wild (0: heuristic's colour)."""
    s = st.s
    p_hs = st.hand[s[S_CUR], HSIZE]
    s[S_SEARCH_TURN] = s[S_TURNS] + 1
    s[S_SEARCH_MOVE] = k
    s[S_SEARCH_HS] = p_hs
    s[S_SEARCH_COLOUR] = colour


@hot
def add_candidate(w, c, k, colour):
    """Write candidate c of ``decide``'s work area ``w``: first card ``k`` (-1: draw) and
    ``colour`` + 1 named for it when it is a wild (0: heuristic's colour); returns c + 1."""
    w[c, 0] = k
    w[W_DIF + c, 2] = colour
    return c + 1


@hot
def candidates(st, w, p, legal, hk, draw_ok, colours):
    """Write ``decide``'s candidates for seat p into its work area ``w`` and return their
    number: heuristic's move ``hk`` first (with heuristic's colour if a wild), then the other
    playable card kinds, then drawing (``draw_ok``), then (``colours``, knob colours) each
    legal wild with each colour heuristic would not name; each alive, with no results yet."""
    n_c = add_candidate(w, 0, hk, 0)
    for k in range(N_KINDS):
        if k != hk and st.hand[p, k] > 0 and playable(st, k, legal):
            n_c = add_candidate(w, n_c, k, 0)
    if draw_ok and hk != -1:
        n_c = add_candidate(w, n_c, -1, 0)
    if colours:
        hc = H.choose_colour(st, p)
        for k in range(FIRST_WILD, N_KINDS):
            if st.hand[p, k] > 0 and playable(st, k, legal):
                for col in range(4):
                    if col != hc:
                        n_c = add_candidate(w, n_c, k, col + 1)
    for c in range(n_c):
        w[c, 1] = 1  # alive
        w[c, 2] = 0
        w[c, 3] = 0
        w[W_DIF + c, 0] = 0
        w[W_DIF + c, 1] = 0
        w[W_DIF + c, 3] = 0  # rollouts run (play --explain)
    return n_c


@hot
def final_choice(w, n_c, n_roll, hk):
    """The final test of ``decide``, on the candidates that ran every one of the ``n_roll``
    rollouts (as without the early stop): a candidate replaces the incumbent (heuristic's
    move ``hk``, candidate 0) when its mean result is better by more than SEARCH_Z standard
    errors. Returns (first card, colour + 1 or 0)."""
    best = hk
    best_col = 0
    best_m = 0.0
    best_v = 0.0
    for c in range(n_c):
        if w[c, 1] == 0:
            continue
        m = w[c, 2] / n_roll
        var = max(w[c, 3] / n_roll - m * m, 0.0)
        if c == 0:
            best_m = m
            best_v = var
        elif m - best_m > SEARCH_Z * np.sqrt((var + best_v) / n_roll) + 1e-9:
            best = w[c, 0]  # better than the incumbent by more than SEARCH_Z standard errors
            best_col = w[W_DIF + c, 2]
            best_m = m
            best_v = var
    return best, best_col


@hot
def decide(st, sc, r, deck, pts, cum, bots):
    """Decide the first move of the coming turn of the search seat to act (S_CUR) and
    store it in S_SEARCH_* (the game's state changes nowhere else). Its work area is the
    event log of the scratch state ``sc`` (``layout.SEARCH_WORK_ROWS`` rows, never a log
    in rollouts): row c < W_DIF holds candidate c's (kind, alive, sum, sum of squares of
    its results), row W_DIF + c (sum, sum of squares of its paired difference with the
    incumbent, in column 2 candidate c's colour + 1, 0 = heuristic's, in column 3 the
    rollouts it ran), rows from
    W_POOL the unseen cards, four a row, rows from W_DEAL the current rollout's deal."""
    s = st.s
    p = s[S_CUR]
    legal = wd4_legal(st, r, p)
    colours = bots[p, B_COLOURS] != 0
    nc = 0
    n_wild = 0
    only = -1
    for k in range(N_KINDS):
        if st.hand[p, k] > 0 and playable(st, k, legal):
            nc += 1
            only = k
            if k >= FIRST_WILD:
                n_wild += 1
    draw_ok = nc == 0 or r[R_FORCE_PLAY] == 0
    n_moves = nc + (1 if draw_ok else 0) + (3 * n_wild if colours else 0)
    if n_moves <= 1:  # one move: nothing to search
        store(st, only if nc == 1 else -1, 0)
        return
    hs = st.hand[p, HSIZE]
    if hs == 1 and r[R_MATCH] != MATCH_RACE:
        store(st, only, 0)  # its last card, playable: the round is won now (the best result)
        return
    n_roll = np.int64(bots[p, B_ROLLOUTS])
    base = game_seed(U64(s[S_RNG]), U64(s[S_TURNS]))
    turn = s[S_TURNS] + 1
    hk = H.best_card(st, pts, p, legal)  # heuristic's move: the incumbent (reads only)
    w = sc.log
    if w.shape[0] < SEARCH_WORK_ROWS:  # no work area: heuristic's move
        store(st, hk, 0)
        return
    n_c = candidates(st, w, p, legal, hk, draw_ok, colours)
    peek = bots[p, B_PEEK] != 0
    infer = np.int64(bots[p, B_INFER])
    n_pool = 0 if peek else unseen_pool(st, p, w)
    n_alive = n_c
    # the cut-off (knob horizon): the turn count a rollout stops at, and the results' scale
    roll = NO_CUTOFF
    scale = 1
    horizon = np.int64(bots[p, B_HORIZON])
    if horizon > 0 and r[R_MATCH] != MATCH_RACE and r[R_MATCH] != MATCH_LOWEST:
        roll = s[S_TURNS] + horizon
        scale = SEARCH_SCALE
    done = 0
    limit = n_roll  # knob extend: runs on to extend * n_roll when the final test is close
    n_max = n_roll * np.int64(bots[p, B_EXTEND])
    while True:
        done, n_alive = run_batches(
            st,
            sc,
            r,
            deck,
            pts,
            cum,
            bots,
            w,
            p,
            n_c,
            n_alive,
            done,
            limit,
            base,
            peek,
            n_pool,
            infer,
            roll,
            turn,
            hs,
            scale,
        )
        if n_alive > 1 and limit < n_max:
            cb = close_challenger(w, n_c, limit)
            if cb > 0:
                for c in range(1, n_c):  # the extension: the incumbent and the best challenger
                    if c != cb:
                        w[c, 1] = 0
                n_alive = 2
                limit = n_max
                continue
        break
    best, best_col = final_choice(w, n_c, limit, hk)
    if s[S_EXPLAIN] != 0:
        if r[R_MATCH] == MATCH_RACE:
            mode = SEARCH_VALUE_RACE
        elif r[R_MATCH] == MATCH_LOWEST:
            mode = SEARCH_VALUE_LOWEST
        else:
            mode = SEARCH_VALUE_CUTOFF if scale != 1 else SEARCH_VALUE_WIN
        explain_decision(st, w, n_c, p, best, best_col, mode)
    store(st, best, best_col)


@hot
def close_challenger(w, n_c, n):
    """The challenger that would decide a close final test after ``n`` rollouts (knob
    ``extend``): the alive candidate c > 0 whose mean result is the most standard errors
    (unpaired, as in ``final_choice``) above the incumbent's, when that margin is within
    SEARCH_EXTEND_BAND of SEARCH_Z; -1 when the test is not close (or no challenger is
    alive)."""
    m0 = w[0, 2] / n
    v0 = max(w[0, 3] / n - m0 * m0, 0.0)
    best_t = -1e18
    cb = -1
    for c in range(1, n_c):
        if w[c, 1] == 0:
            continue
        m = w[c, 2] / n
        v = max(w[c, 3] / n - m * m, 0.0)
        se = np.sqrt((v + v0) / n) + 1e-12
        tt = (m - m0) / se
        if tt > best_t:
            best_t = tt
            cb = c
    return cb if abs(best_t - SEARCH_Z) < SEARCH_EXTEND_BAND else -1


@hot
def run_batches(
    st,
    sc,
    r,
    deck,
    pts,
    cum,
    bots,
    w,
    p,
    n_c,
    n_alive,
    done,
    n_roll,
    base,
    peek,
    n_pool,
    infer,
    roll,
    turn,
    hs,
    scale,
):
    """Rollouts ``done`` .. ``n_roll`` - 1 of ``decide`` for every alive candidate, in
    batches of SEARCH_BATCH, with the early elimination after each batch from SEARCH_MIN
    rollouts on (not after the last batch: the final test sees every alive candidate).
    Returns the rollouts done and the candidates still alive."""
    while done < n_roll and n_alive > 1:
        end = min(done + SEARCH_BATCH, n_roll)
        for i in range(done, end):
            seed = game_seed(base, U64(i))
            v0 = 0
            dealt = False  # rollout i's deal, made for its first candidate, kept for the rest
            for c in range(n_c):
                if w[c, 1] == 0:
                    continue
                if peek:
                    copy_open(st, sc, seed)
                elif dealt:
                    restore_deal(st, sc, w, p)
                else:
                    copy_determinized(st, sc, r, pts, p, seed, w, n_pool, infer)
                    save_deal(sc, w, p)
                    dealt = True
                sc.s[S_SEARCH_ROLL] = roll
                sc.s[S_SEARCH_TURN] = turn
                sc.s[S_SEARCH_MOVE] = w[c, 0]
                sc.s[S_SEARCH_COLOUR] = w[W_DIF + c, 2]
                sc.s[S_SEARCH_HS] = hs
                run_round_search(sc, r, deck, pts, cum, bots)
                v = np.int64(rollout_value(sc, r, pts, p, scale))  # an integer in every mode
                w[c, 2] += v
                w[c, 3] += v * v
                w[W_DIF + c, 3] += 1
                if c == 0:
                    v0 = v
                else:
                    d = v - v0
                    w[W_DIF + c, 0] += d
                    w[W_DIF + c, 1] += d * d
        done = end
        if done < n_roll and done >= SEARCH_MIN:
            # early elimination: drop a challenger whose mean result is below the
            # incumbent's by more than SEARCH_DROP_Z standard errors of their paired
            # (same-deal) difference
            for c in range(1, n_c):
                if w[c, 1] == 0:
                    continue
                md = w[W_DIF + c, 0] / done
                vd = max(w[W_DIF + c, 1] / done - md * md, 0.0)
                if md < -SEARCH_DROP_Z * np.sqrt(vd / done) - 1e-9:
                    w[c, 1] = 0
                    n_alive -= 1
    return done, n_alive


@hot
def play_round_search(st, sc, r, deck, pts, cum, bots, gseed):
    """Play one round with a search seat from a fresh deal (every rule set but rlcard);
    ``sc`` is the rollouts' scratch state (``chunk.new_state`` with the same turn cap and
    ``layout.SEARCH_WORK_ROWS`` log rows: decide's work area)."""
    setup_round_default(st, r, deck, bots, gseed)
    while run_round_search(st, r, deck, pts, cum, bots) == 1:
        decide(st, sc, r, deck, pts, cum, bots)
