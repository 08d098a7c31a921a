"""An independent legality replay of golden playthrough text (``tests/playthroughs/*.txt``).

Written from docs/RULINGS.md, docs/HOUSE_RULES.md and docs/INTERPRETATIONS.md alone: it
imports nothing from ``unospin_sim`` (decks, points, wheels and matching rules are written out
again here) and reads only the text. :func:`replay` raises :class:`Illegal` naming the file's
line at the first play, draw or move the rules do not allow, or at the first line that
disagrees with the position it tracks.

What it tracks: every hand card by card (the deal, draws, plays, wheel discards, swaps, hand
passes, trades, shuffles), the draw pile and the discard pile as multisets (every drawn card
must be in the draw pile; a reshuffle moves exactly the cards under the top), the top card,
the colour in play, the direction, 2X, the stacking penalty and whose turn it is.

What it checks (rules):
  * the deal: 7 cards each from the edition's deck (the dealt hands are not printed; they are
    recovered from the hands printed before each seat's turns, see :func:`_resolve_deals`,
    and must together be part of the deck); the first card (set-aside rules, its effect);
  * every printed hand equals the tracked one (before every turn, Show Hand, final hands);
  * every played card is in the hand and matches the top card by colour, number or symbol
    (a Spin card by colour or number only; after a wild only its named colour), a wild names
    a colour; Wild Draw Four legality (no card of the colour in play; under
    ``wild_matches_colour`` no other wild than a Wild Draw Four), an illegal one only as a
    bluff (bot knob bluff > 0, a ``bluffs`` line) and never when just drawn; a challenge's
    verdict agrees with that legality and its draws (4 or 6) follow;
  * a draw instead of a play, playing only the drawn card, ``draw_until_playable``;
  * Skip, Reverse (a Skip with two players), Draw Two, Wild Draw Four: who draws how many and
    who is passed over, and whose turn is next (every turn header);
  * UNO: a call (or a forget) every time a hand drops to one card or a seat receives a
    one-card hand, never otherwise; a caught forgetter draws 2 at the end of the action;
  * the 2005 wheel: the NEXT player spins instead of their turn; Almost UNO (down to two),
    Discard Number / Color (only cards of the named number / colour), Draw Red / Blue (draw
    until the colour, or a wild when ``wild_stops_colour_draw``), Show Hand, War (each
    player's highest number, ties show their next highest, the winner discards the cards
    shown, the last on top), UNO Spin race, Trade Hands (one seat clockwise); wheel discards
    have no effect, the last goes on top, a wild on top gets a colour; play continues after
    the spinner, the War winner or the race winner;
  * the 2025 wheel: the player of the Spin card (or Wild Spin) spins at once; Color Draw,
    Wild Color Draw, Color Discard (every card of the colour, under the pile), Swap Hands,
    2X (up to two cards a turn from the next player on, the second playable on the first,
    effects resolved once at the end of the turn, a spin ends 2X and the turn);
  * Spider-Man's Web Swing (a target holding the named colour, or nobody holds it; play
    continues after the target);
  * house rules: ``stacking`` (same face only, penalties add up, take = draw all and be passed
    over, challenges of the last Wild Draw Four; ``stacked_wd4=checked``: a stacked Wild Draw
    Four follows the Wild Draw Four rule, an illegal one only as a bluff),
    ``draw_until_playable``, ``seven_o`` (a 7
    swaps with another seat, a 0 passes every hand in the direction of play),
    ``special_wilds`` (Wild Swap Hands, Wild Shuffle Hands: the redealt hands hold exactly
    the collected cards, dealt one at a time from the next player); ``jump_in`` (only on a
    card just played by a turn or a jump-in, still on top, with a printed colour and no
    wheel; an identical card; never by its player, the seat to act or a seat that already
    jumped in since the last turn; not a turn; play
    continues from the jumper; the first willing seat in turn order from the card's player
    jumps in: a seat with ``jump=1`` holding the card may not be passed over, one with
    ``jump=0`` never jumps); ``partners`` (the team line scores the opponents' cards; the
    bots never swap with, catch or jump in past their partner, and swing short of it
    when they can);
  * the end: the winner's hand is empty, the score is the points left in the other hands, a
    turn cap ends the round at exactly ``turn_cap`` turns; the final hands; every card of the
    deck is in exactly one place.

What it checks (the bots' documented behaviour, from the ``bots:`` line): knobs at 0 never
forget UNO, catch, bluff or challenge; ``random`` and ``heuristic`` play whenever they can
(they never draw holding a playable card), stack whenever they can, play a second card
under 2X whenever they can; ``random`` plays a playable drawn card, names a colour or number
it holds on the wheel, and discards every card it may.

Limits (what the text cannot show, so what is not checked):
  * the draw pile's ORDER and every random choice (which legal card, colour, target, the
    wheel space, who catches) are not printed: only that each choice was allowed is checked;
    the wheel spaces only against the rule's non-zero weights;
  * the dealt hands are inferred, not printed: a seat's deal is known from the first hand
    printed for it (before its first turn, after a swap, ...), minus the cards that moved in
    between, or, for a hand collected by a Wild Shuffle Hands before it was ever printed,
    from the redealt cards minus the other hands. When several such hands were never
    printed, only their union is known (and checked against the deck); a check that would
    need one of them exactly (Web Swing, War, a card leaving it) fails as "cannot check",
    and the policy check "stacks whenever it can" is skipped for them;
  * cards redealt by Wild Shuffle Hands are not printed one by one: each new hand is taken
    from its next printed appearance and must fit the collected cards and the dealing order;
  * ``rlcard=true`` and options this module does not know make the replay fail (an unknown
    rule cannot be checked: extend this module).
"""

from __future__ import annotations

import re
from collections import Counter

COLOURS = ("red", "yellow", "green", "blue")
ACTIONS = ("skip", "reverse", "draw two")
WILDS = (
    "wild",
    "wild draw four",
    "wild spin",
    "wild web swing",
    "wild swap hands",
    "wild shuffle hands",
)
WD4 = "wild draw four"
EDITIONS = ("classic", "spin2005", "spin2025", "spiderman")
WHEEL = {
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
KNOB_DEFAULTS = {
    "forget": 0.0,
    "catch": 0.5,
    "bluff": 0.0,
    "challenge": 0.0,
    "reflex": 1.0,
    "jump": 1.0,
}


class Illegal(AssertionError):
    """A line the rules (or the tracked position) do not allow."""


# =============================================================================== cards
_CARD = re.compile(
    r"(?:(red|yellow|green|blue) (?:(\d)|spin (\d)|(skip|reverse|draw two))"
    r"|(wild(?: draw four| spin| web swing| swap hands| shuffle hands)?))"
)


def card_info(name):
    """(colour or None, kind, number or None); kind: number, spin, skip, reverse, draw two, or
    the wild's full name."""
    m = _CARD.fullmatch(name)
    if not m:
        raise Illegal(f"not a card: {name!r}")
    colour, num, spin, action, wild = m.groups()
    if wild:
        return None, wild, None
    if num is not None:
        return colour, "number", int(num)
    if spin is not None:
        return colour, "spin", int(spin)
    return colour, action, None


def colour_of(card):
    return card_info(card)[0]


def number_of(card):
    return card_info(card)[2]


def is_wild(card):
    return card_info(card)[0] is None


def face(card):
    """What a stacking card must repeat: 'draw two' (any colour) or the wild's name."""
    return card_info(card)[1]


def points(card):
    colour, kind, number = card_info(card)
    if number is not None:
        return number
    if kind in ACTIONS:
        return 20
    return 40 if kind in ("wild swap hands", "wild shuffle hands") else 50


def matches(card, top, colour):
    """Playable on ``top`` with ``colour`` in play (Wild Draw Four legality aside)."""
    c, kind, number = card_info(card)
    if c is None:
        return True
    if c == colour:
        return True
    tc, tkind, tnumber = card_info(top)
    if tc is None:  # after a wild only its colour (or another wild) matches
        return False
    if number is not None and tnumber is not None:
        return number == tnumber
    return kind in ACTIONS and kind == tkind


def build_deck(edition, opts):
    deck = Counter()
    for c in COLOURS:
        deck[f"{c} 0"] += 1
        if edition in ("spin2005", "spin2025"):
            # two of each of 1-9; spin_cards=k (default 5): one copy of each of 1..k
            # carries the Spin mark
            for n in range(1, 10):
                if n <= opts.get("spin_cards", 5):
                    deck[f"{c} {n}"] += 1
                    deck[f"{c} spin {n}"] += 1
                else:
                    deck[f"{c} {n}"] += 2
        else:
            for n in range(1, 10):
                deck[f"{c} {n}"] += 2
        for a in ACTIONS:
            deck[f"{c} {a}"] += 2
    deck["wild"] += 4
    deck[WD4] += 4
    if edition == "spin2025":
        deck["wild spin"] += opts["wild_spin_cards"]
    if edition == "spiderman":
        deck["wild web swing"] += 4
    special = opts.get("special_wilds", "none")
    if special != "none":
        deck[f"wild {special.replace('_', ' ')}"] += 1
    return +deck


# =============================================================================== header
def _split_top(text):
    """Split on commas outside braces."""
    out, depth, cur = [], 0, ""
    for ch in text:
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur)
            cur = ""
        else:
            cur += ch
    if cur:
        out.append(cur)
    return out


def _bool(v):
    if v not in ("true", "false"):
        raise Illegal(f"not a bool: {v}")
    return v == "true"


def parse_rules(text):
    m = re.fullmatch(r"(\w+)\((.*)\)", text)
    if not m or m[1] not in EDITIONS:
        raise Illegal(f"unknown rules {text!r}")
    edition = m[1]
    opts = {
        "players": 4,
        "turn_cap": 10000,
        "wild_matches_colour": edition != "classic",
        "wild_stops_colour_draw": edition == "spin2005",
        "wild_spin_cards": 4,
        "spin_cards": 5,
        "stacking": False,
        "draw_until_playable": False,
        "seven_o": False,
        "jump_in": False,
        "jump_in_wilds": False,
        "partners": False,
        "special_wilds": "none",
        "stacked_wd4": "checked",
        "wheel": {s: 1.0 for s in WHEEL.get(edition, ())},
    }
    for item in _split_top(m[2]):
        key, _, value = item.partition("=")
        if key in ("players", "turn_cap", "wild_spin_cards", "spin_cards"):
            opts[key] = int(value)
        elif key in (
            "wild_matches_colour",
            "wild_stops_colour_draw",
            "stacking",
            "draw_until_playable",
            "seven_o",
            "jump_in",
            "jump_in_wilds",
            "partners",
        ):
            opts[key] = _bool(value)
        elif key in ("special_wilds", "stacked_wd4"):
            opts[key] = value
        elif key == "wheel":
            weights = {s: 0.0 for s in WHEEL[edition]}
            for kv in value.strip("{}").split(","):
                space, _, w = kv.partition(":")
                weights[space] = float(w)
            opts[key] = weights
        elif key in ("match", "target"):
            pass  # every round of a match is played by the rules of a single round
        else:  # rlcard and anything newer: not modelled here
            raise Illegal(f"rule option {key!r} is not modelled by the legality replay")
    return edition, opts


def parse_bots(text, players):
    specs = []
    for part in re.split(r", (?=seat \d+=)", text):
        m = re.fullmatch(r"seat (\d+)=(\w+)(?:\((.*)\))?", part)
        if not m or int(m[1]) != len(specs):
            raise Illegal(f"bad bots line {text!r}")
        knobs = dict(KNOB_DEFAULTS)
        for kv in filter(None, (m[3] or "").split(",")):
            k, _, v = kv.partition("=")
            knobs[k] = float(v)
        knobs["strategy"] = m[2]
        specs.append(knobs)
    if len(specs) != players:
        raise Illegal(f"{len(specs)} bots for {players} players")
    return specs


def _hand(text):
    return Counter() if text == "(empty)" else Counter(text.split(", "))


# ====================================================================== deals (pass 1)
_DRAW = re.compile(r"seat (\d+) draws (.+)")
_PLAY = re.compile(r"seat (\d+) plays (.+)")
_DISCARD = re.compile(r"seat (\d+) discards (.+) (under|onto) the discard pile")
_SWAP = re.compile(r"seat (\d+) swaps hands with seat (\d+)")
_PASS = re.compile(r"every hand passes one seat (clockwise|counter-clockwise)")
_SHUFFLE = re.compile(r"every hand is collected, shuffled and dealt again from seat (\d+)")
_HEADER = re.compile(r"turn (\d+): seat (\d+) holds \[(.*)\]")
_JUMP = re.compile(r"jump-in: seat (\d+) holds \[(.*)\] and plays (.+) out of turn")
_SHOWS = re.compile(r"seat (\d+) shows \[(.*)\]")
_FINAL = re.compile(r"seat (\d+): (\d+) cards? \[(.*)\]")
_UNO_PENALTY = re.compile(r"seat (\d+) draws 2 for not calling UNO")


def _resolve_deals(lines, players):
    """The hands nobody printed: each seat's deal and each hand redealt by Wild Shuffle Hands.

    Every hand is an unknown base plus the known cards that moved in and out since; the
    first printed appearance of the hand gives the base (and every card played from it
    before must then have been in it: checked by the replay proper)."""
    hands = [[("deal", p), Counter()] for p in range(players)]
    bases = {}
    shuffles = 0
    snapshots = []  # the hands collected by each shuffle: [base, delta] per seat

    def observe(p, cards, where):
        base, delta = hands[p]
        if base is not None:
            b = Counter(cards)
            b.subtract(delta)
            if any(v < 0 for v in b.values()):
                raise Illegal(f"{where}: seat {p}'s hand cannot come from its earlier cards")
            bases[base] = +b
        hands[p] = [None, Counter(cards)]

    for no, line in lines:
        t = line.strip()
        where = f"line {no}"
        if _UNO_PENALTY.fullmatch(t):
            continue
        if m := _DRAW.fullmatch(t):
            hands[int(m[1])][1][m[2]] += 1
        elif (m := _PLAY.fullmatch(t)) or (m := _DISCARD.fullmatch(t)):
            hands[int(m[1])][1][m[2]] -= 1
        elif m := _SWAP.fullmatch(t):
            a, b = int(m[1]), int(m[2])
            hands[a], hands[b] = hands[b], hands[a]
        elif m := _PASS.fullmatch(t):
            step = 1 if m[1] == "clockwise" else -1
            hands = [hands[(i - step) % players] for i in range(players)]
        elif _SHUFFLE.fullmatch(t):
            shuffles += 1
            snapshots.append((shuffles, [[b, Counter(d)] for b, d in hands], where))
            hands = [[("shuffle", shuffles, p), Counter()] for p in range(players)]
        elif m := _HEADER.fullmatch(t):
            observe(int(m[2]), _hand(m[3]), where)
        elif m := _JUMP.fullmatch(t):
            observe(int(m[1]), _hand(m[2]), where)
        elif m := _SHOWS.fullmatch(t):
            observe(int(m[1]), _hand(m[2]), where)
        elif m := _FINAL.fullmatch(t):
            observe(int(m[1]), _hand(m[3]), where)
    # a hand never printed before a shuffle collected it: the collected cards are the
    # redealt hands (all printed later), so one unknown hand is what the others leave
    # (several dealt hands never printed: only their union is known; they get an arbitrary
    # split of it and are marked "uncertain": see Replay.known_hand)
    bases["uncertain"] = set()
    progress = True
    while progress:
        progress = False
        for j, collected, where in snapshots:
            new = [("shuffle", j, q) for q in range(players)]
            unknown = [k for k, (b, _) in enumerate(collected) if b is not None and b not in bases]
            if not unknown or not all(b in bases for b in new):
                continue
            rest = sum((bases[b] for b in new), Counter())
            for q, (b, d) in enumerate(collected):
                rest.subtract(d)
                if q not in unknown and b is not None:
                    rest.subtract(bases[b])
            if any(v < 0 for v in rest.values()):
                raise Illegal(f"{where}: the redealt hands do not hold the collected cards")
            if len(unknown) == 1:
                bases[collected[unknown[0]][0]] = +rest
            elif all(collected[k][0][0] == "deal" for k in unknown):
                cards = sorted(rest.elements())
                if len(cards) != 7 * len(unknown):
                    raise Illegal(
                        f"{where}: {len(unknown)} unseen dealt hands hold {len(cards)} cards"
                    )
                for n, k in enumerate(unknown):
                    bases[collected[k][0]] = Counter(cards[7 * n : 7 * n + 7])
                    bases["uncertain"].add(collected[k][0])
            else:
                continue
            progress = True
    return bases


# ====================================================================== replay (pass 2)
class Replay:
    """Replays one playthrough's lines; see the module docstring."""

    def __init__(self, text, name="playthrough"):
        self.name = name
        self.lines = [
            (i + 1, line) for i, line in enumerate(text.splitlines()) if line.strip()
        ]  # blank lines only separate turns
        self.i = 0
        self.uno_due = []  # seats that must call (or forget) UNO
        self.penalty_due = []  # caught forgetters: draw 2 at the end of the action
        self.skips = []  # "is skipped" lines not yet accounted for
        self.winner = None
        self.turns = 0
        self.failed_draws = 0
        self.two_x = False
        self.spin_next = False
        self.pending = None  # stacking: dict(victim, n, face, by, illegal, passes)
        self.shuffles = 0
        self._forgot = None  # the seat that just forgot UNO (catch lines follow)
        self.last_play = None  # jump_in: (card, seat) of the last card played by the action
        self.jumped = set()  # jump_in: seats that jumped in since the last turn
        self.window = None  # jump_in: (card, seat) open to jump-ins before the next action
        self.trace = []  # per turn: the position when its header was read

    # ------------------------------------------------------------------ reading lines
    def fail(self, msg, at=None):
        no = self.lines[min(self.i if at is None else at, len(self.lines) - 1)][0]
        raise Illegal(f"{self.name} line {no}: {msg}")

    def _raw(self):
        return self.lines[self.i][1].strip() if self.i < len(self.lines) else None

    def peek(self):
        """The next line that is not an UNO line or a 'skipped' line (those are checked and
        recorded wherever they come)."""
        while True:
            t = self._raw()
            if t is None:
                return None
            if m := re.fullmatch(r"seat (\d+) (calls UNO|forgets to call UNO)", t):
                self._uno(int(m[1]), m[2] != "calls UNO")
            elif m := re.fullmatch(r"seat (\d+) catches seat (\d+)", t):
                self._catch(int(m[1]), int(m[2]))
            elif m := re.fullmatch(r"seat (\d+) is skipped", t):
                self.skips.append(int(m[1]))
                self._forgot = None
            else:
                self._forgot = None  # catches come right after the forget
                return t
            self.i += 1

    def maybe(self, pattern):
        t = self.peek()
        m = re.fullmatch(pattern, t) if t is not None else None
        if m:
            self.i += 1
        return m

    def take(self, pattern, what=None):
        m = self.maybe(pattern)
        if not m:
            self.fail(f"expected {what or pattern!r}, found {self.peek()!r}")
        return m

    # ------------------------------------------------------------------ the position
    def step(self, p, k=1, direction=None):
        d = self.direction if direction is None else direction
        return (p + k * d) % self.players

    def known_hand(self, p):
        """Seat p's hand, for a check that needs its exact cards."""
        if self.uncertain[p]:
            self.fail(f"the text never shows seat {p}'s dealt hand on its own: cannot check")
        return self.hands[p]

    def remove(self, p, card, why):
        self.known_hand(p)
        if self.hands[p][card] <= 0:
            self.fail(
                f"seat {p} {why} {card} which is not in its hand "
                f"[{', '.join(sorted(self.hands[p].elements()))}]",
                self.i - 1,
            )
        self.hands[p][card] -= 1
        self.hands[p] = +self.hands[p]
        n = self.size(p)  # UNO is due when a hand drops to one card (no longer at zero)
        if n == 1 and p not in self.uno_due:
            self.uno_due.append(p)
        elif n == 0 and p in self.uno_due:
            self.uno_due.remove(p)

    def size(self, p):
        return sum(self.hands[p].values())

    def bot(self, p):
        return self.bots[p]

    def wd4_legal(self, p):
        for card in self.hands[p].elements():
            c = colour_of(card)
            if c == self.colour:
                return False
            if c is None and card != WD4 and self.opts["wild_matches_colour"]:
                return False
        return True

    def playable(self, p, card, top=None, colour=None):
        top = self.top if top is None else top
        colour = self.colour if colour is None else colour
        if not matches(card, top, colour):
            return False
        return card != WD4 or self.wd4_legal(p)

    def any_playable(self, p):
        return any(self.playable(p, c) for c in self.hands[p])

    def set_top(self, card):
        self.disc[self.top] += 1
        self.top = card

    def name_colour(self, p):
        m = self.take(rf"seat {p} names (red|yellow|green|blue)", f"seat {p} names a colour")
        self.colour = m[1]
        return m[1]

    def set_colour_after(self, p, card):
        if is_wild(card):
            self.name_colour(p)
        else:
            self.colour = colour_of(card)

    def hand_dropped(self, p):
        """After a hand lost cards: the round ends when it is empty."""
        if self.size(p) == 0 and self.winner is None:
            self.winner = p

    def received(self, seats):
        """Seats that were handed a new hand: UNO is due for each one-card hand."""
        for q in seats:
            if self.size(q) == 1:
                self.uno_due.append(q)

    def _uno(self, p, forgot):
        if p not in self.uno_due:
            self.fail(
                f"seat {p} calls or forgets UNO without having just dropped to or received one card"
            )
        if self.size(p) != 1:
            self.fail(f"seat {p} calls UNO holding {self.size(p)} cards")
        self.uno_due.remove(p)
        self._forgot = p if forgot else None
        if forgot and self.bot(p)["forget"] <= 0:
            self.fail(f"seat {p} forgets UNO with forget=0")

    def _catch(self, catcher, p):
        if getattr(self, "_forgot", None) != p:
            self.fail(f"seat {catcher} catches seat {p}, who did not just forget UNO")
        if catcher == p or self.bot(catcher)["catch"] <= 0:
            self.fail(f"seat {catcher} may not catch seat {p}")
        if catcher == self.partner(p):
            self.fail(f"seat {catcher} catches its partner, seat {p}")
        if p not in self.penalty_due:
            self.penalty_due.append(p)

    # ------------------------------------------------------------------ drawing
    def draw_one(self, q):
        """One card from the draw pile into seat q's hand (None: nothing to draw)."""
        if sum(self.pile.values()) == 0:
            n = sum(self.disc.values())
            if n > 0:
                m = self.take(
                    r"the discard pile \((\d+) cards under the top\) becomes the "
                    r"draw pile",
                    "a reshuffle of the discard pile",
                )
                if int(m[1]) != n:
                    self.fail(f"reshuffle of {m[1]} cards, {n} are under the top", self.i - 1)
                self.pile, self.disc = self.disc, Counter()
            else:
                self.take(rf"seat {q} cannot draw: no card left", f"seat {q} cannot draw")
                self.failed_draws += 1
                return None
        elif self.peek() is not None and self.peek().startswith("the discard pile"):
            self.fail("reshuffle while the draw pile still holds cards")
        m = self.take(rf"seat {q} draws (.+)", f"seat {q} draws a card")
        card = m[1]
        card_info(card)
        if self.pile[card] <= 0:
            self.fail(f"seat {q} draws {card}, which is not in the draw pile", self.i - 1)
        self.pile[card] -= 1
        self.pile = +self.pile
        self.hands[q][card] += 1
        return card

    def draw_n(self, q, n):
        for _ in range(n):
            self.draw_one(q)

    def draw_until(self, q, colour):
        """Colour draw: until a card of ``colour`` (or a wild, when wilds stop it)."""
        while True:
            card = self.draw_one(q)
            if card is None:
                return
            c = colour_of(card)
            if c == colour or (c is None and self.opts["wild_stops_colour_draw"]):
                return

    def apply_penalties(self):
        """End of an action: caught forgetters draw 2 (not once the round is over)."""
        while m := self.maybe(r"seat (\d+) draws 2 for not calling UNO"):
            q = int(m[1])
            if q not in self.penalty_due or self.winner is not None:
                self.fail(f"seat {q} draws an UNO penalty it does not owe", self.i - 1)
            self.penalty_due.remove(q)
            self.draw_n(q, 2)
        if self.winner is None and self.penalty_due:
            self.fail(f"caught seats {self.penalty_due} did not draw their UNO penalty")
        self.penalty_due = []

    def expect_skips(self, seats):
        self.peek()  # record the 'skipped' lines that follow
        if self.skips != seats:
            self.fail(f"seats passed over: expected {seats}, the text has {self.skips}")
        self.skips = []

    # ------------------------------------------------------------------ the game
    def run(self):
        self.header()
        self.deal_and_first_card()
        while True:
            t = self.peek()
            if t is None:
                self.fail("the text ends before the round does")
            window, self.window = self.window, None
            if m := _JUMP.fullmatch(t):
                self.i += 1
                self.jump_in(window, int(m[1]), _hand(m[2]), m[3])
                continue
            if window is not None and self.turns < self.opts["turn_cap"]:
                self.check_jumpers(window, None)
            if m := _HEADER.fullmatch(t):
                self.i += 1
                self.turn(int(m[1]), int(m[2]), _hand(m[3]))
                continue
            break
        self.ending()

    # ------------------------------------------------------------------ jump_in, partners
    def partner(self, p):
        return (p + self.players // 2) % self.players if self.opts["partners"] else None

    def ahead(self, a, b):
        """Seats from a to b in the direction of play."""
        return ((b - a) * self.direction) % self.players

    def takes_partner_turn(self, q, by):
        """partners: would seat q, jumping in on seat ``by``'s card, take its partner's turn?
        The seats from the one to act up to q lose their turn; a seat between ``by`` and the
        seat to act (passed over by a Skip or a Draw Two) takes nobody's."""
        pp = self.partner(q)
        if pp is None or self.ahead(by, q) < self.ahead(by, self.next_actor):
            return False
        return self.ahead(self.next_actor, pp) < self.ahead(self.next_actor, q)

    def open_window(self):
        """After a turn or a jump-in: the card just played opens a jump-in window when it is
        still on top, has a printed colour and does not spin the wheel."""
        if (
            not self.opts["jump_in"]
            or self.last_play is None
            or self.winner is not None
            or self.pending is not None
        ):
            return
        card, p = self.last_play
        if (
            card == self.top
            and (colour_of(card) is not None or self.opts["jump_in_wilds"])
            and not self.spins(card)
        ):
            self.window = (card, p)

    def check_jumpers(self, window, jumper):
        """The seats asked before ``jumper`` (None: all of them) in turn order from the
        card's player: none with jump=1 held the card and was free to jump in."""
        card, by = window
        for k in range(1, self.players):
            q = self.step(by, k)
            if q == jumper:
                return
            if (
                q == self.next_actor
                or q in self.jumped
                or self.uncertain[q]
                or self.hands[q][card] <= 0
                or (card == WD4 and not self.wd4_legal(q))
            ):
                continue
            if self.takes_partner_turn(q, by):
                continue
            if self.bot(q)["jump"] >= 1:
                self.fail(f"seat {q} holds {card}, jump=1, and does not jump in")
        if jumper is not None:
            self.fail(f"seat {jumper} jumps in out of the order of turn")

    def jump_in(self, window, q, printed, card):
        at = self.i - 1
        if window is None:
            self.fail(f"seat {q} jumps in with no card open to jump-ins", at)
        if self.turns >= self.opts["turn_cap"]:
            self.fail("a jump-in after the turn cap", at)
        if card != window[0]:
            self.fail(f"seat {q} jumps in with {card}, the card just played is {window[0]}", at)
        if q == window[1] or q == self.next_actor or q in self.jumped:
            self.fail(
                f"seat {q} may not jump in (it played the card, is to act or jumped in "
                f"since the last turn)",
                at,
            )
        if printed != +self.hands[q]:
            self.fail(
                f"seat {q}'s printed hand {sorted(printed.elements())} differs from "
                f"its tracked hand {sorted(self.hands[q].elements())}",
                at,
            )
        if self.bot(q)["jump"] <= 0:
            self.fail(f"seat {q} jumps in with jump=0", at)
        if self.takes_partner_turn(q, window[1]):
            self.fail(f"seat {q} jumps in past its partner, seat {self.partner(q)}", at)
        if card == WD4 and not self.wd4_legal(q):
            self.fail(f"seat {q} jumps in with an illegal wild draw four", at)
        self.check_jumpers(window, q)
        self.jumped.add(q)
        self.last_play = None
        self.normal_turn(q, forced=card)
        self.end_of_action()
        self.open_window()

    def header(self):
        m = re.fullmatch(r"rules: (.+)", self._raw() or "")
        if not m:
            self.fail("no rules line")
        self.edition, self.opts = parse_rules(m[1])
        self.players = self.opts["players"]
        self.i += 1
        m = re.fullmatch(r"bots: (.+)", self._raw() or "")
        if not m:
            self.fail("no bots line")
        self.bots = parse_bots(m[1], self.players)
        self.i += 1
        self.deck = build_deck(self.edition, self.opts)
        self.wheel = (
            {s: w for s, w in self.opts["wheel"].items() if w > 0} if self.edition in WHEEL else {}
        )
        self.spin_cards = self.edition in WHEEL

    def deal_and_first_card(self):
        n = self.players
        self.take(rf"dealer: seat {n - 1}; dealt 7 cards each", "the dealer line")
        bases = _resolve_deals(self.lines, n)
        self.bases = bases
        self.hands = []
        self.uncertain = [False] * n  # hands of which only a union with others is known
        for p in range(n):
            if ("deal", p) not in bases:
                self.fail(f"seat {p}'s dealt hand cannot be recovered from the text")
            hand = Counter(bases[("deal", p)])
            self.uncertain[p] = ("deal", p) in bases["uncertain"]
            if sum(hand.values()) != 7:
                self.fail(f"seat {p} was dealt {sum(hand.values())} cards, not 7")
            self.hands.append(hand)
        pile = Counter(self.deck)
        pile.subtract(sum(self.hands, Counter()))
        if any(v < 0 for v in pile.values()):
            extra = {k: -v for k, v in pile.items() if v < 0}
            self.fail(f"the dealt hands hold cards the deck has not: {extra}")
        self.pile = +pile
        self.disc = Counter()
        self.direction = 1
        numbers_only = self.edition in ("spin2025", "spiderman")
        while m := self.maybe(r"first card (.+) is set aside and goes back into the pile"):
            card = m[1]
            if self.pile[card] <= 0:
                self.fail(f"first card {card} is not in the draw pile", self.i - 1)
            if numbers_only and number_of(card) is not None:
                self.fail(f"a number card {card} is set aside", self.i - 1)
            if not numbers_only and card != WD4:
                self.fail(f"{card} is set aside (only a Wild Draw Four goes back)", self.i - 1)
        m = self.take(r"first card: (.+)", "the first card")
        first = m[1]
        if self.pile[first] <= 0:
            self.fail(f"first card {first} is not in the draw pile", self.i - 1)
        self.pile[first] -= 1
        self.pile = +self.pile
        self.top = first
        if numbers_only and number_of(first) is None:
            self.fail(f"first card {first} is not a number card ({self.edition})", self.i - 1)
        if first == WD4:
            self.fail("a Wild Draw Four is the first card", self.i - 1)
        kind = card_info(first)[1]
        nxt = 0
        if is_wild(first):
            self.name_colour(0)
        else:
            self.colour = colour_of(first)
            if kind == "skip":
                nxt = 1 % n
                self.expect_skips([0])
            elif kind == "reverse":
                self.take("direction is now counter-clockwise", "the first Reverse")
                self.direction = -1
                nxt = n - 1
            elif kind == "draw two":
                self.draw_n(0, 2)
                self.expect_skips([0])
                nxt = 1 % n
        self.next_actor = nxt
        self.end_of_action()

    # ------------------------------------------------------------------ a turn
    def turn(self, number, p, printed):
        if self.winner is not None:
            self.fail("a turn after the round was won", self.i - 1)
        if number != self.turns + 1:
            self.fail(f"turn {number} follows turn {self.turns}", self.i - 1)
        self.turns = number
        if p != self.next_actor:
            self.fail(
                f"seat {p} takes turn {number}; it is seat {self.next_actor}'s turn", self.i - 1
            )
        if printed != +self.hands[p]:
            self.fail(
                f"seat {p}'s printed hand {sorted(printed.elements())} differs from "
                f"its tracked hand {sorted(self.hands[p].elements())}",
                self.i - 1,
            )
        self.trace.append(
            dict(
                line=self.lines[self.i - 1][0],
                turn=number,
                seat=p,
                top=self.top,
                colour=self.colour,
                hand=Counter(self.hands[p]),
                two_x=self.two_x,
                pending=self.pending is not None,
                spin=self.spin_next,
            )
        )
        self.last_play = None
        self.jumped = set()
        if self.pending is not None:
            if self.pending["victim"] != p:
                self.fail("a turn while another seat faces a penalty", self.i - 1)
            self.stack_turn(p)
        elif self.spin_next:
            self.spin_next = False
            self.spin_2005(p)
        else:
            self.normal_turn(p)
        self.end_of_action()
        self.open_window()

    def end_of_action(self):
        self.apply_penalties()
        self.peek()
        if self.pending is not None and self.winner is None:
            self.penalty_decision()
        if self.skips:
            self.fail(f"seats {self.skips} passed over for no reason")
        if self.uno_due and self.winner is None:
            self.fail(f"seats {self.uno_due} did not call UNO")
        self.uno_due = []

    def normal_turn(self, p, forced=None):
        """A turn of seat p; ``forced``: a jump-in with that card (one card, no choice)."""
        bot = self.bot(p)
        max_cards = 2 if self.two_x and forced is None else 1
        played = []
        n_rev = n_pass = n_draw = 0
        wd4_illegal = []  # per Wild Draw Four played this turn: was it illegal?
        last_draw_face = None  # stacking: the face to stack on
        last_illegal = False
        jump = None
        dir_before = self.direction
        while len(played) < max_cards:
            bluff = self.maybe(rf"seat {p} bluffs a Wild Draw Four")
            m = self.maybe(rf"seat {p} plays (.+)")
            drawn = None
            if forced is not None and (m is None or m[1] != forced or bluff):
                self.fail(f"seat {p} jumps in and does not play {forced}")
            if m is None:
                if bluff:
                    self.fail(f"seat {p} bluffs but plays nothing")
                if played:  # no second card under 2X
                    if any(self.playable(p, c) for c in self.hands[p]):
                        self.fail(
                            f"seat {p} ({bot['strategy']}) does not play a second "
                            f"card under 2X although it can"
                        )
                    break
                if self.any_playable(p):
                    self.fail(f"seat {p} ({bot['strategy']}) draws although it can play")
                drawn = self.draw_one(p)
                while (
                    drawn is not None
                    and not self.playable(p, drawn)
                    and self.opts["draw_until_playable"]
                ):
                    drawn = self.draw_one(p)
                if drawn is None or not self.playable(p, drawn):
                    if self.maybe(rf"seat {p} plays (.+)"):
                        self.fail(f"seat {p} plays after drawing an unplayable card", self.i - 1)
                    break
                max_cards = 1  # after drawing, only the drawn card
                m = self.maybe(rf"seat {p} plays (.+)")
                if m is None:
                    if bot["strategy"] == "random":
                        self.fail(f"seat {p} (random) keeps a playable drawn card")
                    break
                if m[1] != drawn:
                    self.fail(f"seat {p} draws {drawn} and plays another card ({m[1]})", self.i - 1)
            card = m[1]
            card_info(card)
            if self.hands[p][card] <= 0:
                self.remove(p, card, "plays")
            if not matches(card, self.top, self.colour):
                self.fail(
                    f"seat {p} plays {card} on {self.top} with {self.colour} in play", self.i - 1
                )
            illegal = card == WD4 and not self.wd4_legal(p)
            if illegal:
                if drawn is not None:
                    self.fail(f"seat {p} plays a drawn Wild Draw Four illegally", self.i - 1)
                if not bluff or bot["bluff"] <= 0:
                    self.fail(
                        f"seat {p} plays an illegal Wild Draw Four (holds "
                        f"{self.colour} or another wild) without a bluff",
                        self.i - 1,
                    )
            elif bluff:
                self.fail(f"seat {p} 'bluffs' a legal Wild Draw Four", self.i - 1)
            self.remove(p, card, "plays")
            self.set_top(card)
            self.set_colour_after(p, card)
            played.append(card)
            self.last_play = (card, p)
            kind = card_info(card)[1]
            if card == WD4:
                n_draw += 4
                n_pass += 1
                wd4_illegal.append(illegal)
                last_draw_face, last_illegal = WD4, illegal
            elif kind == "draw two":
                n_draw += 2
                n_pass += 1
                last_draw_face = "draw two"
            elif kind == "skip":
                n_pass += 1
            elif kind == "reverse":
                if self.players == 2:
                    n_pass += 1
                else:
                    n_rev += 1
            self.hand_dropped(p)
            if self.winner is not None:
                break
            if card == "wild web swing":
                jump = self.web_swing(p)
            elif card == "wild swap hands":
                self.swap(p)
            elif card == "wild shuffle hands":
                self.shuffle_hands(p)
            elif (
                self.opts["seven_o"] and kind in ("number", "spin") and card_info(card)[2] in (0, 7)
            ):  # a Spin 7 (spin_cards >= 7) too
                if card_info(card)[2] == 7:
                    self.swap(p)
                else:
                    self.pass_hands(dir_before)
            if self.spins(card):
                if self.edition == "spin2025":
                    self.spin_2025(p)
                    if self.winner is not None:
                        return  # won by a wheel discard: the round ends at once
                else:
                    self.spin_next = True
                break
        # ---- the turn's effects, once
        if n_rev % 2:
            self.direction = -self.direction
        if n_rev:
            way = "clockwise" if self.direction > 0 else "counter-clockwise"
            self.take(f"direction is now {way}", f"direction is now {way}")
        v = self.step(p)
        if n_draw:
            if self.winner is None:
                if self.opts["stacking"]:
                    self.start_penalty(v, n_draw, last_draw_face, p, last_illegal, n_pass)
                    return
                n_illegal = sum(wd4_illegal)
                for _ in wd4_illegal:  # the victim may challenge each Wild Draw Four
                    m = self.maybe(
                        rf"seat {v} challenges the Wild Draw Four of seat {p}: "
                        r"(illegal: the player draws 4|legal: the challenger draws 6)"
                    )
                    if m is None:
                        continue
                    if self.bot(v)["challenge"] <= 0:
                        self.fail(f"seat {v} challenges with challenge=0", self.i - 1)
                    said_illegal = m[1].startswith("illegal")
                    if said_illegal != (n_illegal > 0):
                        self.fail(
                            "the challenge's verdict contradicts the Wild Draw Four's legality",
                            self.i - 1,
                        )
                    if said_illegal:
                        n_illegal -= 1
                        self.draw_n(p, 4)
                        n_draw -= 4
                        n_pass -= 1
                    else:
                        n_draw += 2
            self.draw_n(v, n_draw)
        if self.winner is not None:
            return
        anchor = p if jump is None else jump
        self.expect_skips([self.step(anchor, k) for k in range(1, n_pass + 1)])
        self.next_actor = self.step(anchor, n_pass + 1)

    def spins(self, card):
        if card == "wild spin":
            return True
        return self.spin_cards and card_info(card)[1] == "spin"

    # ------------------------------------------------------------------ hand moves
    def swap(self, p):
        m = self.take(rf"seat {p} swaps hands with seat (\d+)", f"seat {p} swaps hands")
        q = int(m[1])
        if q == p or not 0 <= q < self.players:
            self.fail(f"seat {p} swaps hands with seat {q}", self.i - 1)
        if q == self.partner(p):
            self.fail(f"seat {p} swaps hands with its partner", self.i - 1)
        if self.bot(p)["strategy"] == "heuristic":
            smallest = min(
                self.size(r) for r in range(self.players) if r != p and r != self.partner(p)
            )
            if self.size(q) != smallest:
                self.fail(
                    f"heuristic seat {p} swaps with a hand of {self.size(q)} cards, "
                    f"not the smallest ({smallest})",
                    self.i - 1,
                )
        self.hands[p], self.hands[q] = self.hands[q], self.hands[p]
        self.uncertain[p], self.uncertain[q] = self.uncertain[q], self.uncertain[p]
        self.received([p, q])

    def pass_hands(self, direction):
        way = "clockwise" if direction > 0 else "counter-clockwise"
        self.take(f"every hand passes one seat {way}", f"every hand passes {way}")
        n = self.players
        self.hands = [self.hands[(i - direction) % n] for i in range(n)]
        self.uncertain = [self.uncertain[(i - direction) % n] for i in range(n)]
        self.received(range(n))

    def shuffle_hands(self, p):
        m = self.take(
            r"every hand is collected, shuffled and dealt again from seat (\d+)",
            "the hands are shuffled",
        )
        first = int(m[1])
        if first != self.step(p):
            self.fail(
                f"the shuffled hands are dealt from seat {first}, not from the next "
                f"player {self.step(p)}",
                self.i - 1,
            )
        collected = sum(self.hands, Counter())
        total = sum(collected.values())
        self.shuffles += 1
        new = []
        for q in range(self.players):
            key = ("shuffle", self.shuffles, q)
            if key not in self.bases:
                self.fail(f"seat {q}'s redealt hand cannot be recovered from the text")
            new.append(Counter(self.bases[key]))
        if sum(new, Counter()) != collected:
            self.fail("the redealt hands are not the collected cards", self.i - 1)
        for k in range(self.players):  # dealt one at a time from `first`, in the direction
            q = self.step(first, k)
            want = (total - k + self.players - 1) // self.players
            if sum(new[q].values()) != want:
                self.fail(
                    f"seat {q} is redealt {sum(new[q].values())} cards, not {want}", self.i - 1
                )
        self.hands = new
        self.uncertain = [False] * self.players
        self.received(range(self.players))

    def web_swing(self, p):
        colour = self.colour
        if self.maybe(rf"web swing: nobody else holds {colour}"):
            holders = [
                q
                for q in range(self.players)
                if q != p and any(colour_of(c) == colour for c in self.known_hand(q))
            ]
            if holders:
                self.fail(f"web swing: seats {holders} hold {colour}", self.i - 1)
            return None
        m = self.take(r"web swing to seat (\d+): play continues after them", "a web swing")
        t = int(m[1])
        if t == p or not any(colour_of(c) == colour for c in self.known_hand(t)):
            self.fail(f"web swing to seat {t}, which holds no {colour}", self.i - 1)
        pp = self.partner(p)
        if pp is not None and self.ahead(p, t) >= self.ahead(p, pp):
            short = [
                q
                for q in range(self.players)
                if q != p
                and self.ahead(p, q) < self.ahead(p, pp)
                and any(colour_of(c) == colour for c in self.known_hand(q))
            ]
            if short:
                self.fail(
                    f"web swing past the partner, seat {pp}, although seats {short} hold {colour}",
                    self.i - 1,
                )
        return t

    # ------------------------------------------------------------------ the 2005 wheel
    def spin_line(self, p):
        m = self.take(rf"seat {p} spins the wheel: (\w+)", f"seat {p} spins the wheel")
        space = m[1]
        if space not in self.wheel:
            self.fail(
                f"the wheel lands on {space}, not a space of this wheel (weights "
                f"{self.opts['wheel']})",
                self.i - 1,
            )
        return space

    def wheel_discards(self, p, allowed, top_last=True, count=None):
        """Discards of seat p: each must satisfy ``allowed``; 2005: the last one goes onto the
        pile (a wild then gets a colour), the others under it; 2025: all under."""
        out = []
        while m := self.maybe(rf"seat {p} discards (.+) (under|onto) the discard pile"):
            card, where = m[1], m[2]
            if not allowed(card):
                self.fail(f"seat {p} may not discard {card} here", self.i - 1)
            self.remove(p, card, "discards")
            out.append((card, where))
        for j, (card, where) in enumerate(out):
            last = j == len(out) - 1
            want = "onto" if (top_last and last) else "under"
            if where != want:
                self.fail(f"wheel discard {card} goes {where} the pile, not {want}")
        if count is not None and len(out) != count:
            self.fail(f"seat {p} discards {len(out)} cards, the wheel says {count}")
        for j, (card, where) in enumerate(out):
            if where == "onto":
                self.set_top(card)
            else:
                self.disc[card] += 1
        if out and top_last:
            self.set_colour_after(p, out[-1][0])
        if out:
            self.hand_dropped(p)
        return [c for c, _ in out]

    def named(self, p, what):
        """A colour or number named for the wheel; random names one it holds (if any)."""
        if what == "colour":
            m = self.take(rf"seat {p} names (red|yellow|green|blue)", f"seat {p} names a colour")
            value = m[1]
            held = {colour_of(c) for c in self.hands[p]} - {None}
        else:
            m = self.take(rf"seat {p} names number (\d)", f"seat {p} names a number")
            value = int(m[1])
            held = {number_of(c) for c in self.hands[p]} - {None}
        if self.bot(p)["strategy"] == "random" and held and value not in held:
            self.fail(f"random seat {p} names {value}, which it does not hold", self.i - 1)
        return value

    def spin_2005(self, s):
        space = self.spin_line(s)
        anchor = s
        if space == "almost_uno":
            self.wheel_discards(s, lambda c: True, count=max(0, self.size(s) - 2))
        elif space in ("discard_number", "discard_color"):
            if space == "discard_number":
                v = self.named(s, "number")
                ok = lambda c: number_of(c) == v
            else:
                v = self.named(s, "colour")
                ok = lambda c: colour_of(c) == v
            may = sum(n for c, n in self.hands[s].items() if ok(c))
            gone = self.wheel_discards(s, ok)
            if self.bot(s)["strategy"] == "random" and len(gone) != may:
                self.fail(f"random seat {s} discards {len(gone)} of the {may} cards it may")
        elif space in ("draw_red", "draw_blue"):
            self.draw_until(s, space[5:])
        elif space == "show_hand":
            m = self.take(rf"seat {s} shows \[(.*)\]", f"seat {s} shows its hand")
            if _hand(m[1]) != +self.hands[s]:
                self.fail(f"seat {s} shows a hand that is not its own", self.i - 1)
        elif space == "war":
            w = self.war()
            if w is not None:
                anchor = w
        elif space == "uno_spin":
            m = self.take(r"seat (\d+) wins the UNO Spin race", "the UNO Spin race")
            w = int(m[1])
            if not 0 <= w < self.players or self.bot(w)["reflex"] <= 0:
                self.fail(f"seat {w} cannot win the race", self.i - 1)
            if self.size(w):
                self.wheel_discards(w, lambda c: True, count=1)
            anchor = w
        elif space == "trade_hands":
            self.pass_hands(+1)
        if self.winner is not None:
            return
        self.expect_skips([])
        self.next_actor = self.step(anchor)

    def war(self):
        """War: returns the winner (None: nobody). Checks every card shown and discarded."""
        remaining = {
            q: sorted(
                (number_of(c) for c in self.known_hand(q).elements() if number_of(c) is not None),
                reverse=True,
            )
            for q in range(self.players)
        }
        in_war = [q for q in range(self.players) if remaining[q]]
        shown = {q: [] for q in in_war}
        while True:
            best = {}
            for q in in_war:
                m = self.take(rf"war: seat {q} shows a (\d)", f"war: seat {q} shows a card")
                v = int(m[1])
                if not remaining[q] or v != remaining[q][0]:
                    self.fail(
                        f"war: seat {q} shows a {v}, its highest number left is {remaining[q][:1]}",
                        self.i - 1,
                    )
                remaining[q].pop(0)
                shown[q].append(v)
                best[q] = v
            if not best:
                break
            top = max(best.values())
            tied = [q for q in in_war if best[q] == top]
            if len(tied) == 1:
                winner = tied[0]
                break
            in_war = [q for q in tied if remaining[q]]
            if len(in_war) == 1:  # the one tied player who can still show a card wins,
                q = in_war[0]  # showing it
                m = self.take(rf"war: seat {q} shows a (\d)", f"war: seat {q} shows a card")
                if int(m[1]) != remaining[q][0]:
                    self.fail(f"war: seat {q} shows a {m[1]}", self.i - 1)
                shown[q].append(remaining[q].pop(0))
                winner = q
                break
            if not in_war:
                winner = None
                break
        if not shown or winner is None:
            self.take("war: nobody wins", "war: nobody wins")
            return None
        self.take(rf"war: seat {winner} wins", f"war: seat {winner} wins")
        values = list(shown[winner])
        gone = []
        while m := self.maybe(rf"seat {winner} discards (.+) onto the discard pile"):
            card = m[1]
            if not values or number_of(card) != values[0]:
                self.fail(
                    f"war: seat {winner} discards {card}, it showed {shown[winner]}", self.i - 1
                )
            values.pop(0)
            self.remove(winner, card, "discards")
            self.set_top(card)
            gone.append(card)
        if values:
            self.fail(f"war: seat {winner} did not discard every card it showed")
        self.colour = colour_of(gone[-1])
        self.hand_dropped(winner)
        return winner

    # ------------------------------------------------------------------ the 2025 wheel
    def spin_2025(self, p):
        space = self.spin_line(p)
        if self.two_x:
            self.take("2X ends", "2X ends")
            self.two_x = False
        if space.startswith("color_draw_"):
            self.draw_until(p, space[len("color_draw_") :])
        elif space == "wild_color_draw":
            self.draw_until(p, self.named(p, "colour"))
        elif space == "color_discard":
            colour = self.named(p, "colour")
            n = sum(k for c, k in self.hands[p].items() if colour_of(c) == colour)
            self.wheel_discards(p, lambda c: colour_of(c) == colour, top_last=False, count=n)
        elif space == "swap_hands":
            self.swap(p)
        elif space == "two_x":
            self.take("2X is on: two cards a turn", "2X is on")
            self.two_x = True

    # ------------------------------------------------------------------ stacking
    def start_penalty(self, v, n, face_, by, illegal, passes):
        self.take(
            rf"seat {v} faces a penalty of {n} cards: stack or take it",
            f"seat {v} faces a penalty of {n} cards",
        )
        self.pending = dict(victim=v, n=n, face=face_, by=by, illegal=illegal, passes=passes)
        self.expect_skips([])

    def checked_wd4(self):
        """stacked_wd4=checked: a stacked Wild Draw Four follows the Wild Draw Four rule."""
        return self.opts["stacked_wd4"] == "checked"

    def can_stack(self, v):
        """May v stack without a bluff?"""
        f = self.pending["face"]
        if f == WD4 and self.checked_wd4() and not self.wd4_legal(v):
            return False
        return any(face(c) == f for c in self.hands[v])

    def stack_turn(self, v):
        pen = self.pending
        bluff = self.maybe(rf"seat {v} bluffs a Wild Draw Four")
        m = self.take(rf"seat {v} plays (.+)", f"seat {v} stacks")
        card = m[1]
        if face(card) != pen["face"]:
            self.fail(f"seat {v} plays {card} on a pending {pen['face']} penalty", self.i - 1)
        illegal = card == WD4 and self.checked_wd4() and not self.wd4_legal(v)
        if illegal and (not bluff or self.bot(v)["bluff"] <= 0):
            self.fail(
                f"seat {v} stacks an illegal Wild Draw Four (holds {self.colour} or "
                f"another wild) without a bluff",
                self.i - 1,
            )
        if bluff and not illegal:
            self.fail(f"seat {v} 'bluffs' a Wild Draw Four it may stack", self.i - 1)
        self.remove(v, card, "stacks")
        self.set_top(card)
        self.set_colour_after(v, card)
        n = pen["n"] + (4 if card == WD4 else 2)
        w = self.step(v)
        self.pending = None
        self.hand_dropped(v)
        if self.winner is not None:  # the next player draws the whole penalty first
            self.draw_n(w, n)
            return
        self.start_penalty(w, n, pen["face"], v, illegal, 1)

    def penalty_decision(self):
        """The victim of a pending penalty that does not stack: challenge and/or take it."""
        pen = self.pending
        v = pen["victim"]
        t = self.peek()
        if (
            t is not None and _HEADER.fullmatch(t)
        ) or t == "turn cap reached: the round is unfinished":
            self.expect_skips([])
            self.next_actor = v  # v stacks: its turn follows (or the cap stops the round)
            return
        passes = pen["passes"]
        n = pen["n"]
        m = self.maybe(
            rf"seat {v} challenges the Wild Draw Four of seat {pen['by']}: "
            r"(illegal: the player draws 4|legal: the challenger draws the penalty "
            r"and 2 more)"
        )
        if m:
            if pen["face"] != WD4 or self.bot(v)["challenge"] <= 0:
                self.fail(f"seat {v} may not challenge here", self.i - 1)
            if m[1].startswith("illegal") != pen["illegal"]:
                self.fail(
                    "the challenge's verdict contradicts the Wild Draw Four's legality", self.i - 1
                )
            if pen["illegal"]:
                self.draw_n(pen["by"], 4)
                n -= 4
                passes -= 1
            else:
                n += 2
        elif not self.uncertain[v] and self.can_stack(v):
            self.fail(
                f"seat {v} ({self.bot(v)['strategy']}) takes the penalty although it can stack"
            )
        if n > 0:
            self.take(rf"seat {v} takes the penalty: draws {n}", f"seat {v} takes {n}")
            self.draw_n(v, n)
        self.pending = None
        self.expect_skips([self.step(v, k) for k in range(passes)])
        self.next_actor = self.step(v, passes)
        self.apply_penalties()

    # ------------------------------------------------------------------ the end
    def ending(self):
        t = self.peek()
        if m := re.fullmatch(r"seat (\d+) wins the round and scores (\d+) points", t or ""):
            w = int(m[1])
            if w != self.winner:
                self.fail(f"seat {w} wins, the tracked winner is {self.winner}")
            score = sum(
                points(c) for q in range(self.players) if q != w for c in self.hands[q].elements()
            )
            if int(m[2]) != score:
                self.fail(f"the winner scores {m[2]}, the other hands hold {score} points")
            if self.opts["partners"]:
                self.i += 1
                t2 = self.players // 2
                m = self.take(
                    rf"team {w % t2} \(seats {w % t2} and {w % t2 + t2}\) scores the "
                    r"opponents' cards: (\d+) points",
                    "the team's score",
                )
                opp = sum(
                    points(c)
                    for q in range(self.players)
                    if q % t2 != w % t2
                    for c in self.hands[q].elements()
                )
                if int(m[1]) != opp:
                    self.fail(
                        f"the team scores {m[1]}, the opponents hold {opp} points", self.i - 1
                    )
                self.i -= 1
        elif t == "turn cap reached: the round is unfinished":
            if self.winner is not None or self.turns != self.opts["turn_cap"]:
                self.fail(f"turn cap line after {self.turns} turns (cap {self.opts['turn_cap']})")
        else:
            self.fail(f"expected the next turn or the end of the round, found {t!r}")
        self.i += 1
        self.take("final hands:", "final hands")
        for p in range(self.players):
            m = self.take(rf"seat {p}: (\d+) cards? \[(.*)\]", f"seat {p}'s final hand")
            if _hand(m[2]) != +self.hands[p] or int(m[1]) != self.size(p):
                self.fail(f"seat {p}'s final hand differs from the tracked one", self.i - 1)
        if self._raw() is not None:
            self.fail("text after the final hands")
        everything = sum(self.hands, Counter()) + self.pile + self.disc + Counter([self.top])
        if everything != self.deck:
            self.fail("the cards in hands and piles are not the deck")


def replay(text, name="playthrough"):
    """Replay one playthrough; raises Illegal at the first line the rules do not allow.
    Returns the finished :class:`Replay` (its position) for inspection."""
    r = Replay(text, name)
    r.run()
    return r
