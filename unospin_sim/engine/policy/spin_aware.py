"""Strategy ``spin_aware``: values its Spin cards by what the edition's wheel, with its
weights, does to the player who spins, and plays or holds them accordingly; its wheel choices
are aimed at the leader (docs/BOTS.md).

The *spin value* is the expected change of the spinner's hand size (cards) over the wheel's
spaces weighted by ``cum`` (estimates per space below, from what the deciding seat may know:
its own hand, every hand's size). In 2005 the spinner is the next player, whose colours it
cannot see: a Discard Color there is estimated at the expected largest colour count of a
hand of that size dealt from the run's deck (:func:`expected_most`, computed once per rule set
by ``encode.most_table`` and read from ``cum[CUM_MOST + h]``), not read from the hidden hand:
the deck's composition is public. In 2025 the player of the Spin card spins: a Spin card scores
``SPIN_WEIGHT x (-value)`` on top of heuristic's card score (it is played when the wheel is
expected to shrink its own hand, held otherwise). In 2005 the NEXT player spins instead of
taking a turn: the card scores ``SPIN_WEIGHT x (value + 1)`` (the lost turn counts one card)
for the next player, doubled when the next player is the leader (fewest cards of the
others).

The functions read the state; they change nothing else.
"""

from math import comb

import numpy as np

from ...rules import space_codes as sp
from ...rules.card_codes import FACE_SKIP, KIND_FACE, KIND_SPINS, WILD_DRAW_FOUR
from ..bot_codes import B_ATTACK, B_HOLD_WILDS, B_NAME_COLOUR, B_VALUE_WHEEL
from ..jit import hot, inl
from ..layout import CC, CUM_MOST, HSIZE, MAX_CARDS, R_PROGRAMS, R_WHEEL, S_DIR, S_NP
from ..piles import fewest_other, seat_after, seat_from
from ..program_codes import (
    DISCARD_COLOUR,
    DISCARD_NUMBER,
    DISCARD_ONE,
    F_A,
    F_B,
    F_OP,
    F_WHO,
    OP_DISCARD,
    OP_DRAW,
    OP_DRAW_UNTIL,
    OP_GIVE,
    OP_RACE,
    OP_REVERSE,
    OP_SWAP_HANDS,
    OP_TRADE_HANDS,
    OP_WAR,
    STEP_W,
    TRADE_AGAINST,
    TRADE_CCW,
    TRADE_PLAY,
    WHO_CHOSEN,
    WHO_LEADER,
    WHO_NEXT,
    WHO_OTHER,
    WHO_PREVIOUS,
    WHO_SPINNER,
)
from . import heuristic as H
from . import random_bot as R
from .scan import best_kind

#: points of card score per card of expected hand change
SPIN_WEIGHT = 15.0
#: expected cards drawn by a draw-until-colour space (a colour is about a quarter of the pile;
#: a wild stops the 2005 draws too)
DRAW_UNTIL_2005 = 2.5
DRAW_UNTIL_2025 = 3.5


def expected_most(per_colour, wilds, largest):
    """The expected largest colour count of a hand of h cards dealt from a deck of four
    colours of ``per_colour`` cards and ``wilds`` wilds, for h = 0 .. ``largest`` (a hand
    larger than the deck counts as the whole deck): E[max] = sum over m of P(max > m),
    P(max <= m) = [x^h] (sum_{j<=m} C(per_colour, j) x^j)^4 (1 + x)^wilds / C(N, h).

    Plain Python, called at encode time (``encode.most_table``), not in the kernel: 1.97
    for 4 cards and 3.27 for 8 of the published classic and 2005 deck (25, 8).

    Parameters
    ----------
    per_colour, wilds : int
        The deck's cards of each colour and its wild cards.
    largest : int
        The largest hand size in the table.

    Returns
    -------
    numpy.ndarray
        float64[largest + 1], indexed by the hand size.
    """
    n = 4 * per_colour + wilds
    out = np.zeros(largest + 1)
    wild_poly = [comb(wilds, j) for j in range(wilds + 1)]
    for m in range(per_colour):
        poly = [1]
        colour = [comb(per_colour, j) for j in range(m + 1)]
        for _ in range(4):
            nxt = [0] * (len(poly) + m)
            for i, a in enumerate(poly):
                for j, b in enumerate(colour):
                    nxt[i + j] += a * b
            poly = nxt
        for h in range(largest + 1):
            hh = min(h, n)
            ways = sum(
                poly[hh - j] * wild_poly[j] for j in range(wilds + 1) if 0 <= hh - j < len(poly)
            )
            out[h] += 1.0 - ways / comb(n, hh)
    return out


@inl
def named_seat(st, q, who, other, d):
    """The one seat a program's player word names, read from the spinner q in direction
    d (``other``: the other party of the last step; -1 for ``others`` and ``chosen``)."""
    if who == WHO_SPINNER:
        return q
    if who == WHO_NEXT:
        return seat_from(st, q, 1, d)
    if who == WHO_PREVIOUS:
        return seat_from(st, q, -1, d)
    if who == WHO_LEADER:
        return fewest_other(st, q, d)
    if who == WHO_OTHER:
        return other
    return -1


@hot
def program_change(st, r, q, space, h, most, is2005):
    """The estimated change of seat q's hand size (cards) when q spins global space id
    ``space``, a wheel program (engine/program.py), from the cards its steps move to or from
    q's hand: the sum of the steps' estimates, each read from the hands as they are now (h
    q's size, ``most`` its most held colour, as :func:`spin_value` has them). A draw of n:
    +n; a draw until a colour: DRAW_UNTIL_*; a discard of a colour: -most, of a number:
    -h/6, of one card: -1, down to k cards: -(h - k) when h > k; giving n cards: -min(n,
    h), receiving them: +n; swapping with a seat: its cards - h (a ``chosen`` seat is the
    chooser's fewest other hand, and q, choosing, takes it only when it is smaller); a
    trade: the cards of the hand q receives - h; a War or a race: -1/players; the other
    steps: 0. Steps on other seats count 0. The published spaces' programs give their
    named estimates in :func:`spin_value` (tests/test_variant_bots.py)."""
    n = st.s[S_NP]
    d = st.s[S_DIR]
    o = r[r[R_PROGRAMS] + 1 + space]
    other = -1
    acc = 0.0
    for i in range(r[o]):
        f = o + 1 + STEP_W * i
        op = r[f + F_OP]
        who = r[f + F_WHO]
        a = r[f + F_A]
        b = r[f + F_B]
        if op == OP_REVERSE:
            d = -d
        elif op == OP_WAR or op == OP_RACE:
            acc -= 1.0 / n
            other = -1
        elif op == OP_TRADE_HANDS:
            w = 1
            if a == TRADE_CCW:
                w = -1
            elif a == TRADE_PLAY:
                w = d
            elif a == TRADE_AGAINST:
                w = -d
            acc += st.hand[seat_from(st, q, -1, w), HSIZE] - h
            other = seat_from(st, q, 1, w)
        elif op == OP_GIVE or op == OP_SWAP_HANDS:
            p = named_seat(st, q, who, other, d)
            if p < 0:
                continue
            t = fewest_other(st, p, d) if a == WHO_CHOSEN else named_seat(st, q, a, other, d)
            if t < 0 or t == p:
                continue
            if op == OP_GIVE:
                if p == q:
                    acc -= min(b, h)
                elif t == q:
                    acc += b
            elif p == q:
                got = st.hand[t, HSIZE] + 0.0
                if a == WHO_CHOSEN and got > h:
                    got = h
                acc += got - h
            elif t == q:
                acc += st.hand[p, HSIZE] - h
            other = t
        elif named_seat(st, q, who, other, d) == q:
            if op == OP_DRAW:
                acc += a
            elif op == OP_DRAW_UNTIL:
                acc += DRAW_UNTIL_2005 if is2005 else DRAW_UNTIL_2025
            elif op == OP_DISCARD:
                if a == DISCARD_COLOUR:
                    acc -= most
                elif a == DISCARD_NUMBER:
                    acc -= h / 6.0
                elif a == DISCARD_ONE:
                    acc -= 1.0
                elif h > b:
                    acc -= h - b
    return acc


@hot
def spin_value(st, r, cum, is2005, q, own):
    """Expected change of seat q's hand size (cards) if q spins the wheel now, as the
    deciding seat estimates it: ``own`` when q is the deciding seat (its hand is known),
    else from q's hand size only (and the run's deck, ``cum[CUM_MOST + h]``). A variant
    file's own spaces (ids from ``N_PUBLISHED``) are valued from their steps
    (:func:`program_change`)."""
    h = st.hand[q, HSIZE]
    np_ = st.s[S_NP]
    most = 0.0
    if own:
        for c in range(4):
            if st.hand[q, CC + c] > most:
                most = st.hand[q, CC + c] + 0.0
    else:
        most = cum[CUM_MOST + min(h, MAX_CARDS)]
    smallest = h
    for o in range(np_):
        if o != q and st.hand[o, HSIZE] < smallest:
            smallest = st.hand[o, HSIZE]
    tot = 0.0
    acc = 0.0
    prev = 0.0
    # the published spaces, by name
    for i in range(sp.N_PUBLISHED):
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
                d = -most
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
                d = -most
            elif i == sp.SWAP_HANDS:
                d = smallest - h + 0.0
            else:
                d = 0.0
        tot += w
        acc += w * d
    # a variant file's own spaces, from their steps (none weighs on a published wheel)
    hf = h + 0.0
    first = sp.N_PUBLISHED if cum[sp.N_SPACES - 1] > prev else sp.N_SPACES
    for i in range(first, sp.N_SPACES):
        w = cum[i] - prev
        prev = cum[i]
        if w <= 0.0:
            continue
        tot += w
        acc += w * program_change(st, r, q, i, hf, most, is2005)
    if tot <= 0.0:
        return 0.0
    return acc / tot


@inl
def spin_bonus(st, r, cum, wheel, p, nxt):
    """The score added to a Spin card (Wild Spin too) of seat p, next player nxt, under a
    wheel (``wheel`` != WHEEL_NONE): the module docstring's spin bonus."""
    if wheel == sp.WHEEL_2005:
        bonus = SPIN_WEIGHT * (spin_value(st, r, cum, True, nxt, False) + 1.0)
        leader = True
        for o in range(st.s[S_NP]):
            if o != p and o != nxt and st.hand[o, HSIZE] < st.hand[nxt, HSIZE]:
                leader = False
        if leader:
            bonus *= 2.0
        return bonus
    return -SPIN_WEIGHT * spin_value(st, r, cum, False, p, True)


#: what ``choose_card`` scores a wild for, in ``ctx``'s ``mode``: attacking the next player
#: (it holds <= 2 cards and the knob attack is on), holding wilds back (the knob hold_wilds),
#: neither (a wild scored as any card, for its points)
MODE_PLAIN = 0
MODE_HOLD = 1
MODE_ATTACK = 2


@inl
def coloured_score(st, pts, p, k, c, n, ctx):
    """Score of coloured kind k, colour c, n cards of it held, for scan.best_kind:
    heuristic's card score, plus the spin bonus for a Spin card under a wheel. ``ctx``:
    (bonus, have_bonus, mode, wheel, r, cum, nxt); ``mode``: MODE_*; ``wheel``: the rules'
    wheel, WHEEL_NONE when no spin is valued (no wheel, or the knob value_wheel off); the
    bonus is computed at the first Spin card, ``have_bonus`` then True."""
    bonus, have_bonus, mode, wheel, r, cum, nxt = ctx
    sc = pts[k] + 2.0 * n
    if KIND_FACE[k] >= FACE_SKIP and mode == MODE_ATTACK:
        sc += 100.0
    if wheel != sp.WHEEL_NONE and KIND_SPINS[k]:
        if not have_bonus:
            have_bonus = True
            bonus = spin_bonus(st, r, cum, wheel, p, nxt)
            ctx = (bonus, have_bonus, mode, wheel, r, cum, nxt)
        sc += bonus
    return sc, ctx


@inl
def wild_score(st, pts, p, k, ctx):
    """Score of wild kind k (``ctx``: see coloured_score), for scan.best_kind: heuristic's
    card score (its points with the knob hold_wilds off, unless attacking); a Wild Spin under
    a wheel is played for its spin, not kept as a wild: its points (250 when attacking) plus
    the spin bonus."""
    bonus, have_bonus, mode, wheel, r, cum, nxt = ctx
    if mode == MODE_ATTACK:
        sc = 300.0 if k == WILD_DRAW_FOUR else 250.0
    elif mode == MODE_HOLD:
        sc = -200.0 if k == WILD_DRAW_FOUR else -100.0
    else:
        sc = pts[k] + 0.0
    if wheel != sp.WHEEL_NONE and KIND_SPINS[k]:
        if not have_bonus:
            have_bonus = True
            bonus = spin_bonus(st, r, cum, wheel, p, nxt)
            ctx = (bonus, have_bonus, mode, wheel, r, cum, nxt)
        if mode != MODE_ATTACK:
            sc = pts[k] + 0.0
        sc += bonus
    return sc, ctx


@inl
def choose_card(st, r, pts, cum, bots, p, wd4_ok):
    """heuristic's card score, plus for a Spin card (Wild Spin too) the spin bonus of the
    module docstring (computed once, at the first legal Spin card) on the rules' wheel
    (``r[R_WHEEL]``, spaces.WHEEL_*); -1 when no card is legal. Scan order and early exits:
    scan.best_kind. Its skill knobs (restricted play): ``attack=0`` scores every card as if
    the next player held more than 2 cards, ``value_wheel=0`` adds no spin bonus,
    ``hold_wilds=0`` scores a wild as any card (its points) unless attacking."""
    nxt = seat_after(st, p)
    if st.hand[nxt, HSIZE] <= 2 and bots[p, B_ATTACK] != 0:
        mode = MODE_ATTACK
    elif bots[p, B_HOLD_WILDS] != 0:
        mode = MODE_HOLD
    else:
        mode = MODE_PLAIN
    wheel = r[R_WHEEL] if bots[p, B_VALUE_WHEEL] != 0 else sp.WHEEL_NONE
    ctx = (0.0, False, mode, wheel, r, cum, nxt)
    return best_kind(st, pts, p, wd4_ok, coloured_score, wild_score, ctx, -1e18)[0]


@inl
def choose_colour(st, bots, p):
    """heuristic's colour (the one it holds most of); knob ``name_colour=0``: a colour drawn
    uniformly from the game's stream, as ``random`` names it."""
    if bots[p, B_NAME_COLOUR] == 0:
        return R.choose_colour(st, p)
    return H.choose_colour(st, p)


# ==================================================================== its decisions
# One function per question of policy.decisions.DECISIONS, with the question's parameters;
# a question not answered below is answered above, under its name.

# everything else: heuristic's choice (rlcard has no wheel, so no Spin card to value)
choose_card_rl = H.choose_card_rl
colour_to_discard = H.colour_to_discard
colour_to_draw = H.colour_to_draw
number_to_discard = H.number_to_discard
almost_uno_keep = H.almost_uno_keep
race_discard = H.race_discard
card_to_give = H.card_to_give
draw_two_to_stack = H.draw_two_to_stack
swap_target = H.swap_target
web_swing_target = H.web_swing_target
jumps_in = H.jumps_in
rl_action = H.rl_action
DRAW_SHOWS = H.DRAW_SHOWS
