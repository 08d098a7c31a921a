"""The wheel-space ids and wheel families the kernel compiles in (``spaces.py`` names the
spaces, and re-exports these).

The compiled-code cache hashes this file whole (``engine/cache_key.py``): keep here only
what the engine reads.
"""

# behaviour ids: 0-8 the 2005 wheel, 9-16 the 2025 wheel (spaces.SPACE_NAMES in id order)
# fmt: off
(ALMOST_UNO, DISCARD_NUMBER, DISCARD_COLOR, DRAW_RED, DRAW_BLUE, SHOW_HAND, WAR, UNO_SPIN,
 TRADE_HANDS) = range(9)
# fmt: on
# fmt: off
(COLOR_DRAW_RED, COLOR_DRAW_YELLOW, COLOR_DRAW_GREEN, COLOR_DRAW_BLUE, WILD_COLOR_DRAW,
 COLOR_DISCARD, SWAP_HANDS, TWO_X) = range(9, 17)
# fmt: on
N_PUBLISHED = 17  # the published spaces, ids 0 .. 16
# ids N_PUBLISHED .. N_SPACES - 1: a variant file's own spaces (rules/variants.py), in the
# file's order, each played by its program (engine/program.py)
MAX_VARIANT_SPACES = 15
N_SPACES = N_PUBLISHED + MAX_VARIANT_SPACES

#: wheel families: which player spins
WHEEL_NONE, WHEEL_2005, WHEEL_2025 = 0, 1, 2
