"""The reference engine's turn flow: the set-up, the loop of actions, an ordinary turn and
the effects of the cards played in it."""

from __future__ import annotations

from .cards import (
    COLOURS,
    DRAW_TWO,
    REVERSE,
    SKIP,
    WEB_SWING,
    WILD_DRAW_FOUR,
    card_name,
    is_number_card,
    matches,
    wd4_legal,
)
from .state import RoundOver


class TurnFlow:
    """A mixin of :class:`~unospin_sim.reference.round.Round`: set-up, the loop, the turn."""

    # ------------------------------------------------------------------ set-up
    def setup(self):
        """Shuffle, deal ``hand_size`` each from the dealer's left, turn the first card."""
        self.draw_pile = list(self.deck)
        self.rng.shuffle(self.draw_pile)
        dealer = self.n - 1
        for _ in range(self.hand_size):
            for i in range(1, self.n + 1):
                self.hands[(dealer + i) % self.n].append(self.draw_pile.pop())
        self.first_card()

    def first_card(self):
        n = self.n
        if self.edition in ("spin2025", "spiderman"):
            ignored = []
            while True:
                c = self.draw_pile.pop()
                if is_number_card(c):
                    break
                ignored.append(c)
            self.discard.append(c)
            self.colour = c.colour
            for x in ignored:
                self.draw_pile.insert(self.rng.randrange(len(self.draw_pile) + 1), x)
            self.log(f"first card {card_name(c)} ({len(ignored)} ignored)")
            self.cur = 0
        else:
            while True:
                c = self.draw_pile.pop()
                if c.kind != WILD_DRAW_FOUR:
                    break
                self.draw_pile.insert(self.rng.randrange(len(self.draw_pile) + 1), c)
                self.log("first card wild draw four goes back into the deck")
            self.discard.append(c)
            self.log(f"first card {card_name(c)}")
            self.cur = 0
            if c.colour is None:  # Wild
                self.colour = self.colour_named(0)
                self.log(f"seat 0 names {COLOURS[self.colour]}")
            else:
                self.colour = c.colour
            if c.kind == SKIP:
                self.cur = 1 % n
            elif c.kind == REVERSE:
                self.direction = -1
                self.cur = n - 1
            elif c.kind == DRAW_TWO:
                self.draw_n(0, self.draw_two_n, "first card draw two")
                self.cur = 1 % n
        self.first_player = self.cur

    # ------------------------------------------------------------------ the loop
    def run(self):
        try:
            while True:
                if self.turns == self.turn_cap:
                    self.log("turn cap reached: round unfinished")
                    return
                s = self.cur
                window = self.jump_window()
                self.last_play = None
                if window is not None:
                    j = self.jumper(*window)
                    if j is not None:
                        self.end_action(self.jump(j, window[0]))
                        continue
                if self.penalty:
                    # stacking: the victim stacks (a counted turn), challenges or
                    # accepts; None: it takes a normal turn after all
                    nxt = self.face_penalty(s)
                    if nxt is not None:
                        self.end_action(nxt)
                        continue
                self.turns += 1
                if self.spin_pending:
                    # 2005: this seat spins instead of its turn (the spin IS its turn)
                    self.spin_pending = False
                    w = self.spin(s)
                    nxt = (s if w is None else w) + self.direction
                else:
                    nxt = self.play_turn(s)
                self.end_action(nxt)
        except RoundOver:
            pass

    def end_action(self, nxt):
        for p in self.penalties:
            self.draw_n(p, self.uno_penalty, "UNO penalty")
        self.penalties = []
        self.cur = self.seat(nxt)

    # ------------------------------------------------------------------ a turn

    def play_card(self, s, i, stacked=False, bluff=False):
        """Seat s plays hand[i]; returns (card, illegal_wd4).  A ``stacked`` card is
        illegal only when ``bluff`` says so (face_penalty judges it)."""
        hand = self.hands[s]
        card = hand[i]
        illegal = (
            bluff
            if stacked
            else card.kind == WILD_DRAW_FOUR and not wd4_legal(hand, self.colour, self.wmc)
        )
        del hand[i]
        self.discard.append(card)
        self.last_play = (card, s)
        self.colour = card.colour if card.colour is not None else self.colour_named(s)
        self.log(
            f"seat {s} plays {card_name(card)}"
            + (f", names {COLOURS[self.colour]}" if card.colour is None else "")
            + (" (illegally)" if illegal else "")
            + f"; {len(hand)} left"
        )
        return card, illegal

    def play_turn(self, p):
        """Seat p takes an ordinary turn; returns the seat that acts next."""
        state = {"bluff": None}
        played = []
        i = self.pick(p, state)
        if i is None and self.force_play:  # the strategy would draw: play if it can
            i = self.forced_card(p)
            if i is not None:
                self.log(f"seat {p} must play (force_play)")
        from_draw = False
        if i is None:
            lacked = self.colour
            i = self.draw_for_turn(p)
            self.void[p].add(lacked)  # it drew for want of a legal card
            if i is None:
                return p + self.direction
            from_draw = True
        if self.play_one(p, i, played):
            return self.spin_then_resolve(p, played)
        if self.two_x and not from_draw:
            j = self.pick(p, state)
            if j is not None and self.play_one(p, j, played):
                return self.spin_then_resolve(p, played)
        return self.resolve(p, played)

    def draw_for_turn(self, p):
        """Nothing playable: draw one card (``draw_until_playable``: until a playable
        one or nothing is left).  Returns the drawn card's index if playable, else None."""
        while True:
            c = self.draw_one(p)
            self.log(f"seat {p} draws" + (f" {card_name(c)}" if c else " nothing"))
            if c is None:
                return None
            hand = self.hands[p]
            playable = (
                wd4_legal(hand, self.colour, self.wmc)
                if c.kind == WILD_DRAW_FOUR
                else matches(c, self.top(), self.colour)
            )
            if playable:
                return len(hand) - 1
            if not self.draw_until_playable:
                return None

    def play_one(self, p, i, played):
        """Seat p plays hand[i] as part of its turn (appended to ``played``): ends the
        round on an empty hand, checks UNO, applies a hand-moving effect (7 / 0 under
        ``seven_o``, the special wilds).  Returns whether the card spins the wheel."""
        played.append(self.play_card(p, i))
        card = played[-1][0]
        if not self.hands[p]:
            self.finish_with_last_card(p, played)
        if len(self.hands[p]) == 1:
            self.uno_check(p)
        self.move_hands(p, card)
        return self.spins_wheel(card)

    def spin_then_resolve(self, p, played):
        if self.edition == "spin2005":
            # the NEXT player spins instead of their turn
            self.spin_pending = True
            return self.resolve(p, played)
        # spin2025: the player spins at once (this ends 2X), then the other effects
        self.two_x = False
        self.spin(p)
        return self.resolve(p, played)

    def finish_with_last_card(self, p, played):
        """Hand empty: the round ends; a last Draw Two / WD4 (2X: the turn's draws) is
        still drawn by its victim, with no challenge."""
        self.winner = p
        direction = self.direction
        draw = 0
        for c, _ in played:
            if c.kind == REVERSE and self.n > 2:
                direction = -direction
            elif c.kind == DRAW_TWO:
                draw += self.draw_two_n
            elif c.kind == WILD_DRAW_FOUR:
                draw += self.wd4_n
        if draw:
            self.draw_n(self.seat(p + direction), draw, "last card")
        self.log(f"seat {p} played the last card and wins")
        raise RoundOver

    def resolve(self, p, played):
        """Apply the effects of the card(s) played this turn; return the next seat."""
        n = self.n
        skips = 0
        draw = 0
        for c, _ in played:
            if c.kind == REVERSE:
                if n == 2:
                    skips += 1
                else:
                    self.direction = -self.direction
            elif c.kind == SKIP:
                skips += 1
            elif c.kind == DRAW_TWO:
                draw += self.draw_two_n
                skips += 1
        victim = self.seat(p + self.direction)
        if self.stacking:
            draws = [(c, illegal) for c, illegal in played if c.kind in (DRAW_TWO, WILD_DRAW_FOUR)]
            if draws:
                # a pending penalty on the victim instead of drawing; play goes to it
                last, illegal = draws[-1]
                self.penalty = sum(
                    self.draw_two_n if c.kind == DRAW_TWO else self.wd4_n for c, _ in draws
                )
                self.penalty_kind = last.kind
                self.penalty_from = p
                self.penalty_illegal = illegal
                # passes when taken: one per Skip, Draw Two, WD4, two-player Reverse
                self.penalty_passes = skips + sum(c.kind == WILD_DRAW_FOUR for c, _ in played)
                self.log(f"pending penalty of {self.penalty} on seat {victim}")
                return victim
        for c, illegal in played:
            if c.kind != WILD_DRAW_FOUR:
                continue
            ch = self.bots[victim]["challenge"]
            if ch > 0 and self.rng.random() < ch:
                if illegal:
                    self.log(f"seat {victim} challenges: illegal, seat {p} draws {self.wd4_n}")
                    self.draw_n(p, self.wd4_n, "failed wild draw four")
                else:
                    self.log(
                        f"seat {victim} challenges: legal, seat {victim} draws {self.wd4_n + 2}"
                    )
                    draw += self.wd4_n + 2
                    skips += 1
            else:
                draw += self.wd4_n
                skips += 1
        if draw:
            self.draw_n(victim, draw, "draw card(s)")
        nxt = p + self.direction * (1 + skips)
        for c, _ in played:
            if c.kind == WEB_SWING:
                colour = self.colour
                eligible = [
                    j for j in range(n) if j != p and any(x.colour == colour for x in self.hands[j])
                ]
                if self.partners:  # short of the partner when possible
                    dp = self.ahead(p, self.partner(p))
                    eligible = [j for j in eligible if self.ahead(p, j) < dp] or eligible
                if eligible:
                    t = self.web_swing_target(p, eligible)
                    nxt = t + self.direction
                    self.log(
                        f"web swing on {COLOURS[colour]}: seat {t} picked, "
                        f"seat {self.seat(nxt)} plays next"
                    )
                else:
                    self.log(f"web swing on {COLOURS[colour]}: nobody holds it")
        return nxt
