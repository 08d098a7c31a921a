"""Rule data and rule sets: card kinds, wheel spaces, editions and :class:`RuleSet`."""

from .editions import SPACES, Space, wheel_help
from .ruleset import (
    EDITIONS,
    FIRST_CARD_RULES,
    HOUSE_RULES,
    NOT_IMPLEMENTED,
    OPTION_DOCS,
    OPTION_ORDER,
    Edition,
    RuleSet,
    parse_rules,
    parse_wheel,
)

__all__ = [
    "EDITIONS",
    "FIRST_CARD_RULES",
    "HOUSE_RULES",
    "NOT_IMPLEMENTED",
    "OPTION_DOCS",
    "OPTION_ORDER",
    "SPACES",
    "Edition",
    "RuleSet",
    "Space",
    "parse_rules",
    "parse_wheel",
    "wheel_help",
]
