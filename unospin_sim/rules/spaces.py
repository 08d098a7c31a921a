"""Wheel spaces: one global id per space behaviour, for both UNO Spin wheels.

Which spaces an edition's wheel has, and their weights, is rule *data*
(``editions.toml``); the ids here only name the behaviours the engine
implements.  Ids 0-8 are the 2005 wheel, 9-16 the 2025 wheel; ids from ``N_PUBLISHED`` on
(at most ``MAX_VARIANT_SPACES``) are a variant file's own spaces, named by the rule set
(``RuleSet.space_id``).
"""

# the ids the engine compiles in (behaviour ids, module constants: compile-time constants in
# numba): space_codes.py, re-exported here
from .space_codes import (
    ALMOST_UNO,
    COLOR_DISCARD,
    COLOR_DRAW_BLUE,
    COLOR_DRAW_GREEN,
    COLOR_DRAW_RED,
    COLOR_DRAW_YELLOW,
    DISCARD_COLOR,
    DISCARD_NUMBER,
    DRAW_BLUE,
    DRAW_RED,
    MAX_VARIANT_SPACES,
    N_PUBLISHED,
    N_SPACES,
    SHOW_HAND,
    SWAP_HANDS,
    TRADE_HANDS,
    TWO_X,
    UNO_SPIN,
    WAR,
    WHEEL_2005,
    WHEEL_2025,
    WHEEL_NONE,
    WILD_COLOR_DRAW,
)

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
SPACE_ID = {name: i for i, name in enumerate(SPACE_NAMES)}
if len(SPACE_NAMES) != N_PUBLISHED:
    raise ImportError(f"{len(SPACE_NAMES)} space names for {N_PUBLISHED} published space ids")
