"""Independent plain-Python reference engine (slow, simple) for statistical cross-checks.

This module implements ``../shared/RULINGS.md`` for the editions ``classic``,
``spin2005``, ``spin2025`` and ``spiderman`` with the bot strategies ``random``,
``heuristic``, ``hoarder`` and ``tuned`` (a bot dict's ``strategy``, per seat; docs/BOTS.md,
written again here from that text) plus their knobs (forget, catch, bluff, challenge, reflex, jump), and the
house rules ``stacking``, ``draw_until_playable``, ``seven_o``, ``special_wilds``,
``jump_in``, ``partners`` and ``force_play`` exactly as ``docs/HOUSE_RULES.md`` settles them
(``hoarder`` is here because it is the one strategy that draws while it could play, which
is what ``force_play`` forbids).  It deliberately imports
nothing from ``unospin_sim.engine`` or ``unospin_sim.rules``: the decks, points and
wheels below are written out again from the rulings text, so that a mistake in the
rule data or in the numba kernel shows up as a statistical disagreement.

Readability wins over speed: cards are small named tuples, hands and piles are plain
lists, and every round has its own ``random.Random``.  Bit-identical streams with the
numba engine are NOT a goal; the *distribution* of outcomes is.

Public API
----------
``play_round(edition, players, seed, ...) -> dict``
    one round; see its docstring for the result keys.
``play_many(edition, players, games, seed, **kw) -> pandas.DataFrame``
    one row per round (same columns as the engine's ``Results.rounds``).
``play_many_spins(edition, players, games, seed, **kw) -> (rounds, spins)``
    the same rounds plus a second DataFrame with one row per wheel spin.
``round_seed(seed, game) -> int``
    the seed ``play_many`` hands to ``play_round`` for game ``game`` (a SHA-256 of
    both, so rounds are independent of each other and of how many are played).
``play_match(edition, players, seed, match="race", target=500, ...) -> dict``
    one match (``race``, ``lowest``, partners races: docs/HOUSE_RULES.md "Match mode"),
    written again from that text: the deal passes one seat a round, the scoring, the end.
``play_many_matches(edition, players, matches, seed, **kw) -> pandas.DataFrame``
    one row per match (the engine's ``Results.matches`` columns); match m plays
    ``match_seed(seed, m)``. ``tests/crosscheck_matches.py`` compares them with the engine's.

Tests drive ``_Round`` directly on hand-built states (``tests/test_reference.py``,
``tests/test_reference_house_rules.py``).

Interpretations beyond RULINGS.md (shared with the numba engine) are listed in the
brief; the choices this module had to make on top of those are:

* The deal (7 cards each) is not counted in ``cards_drawn``; every later card that
  enters a hand from the draw pile is (first-card Draw Two, penalties, spins, ...).
* ``failed_draws`` counts card by card: a Draw Two that finds nothing adds 2; a
  draw-until-colour (Draw Red/Blue, Color Draw) that runs dry adds 1 and stops.
* War: tied players show their next-highest cards simultaneously; a tied player with
  no number card left drops out; if exactly one tied player could show a card, that
  player wins and that card counts as shown (it is discarded, on top).
* Under 2X, each Wild Draw Four of the turn may be challenged separately (one
  challenge roll per WD4, in the order played) by the victim (the next player in the
  final direction); a challenge concerns that card only: a successfully challenged
  illegal WD4 gives the player 4 cards and neither draws nor passes over anyone; a
  legal challenged one makes the victim draw 6 instead of 4 (docs/INTERPRETATIONS.md).
* The bluff coin is tossed at most once per turn (lazily, the first time the bot
  holds an illegal WD4 at a pick) and also applies to a 2X second pick
  (docs/INTERPRETATIONS.md).
* UNO: each time a hand drops to one card a separate forget/catch check happens, so a
  seat caught twice in one action draws 2 twice (docs/INTERPRETATIONS.md).  A caught
  player draws the 2 cards even if the hand no longer has one card at the end of the
  action.
* The turn cap is checked when play reaches a seat, before a stacking victim
  challenges, stacks or accepts; the challenger's normal turn after an illegal
  challenge is counted like any turn (docs/HOUSE_RULES.md).
* A round won by a wheel discard (or Color Discard) ends at once: the rest of that
  turn's effects (e.g. a 2X Draw Two played before the Spin card) never happen.
* ``spin_records[i]['hand_after']`` is the spinner's hand right after the space is
  resolved (before any UNO penalty of that action); ``hand_before`` is the hand
  when the spin starts (2025: after the Spin card left it); ``turn`` is the 1-based
  turn number in which the spin happens.
* Trade Hands / Swap Hands: every seat that ends up holding a one-card hand gets an
  UNO check (also one that held one card before).
* An unfinished round (turn cap) has ``winner == -1`` and ``winner_points == 0``.
* House rules: after a 7 (``seven_o``) or a Wild Swap Hands, only the two seats that
  swapped get the UNO check (as for the 2025 Swap Hands); after a 0 or a Wild Shuffle
  Hands, every seat holding one card does.  A pending stacking penalty carries its
  passes (HOUSE_RULES "Details settled while implementing").
* ``jump_in``: the window is looked at before every action (after the turn cap check):
  the last action played a card with a printed colour that does not spin the wheel, it
  is still the top card and no stacking penalty is pending.  Candidates are asked in
  turn order from the card's player, skipping that player, the seat to act and a seat
  that already jumped in since the last turn (once per seat between two turns).
* ``heuristic`` (docs/BOTS.md, made precise there while writing this): ties go by the card
  order of :func:`card_order` (the card to play: the colour in play first, then the other
  colours' face matches, then the wilds); the "next player" of the card score and the
  turn order of a Swap Hands tie are taken in the direction at the start of the turn (a
  Reverse of the same 2X turn turns it only when the turn is resolved).  A random seat's
  choices draw from the round's stream exactly as before the strategy existed.
* ``tuned`` (docs/BOTS.md): heuristic's choices but for the card it plays and the colour it
  names, both scored with its weights (the bot dict's ``w_*`` keys; their defaults here are
  heuristic's numbers, so pass the engine's tuned weights to compare with it). What a seat
  is known to lack: after a seat drew at its turn for want of a legal card (the draw done,
  whatever it drew), it is known to hold no card of the colour that was in play; that
  knowledge is forgotten when the seat takes any card, and moves with the hand when hands
  change seats (a swap, a pass, a trade); a shuffle of every hand forgets it.
* ``partners`` (the random bot's side of it): a Swap Hands target is uniform among the
  opponents, a Web Swing target uniform among the eligible seats short of the partner
  (all eligible seats when none is), nobody catches their partner's forgotten UNO and
  nobody jumps in past their partner's turn.
"""

from __future__ import annotations

import hashlib
import operator
import random
from collections import namedtuple

__all__ = [
    "COLOURS",
    "EDITIONS",
    "MATCH_MODES",
    "WHEELS",
    "Card",
    "build_deck",
    "card_name",
    "card_points",
    "match_seed",
    "matches",
    "play_many",
    "play_many_matches",
    "play_many_spins",
    "play_match",
    "play_round",
    "round_seed",
    "wd4_legal",
]

EDITIONS = ("classic", "spin2005", "spin2025", "spiderman")
COLOURS = ("red", "yellow", "green", "blue")
RED, YELLOW, GREEN, BLUE = range(4)

# card kinds
NUMBER = "number"
SPIN = "spin"  # a number card 1-5 with the Spin swirl (1-9 under spin_cards)
SKIP = "skip"
REVERSE = "reverse"
DRAW_TWO = "draw_two"
WILD = "wild"
WILD_DRAW_FOUR = "wild_draw_four"
WILD_SPIN = "wild_spin"
WEB_SWING = "wild_web_swing"
SWAP_WILD = "wild_swap_hands"  # classic option special_wilds="swap_hands"
SHUFFLE_WILD = "wild_shuffle_hands"  # classic option special_wilds="shuffle_hands"

#: values of the classic option ``special_wilds`` and the card each adds
SPECIAL_WILDS = {"none": None, "swap_hands": SWAP_WILD, "shuffle_hands": SHUFFLE_WILD}

#: one card; ``colour`` is 0-3 or None for wilds, ``number`` is 0-9 or None
Card = namedtuple("Card", "kind colour number")

WHEELS = {
    "spin2005": (
        "almost_uno",
        "discard_number",
        "discard_color",
        "draw_red",
        "draw_blue",
        "show_hand",
        "war",
        "uno_spin",
        "trade_hands",
    ),
    "spin2025": (
        "color_draw_red",
        "color_draw_yellow",
        "color_draw_green",
        "color_draw_blue",
        "wild_color_draw",
        "color_discard",
        "swap_hands",
        "two_x",
    ),
}

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
}

#: the strategies this module plays (docs/BOTS.md): a bot dict's ``strategy``
STRATEGIES = ("random", "heuristic", "hoarder", "tuned")
#: hoarder: the hand size from which it plays wilds like any other card
HOARD_UNTIL = 3

#: the wild cards in the order a player looks at them (a heuristic tie goes to the first)
WILD_ORDER = (WILD, WILD_DRAW_FOUR, WILD_SPIN, WEB_SWING, SWAP_WILD, SHUFFLE_WILD)


# ----------------------------------------------------------------------------- cards


def build_deck(edition, wild_spin_cards=4, special_wilds="none", spin_cards=5):
    """The edition's full deck as a list of Cards (RULINGS "Editions and decks");
    ``special_wilds`` (classic) adds one Wild Swap Hands or Wild Shuffle Hands;
    ``spin_cards`` (Spin editions) = k: the numbers 1..k carry the Spin mark on one copy
    each (for 6..k, one of the two copies), no other card does; deck size unchanged."""
    deck = []
    for c in range(4):
        if edition in ("classic", "spiderman"):
            # one 0, two each of 1-9
            deck.append(Card(NUMBER, c, 0))
            for n in range(1, 10):
                deck += [Card(NUMBER, c, n)] * 2
        elif edition in ("spin2005", "spin2025"):
            # one each of 0-5 plain, one each of 1-5 Spin, two each of 6-9
            for n in range(0, 6):
                deck.append(Card(NUMBER, c, n))
            for n in range(1, 6):
                deck.append(Card(SPIN if n <= spin_cards else NUMBER, c, n))
            for n in range(6, 10):
                deck += [Card(SPIN if n <= spin_cards else NUMBER, c, n), Card(NUMBER, c, n)]
        else:
            raise ValueError(f"unknown edition {edition!r}")
        for kind in (SKIP, REVERSE, DRAW_TWO):
            deck += [Card(kind, c, None)] * 2
    deck += [Card(WILD, None, None)] * 4
    deck += [Card(WILD_DRAW_FOUR, None, None)] * 4
    if edition == "spin2025":
        deck += [Card(WILD_SPIN, None, None)] * wild_spin_cards
    if edition == "spiderman":
        deck += [Card(WEB_SWING, None, None)] * 4
    if SPECIAL_WILDS[special_wilds] is not None:
        deck.append(Card(SPECIAL_WILDS[special_wilds], None, None))
    return deck


def card_points(card):
    if card.number is not None:
        return card.number
    if card.colour is not None:
        return 20
    if card.kind in (SWAP_WILD, SHUFFLE_WILD):
        return 40
    return 50


def card_name(card):
    if card.kind == NUMBER:
        return f"{COLOURS[card.colour]} {card.number}"
    if card.kind == SPIN:
        return f"{COLOURS[card.colour]} spin {card.number}"
    if card.colour is not None:
        return f"{COLOURS[card.colour]} {card.kind.replace('_', ' ')}"
    return card.kind.replace("_", " ")


def is_number_card(card):
    """Number cards, Spin cards included."""
    return card.number is not None


def matches(card, top, colour):
    """Whether a non-WD4 ``card`` may be played on ``top`` with current ``colour``."""
    if card.colour is None:  # any wild (the WD4 restriction is checked elsewhere)
        return True
    if card.colour == colour:
        return True
    if top.colour is None:  # a wild on top matches by its named colour only
        return False
    if card.number is not None:  # numbers (Spin cards too) match by number
        return card.number == top.number
    return card.kind == top.kind  # Skip / Reverse / Draw Two match by symbol


def wd4_legal(hand, colour, wild_matches_colour):
    """Wild Draw Four is legal when the hand holds no card of the current colour
    (and, with ``wild_matches_colour``, no wild that is not a WD4)."""
    for c in hand:
        if c.colour == colour:
            return False
        if wild_matches_colour and c.colour is None and c.kind != WILD_DRAW_FOUR:
            return False
    return True


def hand_points(hand):
    return sum(card_points(c) for c in hand)


def card_order(card):
    """Where ``card`` comes when a player looks through the card types in a fixed order:
    colour by colour (red, yellow, green, blue), in each colour the numbers 0-9, the Spin
    cards 1-9, Skip, Reverse, Draw Two; then the wilds in WILD_ORDER.  The ``heuristic``
    bot breaks its ties by this order (docs/BOTS.md)."""
    if card.colour is None:
        return 100 + WILD_ORDER.index(card.kind)
    if card.kind == NUMBER:
        rank = card.number
    elif card.kind == SPIN:
        rank = 9 + card.number
    else:
        rank = 19 + (SKIP, REVERSE, DRAW_TWO).index(card.kind)
    return 25 * card.colour + rank


# ----------------------------------------------------------------------------- a round


class _RoundOver(Exception):
    pass


class _Round:
    """The whole state of one round and the rules acting on it."""

    def __init__(
        self,
        edition,
        players,
        seed,
        *,
        wild_matches_colour=None,
        wild_stops_colour_draw=None,
        wild_spin_cards=4,
        wheel=None,
        bots=None,
        turn_cap=10000,
        trace=None,
        stacking=False,
        draw_until_playable=False,
        seven_o=False,
        special_wilds="none",
        jump_in=False,
        partners=False,
        stacked_wd4="checked",
        force_play=False,
        jump_in_wilds=False,
        spin_cards=5,
    ):
        if edition not in EDITIONS:
            raise ValueError(f"unknown edition {edition!r}; expected one of {EDITIONS}")
        players, turn_cap = operator.index(players), operator.index(turn_cap)
        if not 2 <= players <= 10:
            raise ValueError(f"players must be 2..10, got {players!r}")
        if turn_cap < 1:
            raise ValueError(f"turn_cap must be >= 1, got {turn_cap!r}")
        self.edition = edition
        self.n = players
        self.turn_cap = turn_cap
        self.trace = trace
        self.rng = random.Random(seed)

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

        self.deck = build_deck(edition, wild_spin_cards, special_wilds, spin_cards)
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

    # ------------------------------------------------------------------ strategies
    # Every choice the rules leave to a player.  The ``random`` bot's choices stay where
    # they always were (and draw from the round's stream exactly as before); a seat whose
    # strategy is ``heuristic`` takes the choice below instead (docs/BOTS.md, the
    # ``heuristic`` column), which draws no random number except for Almost UNO.
    def heuristic(self, s):
        """Does seat s take heuristic's choices? (hoarder does, but for the card it plays
        and the UNO Spin race discard: docs/BOTS.md)"""
        return self.bots[s]["strategy"] in ("heuristic", "hoarder", "tuned")

    def hoarder(self, s):
        return self.bots[s]["strategy"] == "hoarder"

    def tuned(self, s):
        return self.bots[s]["strategy"] == "tuned"

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
            sc = card_points(c) + 2 * counts[c.colour]
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
            sc = w["w_points"] * card_points(c) + w["w_colour"] * counts[c.colour]
            if c.number is None:  # Skip, Reverse, Draw Two
                sc += w["w_attack"] if small else w["w_action"]
            if c.colour in self.void[nxt]:
                sc += w["w_void"]
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
                return card_points(c) + (2 * counts[c.colour] if c.colour is not None else 0)

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
                    worth[c.colour] += card_points(c) + 1
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
                    (1, 0) if hand[k].colour is None else (0, -card_points(hand[k])),
                    card_order(hand[k]),
                ),
            )
        if self.heuristic(w):
            # the most points, a wild counting 0 (wilds last); first in card_order on ties
            return min(
                range(len(hand)),
                key=lambda k: (
                    -(card_points(hand[k]) if hand[k].colour is not None else 0),
                    card_order(hand[k]),
                ),
            )
        return self.rng.randrange(len(hand))

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
            raise _RoundOver
        if len(self.hands[s]) == 1:
            self.uno_check(s)

    def spins_wheel(self, card):
        return card.kind in (SPIN, WILD_SPIN) and bool(self.spaces)

    # ------------------------------------------------------------------ set-up
    def setup(self):
        """Shuffle, deal seven each from the dealer's left, turn the first card."""
        self.draw_pile = list(self.deck)
        self.rng.shuffle(self.draw_pile)
        dealer = self.n - 1
        for _ in range(7):
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
                self.draw_n(0, 2, "first card draw two")
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
        except _RoundOver:
            pass

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

    def end_action(self, nxt):
        for p in self.penalties:
            self.draw_n(p, 2, "UNO penalty")
        self.penalties = []
        self.cur = self.seat(nxt)

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
                    self.log(f"seat {v} challenges: illegal, seat {p} draws 4")
                    self.draw_n(p, 4, "failed wild draw four")
                    return self.take_penalty(v, n_cards - 4, passes - 1)
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
        self.penalty = n_cards + (4 if kind == WILD_DRAW_FOUR else 2)
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
            raise _RoundOver
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

    # ------------------------------------------------------------------ a turn
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
        if self.heuristic(s):
            return self.heuristic_card(s, legal)
        return self.rng.choice(legal)

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
                draw += 2
            elif c.kind == WILD_DRAW_FOUR:
                draw += 4
        if draw:
            self.draw_n(self.seat(p + direction), draw, "last card")
        self.log(f"seat {p} played the last card and wins")
        raise _RoundOver

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
                draw += 2
                skips += 1
        victim = self.seat(p + self.direction)
        if self.stacking:
            draws = [(c, illegal) for c, illegal in played if c.kind in (DRAW_TWO, WILD_DRAW_FOUR)]
            if draws:
                # a pending penalty on the victim instead of drawing; play goes to it
                last, illegal = draws[-1]
                self.penalty = sum(2 if c.kind == DRAW_TWO else 4 for c, _ in draws)
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
                    self.log(f"seat {victim} challenges: illegal, seat {p} draws 4")
                    self.draw_n(p, 4, "failed wild draw four")
                else:
                    self.log(f"seat {victim} challenges: legal, seat {victim} draws 6")
                    draw += 6
                    skips += 1
            else:
                draw += 4
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

    def named_colour_held(self, s):
        colours = sorted({c.colour for c in self.hands[s] if c.colour is not None})
        x = self.rng.choice(colours) if colours else self.rng.randrange(4)
        self.log(f"seat {s} names {COLOURS[x]}")
        return x

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

    # ------------------------------------------------------------------ result
    def result(self):
        points = [hand_points(h) for h in self.hands]
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


# ----------------------------------------------------------------------------- API


def play_round(
    edition,
    players,
    seed,
    *,
    wild_matches_colour=None,
    wild_stops_colour_draw=None,
    wild_spin_cards=4,
    wheel=None,
    bots=None,
    turn_cap=10000,
    trace=None,
    stacking=False,
    draw_until_playable=False,
    seven_o=False,
    special_wilds="none",
    jump_in=False,
    partners=False,
    stacked_wd4="checked",
    force_play=False,
    jump_in_wilds=False,
    spin_cards=5,
):
    """Play one round; returns a dict:

    ``first_player`` seat taking the first turn, ``winner`` (-1 if the turn cap was
    reached), ``turns``, ``winner_points`` (points left in all other hands, 0 if
    unfinished), ``cards_left`` / ``points_left`` / ``cards_drawn`` (lists per seat),
    ``failed_draws``, ``spins`` ({space: count} over the edition's wheel, {} without
    a wheel), ``spin_records`` (dicts: turn, spinner, space, hand_before,
    hand_after, cards_drawn, cards_discarded; all about the spinner's own hand) and
    ``jump_ins`` (list per seat: times it jumped in, house rule ``jump_in``; not turns).

    ``seed`` is anything ``random.Random`` accepts.  ``wheel`` maps space names to
    weights (unlisted spaces weigh 0; default: equal weights).  ``bots`` is one dict
    per seat with any of the knobs forget, catch, bluff, challenge, reflex, jump
    (defaults 0, 0.5, 0, 0, 1, 1) and ``strategy`` (``"random"``, the default,
    ``"heuristic"`` or ``"hoarder"``: docs/BOTS.md).  ``trace``: a list to which event strings are appended.

    House rules (``docs/HOUSE_RULES.md``, all off by default, combinable):
    ``stacking``, ``draw_until_playable``, ``seven_o`` (bools) and
    ``special_wilds`` (``"none"``, ``"swap_hands"`` or ``"shuffle_hands"``; classic only),
    ``jump_in`` and ``partners`` (bools; partners: 4, 6, 8 or 10 players),
    ``stacked_wd4`` (``"checked"``: a stacked Wild Draw Four follows the Wild Draw Four
    rule and may be challenged, the default; ``"free"``: always legal; stacking only),
    ``force_play`` (bool: a seat whose strategy would draw while it holds a playable card
    plays the playable card first in :func:`card_order` instead; only ``hoarder`` ever
    draws so), ``jump_in_wilds`` (bool, with ``jump_in``: a wild that does not spin the
    wheel may be jumped on with the identical wild, a Wild Draw Four only when legal for
    the jumper, who names a colour anew). Deck option ``spin_cards`` (Spin editions, 0-9,
    default 5): the numbers 1..k carry the Spin mark on one copy each.
    """
    r = _Round(
        edition,
        players,
        seed,
        wild_matches_colour=wild_matches_colour,
        wild_stops_colour_draw=wild_stops_colour_draw,
        wild_spin_cards=wild_spin_cards,
        wheel=wheel,
        bots=bots,
        turn_cap=turn_cap,
        trace=trace,
        stacking=stacking,
        draw_until_playable=draw_until_playable,
        seven_o=seven_o,
        special_wilds=special_wilds,
        jump_in=jump_in,
        partners=partners,
        stacked_wd4=stacked_wd4,
        force_play=force_play,
        jump_in_wilds=jump_in_wilds,
        spin_cards=spin_cards,
    )
    r.setup()
    r.run()
    return r.result()


def round_seed(seed, game):
    """The integer seed of game ``game`` of a run with seed ``seed``."""
    digest = hashlib.sha256(f"unospin_sim.reference:{seed}:{game}".encode()).digest()
    return int.from_bytes(digest[:8], "little")


def _rows(edition, players, games, seed, kw):
    spaces = WHEELS.get(edition, ())
    rounds, spins = [], []
    for g in range(games):
        s = round_seed(seed, g)
        res = play_round(edition, players, s, **kw)
        row = {
            "game": g,
            "seed": s,
            "first_player": res["first_player"],
            "winner": res["winner"],
            "turns": res["turns"],
            "winner_points": res["winner_points"],
            "cards_drawn": sum(res["cards_drawn"]),
            "failed_draws": res["failed_draws"],
            "spins": sum(res["spins"].values()),
        }
        for key in ("cards_drawn", "cards_left", "points_left"):
            for i in range(players):
                row[f"{key}_{i}"] = res[key][i]
        for sp in spaces:
            row[f"spins_{sp}"] = res["spins"][sp]
        if kw.get("jump_in"):
            row["jump_ins"] = sum(res["jump_ins"])
            for i in range(players):
                row[f"jump_ins_{i}"] = res["jump_ins"][i]
        if kw.get("partners"):
            teams = players // 2
            w = res["winner"]
            row["team_winner"] = w % teams if w >= 0 else -1
            row["team_points"] = (
                sum(pt for i, pt in enumerate(res["points_left"]) if i % teams != w % teams)
                if w >= 0
                else 0
            )
        rounds.append(row)
        for rec in res["spin_records"]:
            spins.append(dict(game=g, **rec))
    return rounds, spins


def play_many(edition, players, games, seed, **kw):
    """Play ``games`` independent rounds; game g uses ``round_seed(seed, g)``.

    Returns a DataFrame with one row per round: game, seed, first_player, winner,
    turns, winner_points, cards_drawn (total), failed_draws, spins (total), then
    cards_drawn_<i>, cards_left_<i>, points_left_<i> for every seat and
    spins_<space> for every space of the edition's wheel; under ``jump_in`` then
    jump_ins and jump_ins_<i>.  ``kw`` as play_round.
    """
    import pandas as pd

    rounds, _ = _rows(edition, players, games, seed, kw)
    return pd.DataFrame(rounds)


# ----------------------------------------------------------------------------- matches

#: the match modes this module plays (docs/HOUSE_RULES.md "Match mode")
MATCH_MODES = ("race", "lowest")
#: a match still running after this many rounds ends unfinished (winner -1)
MAX_MATCH_ROUNDS = 10000


def match_seed(seed, match):
    """The integer seed of match ``match`` of a run with seed ``seed``; round j of that match
    plays ``round_seed(match_seed(seed, match), j)``."""
    digest = hashlib.sha256(f"unospin_sim.reference.match:{seed}:{match}".encode()).digest()
    return int.from_bytes(digest[:8], "little")


def play_match(
    edition,
    players,
    seed,
    *,
    match="race",
    target=500,
    bots=None,
    max_rounds=MAX_MATCH_ROUNDS,
    **kw,
):
    """Play one match (docs/HOUSE_RULES.md "Match mode"); returns a dict.

    The deal passes one seat clockwise each round: in round j (from 0) player i (the i-th
    bot of ``bots``) sits at seat (i - j) mod N, so player j mod N sits at seat 0, the seat
    that takes a round's first turn (before first-card effects). ``match="race"``: the
    round's winner scores the points left in the other hands and the first player to reach
    ``target`` (or more) wins. ``match="lowest"``: every player adds the points left in
    their own hand, and when some total passes ``target`` (is more than it) the lowest
    total wins, the lowest player number on ties. A round cut off by the turn cap scores
    nothing. A match still running after ``max_rounds`` rounds ends with winner -1.
    Under ``partners=True`` (races only) players t and t + N/2 are team t: the winning team
    scores the points left in the two opponents' hands, both partners carry the team's
    score and the match's ``winner`` is the team number t.

    Returns ``rounds`` (rounds played), ``turns`` (over all rounds), ``winner`` (a player,
    a team under partners, or -1), ``scores`` (per player) and ``round_results`` (one dict
    per round: ``winner`` and ``first_player`` as PLAYERS, ``points_left`` per player,
    ``turns`` and ``scores`` after the round). ``kw``: as :func:`play_round`.
    """
    if match not in MATCH_MODES:
        raise ValueError(f"match must be one of {MATCH_MODES}, got {match!r}")
    target, max_rounds = operator.index(target), operator.index(max_rounds)
    if target < 1 or max_rounds < 1:
        raise ValueError("target and max_rounds must be >= 1")
    partners = bool(kw.get("partners"))
    if partners and match != "race":
        raise ValueError("partners matches are races (a lowest match for teams is not defined)")
    n = players
    if bots is None:
        bots = [{}] * n
    bots = list(bots)
    if len(bots) != n:
        raise ValueError(f"need {n} bots, got {len(bots)}")
    half = n // 2
    scores = [0] * n
    turns = 0
    winner = -1
    history = []
    for j in range(max_rounds):
        # seat s holds player (s + j) mod N
        seated = [bots[(s + j) % n] for s in range(n)]
        res = play_round(edition, n, round_seed(seed, j), bots=seated, **kw)
        turns += res["turns"]
        player_of = [(s + j) % n for s in range(n)]
        points = [0] * n
        for s in range(n):
            points[player_of[s]] = res["points_left"][s]
        w = player_of[res["winner"]] if res["winner"] >= 0 else -1
        if w >= 0:
            if match == "lowest":
                for i in range(n):
                    scores[i] += points[i]
            elif partners:
                team = w % half
                won = sum(points[i] for i in range(n) if i % half != team)
                scores[team] += won
                scores[team + half] += won
            else:
                scores[w] += sum(points) - points[w]
        history.append(
            {
                "winner": w,
                "first_player": player_of[res["first_player"]],
                "points_left": points,
                "turns": res["turns"],
                "scores": list(scores),
            }
        )
        if match == "lowest":
            if max(scores) > target:
                winner = min(range(n), key=lambda i: (scores[i], i))
                break
        elif max(scores) >= target:
            winner = scores.index(max(scores))  # team t: the lower of the pair
            break
    return {
        "rounds": len(history),
        "turns": turns,
        "winner": winner,
        "scores": list(scores),
        "round_results": history,
    }


def play_many_matches(edition, players, matches, seed, *, match0=0, **kw):
    """Play matches ``match0 .. match0 + matches - 1``; match m plays
    ``play_match(..., match_seed(seed, m), ...)``. Returns a DataFrame with one row per
    match: match, rounds, turns, winner, score_<i> for every player (the engine's
    ``Results.matches`` columns). ``kw``: as :func:`play_match`."""
    import pandas as pd

    rows = []
    for m in range(match0, match0 + matches):
        res = play_match(edition, players, match_seed(seed, m), **kw)
        row = {"match": m, "rounds": res["rounds"], "turns": res["turns"], "winner": res["winner"]}
        for i in range(players):
            row[f"score_{i}"] = res["scores"][i]
        rows.append(row)
    return pd.DataFrame(
        rows,
        columns=["match", "rounds", "turns", "winner"] + [f"score_{i}" for i in range(players)],
    )


def play_many_spins(edition, players, games, seed, **kw):
    """Like :func:`play_many` (same rounds for the same arguments) but returns
    ``(rounds, spins)``: ``spins`` has one row per wheel spin with columns game,
    turn, spinner, space, hand_before, hand_after, cards_drawn, cards_discarded, other,
    direction, leader."""
    import pandas as pd

    rounds, spins = _rows(edition, players, games, seed, kw)
    cols = [
        "game",
        "turn",
        "spinner",
        "space",
        "hand_before",
        "hand_after",
        "cards_drawn",
        "cards_discarded",
        "other",
        "direction",
        "leader",
    ]
    return pd.DataFrame(rounds), pd.DataFrame(spins, columns=cols)
