"""The reference engine's cards: kinds, editions, decks, points and what may be played
(docs/RULINGS.md "Editions and decks"), written out again from the rulings text."""

from __future__ import annotations

from collections import namedtuple

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


#: the wild cards in the order a player looks at them (a heuristic tie goes to the first)
WILD_ORDER = (WILD, WILD_DRAW_FOUR, WILD_SPIN, WEB_SWING, SWAP_WILD, SHUFFLE_WILD)


#: the published copies of each action card per colour and of each wild (the defaults of the
#: rule options skip_cards, reverse_cards, draw_two_cards, wild_cards and wd4_cards)
COPIES = {SKIP: 2, REVERSE: 2, DRAW_TWO: 2, WILD: 4, WILD_DRAW_FOUR: 4}


def build_deck(edition, wild_spin_cards=4, special_wilds="none", spin_cards=5, copies=None):
    """The edition's full deck as a list of Cards (RULINGS "Editions and decks");
    ``special_wilds`` (classic) adds one Wild Swap Hands or Wild Shuffle Hands;
    ``spin_cards`` (Spin editions) = k: the numbers 1..k carry the Spin mark on one copy
    each (for 6..k, one of the two copies), no other card does; deck size unchanged;
    ``copies`` maps SKIP, REVERSE, DRAW_TWO (per colour), WILD and WILD_DRAW_FOUR to their
    number of copies (unlisted: :data:`COPIES`)."""
    copies = {**COPIES, **(copies or {})}
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
            deck += [Card(kind, c, None)] * copies[kind]
    deck += [Card(WILD, None, None)] * copies[WILD]
    deck += [Card(WILD_DRAW_FOUR, None, None)] * copies[WILD_DRAW_FOUR]
    if edition == "spin2025":
        deck += [Card(WILD_SPIN, None, None)] * wild_spin_cards
    if edition == "spiderman":
        deck += [Card(WEB_SWING, None, None)] * 4
    if SPECIAL_WILDS[special_wilds] is not None:
        deck.append(Card(SPECIAL_WILDS[special_wilds], None, None))
    return deck


#: the published score of each card kind but the numbers (the default of rule option points)
POINTS = {
    SKIP: 20,
    REVERSE: 20,
    DRAW_TWO: 20,
    WILD: 50,
    WILD_DRAW_FOUR: 50,
    WILD_SPIN: 50,
    WEB_SWING: 50,
    SWAP_WILD: 40,
    SHUFFLE_WILD: 40,
}


def card_points(card, points=None):
    """The card's score: a number or Spin card its number, another its kind's score in
    ``points`` (a ``{kind: points}`` dict; unlisted kinds: :data:`POINTS`)."""
    if card.number is not None:
        return card.number
    if points is not None and card.kind in points:
        return points[card.kind]
    return POINTS[card.kind]


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


def hand_points(hand, points=None):
    return sum(card_points(c, points) for c in hand)


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
