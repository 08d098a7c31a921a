"""Card kinds: the fixed enumeration every edition's deck is counted in.

A *card kind* is an integer ``0 <= k < N_KINDS``.  Hands, decks and piles are
counts or lists of kinds; no card object exists anywhere in the engine.

Layout (``C`` = colour index, ``0 <= C < 4``)::

    C*22 + 0..9    number cards 0-9 of colour C
    C*22 + 10..18  Spin cards 1-9 of colour C (number cards that spin the wheel; the decks
                   hold Spin 1-5, and 6-9 only under the deck option ``spin_cards`` = 6-9)
    C*22 + 19      Skip
    C*22 + 20      Reverse
    C*22 + 21      Draw Two
    88             Wild
    89             Wild Draw Four
    90             Wild Spin            (spin2025)
    91             Wild Web Swing       (spiderman)
    92             Wild Swap Hands      (classic option ``special_wilds``)
    93             Wild Shuffle Hands   (classic option ``special_wilds``)

Kinds are in the order a scan meets them (a colour's numbers, its Spin cards, its actions;
then the wilds): the engine's fixed scan orders, and so its results, depend only on this
order, not on the numbers.

Every kind has a *face*: numbers and Spin cards their number (0-9), Skip 10,
Reverse 11, Draw Two 12, wilds 13-18.  Two coloured cards match when their
colours or their faces are equal (the Spin swirl is not a symbol).
"""

from __future__ import annotations

# the numbers and tables the engine compiles in: card_codes.py, re-exported here
from .card_codes import (
    DRAW_TWO_OFFSET,
    FACE_DRAW_TWO,
    FACE_REVERSE,
    FACE_SKIP,
    FIRST_WILD,
    FIRST_WILD_FACE,
    KIND_COLOUR,
    KIND_FACE,
    KIND_SPINS,
    KINDS_PER_COLOUR,
    MAX_SPIN_NUMBER,
    N_COLOURS,
    N_FACES,
    N_KINDS,
    REVERSE_OFFSET,
    SKIP_OFFSET,
    SPIN_OFFSET,
    WILD,
    WILD_COLOUR,
    WILD_DRAW_FOUR,
    WILD_SHUFFLE_HANDS,
    WILD_SPIN,
    WILD_SWAP_HANDS,
    WILD_WEB_SWING,
)

COLOURS = ("red", "yellow", "green", "blue")

#: names of the wild kinds, in kind order, as used in the rules data
WILD_NAMES = (
    "wild",
    "wild_draw_four",
    "wild_spin",
    "wild_web_swing",
    "wild_swap_hands",
    "wild_shuffle_hands",
)
#: names of the coloured action kinds, in offset order
ACTION_NAMES = ("skip", "reverse", "draw_two")


def number_kind(colour: int, n: int) -> int:
    return colour * KINDS_PER_COLOUR + n


def spin_kind(colour: int, n: int) -> int:
    assert 1 <= n <= MAX_SPIN_NUMBER
    return colour * KINDS_PER_COLOUR + SPIN_OFFSET + n - 1


def _kind_names() -> tuple[str, ...]:
    names = []
    for k in range(N_KINDS):
        c, i = divmod(k, KINDS_PER_COLOUR)
        if k >= FIRST_WILD:
            names.append(WILD_NAMES[k - FIRST_WILD].replace("_", " "))
        elif i < 10:
            names.append(f"{COLOURS[c]} {i}")
        elif i < SKIP_OFFSET:
            names.append(f"{COLOURS[c]} spin {KIND_FACE[k]}")
        else:
            names.append(f"{COLOURS[c]} {ACTION_NAMES[i - SKIP_OFFSET].replace('_', ' ')}")
    return tuple(names)


#: KIND_NAMES[k]: the kind's name (:func:`kind_name`)
KIND_NAMES = _kind_names()


def kind_name(k: int) -> str:
    """Human-readable name of card kind ``k`` (``"red spin 3"``, ``"wild draw four"``)."""
    return KIND_NAMES[k]


def is_number(k: int) -> bool:
    """Number cards, Spin cards included (they are number cards)."""
    return k < FIRST_WILD and KIND_FACE[k] <= 9
