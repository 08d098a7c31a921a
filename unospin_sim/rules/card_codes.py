"""The card-kind numbers and tables the kernel compiles in (``cards.py`` describes the kinds
and names them, and re-exports these).

The compiled-code cache hashes this file whole (``engine/cache_key.py``): keep here only
what the engine reads.
"""

from __future__ import annotations

import numpy as np

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
FIRST_WILD_FACE = 13  # the face of WILD; each later wild kind's face is one more
N_FACES = 19


def _build_tables():
    colour = np.full(N_KINDS, WILD_COLOUR, dtype=np.int64)
    face = np.zeros(N_KINDS, dtype=np.int64)
    is_spin = np.zeros(N_KINDS, dtype=np.int64)
    for c in range(N_COLOURS):
        for i in range(KINDS_PER_COLOUR):
            k = c * KINDS_PER_COLOUR + i
            colour[k] = c
            if i < 10:
                face[k] = i
            elif i < SKIP_OFFSET:
                face[k] = i - SPIN_OFFSET + 1
                is_spin[k] = 1
            else:
                face[k] = FACE_SKIP + i - SKIP_OFFSET
    for k in range(FIRST_WILD, N_KINDS):
        face[k] = FIRST_WILD_FACE + k - FIRST_WILD
    is_spin[WILD_SPIN] = 1
    for a in (colour, face, is_spin):
        a.setflags(write=False)
    return colour, face, is_spin


#: KIND_COLOUR[k]: 0-3, or WILD_COLOUR for wilds
#: KIND_FACE[k]: 0-9 number, 10 skip, 11 reverse, 12 draw two, 13-18 wild kinds
#: KIND_SPINS[k]: 1 when playing the card spins the wheel (Spin cards, Wild Spin)
KIND_COLOUR, KIND_FACE, KIND_SPINS = _build_tables()
