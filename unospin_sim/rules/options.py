"""The one table of rule options (OpenSpiel's game-parameter specs are the model).

Every rule option is one :class:`Option` row of :data:`OPTIONS`: its name, type, domain,
default per edition, the editions it applies to, whether it is a house rule, one doc line and
the kernel rule parameter it fills. Everything else is derived from this table:

- rule-set validation and canonical strings (``values.py``, ``ruleset.py``: canonical order = table order,
  so new options go at the END, which keeps every existing rule string unchanged),
- each edition's option defaults (``Edition.defaults``; the wheel's default weights are rule
  DATA and stay in ``editions.toml``),
- the kernel encoding (``engine/encode.py`` fills ``layout.<param>`` from each row) and the
  house-rule switch ``R_HOUSE`` (1 when any row with ``house=True`` is off its default),
- the CLI's ``--option`` help and the README's options table (:func:`options_markdown`,
  checked by ``tests/test_rules.py``).

Adding an option: one row here (``param`` names a new ``R_*`` index in ``engine/layout.py``
when the kernel must see it), its semantics in the engine, docs, tests.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

__all__ = [
    "ALL_EDITIONS",
    "MAX_POINTS",
    "MAX_TARGET",
    "MAX_TURN_CAP",
    "OPTIONS",
    "OPTION_BY_NAME",
    "Option",
    "option_help",
    "options_markdown",
]

ALL_EDITIONS = ("classic", "spin2005", "spin2025", "spiderman")
SPIN_EDITIONS = ("spin2005", "spin2025")

#: largest turn cap: the kernel keeps room for ``turn_cap + 1`` spin records per thread
#: (64 bytes each), so an unbounded cap would ask for petabytes before the first game
MAX_TURN_CAP = 1_000_000
#: largest match target
MAX_TARGET = 1_000_000
#: largest score of a card kind (option ``points``)
MAX_POINTS = 1000


@dataclass(frozen=True)
class Option:
    """One rule option.

    Attributes
    ----------
    name : str
        Its name in rule strings, ``--option`` and the API.
    type : str
        ``"int"``, ``"bool"``, ``"enum"``, ``"wheel"`` or ``"points"``.
    domain : tuple
        ``(low, high)`` for ``int`` and for each score of ``points``; the names for ``enum``
        (the first is the "off" value); ``()`` otherwise.
    default : object or mapping
        The default value, or ``{edition: value}`` when it differs by edition (``None`` for
        ``wheel`` and ``points``: their defaults are rule data in editions.toml).
    editions : tuple of str
        Editions the option applies to.
    house : bool
        A house rule (docs/HOUSE_RULES.md): off by default, never with ``rlcard=true``, and
        any value off its default makes the kernel run the house-rule code (``R_HOUSE``).
    doc : str
        One line for help texts and the README.
    param : str or None
        Name of the ``engine/layout.py`` rule-parameter index the encoder fills with the
        value (bool as 0/1, enum as its index in ``domain``), or None when the kernel needs
        no parameter (the deck or wheel carries it).
    default_doc : str
        The README's default column when the default is not one value.
    """

    name: str
    type: str
    domain: tuple
    default: Any
    editions: tuple[str, ...]
    house: bool
    doc: str
    param: str | None
    default_doc: str = ""

    def default_for(self, edition: str) -> Any:
        """Default value of the option in ``edition``."""
        if isinstance(self.default, Mapping):
            return self.default[edition]
        return self.default

    def encode(self, value: Any) -> int:
        """The value as a kernel rule parameter (int64)."""
        if self.type == "enum":
            return self.domain.index(value)
        return int(value)


def _o(*fields) -> Option:
    """An :class:`Option` from its fields in order, ``domain`` and ``editions`` as tuples."""
    name, type_, domain, default, editions, *rest = fields
    return Option(name, type_, tuple(domain), default, tuple(editions), *rest)


#: every implemented rule option, in canonical-string order
OPTIONS: tuple[Option, ...] = (
    _o("players", "int", (2, 10), 4, ALL_EDITIONS, False, "number of players", "R_NP"),
    _o(
        "turn_cap",
        "int",
        (1, MAX_TURN_CAP),
        10000,
        ALL_EDITIONS,
        False,
        "turns after which a round is recorded unfinished",
        "R_TURN_CAP",
    ),
    _o(
        "wild_matches_colour",
        "bool",
        (),
        MappingProxyType({"classic": False, "spin2005": True, "spin2025": True, "spiderman": True}),
        ALL_EDITIONS,
        False,
        "holding a wild other than Wild Draw Four forbids Wild Draw Four",
        "R_WILD_MATCHES",
        "false classic, true otherwise",
    ),
    _o(
        "wild_stops_colour_draw",
        "bool",
        (),
        MappingProxyType({"spin2005": True, "spin2025": False}),
        SPIN_EDITIONS,
        False,
        "a wild drawn stops a wheel colour draw",
        "R_WILD_STOPS",
        "true 2005, false 2025",
    ),
    _o(
        "wild_spin_cards",
        "int",
        (0, 4),
        4,
        ("spin2025",),
        False,
        "number of Wild Spin cards in the deck",
        None,
    ),
    _o(
        "wheel",
        "wheel",
        (),
        None,
        SPIN_EDITIONS,
        False,
        "wheel space weights {space:weight,...}; unlisted spaces weigh 0",
        None,
        "every space weight 1",
    ),
    _o(
        "rlcard",
        "bool",
        (),
        False,
        ("classic",),
        False,
        "RLCard 1.2.0's UNO rules: drawn card auto-played, no UNO calls",
        "R_RLCARD",
    ),
    _o(
        "stacking",
        "bool",
        (),
        False,
        ALL_EDITIONS,
        True,
        "Draw Two on Draw Two, Wild Draw Four on Wild Draw Four add up; who cannot stack "
        "draws all and is skipped",
        "R_STACKING",
    ),
    _o(
        "draw_until_playable",
        "bool",
        (),
        False,
        ALL_EDITIONS,
        True,
        "a player who draws keeps drawing until a playable card",
        "R_DRAW_UNTIL",
    ),
    _o(
        "seven_o",
        "bool",
        (),
        False,
        ALL_EDITIONS,
        True,
        "a 7 swaps hands with a chosen player, a 0 passes every hand on",
        "R_SEVEN_O",
    ),
    _o(
        "special_wilds",
        "enum",
        ("none", "swap_hands", "shuffle_hands"),
        "none",
        ("classic",),
        True,
        "one Wild Swap Hands or Wild Shuffle Hands (40 points) added to the deck",
        None,
    ),
    _o(
        "force_play",
        "bool",
        (),
        False,
        ALL_EDITIONS,
        True,
        "a player who can play must play (no drawing instead)",
        "R_FORCE_PLAY",
    ),
    _o(
        "match",
        "enum",
        ("single", "race", "lowest"),
        "single",
        ALL_EDITIONS,
        False,
        "single round; race: first to target points wins; lowest: lowest total when someone "
        "passes target",
        "R_MATCH",
    ),
    _o(
        "target",
        "int",
        (1, MAX_TARGET),
        500,
        ALL_EDITIONS,
        False,
        "points that end a match (match=race or lowest only)",
        "R_TARGET",
    ),
    _o(
        "jump_in",
        "bool",
        (),
        False,
        ALL_EDITIONS,
        True,
        "a player holding the card identical to the one just played may play it out of "
        "turn; play continues from that player",
        "R_JUMP_IN",
    ),
    _o(
        "partners",
        "bool",
        (),
        False,
        ALL_EDITIONS,
        True,
        "teams of two sitting opposite (4, 6, 8 or 10 players); the team of the player who "
        "goes out scores the opponents' cards",
        "R_PARTNERS",
    ),
    _o(
        "stacked_wd4",
        "enum",
        ("checked", "free"),
        "checked",
        ALL_EDITIONS,
        True,
        "with stacking: checked = a stacked Wild Draw Four follows the Wild Draw Four rule "
        "(legal only without a card of the colour in play) and may be challenged; free = "
        "always legal, never successfully challenged",
        "R_STACKED_WD4",
    ),
    _o(
        "jump_in_wilds",
        "bool",
        (),
        False,
        ALL_EDITIONS,
        True,
        "with jump_in: a wild may be jumped on with the identical wild (never a card that "
        "spins the wheel); the jumper names a colour anew",
        "R_JUMP_WILDS",
    ),
    _o(
        "spin_cards",
        "int",
        (0, 9),
        5,
        SPIN_EDITIONS,
        False,
        "the numbers 1..k of each colour carry the Spin mark on one copy (the others are "
        "plain numbers; deck size unchanged; 6-9 mark one of that number's two copies)",
        None,
    ),
    _o(
        "draw_two_draws",
        "int",
        (1, 10),
        2,
        ALL_EDITIONS,
        False,
        "cards a Draw Two makes the next player draw (also as the first card; stacking adds them)",
        "R_DRAW_TWO_N",
    ),
    _o(
        "wd4_draws",
        "int",
        (1, 20),
        4,
        ALL_EDITIONS,
        False,
        "cards a Wild Draw Four makes the next player draw (stacking adds them); a caught "
        "bluff makes its player draw this many, a failed challenge this many plus 2",
        "R_WD4_N",
    ),
    _o(
        "uno_penalty",
        "int",
        (0, 10),
        2,
        ALL_EDITIONS,
        False,
        "cards drawn by a player caught not calling UNO",
        "R_UNO_PENALTY",
    ),
    _o(
        "hand_size",
        "int",
        (1, 20),
        7,
        ALL_EDITIONS,
        False,
        "cards dealt to each player (refused when the deck cannot deal them and turn a first card)",
        "R_HAND_SIZE",
    ),
    _o("skip_cards", "int", (0, 4), 2, ALL_EDITIONS, False, "copies of Skip in each colour", None),
    _o(
        "reverse_cards",
        "int",
        (0, 4),
        2,
        ALL_EDITIONS,
        False,
        "copies of Reverse in each colour",
        None,
    ),
    _o(
        "draw_two_cards",
        "int",
        (0, 4),
        2,
        ALL_EDITIONS,
        False,
        "copies of Draw Two in each colour",
        None,
    ),
    _o("wild_cards", "int", (0, 8), 4, ALL_EDITIONS, False, "copies of Wild in the deck", None),
    _o(
        "wd4_cards",
        "int",
        (0, 8),
        4,
        ALL_EDITIONS,
        False,
        "copies of Wild Draw Four in the deck",
        None,
    ),
    _o(
        "points",
        "points",
        (0, MAX_POINTS),
        None,
        ALL_EDITIONS,
        False,
        "the score of each action and wild kind the edition's deck may hold, e.g. "
        "{skip:30,wild:40} (unlisted kinds keep theirs); number and Spin cards score their face",
        None,
        "20 each action, 50 each wild, 40 each special wild",
    ),
)

#: name -> Option
OPTION_BY_NAME: Mapping[str, Option] = MappingProxyType({o.name: o for o in OPTIONS})


def _values_text(o: Option) -> str:
    if o.type == "int":
        lo, hi = o.domain
        return f"{lo}-{hi:,}" if hi >= 10000 else f"{lo}-{hi}"
    if o.type == "bool":
        return "`true`/`false`"
    if o.type == "enum":
        return ", ".join(f"`{v}`" for v in o.domain)
    if o.type == "points":
        return f"`{{kind:points,...}}`, {o.domain[0]}-{o.domain[1]} each"
    return "`{space:weight,...}`"


def _default_text(o: Option) -> str:
    if o.default_doc:
        return o.default_doc
    d = o.default
    if isinstance(d, bool):
        return "true" if d else "false"
    if isinstance(d, str):
        return f"`{d}`"
    return str(d)


def _editions_text(o: Option) -> str:
    if o.editions == ALL_EDITIONS:
        return "all"
    if o.editions == SPIN_EDITIONS:
        return "spin editions"
    return ", ".join(f"`{e}`" for e in o.editions)


def options_markdown() -> str:
    """The README's options table (Markdown), generated from :data:`OPTIONS`."""
    lines = [
        "| option | values | default | editions | house rule | meaning |",
        "|---|---|---|---|---|---|",
    ]
    for o in OPTIONS:
        lines.append(
            f"| `{o.name}` | {_values_text(o)} | {_default_text(o)} | "
            f"{_editions_text(o)} | {'yes' if o.house else ''} | {o.doc} |"
        )
    return "\n".join(lines)


def option_help() -> str:
    """One line per option for the CLI's help."""
    out = []
    for o in OPTIONS:
        vals = _values_text(o).replace("`", "")
        house = "house rule: " if o.house else ""
        out.append(f"  {o.name}={vals} ({_editions_text(o).replace('`', '')}): {house}{o.doc}")
    return "\n".join(out)
