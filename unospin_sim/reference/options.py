"""The reference engine's options as values: :class:`Options` (the rule options of one
round) and :class:`MatchOptions` (the match mode of :func:`~unospin_sim.reference.play_match`).

Both only hold what was given, at its defaults otherwise: the checks need the edition and
the player count, so :class:`~unospin_sim.reference.state.RoundState` and ``play_match`` make
them (the same ``ValueError`` for a bad value as ever; a misspelt option name is a
``TypeError`` of the constructor).
"""

from __future__ import annotations

from dataclasses import dataclass

#: a match still running after this many rounds ends unfinished (winner -1)
MAX_MATCH_ROUNDS = 10000


@dataclass(frozen=True)
class Options:
    """The rule options of one round (docs/RULINGS.md, docs/HOUSE_RULES.md).

    Edition options: ``wild_matches_colour`` and ``wild_stops_colour_draw`` (None: the
    edition's rule; the latter only for editions with a wheel), ``wild_spin_cards``
    (spin2025, 0-4), ``wheel`` (a map of space names to weights; unlisted spaces weigh 0;
    None: equal weights), ``spin_cards`` (Spin editions, 0-9: the numbers 1..k carry the
    Spin mark on one copy each) and ``turn_cap`` (the round ends unfinished after so many
    turns).

    The deck's numbers: ``draw_two_draws`` (1-10: cards a Draw Two makes draw, also as the
    first card; stacking adds them), ``wd4_draws`` (1-20: cards a Wild Draw Four makes
    draw; a caught bluff makes its player draw as many, a failed challenge adds 2) and
    ``uno_penalty`` (0-10: cards drawn per caught UNO forgetting), ``hand_size`` (1-20: cards
    dealt to each player; refused when too few cards would be left to turn a first card),
    ``skip_cards``, ``reverse_cards``, ``draw_two_cards`` (0-4: copies per colour),
    ``wild_cards`` and ``wd4_cards`` (0-8: copies in the deck), ``points`` (a map of card
    kinds, ``"skip"`` .. ``"wild_shuffle_hands"``, to their scores 0-1000; unlisted kinds
    keep the published score, number and Spin cards their number; the strategies that
    weigh a card's points read these).

    House rules (docs/HOUSE_RULES.md, all off by default, combinable): ``stacking``,
    ``draw_until_playable``, ``seven_o`` (bools) and ``special_wilds`` (``"none"``,
    ``"swap_hands"`` or ``"shuffle_hands"``; classic only), ``jump_in`` and ``partners``
    (bools; partners: 4, 6, 8 or 10 players), ``stacked_wd4`` (``"checked"``: a stacked Wild
    Draw Four follows the Wild Draw Four rule and may be challenged, the default;
    ``"free"``: always legal; stacking only), ``force_play`` (bool: a seat whose strategy
    would draw while it holds a playable card plays the playable card first in
    :func:`~unospin_sim.reference.cards.card_order` instead; only ``hoarder`` ever draws
    so), ``jump_in_wilds`` (bool, with ``jump_in``: a wild that does not spin the wheel may
    be jumped on with the identical wild, a Wild Draw Four only when legal for the jumper,
    who names a colour anew).
    """

    wild_matches_colour: bool | None = None
    wild_stops_colour_draw: bool | None = None
    wild_spin_cards: int = 4
    wheel: dict | None = None
    turn_cap: int = 10000
    stacking: bool = False
    draw_until_playable: bool = False
    seven_o: bool = False
    special_wilds: str = "none"
    jump_in: bool = False
    partners: bool = False
    stacked_wd4: str = "checked"
    force_play: bool = False
    jump_in_wilds: bool = False
    spin_cards: int = 5
    draw_two_draws: int = 2
    wd4_draws: int = 4
    uno_penalty: int = 2
    hand_size: int = 7
    skip_cards: int = 2
    reverse_cards: int = 2
    draw_two_cards: int = 2
    wild_cards: int = 4
    wd4_cards: int = 4
    points: dict | None = None


@dataclass(frozen=True)
class MatchOptions:
    """A match's mode (docs/HOUSE_RULES.md "Match mode"): ``match`` (``"race"`` or
    ``"lowest"``), ``target`` (the score that ends it) and ``max_rounds`` (a match still
    running after so many rounds ends with winner -1)."""

    match: str = "race"
    target: int = 500
    max_rounds: int = MAX_MATCH_ROUNDS
