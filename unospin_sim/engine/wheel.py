"""What both wheels share: spinning, the per-spin record, wheel discards, drawing until a
colour. The spaces themselves are in ``wheel2005`` and ``wheel2025``; their ids and weights
are rule data (``rules/spaces.py``, ``rules/editions.toml``)."""

from ..rules.card_codes import FIRST_WILD, KIND_COLOUR, KINDS_PER_COLOUR, MAX_SPIN_NUMBER, N_KINDS
from ..rules.space_codes import N_SPACES
from .calls import name_colour, uno_check
from .events import ev
from .jit import hot, inl
from .layout import (
    DRAWN,
    EV_SPIN,
    EV_WHEEL_DISCARD,
    HSIZE,
    P_DIR,
    P_DISCARDED,
    P_DRAWN,
    P_HAND_AFTER,
    P_HAND_BEFORE,
    P_LEADER,
    P_OTHER,
    P_SPACE,
    P_SPINNER,
    P_TURN,
    R_WILD_STOPS,
    S_DIR,
    S_DISCARDED,
    S_FORCE_AT,
    S_FORCE_SPACE,
    S_NP,
    S_NSPIN,
    S_SPIN0,
    S_SPINNER,
    S_TURNS,
    S_WINNER,
    TMP,
)
from .legal import face_kind
from .piles import draw_card, remove_card, set_top, to_discard_under
from .rng import below, unif


@inl
def spin_wheel(st, cum):
    """Space id drawn with the wheel's cumulative weights ``cum[:N_SPACES]`` (global space
    ids; the rest of ``cum`` is not the wheel's: layout.CUM_MOST).

    Paired replays: when this is the spin ``s[S_FORCE_AT] - 1`` of the round, the uniform is
    still drawn (the random stream stays aligned with the unforced round) and the forced
    space ``s[S_FORCE_SPACE]`` (possibly layout.NONE_SPACE) is returned."""
    u = unif(st.s) * cum[N_SPACES - 1]
    if st.s[S_FORCE_AT] == st.s[S_NSPIN] + 1:
        return st.s[S_FORCE_SPACE]
    # the first space whose running sum exceeds u: a chain of comparisons the compiler
    # unrolls, in which a published wheel's spin stops among the first N_PUBLISHED ids
    # (measured faster than a loop on the data that skips the 2005 ids of a 2025 wheel)
    for i in range(N_SPACES):
        if u < cum[i]:
            return i
    # u == total (impossible up to rounding): the last space with positive weight
    for i in range(N_SPACES - 1, -1, -1):
        if i == 0 or cum[i] > cum[i - 1]:
            return i
    return 0


@inl
def begin_spin(st, p, space):
    """Count the spin and open its record (layout.P_*). ``space`` may be layout.NONE_SPACE
    (a replay's control), counted in S_SPIN_NONE = S_SPIN0 - 1."""
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
        rec[i, P_OTHER] = -1
        rec[i, P_DIR] = s[S_DIR]
        leader = -1
        low = 1 << 30
        for q in range(s[S_NP]):
            h = st.hand[q, HSIZE]
            if h < low:
                low = h
                leader = q
            elif h == low:
                leader = -1
        rec[i, P_LEADER] = leader
    s[S_DISCARDED] = 0
    s[S_SPINNER] = p


@inl
def set_other(st, q):
    """Record the open spin's other party (layout.P_OTHER)."""
    i = st.s[S_NSPIN]
    if i < st.spinrec.shape[0]:
        st.spinrec[i, P_OTHER] = q


@inl
def end_spin(st, p):
    """Close the spin record opened by begin_spin."""
    s = st.s
    i = s[S_NSPIN]
    rec = st.spinrec
    if i < rec.shape[0]:
        rec[i, P_HAND_AFTER] = st.hand[p, HSIZE]
        rec[i, P_DRAWN] = st.hand[p, DRAWN] - rec[i, P_DRAWN]
        rec[i, P_DISCARDED] = s[S_DISCARDED]
        s[S_NSPIN] = i + 1


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


# ==================================================================== listing cards
# The discards of a wheel space are listed in st.cards[TMP:TMP + n], instance by instance,
# in kind order; each returns n.
@inl
def list_hand(st, p):
    """Every card of seat p's hand."""
    n = 0
    for k in range(N_KINDS):
        for _ in range(st.hand[p, k]):
            st.cards[TMP + n] = k
            n += 1
    return n


@inl
def list_colour(st, p, c):
    """Seat p's cards of colour c."""
    n = 0
    base = c * KINDS_PER_COLOUR
    for k in range(base, base + KINDS_PER_COLOUR):
        for _ in range(st.hand[p, k]):
            st.cards[TMP + n] = k
            n += 1
    return n


@inl
def list_number(st, p, v):
    """Seat p's cards of number v (Spin cards count by number), colour by colour."""
    n = 0
    for c in range(4):
        for spin in range(2):
            if spin == 1 and not (1 <= v <= MAX_SPIN_NUMBER):
                continue
            k = face_kind(c, v, spin)
            for _ in range(st.hand[p, k]):
                st.cards[TMP + n] = k
                n += 1
    return n
