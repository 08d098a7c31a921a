"""The reference engine's interpreter of wheel programs (docs/WHEEL_PROGRAMS.md).

A program is plain data: a list of steps, each a dict ``{"step": kind, **parameters}`` with
every parameter given (``unospin_sim.rules.variants`` reads and checks the files and fills
in the defaults; ``ProgramSpace.as_dicts()`` gives this form). This module does not read
the rules' code: it is written again from the vocabulary's text, in plain Python, as the
rest of the reference engine is.

:class:`ProgramRound` is a :class:`~unospin_sim.reference.round.Round` whose wheel spaces
named in ``programs`` run their program instead of the hand-written space, and whose wheel
may be a variant's (``wheel``: ``{space: weight}``).
"""

from __future__ import annotations

from .cards import COLOURS, card_name, card_order
from .program_values import fewest_other
from .round import Round

#: the colour words of a ``draw_until``
COLOUR_WORDS = {"red": 0, "yellow": 1, "green": 2, "blue": 3}


class Steps:
    """A mixin of :class:`ProgramRound`: the steps of a wheel program.

    Every player word is read from the spinner ``s``: ``next`` and ``previous`` in the
    direction of play, ``others`` in turn order from the next player, ``leader`` the other
    player with the fewest cards (the nearest in turn order on ties), ``other`` the other
    party of the last step that named one. ``chosen`` (a step's other party) is the actor's
    choice, made as for Swap Hands.
    """

    # ------------------------------------------------------------------ the program
    def space_effect(self, s, space):
        program = self.programs.get(space)
        if program is None:
            return super().space_effect(s, space)
        self.program_other = -1  # the other party of the last step that named one
        self.program_after = None  # 2005: the seat after which play continues
        self.program_skips = 0
        self.run_steps(s, program)
        after = self.program_after
        if self.program_skips and self.edition == "spin2005":
            # the flow adds one seat in the direction of play to what the spin returns
            base = s if after is None else after
            return base + self.direction * self.program_skips
        return after

    def spin_then_resolve(self, p, played):
        # 2025: the spin runs inside, before the played cards' effects; a skip step then
        # moves the next seat on (unless a penalty is pending on the next player)
        self.program_skips = 0
        nxt = super().spin_then_resolve(p, played)
        if self.edition == "spin2025" and self.program_skips and not self.penalty:
            nxt += self.direction * self.program_skips
        return nxt

    def run_steps(self, s, steps):
        """Run ``steps`` (step dicts) for the spinner s, in order."""
        for step in steps:
            getattr(self, "step_" + step["step"])(s, step)

    def name_other(self, seat):
        """``seat`` is the other party of the spin (-1: nobody)."""
        self.program_other = seat
        self.spin_records[-1]["other"] = seat

    # ------------------------------------------------------------------ players
    def players(self, s, word):
        """The seats a player word names (a list, in turn order)."""
        n, d = self.n, self.direction
        if word == "spinner":
            return [s]
        if word == "next":
            return [self.seat(s + d)]
        if word == "previous":
            return [self.seat(s - d)]
        if word == "others":
            return [self.seat(s + k * d) for k in range(1, n)]
        if word == "leader":
            return [fewest_other([len(hand) for hand in self.hands], s, d)]
        if word == "other":
            return [self.program_other] if self.program_other >= 0 else []
        raise ValueError(f"unknown player {word!r}")

    def party(self, s, actor, word):
        """The seat of a step's other party (``chosen``: the actor's choice), or None."""
        if word == "chosen":
            return self.swap_target(actor)
        seats = self.players(s, word)
        return seats[0] if seats else None

    def keep_choice(self, p, k):
        """Discard down to k: the set of hand indices seat p keeps (Almost UNO's choice,
        for any k). heuristic: up to k wilds, the later ones in WILD_ORDER first, the rest
        uniformly among the other cards; random: k cards uniformly."""
        hand = self.hands[p]
        if self.heuristic(p):
            wilds = sorted(
                (i for i, c in enumerate(hand) if c.colour is None),
                key=lambda i: -card_order(hand[i]),
            )[:k]
            rest = [i for i in range(len(hand)) if i not in wilds]
            return set(wilds) | set(self.rng.sample(rest, k - len(wilds)))
        return set(self.rng.sample(range(len(hand)), k))

    # ------------------------------------------------------------------ the steps
    def step_draw(self, s, step):
        """Each player of ``who`` draws ``n`` cards."""
        for p in self.players(s, step["who"]):
            self.draw_n(p, step["n"], "wheel")

    def step_draw_until(self, s, step):
        """Each player draws until a card of one of the colours (a wild too, per
        ``wild_stops``); ``chosen``: the drawer names the colour, as for Wild Color Draw."""
        words = step["colour"]
        words = [words] if isinstance(words, str) else list(words)
        stops = self.wscd if step["wild_stops"] == "option" else bool(step["wild_stops"])
        for p in self.players(s, step["who"]):
            colours = [self.colour_to_draw(p) if w == "chosen" else COLOUR_WORDS[w] for w in words]
            got = 0
            while True:
                c = self.draw_one(p)
                if c is None:
                    break
                got += 1
                if c.colour in colours or (stops and c.colour is None):
                    break
            looking = " or ".join(COLOURS[x] for x in colours) or "a wild"
            self.log(f"seat {p} draws {got} card(s) looking for {looking}")

    def step_discard(self, s, step):
        """Each player discards every card of a colour or number it names, one card
        of its choice or down to ``keep`` cards; on top (in an order it chooses: shuffled) or
        under the pile."""
        what, place = step["what"], step["place"]
        for p in self.players(s, step["who"]):
            hand = self.hands[p]
            if what == "colour":
                x = self.colour_to_discard(p)
                gone = [k for k, c in enumerate(hand) if c.colour == x]
            elif what == "number":
                x = self.number_named(p)
                self.log(f"seat {p} names number {x}")
                gone = [k for k, c in enumerate(hand) if c.number == x]
            elif what == "one":
                if not hand:
                    continue
                gone = [self.race_discard(p)]
            elif what == "down_to":
                if len(hand) <= step["keep"]:
                    continue
                keep = self.keep_choice(p, step["keep"])
                gone = [k for k in range(len(hand)) if k not in keep]
            else:
                raise ValueError(f"unknown discard {what!r}")
            cards = [hand[k] for k in gone]
            out = set(gone)
            self.hands[p] = [c for k, c in enumerate(hand) if k not in out]
            if place == "top":
                self.discard_from_hand(p, cards)
            else:
                self.discard[0:0] = cards  # under the top: top and colour unchanged
                self.wheel_discards[p] += len(cards)
                self.log(f"seat {p} puts {len(cards)} card(s) under the discard pile")
                if cards:
                    self.after_hand_shrinks(p)

    def step_give(self, s, step):
        """The player gives ``n`` cards of its choice (``card_to_give``, card by card) to
        ``to``."""
        for a in self.players(s, step["who"])[:1]:
            t = self.party(s, a, step["to"])
            if t is None or t == a:
                continue
            self.name_other(t)
            for _ in range(step["n"]):
                if not self.hands[a]:
                    break
                card = self.hands[a].pop(self.card_to_give(a, t))
                self.hands[t].append(card)
                self.void[t].clear()  # it took a card: what it lacked is forgotten
                self.log(f"seat {a} gives {card_name(card)} to seat {t}")
                self.after_hand_shrinks(a)

    def step_show_hand(self, s, step):
        """Each player shows its hand: a log line, no change."""
        for p in self.players(s, step["who"]):
            self.log(f"seat {p} shows: {', '.join(card_name(c) for c in self.hands[p])}")

    def step_swap_hands(self, s, step):
        """The player swaps hands (and what it is known to lack) with ``with``."""
        for a in self.players(s, step["who"])[:1]:
            t = self.party(s, a, step["with"])
            if t is None or t == a:
                continue
            self.name_other(t)
            self.hands[a], self.hands[t] = self.hands[t], self.hands[a]
            self.void[a], self.void[t] = self.void[t], self.void[a]
            self.log(f"seat {a} swaps hands with seat {t}")
            for j in (a, t):
                if len(self.hands[j]) == 1:
                    self.uno_check(j)

    def step_trade_hands(self, s, step):
        """Every hand passes one seat in ``direction``."""
        n = self.n
        way = {"clockwise": 1, "counterclockwise": -1, "play": self.direction}
        d = way.get(step["direction"], -self.direction)  # against_play
        self.hands = [self.hands[(i - d) % n] for i in range(n)]
        self.void = [self.void[(i - d) % n] for i in range(n)]
        self.name_other((s + d) % n)  # receives the spinner's hand
        self.log(f"every hand passes one seat {'clockwise' if d == 1 else 'counter-clockwise'}")
        for i in range(n):
            if len(self.hands[i]) == 1:
                self.uno_check(i)

    def step_skip(self, s, step):
        """The next ``players`` players in turn lose their turn."""
        self.program_skips += step["players"]
        self.log(f"the next {step['players']} player(s) in turn skipped")

    def step_reverse(self, s, step):
        """The direction of play reverses."""
        self.direction = -self.direction
        self.log("the direction of play reverses")

    def step_two_x(self, s, step):
        """2X from the next player on, until the next spin."""
        self.two_x = True
        self.log("2X from the next player on")

    def step_war(self, s, step):
        """2005 War; play continues after the winner, the other party."""
        w = self.war()
        self.name_other(-1 if w is None else w)
        self.program_after = w

    def step_uno_spin_race(self, s, step):
        """2005 UNO Spin race: the winner by the bots' reflex weights; play
        continues after it, the other party."""
        w = self.rng.choices(range(self.n), weights=[b["reflex"] for b in self.bots])[0]
        self.name_other(w)
        self.log(f"seat {w} wins the UNO Spin race")
        self.program_after = w

    def step_repeat(self, s, step):
        """The ``steps``, ``times`` times over."""
        for _ in range(step["times"]):
            self.run_steps(s, step["steps"])


class ProgramRound(Steps, Round):
    """A round whose wheel spaces run programs.

    Parameters
    ----------
    edition, players, seed, options, bots, trace
        As :class:`~unospin_sim.reference.round.Round`'s.
    programs : dict
        ``{space: [step dict, ...]}``: the spaces that run a program (others keep the
        hand-written space).
    wheel : dict, optional
        ``{space: weight}``: a variant's wheel, in its order (None: the edition's wheel, as
        ``options.wheel`` sets it).
    """

    def __init__(
        self, edition, players, seed, options=None, bots=None, trace=None, programs=None, wheel=None
    ):
        self.programs = dict(programs or {})
        self.variant_wheel = None if wheel is None else dict(wheel)
        super().__init__(edition, players, seed, options, bots, trace)

    def set_deck_options(self, options):
        super().set_deck_options(options)
        if self.variant_wheel is None:
            return
        if not self.spaces:
            raise ValueError(f"{self.edition} has no wheel to extend")
        if options.wheel is not None:
            raise ValueError("a variant's wheel and option wheel cannot both be given")
        for space, w in self.variant_wheel.items():
            if space not in self.spaces and space not in self.programs:
                raise ValueError(f"{space!r} is neither a {self.edition} space nor a program")
            if not (isinstance(w, int) and not isinstance(w, bool) and w >= 0):
                raise ValueError(f"wheel weight of {space} must be a whole number >= 0")
        if sum(self.variant_wheel.values()) <= 0:
            raise ValueError("wheel weights must not all be 0")
        self.spaces = tuple(self.variant_wheel)
        self.weights = [float(w) for w in self.variant_wheel.values()]


def play_program_round(
    edition, players, seed, programs, wheel=None, options=None, bots=None, trace=None
):
    """Play one round whose wheel spaces named in ``programs`` run their program; the
    arguments and the result as :func:`~unospin_sim.reference.round.play_round`'s, with
    ``programs`` and ``wheel`` as :class:`ProgramRound`'s."""
    r = ProgramRound(edition, players, seed, options, bots, trace, programs, wheel)
    r.setup()
    r.run()
    return r.result()
