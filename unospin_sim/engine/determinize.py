"""What a search seat deals the hands it cannot see: determinization and its inference.

A ``search`` seat's rollouts (engine/search.py) start from the game's state with the cards
it cannot see (the other hands and the draw pile) pooled and dealt again, every hand keeping
its size (:func:`copy_determinized`). The pool is written in kind order
(:func:`unseen_pool`), so it is the multiset of the unseen cards, which is public, and not
where they lie: the same public state and stream give the same deals whatever the hidden
hands hold. What the seat has seen narrows the deal, by the search knob ``infer`` (each
level adds to the one before):

- 0: a seat that drew for want of a legal card and has taken no card since
  (``layout.VOID``, ``piles.known_void``) gets no card of the colour then in play;
- 1: nor of the top card's face, nor a wild (what its strategy's draw shows,
  ``policy/reveals.py``);
- 2: what an earlier draw proved stays true of the cards the seat held then: of the cards
  it holds now, at least (hand size - cards taken since) are such cards (the two latest
  voids no longer true of the whole hand: ``layout.VOID``, ``VOID1``, ``VOID2``), and that
  many are dealt under it;
- 3: the opponent model: a ``heuristic`` seat's hand is dealt again (up to
  :data:`SEARCH_MODEL_TRIES` times) until heuristic, holding the dealt hand and the card it
  chose last (``layout.LAST_PLAY``, while the hand has neither taken nor given up a card
  since), on the top card and colour of then, would have chosen
  that card and named the colour it named (:func:`replays_last_play`). Heuristic decides
  without randomness, so this keeps the deals in proportion to how likely they make the
  seat's observed choice (0 or 1). A declared prior: every seat's strategy is known to the
  table, and nothing reads a hidden card.

:func:`deal_quality` measures how close the dealt hands come to the true ones at a decision
(engine/inference.py plays rounds and sums it; ``benchmarks/inference.py`` prints it): a
measurement, which reads the true hands (as :func:`fits_true_hand` does), never a decision.
The decision path (``unseen_pool``, ``copy_determinized``, ``void_layers``, ``modelled``,
``replays_last_play`` on the dealt hands, ``save_deal`` and ``restore_deal``) reads of the
other seats only the pooled multiset, their hand sizes and what the table saw (the voids,
the cards taken, their last choices); ``copy_open`` (knob ``peek``) reads the true hands by
design.
"""

import numpy as np

from ..rules.card_codes import KIND_COLOUR, KIND_FACE, N_KINDS
from .bot_codes import STRATEGY_HEURISTIC
from .jit import hot, inl
from .layout import (
    CC,
    DISC,
    HAND_FIELDS,
    HSIZE,
    LAST_BOT,
    LAST_COLOUR,
    LAST_HS,
    LAST_NAMED,
    LAST_PLAY,
    LAST_SMALL,
    LAST_TAKEN,
    LAST_TOP,
    N_SCALARS,
    PILE,
    PREV_BOT,
    PREV_COLOUR,
    PREV_NAMED,
    PREV_PLAY,
    PREV_SMALL,
    PREV_TOP,
    S_COLOUR,
    S_DISC_N,
    S_DRAW_N,
    S_FORCE_AT,
    S_LOG_ON,
    S_NP,
    S_NSPIN,
    S_RNG,
    S_TOP,
    SEAT_COLUMNS,
    TAKEN,
    VOID,
    VOID1,
    VOID1_AT,
    VOID2,
    VOID2_AT,
    VOID_AT,
    VOID_COLOURS,
    VOID_FACE,
    W_DEAL,
    W_POOL,
    WAR,
)
from .legal import wd4_legal
from .piles import add_card, put_in_pile, remove_card, take_from_pile
from .policy import heuristic as H
from .policy.scan import best_kind
from .rng import U64, game_seed

#: determinization: draws to find a card outside a seat's known voids before keeping one
SEARCH_VOID_TRIES = 32
#: determinization (knob infer=3): deals of a heuristic seat's hand to find one on which
#: heuristic chooses the card it chose last, before keeping one
SEARCH_MODEL_TRIES = 16


@inl
def excludes(m, k):
    """Do the void bits ``m`` (layout.VOID) exclude card kind k (its colour's bit, or its
    face's)?"""
    return ((m >> KIND_COLOUR[k]) | (m >> (VOID_FACE + KIND_FACE[k]))) & 1 != 0


@hot
def unseen_pool(st, p, w):
    """Write into the work area ``w`` (rows from W_POOL, four cards a row) the cards seat p
    cannot see (the draw pile and every other hand) in kind order: every copy of kind 0,
    then of kind 1, and so on; returns their number. The pool is the multiset of those
    cards, which is public (every card but seat p's hand, the top card and the discard
    pile): where the hidden cards lie (which seat holds which, the pile's order) changes
    neither the pool nor any deal drawn from it with the same stream. The counts by kind
    are kept first in the rows from W_DEAL (a rollout's deal, written by ``save_deal``
    before it is read)."""
    wf = flat(w)
    c0 = 4 * W_DEAL
    for k in range(N_KINDS):
        wf[c0 + k] = 0
    for i in range(st.s[S_DRAW_N]):
        wf[c0 + st.cards[PILE + i]] += 1
    for q in range(st.s[S_NP]):
        if q != p:
            for k in range(N_KINDS):
                wf[c0 + k] += st.hand[q, k]
    n = 4 * W_POOL
    for k in range(N_KINDS):
        for _ in range(wf[c0 + k]):
            wf[n] = k
            n += 1
    return n - 4 * W_POOL


@inl
def copy_run(dst, d0, src, s0, n):
    """``dst[d0:d0 + n] = src[s0:s0 + n]`` for 1-d arrays, as a plain loop (a slice
    assignment needs numba's runtime, which the kernel is compiled without). The rollouts'
    copies use it on rows (``st.hand[q]``) and on the work area seen flat (``flat``)
    instead of indexing element by element in two dimensions: the same values, fewer index
    computations (docs/BOTS.md, "A faster search")."""
    for j in range(n):
        dst[d0 + j] = src[s0 + j]


@inl
def flat(w):
    """The work area ``w`` (int64[rows, 4], C order) as one row: value n of a run written
    "four a row" from row R is ``flat(w)[4 * R + n]``."""
    return w.reshape(w.size)


@hot
def copy_public(st, sc):
    """The part of a rollout's start that does not depend on what the seat can see: copy
    the scalars and the discard pile of ``st`` into the scratch state ``sc``, with no event
    log, no spin records and no pending forced play (``copy_determinized``, ``copy_open``)."""
    s = sc.s
    copy_run(s, 0, st.s, 0, N_SCALARS)
    s[S_LOG_ON] = 0
    s[S_NSPIN] = 0
    s[S_FORCE_AT] = 0
    copy_run(sc.cards, DISC, st.cards, DISC, st.s[S_DISC_N])


@hot
def copy_determinized(st, sc, r, pts, p, seed, w, n_pool, infer):
    """Copy what a round needs of ``st`` into the scratch state ``sc`` (seat p's row, the
    discards, the scalars; no event log, no spin records) and deal the cards p cannot see
    (the pool in ``w``, from ``unseen_pool``) again at random to the other seats, every hand keeping
    its size; the stream of ``sc`` is seeded ``seed`` first. Seats with known voids
    (layout.VOID: with ``infer`` every bit, colours, faces and wilds; without, the colours)
    are dealt first, a card the voids exclude being put back and another drawn (at most
    SEARCH_VOID_TRIES times a card, then it is kept); then the others."""
    copy_public(st, sc)
    s = sc.s
    h = sc.hand
    np_ = st.s[S_NP]
    for q in range(np_):
        if q == p:
            copy_run(h[q], 0, st.hand[q], 0, SEAT_COLUMNS)
        else:
            for j in range(HAND_FIELDS):
                h[q, j] = 0
            copy_run(h[q], HAND_FIELDS, st.hand[q], HAND_FIELDS, SEAT_COLUMNS - HAND_FIELDS)
            h[q, WAR] = 0
    copy_run(sc.cards, PILE, flat(w), 4 * W_POOL, n_pool)
    s[S_DRAW_N] = n_pool
    s[S_RNG] = np.int64(seed)
    for rnd in range(2):  # seats with voids (or a choice to replay) first
        for q in range(np_):
            if q == p:
                continue
            m0, m1, n1, m2, n2 = void_layers(st, q, infer)
            model = modelled(st, q, infer)
            if (m0 != 0 or n1 > 0 or n2 > 0 or model) != (rnd == 0):
                continue
            tries = 0
            while True:
                for j in range(st.hand[q, HSIZE]):  # the cards held longest (most known) first
                    m = m0
                    if j < n1:
                        m |= m1
                    if j < n2:
                        m |= m2
                    k = take_from_pile(sc)
                    t = 0
                    while excludes(m, k) and t < SEARCH_VOID_TRIES:
                        put_in_pile(sc, k)
                        k = take_from_pile(sc)
                        t += 1
                    add_card(sc, q, k)
                if not model or tries >= SEARCH_MODEL_TRIES or replays_last_play(st, sc, r, pts, q):
                    break
                tries += 1
                for k in range(N_KINDS):  # deal seat q again
                    while sc.hand[q, k] > 0:
                        remove_card(sc, q, k)
                        put_in_pile(sc, k)


@hot
def replays_last_play(st, sc, r, pts, q):
    """The opponent model of knob ``infer=3``: would heuristic, holding seat q's hand as
    dealt in ``sc`` and the card it chose last (layout.LAST_PLAY, recorded while its hand has
    not changed since), on the top card and colour in play of then, have chosen that card,
    and named the colour it named for it? And the same of the choice before
    (layout.PREV_PLAY), when kept, on the dealt hand and both cards. (Heuristic decides
    without randomness, so a deal is kept or not; the hands kept are the deals conditioned
    on those choices.)"""
    h = st.hand
    k = h[q, LAST_PLAY] - 1
    if not replays(
        sc,
        r,
        pts,
        q,
        -1,
        k,
        h[q, LAST_TOP],
        h[q, LAST_COLOUR],
        h[q, LAST_SMALL] != 0,
        h[q, LAST_NAMED],
    ):
        return False
    if h[q, PREV_PLAY] == 0 or h[q, PREV_BOT] != STRATEGY_HEURISTIC:
        return True
    return replays(
        sc,
        r,
        pts,
        q,
        k,
        h[q, PREV_PLAY] - 1,
        h[q, PREV_TOP],
        h[q, PREV_COLOUR],
        h[q, PREV_SMALL] != 0,
        h[q, PREV_NAMED],
    )


@hot
def replays(sc, r, pts, q, extra, k, top, colour, small, named):
    """Would heuristic, holding seat q's hand in ``sc``, card ``extra`` (-1: none) and card
    k, on top card ``top`` with ``colour`` in play (the next seat holding 2 cards or fewer:
    ``small``), choose k, and then name colour ``named`` - 1 (0: none named)?"""
    s = sc.s
    hd = sc.hand
    t0 = s[S_TOP]
    c0 = s[S_COLOUR]
    s[S_TOP] = top
    s[S_COLOUR] = colour
    if extra >= 0:
        _give(hd, q, extra, 1)
    _give(hd, q, k, 1)  # the hand then
    legal = wd4_legal(sc, r, q)
    c = best_kind(sc, pts, q, legal, H.coloured_score, H.wild_score, (small,), -1e18)[0]
    _give(hd, q, k, -1)
    ok = c == k and (named == 0 or H.choose_colour(sc, q) == named - 1)
    if extra >= 0:
        _give(hd, q, extra, -1)
    s[S_TOP] = t0
    s[S_COLOUR] = c0
    return ok


@hot
def _give(hd, q, k, n):
    """Add n (+1 or -1) of card k to seat q's counts (no record kept: a replay's hand)."""
    hd[q, k] += n
    hd[q, CC + KIND_COLOUR[k]] += n
    hd[q, HSIZE] += n


@hot
def void_layers(st, q, infer):
    """What seat q's draws proved of its hand, as search knob ``infer`` reads it: (the bits
    true of every card it holds, the bits of the older void before, how many of its cards
    they are true of, the same for the void before that). ``infer`` 0: the colours of the
    void true of the whole hand only; 1: that void; 2: and the two older voids
    (layout.VOID, VOID1, VOID2), each true of at least (hand size - cards taken since) of
    the cards held."""
    h = st.hand
    t = h[q, TAKEN]
    valid = h[q, VOID_AT] == t
    m0 = h[q, VOID] if valid else 0
    if infer < 0:  # no inference (deal_quality's yardstick: a uniform deal)
        return 0, 0, 0, 0, 0
    if infer == 0:
        return m0 & VOID_COLOURS, 0, 0, 0, 0
    if infer == 1:
        return m0, 0, 0, 0, 0
    if valid:  # the two older voids are VOID1 and VOID2
        m1, t1, m2, t2 = h[q, VOID1], h[q, VOID1_AT], h[q, VOID2], h[q, VOID2_AT]
    else:  # VOID itself is the older one, then VOID1
        m1, t1, m2, t2 = h[q, VOID], h[q, VOID_AT], h[q, VOID1], h[q, VOID1_AT]
    hs = h[q, HSIZE]
    n1 = max(hs - (t - t1), 0) if m1 != 0 else 0
    n2 = max(hs - (t - t2), 0) if m2 != 0 else 0
    return m0, m1, n1, m2, n2


@hot
def save_deal(sc, w, p):
    """Keep in the work area ``w`` (from row W_DEAL, four values a row) what
    ``copy_determinized`` dealt into ``sc`` for seat p: every other seat's HAND_FIELDS
    columns, the draw pile's size, the stream's state and the pile left, so that
    ``restore_deal`` starts the next candidate's rollout from the same deal without dealing
    again (the same state, value for value)."""
    wf = flat(w)
    n = 4 * W_DEAL
    for q in range(sc.s[S_NP]):
        if q != p:
            copy_run(wf, n, sc.hand[q], 0, HAND_FIELDS)
            n += HAND_FIELDS
    wf[n] = sc.s[S_DRAW_N]
    wf[n + 1] = sc.s[S_RNG]
    copy_run(wf, n + 2, sc.cards, PILE, sc.s[S_DRAW_N])


@hot
def restore_deal(st, sc, w, p):
    """Start a rollout from the deal ``save_deal`` kept: the state ``copy_determinized``
    made, without dealing (seat p's own row and everything public copied from ``st``)."""
    copy_public(st, sc)
    h = sc.hand
    s = sc.s
    wf = flat(w)
    n = 4 * W_DEAL
    for q in range(st.s[S_NP]):
        if q == p:
            copy_run(h[q], 0, st.hand[q], 0, SEAT_COLUMNS)
        else:
            copy_run(h[q], 0, wf, n, HAND_FIELDS)
            n += HAND_FIELDS
            copy_run(h[q], HAND_FIELDS, st.hand[q], HAND_FIELDS, SEAT_COLUMNS - HAND_FIELDS)
            h[q, WAR] = 0
    s[S_DRAW_N] = wf[n]
    s[S_RNG] = wf[n + 1]
    copy_run(sc.cards, PILE, wf, n + 2, s[S_DRAW_N])


@hot
def copy_open(st, sc, seed):
    """Copy what a round needs of ``st`` into the scratch state ``sc`` as it is (every
    hand, the draw and discard piles, the scalars; no event log, no spin records): the
    start of a ``peek`` seat's rollout. The stream of ``sc`` is seeded ``seed``."""
    copy_public(st, sc)
    for q in range(st.s[S_NP]):
        copy_run(sc.hand[q], 0, st.hand[q], 0, SEAT_COLUMNS)
    copy_run(sc.cards, PILE, st.cards, PILE, st.s[S_DRAW_N])
    sc.s[S_RNG] = np.int64(seed)


#: columns of deal_quality's sums
(Q_DECISIONS, Q_CARDS, Q_UNIFORM, Q_DEALT, Q_TRUTH, Q_MISFITS) = range(6)
N_QUALITY = 6


@hot
def modelled(st, q, infer):
    """Is seat q's last choice replayed on its dealt hands (knob ``infer`` 3; a record of
    its hand as it is, layout.LAST_PLAY, made by a heuristic seat)?"""
    h = st.hand
    return (
        infer >= 3
        and h[q, LAST_PLAY] > 0
        and h[q, LAST_BOT] == STRATEGY_HEURISTIC
        and h[q, LAST_TAKEN] == h[q, TAKEN]
        and h[q, LAST_HS] == h[q, HSIZE]
    )


@hot
def fits_true_hand(st, r, pts, q, infer):
    """Does seat q's true hand fit what knob ``infer`` infers of it (``void_layers``: every
    card outside the void true of the whole hand, at least n1 cards outside the older one
    too, n2 outside both; ``replays_last_play`` on the true hand)? Inference that reads no
    hidden card and proves only what is true always fits: ``deal_quality`` counts the
    misfits, which must be none."""
    m0, m1, n1, m2, n2 = void_layers(st, q, infer)
    fit0 = 0
    fit1 = 0
    fit2 = 0
    for k in range(N_KINDS):
        c = st.hand[q, k]
        if c == 0:
            continue
        if excludes(m0, k):
            continue
        fit0 += c
        m = m0 | m1
        if excludes(m, k):
            continue
        fit1 += c
        m |= m2
        if excludes(m, k):
            continue
        fit2 += c
    if fit0 < st.hand[q, HSIZE] or fit1 < n1 or fit2 < n2:
        return False
    return not modelled(st, q, infer) or replays_last_play(st, st, r, pts, q)


@hot
def deal_quality(st, sc, r, pts, p, infer, n_deals, seed, cnt, acc):
    """How close seat p's determinization (knob ``infer``) comes to the hidden hands: deal
    ``n_deals`` times (seeds from ``seed``, into the scratch state ``sc``, whose event log is
    the pool's work area) and add to ``acc`` (float64[N_QUALITY]): a decision (Q_DECISIONS),
    the hidden cards of the other hands (Q_CARDS), and the log2-likelihood of those cards
    card by card, each scored by the chance that one card of its seat's hand is of its
    kind: under a uniform deal of the unseen cards (Q_UNIFORM: the pool's share of the kind),
    under the dealt hands (Q_DEALT: the kind's share of the seat's dealt cards over the
    deals, with one uniform deal as a prior, so no share is 0), and under the truth
    (Q_TRUTH: the kind's share of the true hand, what a clairvoyant knows). (Q_DEALT -
    Q_UNIFORM) / Q_CARDS is what the inference knows, in bits per hidden card, (Q_TRUTH -
    Q_UNIFORM) / Q_CARDS what there is to know; Q_MISFITS counts the other seats whose true
    hand does not fit the inference (``fits_true_hand``: never, when it is sound). ``cnt``
    is scratch, int64[players, N_KINDS] (row p: the pool by kind)."""
    w = sc.log
    n_pool = unseen_pool(st, p, w)
    if n_pool == 0:
        return
    np_ = st.s[S_NP]
    for q in range(np_):
        for k in range(N_KINDS):
            cnt[q, k] = 0
    for i in range(n_deals):
        copy_determinized(st, sc, r, pts, p, game_seed(U64(seed), U64(i)), w, n_pool, infer)
        for q in range(np_):
            if q != p:
                for k in range(N_KINDS):
                    cnt[q, k] += sc.hand[q, k]
    for i in range(n_pool):  # seat p's row of cnt: the pool's cards by kind
        cnt[p, w[W_POOL + (i >> 2), i & 3]] += 1
    acc[Q_DECISIONS] += 1.0
    for q in range(np_):
        hs = st.hand[q, HSIZE]
        if q == p or hs == 0:
            continue
        if not fits_true_hand(st, r, pts, q, infer):
            acc[Q_MISFITS] += 1
        for k in range(N_KINDS):
            h = st.hand[q, k]
            if h == 0:
                continue
            u = cnt[p, k] / n_pool
            f = (cnt[q, k] + u * hs) / ((n_deals + 1) * hs)
            acc[Q_CARDS] += h
            acc[Q_UNIFORM] += h * np.log2(u)
            acc[Q_DEALT] += h * np.log2(f)
            acc[Q_TRUTH] += h * np.log2(h / hs)
