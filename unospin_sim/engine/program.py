"""The kernel's interpreter of wheel programs (docs/WHEEL_PROGRAMS.md).

A wheel space whose program is in the rule array's table (``program_codes``) runs it here
instead of its compiled effect: ``wheel2005.spin_2005`` and ``wheel2025.spin_2025`` open the
spin's record and hand such a space to ``program_spin_2005`` / ``program_spin_2025``, which
call :func:`run_program` and close the record. The interpreter is one called function,
compiled once: a new program is data and compiles nothing.

Each step acts through the same primitives and policy questions as the compiled spaces, in
the same order, so a published space written as a program plays its compiled effect random
number for random number (tests/test_kernel_programs.py). Every player word is read from
the spinner: ``next`` and ``previous`` in the direction of play, ``others`` in turn order
from the next player, ``leader`` the other player holding the fewest cards (the nearest in
turn order on ties), ``chosen`` the actor's choice (the Swap Hands question), ``other`` the
other party of the last step that named one. A program stops as soon as a hand is empty:
that player has won the round.
"""

from ..rules.card_codes import KIND_COLOUR
from . import policy
from .calls import uno_check, uno_check_all
from .contests import race_winner, war, war_discards
from .events import ev
from .exchange import swap_hands, trade_hands
from .jit import hot, inl
from .layout import (
    EV_GIVE,
    EV_NAME,
    EV_REVERSE,
    EV_SHOW_HAND,
    EV_SWAP,
    EV_TRADE,
    EV_TWO_X,
    EV_WAR_WIN,
    EV_WHEEL_DISCARD,
    HSIZE,
    R_PROGRAMS,
    R_WILD_STOPS,
    S_DIR,
    S_NP,
    S_TWO_X,
    S_WINNER,
    TMP,
)
from .piles import (
    add_card,
    draw_card,
    fewest_other,
    pass_hands,
    remove_card,
    seat_from,
    swap_rows,
    to_discard_under,
)
from .program_codes import (
    DISCARD_COLOUR,
    DISCARD_NUMBER,
    DISCARD_ONE,
    F_A,
    F_B,
    F_C,
    F_OP,
    F_WHO,
    OP_DISCARD,
    OP_DRAW,
    OP_DRAW_UNTIL,
    OP_GIVE,
    OP_RACE,
    OP_REVERSE,
    OP_SHOW_HAND,
    OP_SKIP,
    OP_SWAP_HANDS,
    OP_TRADE_HANDS,
    OP_TWO_X,
    OP_WAR,
    PLACE_TOP,
    STEP_W,
    TRADE_AGAINST,
    TRADE_CCW,
    TRADE_PLAY,
    WHO_CHOSEN,
    WHO_LEADER,
    WHO_NEXT,
    WHO_OTHERS,
    WHO_PREVIOUS,
    WHO_SPINNER,
    WILD_STOPS_OPTION,
)
from .wheel import (
    count_discards,
    list_colour,
    list_hand,
    list_number,
    set_other,
    wheel_discard_list,
)


@inl
def has_program(r, space):
    """1 when global space id ``space`` runs a program (not NONE_SPACE, not compiled)."""
    t = r[R_PROGRAMS]
    return t > 0 and 0 <= space < r[t] and r[t + 1 + space] > 0


@hot
def one_player(st, s, who, other):
    """The one seat a player word other than ``others`` and ``chosen`` names, read from the
    spinner s; -1 for ``other`` when no step named one."""
    d = st.s[S_DIR]
    if who == WHO_SPINNER:
        return s
    if who == WHO_NEXT:
        return seat_from(st, s, 1, d)
    if who == WHO_PREVIOUS:
        return seat_from(st, s, -1, d)
    if who == WHO_LEADER:
        return fewest_other(st, s, d)
    return other  # WHO_OTHER


@hot
def after_shrink(st, bots, p):
    """Seat p's hand shrank: it wins with no card left, else the UNO check."""
    if st.hand[p, HSIZE] == 0:
        st.s[S_WINNER] = p
    else:
        uno_check(st, bots, p)


@hot
def discard_step(st, r, pts, bots, q, what, keep, place):
    """Seat q discards by a ``discard`` step (program_codes.OP_DISCARD's fields)."""
    if what == DISCARD_COLOUR:
        c = policy.colour_to_discard(st, pts, bots, q)
        ev(st, EV_NAME, q, 0, c)
        n = list_colour(st, q, c)
    elif what == DISCARD_NUMBER:
        v = policy.number_to_discard(st, bots, q)
        ev(st, EV_NAME, q, 1, v)
        n = list_number(st, q, v)
    elif what == DISCARD_ONE:
        if st.hand[q, HSIZE] == 0:
            return
        st.cards[TMP + 0] = policy.race_discard(st, pts, bots, q)
        n = 1
    else:  # DISCARD_DOWN_TO
        if st.hand[q, HSIZE] <= keep:
            return
        n = list_hand(st, q)
        policy.almost_uno_keep(st, pts, bots, q, n, keep)
        n -= keep
    if place == PLACE_TOP:
        wheel_discard_list(st, bots, q, n)
        return
    # under the pile: the top card and the colour in play stay
    for i in range(n):
        k = st.cards[TMP + i]
        remove_card(st, q, k)
        to_discard_under(st, k)
        ev(st, EV_WHEEL_DISCARD, q, k, 1)
    count_discards(st, q, n)
    if n > 0:
        after_shrink(st, bots, q)


@hot
def draw_until_step(st, r, bots, q, mask, chosen, stops):
    """Seat q draws until a card of a colour in bit mask ``mask`` (a wild: per ``stops``);
    ``chosen``: q first names one more colour (the Wild Color Draw question)."""
    if chosen:
        c = policy.colour_to_draw(st, bots, q)
        ev(st, EV_NAME, q, 0, c)
        mask |= 1 << c
    if stops == WILD_STOPS_OPTION:
        stops = r[R_WILD_STOPS]
    if stops:
        mask |= 1 << 4  # KIND_COLOUR of a wild
    while True:
        k = draw_card(st, q)
        if k < 0 or (mask >> KIND_COLOUR[k]) & 1:
            return


@hot
def give_step(st, pts, bots, a, t, n):
    """Seat a gives n cards of its choice (the card_to_give question, card by card) to
    seat t."""
    for _ in range(n):
        if st.hand[a, HSIZE] == 0:
            return
        k = policy.card_to_give(st, pts, bots, a, t)
        remove_card(st, a, k)
        add_card(st, t, k)
        ev(st, EV_GIVE, a, k, t)
        after_shrink(st, bots, a)
        if st.s[S_WINNER] >= 0:
            return


@hot
def trade_step(st, bots, s, way):
    """Every hand passes one seat; returns the seat that received the spinner s's hand."""
    d = 1
    if way == TRADE_CCW:
        d = -1
    elif way == TRADE_PLAY:
        d = st.s[S_DIR]
    elif way == TRADE_AGAINST:
        d = -st.s[S_DIR]
    if d == 1:
        trade_hands(st, bots)
    else:
        pass_hands(st, d)
        ev(st, EV_TRADE, -1, 0, 0)
        uno_check_all(st, bots)
    return seat_from(st, s, 1, d)


@hot
def run_program(st, r, pts, bots, s, space):
    """Seat s spun global space id ``space``: run its program.

    Returns
    -------
    (after, skips) : (int, int)
        The seat after which play continues (s, or the winner of a War or a race: 2005
        wheels) and the players a ``skip`` step passes over beyond it.
    """
    o = r[r[R_PROGRAMS] + 1 + space]
    after = s
    skips = 0
    other = -1
    for i in range(r[o]):
        f = o + 1 + STEP_W * i
        op = r[f + F_OP]
        who = r[f + F_WHO]
        a = r[f + F_A]
        b = r[f + F_B]
        c = r[f + F_C]
        d = st.s[S_DIR]
        if op == OP_DRAW or op == OP_DRAW_UNTIL or op == OP_DISCARD or op == OP_SHOW_HAND:
            # a step of each player of ``who``: others in turn order, else one seat
            many = st.s[S_NP] - 1 if who == WHO_OTHERS else 1
            for j in range(many):
                q = (
                    seat_from(st, s, j + 1, d)
                    if who == WHO_OTHERS
                    else one_player(st, s, who, other)
                )
                if q < 0:
                    break
                if op == OP_DRAW:
                    for _ in range(a):
                        draw_card(st, q)
                elif op == OP_DRAW_UNTIL:
                    draw_until_step(st, r, bots, q, a, b, c)
                elif op == OP_DISCARD:
                    discard_step(st, r, pts, bots, q, a, b, c)
                else:
                    ev(st, EV_SHOW_HAND, q, 0, 0)
                if st.s[S_WINNER] >= 0:
                    return after, skips
        elif op == OP_GIVE or op == OP_SWAP_HANDS:
            p = one_player(st, s, who, other)
            if p < 0:
                continue
            if op == OP_SWAP_HANDS and a == WHO_CHOSEN:
                t = swap_hands(st, bots, p)  # the Swap Hands question, as 2025's space
            else:
                t = (
                    policy.swap_target(st, bots, p)
                    if a == WHO_CHOSEN
                    else one_player(st, s, a, other)
                )
                if t < 0 or t == p:
                    continue
                if op == OP_GIVE:
                    give_step(st, pts, bots, p, t, b)
                else:
                    swap_rows(st, p, t)
                    ev(st, EV_SWAP, p, t, 0)
                    uno_check(st, bots, p)
                    uno_check(st, bots, t)
            other = t
            set_other(st, t)
        elif op == OP_TRADE_HANDS:
            other = trade_step(st, bots, s, a)
            set_other(st, other)
        elif op == OP_SKIP:
            skips += a
        elif op == OP_REVERSE:
            st.s[S_DIR] = -d
            ev(st, EV_REVERSE, -d, 0, 0)
        elif op == OP_TWO_X:
            st.s[S_TWO_X] = 1
            ev(st, EV_TWO_X, 1, 0, 0)
        elif op == OP_WAR:
            w = war(st)
            ev(st, EV_WAR_WIN, w, 0, 0)
            other = w
            set_other(st, w)
            after = s  # no winner: play continues after the spinner
            if w >= 0:
                war_discards(st, bots, w)
                after = w
        elif op == OP_RACE:
            w = race_winner(st, bots)
            other = w
            set_other(st, w)
            after = w
        if st.s[S_WINNER] >= 0:
            break
    return after, skips
