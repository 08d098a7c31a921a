"""Strategy ``colour_keeper``: keeps the colour it holds most in play, and moves play to it
(docs/BOTS.md).

Its *best colour* is the colour it holds most cards of (first on ties). It plays a card of
its best colour when it can; when another colour is in play it switches to its best colour,
by a card of that colour matching the top card's face, or else by a wild naming it; it keeps
its wilds while its best colour is in play.

The functions read the state; they change nothing else.
"""

from ...rules.card_codes import FIRST_WILD, KIND_COLOUR, N_KINDS, WILD_DRAW_FOUR
from ..jit import inl
from ..layout import CC, S_COLOUR, TMP
from . import heuristic as H
from .scan import best_kind


@inl
def best_colour(st, p):
    """The colour seat p holds most cards of (first on ties)."""
    b = 0
    for c in range(1, 4):
        if st.hand[p, CC + c] > st.hand[p, CC + b]:
            b = c
    return b


@inl
def coloured_score(st, pts, p, k, c, n, ctx):
    """Score of coloured kind k, colour c, n cards of it held (``ctx``: (b, off), b its
    best colour, ``off``: another colour is in play), for scan.best_kind: 200 + points
    in its best colour, else points + 2 x n."""
    b, off = ctx
    if c == b:
        return 200.0 + pts[k], ctx
    return pts[k] + 2.0 * n, ctx


@inl
def wild_score(st, pts, p, k, ctx):
    """Score of wild kind k (``ctx``: (b, off)), for scan.best_kind: 150 (Wild Draw Four
    140) when another colour is in play, else -100 (-200)."""
    b, off = ctx
    if k == WILD_DRAW_FOUR:
        return (140.0 if off else -200.0), ctx
    return (150.0 if off else -100.0), ctx


@inl
def choose_card(st, r, pts, cum, p, wd4_ok):
    """The legal card of best score (first in scan order on ties), -1 when none: a card of
    its best colour 200 + points; another coloured card points + 2 x cards held of its
    colour; a wild 150 (Wild Draw Four 140) when play is in another colour, else -100
    (-200). Scan order and early exits: scan.best_kind."""
    b = best_colour(st, p)
    ctx = (b, st.s[S_COLOUR] != b)
    return best_kind(st, pts, p, wd4_ok, coloured_score, wild_score, ctx, -1e18)[0]


@inl
def colour_to_discard(st, pts, p):
    """Discard by colour: the colour it holds most cards of (sheds the most cards)."""
    return best_colour(st, p)


@inl
def almost_uno_keep(st, pts, p, n, keep):
    """Almost UNO (keep = 2), any discard down to keep cards: keep wilds first, then cards
    of its best colour, then the last listed (st.cards[TMP:TMP+n] lists the hand; the cards
    kept end up last)."""
    b = best_colour(st, p)
    kept = 0
    for want in range(2):
        for i in range(n - 1 - kept, -1, -1):
            if kept >= keep:
                break
            k = st.cards[TMP + i]
            hit = k >= FIRST_WILD if want == 0 else (k < FIRST_WILD and KIND_COLOUR[k] == b)
            if hit:
                j = n - 1 - kept
                st.cards[TMP + i] = st.cards[TMP + j]
                st.cards[TMP + j] = k
                kept += 1


@inl
def race_discard(st, pts, w):
    """UNO Spin race winner's discard: the dearest card not of its best colour, wilds last
    (a card of its best colour only when it holds nothing else coloured)."""
    b = best_colour(st, w)
    k = -1
    best = -1000
    for k2 in range(N_KINDS):
        if st.hand[w, k2] > 0:
            if k2 >= FIRST_WILD:
                sc = -500
            elif KIND_COLOUR[k2] == b:
                sc = -100 + pts[k2]
            else:
                sc = pts[k2]
            if k < 0 or sc > best:
                best = sc
                k = k2
    return k


@inl
def card_to_give(st, pts, p, t):
    """A wheel program's give, to seat t: its UNO Spin race discard (the dearest card
    not of its best colour, wilds last)."""
    return race_discard(st, pts, p)


# ==================================================================== its decisions
# One function per question of policy.decisions.DECISIONS, with the question's parameters;
# a question not answered below is answered above, under its name.


@inl
def choose_card_rl(st, pts, p):
    """rlcard: :func:`choose_card`, never a Wild Draw Four."""
    b = best_colour(st, p)
    ctx = (b, st.s[S_COLOUR] != b)
    return best_kind(st, pts, p, False, coloured_score, wild_score, ctx, -1e18)[0]


# everything else: heuristic's choice (heuristic's colour for a wild is the colour it holds most,
# its best colour)
choose_colour = H.choose_colour
colour_to_draw = H.colour_to_draw
number_to_discard = H.number_to_discard
draw_two_to_stack = H.draw_two_to_stack
swap_target = H.swap_target
web_swing_target = H.web_swing_target
jumps_in = H.jumps_in
rl_action = H.rl_action
DRAW_SHOWS = H.DRAW_SHOWS
