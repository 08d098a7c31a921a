"""Independent plain-Python reference engine (slow, simple) for statistical cross-checks.

This package implements docs/RULINGS.md for the editions ``classic``, ``spin2005``,
``spin2025`` and ``spiderman`` with the bot strategies ``random``, ``heuristic``,
``hoarder``, ``tuned`` and ``spin_aware`` (a bot dict's ``strategy``, per seat;
docs/BOTS.md, written again here from that text) plus their knobs (forget, catch, bluff,
challenge, reflex, jump), and the house rules ``stacking``, ``draw_until_playable``,
``seven_o``, ``special_wilds``, ``jump_in``, ``partners`` and ``force_play`` as
docs/HOUSE_RULES.md settles them. Where those texts are silent it follows
docs/INTERPRETATIONS.md, as the numba engine does.

It deliberately imports nothing from ``unospin_sim.engine`` or ``unospin_sim.rules``: the
decks, points and wheels are written out again from the rulings text, so that a mistake in
the rule data or in the numba kernel shows up as a statistical disagreement. Readability
wins over speed: cards are small named tuples, hands and piles are plain lists, and every
round has its own ``random.Random``. Bit-identical streams with the numba engine are NOT a
goal; the *distribution* of outcomes is.

The modules, each using only those before it:

- :mod:`.cards`: card kinds, editions, decks, points, what may be played;
- :mod:`.options`: :class:`Options` (a round's rule options) and :class:`MatchOptions` (a
  match's mode), plain values checked where they are used;
- :mod:`.state`: :class:`RoundState`, the round's state and plain actions (draws, UNO
  checks, the result), the seats' knobs;
- :mod:`.choices`: the bots' decisions (mixin :class:`Choices`);
- :mod:`.flow`, :mod:`.house`, :mod:`.wheel`: the turn flow, the house rules, the wheels
  (mixins), put together with the state by :mod:`.round` (:class:`Round`,
  :func:`play_round`);
- :mod:`.match`: many rounds and matches;
- :mod:`.steps`: wheel spaces written as programs (docs/WHEEL_PROGRAMS.md): the
  interpreter of their steps, :class:`ProgramRound` and :func:`play_program_round`.

Public API
----------
``Options(**rule_options)``
    the rule options of a round (edition options, turn cap, house rules), one field each
    at its default; every function below takes one as ``options`` (None: the defaults).
``play_round(edition, players, seed, options=None, bots=None, trace=None) -> dict``
    one round; see its docstring for the result keys.
``play_many(edition, players, games, seed, options=None, bots=None) -> pandas.DataFrame``
    one row per round (same columns as the engine's ``Results.rounds``).
``play_many_spins(edition, players, games, seed, options=None, bots=None) -> (rounds, spins)``
    the same rounds plus a second DataFrame with one row per wheel spin.
``play_program_round(edition, players, seed, programs, wheel=None, options=None, bots=None,
trace=None) -> dict``
    one round as ``play_round``'s whose wheel spaces named in ``programs`` (``{space:
    [step dict, ...]}``) run their program; ``wheel`` (``{space: weight}``) a variant's
    wheel.
``round_seed(seed, game) -> int``
    the seed ``play_many`` hands to ``play_round`` for game ``game`` (a SHA-256 of
    both, so rounds are independent of each other and of how many are played).
``play_match(edition, players, seed, match=None, options=None, bots=None) -> dict``
    one match (``race``, ``lowest``, partners races: docs/HOUSE_RULES.md "Match mode"),
    written again from that text: the deal passes one seat a round, the scoring, the end.
    ``match`` is a ``MatchOptions(match="race", target=500, max_rounds=10000)``.
``play_many_matches(edition, players, matches, seed, match, options, bots, match0=0)``
    a pandas.DataFrame (``match``, ``options``, ``bots`` default None), one row per match
    (the engine's ``Results.matches`` columns); match m plays ``match_seed(seed, m)``.
    ``tests/crosscheck_matches.py`` compares them with the engine's.

Tests drive :class:`Round` directly on hand-built states (``tests/test_reference.py``,
``tests/test_reference_house_rules.py``).
"""

from __future__ import annotations

from .cards import (
    BLUE,
    COLOURS,
    DRAW_TWO,
    EDITIONS,
    GREEN,
    NUMBER,
    RED,
    REVERSE,
    SHUFFLE_WILD,
    SKIP,
    SPECIAL_WILDS,
    SPIN,
    SWAP_WILD,
    WEB_SWING,
    WHEELS,
    WILD,
    WILD_DRAW_FOUR,
    WILD_ORDER,
    WILD_SPIN,
    YELLOW,
    Card,
    build_deck,
    card_name,
    card_order,
    card_points,
    hand_points,
    is_number_card,
    matches,
    wd4_legal,
)
from .choices import HOARD_UNTIL, Choices
from .match import (
    MATCH_MODES,
    match_seed,
    play_many,
    play_many_matches,
    play_many_spins,
    play_match,
    round_seed,
)
from .options import MAX_MATCH_ROUNDS, MatchOptions, Options
from .round import Round, play_round
from .state import BOT_DEFAULTS, STRATEGIES, TUNED_DEFAULTS, RoundOver, RoundState
from .steps import ProgramRound, play_program_round

__all__ = [
    "BLUE",
    "BOT_DEFAULTS",
    "COLOURS",
    "DRAW_TWO",
    "EDITIONS",
    "GREEN",
    "HOARD_UNTIL",
    "MATCH_MODES",
    "MAX_MATCH_ROUNDS",
    "NUMBER",
    "RED",
    "REVERSE",
    "SHUFFLE_WILD",
    "SKIP",
    "SPECIAL_WILDS",
    "SPIN",
    "STRATEGIES",
    "SWAP_WILD",
    "TUNED_DEFAULTS",
    "WEB_SWING",
    "WHEELS",
    "WILD",
    "WILD_DRAW_FOUR",
    "WILD_ORDER",
    "WILD_SPIN",
    "YELLOW",
    "Card",
    "Choices",
    "MatchOptions",
    "Options",
    "ProgramRound",
    "Round",
    "RoundOver",
    "RoundState",
    "build_deck",
    "card_name",
    "card_order",
    "card_points",
    "hand_points",
    "is_number_card",
    "match_seed",
    "matches",
    "play_many",
    "play_many_matches",
    "play_many_spins",
    "play_match",
    "play_program_round",
    "play_round",
    "round_seed",
    "wd4_legal",
]
