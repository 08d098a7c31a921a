"""Wheel spaces: one global id per space behaviour, for both UNO Spin wheels.

Which spaces an edition's wheel has, and their weights, is rule *data*
(``editions.toml``); the ids here only name the behaviours the engine
implements.  Ids 0-8 are the 2005 wheel, 9-16 the 2025 wheel.
"""

SPACES_2005 = (
    "almost_uno",
    "discard_number",
    "discard_color",
    "draw_red",
    "draw_blue",
    "show_hand",
    "war",
    "uno_spin",
    "trade_hands",
)
SPACES_2025 = (
    "color_draw_red",
    "color_draw_yellow",
    "color_draw_green",
    "color_draw_blue",
    "wild_color_draw",
    "color_discard",
    "swap_hands",
    "two_x",
)
SPACE_NAMES = SPACES_2005 + SPACES_2025
N_SPACES = len(SPACE_NAMES)
SPACE_ID = {name: i for i, name in enumerate(SPACE_NAMES)}

# behaviour ids, used by the engine (module constants are compile-time constants in numba)
# fmt: off
(ALMOST_UNO, DISCARD_NUMBER, DISCARD_COLOR, DRAW_RED, DRAW_BLUE, SHOW_HAND, WAR, UNO_SPIN,
 TRADE_HANDS) = range(9)
# fmt: on
# fmt: off
(COLOR_DRAW_RED, COLOR_DRAW_YELLOW, COLOR_DRAW_GREEN, COLOR_DRAW_BLUE, WILD_COLOR_DRAW,
 COLOR_DISCARD, SWAP_HANDS, TWO_X) = range(9, 17)
# fmt: on

#: wheel families: which player spins
WHEEL_NONE, WHEEL_2005, WHEEL_2025 = 0, 1, 2
