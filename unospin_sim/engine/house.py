"""House rules (docs/HOUSE_RULES.md): draw_until_playable, force_play, seven_o,
special_wilds, stacking and jump_in (partners lives where its choices are: policy/, calls,
the Web Swing in turn.py; the team scores in results.py). Only ``play_round_house`` and ``play_turn_house`` reach this module; the default
rules' turn is compiled without it."""

from ..rules import space_codes as sp
from ..rules.card_codes import (
    DRAW_TWO_OFFSET,
    FIRST_WILD,
    KIND_SPINS,
    KINDS_PER_COLOUR,
    N_KINDS,
    WILD_DRAW_FOUR,
    WILD_SHUFFLE_HANDS,
    WILD_SWAP_HANDS,
)
from . import policy
from .calls import name_colour, uno_check, uno_check_all
from .events import ev
from .exchange import swap_hands, zero_pass
from .jit import hot
from .layout import (
    EV_BLUFF,
    EV_JUMP_IN,
    EV_PENALTY_ON,
    EV_PENALTY_TAKE,
    EV_PLAY,
    EV_REDEAL,
    EV_SHUFFLE,
    EV_SKIPPED,
    EV_STACK_CHALLENGE,
    EV_TURN,
    HAND_FIELDS,
    HSIZE,
    JUMPS,
    R_DRAW_TWO_N,
    R_JUMP_WILDS,
    R_STACKED_WD4,
    R_WD4_N,
    R_WHEEL,
    S_CUR,
    S_JUMP_BY,
    S_JUMP_KIND,
    S_JUMP_PLAY,
    S_JUMP_TURN,
    S_JUMPED,
    S_NP,
    S_PEN_BY,
    S_PEN_ILLEGAL,
    S_PEN_KIND,
    S_PEN_N,
    S_PEN_PASS,
    S_TOP,
    S_TURNS,
    S_WINNER,
    TMP,
)
from .legal import playable, wd4_legal
from .piles import add_card, draw_card, remove_card, seat_after, set_top
from .rng import below


# ==================================================================== draw_until_playable
@hot
def draw_until_playable(st, r, p):
    """Seat p, whose drawn card was not playable, draws on until a playable card (returned)
    or nothing is left to draw (-1)."""
    while True:
        k = draw_card(st, p)
        if k < 0:
            return -1
        if playable(st, k, wd4_legal(st, r, p)):
            return k


# ==================================================================== force_play
@hot
def forced_card(st, p, wd4_ok):
    """force_play: the strategy chose to draw while seat p holds a playable card; the rule
    plays the playable kind of lowest kind index instead (no random number drawn), -1 when
    nothing is playable. ``wd4_ok``: a Wild Draw Four is LEGAL (a bluff is never forced)."""
    for k in range(N_KINDS):
        if st.hand[p, k] > 0 and playable(st, k, wd4_ok):
            return k
    return -1


# ==================================================================== jump_in
# After a normal turn (or a jump-in) that played a card, the round going on and no stacking
# penalty pending, open_jump opens a window on the top card; before the next action the
# round loop asks jump_in_seat who, if anyone, plays the identical card out of turn.
@hot
def open_jump(st, r, p):
    """Seat p's turn played a card: the top card opens a jump-in window when it has a
    printed colour (a wild only under jump_in_wilds) and does not spin the wheel (no Spin
    card, no Wild Spin)."""
    k = st.s[S_TOP]
    if (k < FIRST_WILD or r[R_JUMP_WILDS]) and not (KIND_SPINS[k] and r[R_WHEEL] != sp.WHEEL_NONE):
        st.s[S_JUMP_KIND] = k + 1
        st.s[S_JUMP_BY] = p


@hot
def jump_in_seat(st, r, bots):
    """Close the open jump-in window: the first seat in turn order after the card's player,
    other than that player, the seat to act (S_CUR, who plays in its own turn) and a seat
    that already jumped in since the last turn, that holds the identical card (a Wild Draw
    Four only when it is legal for that seat: jump_in_wilds) and jumps in
    (policy.jumps_in). Returns that seat with S_JUMP_PLAY set (it then plays the card
    through the turn code), or -1. (Once per seat between two turns: without it a Draw Two
    could go round for ever when the draw pile is empty and the victim draws its copy back.)"""
    s = st.s
    k = s[S_JUMP_KIND] - 1
    s[S_JUMP_KIND] = 0
    if s[S_JUMP_TURN] != s[S_TURNS]:
        s[S_JUMP_TURN] = s[S_TURNS]
        s[S_JUMPED] = 0
    q = s[S_JUMP_BY]
    for _ in range(s[S_NP] - 1):
        q = seat_after(st, q)
        if (
            q != s[S_CUR]
            and st.hand[q, k] > 0
            and (s[S_JUMPED] >> q) & 1 == 0
            and (k != WILD_DRAW_FOUR or wd4_legal(st, r, q))
            and policy.jumps_in(st, bots, q, k)
        ):
            s[S_JUMP_PLAY] = k + 1
            s[S_JUMPED] |= 1 << q
            st.hand[q, JUMPS] += 1
            ev(st, EV_JUMP_IN, q, k, 0)
            return q
    return -1


# ==================================================================== seven_o, special wilds
@hot
def seven_o(st, bots, p, f):
    """After seat p played a 7 (f = 7) or a 0 (f = 0) that was not its last card: a 7 swaps
    hands with a seat of p's choice, a 0 passes every hand one seat in the direction of
    play. Then every seat left holding one card gets the UNO check."""
    if f == 7:
        swap_hands(st, bots, p)
    else:
        zero_pass(st, bots)


@hot
def special_wild(st, bots, p, k):
    """After seat p played Wild Swap Hands / Wild Shuffle Hands (not its last card; the
    colour is named): swap hands with a seat of p's choice, or collect every hand, shuffle
    and deal them one card at a time from the next seat in the direction of play. Then every
    seat left holding one card gets the UNO check."""
    if k == WILD_SWAP_HANDS:
        swap_hands(st, bots, p)
    elif k == WILD_SHUFFLE_HANDS:
        shuffle_hands(st, bots, p)


@hot
def shuffle_hands(st, bots, p):
    """Wild Shuffle Hands (see special_wild)."""
    np_ = st.s[S_NP]
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
    uno_check_all(st, bots)


# ==================================================================== stacking
# A Draw Two / Wild Draw Four starts a pending penalty (S_PEN_*) on the next seat instead of
# being drawn at once; when play reaches that seat, play_round calls penalty_action instead
# of a normal turn. Without stacking S_PEN_N stays 0 and none of this runs.
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
def stack_choice(st, r, bots, p):
    """The card kind seat p stacks on the pending penalty, -1 when it stacks none: a Wild
    Draw Four on a Wild Draw Four (under stacked_wd4=checked only when it is legal, or on
    the seat's bluff coin), else one of its Draw Twos (the policy's choice)."""
    h = st.hand
    if st.s[S_PEN_KIND] == WILD_DRAW_FOUR:
        if h[p, WILD_DRAW_FOUR] == 0:
            return -1
        if r[R_STACKED_WD4] or wd4_legal(st, r, p) or policy.bluffs(st, bots, p):
            return WILD_DRAW_FOUR
        return -1
    n = 0
    for c in range(4):
        n += h[p, c * KINDS_PER_COLOUR + DRAW_TWO_OFFSET]
    if n == 0:
        return -1
    return policy.draw_two_to_stack(st, bots, p, n)


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
def penalty_action(st, r, bots, p):
    """Seat p faces a pending penalty: it challenges the Wild Draw Four (its challenge
    probability), else stacks when it can (a counted turn), else takes the penalty (not a
    turn). Sets S_CUR."""
    s = st.s
    n = s[S_PEN_N]
    if s[S_PEN_KIND] == WILD_DRAW_FOUR:
        if policy.challenges(st, bots, p):
            by = s[S_PEN_BY]
            passes = s[S_PEN_PASS]
            if s[S_PEN_ILLEGAL]:
                ev(st, EV_STACK_CHALLENGE, p, by, 1)
                for _ in range(r[R_WD4_N]):
                    draw_card(st, by)
                n -= r[R_WD4_N]
                passes -= 1
            else:
                ev(st, EV_STACK_CHALLENGE, p, by, 0)
                n += 2
            take_penalty(st, p, n, passes)
            return
    k = stack_choice(st, r, bots, p)
    if k < 0:
        take_penalty(st, p, n, s[S_PEN_PASS])
        return
    s[S_TURNS] += 1
    ev(st, EV_TURN, p, s[S_TURNS], 0)
    bluff = 0
    if k == WILD_DRAW_FOUR and not r[R_STACKED_WD4] and not wd4_legal(st, r, p):
        bluff = 1
        ev(st, EV_BLUFF, p, 0, 0)
    remove_card(st, p, k)
    set_top(st, k)
    ev(st, EV_PLAY, p, k, 0)
    if k == WILD_DRAW_FOUR:
        name_colour(st, bots, p)
        n += r[R_WD4_N]
    else:
        n += r[R_DRAW_TWO_N]
    v = seat_after(st, p)
    if st.hand[p, HSIZE] == 0:  # won: the next player still draws the whole penalty
        s[S_WINNER] = p
        s[S_PEN_N] = 0
        for _ in range(n):
            draw_card(st, v)
        return
    uno_check(st, bots, p)
    start_penalty(st, p, v, n, s[S_PEN_KIND], bluff, 1)
