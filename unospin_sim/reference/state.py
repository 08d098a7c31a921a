"""The reference engine's round state: the options checked, the seats' knobs, the piles and
hands, and the plain actions on them (draws, UNO checks, the result)."""

from __future__ import annotations

import operator
import random

from .cards import (
    COLOURS,
    DRAW_TWO,
    EDITIONS,
    POINTS,
    REVERSE,
    SHUFFLE_WILD,
    SKIP,
    SPECIAL_WILDS,
    SPIN,
    SWAP_WILD,
    WEB_SWING,
    WHEELS,
    WILD,
    WILD_DRAW_FOUR,
    WILD_SPIN,
    build_deck,
    card_points,
    hand_points,
    is_number_card,
)
from .options import Options

#: ``tuned``'s weights (docs/BOTS.md), here at heuristic's numbers: with them ``tuned`` plays
#: as ``heuristic``
TUNED_DEFAULTS = {
    "w_points": 1.0,
    "w_colour": 2.0,
    "w_attack": 100.0,
    "w_action": 0.0,
    "w_wild": -100.0,
    "w_wild_attack": 250.0,
    "w_wd4": -200.0,
    "w_wd4_attack": 300.0,
    "w_void": 0.0,
    "w_name_void": 0.0,
}
BOT_DEFAULTS = {
    "forget": 0.0,
    "catch": 0.5,
    "bluff": 0.0,
    "challenge": 0.0,
    "reflex": 1.0,
    "jump": 1.0,
    "strategy": "random",
    **TUNED_DEFAULTS,
    # spin_aware's skills (restricted play): 0 denies it the skill
    "name_colour": 1.0,
    "hold_wilds": 1.0,
    "attack": 1.0,
    "value_wheel": 1.0,
}

#: the strategies this module plays (docs/BOTS.md): a bot dict's ``strategy``
STRATEGIES = ("random", "heuristic", "hoarder", "tuned", "spin_aware")

#: the deck's copies options: the card kind each counts and its largest value
COPIES_OPTIONS = {
    "skip_cards": (SKIP, 4),
    "reverse_cards": (REVERSE, 4),
    "draw_two_cards": (DRAW_TWO, 4),
    "wild_cards": (WILD, 8),
    "wd4_cards": (WILD_DRAW_FOUR, 8),
}
#: the wild kinds only some editions' decks hold, by edition (option points scores the
#: actions, Wild, Wild Draw Four and these)
EDITION_WILDS = {
    "classic": (SWAP_WILD, SHUFFLE_WILD),
    "spin2005": (),
    "spin2025": (WILD_SPIN,),
    "spiderman": (WEB_SWING,),
}


class RoundOver(Exception):
    """Raised when the round ends in the middle of an action (a hand emptied)."""


class RoundState:
    """The whole state of one round and the plain actions on it (draws, UNO checks, the
    result); the mixins of :class:`~unospin_sim.reference.round.Round` add the rules."""

    def __init__(self, edition, players, seed, options=None, bots=None, trace=None):
        """``options``: an :class:`~unospin_sim.reference.options.Options` (None: every
        option at its default); ``bots`` and ``trace`` as
        :func:`~unospin_sim.reference.round.play_round`'s."""
        if options is None:
            options = Options()
        if not isinstance(options, Options):
            raise TypeError(f"options must be a reference Options, got {options!r}")
        if edition not in EDITIONS:
            raise ValueError(f"unknown edition {edition!r}; expected one of {EDITIONS}")
        players, turn_cap = operator.index(players), operator.index(options.turn_cap)
        if not 2 <= players <= 10:
            raise ValueError(f"players must be 2..10, got {players!r}")
        if turn_cap < 1:
            raise ValueError(f"turn_cap must be >= 1, got {turn_cap!r}")
        self.edition = edition
        self.n = players
        self.turn_cap = turn_cap
        self.trace = trace
        self.rng = random.Random(seed)
        self.set_deck_options(options)
        self.set_bots(bots)
        self.set_house_rules(options)
        self.set_numbers(options)
        self.deck = build_deck(
            edition,
            options.wild_spin_cards,
            options.special_wilds,
            options.spin_cards,
            {kind: getattr(options, name) for name, (kind, _) in COPIES_OPTIONS.items()},
        )
        self.check_deal()
        self.start_state()

    def set_deck_options(self, options):
        """The edition's options: wilds, colour draws, the Spin cards and the wheel weights."""
        edition = self.edition
        wild_matches_colour = options.wild_matches_colour
        wild_stops_colour_draw = options.wild_stops_colour_draw
        wild_spin_cards, spin_cards = options.wild_spin_cards, options.spin_cards
        wheel = options.wheel
        if wild_matches_colour is None:
            wild_matches_colour = edition != "classic"
        self.wmc = bool(wild_matches_colour)

        self.spaces = WHEELS.get(edition, ())
        if not self.spaces:
            if wild_stops_colour_draw is not None:
                raise ValueError(f"wild_stops_colour_draw is not an option of {edition}")
            if wheel is not None:
                raise ValueError(f"{edition} has no wheel")
        if wild_stops_colour_draw is None:
            wild_stops_colour_draw = edition == "spin2005"
        self.wscd = bool(wild_stops_colour_draw)
        if edition != "spin2025" and wild_spin_cards != 4:
            raise ValueError(f"wild_spin_cards is not an option of {edition}")
        if not (isinstance(wild_spin_cards, int) and 0 <= wild_spin_cards <= 4):
            raise ValueError(f"wild_spin_cards must be 0..4, got {wild_spin_cards!r}")
        if edition not in ("spin2005", "spin2025") and spin_cards != 5:
            raise ValueError(f"spin_cards is not an option of {edition}")
        if not (isinstance(spin_cards, int) and 0 <= spin_cards <= 9):
            raise ValueError(f"spin_cards must be 0..9, got {spin_cards!r}")

        if self.spaces:
            if wheel is None:
                wheel = {s: 1.0 for s in self.spaces}
            for s, w in wheel.items():
                if s not in self.spaces:
                    raise ValueError(f"{s!r} is not a space of the {edition} wheel")
                if not w >= 0:
                    raise ValueError(f"wheel weight of {s} must be >= 0, got {w!r}")
            self.weights = [float(wheel.get(s, 0.0)) for s in self.spaces]
            if sum(self.weights) <= 0:
                raise ValueError("wheel weights must not all be 0")

    def set_bots(self, bots):
        """One knob dict per seat, the defaults filled in and every knob checked."""
        players = self.n
        if bots is None:
            bots = [{}] * players
        if len(bots) != players:
            raise ValueError(f"need {players} bots, got {len(bots)}")
        self.bots = []
        for b in bots:
            unknown = set(b) - set(BOT_DEFAULTS)
            if unknown:
                raise ValueError(f"unknown bot knob(s) {sorted(unknown)}")
            knobs = dict(BOT_DEFAULTS, **b)
            if knobs["strategy"] not in STRATEGIES:
                raise ValueError(
                    f"bot strategy must be one of {STRATEGIES}, got {knobs['strategy']!r}"
                )
            for k in ("forget", "catch", "bluff", "challenge", "jump"):
                if not 0 <= knobs[k] <= 1:
                    raise ValueError(f"bot knob {k} must be in [0, 1], got {knobs[k]!r}")
            if not knobs["reflex"] >= 0:
                raise ValueError(f"bot knob reflex must be >= 0, got {knobs['reflex']!r}")
            for k in TUNED_DEFAULTS:
                if not isinstance(knobs[k], (int, float)) or not abs(knobs[k]) < float("inf"):
                    raise ValueError(f"bot knob {k} must be a finite number, got {knobs[k]!r}")
            self.bots.append(knobs)

    def set_numbers(self, options):
        """The deck's numbers: Draw Two and Wild Draw Four draws, the UNO penalty."""
        for name, lo, hi in (
            ("draw_two_draws", 1, 10),
            ("wd4_draws", 1, 20),
            ("uno_penalty", 0, 10),
            ("hand_size", 1, 20),
        ):
            value = getattr(options, name)
            if not (isinstance(value, int) and not isinstance(value, bool) and lo <= value <= hi):
                raise ValueError(f"{name} must be {lo}..{hi}, got {value!r}")
        for name, (_, hi) in COPIES_OPTIONS.items():
            value = getattr(options, name)
            if not (isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= hi):
                raise ValueError(f"{name} must be 0..{hi}, got {value!r}")
        self.draw_two_n = options.draw_two_draws
        self.wd4_n = options.wd4_draws
        self.uno_penalty = options.uno_penalty
        self.hand_size = options.hand_size
        self.set_points(options.points)

    def set_points(self, points):
        """Option points: ``{kind: points}`` for the action and wild kinds the edition's
        deck may hold (None: the published scores)."""
        kinds = (SKIP, REVERSE, DRAW_TWO, WILD, WILD_DRAW_FOUR, *EDITION_WILDS[self.edition])
        self.points = {k: POINTS[k] for k in kinds}
        for k, v in (points or {}).items():
            if k not in self.points:
                raise ValueError(f"points: {k!r} is not a card kind of the {self.edition} deck")
            if not (isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 1000):
                raise ValueError(f"points of {k} must be 0..1000, got {v!r}")
            self.points[k] = v

    def card_points(self, card):
        """The card's score under option points (numbers and Spin cards: their number)."""
        return card_points(card, self.points)

    def check_deal(self):
        """Refuse a deal that could leave no card the first-card rule keeps (a number card
        in spin2025 and spiderman, else anything but a Wild Draw Four)."""
        if self.edition in ("spin2025", "spiderman"):
            put_back = sum(not is_number_card(c) for c in self.deck)
        else:
            put_back = sum(c.kind == WILD_DRAW_FOUR for c in self.deck)
        if self.n * self.hand_size + put_back >= len(self.deck):
            raise ValueError(
                f"hand_size={self.hand_size} with {self.n} players leaves too few of the "
                f"deck's {len(self.deck)} cards to turn a first card"
            )

    def set_house_rules(self, options):
        """The house rules (docs/HOUSE_RULES.md), each checked."""
        edition, players = self.edition, self.n
        stacking, seven_o = options.stacking, options.seven_o
        draw_until_playable, force_play = options.draw_until_playable, options.force_play
        jump_in, jump_in_wilds = options.jump_in, options.jump_in_wilds
        partners, special_wilds = options.partners, options.special_wilds
        stacked_wd4 = options.stacked_wd4
        # house rules (docs/HOUSE_RULES.md)
        for name, value in (
            ("stacking", stacking),
            ("seven_o", seven_o),
            ("draw_until_playable", draw_until_playable),
            ("jump_in", jump_in),
            ("partners", partners),
            ("force_play", force_play),
            ("jump_in_wilds", jump_in_wilds),
        ):
            if not isinstance(value, bool):
                raise ValueError(f"{name} must be True or False, got {value!r}")
        if special_wilds not in SPECIAL_WILDS:
            raise ValueError(
                f"special_wilds must be one of {tuple(SPECIAL_WILDS)}, got {special_wilds!r}"
            )
        if special_wilds != "none" and edition != "classic":
            raise ValueError(f"special_wilds is not an option of {edition}")
        if stacked_wd4 not in ("checked", "free"):
            raise ValueError(f"stacked_wd4 must be 'checked' or 'free', got {stacked_wd4!r}")
        if stacked_wd4 != "checked" and not stacking:
            raise ValueError("stacked_wd4='free' needs stacking=True")
        self.stacking = stacking
        # a stacked Wild Draw Four: judged by the Wild Draw Four rule (checked) or never
        self.stacked_wd4_free = stacked_wd4 == "free"
        self.draw_until_playable = draw_until_playable
        self.force_play = force_play
        self.seven_o = seven_o
        self.special_wilds = special_wilds
        if partners and (players % 2 or players < 4):
            raise ValueError(f"partners needs 4, 6, 8 or 10 players, got {players}")
        self.jump_in = jump_in
        if jump_in_wilds and not jump_in:
            raise ValueError("jump_in_wilds=True needs jump_in=True")
        self.jump_in_wilds = jump_in_wilds  # a wild may be jumped on with the identical wild
        self.partners = partners
        self.last_play = None  # jump_in: (card, seat) of the last card played
        self.jumped = set()  # jump_in: seats that jumped in since turn jumped_turn
        self.jumped_turn = 0

    def start_state(self):
        """Empty piles and hands, the counters at zero: the round before its set-up."""
        players = self.n
        self.draw_pile = []  # top = last element
        self.discard = []  # top = last element
        self.hands = [[] for _ in range(players)]
        self.void = [set() for _ in range(players)]  # colours each hand is known to lack
        self.colour = None  # current colour 0-3
        self.direction = 1  # +1 clockwise (increasing seat), -1 counter-clockwise
        self.cur = 0  # seat to act next
        self.first_player = 0
        self.turns = 0
        self.winner = -1
        self.two_x = False
        self.spin_pending = False  # 2005: the seat to act next spins instead of its turn
        self.penalties = []  # seats caught without UNO in the current action
        # stacking: the pending penalty on the seat to act next (the victim)
        self.penalty = 0  # cards the victim must draw (0: none pending)
        self.penalty_kind = None  # DRAW_TWO or WILD_DRAW_FOUR: the face to stack on
        self.penalty_from = -1  # the seat that played the penalty's last card
        self.penalty_illegal = False  # that last card was an illegal (bluffed) WD4
        self.penalty_passes = 0  # seats passed over (the victim first) when it is taken
        self.cards_drawn = [0] * players
        self.jump_ins = [0] * players  # jump_in: jump-ins per seat (not turns)
        self.failed_draws = 0
        self.wheel_discards = [0] * players
        self.spin_counts = {s: 0 for s in self.spaces}
        self.spin_records = []

    # ------------------------------------------------------------------ helpers
    def log(self, msg):
        if self.trace is not None:
            self.trace.append(f"[turn {self.turns}] {msg}")

    def seat(self, s):
        return s % self.n

    def partner(self, s):
        """partners: the seat opposite ``s`` (None without partners)."""
        return (s + self.n // 2) % self.n if self.partners else None

    def ahead(self, a, b):
        """Seats from a to b in the direction of play."""
        return ((b - a) * self.direction) % self.n

    def top(self):
        return self.discard[-1]

    def name_colour(self):
        return self.rng.randrange(4)

    def reshuffle(self):
        if len(self.discard) > 1:
            rest = self.discard[:-1]
            self.discard = self.discard[-1:]
            self.rng.shuffle(rest)
            self.draw_pile = rest
            self.log(f"discard pile reshuffled into a draw pile of {len(rest)}")

    def draw_one(self, s):
        """Seat ``s`` draws one card; returns it, or None when nothing can be drawn."""
        if not self.draw_pile:
            self.reshuffle()
        if not self.draw_pile:
            self.failed_draws += 1
            self.log(f"seat {s} cannot draw: no cards left")
            return None
        c = self.draw_pile.pop()
        self.hands[s].append(c)
        self.void[s].clear()  # it took a card: what it lacked is forgotten
        self.cards_drawn[s] += 1
        return c

    def draw_n(self, s, k, why=""):
        got = 0
        for _ in range(k):
            if self.draw_one(s) is not None:
                got += 1
        self.log(f"seat {s} draws {got} of {k}{' (' + why + ')' if why else ''}")

    def draw_until(self, s, colour):
        """Draw until a card of ``colour`` (or any wild when wild_stops_colour_draw)."""
        got = 0
        while True:
            c = self.draw_one(s)
            if c is None:
                break
            got += 1
            if c.colour == colour or (self.wscd and c.colour is None):
                break
        self.log(f"seat {s} draws {got} card(s) looking for {COLOURS[colour]}")

    def uno_check(self, s):
        """Seat ``s`` has just come down to (or received) a one-card hand."""
        forget = self.bots[s]["forget"]
        if forget > 0 and self.rng.random() < forget:
            caught = False
            for j in range(self.n):
                if j == s or j == self.partner(s):  # partners never catch each other
                    continue
                if self.rng.random() < self.bots[j]["catch"]:
                    caught = True
            self.log(f"seat {s} forgets UNO{' and is caught' if caught else ''}")
            if caught:
                self.penalties.append(s)

    def after_hand_shrinks(self, s):
        """End the round if the hand is empty, else check UNO at one card."""
        if not self.hands[s]:
            self.winner = s
            self.log(f"seat {s} has no cards left and wins")
            raise RoundOver
        if len(self.hands[s]) == 1:
            self.uno_check(s)

    def spins_wheel(self, card):
        return card.kind in (SPIN, WILD_SPIN) and bool(self.spaces)

    # ------------------------------------------------------------------ result
    def result(self):
        points = [hand_points(h, self.points) for h in self.hands]
        return {
            "first_player": self.first_player,
            "winner": self.winner,
            "turns": self.turns,
            "winner_points": (sum(points) - points[self.winner]) if self.winner >= 0 else 0,
            "cards_left": [len(h) for h in self.hands],
            "points_left": points,
            "cards_drawn": list(self.cards_drawn),
            "failed_draws": self.failed_draws,
            "spins": dict(self.spin_counts),
            "spin_records": self.spin_records,
            "jump_ins": list(self.jump_ins),
        }

    def all_cards(self):
        """Every card in the round (hands, draw pile, discard pile): for tests."""
        out = list(self.draw_pile) + list(self.discard)
        for h in self.hands:
            out += h
        return out
