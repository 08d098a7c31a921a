"""Build game states by hand and apply one kernel action to them (for rule tests).

>>> g = Game("classic(players=3)")
>>> g.give(0, "red 5", "blue skip"); g.top("red 2"); g.pile("green 7")
>>> g.turn(0)                 # seat 0 takes one normal turn
>>> g.run(0)                  # or: the round loop from seat 0 up to the turn cap
>>> g.hand(0), g.s(L.S_CUR)
"""

from __future__ import annotations

import numpy as np

from unospin_sim.bots import parse_bots
from unospin_sim.engine import kernel as K
from unospin_sim.engine import layout as L
from unospin_sim.engine.encode import encode
from unospin_sim.rules import parse_rules
from unospin_sim.rules.cards import KIND_COLOUR, KIND_NAMES, N_KINDS
from unospin_sim.rules.programs import check_program
from unospin_sim.rules.spaces import SPACE_ID

KIND = {name: k for k, name in enumerate(KIND_NAMES)}


def with_wheel(cum, weights):
    """A copy of encode's ``cum`` with the wheel's part (layout.CUM_MOST entries) replaced
    by the cumulative ``weights`` ({space name: weight}); spin_aware's table after it is
    kept."""
    w = np.zeros(L.CUM_MOST)
    for space, weight in weights.items():
        w[SPACE_ID[space]] = weight
    out = cum.copy()
    out[: L.CUM_MOST] = np.cumsum(w)
    return out


def kinds(*names):
    return [KIND[n] for n in names]


class Game:
    """A hand-built position: empty hands, an empty draw pile, a chosen top card.

    Cards not placed anywhere are simply out of the game (the tests check exact states,
    not conservation, which the invariant tests cover)."""

    def __init__(self, rules, bots="random", seed=1, wheel_space=None, programs=None):
        """``programs``: {space name: program as a file writes it (a list of step tables)}:
        those spaces run the program (engine/program.py) instead of their compiled effect."""
        self.rules = parse_rules(rules) if isinstance(rules, str) else rules
        if programs is not None:
            programs = {
                SPACE_ID[name]: check_program(raw, "test", name) for name, raw in programs.items()
            }
        self.ki = encode(self.rules, parse_bots(bots, self.rules.players), programs=programs)
        self.r, self.deck, self.pts, self.cum, self.bots = self.ki.args()
        self.r = self.r.copy()
        if wheel_space is not None:  # force every spin onto one space
            self.cum = with_wheel(self.cum, {wheel_space: 1.0})
        self.st = K.new_state(int(self.r[L.R_TURN_CAP]), 100_000)
        st = self.st
        st.hand[:, :] = 0
        st.s[:] = 0
        st.s[L.S_NP] = self.rules.players
        st.s[L.S_WINNER] = -1
        st.s[L.S_DIR] = 1
        st.s[L.S_LOG_ON] = 1
        st.s[L.S_RNG] = np.int64(seed)
        if self.r[L.R_PARTNERS]:  # as the round loop sets it after the deal
            st.s[L.S_TEAMS] = self.rules.players // 2
        self.top("red 0")

    # -- building ------------------------------------------------------------------------
    def give(self, p, *names):
        for k in kinds(*names):
            self.st.hand[p, k] += 1
            self.st.hand[p, L.CC + KIND_COLOUR[k]] += 1
            self.st.hand[p, L.HSIZE] += 1
        return self

    def top(self, name, colour=None):
        k = KIND[name]
        self.st.s[L.S_TOP] = k
        self.st.s[L.S_COLOUR] = KIND_COLOUR[k] if colour is None else colour
        return self

    def pile(self, *names):
        """Set the draw pile (draws take a random slot: give one card to force a draw)."""
        ks = kinds(*names)
        self.st.cards[L.PILE : L.PILE + len(ks)] = ks
        self.st.s[L.S_DRAW_N] = len(ks)
        return self

    def discards(self, *names):
        ks = kinds(*names)
        self.st.cards[L.DISC : L.DISC + len(ks)] = ks
        self.st.s[L.S_DISC_N] = len(ks)
        return self

    def set(self, field, value):
        self.st.s[field] = value
        return self

    # -- one action ----------------------------------------------------------------------
    def turn(self, p):
        """Seat p takes one action as the kernel's round loop would (penalties included):
        a turn, or under stacking the answer to a pending penalty."""
        st = self.st
        st.s[L.S_CUR] = p
        if st.s[L.S_PEN_N] > 0:  # stacking: p faces a pending penalty (a turn if it stacks)
            K.penalty_action(st, self.r, self.bots, p)
            K.apply_penalties(st, self.r)
            return self
        st.s[L.S_TURNS] += 1
        if self.r[L.R_RLCARD]:  # RLCard rules: their own turn (no UNO penalties)
            K.play_turn_rl(st, self.pts, self.bots, p)
            return self
        if st.s[L.S_SPIN_NEXT]:
            st.s[L.S_SPIN_NEXT] = 0
            K.spin_2005_call(st, self.r, self.pts, self.cum, self.bots, p)
        else:
            # the house-rule turn, compiled once (engine/turn.py): with no house rule on it
            # plays exactly the default turn, which is inlined into the default loop only
            K.play_turn_house(st, self.r, self.pts, self.cum, self.bots, p)
        K.apply_penalties(st, self.r)
        return self

    def run(self, p):
        """Seat p acts next and the kernel's own round loop runs from this state until a seat
        wins or S_TURNS reaches the rule set's turn_cap (cap check, penalties, UNO penalties
        and all). It is the house-rule loop compiled for search (``round.run_round_search``,
        which the search tests compile anyway): with no house rule on it is the default
        loop, and it stops early (returns 1) only before the undecided turn of a ``search``
        seat, which no test runs here."""
        self.st.s[L.S_CUR] = p
        K.run_round_search(self.st, self.r, self.deck, self.pts, self.cum, self.bots)
        return self

    def jump(self):
        """jump_in: what the round loop does before the next action when a jump-in window
        is open: the seat that jumps in (or -1) plays the card out of turn (not a turn),
        UNO penalties after it. Returns that seat."""
        st = self.st
        if st.s[L.S_JUMP_KIND] == 0:
            return -1
        j = K.jump_in_seat(st, self.r, self.bots)
        if j >= 0:
            K.play_turn_house(st, self.r, self.pts, self.cum, self.bots, j)
            K.apply_penalties(st, self.r)
        return j

    # -- reading -------------------------------------------------------------------------
    def hand(self, p):
        """Sorted card names in seat p's hand."""
        out = []
        for k in range(N_KINDS):
            out += [KIND_NAMES[k]] * int(self.st.hand[p, k])
        return sorted(out)

    def size(self, p):
        return int(self.st.hand[p, L.HSIZE])

    def s(self, field):
        return int(self.st.s[field])

    @property
    def cur(self):
        return self.s(L.S_CUR)

    @property
    def top_name(self):
        return KIND_NAMES[self.s(L.S_TOP)]

    @property
    def colour(self):
        return self.s(L.S_COLOUR)

    def drawn(self, p):
        return int(self.st.hand[p, L.DRAWN])

    def pile_size(self):
        return self.s(L.S_DRAW_N)

    def under_top(self):
        n = self.s(L.S_DISC_N)
        return sorted(KIND_NAMES[k] for k in self.st.cards[L.DISC : L.DISC + n])

    def events(self):
        n = self.s(L.S_LOG_N)
        return [tuple(row) for row in self.st.log[:n].tolist()]

    def event_codes(self):
        return [e[0] for e in self.events()]

    def spins(self, space):
        return int(self.st.s[L.S_SPIN0 + SPACE_ID[space]])
