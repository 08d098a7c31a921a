"""The RLCard 1.2.0 rules: rule option ``rlcard``.

Rule option ``rlcard`` (classic only; r[R_RLCARD] = 1): the UNO of RLCard 1.2.0 (the PyPI
release; paths below are inside its package ``rlcard/``). The default rules never reach this
module.
  games/uno/round.py      UnoRound: legal actions, playing, the draw action, reshuffles
  games/uno/dealer.py     UnoDealer: deck shuffled, a first Wild Draw Four goes back
  games/uno/game.py       UnoGame.init_game: 7 cards each, player 0 starts
  envs/uno.py             UnoEnv._get_legal_actions: the legal action ids, as dict keys
  agents/random_agent.py  RandomAgent.step: np.random.choice over those distinct ids
What differs from the default classic rules (the rest is the same):
  - legal actions: distinct (colour, face) cards matching the colour or face in play, plus
    every colour of a plain Wild held (round.py get_legal_actions: WILD is extended once,
    duplicates collapse in the dict of envs/uno.py); the Wild Draw Four's four colours are
    the actions only when there is no other (round.py: ``if not legal_actions:
    legal_actions = wild_4_actions``); 'draw' only when there is nothing else. The random
    bot picks uniformly among these actions, and a wild takes the colour in its action.
  - the draw action (round.py _perform_draw_action): a drawn wild (Wild Draw Four too) is
    played at once with a random colour and no effect; a drawn card of the colour in play
    (``card.color == self.target.color``: colour only, not number or symbol) is played at
    once with its effects; any other drawn card is kept. The turn passes in every case.
  - Reverse always reverses (round.py _preform_non_number_action): with two players the
    turn passes to the other player (no extra turn).
  - reshuffles (round.py replace_deck) put every card played since the last one -- the top
    card included -- back into the deck; they happen when the deck is empty at a draw
    action, or holds fewer than 2 (4) cards when a Draw Two (Wild Draw Four) is played.
    The top card then still sets the colour and face to match (s[S_TOP_OUT] = 1).
  - no UNO calls, no penalties, no challenges, no bluffs (encode.py rejects those knobs).
  - first card (game.py, round.py flip_top_card / perform_top_card): a first Wild gets a
    random colour from the game; a first Draw Two makes player 0 draw 2 and player 0 still
    plays first (no skip). Skip and Reverse act as in the default rules.
  - points: RLCard pays +1/-1; the engine still reports the standard card points of the
    losers' hands (winner_points) as a statistic; they never affect play.
Where RLCard would crash (pop from an empty deck: every card is in the hands) the engine
records a failed draw instead, as it does for every edition.

The seam: ``round.play_round`` and ``round.setup_round`` branch once per round on
``R_RLCARD`` to ``play_round_rl`` / ``setup_round_rl`` below, which reuse the shared deal
(``deal.py``), card moves (``piles.py``), legality (``legal.py``), the invariant check and
the policy. The one state field of its own is ``S_TOP_OUT`` (the top card went into the
draw pile at a reshuffle), which the invariant check reads.
"""

from ..rules.card_codes import (
    FACE_DRAW_TWO,
    FACE_REVERSE,
    FACE_SKIP,
    FIRST_WILD,
    KIND_COLOUR,
    KIND_FACE,
    KINDS_PER_COLOUR,
    SKIP_OFFSET,
    WILD,
    WILD_DRAW_FOUR,
)
from . import policy
from .deal import deal, first_card_action, start_at, turn_first_card
from .events import ev
from .invariants import check_invariants
from .jit import hot, inl
from .layout import (
    DISC,
    EV_CAP,
    EV_COLOUR,
    EV_DRAW_FAIL,
    EV_PLAY,
    EV_RESHUFFLE,
    EV_REVERSE,
    EV_SKIPPED,
    EV_TURN,
    EV_WIN,
    HSIZE,
    PILE,
    R_CHECK,
    R_TURN_CAP,
    S_COLOUR,
    S_CUR,
    S_DIR,
    S_DISC_N,
    S_DRAW_N,
    S_FAILED,
    S_TOP,
    S_TOP_OUT,
    S_TURNS,
    S_WINNER,
)
from .legal import face_kind
from .piles import pile_to_hand, remove_card, seat_after, to_discard_under, winner_points
from .rng import below


@hot
def set_top_rl(st, k):
    """set_top under rlcard: the old top goes under only when it is still on the table."""
    s = st.s
    if s[S_TOP_OUT]:
        s[S_TOP_OUT] = 0
    else:
        to_discard_under(st, s[S_TOP])
    s[S_TOP] = k
    if KIND_COLOUR[k] < 4:
        s[S_COLOUR] = KIND_COLOUR[k]


@hot
def reshuffle_rl(st):
    """round.py replace_deck: every card played since the last reshuffle, the top card
    included, goes into the draw pile (which is unordered: a shuffle is implied)."""
    s = st.s
    n = s[S_DISC_N]
    m = s[S_DRAW_N]
    for i in range(n):
        st.cards[PILE + m + i] = st.cards[DISC + i]
    m += n
    if s[S_TOP_OUT] == 0:
        st.cards[PILE + m] = s[S_TOP]
        m += 1
        n += 1
        s[S_TOP_OUT] = 1
    s[S_DRAW_N] = m
    s[S_DISC_N] = 0
    ev(st, EV_RESHUFFLE, n, 1, 0)


@inl
def draw_card_rl(st, p):
    """draw_card under rlcard: an empty draw pile is refilled by reshuffle_rl."""
    s = st.s
    if s[S_DRAW_N] == 0:
        reshuffle_rl(st)
        if s[S_DRAW_N] == 0:
            s[S_FAILED] += 1
            ev(st, EV_DRAW_FAIL, p, 0, 0)
            return -1
    return pile_to_hand(st, p)


@inl
def penalty_rl(st, v, n):
    """Seat v draws n for a Draw Two / Wild Draw Four: round.py reshuffles first when the
    deck holds fewer than n cards (``if len(self.dealer.deck) < 2: self.replace_deck()``)."""
    if st.s[S_DRAW_N] < n:
        reshuffle_rl(st)
    for _ in range(n):
        draw_card_rl(st, v)


@hot
def rl_distinct_legal(st, p):
    """Distinct coloured kinds in seat p's hand that match the colour or face in play (the
    classic deck: no Spin cards)."""
    c = st.s[S_COLOUR]
    f = KIND_FACE[st.s[S_TOP]]
    h = st.hand
    n = 0
    base = c * KINDS_PER_COLOUR
    for k in range(base, base + 10):
        n += h[p, k] > 0
    for k in range(base + SKIP_OFFSET, base + KINDS_PER_COLOUR):
        n += h[p, k] > 0
    if f <= 12:
        for c2 in range(4):
            if c2 != c:
                n += h[p, face_kind(c2, f, 0)] > 0
    return n


@hot
def rl_nth_distinct(st, p, i):
    """The i-th (0-based) kind counted by rl_distinct_legal, in the same scan order."""
    c = st.s[S_COLOUR]
    f = KIND_FACE[st.s[S_TOP]]
    h = st.hand
    base = c * KINDS_PER_COLOUR
    for k in range(base, base + KINDS_PER_COLOUR):
        if h[p, k] > 0:
            if i == 0:
                return k
            i -= 1
    if f <= 12:
        for c2 in range(4):
            if c2 != c:
                k = face_kind(c2, f, 0)
                if h[p, k] > 0:
                    if i == 0:
                        return k
                    i -= 1
    return -1


@inl
def choose_rl(st, pts, bots, p):
    """(kind, colour) seat p plays under rlcard; (-1, -1) = the draw action. colour is the
    colour in the wild action the policy picked, -1 when the bot names one itself (a
    strategy that plays its own card choice) or for no wild."""
    h = st.hand
    d = rl_distinct_legal(st, p)
    # plain wilds held: 4 actions (one per colour). rlcard is classic only, whose deck has
    # no wild kinds but Wild and Wild Draw Four.
    nw = 1 if h[p, WILD] > 0 else 0
    if d + nw == 0:
        if h[p, WILD_DRAW_FOUR] == 0:
            return -1, -1  # 'draw' is the only action
        return WILD_DRAW_FOUR, policy.rl_action(st, bots, p, 4)  # its 4 actions, one per colour
    i = policy.rl_action(st, bots, p, d + 4 * nw)
    if i < 0:  # the strategy's own choice (a Wild Draw Four is not legal here)
        return policy.choose_card_rl(st, pts, bots, p), -1
    if i < d:
        return rl_nth_distinct(st, p, i), -1
    return WILD, i - d


@hot
def play_turn_rl(st, pts, bots, p):
    """Seat p takes one turn under rlcard (one action: a play, or the draw). Sets S_CUR.
    A called function (compiled once for the rlcard loop and the rule tests)."""
    s = st.s
    k, c = choose_rl(st, pts, bots, p)
    if k < 0:
        k = draw_card_rl(st, p)
        if k < 0:
            s[S_CUR] = seat_after(st, p)
            return
        if k >= FIRST_WILD:  # played at once, colour at random, no effect (not even a WD4)
            remove_card(st, p, k)
            set_top_rl(st, k)
            ev(st, EV_PLAY, p, k, 0)
            c = below(st.s, 4)
            s[S_COLOUR] = c
            ev(st, EV_COLOUR, p, c, 0)
            s[S_CUR] = seat_after(st, p)
            return
        if KIND_COLOUR[k] != s[S_COLOUR]:  # kept, even when its face matches
            s[S_CUR] = seat_after(st, p)
            return
        # of the colour in play: played at once, with its effects (below)
    remove_card(st, p, k)
    set_top_rl(st, k)
    ev(st, EV_PLAY, p, k, 0)
    if k >= FIRST_WILD:
        if c < 0:
            c = policy.choose_colour(st, bots, p)
        s[S_COLOUR] = c
        ev(st, EV_COLOUR, p, c, 0)
    if st.hand[p, HSIZE] == 0:
        s[S_WINNER] = p  # the card's effect still happens, as in round.py
    v = seat_after(st, p)
    skip = False
    if k == WILD_DRAW_FOUR:
        penalty_rl(st, v, 4)
        skip = True
    elif k < FIRST_WILD:
        f = KIND_FACE[k]
        if f == FACE_DRAW_TWO:
            penalty_rl(st, v, 2)
            skip = True
        elif f == FACE_SKIP:
            skip = True
        elif f == FACE_REVERSE:
            s[S_DIR] = -s[S_DIR]
            ev(st, EV_REVERSE, s[S_DIR], 0, 0)
            v = seat_after(st, p)
    if s[S_WINNER] >= 0:
        return
    if skip:
        ev(st, EV_SKIPPED, v, 0, 0)
        v = seat_after(st, v)
    s[S_CUR] = v


# ==================================================================== a round
@hot
def setup_round_rl(st, r, deck, bots, gseed):
    """setup_round under rlcard: the game picks a first wild's colour at random (round.py
    flip_top_card), and a first Draw Two does not skip seat 0."""
    deal(st, r, deck, gseed)
    k = turn_first_card(st, r)
    first = 0
    if k >= FIRST_WILD:
        c = below(st.s, 4)
        st.s[S_COLOUR] = c
        ev(st, EV_COLOUR, first, c, 0)
    else:
        first = first_card_action(st, r, k, False)
    start_at(st, first)


@hot
def play_round_rl(st, r, deck, pts, bots, gseed):
    """play_round under rlcard (one action a turn, no UNO penalties, no wheel)."""
    setup_round_rl(st, r, deck, bots, gseed)
    s = st.s
    cap = r[R_TURN_CAP]
    while s[S_WINNER] < 0:
        if s[S_TURNS] >= cap:
            ev(st, EV_CAP, 0, 0, 0)
            break
        p = s[S_CUR]
        s[S_TURNS] += 1
        ev(st, EV_TURN, p, s[S_TURNS], 0)
        play_turn_rl(st, pts, bots, p)
        if r[R_CHECK]:
            check_invariants(st, r, deck)
    w = s[S_WINNER]
    if w >= 0:
        ev(st, EV_WIN, w, winner_points(st, pts, w), 0)
