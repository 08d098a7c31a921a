"""Legality and hand queries: what may be played, and what a hand holds. Pure: no writes,
no random numbers."""

from ..rules.card_codes import (
    FIRST_WILD,
    KIND_COLOUR,
    KIND_FACE,
    KINDS_PER_COLOUR,
    MAX_SPIN_NUMBER,
    N_KINDS,
    SPIN_OFFSET,
    WILD_DRAW_FOUR,
)
from .jit import hot
from .layout import CC, R_WILD_MATCHES, S_COLOUR, S_CUR, S_DIR, S_JUMP_BY, S_NP, S_TEAMS, S_TOP


@hot
def face_kind(c, f, spin):
    """Kind of colour c with face f (spin=1: the Spin card of number f)."""
    if f <= 9 and not spin:
        return c * KINDS_PER_COLOUR + f
    # Spin 1-9 follow the numbers, and the actions (faces 10-12) the Spin cards
    return c * KINDS_PER_COLOUR + SPIN_OFFSET - 1 + f


@hot
def other_wilds(st, p):
    """Wild cards in hand that are not Wild Draw Four."""
    return st.hand[p, CC + 4] - st.hand[p, WILD_DRAW_FOUR]


@hot
def wd4_legal(st, r, p):
    """May seat p legally play a Wild Draw Four now (no card of the colour in play; under
    wild_matches_colour, no other wild either)?"""
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
                if 1 <= f <= MAX_SPIN_NUMBER:
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
                if 1 <= f <= MAX_SPIN_NUMBER:
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


@hot
def partner_of(st, p):
    """partners: seat p's partner (the seat opposite), -1 without teams."""
    t = st.s[S_TEAMS]
    if t == 0:
        return -1
    return (p + t) % st.s[S_NP]


@hot
def turn_distance(st, a, b):
    """Seats from a to b in the direction of play (0 when a == b)."""
    np_ = st.s[S_NP]
    return ((b - a) * st.s[S_DIR] + np_) % np_


@hot
def jump_passes_partner(st, q):
    """jump_in: would seat q, jumping in now, take the turn of its partner? Jumping in takes
    the turns of the seats from the one to act (S_CUR) up to q, in the direction of play;
    a seat between the card's player (S_JUMP_BY) and the seat to act (one passed over by
    a Skip or a Draw Two) takes nobody's turn. False without teams."""
    pp = partner_of(st, q)
    if pp < 0:
        return False
    cur = st.s[S_CUR]
    if turn_distance(st, st.s[S_JUMP_BY], q) < turn_distance(st, st.s[S_JUMP_BY], cur):
        return False
    return turn_distance(st, cur, pp) < turn_distance(st, cur, q)


@hot
def number_count(st, p, v):
    """Cards of number v in seat p's hand (Spin cards count by their number)."""
    n = 0
    for c in range(4):
        n += st.hand[p, face_kind(c, v, 0)]
        if 1 <= v <= MAX_SPIN_NUMBER:
            n += st.hand[p, face_kind(c, v, 1)]
    return n


@hot
def colour_points(st, pts, p, c):
    """Points of seat p's cards of colour c."""
    t = 0
    base = c * KINDS_PER_COLOUR
    for k in range(base, base + KINDS_PER_COLOUR):
        t += st.hand[p, k] * pts[k]
    return t
