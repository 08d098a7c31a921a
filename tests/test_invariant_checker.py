"""The invariant checker checked: ``check_invariants`` must flag every kind of corruption.

Every ``invariant_failures == 0`` assertion of the suite (``simulate(..., check=True)``) rests
on ``kernel.check_invariants``. Here it is run on real mid-game states (a round played by the
kernel until a small turn cap stops it, so hands, draw pile, discard pile and top card are
all populated) which it must accept, and then on copies of those states with one
corruption each, every one of which it must flag (``S_VIOLATIONS`` grows).

Most corruptions are built to break exactly one invariant and keep the others intact (a
duplicated card also raises the hand's colour count and size, a negative count is balanced
by another seat so that the card totals still add up, ...), so that each check of
``check_invariants`` is exercised on its own rather than caught by a neighbour.
"""

import numpy as np
import pytest
from statekit import KIND

from unospin_sim.engine import kernel as K
from unospin_sim.engine import layout as L
from unospin_sim.engine.encode import encode
from unospin_sim.rules.cards import KIND_COLOUR, N_KINDS
from unospin_sim.run import trace

# (rule string with a small turn cap, seed, game): rounds that are still running at the cap
STATES = [
    ("classic(players=4,turn_cap=30)", 3, 0),
    ("spin2005(players=3,turn_cap=25)", 4, 1),
    ("spin2025(players=4,turn_cap=30)", 5, 2),
    ("spiderman(players=5,turn_cap=30)", 6, 0),
    ("classic(players=4,turn_cap=30,stacking=true,seven_o=true)", 7, 0),
]


def _mid_game(rules):
    """(state, r, deck) of game ``game`` of a run, stopped by its turn cap mid-round."""
    text, seed, game = rules
    for g in range(game, game + 50):  # the first game of the run still going at the cap
        _events, st, rs, specs = trace(text, "random", seed=seed, game=g)
        if st.s[L.S_WINNER] < 0:
            break
    else:  # pragma: no cover - the caps above are far below a round's length
        raise AssertionError(f"no game of {text} reached its turn cap")
    ki = encode(rs, specs)
    r, deck = ki.rules.copy(), ki.deck
    s = st.s
    assert s[L.S_TURNS] == r[L.R_TURN_CAP]
    assert s[L.S_DRAW_N] > 0 and s[L.S_DISC_N] > 0, "want a populated draw and discard pile"
    return st, r, deck


def _copy(st):
    return L.State(*(a.copy() for a in st))


def _violations(st, r, deck):
    st = _copy(st)  # check_invariants uses the TMP slice as scratch and adds to S_VIOLATIONS
    st.s[L.S_VIOLATIONS] = 0
    K.check_invariants(st, r, deck)
    return int(st.s[L.S_VIOLATIONS])


def _seat_with_cards(st, at_least=1):
    np_ = int(st.s[L.S_NP])
    sizes = st.hand[:np_, L.HSIZE]
    p = int(np.argmax(sizes))
    assert sizes[p] >= at_least
    return p


def _held_kind(st, p):
    return int(np.nonzero(st.hand[p, :N_KINDS] > 0)[0][0])


def _add(st, p, k, n=1):
    """n more copies of kind k in seat p's hand, colour count and size kept consistent."""
    st.hand[p, k] += n
    st.hand[p, L.CC + KIND_COLOUR[k]] += n
    st.hand[p, L.HSIZE] += n


# --- the corruptions: each takes a state copy and damages it in place ----------------------
def dup_in_hand(st):
    p = _seat_with_cards(st)
    _add(st, p, _held_kind(st, p))


def dup_new_kind_in_hand(st):
    """A card the seat did not hold appears in its hand (a copy of one held elsewhere)."""
    p = _seat_with_cards(st)
    k = int(np.nonzero(st.hand[p, :N_KINDS] == 0)[0][0])
    _add(st, p, k)


def dup_in_draw_pile(st):
    n = int(st.s[L.S_DRAW_N])
    st.cards[L.PILE + n] = st.cards[L.PILE]
    st.s[L.S_DRAW_N] = n + 1


def dup_in_discards(st):
    n = int(st.s[L.S_DISC_N])
    st.cards[L.DISC + n] = st.cards[L.DISC]
    st.s[L.S_DISC_N] = n + 1


def dup_top_in_hand(st):
    """The top card is also in a hand."""
    _add(st, _seat_with_cards(st), int(st.s[L.S_TOP]))


def lost_from_hand(st):
    p = _seat_with_cards(st)
    _add(st, p, _held_kind(st, p), -1)


def lost_from_draw_pile(st):
    st.s[L.S_DRAW_N] -= 1


def lost_from_discards(st):
    st.s[L.S_DISC_N] -= 1


def card_changed_in_draw_pile(st):
    """One card of the draw pile becomes another kind: one kind too many, one too few."""
    k = int(st.cards[L.PILE])
    st.cards[L.PILE] = (k + 1) % N_KINDS


def top_changed(st):
    k = int(st.s[L.S_TOP])
    st.s[L.S_TOP] = KIND["red 5"] if k != KIND["red 5"] else KIND["blue 5"]


def colour_count_off(st):
    p = _seat_with_cards(st)
    st.hand[p, L.CC + 2] += 1


def colour_count_moved(st):
    """Colour counts off in opposite directions: their sum (the size) is still right."""
    p = _seat_with_cards(st)
    k = _held_kind(st, p)
    c = KIND_COLOUR[k]
    st.hand[p, L.CC + c] -= 1
    st.hand[p, L.CC + (c + 1) % 5] += 1


def wild_count_off(st):
    p = _seat_with_cards(st)
    st.hand[p, L.CC + 4] += 1


def hand_size_off(st):
    p = _seat_with_cards(st)
    st.hand[p, L.HSIZE] += 1


def hand_size_short(st):
    p = _seat_with_cards(st)
    st.hand[p, L.HSIZE] -= 1


def negative_count(st):
    """Seat p holds -1 of a kind it lacks, seat q one more of it: the card totals, colour
    counts and sizes all still add up, only the sign is wrong."""
    np_ = int(st.s[L.S_NP])
    p, q = 0, 1 % np_
    k = int(np.nonzero(st.hand[p, :N_KINDS] == 0)[0][0])
    _add(st, p, k, -1)
    _add(st, q, k, +1)
    assert st.hand[p, k] == -1


def negative_colour_count(st):
    p = _seat_with_cards(st)
    st.hand[p, L.CC + 3] = -1


def negative_draw_pile_count(st):
    st.s[L.S_DRAW_N] = -1


def swapped_hands_sizes(st):
    """Two seats' sizes exchanged (cards stay): a hand-size bookkeeping error of a swap."""
    np_ = int(st.s[L.S_NP])
    sizes = st.hand[:np_, L.HSIZE]
    p, q = int(np.argmax(sizes)), int(np.argmin(sizes))
    assert sizes[p] != sizes[q]
    st.hand[p, L.HSIZE], st.hand[q, L.HSIZE] = sizes[q], sizes[p]


def colour_out_of_range(st):
    st.s[L.S_COLOUR] = 4


def negative_penalty(st):
    st.s[L.S_PEN_N] = -2


CORRUPTIONS = [
    dup_in_hand,
    dup_new_kind_in_hand,
    dup_in_draw_pile,
    dup_in_discards,
    dup_top_in_hand,
    lost_from_hand,
    lost_from_draw_pile,
    lost_from_discards,
    card_changed_in_draw_pile,
    top_changed,
    colour_count_off,
    colour_count_moved,
    wild_count_off,
    hand_size_off,
    hand_size_short,
    negative_count,
    negative_colour_count,
    negative_draw_pile_count,
    swapped_hands_sizes,
    colour_out_of_range,
    negative_penalty,
]


@pytest.fixture(scope="module", params=STATES, ids=[s[0] for s in STATES])
def mid_game(request):
    return _mid_game(request.param)


def test_real_mid_game_state_passes(mid_game):
    st, r, deck = mid_game
    assert _violations(st, r, deck) == 0
    # the state really is mid-game: every card is somewhere, several hands hold cards
    np_ = int(st.s[L.S_NP])
    held = int(st.hand[:np_, L.HSIZE].sum())
    assert held + st.s[L.S_DRAW_N] + st.s[L.S_DISC_N] + 1 == len(deck)
    assert (st.hand[:np_, L.HSIZE] > 0).sum() >= 2


@pytest.mark.parametrize("corrupt", CORRUPTIONS, ids=[c.__name__ for c in CORRUPTIONS])
def test_every_corruption_is_flagged(mid_game, corrupt):
    st, r, deck = mid_game
    bad = _copy(st)
    corrupt(bad)
    # the corruption changed the state (a no-op would make this test vacuous)
    assert any(not np.array_equal(a, b) for a, b in zip(st, bad))
    assert _violations(bad, r, deck) > 0, f"check_invariants missed {corrupt.__name__}"
    # ... and the untouched original still passes (the check reads, it does not repair)
    assert _violations(st, r, deck) == 0


def test_violations_accumulate_during_a_checked_round():
    """The counter the result column ``invariant_failures`` reports adds up: a second check
    of a corrupted state adds again, a clean state adds nothing."""
    st, r, deck = _mid_game(STATES[0])
    bad = _copy(st)
    dup_in_hand(bad)
    bad.s[L.S_VIOLATIONS] = 0
    K.check_invariants(bad, r, deck)
    once = int(bad.s[L.S_VIOLATIONS])
    K.check_invariants(bad, r, deck)
    assert once > 0 and bad.s[L.S_VIOLATIONS] == 2 * once
    good = _copy(st)
    good.s[L.S_VIOLATIONS] = 0
    for _ in range(3):
        K.check_invariants(good, r, deck)
    assert good.s[L.S_VIOLATIONS] == 0
