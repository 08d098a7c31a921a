"""Strategy ``random``: exactly the random bot of RULINGS.md.

Every choice is uniform over what the rules allow: a legal card instance (it draws only when
it holds none), a colour, a target seat, a held number or colour, a card instance. The
functions read the state and draw from the game's random stream; they change nothing else.
"""

from ...rules.card_codes import DRAW_TWO_OFFSET, KINDS_PER_COLOUR, N_KINDS
from ..jit import inl
from ..layout import CC, HSIZE, S_NP, TMP
from ..legal import (
    count_legal,
    jump_passes_partner,
    nth_legal,
    number_count,
    partner_of,
    turn_distance,
)
from ..rng import below
from . import reveals


@inl
def choose_card(st, r, pts, cum, p, wd4_ok):
    """A legal card instance uniformly, -1 (draw) when there is none."""
    n = count_legal(st, p, wd4_ok)
    if n == 0:
        return -1
    return nth_legal(st, p, below(st.s, n), wd4_ok)


@inl
def choose_card_rl(st, pts, p):
    """rlcard: a legal card instance uniformly, never a Wild Draw Four."""
    n = count_legal(st, p, False)
    if n == 0:
        return -1
    return nth_legal(st, p, below(st.s, n), False)


@inl
def choose_colour(st, p):
    """Colour named for a wild: uniform."""
    return below(st.s, 4)


@inl
def held_colour(st, p):
    """A colour uniformly among those seat p holds (any colour if it holds none)."""
    n = 0
    for c in range(4):
        if st.hand[p, CC + c] > 0:
            n += 1
    if n == 0:
        return below(st.s, 4)
    i = below(st.s, n)
    for c in range(4):
        if st.hand[p, CC + c] > 0:
            if i == 0:
                return c
            i -= 1
    return 0


@inl
def swap_target(st, p):
    """Swap Hands target: uniform among the other seats; under partners uniform among the
    opponents."""
    pp = partner_of(st, p)
    if pp < 0:
        q = below(st.s, st.s[S_NP] - 1)
        if q >= p:
            q += 1
        return q
    i = below(st.s, st.s[S_NP] - 2)
    for q in range(st.s[S_NP]):
        if q != p and q != pp:
            if i == 0:
                return q
            i -= 1
    return -1


@inl
def jumps_in(st, q, k):
    """jump_in: always (the knob ``jump`` decides), except past its partner's turn."""
    return not jump_passes_partner(st, q)


@inl
def fill_keep(st, n, kept, keep):
    """Discard down to ``keep`` cards: with ``kept`` kept cards already at the end of
    st.cards[TMP:TMP+n], move uniformly chosen instances there until ``keep`` are kept."""
    while kept < keep:
        i = below(st.s, n - kept)
        j = n - 1 - kept
        t = st.cards[TMP + i]
        st.cards[TMP + i] = st.cards[TMP + j]
        st.cards[TMP + j] = t
        kept += 1


@inl
def number_to_discard(st, p):
    """Discard Number: a number uniformly among those held (any if none)."""
    held = 0
    for v in range(10):
        if number_count(st, p, v) > 0:
            held += 1
    if held == 0:
        return below(st.s, 10)
    i = below(st.s, held)
    for v in range(10):
        if number_count(st, p, v) > 0:
            if i == 0:
                return v
            i -= 1
    return 0


@inl
def race_discard(st, pts, w):
    """UNO Spin race winner's discard: a card instance uniformly."""
    i = below(st.s, st.hand[w, HSIZE])
    for k in range(N_KINDS):
        i -= st.hand[w, k]
        if i < 0:
            return k
    return 0


@inl
def card_to_give(st, pts, p, t):
    """A wheel program's give, to seat t: its UNO Spin race discard (a card instance
    uniformly)."""
    return race_discard(st, pts, p)


@inl
def draw_two_to_stack(st, p, n):
    """Stacking: one of its n Draw Two instances uniformly."""
    i = below(st.s, n)
    for c in range(4):
        k = c * KINDS_PER_COLOUR + DRAW_TWO_OFFSET
        i -= st.hand[p, k]
        if i < 0:
            return k
    return -1


@inl
def web_swing_target(st, p, c, n, lim):
    """Web Swing: uniform among the n other seats holding colour c less than ``lim`` seats
    away in turn order (partners: short of the partner; else every seat)."""
    i = below(st.s, n)
    for q in range(st.s[S_NP]):
        if q != p and st.hand[q, CC + c] > 0 and turn_distance(st, p, q) < lim:
            if i == 0:
                return q
            i -= 1
    return -1


@inl
def rl_action(st, p, n):
    """Rule option rlcard: RLCard's RandomAgent, uniform over the n legal action ids."""
    return below(st.s, n)


# ==================================================================== its decisions
# One function per question of policy.decisions.DECISIONS, with the question's parameters;
# a question not answered below is answered above, under its name.


@inl
def colour_to_discard(st, pts, p):
    """Discard by colour: a colour it holds, uniformly (:func:`held_colour`)."""
    return held_colour(st, p)


colour_to_draw = held_colour


@inl
def almost_uno_keep(st, pts, p, n, keep):
    """Almost UNO (keep = 2), any discard down to keep cards: keep card instances
    uniformly (:func:`fill_keep`)."""
    fill_keep(st, n, 0, keep)


#: what its draw shows (reveals.py): it draws only for want of a legal card
DRAW_SHOWS = reveals.NO_LEGAL_CARD_NOR_WILD
