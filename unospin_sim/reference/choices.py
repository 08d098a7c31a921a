"""The reference engine's bots: every choice the rules leave to a player, per strategy
(``random``, ``heuristic``, ``hoarder``, ``tuned``, ``spin_aware``; docs/BOTS.md), in plain
Python."""

from __future__ import annotations

from functools import cache
from math import comb

from .cards import (
    COLOURS,
    NUMBER,
    WHEELS,
    WILD_DRAW_FOUR,
    WILD_SPIN,
    card_order,
    matches,
    wd4_legal,
)
from .program_values import program_estimate

#: hoarder: the hand size from which it plays wilds like any other card
HOARD_UNTIL = 3

#: spin_aware: points of card score per card of expected change of the spinner's hand
SPIN_WEIGHT = 15.0
#: spin_aware: the expected cards drawn by a draw-until-colour space (a colour is about a
#: quarter of the pile; a wild stops the 2005 draws too, not the 2025 ones)
SPIN_DRAW_UNTIL = {"spin2005": 2.5, "spin2025": 3.5}
#: the spaces valued by name; a variant's own spaces are valued from their steps
PUBLISHED_SPACES = frozenset(WHEELS["spin2005"] + WHEELS["spin2025"])


def space_estimate(space, h, most, smallest, before, players, draw_until):
    """spin_aware's estimate of the change of the spinner's hand size (cards) when the
    wheel stops on ``space``: h its cards, ``most`` the cards of its most held colour,
    ``smallest`` the smallest other hand (h when none is smaller), ``before`` the cards of
    the seat numbered one below it, ``draw_until`` SPIN_DRAW_UNTIL of the edition."""
    if space == "almost_uno":
        return -(h - 2.0) if h > 2 else 0.0
    if space == "discard_number":
        return -h / 6.0
    if space in ("discard_color", "color_discard"):
        return -most
    if space in ("draw_red", "draw_blue", "wild_color_draw") or space.startswith("color_draw_"):
        return draw_until
    if space in ("war", "uno_spin"):
        return -1.0 / players
    if space == "trade_hands":  # every hand passes one seat clockwise
        return before - h + 0.0
    if space == "swap_hands":  # with the smallest other hand
        return smallest - h + 0.0
    return 0.0  # show_hand, two_x


@cache
def _hands_by_largest_colour(per, wilds):
    """{m: ways} over a deck of four colours of ``per`` cards and ``wilds`` wilds: ways[k]
    is the number of k-card hands whose largest colour count is m (counted colour by
    colour, then the wilds added)."""
    by_largest = {0: [1]}
    for _ in range(4):
        after = {}
        for m, ways in by_largest.items():
            for j in range(per + 1):
                row = after.setdefault(max(m, j), [])
                if len(row) < len(ways) + j:
                    row.extend([0] * (len(ways) + j - len(row)))
                cj = comb(per, j)
                for k, w in enumerate(ways):
                    row[k + j] += w * cj
        by_largest = after
    out = {}
    for m, ways in by_largest.items():
        row = [0] * (len(ways) + wilds)
        for k, w in enumerate(ways):
            for j in range(wilds + 1):
                row[k + j] += w * comb(wilds, j)
        out[m] = row
    return out


@cache
def expected_largest_colour(h, per, wilds):
    """spin_aware's estimate of a hidden hand's most held colour: the expected largest
    colour count of h cards dealt from the round's deck, four colours of ``per`` cards and
    ``wilds`` wilds (public: the rules say the deck), a hand larger than the deck counting as
    the whole deck; exact up to the float division at the end."""
    deck = 4 * per + wilds
    h = min(h, deck)
    by_largest = _hands_by_largest_colour(per, wilds)
    total = sum(m * ways[h] for m, ways in by_largest.items() if h < len(ways))
    return total / comb(deck, h)


class Choices:
    """A mixin of :class:`~unospin_sim.reference.round.Round`: the seats' decisions."""

    # ------------------------------------------------------------------ strategies
    # Every choice the rules leave to a player.  The ``random`` bot's choices draw from the
    # round's stream; a seat whose strategy is ``heuristic`` (or ``hoarder``, ``tuned``,
    # ``spin_aware``) takes the choice below instead (docs/BOTS.md, the ``heuristic``
    # column), which draws no random number except for Almost UNO.
    def heuristic(self, s):
        """Does seat s take heuristic's choices? (hoarder does, but for the card it plays
        and the UNO Spin race discard; tuned and spin_aware but for the card they play and,
        tuned, the colour named: docs/BOTS.md)"""
        return self.bots[s]["strategy"] in ("heuristic", "hoarder", "tuned", "spin_aware")

    def hoarder(self, s):
        return self.bots[s]["strategy"] == "hoarder"

    def tuned(self, s):
        return self.bots[s]["strategy"] == "tuned"

    def spin_aware(self, s):
        return self.bots[s]["strategy"] == "spin_aware"

    def colour_counts(self, s):
        """Cards of each colour (red, yellow, green, blue) in seat s's hand."""
        counts = [0, 0, 0, 0]
        for c in self.hands[s]:
            if c.colour is not None:
                counts[c.colour] += 1
        return counts

    def colour_named(self, s):
        """The colour seat s names for a wild it played or that ended its wheel discard
        (the wild has already left the hand).  heuristic: the colour it holds most of, the
        first of red, yellow, green, blue on ties.  tuned: the best of (cards held of it, +
        w_name_void when the next player, current direction, is known to lack it), the first
        on ties."""
        if self.tuned(s):
            counts = self.colour_counts(s)
            lacks = self.void[self.seat(s + self.direction)]
            w = self.bots[s]["w_name_void"]
            score = [counts[c] + (w if c in lacks else 0.0) for c in range(4)]
            return score.index(max(score))
        if self.spin_aware(s) and self.bots[s]["name_colour"] == 0:
            return self.name_colour()  # skill denied: a colour at random
        if self.heuristic(s):
            counts = self.colour_counts(s)
            return counts.index(max(counts))
        return self.name_colour()

    def heuristic_card(self, s, legal):
        """heuristic: the index (among ``legal``) of the card to play.  Score: a Wild Draw
        Four 300 when the next player (current direction) holds <= 2 cards, else -200; any
        other wild 250 / -100; a coloured card its points + 2 x the cards of its colour in
        hand, +100 for a Skip / Reverse / Draw Two when the next player holds <= 2.  Ties:
        the first card met looking first through the colour in play, then at the other
        colours' cards matching the top card, then at the wilds (card_order within each)."""
        hand = self.hands[s]
        counts = self.colour_counts(s)
        next_small = len(self.hands[self.seat(s + self.direction)]) <= 2

        def score(c):
            if c.kind == WILD_DRAW_FOUR:
                return 300 if next_small else -200
            if c.colour is None:
                return 250 if next_small else -100
            sc = self.card_points(c) + 2 * counts[c.colour]
            if c.number is None and next_small:  # Skip, Reverse, Draw Two
                sc += 100
            return sc

        def looked_at(c):
            group = 0 if c.colour == self.colour else 1 if c.colour is not None else 2
            return group, card_order(c)

        return min(legal, key=lambda i: (-score(hand[i]), looked_at(hand[i])))

    def tuned_card(self, s, legal):
        """tuned: the index (among ``legal``) of the card to play, scored with the seat's
        weights (w = the bot dict).  The next player (current direction) is "small" when it
        holds <= 2 cards.  A Wild Draw Four scores w_wd4_attack when it is small, else
        w_wd4; any other wild w_wild_attack / w_wild; a coloured card w_points x its points
        + w_colour x the cards of its colour in hand, + w_attack for a Skip / Reverse / Draw
        Two when the next player is small (w_action when not), + w_void when the next
        player is known to lack its colour.  Ties as for heuristic."""
        w = self.bots[s]
        hand = self.hands[s]
        counts = self.colour_counts(s)
        nxt = self.seat(s + self.direction)
        small = len(self.hands[nxt]) <= 2

        def score(c):
            if c.kind == WILD_DRAW_FOUR:
                return w["w_wd4_attack"] if small else w["w_wd4"]
            if c.colour is None:
                return w["w_wild_attack"] if small else w["w_wild"]
            sc = w["w_points"] * self.card_points(c) + w["w_colour"] * counts[c.colour]
            if c.number is None:  # Skip, Reverse, Draw Two
                sc += w["w_attack"] if small else w["w_action"]
            if c.colour in self.void[nxt]:
                sc += w["w_void"]
            return sc

        def looked_at(c):
            group = 0 if c.colour == self.colour else 1 if c.colour is not None else 2
            return group, card_order(c)

        return min(legal, key=lambda i: (-score(hand[i]), looked_at(hand[i])))

    def spin_value(self, q, own):
        """spin_aware: the expected change of seat q's hand size if q spins now, the mean
        of :func:`space_estimate` over the wheel's spaces weighted by the wheel's weights.
        The deciding seat knows q's colours when q is itself (``own``); else it takes the
        expected largest colour count of a hand of q's size (it sees only the size) dealt
        from the round's deck (``deck_colours``)."""
        h = len(self.hands[q])
        if own:
            most = max(self.colour_counts(q)) + 0.0
        else:
            most = expected_largest_colour(h, *self.deck_colours)
        smallest = h
        for o in range(self.n):
            if o != q:
                smallest = min(smallest, len(self.hands[o]))
        before = len(self.hands[(q - 1) % self.n])
        draw_until = SPIN_DRAW_UNTIL[self.edition]
        total = change = 0.0
        sizes = [len(hand) for hand in self.hands]
        programs = getattr(self, "programs", {})
        for space, w in zip(self.spaces, self.weights):
            if w > 0:
                if space in PUBLISHED_SPACES or space not in programs:
                    d = space_estimate(space, h, most, smallest, before, self.n, draw_until)
                else:  # a variant's own space: from its steps
                    d = program_estimate(
                        programs[space], q, sizes, self.direction, most, draw_until
                    )
                total += w
                change += w * d
        return change / total if total > 0 else 0.0

    def spin_bonus(self, s):
        """spin_aware: the score a Spin card (a Wild Spin too) of seat s gains.  2025 (s
        spins): -SPIN_WEIGHT x its own spin value.  2005 (the next player spins instead of
        a turn, which counts one card): SPIN_WEIGHT x (the next player's spin value + 1),
        doubled when no other seat holds fewer cards than the next player."""
        if self.edition == "spin2005":
            nxt = self.seat(s + self.direction)
            bonus = SPIN_WEIGHT * (self.spin_value(nxt, False) + 1.0)
            size = len(self.hands[nxt])
            if all(len(self.hands[o]) >= size for o in range(self.n) if o not in (s, nxt)):
                bonus *= 2.0
            return bonus
        return -SPIN_WEIGHT * self.spin_value(s, True)

    def spin_aware_card(self, s, legal):
        """spin_aware: the index (among ``legal``) of the card to play.  heuristic's score
        (:meth:`heuristic_card`), plus :meth:`spin_bonus` for a card that spins the wheel;
        a Wild Spin then counts its points (250 when the next player holds <= 2 cards)
        instead of a kept wild's -100.  Ties as for heuristic.  Its skills denied (knobs
        at 0): ``attack`` scores as if the next player held more than 2 cards,
        ``value_wheel`` adds no spin bonus (a Wild Spin is scored as any wild), ``hold_wilds`` scores any wild (the Wild Draw
        Four too) at its points when not attacking."""
        hand = self.hands[s]
        b = self.bots[s]
        counts = self.colour_counts(s)
        next_small = len(self.hands[self.seat(s + self.direction)]) <= 2 and b["attack"] != 0
        wheel = b["value_wheel"] != 0  # denied: a Wild Spin is scored as any wild
        valued = wheel and any(self.spins_wheel(hand[i]) for i in legal)
        bonus = self.spin_bonus(s) if valued else 0.0
        hold = b["hold_wilds"] != 0

        def score(c):
            if c.kind == WILD_DRAW_FOUR:
                return 300.0 if next_small else -200.0 if hold else self.card_points(c) + 0.0
            if c.kind == WILD_SPIN and wheel and self.spins_wheel(c):
                return (250.0 if next_small else self.card_points(c) + 0.0) + bonus
            if c.colour is None:
                return 250.0 if next_small else -100.0 if hold else self.card_points(c) + 0.0
            sc = self.card_points(c) + 2.0 * counts[c.colour]
            if c.number is None and next_small:  # Skip, Reverse, Draw Two
                sc += 100.0
            if self.spins_wheel(c):
                sc += bonus
            return sc

        def looked_at(c):
            group = 0 if c.colour == self.colour else 1 if c.colour is not None else 2
            return group, card_order(c)

        return min(legal, key=lambda i: (-score(hand[i]), looked_at(hand[i])))

    def hoarder_card(self, s, legal):
        """hoarder: the index (among ``legal``) of the card to play, or None to draw
        instead.  A coloured card scores its points + 2 x the cards of its colour in hand; a
        wild scores its points while the hand holds <= HOARD_UNTIL cards, else it is kept:
        with no coloured card legal the seat draws instead (when there is anything to draw:
        draw pile or discards under the top card), else plays a kept wild (a wild that is
        not a Wild Draw Four first, then the first in card order).  Ties: the first card
        met, looked at as for heuristic."""
        hand = self.hands[s]
        counts = self.colour_counts(s)
        small = len(hand) <= HOARD_UNTIL

        def looked_at(c):
            group = 0 if c.colour == self.colour else 1 if c.colour is not None else 2
            return group, card_order(c)

        scored = [i for i in legal if hand[i].colour is not None or small]
        if scored:

            def score(c):
                return self.card_points(c) + (2 * counts[c.colour] if c.colour is not None else 0)

            return min(scored, key=lambda i: (-score(hand[i]), looked_at(hand[i])))
        if self.draw_pile or len(self.discard) > 1:
            return None
        kept = [i for i in legal if hand[i].colour is None]
        if not kept:
            return None
        return min(kept, key=lambda i: (hand[i].kind == WILD_DRAW_FOUR, card_order(hand[i])))

    def forced_card(self, s):
        """force_play: the hand index of the playable card that comes first in card order
        (the kernel's kind order; a Wild Draw Four only when legal: a bluff is never
        forced), None when nothing is playable."""
        hand = self.hands[s]
        wd4_ok = wd4_legal(hand, self.colour, self.wmc)
        top = self.top()
        ok = [
            i
            for i, c in enumerate(hand)
            if (wd4_ok if c.kind == WILD_DRAW_FOUR else matches(c, top, self.colour))
        ]
        return min(ok, key=lambda i: card_order(hand[i])) if ok else None

    def number_named(self, s):
        """2005 Discard Number: the number the seat names."""
        hand = self.hands[s]
        if self.heuristic(s):
            # count x (number + 1), the lowest number on ties (0 when it holds none)
            return max(range(10), key=lambda x: (sum(c.number == x for c in hand) * (x + 1), -x))
        numbers = sorted({c.number for c in hand if c.number is not None})
        return self.rng.choice(numbers) if numbers else self.rng.randrange(10)

    def colour_to_discard(self, s):
        """2005 Discard Color / 2025 Color Discard: the colour named."""
        if self.heuristic(s):
            # the colour whose cards are worth the most: points + count (first on ties)
            worth = [0, 0, 0, 0]
            for c in self.hands[s]:
                if c.colour is not None:
                    worth[c.colour] += self.card_points(c) + 1
            x = worth.index(max(worth))
            self.log(f"seat {s} names {COLOURS[x]}")
            return x
        return self.named_colour_held(s)

    def colour_to_draw(self, s):
        """2025 Wild Color Draw: the colour named."""
        if self.heuristic(s):
            counts = self.colour_counts(s)
            x = counts.index(min(counts))  # the fewest held, first on ties
            self.log(f"seat {s} names {COLOURS[x]}")
            return x
        return self.named_colour_held(s)

    def almost_uno_keep(self, s):
        """2005 Almost UNO: the set of hand indices seat s keeps (two)."""
        hand = self.hands[s]
        if self.heuristic(s):
            # up to two wilds, the later ones in WILD_ORDER first (a Wild Draw Four before
            # a plain Wild); the rest uniformly among the other card instances
            wilds = sorted(
                (k for k, c in enumerate(hand) if c.colour is None),
                key=lambda k: -card_order(hand[k]),
            )[:2]
            rest = [k for k in range(len(hand)) if k not in wilds]
            return set(wilds) | set(self.rng.sample(rest, 2 - len(wilds)))
        return set(self.rng.sample(range(len(hand)), 2))

    def race_discard(self, w):
        """2005 UNO Spin race: the hand index of the card the winner w discards."""
        hand = self.hands[w]
        if self.hoarder(w):
            # the coloured card worth the most (first in card_order on ties); a wild only
            # when it holds nothing else (then the first in card_order)
            return min(
                range(len(hand)),
                key=lambda k: (
                    (1, 0) if hand[k].colour is None else (0, -self.card_points(hand[k])),
                    card_order(hand[k]),
                ),
            )
        if self.heuristic(w):
            # the most points, a wild counting 0 (wilds last); first in card_order on ties
            return min(
                range(len(hand)),
                key=lambda k: (
                    -(self.card_points(hand[k]) if hand[k].colour is not None else 0),
                    card_order(hand[k]),
                ),
            )
        return self.rng.randrange(len(hand))

    def card_to_give(self, a, t):
        """A wheel program's give: the hand index of the card seat a gives to seat t."""
        hand = self.hands[a]
        if self.heuristic(a) and not self.hoarder(a):
            # a coloured card: first of a colour t is known to lack, then a number card
            # before a Spin or action card, then the most points; a wild only when it
            # holds nothing else; ties: the first in card_order
            lacks = self.void[t]
            return min(
                range(len(hand)),
                key=lambda k: (
                    hand[k].colour is None,
                    hand[k].colour not in lacks,
                    hand[k].kind != NUMBER,
                    -(self.card_points(hand[k]) if hand[k].colour is not None else 0),
                    card_order(hand[k]),
                ),
            )
        return self.race_discard(a)  # random and hoarder: their race discard

    def swap_target(self, p):
        """Swap Hands (2025 wheel, a 7 under seven_o, Wild Swap Hands): the other seat;
        never the partner under partners."""
        if self.heuristic(p):
            # the smallest hand, the nearest in turn order on ties
            best = None
            for i in range(1, self.n):
                q = self.seat(p + i * self.direction)
                if q == self.partner(p):
                    continue
                if best is None or len(self.hands[q]) < len(self.hands[best]):
                    best = q
            return best
        return self.rng.choice([j for j in range(self.n) if j != p and j != self.partner(p)])

    def web_swing_target(self, p, eligible):
        """Web Swing: the seat picked among ``eligible`` (the others holding the colour,
        short of the partner when possible)."""
        if self.heuristic(p):
            return min(eligible, key=lambda j: (len(self.hands[j]), j))  # fewest, lowest seat
        return self.rng.choice(eligible)

    def draw_two_to_stack(self, v, stackable):
        """Stacking: the hand index of the card seat v stacks (``stackable``: its indices of
        the pending penalty's face)."""
        if self.heuristic(v):
            hand = self.hands[v]
            if hand[stackable[0]].kind == WILD_DRAW_FOUR:
                return stackable[0]  # all alike
            counts = self.colour_counts(v)
            # the Draw Two of the colour held most, first of red, yellow, green, blue on ties
            return min(stackable, key=lambda i: (-counts[hand[i].colour], hand[i].colour))
        return self.rng.choice(stackable)

    def pick(self, s, state):
        """Index of the card the random bot plays, or None.  ``state['bluff']`` holds
        the turn's bluff coin (None until tossed)."""
        hand = self.hands[s]
        top = self.top()
        colour = self.colour
        has_wd4 = any(c.kind == WILD_DRAW_FOUR for c in hand)
        wd4_ok = has_wd4 and wd4_legal(hand, colour, self.wmc)
        if has_wd4 and not wd4_ok and self.bots[s]["bluff"] > 0:
            if state["bluff"] is None:
                state["bluff"] = self.rng.random() < self.bots[s]["bluff"]
            wd4_ok = state["bluff"]
        legal = [
            i
            for i, c in enumerate(hand)
            if (wd4_ok if c.kind == WILD_DRAW_FOUR else matches(c, top, colour))
        ]
        if not legal:
            return None
        if self.hoarder(s):
            return self.hoarder_card(s, legal)
        if self.tuned(s):
            return self.tuned_card(s, legal)
        if self.spin_aware(s):
            return self.spin_aware_card(s, legal)
        if self.heuristic(s):
            return self.heuristic_card(s, legal)
        return self.rng.choice(legal)

    def named_colour_held(self, s):
        colours = sorted({c.colour for c in self.hands[s] if c.colour is not None})
        x = self.rng.choice(colours) if colours else self.rng.randrange(4)
        self.log(f"seat {s} names {COLOURS[x]}")
        return x
