"""Card moves and seats: hands, the draw pile, the discard pile, whole hands changing seats.

The draw pile is unordered (``layout.PILE``): a draw takes a uniformly random slot and moves
the last card into it, which has the law of drawing the top of a shuffled pile; putting a
card back "at a random place" is an append. Nothing here asks a player anything.
"""

from ..rules.card_codes import KIND_COLOUR, N_KINDS
from .events import ev
from .jit import hot, inl
from .layout import (
    CC,
    DISC,
    DRAWN,
    EV_DRAW,
    EV_DRAW_FAIL,
    EV_RESHUFFLE,
    HAND_FIELDS,
    HSIZE,
    PILE,
    S_COLOUR,
    S_DIR,
    S_DISC_N,
    S_DRAW_N,
    S_FAILED,
    S_NP,
    S_TOP,
    TAKEN,
    VOID,
    VOID_AT,
)
from .rng import below


# ==================================================================== one card
@hot
def add_card(st, p, k):
    """Seat p takes card k (what its draws proved, layout.VOID, is no longer true of every
    card it holds: TAKEN counts the takes)."""
    st.hand[p, k] += 1
    st.hand[p, CC + KIND_COLOUR[k]] += 1
    st.hand[p, HSIZE] += 1
    st.hand[p, TAKEN] += 1


@hot
def remove_card(st, p, k):
    st.hand[p, k] -= 1
    st.hand[p, CC + KIND_COLOUR[k]] -= 1
    st.hand[p, HSIZE] -= 1


@hot
def known_void(st, p):
    """What seat p's last draw proved of every card it holds (layout.VOID bits; 0 when it
    has taken a card since)."""
    return st.hand[p, VOID] if st.hand[p, VOID_AT] == st.hand[p, TAKEN] else 0


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
def pile_to_hand(st, p):
    """Seat p draws a card from the (non-empty) draw pile; returns its kind."""
    k = take_from_pile(st)
    add_card(st, p, k)
    st.hand[p, DRAWN] += 1
    ev(st, EV_DRAW, p, k, 0)
    return k


@inl
def draw_card(st, p):
    """Seat ``p`` draws one card; returns its kind, or -1 when there is nothing to draw.
    An empty draw pile is first refilled with the discards under the top card."""
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


@inl
def seat_from(st, s, k, d):
    """The seat k seats from s in direction d."""
    n = st.s[S_NP]
    return ((s + k * d) % n + n) % n


@hot
def fewest_other(st, p, d):
    """The seat other than p holding the fewest cards, the nearest to p in turn order
    (direction d) on ties: a wheel program's ``leader`` read from p."""
    best = -1
    for k in range(1, st.s[S_NP]):
        x = seat_from(st, p, k, d)
        if best < 0 or st.hand[x, HSIZE] < st.hand[best, HSIZE]:
            best = x
    return best


# ==================================================================== whole hands
@hot
def swap_rows(st, a, b):
    """Exchange the hands of seats a and b (cards, colour counts, size)."""
    h = st.hand
    for k in range(HAND_FIELDS):
        t = h[a, k]
        h[a, k] = h[b, k]
        h[b, k] = t


@hot
def pass_hands(st, d):
    """Every hand moves one seat in direction d: d = +1, seat q gets the hand of seat q - 1;
    d = -1, seat q gets the hand of seat q + 1."""
    np_ = st.s[S_NP]
    if d > 0:
        for q in range(np_ - 1, 0, -1):
            swap_rows(st, q, q - 1)
    else:
        for q in range(np_ - 1):
            swap_rows(st, q, q + 1)


# ==================================================================== points
@hot
def hand_points(st, pts, p):
    t = 0
    for k in range(N_KINDS):
        t += st.hand[p, k] * pts[k]
    return t


@hot
def winner_points(st, pts, w):
    """Points the round's winner w scores: the cards left in every other hand."""
    t = 0
    for q in range(st.s[S_NP]):
        if q != w:
            t += hand_points(st, pts, q)
    return t
