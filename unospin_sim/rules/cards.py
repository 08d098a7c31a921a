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
order, not on the numbers (the Spin 6-9 kinds, added 2026-12-04, changed no result).

Every kind has a *face*: numbers and Spin cards their number (0-9), Skip 10,
Reverse 11, Draw Two 12, wilds 13-18.  Two coloured cards match when their
colours or their faces are equal (the Spin swirl is not a symbol).
"""

from __future__ import annotations

import numpy as np

COLOURS = ("red", "yellow", "green", "blue")
N_COLOURS = 4
WILD_COLOUR = 4  # the "colour" of a wild kind in KIND_COLOUR

KINDS_PER_COLOUR = 22
SPIN_OFFSET = 10  # C*22 + SPIN_OFFSET + (n-1) is the Spin card n of colour C
MAX_SPIN_NUMBER = 9  # Spin cards exist for the numbers 1..MAX_SPIN_NUMBER
SKIP_OFFSET, REVERSE_OFFSET, DRAW_TWO_OFFSET = 19, 20, 21

WILD = 88
WILD_DRAW_FOUR = 89
WILD_SPIN = 90
WILD_WEB_SWING = 91
WILD_SWAP_HANDS = 92
WILD_SHUFFLE_HANDS = 93
FIRST_WILD = WILD
N_KINDS = 94

FACE_SKIP, FACE_REVERSE, FACE_DRAW_TWO = 10, 11, 12
N_FACES = 19

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


def _build_tables():
    colour = np.full(N_KINDS, WILD_COLOUR, dtype=np.int64)
    face = np.zeros(N_KINDS, dtype=np.int64)
    is_spin = np.zeros(N_KINDS, dtype=np.int64)
    names = []
    for c in range(N_COLOURS):
        for i in range(KINDS_PER_COLOUR):
            k = c * KINDS_PER_COLOUR + i
            colour[k] = c
            if i < 10:
                face[k] = i
                names.append(f"{COLOURS[c]} {i}")
            elif i < SKIP_OFFSET:
                face[k] = i - SPIN_OFFSET + 1
                is_spin[k] = 1
                names.append(f"{COLOURS[c]} spin {face[k]}")
            else:
                face[k] = FACE_SKIP + i - SKIP_OFFSET
                names.append(f"{COLOURS[c]} {ACTION_NAMES[i - SKIP_OFFSET].replace('_', ' ')}")
    for j, name in enumerate(WILD_NAMES):
        face[FIRST_WILD + j] = 13 + j
        names.append(name.replace("_", " "))
    is_spin[WILD_SPIN] = 1
    return colour, face, is_spin, tuple(names)


#: KIND_COLOUR[k]: 0-3, or WILD_COLOUR for wilds
#: KIND_FACE[k]: 0-9 number, 10 skip, 11 reverse, 12 draw two, 13-18 wild kinds
#: KIND_SPINS[k]: 1 when playing the card spins the wheel (Spin cards, Wild Spin)
KIND_COLOUR, KIND_FACE, KIND_SPINS, KIND_NAMES = _build_tables()
for _a in (KIND_COLOUR, KIND_FACE, KIND_SPINS):
    _a.setflags(write=False)


def kind_name(k: int) -> str:
    """Human-readable name of card kind ``k`` (``"red spin 3"``, ``"wild draw four"``)."""
    return KIND_NAMES[k]


def is_number(k: int) -> bool:
    """Number cards, Spin cards included (they are number cards)."""
    return k < FIRST_WILD and KIND_FACE[k] <= 9
