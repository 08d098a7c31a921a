"""Strategy ``search``: determinized Monte Carlo over the first card of each normal turn
(docs/BOTS.md).

The search itself runs outside the policy, in ``engine/search.py``: the round loop compiled
for search (``round.run_round_search``) stops before a search seat's normal turn, the
search plays rollouts on a scratch state and stores the move in ``S_SEARCH_*``, and the loop
resumes. Here the seat only reads that decision (the card, and with knob ``colours`` the
colour named for it when it is a wild); every other choice (and a decision that no longer
fits the hand) is ``heuristic``'s.
"""

from ..jit import hot, inl
from ..layout import (
    HSIZE,
    S_CUR,
    S_SEARCH_COLOUR,
    S_SEARCH_HS,
    S_SEARCH_MOVE,
    S_SEARCH_TURN,
    S_TOP,
    S_TURNS,
)
from ..legal import playable
from . import heuristic as H
from . import reveals


@inl
def choose_card(st, r, pts, cum, p, wd4_ok):
    """The searched move when one was decided for this turn and the hand is still the one
    it was decided on (the first card of the turn), else heuristic's card."""
    return searched_card(st, pts, p, wd4_ok)


@hot
def searched_card(st, pts, p, wd4_ok):
    """:func:`choose_card` with only what it reads: a called function of few arguments,
    which the search loop's turn calls directly (``turn.choose_card_search_loop``)."""
    s = st.s
    if s[S_SEARCH_TURN] == s[S_TURNS] and s[S_SEARCH_HS] == st.hand[p, HSIZE]:
        k = s[S_SEARCH_MOVE]
        if k < 0:
            return -1
        if st.hand[p, k] > 0 and playable(st, k, wd4_ok):
            return k
    return H.best_card(st, pts, p, wd4_ok)


@inl
def choose_colour(st, p):
    """The searched colour when seat p, in its turn, has just played the wild decided for
    this turn as its first card (the top card is that kind, the hand one card smaller than
    when it decided) and a colour was searched (S_SEARCH_COLOUR > 0), else heuristic's
    colour."""
    s = st.s
    c = s[S_SEARCH_COLOUR]
    if (
        c > 0
        and s[S_SEARCH_TURN] == s[S_TURNS]
        and s[S_CUR] == p
        and s[S_TOP] == s[S_SEARCH_MOVE]
        and st.hand[p, HSIZE] == s[S_SEARCH_HS] - 1
    ):
        return c - 1
    return H.choose_colour(st, p)


# ==================================================================== its decisions
# One function per question of policy.decisions.DECISIONS, with the question's parameters;
# a question not answered below is answered above, under its name.

#: what its draw shows (reveals.py): nothing, it may draw by choice (a searched draw)
DRAW_SHOWS = reveals.NOTHING


# everything else: heuristic's choice (no search under rlcard)
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
