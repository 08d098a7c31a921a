"""The reference engine's wheels (2005 and 2025): the spin, its record and every space."""

from __future__ import annotations

from .cards import BLUE, COLOURS, RED, card_name


class Wheel:
    """A mixin of :class:`~unospin_sim.reference.round.Round`: spins and wheel spaces."""

    # ------------------------------------------------------------------ wheels
    def choose_space(self):
        return self.rng.choices(self.spaces, weights=self.weights)[0]

    def discard_from_hand(self, s, cards, shuffle=True):
        """Wheel discard: ``cards`` (already out of seat s's hand) go on the discard
        pile, in random order unless ``shuffle`` is false; the last is the new top
        (a wild gets a colour named).  No card effects.  Ends the round on an empty
        hand, checks UNO at one card."""
        cards = list(cards)
        if not cards:
            return
        if shuffle:
            self.rng.shuffle(cards)
        self.discard.extend(cards)
        self.wheel_discards[s] += len(cards)
        top = cards[-1]
        self.colour = top.colour if top.colour is not None else self.colour_named(s)
        self.log(
            f"seat {s} discards {', '.join(card_name(c) for c in cards)}; "
            f"top {card_name(top)}, colour {COLOURS[self.colour]}"
        )
        self.after_hand_shrinks(s)

    def spin(self, s):
        """Seat s spins; the space's effects run inside a per-spin record.  Returns the
        seat after which play continues (2005: war / UNO Spin race winner), or None."""
        space = self.choose_space()
        self.spin_counts[space] += 1
        hand = self.hands[s]
        sizes = [len(h) for h in self.hands]
        fewest = min(sizes)
        rec = {
            "turn": self.turns,
            "spinner": s,
            "space": space,
            "hand_before": len(hand),
            "hand_after": None,
            "cards_drawn": 0,
            "cards_discarded": 0,
            "other": -1,  # set by the spaces that have another party
            "direction": self.direction,
            # the seat holding strictly the fewest cards, -1 when several do
            "leader": sizes.index(fewest) if sizes.count(fewest) == 1 else -1,
        }
        self.spin_records.append(rec)
        drawn_before = self.cards_drawn[s]
        discarded_before = self.wheel_discards[s]
        self.log(f"seat {s} spins: {space}")
        try:
            return self.space_effect(s, space)
        finally:
            # also runs when a wheel discard ends the round
            rec["hand_after"] = len(self.hands[s])
            rec["cards_drawn"] = self.cards_drawn[s] - drawn_before
            rec["cards_discarded"] = self.wheel_discards[s] - discarded_before

    def space_effect(self, s, space):
        n = self.n
        hand = self.hands[s]
        # ---- 2005 wheel
        if space == "almost_uno":
            if len(hand) > 2:
                keep = self.almost_uno_keep(s)
                gone = [c for k, c in enumerate(hand) if k not in keep]
                self.hands[s] = [c for k, c in enumerate(hand) if k in keep]
                self.discard_from_hand(s, gone)
        elif space == "discard_number":
            x = self.number_named(s)
            self.log(f"seat {s} names number {x}")
            self.hands[s] = [c for c in hand if c.number != x]
            self.discard_from_hand(s, [c for c in hand if c.number == x])
        elif space == "discard_color":
            x = self.colour_to_discard(s)
            self.hands[s] = [c for c in hand if c.colour != x]
            self.discard_from_hand(s, [c for c in hand if c.colour == x])
        elif space == "draw_red":
            self.draw_until(s, RED)
        elif space == "draw_blue":
            self.draw_until(s, BLUE)
        elif space == "show_hand":
            self.log(f"seat {s} shows: {', '.join(card_name(c) for c in hand)}")
        elif space == "war":
            w = self.war()
            self.spin_records[-1]["other"] = -1 if w is None else w
            return w
        elif space == "uno_spin":
            w = self.rng.choices(range(n), weights=[b["reflex"] for b in self.bots])[0]
            self.spin_records[-1]["other"] = w
            self.log(f"seat {w} wins the UNO Spin race")
            card = self.hands[w].pop(self.race_discard(w))
            self.discard_from_hand(w, [card])
            return w
        elif space == "trade_hands":
            self.hands = [self.hands[(i - 1) % n] for i in range(n)]
            self.void = [self.void[(i - 1) % n] for i in range(n)]
            self.spin_records[-1]["other"] = (s + 1) % n  # receives the spinner's hand
            self.log("every hand passes one seat clockwise")
            for i in range(n):
                if len(self.hands[i]) == 1:
                    self.uno_check(i)
        # ---- 2025 wheel
        elif space.startswith("color_draw_"):
            self.draw_until(s, COLOURS.index(space[len("color_draw_") :]))
        elif space == "wild_color_draw":
            self.draw_until(s, self.colour_to_draw(s))
        elif space == "color_discard":
            x = self.colour_to_discard(s)
            gone = [c for c in hand if c.colour == x]
            self.hands[s] = [c for c in hand if c.colour != x]
            self.discard[0:0] = gone  # under the top: top and colour unchanged
            self.wheel_discards[s] += len(gone)
            self.log(f"seat {s} puts {len(gone)} card(s) under the discard pile")
            if gone:
                self.after_hand_shrinks(s)
        elif space == "swap_hands":
            t = self.swap_target(s)
            self.spin_records[-1]["other"] = t
            self.hands[s], self.hands[t] = self.hands[t], self.hands[s]
            self.void[s], self.void[t] = self.void[t], self.void[s]
            self.log(f"seat {s} swaps hands with seat {t}")
            for j in (s, t):
                if len(self.hands[j]) == 1:
                    self.uno_check(j)
        elif space == "two_x":
            self.two_x = True
            self.log("2X from the next player on")
        else:
            raise AssertionError(space)
        return None

    def war(self):
        """2005 War; returns the winning seat or None."""
        remaining = {i: [c for c in self.hands[i] if c.number is not None] for i in range(self.n)}
        active = [i for i in range(self.n) if remaining[i]]
        if not active:
            self.log("war: nobody holds a number card")
            return None
        shown = {i: [] for i in active}
        while True:
            showing = {}
            for i in active:
                if not remaining[i]:
                    continue  # no further number card: drops out
                best = max(c.number for c in remaining[i])
                k = self.rng.choice([k for k, c in enumerate(remaining[i]) if c.number == best])
                shown[i].append(remaining[i].pop(k))
                showing[i] = best
            if not showing:
                self.log("war: every tied player dropped out, nobody wins")
                return None
            self.log(
                "war: " + ", ".join(f"seat {i} shows {card_name(shown[i][-1])}" for i in showing)
            )
            best = max(showing.values())
            active = [i for i in showing if showing[i] == best]
            if len(active) == 1:
                break
        w = active[0]
        for c in shown[w]:
            self.hands[w].remove(c)  # equal cards are interchangeable
        self.log(f"war: seat {w} wins")
        self.discard_from_hand(w, shown[w], shuffle=False)  # last shown on top
        return w
