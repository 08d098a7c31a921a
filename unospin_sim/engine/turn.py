"""A normal turn: choose, play or draw, the card's effects, the 2025 spin, the next seat.

``play_turn`` is the default rules' turn and ``play_turn_house`` the one with the house
rules (``house.py``); both come from one body (``_make_play_turn``) with ``house`` frozen at
compile time, so the default turn carries no trace of the house rules, not even a flag test.
The default turn is inlined into the default round loop and the house turn into the
house-rule and search loops (their speed paths); ``play_turn_house`` is the house turn as a
called function (``hot``), compiled once for the rule tests, which drive it one action at a
time (with no house rule on it plays exactly the default turn).
"""

from ..rules import space_codes as sp
from ..rules.card_codes import (
    FACE_DRAW_TWO,
    FACE_REVERSE,
    FACE_SKIP,
    FIRST_WILD,
    KIND_FACE,
    KIND_SPINS,
    WILD_COLOUR,
    WILD_DRAW_FOUR,
    WILD_SHUFFLE_HANDS,
    WILD_SWAP_HANDS,
    WILD_WEB_SWING,
)
from . import policy
from .bot_codes import STRATEGY_SEARCH
from .calls import name_colour, uno_check
from .events import ev
from .house import draw_until_playable, forced_card, open_jump, seven_o, special_wild, start_penalty
from .jit import hot, inl, variant
from .layout import (
    B_STRATEGY,
    CC,
    EV_BLUFF,
    EV_CHALLENGE,
    EV_PLAY,
    EV_REVERSE,
    EV_SKIPPED,
    EV_WEB_SWING,
    HSIZE,
    LAST_BOT,
    LAST_COLOUR,
    LAST_HS,
    LAST_NAMED,
    LAST_PLAY,
    LAST_SMALL,
    LAST_TAKEN,
    LAST_TOP,
    PREV_PLAY,
    R_DRAW_TWO_N,
    R_DRAW_UNTIL,
    R_FORCE_PLAY,
    R_JUMP_IN,
    R_SEVEN_O,
    R_STACKING,
    R_WD4_N,
    R_WHEEL,
    S_COLOUR,
    S_CUR,
    S_DIR,
    S_JUMP_PLAY,
    S_NP,
    S_SEARCH_ROLL,
    S_SPIN_NEXT,
    S_TOP,
    S_TWO_X,
    S_WINNER,
    TAKEN,
    VOID,
    VOID1,
    VOID1_AT,
    VOID2,
    VOID2_AT,
    VOID_AT,
    VOID_FACE,
)
from .legal import partner_of, playable, turn_distance, wd4_legal
from .piles import draw_card, draw_n, remove_card, seat_after, set_top
from .policy import search_bot
from .policy.reveals import SHOWS_COLOUR, SHOWS_FACE, SHOWS_WILD
from .wheel2025 import spin_2025, spin_2025_call


@inl
def web_swing(st, bots, p):
    """Wild Web Swing (colour already named): returns the seat play continues after, p
    itself when no other seat holds the colour. Under partners the target is chosen short
    of the partner (who would be passed over) when such a target exists."""
    c = st.s[S_COLOUR]
    np_ = st.s[S_NP]
    lim = np_  # every other seat is less than np_ seats away
    pp = partner_of(st, p)
    if pp >= 0:
        dp = turn_distance(st, p, pp)
        for q in range(np_):
            if q != p and st.hand[q, CC + c] > 0 and turn_distance(st, p, q) < dp:
                lim = dp
                break
    n = 0
    for q in range(np_):
        if q != p and st.hand[q, CC + c] > 0 and turn_distance(st, p, q) < lim:
            n += 1
    if n == 0:
        ev(st, EV_WEB_SWING, p, c, -1)
        return p
    t = policy.web_swing_target(st, bots, p, c, n, lim)
    ev(st, EV_WEB_SWING, p, c, t)
    return t


@inl
def note_play(st, bots, p, k):
    """Seat p chose card k at the start of its turn and gave it up (the top card and the
    colour in play are still those it chose on): record the choice (layout.LAST_PLAY), for
    search's inference (knob infer=3), in search loops only, and not in a search's rollouts
    (nothing reads a rollout's records: the determinization reads the game's)."""
    h = st.hand
    if (
        h[p, LAST_PLAY] > 0 and h[p, LAST_TAKEN] == h[p, TAKEN] and h[p, LAST_HS] == h[p, HSIZE] + 1
    ):  # the record before is still of this hand
        for j in range(6):  # LAST_PLAY .. LAST_NAMED, LAST_BOT -> PREV_*
            h[p, PREV_PLAY + j] = h[p, LAST_PLAY + j] if j < 5 else h[p, LAST_BOT]
    else:
        h[p, PREV_PLAY] = 0
    h[p, LAST_PLAY] = k + 1
    h[p, LAST_TOP] = st.s[S_TOP]
    h[p, LAST_COLOUR] = st.s[S_COLOUR]
    h[p, LAST_SMALL] = 1 if h[seat_after(st, p), HSIZE] <= 2 else 0
    h[p, LAST_NAMED] = 0
    h[p, LAST_TAKEN] = h[p, TAKEN]
    h[p, LAST_HS] = h[p, HSIZE]
    h[p, LAST_BOT] = int(bots[p, B_STRATEGY])


@inl
def mark_void(st, bots, p, c):
    """Seat p drew at its turn while colour c was in play (on the top card, S_TOP) and holds
    no legal card but the one it plays now, if any: record in its VOID column what that shows
    about its hand, which its strategy declares (``policy.DRAW_SHOWS``, flags of
    ``policy/reveals.py``): no card of colour c, none of the top card's face when that card
    is coloured, no wild. Known to every seat; search's determinization uses it
    (layout.VOID; a void older than the hand's last take moves to VOID1, VOID1 to VOID2). An
    id with no strategy shows nothing."""
    sid = int(bots[p, B_STRATEGY])
    shows = policy.DRAW_SHOWS[sid] if sid < len(policy.DRAW_SHOWS) else 0
    m = 0
    if shows & SHOWS_COLOUR:
        m |= 1 << c
    if shows & SHOWS_FACE:
        top = st.s[S_TOP]
        if top < FIRST_WILD:
            m |= 1 << (VOID_FACE + KIND_FACE[top])
    if shows & SHOWS_WILD:
        m |= 1 << WILD_COLOUR
    h = st.hand
    if h[p, VOID_AT] != h[p, TAKEN]:  # the hand took a card since its last void: that void
        if h[p, VOID] != 0:  # is true of the cards held then only (layout.VOID1)
            h[p, VOID2] = h[p, VOID1]
            h[p, VOID2_AT] = h[p, VOID1_AT]
            h[p, VOID1] = h[p, VOID]
            h[p, VOID1_AT] = h[p, VOID_AT]
        h[p, VOID] = 0
        h[p, VOID_AT] = h[p, TAKEN]
    h[p, VOID] |= m


def _make_end_turn(house):
    """end_turn for the default rules (``house`` False) or with the house rules (``house``
    True), inlined into the play_turn of the same rules."""

    @variant(inl, "house" if house else "default")
    def end_turn(
        st,
        r,
        bots,
        p,
        played,
        n_rev,
        n_draw,
        n_pass,
        n_wd4,
        wd4_illegal,
        last_draw,
        last_bluff,
        jump_from,
    ):
        """The effects of seat p's turn, resolved once after it played ``played`` cards (the
        counts and flags play_turn gathered): the direction, the penalty draw with its
        challenges (stacking: the penalty waits for the victim), the skipped seats, S_CUR;
        jump_in then opens a jump-in window."""
        s = st.s
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
                for i in range(n_wd4):  # each WD4 in the order played: a challenge hits it
                    if policy.challenges(st, bots, v):
                        if (wd4_illegal >> i) & 1:
                            ev(st, EV_CHALLENGE, v, p, 1)
                            draw_n(st, p, r[R_WD4_N])
                            n_draw -= r[R_WD4_N]
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
        if house and r[R_JUMP_IN] and played > 0:
            open_jump(st, r, p)

    return end_turn


#: the end of a turn under the default rules and with the house rules: one function each
#: (one qualified name, jit.variant), inlined by the play_turn variants of those rules
END_TURN = {False: _make_end_turn(False), True: _make_end_turn(True)}


@inl
def choose_card_search_loop(st, r, pts, cum, bots, p, wd4_ok):
    """The card choice in the search loop's turn: a ``search`` seat's (its searched move,
    else heuristic's) by a direct call of four arguments (``search_bot.searched_card``),
    else ``policy.choose_card``, whose added strategies' dispatch is a call with every array
    of the kernel as arguments (in rollouts, where every search seat plays heuristic's card,
    that call took about a seventh of the time; docs/PERFORMANCE.md). The same choices."""
    if bots[p, B_STRATEGY] == STRATEGY_SEARCH:
        return search_bot.searched_card(st, pts, p, wd4_ok)
    return policy.choose_card(st, r, pts, cum, bots, p, wd4_ok)


#: the card choice of a turn that does not note choices and of one that does
CHOOSE = {False: policy.choose_card, True: choose_card_search_loop}
#: the 2025 wheel's spin: inlined into the default turn, called by the house-rule turns
SPIN_2025 = {False: spin_2025, True: spin_2025_call}


def _make_play_turn(house, record=False):
    """play_turn (inlined) for the default rules or the house rules; ``record``: noting choices."""
    end_turn, spin_25, choose = END_TURN[house], SPIN_2025[house], CHOOSE[record]
    name = ("house" if house else "default") + "_inl" + ("_rec" if record else "")

    @variant(inl, name)
    def play_turn(st, r, pts, cum, bots, p):
        """Seat p takes a normal turn (one card, or up to two under 2X). Sets S_CUR.
        House rules: with S_JUMP_PLAY set, p jumps in instead: it plays that card (one card,
        no choice) out of turn and play continues from p; after a turn that played a card,
        jump_in opens a jump-in window on the top card (house.open_jump)."""
        s = st.s
        jump = 0
        if house:
            jump = s[S_JUMP_PLAY]
            s[S_JUMP_PLAY] = 0
        np_ = s[S_NP]
        max_cards = 2 if s[S_TWO_X] else 1
        n_rev = n_pass = n_draw = n_wd4 = played = 0
        wd4_illegal = 0  # bit i: the turn's i-th WD4 was played while illegal (a bluff)
        coin = -1  # the turn's bluff coin: -1 not tossed yet, else 0 / 1
        jump_from = -1  # Web Swing: play continues after this seat
        last_draw = 0  # stacking: what stacks on this turn's penalty (its last draw card)
        last_bluff = 0  # stacking: 1 when this turn's last Wild Draw Four was illegal
        while played < max_cards:
            legal = wd4_legal(st, r, p)
            chosen = False  # record: k is the seat's own choice of a card in hand
            if house and jump > 0:  # jump_in: the identical card, out of turn, alone
                k = jump - 1
                jump = 0
                max_cards = 1
            else:
                use_wd4 = legal
                if not legal and st.hand[p, WILD_DRAW_FOUR] > 0:
                    if coin < 0:  # tossed once per turn, at the first pick it decides
                        coin = 1 if policy.bluffs(st, bots, p) else 0
                    use_wd4 = coin == 1
                k = choose(st, r, pts, cum, bots, p, use_wd4)
                chosen = record and k >= 0 and s[S_SEARCH_ROLL] == 0  # not in rollouts
                if house and k < 0 and played == 0 and r[R_FORCE_PLAY]:
                    k = forced_card(st, p, legal)  # -1 when nothing is playable: draw
                if k < 0:
                    if played > 0:
                        break
                    c_in_play = s[S_COLOUR]
                    k = draw_card(st, p)
                    if k < 0:
                        mark_void(st, bots, p, c_in_play)
                        break
                    legal = wd4_legal(st, r, p)  # the drawn card is in hand now
                    if not playable(st, k, legal):
                        if not (house and r[R_DRAW_UNTIL]):
                            mark_void(st, bots, p, c_in_play)
                            break
                        k = draw_until_playable(st, r, p)
                        if k < 0:
                            mark_void(st, bots, p, c_in_play)
                            break
                        legal = wd4_legal(st, r, p)
                    mark_void(st, bots, p, c_in_play)  # a drawn card of colour c is played now
                    max_cards = 1  # after drawing, only the drawn card may be played
            if k == WILD_DRAW_FOUR and not legal:
                wd4_illegal |= 1 << n_wd4
                ev(st, EV_BLUFF, p, 0, 0)
            remove_card(st, p, k)
            if record and chosen:
                note_play(st, bots, p, k)
            set_top(st, k)
            ev(st, EV_PLAY, p, k, 0)
            played += 1
            if k >= FIRST_WILD:
                name_colour(st, bots, p)
                if record and chosen:
                    st.hand[p, LAST_NAMED] = s[S_COLOUR] + 1
            f = KIND_FACE[k]
            if k == WILD_DRAW_FOUR:
                n_wd4 += 1
                n_draw += r[R_WD4_N]
                n_pass += 1
                if house:
                    last_draw = WILD_DRAW_FOUR
                    last_bluff = 0 if legal else 1
            elif f == FACE_DRAW_TWO:
                n_draw += r[R_DRAW_TWO_N]
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
                # special_wilds: these kinds are in the deck only with the option
                if k == WILD_SWAP_HANDS or k == WILD_SHUFFLE_HANDS:
                    special_wild(st, bots, p, k)
                elif (f == 7 or f == 0) and r[R_SEVEN_O]:
                    seven_o(st, bots, p, f)
            if KIND_SPINS[k] and r[R_WHEEL] != sp.WHEEL_NONE:
                if r[R_WHEEL] == sp.WHEEL_2025:
                    skips = spin_25(st, r, pts, cum, bots, p)
                    if s[S_WINNER] >= 0:
                        return  # won by a wheel discard: the round ends at once
                    if skips > 0 and not (house and r[R_STACKING] and n_draw > 0):
                        n_pass += skips  # a program's skip (not past a pending penalty)
                else:
                    s[S_SPIN_NEXT] = 1
                break
        end_turn(st, r, bots, p, played, n_rev, n_draw, n_pass, n_wd4, wd4_illegal,
                 last_draw, last_bluff, jump_from)  # fmt: skip

    return play_turn


#: a normal turn under the default rules (inlined into the default loop)
play_turn = _make_play_turn(False)
#: a normal turn with house rules, inlined into the house-rule and search loops (their speed
#: path: a search seat's rollouts play thousands of turns a decision)
play_turn_house_inl = _make_play_turn(True)
#: the house turn of the search loop (round.run_round_search), which records each seat's
#: chosen card for search's inference (note_play)
play_turn_search_inl = _make_play_turn(True, True)


@hot
def play_turn_house(st, r, pts, cum, bots, p):
    """The house turn as a called function, compiled once for the rule tests
    (tests/statekit.py). A module function calling the variant by name: a variant holds
    compiled functions in its closure cells, which change numba's cache key in every
    process, so a called variant would compile again in each."""
    play_turn_house_inl(st, r, pts, cum, bots, p)
