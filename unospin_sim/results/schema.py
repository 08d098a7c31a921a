"""The results format's schema: every column of the round, spin and match tables, where
each comes from in the kernel's output (``engine/layout.py``; in match mode the rows of
``engine/chunk.py: play_match_chunk``), and the names of a results directory's files.

Round columns (see docs/ARCHITECTURE.md): :data:`ROUND_BASE_COLUMNS`, then per seat ``i``
``cards_drawn_<i>``, ``cards_left_<i>``, ``points_left_<i>``, then ``spins_<space>`` for each
space of the edition's wheel, then the house rules' columns (``jump_ins``, the partners'
:data:`TEAM_COLUMNS`), then in match mode (rule option ``match`` = ``race`` or ``lowest``)
:data:`MATCH_ROUND_COLUMNS` and ``score_<i>`` per player (:func:`round_columns`); a run with
``check=True`` adds :data:`CHECK_COLUMN`.  Spin columns: :data:`SPIN_COLUMNS`.  Match columns
(match mode): :func:`MATCH_COLUMNS`.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np

__all__ = [
    "CHECK_COLUMN",
    "JUMP_COLUMN",
    "LABEL_KEY",
    "MATCH_COLUMNS",
    "MATCH_ROUND_COLUMNS",
    "MATCH_SCORE0",
    "MAX_LABEL",
    "MAX_MATCH_ROUNDS",
    "META_FILE",
    "OWN_FILE",
    "REPLAY_COLUMNS",
    "REPLAY_FIELDS",
    "REQUIRED_META",
    "RESULTS_FORMAT",
    "ROUND_BASE_COLUMNS",
    "SEAT_COLUMNS",
    "SPIN_COLUMNS",
    "SPIN_FIELDS",
    "TABLES",
    "TEAM_COLUMNS",
    "VARIANT_KEY",
    "check_label",
    "has_jump_ins",
    "is_match_mode",
    "is_partners",
    "match_fields",
    "match_round_game",
    "out_column",
    "out_width",
    "round_columns",
    "round_fields",
    "run_label",
]

# Where every column comes from: (name, source, dtype).  ``source`` names a constant of
# ``engine/layout.py`` (a column of the kernel's per-round output row, or a field of a spin
# record); ``None`` marks the two round columns the runner supplies (game number, game seed).
_ROUND_BASE_FIELDS = (
    ("game", None, np.int64),
    ("seed", None, np.int64),  # the game's SplitMix64 seed (its uint64 bits)
    ("first_player", "O_FIRST", np.int8),
    ("winner", "O_WINNER", np.int8),
    ("turns", "O_TURNS", np.int32),
    ("winner_points", "O_WINNER_POINTS", np.int32),
    ("cards_drawn", "O_CARDS_DRAWN", np.int32),
    ("failed_draws", "O_FAILED", np.int32),
    ("spins", "O_SPINS", np.int32),
)
#: per-seat blocks of the output row, in the kernel's order: ``<prefix>_<seat>``, int32
SEAT_COLUMNS = ("cards_drawn", "cards_left", "points_left")
#: house rule jump_in: the round's jump-ins (not turns), then ``jump_ins_<i>`` per seat (the
#: kernel's fourth per-seat block; in match mode per player, as every per-seat column)
JUMP_COLUMN = "jump_ins"
_JUMP_FIELD = (JUMP_COLUMN, "O_JUMP_INS", np.int32)
_JUMP_BLOCK = len(SEAT_COLUMNS)  # its block in the kernel's output row
_SEAT_DTYPE = _SPACE_DTYPE = np.int32
#: the round column a run with ``check=True`` adds (invariant failures of the round)
CHECK_COLUMN = "invariant_failures"
_CHECK_FIELD = (CHECK_COLUMN, "O_VIOLATIONS", np.int32)
SPIN_FIELDS = (
    ("game", "P_GAME", np.int64),
    ("turn", "P_TURN", np.int32),
    ("spinner", "P_SPINNER", np.int8),
    ("space", "P_SPACE", None),  # categorical over the edition's wheel spaces
    ("hand_before", "P_HAND_BEFORE", np.int16),
    ("hand_after", "P_HAND_AFTER", np.int16),
    ("cards_drawn", "P_DRAWN", np.int16),
    ("cards_discarded", "P_DISCARDED", np.int16),
    # the space's other party: 2025 Swap Hands target, 2005 Trade Hands receiver, War winner,
    # UNO Spin race winner; -1 if none
    ("other", "P_OTHER", np.int8),
    ("direction", "P_DIR", np.int8),  # direction of play at the spin: +1 clockwise
    ("leader", "P_LEADER", np.int8),  # the seat with strictly the fewest cards, -1: a tie
)
# Match mode.  ``play_match_chunk`` returns round rows that are the per-round output row
# followed by match, round and each player's running score: source ``("match", k)`` is column
# ``layout.n_out_columns(players) + k`` of such a row.  The round table gains these columns
# (after the per-space ones), then ``score_<i>`` per player (source ``("match", 2 + i)``).
_MATCH_ROUND_FIELDS = (
    ("match", ("match", 0), np.int64),
    ("round", ("match", 1), np.int32),  # the round's number within its match, from 0
)
_SCORE_DTYPE = np.int32
# House rule partners: two round columns computed from the output row (winner, points_left_<i>)
# after the per-space ones: the winner's team (seat mod players/2; -1 unfinished) and the
# points of the opponents' cards the team scores (0 unfinished).
_TEAM_FIELDS = (("team_winner", ("team", 0), np.int8), ("team_points", ("team", 1), np.int32))
# The match table: (name, column of play_match_chunk's match rows, dtype); the rows are
# (match, rounds, turns, winner, score_0 .. score_<N-1>); ``score_<i>`` (column 4 + i, int32)
# go between turns and winner.
_MATCH_FIELDS_HEAD = (("match", 0, np.int64), ("rounds", 1, np.int32), ("turns", 2, np.int64))
_MATCH_FIELDS_TAIL = (
    ("winner", 3, np.int8),  # the player who won the match; -1: unfinished
)
MATCH_SCORE0 = 4

#: house rule partners: round columns after the per-space ones
TEAM_COLUMNS = tuple(name for name, _, _ in _TEAM_FIELDS)
#: per-round columns every rule set has
ROUND_BASE_COLUMNS = tuple(name for name, _, _ in _ROUND_BASE_FIELDS)
#: per-spin columns
SPIN_COLUMNS = tuple(name for name, _, _ in SPIN_FIELDS)
#: match mode: round columns after the per-space ones (then ``score_<i>`` per player)
MATCH_ROUND_COLUMNS = tuple(name for name, _, _ in _MATCH_ROUND_FIELDS)
# The replay table (``runner.replay_spins``): one row per (spin, space) replayed. The first
# four columns the runner supplies (the pair's index, its game and spin, the space replayed:
# categorical over "none" and the spaces asked for); the others are ``layout.Q_*`` fields of
# the kernel's replay records.
REPLAY_FIELDS = (
    ("pair", None, np.int64),
    ("game", None, np.int64),
    ("spin", None, np.int32),  # the spin's number within its game, from 0
    ("space", None, None),
    ("winner", "Q_WINNER", np.int16),
    ("winner_points", "Q_WINNER_POINTS", np.int32),
    ("turns", "Q_TURNS", np.int32),
    ("spin_turn", "Q_SPIN_TURN", np.int32),
    ("spinner", "Q_SPINNER", np.int16),
    ("direction", "Q_DIR", np.int8),
    ("other", "Q_OTHER", np.int16),
    ("hand_before", "Q_HAND_BEFORE", np.int16),
    ("hand_after", "Q_HAND_AFTER", np.int16),
)
#: the replay table's columns
REPLAY_COLUMNS = tuple(name for name, _, _ in REPLAY_FIELDS)
#: keys meta.json must have
REQUIRED_META = ("rules", "games")
#: version of the results format (this directory layout and meta.json), stored in meta.json
#: and run.json: the one version a results directory carries. 2: meta.json lost the
#: ``schema_version`` key and run.json its ``run_format`` (the tables are those of 1).
#: 3: a run of a variant file (``--variant``) counts its own spaces by name
#: (``spins_<space>`` columns, the spin table's ``space`` categories) and keeps the file
#: under :data:`VARIANT_KEY`; a published rule set's tables are those of 2
RESULTS_FORMAT = 3
#: the formats this version reads and resumes
READABLE_FORMATS = (1, 2, 3)
#: meta.json's and run.json's key for the variant file a run played (format 3):
#: ``{"key": ..., "path": ..., "content_hash": ..., "text": ...}``
VARIANT_KEY = "variant"

#: meta.json's optional key for a run's name (``run --label``). A run without it (every run
#: written before labels existed) is named by its rule string; readers of format 2 ignore
#: keys they do not know, so the key needs no new format version.
LABEL_KEY = "label"
#: the longest label: it names the run in table rows and chart legends
MAX_LABEL = 80

TABLES = ("rounds", "spins", "matches")
META_FILE = "meta.json"
OWN_FILE = re.compile(r"(part-\d{5,}\.parquet|\.part-\d{5,}\.parquet\.tmp)")


# ------------------------------------------------------------------------------------------
# columns


def is_match_mode(rules) -> bool:
    """Whether ``rules`` play whole matches (:attr:`RuleSet.plays_matches`): then the round
    table has the match columns and the run a match table."""
    return bool(getattr(rules, "plays_matches", False))  # (test stand-ins may lack it)


def is_partners(rules) -> bool:
    """Whether ``rules`` play the house rule ``partners`` (:attr:`RuleSet.partners`): then the
    round table has :data:`TEAM_COLUMNS`."""
    return bool(getattr(rules, "partners", False))


def has_jump_ins(rules) -> bool:
    """Whether ``rules`` play the house rule ``jump_in`` (then the round table has
    :data:`JUMP_COLUMN` and ``jump_ins_<i>`` per seat)."""
    option = getattr(rules, "option", None)
    return option is not None and bool(option("jump_in", False))


#: in match mode the round table's ``game`` of round ``j`` of match ``m`` is
#: ``m * MAX_MATCH_ROUNDS + j`` (known where the chunk is played, so chunks of matches are
#: written in any order and resumed like chunks of rounds); a match still running after
#: this many rounds ends with winner -1.
MAX_MATCH_ROUNDS = 10_000


def match_round_game(match, rnd):
    """The ``game`` number of round ``rnd`` of match ``match`` (match mode)."""
    return np.asarray(match, np.int64) * MAX_MATCH_ROUNDS + np.asarray(rnd, np.int64)


def round_fields(rules, check: bool = False) -> list[tuple[str, Any, Any]]:
    """``(name, source, dtype)`` of every round column of ``rules``, in table order.

    ``source`` says where the column is in the kernel's per-round output row
    (``engine/layout.py``): the name of an ``O_*`` constant, ``("seat", j, i)`` for seat
    ``i`` of the ``j``-th per-seat block (blocks in :data:`SEAT_COLUMNS` order),
    ``("space", name, id)`` for the column of that space's kernel id (``RuleSet.space_id``), or in
    match mode ``("match", k)`` for column ``k`` after the per-round row in the round rows of
    ``play_match_chunk`` (match, round, then each player's running score); ``None`` for the
    game number and seed, which the runner supplies.  Resolved by :func:`out_column` (only
    :func:`rounds_frame` needs the engine's layout).
    """
    fields: list[tuple[str, Any, Any]] = list(_ROUND_BASE_FIELDS)
    for j, prefix in enumerate(SEAT_COLUMNS):
        fields += [(f"{prefix}_{i}", ("seat", j, i), _SEAT_DTYPE) for i in range(rules.players)]
    fields += [
        (f"spins_{s}", ("space", s, rules.space_id(s)), _SPACE_DTYPE) for s in rules.wheel_spaces()
    ]
    if has_jump_ins(rules):
        fields.append(_JUMP_FIELD)
        fields += [
            (f"{JUMP_COLUMN}_{i}", ("seat", _JUMP_BLOCK, i), _SEAT_DTYPE)
            for i in range(rules.players)
        ]
    if is_partners(rules):
        fields += _TEAM_FIELDS
    if is_match_mode(rules):
        fields += _MATCH_ROUND_FIELDS
        fields += [
            (f"score_{i}", ("match", len(_MATCH_ROUND_FIELDS) + i), _SCORE_DTYPE)
            for i in range(rules.players)
        ]
    if check:
        fields.append(_CHECK_FIELD)
    return fields


def out_column(source, players: int) -> int:
    """Index in the kernel's per-round output row of a :func:`round_fields` source."""
    from ..engine import layout as L

    if isinstance(source, str):
        return getattr(L, source)
    if source[0] == "seat":
        return L.N_OUT_FIXED + source[1] * players + source[2]
    if source[0] == "match":
        return L.n_out_columns(players) + source[1]
    return L.N_OUT_FIXED + L.N_SEAT_BLOCKS * players + source[2]


def out_width(rules) -> int:
    """Columns of the kernel's round rows for ``rules`` (wider in match mode)."""
    from ..engine import layout as L

    extra = len(_MATCH_ROUND_FIELDS) + rules.players if is_match_mode(rules) else 0
    return L.n_out_columns(rules.players) + extra


def match_fields(players: int) -> list[tuple[str, int, Any]]:
    """``(name, column of play_match_chunk's match rows, dtype)`` of the match table."""
    return [
        *_MATCH_FIELDS_HEAD,
        *((f"score_{i}", MATCH_SCORE0 + i, _SCORE_DTYPE) for i in range(players)),
        *_MATCH_FIELDS_TAIL,
    ]


def MATCH_COLUMNS(players: int) -> list[str]:
    """Columns of the match table (match mode): match, rounds, turns, score_<i>, winner."""
    return [name for name, _, _ in match_fields(players)]


def round_columns(rules, check: bool = False) -> list[str]:
    """Names of the columns a round table must have for ``rules``.

    Parameters
    ----------
    rules : RuleSet
    check : bool
        Include :data:`CHECK_COLUMN`, which runs with ``check=True`` add.

    Returns
    -------
    list of str
        :data:`ROUND_BASE_COLUMNS`, the per-seat columns, then ``spins_<space>`` per space
        of the edition's wheel (in wheel order); in match mode then
        :data:`MATCH_ROUND_COLUMNS` and ``score_<i>`` per player; :data:`CHECK_COLUMN` last.
    """
    return [name for name, _, _ in round_fields(rules, check)]


# ------------------------------------------------------------------------------------------
# labels


def check_label(text) -> str:
    """A run's label (``run --label``) checked: one line of printable text, at most
    :data:`MAX_LABEL` characters, stripped; a :class:`ValueError` of one line if not."""
    if not isinstance(text, str):
        raise ValueError(f"a label must be text, got {text!r:.60}")
    label = text.strip()
    if not label:
        raise ValueError("a label needs some text, got an empty string")
    if not label.isprintable():
        raise ValueError(f"a label is one line of printable text, got {label!r:.60}")
    if len(label) > MAX_LABEL:
        raise ValueError(f"a label has at most {MAX_LABEL} characters, got {len(label)}")
    return label


def run_label(meta, default: str | None = None) -> str:
    """The name a run goes by in tables, charts and verdicts: its label (``run --label``,
    meta.json's :data:`LABEL_KEY`) when it has a valid one, else ``default``, else its
    canonical rule string (``"?"`` when ``meta`` has none)."""
    label = meta.get(LABEL_KEY) if isinstance(meta, dict) else None
    try:
        return check_label(label)
    except ValueError:
        pass
    if default is not None:
        return default
    rules = meta.get("rules") if isinstance(meta, dict) else None
    return rules if isinstance(rules, str) else "?"
