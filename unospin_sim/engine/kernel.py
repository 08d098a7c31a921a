"""The jitted game core: plays whole rounds of every edition from arrays and numbers.

Only arrays and numbers cross this module's boundary (see ``layout.py`` for the
state encoding and ``encode.py`` for how rule sets and bots become arrays).
Nothing is allocated inside a round; ``play_chunk`` allocates one state per
chunk of games. Game ``g`` of a run seeded ``S`` draws every random number from
its own SplitMix64 stream seeded from ``(S, g)``, so results never depend on the
thread count or the chunking.
"""

import numpy as np
from numba import njit

from ..rules.cards import (DRAW_TWO_OFFSET, FIRST_WILD, KIND_COLOUR, KIND_FACE, KIND_SPINS,
                           KINDS_PER_COLOUR, N_KINDS, SKIP_OFFSET, WILD, WILD_DRAW_FOUR,
                           WILD_SWAP_HANDS, WILD_WEB_SWING)
from ..rules import spaces as sp
from .layout import *  # noqa: F401,F403  (module constants only)
from .layout import State

U64 = np.uint64
GOLDEN = np.uint64(0x9E3779B97F4A7C15)
MIX1 = np.uint64(0xBF58476D1CE4E5B9)
MIX2 = np.uint64(0x94D049BB133111EB)
SH30, SH27, SH31, SH32, SH11 = U64(30), U64(27), U64(31), U64(32), U64(11)
INV53 = 1.0 / 9007199254740992.0

FACE_SKIP, FACE_REVERSE, FACE_DRAW_TWO = 10, 11, 12

# Every function that allocates nothing is compiled without NRT reference counting: numba
# otherwise increfs/decrefs each array of the State at every call (~5 ns per array).
# Functions on the per-turn path are also inlined at numba-IR level (`inl`): a call that
# is not inlined passes every array descriptor by value, ~15 ns a call. Measured on classic,
# 4 random bots, one thread: 34 us -> 7.6 us -> 2.5 us per game (see benchmarks/).
hot = njit(cache=True, _nrt=False)
inl = njit(cache=True, _nrt=False, inline="always")


# ==================================================================== random numbers
@hot
def mix64(z):
    z = (z ^ (z >> SH30)) * MIX1
    z = (z ^ (z >> SH27)) * MIX2
    return z ^ (z >> SH31)


@hot
def game_seed(seed, game):
    """Seed of game ``game`` of a run seeded ``seed`` (both uint64)."""
    return mix64(seed + (game + U64(1)) * GOLDEN)


@hot
def rnext(s):
    z = U64(s[S_RNG]) + GOLDEN
    s[S_RNG] = np.int64(z)
    return mix64(z)


@hot
def below(s, n):
    """Uniform integer in [0, n), n < 2**32 (multiply-shift); the stream is s[S_RNG]."""
    return np.int64(((rnext(s) >> SH32) * U64(n)) >> SH32)


@hot
def unif(s):
    """Uniform float in [0, 1) from the stream s[S_RNG]."""
    return np.float64(rnext(s) >> SH11) * INV53


# ==================================================================== events
@hot
def ev(st, code, a, b, c):
    s = st.s
    if s[S_LOG_ON]:
        n = s[S_LOG_N]
        if n < st.log.shape[0]:
            st.log[n, 0] = code
            st.log[n, 1] = a
            st.log[n, 2] = b
            st.log[n, 3] = c
            s[S_LOG_N] = n + 1


# ==================================================================== card moves
@hot
def add_card(st, p, k):
    st.hand[p, k] += 1
    st.hand[p, CC + KIND_COLOUR[k]] += 1
    st.hand[p, HSIZE] += 1


@hot
def remove_card(st, p, k):
    st.hand[p, k] -= 1
    st.hand[p, CC + KIND_COLOUR[k]] -= 1
    st.hand[p, HSIZE] -= 1


@hot
def take_from_pile(st):
    """Remove and return a uniformly random card of the draw pile (it must be non-empty)."""
    s = st.s
    n = s[S_DRAW_N]
    i = below(st.s, n)
    k = st.cards[PILE + i]
    st.cards[PILE + i] = st.cards[PILE + n - 1]
    s[S_DRAW_N] = n - 1
    return k


@hot
def put_in_pile(st, k):
    """Put a card back into the draw pile 'at a random place' (the pile is unordered)."""
    s = st.s
    st.cards[PILE + s[S_DRAW_N]] = k
    s[S_DRAW_N] += 1


@hot
def to_discard_under(st, k):
    s = st.s
    st.cards[DISC + s[S_DISC_N]] = k
    s[S_DISC_N] += 1


@hot
def set_top(st, k):
    """Put ``k`` on top of the discard pile (the old top goes under)."""
    to_discard_under(st, st.s[S_TOP])
    st.s[S_TOP] = k
    if KIND_COLOUR[k] < 4:
        st.s[S_COLOUR] = KIND_COLOUR[k]


@inl
def draw_card(st, p):
    """Seat ``p`` draws one card; returns its kind, or -1 when there is nothing to draw."""
    s = st.s
    if s[S_DRAW_N] == 0:
        n = s[S_DISC_N]
        for i in range(n):
            st.cards[PILE + i] = st.cards[DISC + i]
        s[S_DRAW_N] = n
        s[S_DISC_N] = 0
        if n == 0:
            s[S_FAILED] += 1
            ev(st, EV_DRAW_FAIL, p, 0, 0)
            return -1
        ev(st, EV_RESHUFFLE, n, 0, 0)
    return pile_to_hand(st, p)


@inl
def pile_to_hand(st, p):
    """Seat p draws a card from the (non-empty) draw pile; returns its kind."""
    k = take_from_pile(st)
    add_card(st, p, k)
    st.hand[p, DRAWN] += 1
    ev(st, EV_DRAW, p, k, 0)
    return k


@inl
def draw_n(st, p, n):
    for _ in range(n):
        draw_card(st, p)


# ==================================================================== seats
@hot
def seat_after(st, p):
    """The seat after p in the direction of play."""
    q = p + st.s[S_DIR]
    np_ = st.s[S_NP]
    if q >= np_:
        return q - np_
    if q < 0:
        return q + np_
    return q


# ==================================================================== legality
@hot
def face_kind(c, f, spin):
    """Kind of colour c with face f (spin=1: the Spin card of number f)."""
    if f <= 9:
        if spin:
            return c * KINDS_PER_COLOUR + 9 + f
        return c * KINDS_PER_COLOUR + f
    return c * KINDS_PER_COLOUR + f + 5


@hot
def other_wilds(st, p):
    """Wild cards in hand that are not Wild Draw Four."""
    return st.hand[p, CC + 4] - st.hand[p, WILD_DRAW_FOUR]


@hot
def wd4_legal(st, r, p):
    if st.hand[p, CC + st.s[S_COLOUR]] > 0:
        return False
    if r[R_WILD_MATCHES] and other_wilds(st, p) > 0:
        return False
    return True


@hot
def playable(st, k, wd4_ok):
    if k >= FIRST_WILD:
        return k != WILD_DRAW_FOUR or wd4_ok
    if KIND_COLOUR[k] == st.s[S_COLOUR]:
        return True
    return KIND_FACE[k] == KIND_FACE[st.s[S_TOP]]


@hot
def count_legal(st, p, wd4_ok):
    """Legal card instances in seat p's hand."""
    c = st.s[S_COLOUR]
    f = KIND_FACE[st.s[S_TOP]]
    h = st.hand
    n = st.hand[p, CC + c]
    if f <= 12:
        for c2 in range(4):
            if c2 != c:
                n += h[p, face_kind(c2, f, 0)]
                if 1 <= f <= 5:
                    n += h[p, face_kind(c2, f, 1)]
    n += st.hand[p, CC + 4] - h[p, WILD_DRAW_FOUR]
    if wd4_ok:
        n += h[p, WILD_DRAW_FOUR]
    return n


@hot
def nth_legal(st, p, i, wd4_ok):
    """Kind of the i-th (0-based) legal card instance, in a fixed scan order."""
    c = st.s[S_COLOUR]
    f = KIND_FACE[st.s[S_TOP]]
    h = st.hand
    base = c * KINDS_PER_COLOUR
    for k in range(base, base + KINDS_PER_COLOUR):
        i -= h[p, k]
        if i < 0:
            return k
    if f <= 12:
        for c2 in range(4):
            if c2 != c:
                k = face_kind(c2, f, 0)
                i -= h[p, k]
                if i < 0:
                    return k
                if 1 <= f <= 5:
                    k = face_kind(c2, f, 1)
                    i -= h[p, k]
                    if i < 0:
                        return k
    for k in range(FIRST_WILD, N_KINDS):
        if k != WILD_DRAW_FOUR or wd4_ok:
            i -= h[p, k]
            if i < 0:
                return k
    return -1


# ==================================================================== bot choices
@hot
def heuristic_score(st, pts, p, k, next_small):
    """Desirability of playing kind k now for the heuristic bot (higher is better)."""
    if k == WILD_DRAW_FOUR:
        return 300.0 if next_small else -200.0
    if k >= FIRST_WILD:
        return 250.0 if next_small else -100.0
    f = KIND_FACE[k]
    score = pts[k] + 2.0 * st.hand[p, CC + KIND_COLOUR[k]]
    if f >= FACE_SKIP and next_small:
        score += 100.0
    return score


@inl
def choose_card(st, pts, bots, p, wd4_ok):
    """The card seat p plays from its hand now, or -1 to draw instead."""
    n = count_legal(st, p, wd4_ok)
    if n == 0:
        return -1
    if bots[p, B_STRATEGY] == STRATEGY_RANDOM:
        return nth_legal(st, p, below(st.s, n), wd4_ok)
    nxt = seat_after(st, p)
    next_small = st.hand[nxt, HSIZE] <= 2
    best = -1
    best_score = -1e18
    for i in range(n):
        k = nth_legal(st, p, i, wd4_ok)
        if k == best:
            continue
        sc = heuristic_score(st, pts, p, k, next_small)
        if sc > best_score:
            best_score = sc
            best = k
    return best


@inl
def choose_colour(st, bots, p):
    """Colour seat p names for a wild: random uniform, heuristic its most common colour."""
    if bots[p, B_STRATEGY] == STRATEGY_RANDOM:
        return below(st.s, 4)
    best = 0
    for c in range(1, 4):
        if st.hand[p, CC + c] > st.hand[p, CC + best]:
            best = c
    return best


@inl
def name_colour(st, bots, p):
    c = choose_colour(st, bots, p)
    st.s[S_COLOUR] = c
    ev(st, EV_COLOUR, p, c, 0)


@inl
def random_held_colour(st, p):
    """A colour uniformly among those seat p holds (any colour if it holds none)."""
    n = 0
    for c in range(4):
        if st.hand[p, CC + c] > 0:
            n += 1
    if n == 0:
        return below(st.s, 4)
    i = below(st.s, n)
    for c in range(4):
        if st.hand[p, CC + c] > 0:
            if i == 0:
                return c
            i -= 1
    return 0


@hot
def number_count(st, p, v):
    """Cards of number v in seat p's hand (Spin cards count by their number)."""
    n = 0
    for c in range(4):
        n += st.hand[p, face_kind(c, v, 0)]
        if 1 <= v <= 5:
            n += st.hand[p, face_kind(c, v, 1)]
    return n


@hot
def colour_points(st, pts, p, c):
    t = 0
    base = c * KINDS_PER_COLOUR
    for k in range(base, base + KINDS_PER_COLOUR):
        t += st.hand[p, k] * pts[k]
    return t


# ==================================================================== UNO calls
@inl
def uno_check(st, bots, p):
    """Seat p's hand just dropped to one card: call UNO, or forget and maybe be caught."""
    if st.hand[p, HSIZE] != 1:
        return
    pf = bots[p, B_FORGET]
    if pf > 0.0 and unif(st.s) < pf:
        ev(st, EV_FORGET, p, 0, 0)
        for q in range(st.s[S_NP]):
            if q != p:
                pc = bots[q, B_CATCH]
                if pc > 0.0 and unif(st.s) < pc:
                    st.hand[p, PEND] = 1
                    st.s[S_PENDING] = 1
                    ev(st, EV_CAUGHT, p, q, 0)
                    break
    else:
        ev(st, EV_UNO, p, 0, 0)


@inl
def apply_penalties(st):
    """Caught players draw 2, at the end of the action, unless the round is over."""
    if st.s[S_PENDING] == 0:
        return
    st.s[S_PENDING] = 0
    for p in range(st.s[S_NP]):
        if st.hand[p, PEND]:
            st.hand[p, PEND] = 0
            if st.s[S_WINNER] < 0:
                ev(st, EV_PENALTY, p, 0, 0)
                draw_n(st, p, 2)


# ==================================================================== wheel helpers
@hot
def count_discards(st, p, n):
    """Wheel discards of seat p count in the spin record when p is the spinner."""
    if p == st.s[S_SPINNER]:
        st.s[S_DISCARDED] += n


@hot
def wheel_discard_list(st, bots, p, n):
    """Seat p discards the n kinds in st.cards[TMP + 0:n] by a wheel space, in random order:
    the last one becomes the top card (a wild: p names the colour). No card effects."""
    if n == 0:
        return
    last = below(st.s, n)
    for i in range(n):
        if i != last:
            k = st.cards[TMP + i]
            remove_card(st, p, k)
            to_discard_under(st, k)
            ev(st, EV_WHEEL_DISCARD, p, k, 1)
    k = st.cards[TMP + last]
    remove_card(st, p, k)
    set_top(st, k)
    ev(st, EV_WHEEL_DISCARD, p, k, 0)
    count_discards(st, p, n)
    if k >= FIRST_WILD:
        name_colour(st, bots, p)
    if st.hand[p, HSIZE] == 0:
        st.s[S_WINNER] = p
    else:
        uno_check(st, bots, p)


@inl
def draw_until_colour(st, r, p, c):
    """Draw until a card of colour c (or any wild, when wild_stops_colour_draw)."""
    while True:
        k = draw_card(st, p)
        if k < 0:
            return
        if KIND_COLOUR[k] == c:
            return
        if k >= FIRST_WILD and r[R_WILD_STOPS]:
            return


@hot
def swap_rows(st, a, b):
    """Exchange the hands of seats a and b (cards, colour counts, size)."""
    h = st.hand
    for k in range(HAND_FIELDS):
        t = h[a, k]
        h[a, k] = h[b, k]
        h[b, k] = t


@hot
def swap_target(st, bots, p):
    """The seat p swaps hands with (2025 Swap Hands, a 7 under seven_o, Wild Swap Hands):
    random uniform among the others, heuristic the smallest other hand, nearest in turn
    order on ties."""
    np_ = st.s[S_NP]
    if bots[p, B_STRATEGY] == STRATEGY_RANDOM:
        q = below(st.s, np_ - 1)
        if q >= p:
            q += 1
        return q
    q = -1
    for i in range(1, np_):
        q2 = (p + i * st.s[S_DIR] + np_) % np_
        if q < 0 or st.hand[q2, HSIZE] < st.hand[q, HSIZE]:
            q = q2
    return q


@inl
def spin_wheel(st, r, cum):
    """Space id drawn with the wheel's cumulative weights ``cum`` (global space ids)."""
    u = unif(st.s) * cum[cum.shape[0] - 1]
    for i in range(cum.shape[0]):
        if u < cum[i]:
            return i
    # u == total (impossible up to rounding): last space with positive weight
    for i in range(cum.shape[0] - 1, -1, -1):
        if i == 0 or cum[i] > cum[i - 1]:
            return i
    return 0


# ==================================================================== the 2005 wheel
@hot
def war(st, bots, spinner):
    """War. Returns the winner seat or -1."""
    np_ = st.s[S_NP]
    h = st.hand
    active = 0
    for q in range(np_):
        for v in range(10):
            h[q, WAR + v] = number_count(st, q, v)
    # tmp[q] = 1 while q is still in the war; tmp[MAX_PLAYERS + q] = value shown now
    for q in range(np_):
        has = 0
        for v in range(10):
            has += h[q, WAR + v]
        st.cards[TMP + q] = 1 if has > 0 else 0
        active += st.cards[TMP + q]
    if active == 0:
        return -1
    # h[q, WAR + v] decreases as q shows its cards of number v; the winner's shown cards
    # are recovered from it afterwards (war_discards)
    while True:
        best = -1
        for q in range(np_):
            if st.cards[TMP + q]:
                v = 9
                while v >= 0 and h[q, WAR + v] == 0:
                    v -= 1
                if v < 0:
                    st.cards[TMP + q] = 0
                    active -= 1
                else:
                    h[q, WAR + v] -= 1
                    st.cards[TMP + MAX_PLAYERS + q] = v
                    ev(st, EV_WAR_SHOW, q, v, 0)
                    if v > best:
                        best = v
        if active == 0:
            return -1
        ntied = 0
        for q in range(np_):
            if st.cards[TMP + q]:
                if st.cards[TMP + MAX_PLAYERS + q] == best:
                    ntied += 1
                else:
                    st.cards[TMP + q] = 0
        active = ntied
        if active == 1:
            for q in range(np_):
                if st.cards[TMP + q]:
                    return q
    return -1


@hot
def war_discards(st, bots, q, spinner):
    """The war winner q discards every number card it showed (highest first; the last shown,
    its lowest, ends on top). Which instance of a number is shown is uniform."""
    # cards shown of number v = number_count(now) - st.hand[q, WAR + v]
    n = 0
    for v in range(9, -1, -1):
        m = number_count(st, q, v) - st.hand[q, WAR + v]
        for _ in range(m):
            # uniform instance among the hand's cards of number v
            cnt = number_count(st, q, v)
            i = below(st.s, cnt)
            k = -1
            for c in range(4):
                k1 = face_kind(c, v, 0)
                i -= st.hand[q, k1]
                if i < 0:
                    k = k1
                    break
                if 1 <= v <= 5:
                    k1 = face_kind(c, v, 1)
                    i -= st.hand[q, k1]
                    if i < 0:
                        k = k1
                        break
            remove_card(st, q, k)
            set_top(st, k)
            ev(st, EV_WHEEL_DISCARD, q, k, 0)
            n += 1
    count_discards(st, q, n)
    if st.hand[q, HSIZE] == 0:
        st.s[S_WINNER] = q
    else:
        uno_check(st, bots, q)


@hot
def almost_uno(st, bots, p):
    """Discard until two cards are left: random keeps two uniformly chosen instances;
    heuristic keeps its wilds first, then random ones."""
    h = st.hand[p, HSIZE]
    if h <= 2:
        return
    n = 0
    for k in range(N_KINDS):
        for _ in range(st.hand[p, k]):
            st.cards[TMP + n] = k
            n += 1
    keep = 0
    if bots[p, B_STRATEGY] == STRATEGY_HEURISTIC:
        # move wilds to the end of the list and keep up to two of them
        for i in range(n - 1, -1, -1):
            if keep < 2 and st.cards[TMP + i] >= FIRST_WILD:
                j = n - 1 - keep
                t = st.cards[TMP + i]
                st.cards[TMP + i] = st.cards[TMP + j]
                st.cards[TMP + j] = t
                keep += 1
    while keep < 2:
        i = below(st.s, n - keep)
        j = n - 1 - keep
        t = st.cards[TMP + i]
        st.cards[TMP + i] = st.cards[TMP + j]
        st.cards[TMP + j] = t
        keep += 1
    wheel_discard_list(st, bots, p, n - 2)


@hot
def discard_number(st, pts, bots, p):
    if bots[p, B_STRATEGY] == STRATEGY_RANDOM:
        held = 0
        for v in range(10):
            if number_count(st, p, v) > 0:
                held += 1
        if held == 0:
            v = below(st.s, 10)
        else:
            i = below(st.s, held)
            v = 0
            for v2 in range(10):
                if number_count(st, p, v2) > 0:
                    if i == 0:
                        v = v2
                        break
                    i -= 1
    else:
        v = 0
        best = -1
        for v2 in range(10):
            sc = number_count(st, p, v2) * (v2 + 1)
            if sc > best:
                best = sc
                v = v2
    ev(st, EV_NAME, p, 1, v)
    n = 0
    for c in range(4):
        for spin in range(2):
            if spin == 1 and not (1 <= v <= 5):
                continue
            k = face_kind(c, v, spin)
            for _ in range(st.hand[p, k]):
                st.cards[TMP + n] = k
                n += 1
    wheel_discard_list(st, bots, p, n)


@inl
def choose_held_colour(st, pts, bots, p):
    """Colour named for a discard by colour: random uniform among held colours,
    heuristic the colour whose cards are worth the most points."""
    if bots[p, B_STRATEGY] == STRATEGY_RANDOM:
        return random_held_colour(st, p)
    best = 0
    best_pts = -1
    for c in range(4):
        t = colour_points(st, pts, p, c) + st.hand[p, CC + c]
        if t > best_pts:
            best_pts = t
            best = c
    return best


@hot
def discard_color(st, pts, bots, p):
    c = choose_held_colour(st, pts, bots, p)
    ev(st, EV_NAME, p, 0, c)
    n = 0
    base = c * KINDS_PER_COLOUR
    for k in range(base, base + KINDS_PER_COLOUR):
        for _ in range(st.hand[p, k]):
            st.cards[TMP + n] = k
            n += 1
    wheel_discard_list(st, bots, p, n)


@hot
def uno_spin_race(st, pts, bots):
    """A player drawn by reflex weight discards one card. Returns that player."""
    np_ = st.s[S_NP]
    tot = 0.0
    for q in range(np_):
        tot += bots[q, B_REFLEX]
    u = unif(st.s) * tot
    w = np_ - 1
    for q in range(np_):
        u -= bots[q, B_REFLEX]
        if u < 0.0:
            w = q
            break
    ev(st, EV_RACE_WIN, w, 0, 0)
    if st.hand[w, HSIZE] == 0:
        return w
    if bots[w, B_STRATEGY] == STRATEGY_RANDOM:
        i = below(st.s, st.hand[w, HSIZE])
        k = 0
        for k2 in range(N_KINDS):
            i -= st.hand[w, k2]
            if i < 0:
                k = k2
                break
    else:  # shed the most points, wilds last
        k = -1
        best = -1
        for k2 in range(N_KINDS):
            if st.hand[w, k2] > 0:
                sc = pts[k2] if k2 < FIRST_WILD else 0
                if sc > best:
                    best = sc
                    k = k2
    st.cards[TMP + 0] = k
    wheel_discard_list(st, bots, w, 1)
    return w


@hot
def trade_hands(st, bots):
    """Every hand passes one seat clockwise."""
    np_ = st.s[S_NP]
    for q in range(np_ - 1, 0, -1):
        swap_rows(st, q, q - 1)
    # after the swaps, seat q holds what seat q-1 held
    ev(st, EV_TRADE, 0, 0, 0)
    for q in range(np_):
        uno_check(st, bots, q)


@inl
def spin_2005(st, r, pts, cum, bots, p):
    """Seat p spins the 2005 wheel instead of its turn. Sets S_CUR to who acts next."""
    space = spin_wheel(st, r, cum)
    begin_spin(st, p, space)
    nxt_from = p
    if space == sp.ALMOST_UNO:
        almost_uno(st, bots, p)
    elif space == sp.DISCARD_NUMBER:
        discard_number(st, pts, bots, p)
    elif space == sp.DISCARD_COLOR:
        discard_color(st, pts, bots, p)
    elif space == sp.DRAW_RED:
        draw_until_colour(st, r, p, 0)
    elif space == sp.DRAW_BLUE:
        draw_until_colour(st, r, p, 3)
    elif space == sp.SHOW_HAND:
        ev(st, EV_SHOW_HAND, p, 0, 0)
    elif space == sp.WAR:
        w = war(st, bots, p)
        ev(st, EV_WAR_WIN, w, 0, 0)
        if w >= 0:
            war_discards(st, bots, w, p)
            nxt_from = w
    elif space == sp.UNO_SPIN:
        nxt_from = uno_spin_race(st, pts, bots)
    elif space == sp.TRADE_HANDS:
        trade_hands(st, bots)
    end_spin(st, p)
    st.s[S_CUR] = seat_after(st, nxt_from)


# ==================================================================== the 2025 wheel
@inl
def begin_spin(st, p, space):
    s = st.s
    st.s[S_SPIN0 + space] += 1
    ev(st, EV_SPIN, p, space, 0)
    i = s[S_NSPIN]
    rec = st.spinrec
    if i < rec.shape[0]:
        rec[i, P_TURN] = s[S_TURNS]
        rec[i, P_SPINNER] = p
        rec[i, P_SPACE] = space
        rec[i, P_HAND_BEFORE] = st.hand[p, HSIZE]
        rec[i, P_DRAWN] = st.hand[p, DRAWN]
    s[S_DISCARDED] = 0
    s[S_SPINNER] = p


@inl
def end_spin(st, p):
    s = st.s
    i = s[S_NSPIN]
    rec = st.spinrec
    if i < rec.shape[0]:
        rec[i, P_HAND_AFTER] = st.hand[p, HSIZE]
        rec[i, P_DRAWN] = st.hand[p, DRAWN] - rec[i, P_DRAWN]
        rec[i, P_DISCARDED] = s[S_DISCARDED]
        s[S_NSPIN] = i + 1


@inl
def spin_2025(st, r, pts, cum, bots, p):
    """Seat p, who just played a Spin card, spins the 2025 wheel."""
    space = spin_wheel(st, r, cum)
    begin_spin(st, p, space)
    if st.s[S_TWO_X]:
        st.s[S_TWO_X] = 0
        ev(st, EV_TWO_X, 0, 0, 0)
    if space <= sp.COLOR_DRAW_BLUE:
        draw_until_colour(st, r, p, space - sp.COLOR_DRAW_RED)
    elif space == sp.WILD_COLOR_DRAW:
        if bots[p, B_STRATEGY] == STRATEGY_RANDOM:
            c = random_held_colour(st, p)
        else:  # the colour it holds fewest of: most likely still in the pile
            c = 0
            for c2 in range(1, 4):
                if st.hand[p, CC + c2] < st.hand[p, CC + c]:
                    c = c2
        ev(st, EV_NAME, p, 0, c)
        draw_until_colour(st, r, p, c)
    elif space == sp.COLOR_DISCARD:
        c = choose_held_colour(st, pts, bots, p)
        ev(st, EV_NAME, p, 0, c)
        base = c * KINDS_PER_COLOUR
        n = 0
        for k in range(base, base + KINDS_PER_COLOUR):
            while st.hand[p, k] > 0:
                remove_card(st, p, k)
                to_discard_under(st, k)
                ev(st, EV_WHEEL_DISCARD, p, k, 1)
                n += 1
        count_discards(st, p, n)
        if n > 0:
            if st.hand[p, HSIZE] == 0:
                st.s[S_WINNER] = p
            else:
                uno_check(st, bots, p)
    elif space == sp.SWAP_HANDS:
        q = swap_target(st, bots, p)
        swap_rows(st, p, q)
        ev(st, EV_SWAP, p, q, 0)
        uno_check(st, bots, p)
        uno_check(st, bots, q)
    elif space == sp.TWO_X:
        st.s[S_TWO_X] = 1
        ev(st, EV_TWO_X, 1, 0, 0)
    end_spin(st, p)


@hot
def draw_until_playable(st, r, p):
    """House rule draw_until_playable: seat p, whose drawn card was not playable, draws on
    until a playable card (returned) or nothing is left to draw (-1)."""
    while True:
        k = draw_card(st, p)
        if k < 0:
            return -1
        if playable(st, k, wd4_legal(st, r, p)):
            return k


# ==================================================================== seven_o, special wilds
@hot
def seven_o(st, bots, p, f):
    """House rule seven_o, after seat p played a 7 (f = 7) or a 0 (f = 0) that was not its
    last card: a 7 swaps hands with a seat of p's choice, a 0 passes every hand one seat in
    the direction of play. Then every seat left holding one card gets the UNO check."""
    if f == 7:
        q = swap_target(st, bots, p)
        swap_rows(st, p, q)
        ev(st, EV_SWAP, p, q, 0)
        uno_check(st, bots, p)
        uno_check(st, bots, q)
        return
    np_ = st.s[S_NP]
    d = st.s[S_DIR]
    if d > 0:  # seat q gets the hand of seat q - 1
        for q in range(np_ - 1, 0, -1):
            swap_rows(st, q, q - 1)
    else:      # seat q gets the hand of seat q + 1
        for q in range(np_ - 1):
            swap_rows(st, q, q + 1)
    ev(st, EV_ZERO_PASS, d, 0, 0)
    for q in range(np_):
        uno_check(st, bots, q)


@hot
def special_wild(st, bots, p, k):
    """House rule special_wilds, after seat p played Wild Swap Hands / Wild Shuffle Hands
    (not its last card; the colour is named): swap hands with a seat of p's choice, or
    collect every hand, shuffle and deal them one card at a time from the next seat in the
    direction of play. Then every seat left holding one card gets the UNO check."""
    np_ = st.s[S_NP]
    if k == WILD_SWAP_HANDS:  # else WILD_SHUFFLE_HANDS
        q = swap_target(st, bots, p)
        swap_rows(st, p, q)
        ev(st, EV_SWAP, p, q, 0)
        uno_check(st, bots, p)
        uno_check(st, bots, q)
        return
    h = st.hand
    n = 0
    for q in range(np_):
        for k2 in range(N_KINDS):
            for _ in range(h[q, k2]):
                st.cards[TMP + n] = k2
                n += 1
        for j in range(HAND_FIELDS):
            h[q, j] = 0
    q = seat_after(st, p)
    ev(st, EV_SHUFFLE, p, q, 0)
    for i in range(n, 0, -1):  # deal a uniformly random card of the i left
        j = below(st.s, i)
        k2 = st.cards[TMP + j]
        st.cards[TMP + j] = st.cards[TMP + i - 1]
        add_card(st, q, k2)
        ev(st, EV_REDEAL, q, k2, 0)
        q = seat_after(st, q)
    for q in range(np_):
        uno_check(st, bots, q)


# ==================================================================== stacking
# House rule ``stacking`` (docs/HOUSE_RULES.md): a Draw Two / Wild Draw Four starts a pending
# penalty (S_PEN_*) on the next seat instead of being drawn at once; when play reaches that
# seat, play_round calls penalty_action instead of a normal turn. Without stacking S_PEN_N
# stays 0 and none of this runs.
@hot
def start_penalty(st, p, v, n, kind, bluff, passes):
    """Seat p's turn makes seat v (next to act) face a penalty of n cards."""
    s = st.s
    s[S_PEN_N] = n
    s[S_PEN_KIND] = kind
    s[S_PEN_BY] = p
    s[S_PEN_ILLEGAL] = bluff
    s[S_PEN_PASS] = passes
    ev(st, EV_PENALTY_ON, v, n, 0)
    s[S_CUR] = v


@hot
def stack_choice(st, bots, p):
    """The card kind seat p stacks on the pending penalty, -1 when it holds none: random
    uniform among its stackable card instances, heuristic the Draw Two of the colour it
    holds most cards of (first colour on ties)."""
    h = st.hand
    if st.s[S_PEN_KIND] == WILD_DRAW_FOUR:
        return WILD_DRAW_FOUR if h[p, WILD_DRAW_FOUR] > 0 else -1
    n = 0
    for c in range(4):
        n += h[p, c * KINDS_PER_COLOUR + DRAW_TWO_OFFSET]
    if n == 0:
        return -1
    if bots[p, B_STRATEGY] == STRATEGY_RANDOM:
        i = below(st.s, n)
        for c in range(4):
            k = c * KINDS_PER_COLOUR + DRAW_TWO_OFFSET
            i -= h[p, k]
            if i < 0:
                return k
        return -1
    best = -1
    for c in range(4):
        k = c * KINDS_PER_COLOUR + DRAW_TWO_OFFSET
        if h[p, k] > 0 and (best < 0 or h[p, CC + c] > h[p, CC + KIND_COLOUR[best]]):
            best = k
    return best


@hot
def take_penalty(st, p, n, passes):
    """Seat p draws n cards of a pending penalty; play moves on past ``passes`` seats, p
    first (passes = 0: p takes a normal turn)."""
    s = st.s
    s[S_PEN_N] = 0
    if n > 0:
        ev(st, EV_PENALTY_TAKE, p, n, 0)
        for _ in range(n):
            draw_card(st, p)
    q = p
    for _ in range(passes):
        ev(st, EV_SKIPPED, q, 0, 0)
        q = seat_after(st, q)
    s[S_CUR] = q


@hot
def penalty_action(st, r, pts, bots, p):
    """Seat p faces a pending penalty: it challenges the Wild Draw Four (its challenge
    probability), else stacks when it can (a counted turn), else takes the penalty (not a
    turn). Sets S_CUR."""
    s = st.s
    n = s[S_PEN_N]
    if s[S_PEN_KIND] == WILD_DRAW_FOUR:
        pc = bots[p, B_CHALLENGE]
        if pc > 0.0 and unif(st.s) < pc:
            by = s[S_PEN_BY]
            passes = s[S_PEN_PASS]
            if s[S_PEN_ILLEGAL]:
                ev(st, EV_STACK_CHALLENGE, p, by, 1)
                for _ in range(4):
                    draw_card(st, by)
                n -= 4
                passes -= 1
            else:
                ev(st, EV_STACK_CHALLENGE, p, by, 0)
                n += 2
            take_penalty(st, p, n, passes)
            return
    k = stack_choice(st, bots, p)
    if k < 0:
        take_penalty(st, p, n, s[S_PEN_PASS])
        return
    s[S_TURNS] += 1
    ev(st, EV_TURN, p, s[S_TURNS], 0)
    remove_card(st, p, k)
    set_top(st, k)
    ev(st, EV_PLAY, p, k, 0)
    if k == WILD_DRAW_FOUR:
        name_colour(st, bots, p)
        n += 4
    else:
        n += 2
    v = seat_after(st, p)
    if st.hand[p, HSIZE] == 0:  # won: the next player still draws the whole penalty
        s[S_WINNER] = p
        s[S_PEN_N] = 0
        for _ in range(n):
            draw_card(st, v)
        return
    uno_check(st, bots, p)
    start_penalty(st, p, v, n, s[S_PEN_KIND], 0, 1)


# ==================================================================== a turn
@inl
def web_swing(st, bots, p):
    """Wild Web Swing (colour already named): returns the seat play continues after."""
    c = st.s[S_COLOUR]
    np_ = st.s[S_NP]
    n = 0
    for q in range(np_):
        if q != p and st.hand[q, CC + c] > 0:
            n += 1
    if n == 0:
        ev(st, EV_WEB_SWING, p, c, -1)
        return p
    if bots[p, B_STRATEGY] == STRATEGY_RANDOM:
        i = below(st.s, n)
        t = -1
        for q in range(np_):
            if q != p and st.hand[q, CC + c] > 0:
                if i == 0:
                    t = q
                    break
                i -= 1
    else:  # the eligible player with the fewest cards: pass over the most threatening
        t = -1
        for q in range(np_):
            if q != p and st.hand[q, CC + c] > 0:
                if t < 0 or st.hand[q, HSIZE] < st.hand[t, HSIZE]:
                    t = q
    ev(st, EV_WEB_SWING, p, c, t)
    return t


def _make_play_turn(house):
    """play_turn for the default rules (``house`` False) or for rule sets with a house rule
    of docs/HOUSE_RULES.md (``house`` True). ``house`` is a constant of the closure, frozen
    at compile time: the default rules' turn carries no trace of the house rules, not even
    a flag test (play_round_house is the loop that calls the house variant)."""

    @inl
    def play_turn(st, r, pts, cum, bots, p):
        """Seat p takes a normal turn (one card, or up to two under 2X). Sets S_CUR."""
        s = st.s
        np_ = s[S_NP]
        max_cards = 2 if s[S_TWO_X] else 1
        n_rev = 0
        n_pass = 0
        n_draw = 0
        wd4_illegal = 0      # WD4s this turn played while illegal (bluffs)
        n_wd4 = 0
        jump_from = -1       # Web Swing: play continues after this seat
        last_draw = 0        # stacking: what stacks on this turn's penalty (its last draw card)
        last_bluff = 0       # stacking: 1 when this turn's last Wild Draw Four was illegal
        played = 0
        while played < max_cards:
            legal = wd4_legal(st, r, p)
            use_wd4 = legal
            if not legal and st.hand[p, WILD_DRAW_FOUR] > 0:
                pb = bots[p, B_BLUFF]
                if pb > 0.0 and unif(st.s) < pb:
                    use_wd4 = True
            k = choose_card(st, pts, bots, p, use_wd4)
            if k < 0:
                if played > 0:
                    break
                k = draw_card(st, p)
                if k < 0:
                    break
                legal = wd4_legal(st, r, p)  # the drawn card is in hand now
                if not playable(st, k, legal):
                    if not (house and r[R_DRAW_UNTIL]):
                        break
                    k = draw_until_playable(st, r, p)
                    if k < 0:
                        break
                    legal = wd4_legal(st, r, p)
                max_cards = 1  # after drawing, only the drawn card may be played
            if k == WILD_DRAW_FOUR and not legal:
                wd4_illegal += 1
                ev(st, EV_BLUFF, p, 0, 0)
            remove_card(st, p, k)
            set_top(st, k)
            ev(st, EV_PLAY, p, k, 0)
            played += 1
            if k >= FIRST_WILD:
                name_colour(st, bots, p)
            f = KIND_FACE[k]
            if k == WILD_DRAW_FOUR:
                n_wd4 += 1
                n_draw += 4
                n_pass += 1
                if house:
                    last_draw = WILD_DRAW_FOUR
                    last_bluff = 0 if legal else 1
            elif f == FACE_DRAW_TWO:
                n_draw += 2
                n_pass += 1
                if house:
                    last_draw = FACE_DRAW_TWO
            elif f == FACE_SKIP:
                n_pass += 1
            elif f == FACE_REVERSE:
                if np_ == 2:
                    n_pass += 1
                else:
                    n_rev += 1
            if st.hand[p, HSIZE] == 0:
                s[S_WINNER] = p
                break
            uno_check(st, bots, p)
            if k == WILD_WEB_SWING:
                jump_from = web_swing(st, bots, p)
            if house:
                if k >= WILD_SWAP_HANDS:  # special_wilds: in the deck only with the option
                    special_wild(st, bots, p, k)
                elif (f == 7 or f == 0) and r[R_SEVEN_O]:
                    seven_o(st, bots, p, f)
            if KIND_SPINS[k] and r[R_WHEEL] != sp.WHEEL_NONE:
                if r[R_WHEEL] == sp.WHEEL_2025:
                    spin_2025(st, r, pts, cum, bots, p)
                    if s[S_WINNER] >= 0:
                        return  # won by a wheel discard: the round ends at once
                else:
                    s[S_SPIN_NEXT] = 1
                break
        # ---- resolve the turn's effects once
        if n_rev & 1:
            s[S_DIR] = -s[S_DIR]
            ev(st, EV_REVERSE, s[S_DIR], 0, 0)
        elif n_rev > 0:
            ev(st, EV_REVERSE, s[S_DIR], 0, 0)
        v = seat_after(st, p)
        if n_draw > 0:
            if s[S_WINNER] < 0:
                if house and r[R_STACKING]:  # the penalty waits for the victim
                    start_penalty(st, p, v, n_draw, last_draw, last_bluff, n_pass)
                    return
                for _ in range(n_wd4):
                    pc = bots[v, B_CHALLENGE]
                    if pc > 0.0 and unif(st.s) < pc:
                        if wd4_illegal > 0:
                            wd4_illegal -= 1
                            ev(st, EV_CHALLENGE, v, p, 1)
                            draw_n(st, p, 4)
                            n_draw -= 4
                            n_pass -= 1
                        else:
                            ev(st, EV_CHALLENGE, v, p, 0)
                            n_draw += 2
            draw_n(st, v, n_draw)
        if s[S_WINNER] >= 0:
            return
        q = p if jump_from < 0 else jump_from
        q = seat_after(st, q)
        for _ in range(n_pass):
            ev(st, EV_SKIPPED, q, 0, 0)
            q = seat_after(st, q)
        s[S_CUR] = q

    return play_turn


play_turn = _make_play_turn(False)
play_turn_house = _make_play_turn(True)


# ==================================================================== RLCard 1.2.0 rules
# Rule option ``rlcard`` (classic only; r[R_RLCARD] = 1): the UNO of RLCard 1.2.0 (the PyPI
# release; paths below are inside its package ``rlcard/``). The default rules never reach this
# section: play_round branches once per round to play_round_rl, and setup_round /
# check_invariants test the flag outside the per-turn path.
#   games/uno/round.py      UnoRound: legal actions, playing, the draw action, reshuffles
#   games/uno/dealer.py     UnoDealer: deck shuffled, a first Wild Draw Four goes back
#   games/uno/game.py       UnoGame.init_game: 7 cards each, player 0 starts
#   envs/uno.py             UnoEnv._get_legal_actions: the legal action ids, as dict keys
#   agents/random_agent.py  RandomAgent.step: np.random.choice over those distinct ids
# What differs from the default classic rules (the rest is the same):
#   - legal actions: distinct (colour, face) cards matching the colour or face in play, plus
#     every colour of a plain Wild held (round.py get_legal_actions: WILD is extended once,
#     duplicates collapse in the dict of envs/uno.py); the Wild Draw Four's four colours are
#     the actions only when there is no other (round.py: ``if not legal_actions:
#     legal_actions = wild_4_actions``); 'draw' only when there is nothing else. The random
#     bot picks uniformly among these actions, and a wild takes the colour in its action.
#   - the draw action (round.py _perform_draw_action): a drawn wild (Wild Draw Four too) is
#     played at once with a random colour and no effect; a drawn card of the colour in play
#     (``card.color == self.target.color``: colour only, not number or symbol) is played at
#     once with its effects; any other drawn card is kept. The turn passes in every case.
#   - Reverse always reverses (round.py _preform_non_number_action): with two players the
#     turn passes to the other player (no extra turn).
#   - reshuffles (round.py replace_deck) put every card played since the last one -- the top
#     card included -- back into the deck; they happen when the deck is empty at a draw
#     action, or holds fewer than 2 (4) cards when a Draw Two (Wild Draw Four) is played.
#     The top card then still sets the colour and face to match (s[S_TOP_OUT] = 1).
#   - no UNO calls, no penalties, no challenges, no bluffs (encode.py rejects those knobs).
#   - first card (game.py, round.py flip_top_card / perform_top_card): a first Wild gets a
#     random colour from the game; a first Draw Two makes player 0 draw 2 and player 0 still
#     plays first (no skip). Skip and Reverse act as in the default rules.
#   - points: RLCard pays +1/-1; the engine still reports the standard card points of the
#     losers' hands (winner_points) as a statistic; they never affect play.
# Where RLCard would crash (pop from an empty deck: every card is in the hands) the engine
# records a failed draw instead, as it does for every edition.


@hot
def set_top_rl(st, k):
    """set_top under rlcard: the old top goes under only when it is still on the table."""
    s = st.s
    if s[S_TOP_OUT]:
        s[S_TOP_OUT] = 0
    else:
        to_discard_under(st, s[S_TOP])
    s[S_TOP] = k
    if KIND_COLOUR[k] < 4:
        s[S_COLOUR] = KIND_COLOUR[k]


@hot
def reshuffle_rl(st):
    """round.py replace_deck: every card played since the last reshuffle, the top card
    included, goes into the draw pile (which is unordered: a shuffle is implied)."""
    s = st.s
    n = s[S_DISC_N]
    m = s[S_DRAW_N]
    for i in range(n):
        st.cards[PILE + m + i] = st.cards[DISC + i]
    m += n
    if s[S_TOP_OUT] == 0:
        st.cards[PILE + m] = s[S_TOP]
        m += 1
        n += 1
        s[S_TOP_OUT] = 1
    s[S_DRAW_N] = m
    s[S_DISC_N] = 0
    ev(st, EV_RESHUFFLE, n, 1, 0)


@inl
def draw_card_rl(st, p):
    """draw_card under rlcard: an empty draw pile is refilled by reshuffle_rl."""
    s = st.s
    if s[S_DRAW_N] == 0:
        reshuffle_rl(st)
        if s[S_DRAW_N] == 0:
            s[S_FAILED] += 1
            ev(st, EV_DRAW_FAIL, p, 0, 0)
            return -1
    return pile_to_hand(st, p)


@inl
def penalty_rl(st, v, n):
    """Seat v draws n for a Draw Two / Wild Draw Four: round.py reshuffles first when the
    deck holds fewer than n cards (``if len(self.dealer.deck) < 2: self.replace_deck()``)."""
    if st.s[S_DRAW_N] < n:
        reshuffle_rl(st)
    for _ in range(n):
        draw_card_rl(st, v)


@hot
def rl_distinct_legal(st, p):
    """Distinct coloured kinds in seat p's hand that match the colour or face in play (the
    classic deck: no Spin cards)."""
    c = st.s[S_COLOUR]
    f = KIND_FACE[st.s[S_TOP]]
    h = st.hand
    n = 0
    base = c * KINDS_PER_COLOUR
    for k in range(base, base + 10):
        n += h[p, k] > 0
    for k in range(base + SKIP_OFFSET, base + KINDS_PER_COLOUR):
        n += h[p, k] > 0
    if f <= 12:
        for c2 in range(4):
            if c2 != c:
                n += h[p, face_kind(c2, f, 0)] > 0
    return n


@hot
def rl_nth_distinct(st, p, i):
    """The i-th (0-based) kind counted by rl_distinct_legal, in the same scan order."""
    c = st.s[S_COLOUR]
    f = KIND_FACE[st.s[S_TOP]]
    h = st.hand
    base = c * KINDS_PER_COLOUR
    for k in range(base, base + KINDS_PER_COLOUR):
        if h[p, k] > 0:
            if i == 0:
                return k
            i -= 1
    if f <= 12:
        for c2 in range(4):
            if c2 != c:
                k = face_kind(c2, f, 0)
                if h[p, k] > 0:
                    if i == 0:
                        return k
                    i -= 1
    return -1


@inl
def choose_rl(st, pts, bots, p):
    """(kind, colour) seat p plays under rlcard; (-1, -1) = the draw action. colour is the
    colour in a random bot's wild action, -1 when the bot names one (heuristic) or no wild."""
    h = st.hand
    d = rl_distinct_legal(st, p)
    # plain wilds held: 4 actions (one per colour). rlcard is classic only, whose deck has
    # no wild kinds but Wild and Wild Draw Four.
    nw = 1 if h[p, WILD] > 0 else 0
    if d + nw == 0:
        if h[p, WILD_DRAW_FOUR] == 0:
            return -1, -1  # 'draw' is the only action
        if bots[p, B_STRATEGY] == STRATEGY_RANDOM:
            return WILD_DRAW_FOUR, below(st.s, 4)  # its 4 actions, one per colour
        return WILD_DRAW_FOUR, -1
    if bots[p, B_STRATEGY] != STRATEGY_RANDOM:  # heuristic: WD4 is not legal here
        return choose_card(st, pts, bots, p, False), -1
    i = below(st.s, d + 4 * nw)
    if i < d:
        return rl_nth_distinct(st, p, i), -1
    return WILD, i - d


@inl
def play_turn_rl(st, pts, bots, p):
    """Seat p takes one turn under rlcard (one action: a play, or the draw). Sets S_CUR."""
    s = st.s
    k, c = choose_rl(st, pts, bots, p)
    if k < 0:
        k = draw_card_rl(st, p)
        if k < 0:
            s[S_CUR] = seat_after(st, p)
            return
        if k >= FIRST_WILD:  # played at once, colour at random, no effect (not even a WD4)
            remove_card(st, p, k)
            set_top_rl(st, k)
            ev(st, EV_PLAY, p, k, 0)
            c = below(st.s, 4)
            s[S_COLOUR] = c
            ev(st, EV_COLOUR, p, c, 0)
            s[S_CUR] = seat_after(st, p)
            return
        if KIND_COLOUR[k] != s[S_COLOUR]:  # kept, even when its face matches
            s[S_CUR] = seat_after(st, p)
            return
        # of the colour in play: played at once, with its effects (below)
    remove_card(st, p, k)
    set_top_rl(st, k)
    ev(st, EV_PLAY, p, k, 0)
    if k >= FIRST_WILD:
        if c < 0:
            c = choose_colour(st, bots, p)
        s[S_COLOUR] = c
        ev(st, EV_COLOUR, p, c, 0)
    if st.hand[p, HSIZE] == 0:
        s[S_WINNER] = p  # the card's effect still happens, as in round.py
    v = seat_after(st, p)
    skip = False
    if k == WILD_DRAW_FOUR:
        penalty_rl(st, v, 4)
        skip = True
    elif k < FIRST_WILD:
        f = KIND_FACE[k]
        if f == FACE_DRAW_TWO:
            penalty_rl(st, v, 2)
            skip = True
        elif f == FACE_SKIP:
            skip = True
        elif f == FACE_REVERSE:
            s[S_DIR] = -s[S_DIR]
            ev(st, EV_REVERSE, s[S_DIR], 0, 0)
            v = seat_after(st, p)
    if s[S_WINNER] >= 0:
        return
    if skip:
        ev(st, EV_SKIPPED, v, 0, 0)
        v = seat_after(st, v)
    s[S_CUR] = v


# ==================================================================== a round
@hot
def setup_round(st, r, deck, bots, gseed):
    s = st.s
    np_ = r[R_NP]
    st.hand[:np_, :] = 0
    s[:] = 0
    s[S_LOG_ON] = 1 if st.log.shape[0] > 1 else 0
    s[S_NP] = np_
    s[S_WINNER] = -1
    s[S_DIR] = 1
    s[S_RNG] = np.int64(gseed)
    n = r[R_DECK_N]
    for i in range(n):
        st.cards[PILE + i] = deck[i]
    s[S_DRAW_N] = n
    dealer = np_ - 1
    for _ in range(HAND_SIZE):
        for j in range(np_):
            p = (dealer + 1 + j) % np_
            k = take_from_pile(st)
            add_card(st, p, k)
            ev(st, EV_DEAL, p, k, 0)
    # first discard
    first = 0
    if r[R_FIRST_RULE] == FIRST_NUMBERS_ONLY:
        m = 0
        while True:
            k = take_from_pile(st)
            if k < FIRST_WILD and KIND_FACE[k] <= 9:
                break
            ev(st, EV_SET_ASIDE, k, 0, 0)
            st.cards[TMP + m] = k
            m += 1
        for i in range(m):
            put_in_pile(st, st.cards[TMP + i])
    else:
        while True:
            k = take_from_pile(st)
            if k != WILD_DRAW_FOUR:
                break
            ev(st, EV_SET_ASIDE, k, 0, 0)
            put_in_pile(st, k)
    s[S_TOP] = k
    ev(st, EV_FIRST, k, 0, 0)
    if k >= FIRST_WILD:
        if r[R_RLCARD]:  # the game picks the colour at random (round.py flip_top_card)
            c = below(st.s, 4)
            s[S_COLOUR] = c
            ev(st, EV_COLOUR, first, c, 0)
        else:
            name_colour(st, bots, first)
    else:
        s[S_COLOUR] = KIND_COLOUR[k]
        f = KIND_FACE[k]
        if f == FACE_SKIP:
            ev(st, EV_SKIPPED, first, 0, 0)
            first = 1 % np_
        elif f == FACE_REVERSE:
            s[S_DIR] = -1
            ev(st, EV_REVERSE, -1, 0, 0)
            first = dealer
        elif f == FACE_DRAW_TWO:
            draw_n(st, first, 2)
            if r[R_RLCARD] == 0:  # RLCard: seat 0 draws 2 and still plays first
                ev(st, EV_SKIPPED, first, 0, 0)
                first = 1 % np_
    s[S_CUR] = first
    s[S_FIRST] = first


def _make_play_round(house):
    """play_round_default (``house`` False) or play_round_house (True): see _make_play_turn.
    The default loop is inlined into play_round (as before the house rules existed)."""

    @(hot if house else inl)
    def play_round_(st, r, deck, pts, cum, bots, gseed):
        setup_round(st, r, deck, bots, gseed)
        s = st.s
        cap = r[R_TURN_CAP]
        while s[S_WINNER] < 0:
            if s[S_TURNS] >= cap:
                ev(st, EV_CAP, 0, 0, 0)
                break
            p = s[S_CUR]
            if house and s[S_PEN_N] > 0:  # stacking: p faces a pending penalty
                penalty_action(st, r, pts, bots, p)
            else:
                s[S_TURNS] += 1
                ev(st, EV_TURN, p, s[S_TURNS], 0)
                if s[S_SPIN_NEXT]:
                    s[S_SPIN_NEXT] = 0
                    spin_2005(st, r, pts, cum, bots, p)
                elif house:
                    play_turn_house(st, r, pts, cum, bots, p)
                else:
                    play_turn(st, r, pts, cum, bots, p)
            apply_penalties(st)
            if r[R_CHECK]:
                check_invariants(st, r, deck)
        w = s[S_WINNER]
        if w >= 0:
            ev(st, EV_WIN, w, winner_points(st, pts, w), 0)

    return play_round_


#: one round under the default rules / with house rules (play_round picks one per round)
play_round_default = _make_play_round(False)
play_round_house = _make_play_round(True)


@hot
def play_round(st, r, deck, pts, cum, bots, gseed):
    """Play one round from a fresh deal to a winner or the turn cap."""
    if r[R_RLCARD]:
        play_round_rl(st, r, deck, pts, bots, gseed)
    elif r[R_HOUSE]:
        play_round_house(st, r, deck, pts, cum, bots, gseed)
    else:
        play_round_default(st, r, deck, pts, cum, bots, gseed)


@hot
def play_round_rl(st, r, deck, pts, bots, gseed):
    """play_round under rlcard (one action a turn, no UNO penalties, no wheel)."""
    setup_round(st, r, deck, bots, gseed)
    s = st.s
    cap = r[R_TURN_CAP]
    while s[S_WINNER] < 0:
        if s[S_TURNS] >= cap:
            ev(st, EV_CAP, 0, 0, 0)
            break
        p = s[S_CUR]
        s[S_TURNS] += 1
        ev(st, EV_TURN, p, s[S_TURNS], 0)
        play_turn_rl(st, pts, bots, p)
        if r[R_CHECK]:
            check_invariants(st, r, deck)
    w = s[S_WINNER]
    if w >= 0:
        ev(st, EV_WIN, w, winner_points(st, pts, w), 0)


@hot
def check_invariants(st, r, deck):
    """Count a violation unless every card of the deck is in exactly one place and every
    seat's colour counts and size agree with its cards."""
    s = st.s
    np_ = s[S_NP]
    bad = 0
    # per-kind totals: deck minus (hands + draw pile + discards + top) must be all zero;
    # TMP is free between actions, use it as the tally
    t = st.cards
    for k in range(N_KINDS):
        t[TMP + k] = 0
    for i in range(r[R_DECK_N]):
        t[TMP + deck[i]] += 1
    for i in range(s[S_DRAW_N]):
        t[TMP + t[PILE + i]] -= 1
    for i in range(s[S_DISC_N]):
        t[TMP + t[DISC + i]] -= 1
    if s[S_TOP_OUT] == 0:  # rlcard: a reshuffle can put the top card into the draw pile
        t[TMP + s[S_TOP]] -= 1
    for p in range(np_):
        size = 0
        for c in range(5):
            n = 0
            for k in range(N_KINDS):
                if KIND_COLOUR[k] == c:
                    n += st.hand[p, k]
            if n != st.hand[p, CC + c]:
                bad += 1
            size += n
        if size != st.hand[p, HSIZE]:
            bad += 1
        for k in range(N_KINDS):
            if st.hand[p, k] < 0:
                bad += 1
            t[TMP + k] -= st.hand[p, k]
    for k in range(N_KINDS):
        if t[TMP + k] != 0:
            bad += 1
    if s[S_COLOUR] < 0 or s[S_COLOUR] > 3:
        bad += 1
    if s[S_PEN_N] < 0:
        bad += 1
    s[S_VIOLATIONS] += bad


@hot
def hand_points(st, pts, p):
    t = 0
    for k in range(N_KINDS):
        t += st.hand[p, k] * pts[k]
    return t


@hot
def winner_points(st, pts, w):
    t = 0
    for q in range(st.s[S_NP]):
        if q != w:
            t += hand_points(st, pts, q)
    return t


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
    for q in range(np_):
        tot += st.hand[q, DRAWN]
        hp = hand_points(st, pts, q)
        left += hp
        out[i, N_OUT_FIXED + q] = st.hand[q, DRAWN]
        out[i, N_OUT_FIXED + np_ + q] = st.hand[q, HSIZE]
        out[i, N_OUT_FIXED + 2 * np_ + q] = hp
    out[i, O_WINNER_POINTS] = left if w >= 0 else 0  # the winner's own hand is empty
    out[i, O_CARDS_DRAWN] = tot
    out[i, O_FAILED] = s[S_FAILED]
    out[i, O_VIOLATIONS] = s[S_VIOLATIONS]
    nsp = 0
    for j in range(sp.N_SPACES):
        out[i, N_OUT_FIXED + 3 * np_ + j] = st.s[S_SPIN0 + j]
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


@njit(cache=True, nogil=True)
def play_chunk(r, deck, pts, cum, bots, seed, game0, out, seeds, rotate):
    """Play games game0 .. game0+len(out)-1; fill ``out`` and ``seeds``; return spin records
    (int64[m, N_SPIN_FIELDS], game column = global game index). ``rotate``: see
    ``seat_bots``."""
    st = new_state(r[R_TURN_CAP], 0)
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
        play_round(st, r, deck, pts, cum, seated, gs)
        write_row(st, pts, out, i)
        ns = st.s[S_NSPIN]
        if ns > 0:
            if m + ns > spins.shape[0]:
                bigger = np.empty((2 * (m + ns), N_SPIN_FIELDS), np.int64)
                bigger[:m] = spins[:m]
                spins = bigger
            for j in range(ns):
                for f in range(N_SPIN_FIELDS):
                    spins[m + j, f] = st.spinrec[j, f]
                spins[m + j, P_GAME] = g
            m += ns
    return spins[:m]


@hot
def seat_bots(bots, g, seated):
    """Rotated seating of game g: seat s gets the bot of player (s + g) mod N, so that the
    deal passes one seat clockwise from game to game, as in a match."""
    n = bots.shape[0]
    for s in range(n):
        src = (s + g) % n
        for j in range(bots.shape[1]):
            seated[s, j] = bots[src, j]


@njit(cache=True)
def trace_game(r, deck, pts, cum, bots, seed, game, log_rows, rotate):
    """Play one game with the event log on; returns (log, state) for inspection."""
    st = new_state(r[R_TURN_CAP], log_rows)
    gs = game_seed(U64(seed), U64(game))
    seated = bots.copy()
    if rotate:
        seat_bots(bots, game, seated)
    play_round(st, r, deck, pts, cum, seated, gs)
    return st.log[:st.s[S_LOG_N]].copy(), st
