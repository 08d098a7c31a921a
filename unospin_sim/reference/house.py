"""The reference engine's house rules acting on a round (docs/HOUSE_RULES.md): jump-ins,
stacking penalties, and the effects that move whole hands (``seven_o``, the special
wilds)."""

from __future__ import annotations

from .cards import NUMBER, SHUFFLE_WILD, SPIN, SWAP_WILD, WILD_DRAW_FOUR, wd4_legal
from .state import RoundOver


class HouseRules:
    """A mixin of :class:`~unospin_sim.reference.round.Round`: jump_in, stacking, hand moves."""

    # ------------------------------------------------------------------ jump_in
    def jump_window(self):
        """(card, seat) open to jump-ins after the last action, or None."""
        if not self.jump_in or self.last_play is None:
            return None
        card, p = self.last_play
        if (
            (card.colour is None and not self.jump_in_wilds)
            or self.spins_wheel(card)
            or self.penalty
            or self.discard[-1] is not card
        ):
            return None
        return card, p

    def jumper(self, card, p):
        """The first seat in turn order after p, not p and not the seat to act, holding an
        identical card that jumps in (never past its partner's turn; knob ``jump``)."""
        if self.jumped_turn != self.turns:  # once per seat between two turns
            self.jumped_turn, self.jumped = self.turns, set()
        for i in range(1, self.n):
            q = self.seat(p + i * self.direction)
            if q == self.cur or q in self.jumped or card not in self.hands[q]:
                continue
            if card.kind == WILD_DRAW_FOUR and not wd4_legal(self.hands[q], self.colour, self.wmc):
                continue  # jump_in_wilds: a Wild Draw Four only when legal for q
            # partners: never take the partner's turn. Jumping in takes the turns of the
            # seats from the one to act up to q; a seat between the card's player and the
            # seat to act (passed over by a Skip or a Draw Two) takes nobody's.
            pp = self.partner(q)
            if (
                pp is not None
                and self.ahead(p, q) >= self.ahead(p, self.cur)
                and self.ahead(self.cur, pp) < self.ahead(self.cur, q)
            ):
                continue
            jp = self.bots[q]["jump"]
            if jp >= 1 or (jp > 0 and self.rng.random() < jp):
                return q
        return None

    def jump(self, j, card):
        """Seat j plays ``card`` out of turn (not a turn); play continues from j."""
        self.log(f"seat {j} jumps in")
        self.jumped.add(j)
        self.jump_ins[j] += 1
        played = []
        self.play_one(j, self.hands[j].index(card), played)
        return self.resolve(j, played)

    # ------------------------------------------------------------------ stacking
    def face_penalty(self, v):
        """Play reaches ``v`` facing a pending penalty (HOUSE_RULES ``stacking``): v
        challenges a last Wild Draw Four (its challenge probability), else stacks when
        it can (a counted turn), else takes the penalty (not a turn).  Returns the seat
        that acts next, or None when v now takes a normal turn."""
        n_cards, kind, passes = self.penalty, self.penalty_kind, self.penalty_passes
        p, illegal = self.penalty_from, self.penalty_illegal
        if kind == WILD_DRAW_FOUR:
            ch = self.bots[v]["challenge"]
            if ch > 0 and self.rng.random() < ch:
                self.clear_penalty()
                if illegal:
                    self.log(f"seat {v} challenges: illegal, seat {p} draws {self.wd4_n}")
                    self.draw_n(p, self.wd4_n, "failed wild draw four")
                    return self.take_penalty(v, n_cards - self.wd4_n, passes - 1)
                self.log(f"seat {v} challenges: legal")
                return self.take_penalty(v, n_cards + 2, passes)
        hand = self.hands[v]
        stackable = [i for i, c in enumerate(hand) if c.kind == kind]
        bluff = False
        if stackable and kind == WILD_DRAW_FOUR and not self.stacked_wd4_free:
            # stacked_wd4="checked": the Wild Draw Four rule applies to a stacked one too;
            # an illegal one is stacked only on the seat's bluff coin
            if not wd4_legal(hand, self.colour, self.wmc):
                b = self.bots[v]["bluff"]
                bluff = b > 0 and self.rng.random() < b
                if not bluff:
                    stackable = []
        if not stackable:
            self.clear_penalty()
            return self.take_penalty(v, n_cards, passes)
        self.turns += 1
        self.play_card(v, self.draw_two_to_stack(v, stackable), stacked=True, bluff=bluff)
        self.penalty = n_cards + (self.wd4_n if kind == WILD_DRAW_FOUR else self.draw_two_n)
        self.penalty_from = v
        self.penalty_illegal = bluff
        self.penalty_passes = 1
        self.log(f"seat {v} stacks: the penalty is {self.penalty}")
        if not self.hands[v]:
            self.winner = v
            total = self.penalty
            self.clear_penalty()
            self.draw_n(self.seat(v + self.direction), total, "last card")
            self.log(f"seat {v} played the last card and wins")
            raise RoundOver
        if len(self.hands[v]) == 1:
            self.uno_check(v)
        return v + self.direction

    def take_penalty(self, v, n_cards, passes):
        """v draws ``n_cards``; play moves on past ``passes`` seats, v first (0: v takes a
        normal turn, returns None)."""
        if n_cards:
            self.draw_n(v, n_cards, "penalty")
        if passes <= 0:
            return None
        return v + self.direction * passes

    def clear_penalty(self):
        self.penalty = 0
        self.penalty_kind = None
        self.penalty_from = -1
        self.penalty_illegal = False
        self.penalty_passes = 0

    # ------------------------------------------------------------------ hand moves
    def move_hands(self, p, card):
        """Effects that move whole hands, at once when the card is played; then every
        seat whose hand changed and holds one card gets the UNO check (a swap: the two
        seats; a pass or shuffle: every seat)."""
        n = self.n
        # a Spin 7 (spin_cards >= 7) is a 7 too: Spin cards are number cards
        if self.seven_o and card.kind in (NUMBER, SPIN) and card.number == 7:
            self.swap_with_chosen(p)
            return
        if self.seven_o and card.kind == NUMBER and card.number == 0:
            d = self.direction
            self.hands = [self.hands[(j - d) % n] for j in range(n)]
            self.void = [self.void[(j - d) % n] for j in range(n)]
            self.log(
                "every hand passes one seat " + ("clockwise" if d == 1 else "counter-clockwise")
            )
        elif card.kind == SWAP_WILD:
            self.swap_with_chosen(p)
            return
        elif card.kind == SHUFFLE_WILD:
            pool = [c for h in self.hands for c in h]
            self.rng.shuffle(pool)
            self.hands = [[] for _ in range(n)]
            self.void = [set() for _ in range(n)]
            for k, c in enumerate(pool):
                self.hands[(p + self.direction * (1 + k)) % n].append(c)
            self.log(
                "hands shuffled and dealt again: " + ", ".join(str(len(h)) for h in self.hands)
            )
        else:
            return
        for j in range(n):
            if len(self.hands[j]) == 1:
                self.uno_check(j)

    def swap_with_chosen(self, p):
        t = self.swap_target(p)
        self.hands[p], self.hands[t] = self.hands[t], self.hands[p]
        self.void[p], self.void[t] = self.void[t], self.void[p]
        self.log(f"seat {p} swaps hands with seat {t}")
        for j in (p, t):
            if len(self.hands[j]) == 1:
                self.uno_check(j)
