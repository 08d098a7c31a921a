"""Strategy ``greedy``: sheds the most points first (docs/BOTS.md).

Its card is the legal one worth the most points (wilds count their points: a Wild Draw Four
or any wild 50, an action card 20, a number its value; first in scan order on ties). Its
wheel choices shed points too: it keeps its two cheapest cards at Almost UNO and discards its
dearest card after a race. Everything else is ``heuristic``'s choice.

The functions read the state; they change nothing else.
"""

from ...rules.card_codes import N_KINDS
from ..jit import inl
from ..layout import TMP
from . import heuristic as H
from .scan import best_kind


@inl
def coloured_points(st, pts, p, k, c, n, ctx):
    """Score of coloured kind k: its points (an integer), for scan.best_kind."""
    return pts[k], ctx


@inl
def wild_points(st, pts, p, k, ctx):
    """Score of wild kind k: its points (an integer), for scan.best_kind."""
    return pts[k], ctx


@inl
def choose_card(st, r, pts, cum, p, wd4_ok):
    """The legal card worth the most points (first in scan order on ties), -1 when none:
    scan.best_kind, the points compared as integers (start -1)."""
    return best_kind(st, pts, p, wd4_ok, coloured_points, wild_points, (), -1)[0]


@inl
def almost_uno_keep(st, pts, p, n, keep):
    """Almost UNO (keep = 2), any discard down to keep cards: keep the cheapest cards (the
    dearest are discarded). ``keep`` passes of a selection of the minimum into the last
    slots of st.cards[TMP:TMP+n]."""
    for kept in range(keep):
        j = n - 1 - kept
        m = 0
        for i in range(1, j + 1):
            if pts[st.cards[TMP + i]] < pts[st.cards[TMP + m]]:
                m = i
        t = st.cards[TMP + m]
        st.cards[TMP + m] = st.cards[TMP + j]
        st.cards[TMP + j] = t


@inl
def race_discard(st, pts, w):
    """UNO Spin race winner's discard: the card worth the most points, wilds included."""
    k = -1
    best = -1
    for k2 in range(N_KINDS):
        if st.hand[w, k2] > 0 and pts[k2] > best:
            best = pts[k2]
            k = k2
    return k


@inl
def card_to_give(st, pts, p, t):
    """A wheel program's give, to seat t: its UNO Spin race discard (the card worth the
    most points, wilds included)."""
    return race_discard(st, pts, p)


# ==================================================================== its decisions
# One function per question of policy.decisions.DECISIONS, with the question's parameters;
# a question not answered below is answered above, under its name.


@inl
def choose_card_rl(st, pts, p):
    """rlcard: :func:`choose_card`, never a Wild Draw Four."""
    return best_kind(st, pts, p, False, coloured_points, wild_points, (), -1)[0]


# everything else: heuristic's choice
choose_colour = H.choose_colour
colour_to_discard = H.colour_to_discard
colour_to_draw = H.colour_to_draw
number_to_discard = H.number_to_discard
draw_two_to_stack = H.draw_two_to_stack
swap_target = H.swap_target
web_swing_target = H.web_swing_target
jumps_in = H.jumps_in
rl_action = H.rl_action
DRAW_SHOWS = H.DRAW_SHOWS
