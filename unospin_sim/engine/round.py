"""A round: the setup, then actions until a seat empties its hand or the turn cap.

The loops: ``play_round_default`` (the default rules: compiled without the house-rule code,
the turn inlined into it: the speed path), ``play_round_house`` (any house rule; the
house-rule turn inlined), the search loop (``run_round_search``, engine/
search.py) and ``rlcard.play_round_rl``. Each is a called function compiled once; the
kernel's entry points (``chunk.py``) are compiled per loop, so a run compiles only its own.
"""

from ..rules.card_codes import FIRST_WILD
from .bot_codes import STRATEGY_SEARCH
from .calls import apply_penalties, name_colour
from .deal import deal, first_card_action, start_at, turn_first_card
from .events import ev
from .house import jump_in_seat, penalty_action
from .invariants import check_invariants
from .jit import hot, inl, variant
from .layout import (
    B_STRATEGY,
    EV_CAP,
    EV_TURN,
    EV_WIN,
    R_CHECK,
    R_PARTNERS,
    R_RLCARD,
    R_TURN_CAP,
    S_CUR,
    S_JUMP_KIND,
    S_JUMP_PLAY,
    S_NP,
    S_PEN_N,
    S_SEARCH_ROLL,
    S_SEARCH_TURN,
    S_SPIN_NEXT,
    S_TEAMS,
    S_TURNS,
    S_WINNER,
)
from .piles import winner_points
from .rlcard import setup_round_rl
from .turn import play_turn, play_turn_house_inl, play_turn_search_inl
from .wheel2005 import spin_2005, spin_2005_call


@hot
def setup_round_default(st, r, deck, bots, gseed):
    """Deal, turn the first discard and apply it: seat 0 names a first wild's colour, a
    first Skip / Reverse / Draw Two acts on seat 0."""
    deal(st, r, deck, gseed)
    k = turn_first_card(st, r)
    first = 0
    if k >= FIRST_WILD:
        name_colour(st, bots, first)
    else:
        first = first_card_action(st, r, k, True)
    start_at(st, first)


@hot
def setup_round(st, r, deck, bots, gseed):
    """A fresh round seeded ``gseed``, ready for the first turn (any rule set)."""
    if r[R_RLCARD]:
        setup_round_rl(st, r, deck, bots, gseed)
    else:
        setup_round_default(st, r, deck, bots, gseed)


def _make_run_round(house, search=False):
    """run_round_default (``house`` False) or run_round_house (True): see turn.py. The
    default turn is inlined into the default loop.
    ``search`` (with ``house``): the loop of rounds with a ``search`` seat
    (``run_round_search``), which stops before such a seat's normal turn (engine/search.py)."""
    tag = ("house" if house else "default") + ("_search" if search else "")  # jit.variant

    @variant(inl, tag)
    def run_round_(st, r, deck, pts, cum, bots):
        """The round's actions from the state as it is (S_CUR acts next) until a seat
        empties its hand or the turn cap. Tests call it on hand-built states. Returns 0;
        the search loop returns 1 instead when the seat to act is a ``search`` seat about
        to take a normal turn it has not decided yet (S_SEARCH_TURN), outside a rollout
        (S_SEARCH_ROLL): the caller decides, then calls the loop again to resume."""
        s = st.s
        if house and r[R_PARTNERS]:  # teams of two sitting opposite
            s[S_TEAMS] = s[S_NP] // 2
        cap = r[R_TURN_CAP]
        while s[S_WINNER] < 0:
            if s[S_TURNS] >= cap:
                ev(st, EV_CAP, 0, 0, 0)
                break
            if (
                search
                and s[S_SEARCH_ROLL] != 0
                and s[S_TURNS] >= s[S_SEARCH_ROLL]
                and s[S_PEN_N] == 0
                and s[S_SPIN_NEXT] == 0
            ):
                # a search rollout cut off (knob horizon; engine/search.py), not before a
                # pending stacked penalty is drawn or a 2005 spin is made
                break
            p = s[S_CUR]
            if house and s[S_JUMP_KIND] > 0:  # jump_in: the card just played is open
                j = jump_in_seat(st, r, bots)
                if j >= 0:
                    p = j  # plays out of turn (S_JUMP_PLAY set)
            if house and s[S_PEN_N] > 0:  # stacking: p faces a pending penalty
                penalty_action(st, r, bots, p)
            else:
                if not (house and s[S_JUMP_PLAY] > 0):  # a jump-in is not a turn
                    if (
                        search
                        and s[S_SEARCH_ROLL] == 0
                        and s[S_SPIN_NEXT] == 0
                        and bots[p, B_STRATEGY] == STRATEGY_SEARCH
                        and s[S_SEARCH_TURN] != s[S_TURNS] + 1
                    ):
                        return 1  # a search decision is needed first (nothing changed)
                    s[S_TURNS] += 1
                    ev(st, EV_TURN, p, s[S_TURNS], 0)
                if s[S_SPIN_NEXT]:
                    s[S_SPIN_NEXT] = 0
                    if house:
                        spin_2005_call(st, r, pts, cum, bots, p)
                    else:
                        spin_2005(st, r, pts, cum, bots, p)
                elif search:
                    play_turn_search_inl(st, r, pts, cum, bots, p)
                elif house:
                    play_turn_house_inl(st, r, pts, cum, bots, p)
                else:
                    play_turn(st, r, pts, cum, bots, p)
            apply_penalties(st, r)
            if r[R_CHECK]:
                check_invariants(st, r, deck)
        w = s[S_WINNER]
        if w >= 0:
            ev(st, EV_WIN, w, winner_points(st, pts, w), 0)
        return 0

    return run_round_


#: the loop alone (after the setup) under the default rules / with house rules
run_round_default = _make_run_round(False)
run_round_house = _make_run_round(True)
#: the resumable loop of rounds with a search seat (house-rule turns: every rule set but
#: rlcard); compiled once here, called by engine/search.py for the game and its rollouts
_run_round_search_inl = _make_run_round(True, True)


# One round under the default rules / with house rules: module functions that call the loops
# by name (a compiled function held in a closure cell would change numba's cache key in
# every process, so a called closure compiles again in each).
@hot
def play_round_default(st, r, deck, pts, cum, bots, gseed):
    setup_round_default(st, r, deck, bots, gseed)
    run_round_default(st, r, deck, pts, cum, bots)


@hot
def play_round_house(st, r, deck, pts, cum, bots, gseed):
    setup_round_default(st, r, deck, bots, gseed)
    run_round_house(st, r, deck, pts, cum, bots)


@hot
def run_round_search(st, r, deck, pts, cum, bots):
    """The search loop (see ``_make_run_round``): 0 at the end of the round, 1 when a
    search seat must decide its turn first."""
    return _run_round_search_inl(st, r, deck, pts, cum, bots)
