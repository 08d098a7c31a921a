"""The 2005 wheel's two contests, War and the UNO Spin race: the spaces of ``wheel2005`` and
the steps ``war`` and ``uno_spin_race`` of a wheel program (``program``) play them."""

from ..rules.card_codes import MAX_SPIN_NUMBER
from .calls import uno_check
from .events import ev
from .jit import hot
from .layout import (
    B_REFLEX,
    EV_RACE_WIN,
    EV_WAR_SHOW,
    EV_WHEEL_DISCARD,
    HSIZE,
    MAX_PLAYERS,
    S_NP,
    S_WINNER,
    TMP,
    WAR,
)
from .legal import face_kind, number_count
from .piles import remove_card, set_top
from .rng import below, unif
from .wheel import count_discards


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
def race_winner(st, bots):
    """The UNO Spin race: the winner, a player drawn by reflex weight."""
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
    return w
