"""Strategy ``heuristic``: sheds points and keeps its colours, saves wilds, attacks a next
player who is about to win (docs/BOTS.md).

The functions read the state (and, where a tie or an unordered choice is left, draw from the
game's random stream); they change nothing else.
"""

from ...rules.card_codes import (
    DRAW_TWO_OFFSET,
    FACE_SKIP,
    FIRST_WILD,
    KIND_COLOUR,
    KIND_FACE,
    KIND_SPINS,
    KINDS_PER_COLOUR,
    N_KINDS,
    WILD_DRAW_FOUR,
)
from ..jit import hot, inl
from ..layout import CC, HSIZE, S_DIR, S_NP, TMP
from ..legal import colour_points, jump_passes_partner, number_count, partner_of, turn_distance
from ..piles import known_void, seat_after
from . import reveals
from .random_bot import fill_keep
from .scan import best_kind


@hot
def card_score(st, pts, p, k, next_small):
    """Desirability of playing kind k now (higher is better)."""
    if k == WILD_DRAW_FOUR:
        return 300.0 if next_small else -200.0
    if k >= FIRST_WILD:
        return 250.0 if next_small else -100.0
    f = KIND_FACE[k]
    score = pts[k] + 2.0 * st.hand[p, CC + KIND_COLOUR[k]]
    if f >= FACE_SKIP and next_small:
        score += 100.0
    return score


@inl
def coloured_score(st, pts, p, k, c, n, ctx):
    """card_score of coloured kind k, colour c, n cards of it held (``ctx``: (next_small,)),
    for scan.best_kind."""
    (next_small,) = ctx
    sc = pts[k] + 2.0 * n
    if KIND_FACE[k] >= FACE_SKIP and next_small:
        sc += 100.0
    return sc, ctx


@inl
def wild_score(st, pts, p, k, ctx):
    """card_score of wild kind k (``ctx``: (next_small,)), for scan.best_kind."""
    (next_small,) = ctx
    if k == WILD_DRAW_FOUR:
        return (300.0 if next_small else -200.0), ctx
    return (250.0 if next_small else -100.0), ctx


@inl
def best_card(st, pts, p, wd4_ok):
    """The legal card of best card_score (first in scan order on ties), -1 when none: one
    pass over the legal kinds in nth_legal's order, scan.best_kind with card_score inlined
    per section (coloured_score, wild_score)."""
    next_small = st.hand[seat_after(st, p), HSIZE] <= 2
    return best_kind(st, pts, p, wd4_ok, coloured_score, wild_score, (next_small,), -1e18)[0]


@inl
def choose_colour(st, p):
    """Colour named for a wild: the one it holds most of (first on ties)."""
    best = 0
    for c in range(1, 4):
        if st.hand[p, CC + c] > st.hand[p, CC + best]:
            best = c
    return best


@inl
def held_colour(st, pts, p):
    """Colour named for a discard by colour: the one whose cards are worth the most."""
    best = 0
    best_pts = -1
    for c in range(4):
        t = colour_points(st, pts, p, c) + st.hand[p, CC + c]
        if t > best_pts:
            best_pts = t
            best = c
    return best


@inl
def swap_target(st, p):
    """Swap Hands target: the smallest other hand, nearest in turn order on ties; under
    partners the smallest opponent's hand."""
    pp = partner_of(st, p)
    np_ = st.s[S_NP]
    q = -1
    for i in range(1, np_):
        q2 = (p + i * st.s[S_DIR] + np_) % np_
        if q2 == pp:
            continue
        if q < 0 or st.hand[q2, HSIZE] < st.hand[q, HSIZE]:
            q = q2
    return q


@inl
def almost_uno_keep(st, pts, p, n, keep):
    """Almost UNO (keep = 2), any discard down to keep cards: keep up to ``keep`` wilds, the
    rest uniformly (st.cards[TMP:TMP+n] lists the hand; the cards kept end up last)."""
    kept = 0
    for i in range(n - 1, -1, -1):
        if kept < keep and st.cards[TMP + i] >= FIRST_WILD:
            j = n - 1 - kept
            t = st.cards[TMP + i]
            st.cards[TMP + i] = st.cards[TMP + j]
            st.cards[TMP + j] = t
            kept += 1
    fill_keep(st, n, kept, keep)


@inl
def number_to_discard(st, p):
    """Discard Number: the number maximising count x (number + 1)."""
    v = 0
    best = -1
    for v2 in range(10):
        sc = number_count(st, p, v2) * (v2 + 1)
        if sc > best:
            best = sc
            v = v2
    return v


@inl
def race_discard(st, pts, w):
    """UNO Spin race winner's discard: the most points, wilds last."""
    k = -1
    best = -1
    for k2 in range(N_KINDS):
        if st.hand[w, k2] > 0:
            sc = pts[k2] if k2 < FIRST_WILD else 0
            if sc > best:
                best = sc
                k = k2
    return k


@inl
def card_to_give(st, pts, p, t):
    """A wheel program's give, to seat t: a coloured card, first of a colour t is known to
    lack (``piles.known_void``: it cannot play it while that colour is in play), then a
    number card before a Spin or action card (which t could turn against the table), then
    the most points; a wild only when it holds nothing else; ties: the first in card
    order."""
    void = known_void(st, t)
    k = -1
    best = -1
    for k2 in range(N_KINDS):
        if st.hand[p, k2] > 0:
            sc = 0
            if k2 < FIRST_WILD:  # points <= options.MAX_POINTS (1000): the order holds
                sc = 1 + pts[k2]
                if KIND_FACE[k2] <= 9 and not KIND_SPINS[k2]:
                    sc += 10_000
                if (void >> KIND_COLOUR[k2]) & 1:
                    sc += 100_000
            if sc > best:
                best = sc
                k = k2
    return k


@inl
def colour_to_draw(st, p):
    """Wild Color Draw: the colour it holds fewest of (most likely still in the pile)."""
    c = 0
    for c2 in range(1, 4):
        if st.hand[p, CC + c2] < st.hand[p, CC + c]:
            c = c2
    return c


@inl
def draw_two_to_stack(st, p, n):
    """Stacking: the Draw Two of the colour it holds most cards of (first on ties)."""
    h = st.hand
    best = -1
    for c in range(4):
        k = c * KINDS_PER_COLOUR + DRAW_TWO_OFFSET
        if h[p, k] > 0 and (best < 0 or h[p, CC + c] > h[p, CC + KIND_COLOUR[best]]):
            best = k
    return best


@inl
def jumps_in(st, q, k):
    """jump_in: always (a free card shed; the knob ``jump`` decides), except past its
    partner's turn."""
    return not jump_passes_partner(st, q)


@inl
def web_swing_target(st, p, c, n, lim):
    """Web Swing: the other seat holding colour c with the fewest cards (lowest seat on
    ties): play passes over the most threatening player. Only seats less than ``lim`` seats
    away in turn order (partners: short of the partner; else every seat)."""
    t = -1
    for q in range(st.s[S_NP]):
        if q != p and st.hand[q, CC + c] > 0 and turn_distance(st, p, q) < lim:
            if t < 0 or st.hand[q, HSIZE] < st.hand[t, HSIZE]:
                t = q
    return t


# ==================================================================== its decisions
# One function per question of policy.decisions.DECISIONS, with the question's parameters;
# a question not answered below is answered above, under its name.


@inl
def choose_card(st, r, pts, cum, p, wd4_ok):
    """The legal card of best card_score, -1 when none: :func:`best_card` (written out, so
    that the turn inlines one level less)."""
    next_small = st.hand[seat_after(st, p), HSIZE] <= 2
    return best_kind(st, pts, p, wd4_ok, coloured_score, wild_score, (next_small,), -1e18)[0]


@inl
def choose_card_rl(st, pts, p):
    """rlcard: :func:`best_card`, never a Wild Draw Four."""
    return best_card(st, pts, p, False)


colour_to_discard = held_colour


@inl
def rl_action(st, p, n):
    """rlcard: -1, it plays its own card choice (:func:`choose_card_rl`)."""
    return -1


#: what its draw shows (reveals.py): it draws only for want of a legal card
DRAW_SHOWS = reveals.NO_LEGAL_CARD_NOR_WILD
