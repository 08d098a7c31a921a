"""The 2005 wheel: after a Spin card, the NEXT player spins instead of taking a turn.

Spaces (``rules/spaces.py``): Almost UNO, Discard Number, Discard Color, Draw until red /
blue, Show Hand, War, UNO Spin (the race) and Trade Hands. Choices are the policy's.
"""

from ..rules import space_codes as sp
from ..rules.card_codes import KINDS_PER_COLOUR, MAX_SPIN_NUMBER, N_KINDS
from . import policy
from .calls import uno_check
from .events import ev
from .exchange import trade_hands
from .jit import hot, inl
from .layout import (
    B_REFLEX,
    EV_NAME,
    EV_RACE_WIN,
    EV_SHOW_HAND,
    EV_WAR_SHOW,
    EV_WAR_WIN,
    EV_WHEEL_DISCARD,
    HSIZE,
    MAX_PLAYERS,
    S_CUR,
    S_NP,
    S_WINNER,
    TMP,
    WAR,
)
from .legal import face_kind, number_count
from .piles import remove_card, seat_after, set_top
from .rng import below, unif
from .wheel import (
    begin_spin,
    count_discards,
    draw_until_colour,
    end_spin,
    set_other,
    spin_wheel,
    wheel_discard_list,
)


@hot
def war(st):
    """War: every seat shows its highest number card; the highest wins, ties show again.
    Returns the winner seat or -1."""
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
def war_discards(st, bots, q):
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
                if 1 <= v <= MAX_SPIN_NUMBER:
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
def almost_uno(st, pts, bots, p):
    """Discard until two cards are left; the policy picks the two kept."""
    if st.hand[p, HSIZE] <= 2:
        return
    n = 0
    for k in range(N_KINDS):
        for _ in range(st.hand[p, k]):
            st.cards[TMP + n] = k
            n += 1
    policy.almost_uno_keep(st, pts, bots, p, n)
    wheel_discard_list(st, bots, p, n - 2)


@hot
def discard_number(st, bots, p):
    """Discard every card of a number the player names (Spin cards count by number)."""
    v = policy.number_to_discard(st, bots, p)
    ev(st, EV_NAME, p, 1, v)
    n = 0
    for c in range(4):
        for spin in range(2):
            if spin == 1 and not (1 <= v <= MAX_SPIN_NUMBER):
                continue
            k = face_kind(c, v, spin)
            for _ in range(st.hand[p, k]):
                st.cards[TMP + n] = k
                n += 1
    wheel_discard_list(st, bots, p, n)


@hot
def discard_color(st, pts, bots, p):
    """Discard every card of a colour the player names."""
    c = policy.colour_to_discard(st, pts, bots, p)
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
    st.cards[TMP + 0] = policy.race_discard(st, pts, bots, w)
    wheel_discard_list(st, bots, w, 1)
    return w


@inl
def seat_after_cw(st, p):
    """The seat clockwise of p (Trade Hands passes p's hand there)."""
    q = p + 1
    return 0 if q >= st.s[S_NP] else q


@inl
def spin_2005(st, r, pts, cum, bots, p):
    """Seat p spins the 2005 wheel instead of its turn. Sets S_CUR to who acts next."""
    space = spin_wheel(st, cum)
    begin_spin(st, p, space)
    nxt_from = p
    if space == sp.ALMOST_UNO:
        almost_uno(st, pts, bots, p)
    elif space == sp.DISCARD_NUMBER:
        discard_number(st, bots, p)
    elif space == sp.DISCARD_COLOR:
        discard_color(st, pts, bots, p)
    elif space == sp.DRAW_RED:
        draw_until_colour(st, r, p, 0)
    elif space == sp.DRAW_BLUE:
        draw_until_colour(st, r, p, 3)
    elif space == sp.SHOW_HAND:
        ev(st, EV_SHOW_HAND, p, 0, 0)
    elif space == sp.WAR:
        w = war(st)
        ev(st, EV_WAR_WIN, w, 0, 0)
        set_other(st, w)
        if w >= 0:
            war_discards(st, bots, w)
            nxt_from = w
    elif space == sp.UNO_SPIN:
        nxt_from = uno_spin_race(st, pts, bots)
        set_other(st, nxt_from)
    elif space == sp.TRADE_HANDS:
        trade_hands(st, bots)
        set_other(st, seat_after_cw(st, p))
    end_spin(st, p)
    st.s[S_CUR] = seat_after(st, nxt_from)


@hot
def spin_2005_call(st, r, pts, cum, bots, p):
    """:func:`spin_2005` as a called function, compiled once: the house-rule and search
    loops and the rule tests call it; the default round loop inlines ``spin_2005``."""
    spin_2005(st, r, pts, cum, bots, p)
