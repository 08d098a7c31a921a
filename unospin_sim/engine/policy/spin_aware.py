"""Strategy ``spin_aware``: values its Spin cards by what the edition's wheel, with its
weights, does to the player who spins, and plays or holds them accordingly; its wheel choices
are aimed at the leader (docs/BOTS.md).

The *spin value* is the expected change of the spinner's hand size (cards) over the wheel's
spaces weighted by ``cum`` (estimates per space below, from the spinner's hand and the
other hands now). In 2025 the player of the Spin card spins: a Spin card scores
``SPIN_WEIGHT x (-value)`` on top of heuristic's card score (it is played when the wheel is
expected to shrink its own hand, held otherwise). In 2005 the NEXT player spins instead of
taking a turn: the card scores ``SPIN_WEIGHT x (value + 1)`` (the lost turn counts one card)
for the next player, doubled when the next player is the leader (fewest cards of the
others).

The functions read the state; they change nothing else.
"""

from ...rules import spaces as sp
from ...rules.cards import FIRST_WILD, KIND_FACE, KIND_SPINS
from ..jit import hot, inl
from ..layout import CC, HSIZE, S_COLOUR, S_NP, S_TOP
from ..piles import seat_after
from .scan import N_SCAN, candidate, card_score

#: points of card score per card of expected hand change
SPIN_WEIGHT = 15.0
#: expected cards drawn by a draw-until-colour space (a colour is about a quarter of the pile;
#: a wild stops the 2005 draws too)
DRAW_UNTIL_2005 = 2.5
DRAW_UNTIL_2025 = 3.5


@hot
def spin_value(st, cum, is2005, q):
    """Expected change of seat q's hand size (cards) if q spins the wheel now."""
    h = st.hand[q, HSIZE]
    np_ = st.s[S_NP]
    most = 0
    for c in range(4):
        if st.hand[q, CC + c] > most:
            most = st.hand[q, CC + c]
    smallest = h
    for o in range(np_):
        if o != q and st.hand[o, HSIZE] < smallest:
            smallest = st.hand[o, HSIZE]
    tot = 0.0
    acc = 0.0
    prev = 0.0
    for i in range(cum.shape[0]):
        w = cum[i] - prev
        prev = cum[i]
        if w <= 0.0:
            continue
        if is2005:
            if i > sp.TRADE_HANDS:
                continue
            if i == sp.ALMOST_UNO:
                d = -(h - 2.0) if h > 2 else 0.0
            elif i == sp.DISCARD_NUMBER:
                d = -h / 6.0
            elif i == sp.DISCARD_COLOR:
                d = -most + 0.0
            elif i == sp.DRAW_RED or i == sp.DRAW_BLUE:
                d = DRAW_UNTIL_2005
            elif i == sp.WAR:
                d = -1.0 / np_
            elif i == sp.UNO_SPIN:
                d = -1.0 / np_
            elif i == sp.TRADE_HANDS:
                # every hand passes one seat clockwise: q receives the hand of seat q - 1
                d = st.hand[(q - 1 + np_) % np_, HSIZE] - h + 0.0
            else:
                d = 0.0
        else:
            if i < sp.COLOR_DRAW_RED:
                continue
            if i <= sp.WILD_COLOR_DRAW:
                d = DRAW_UNTIL_2025
            elif i == sp.COLOR_DISCARD:
                d = -most + 0.0
            elif i == sp.SWAP_HANDS:
                d = smallest - h + 0.0
            else:
                d = 0.0
        tot += w
        acc += w * d
    if tot <= 0.0:
        return 0.0
    return acc / tot


@inl
def choose_card(st, pts, cum, wheel, p, wd4_ok):
    """heuristic's card score, plus for a Spin card (Wild Spin too) the spin bonus of the
    module docstring; -1 when no card is legal. ``wheel``: spaces.WHEEL_* of the rules."""
    c = st.s[S_COLOUR]
    f = KIND_FACE[st.s[S_TOP]]
    nxt = seat_after(st, p)
    next_small = st.hand[nxt, HSIZE] <= 2
    bonus = 0.0
    have_bonus = False
    best = -1
    best_score = -1e18
    for j in range(N_SCAN):
        k = candidate(st, p, j, c, f, wd4_ok)
        if k < 0:
            continue
        sc = card_score(st, pts, p, k, next_small)
        if KIND_SPINS[k] and wheel != sp.WHEEL_NONE:
            if not have_bonus:
                have_bonus = True
                if wheel == sp.WHEEL_2005:
                    bonus = SPIN_WEIGHT * (spin_value(st, cum, True, nxt) + 1.0)
                    leader = True
                    for o in range(st.s[S_NP]):
                        if o != p and o != nxt and st.hand[o, HSIZE] < st.hand[nxt, HSIZE]:
                            leader = False
                    if leader:
                        bonus *= 2.0
                else:
                    bonus = -SPIN_WEIGHT * spin_value(st, cum, False, p)
            if k >= FIRST_WILD and not next_small:
                sc = pts[k] + 0.0  # a Wild Spin is played for its spin, not kept as a wild
            sc += bonus
        if sc > best_score:
            best_score = sc
            best = k
    return best
