"""Does the seat you sit in matter? Seat win rates and the first player's advantage.

Two figures answer "does the first player win more?", and every output names them so:

- **seat order**: the round win rate of each seat, seat 0 sitting left of the dealer (the
  seat that would act first) and the dealer last (:func:`seat_win_rates`); in a match run
  the round table's columns are PLAYERS (the i-th bot; the deal passes one seat each round),
  so there the rows are players, never seats;
- **the player who acts first**: the round win rate of whoever takes the first turn after
  the first card's effect (the round table's ``first_player``; :data:`ACTS_FIRST`). It
  differs from seat 0 where the first card moves the first turn: a Skip (seat 1 acts
  first), a Reverse (the dealer acts first), a Draw Two (seat 0 draws and is passed over).

:func:`first_player_table` shows both; :func:`first_player_edge` is the one definition of
the first player's figure that ``run``, ``summary``, ``compare``, the report, the designer
and the notebooks use (from a round table through :func:`first_player_counts`, from a run's
summary counts through :meth:`~unospin_sim.analysis.summary.SummaryAccumulator`).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from .stats import Z95, players_of, wilson_interval

__all__ = [
    "ACTS_FIRST",
    "SEAT_ORDER",
    "acts_first_won",
    "first_player_advantage",
    "first_player_counts",
    "first_player_edge",
    "first_player_note",
    "first_player_table",
    "seat_win_rates",
]

#: what "the player who acts first" means, in every output that shows it
ACTS_FIRST = (
    "whoever takes the first turn after the first card's effect (seat 0, left of the "
    "dealer, unless the first card is a Skip, Reverse or Draw Two)"
)
#: what the seat numbers mean
SEAT_ORDER = "seat order: seat 0 sits left of the dealer, the dealer last"
#: in a match run the round table's seat columns are players
PLAYER_ORDER = "players: the i-th bot; the deal passes one seat each round"


def _is_match_table(rounds: pd.DataFrame) -> bool:
    """Whether a round table is a match run's (its seat columns are players)."""
    return "match" in rounds.columns and "round" in rounds.columns


def acts_first_won(rounds: pd.DataFrame) -> np.ndarray:
    """Per round, whether the player who acts first (``first_player``) won it."""
    return (rounds["winner"].to_numpy() == rounds["first_player"].to_numpy()) & (
        rounds["winner"].to_numpy() >= 0
    )


def first_player_counts(rounds: pd.DataFrame) -> tuple[int, int, int]:
    """``(rounds, won, moved)`` of a round table: its rounds, those won by the player who
    acts first, and those whose first card moved the first turn away from seat 0 (in a match
    run: away from the player dealt seat 0, player ``round mod players``)."""
    first = rounds["first_player"].to_numpy().astype(np.int64)
    if _is_match_table(rounds):
        seat0 = rounds["round"].to_numpy().astype(np.int64) % players_of(rounds)
    else:
        seat0 = np.zeros_like(first)
    return len(rounds), int(acts_first_won(rounds).sum()), int(np.count_nonzero(first != seat0))


def first_player_edge(
    n: int, won: int, players: int, moved: int | None = None, z: float = Z95
) -> dict:
    """The first player's figure from counts: of ``n`` rounds, ``won`` won by the player
    who acts first (:data:`ACTS_FIRST`), ``moved`` of them with another seat than seat 0
    acting first.

    Returns
    -------
    dict
        ``rate`` (won / n), ``low``, ``high`` (Wilson interval at ``z``), ``fair``
        (1/players), ``advantage`` (rate - fair) and ``moved`` (the share of rounds whose
        first card moved the first turn; NaN when not counted).

    Examples
    --------
    >>> e = first_player_edge(8, 4, 4, moved=2)
    >>> e["rate"], e["advantage"], e["moved"]
    (0.5, 0.25, 0.25)
    """
    low, high = wilson_interval(won, n, z)
    rate = won / n if n else math.nan
    fair = 1.0 / players
    share = moved / n if moved is not None and n else math.nan
    return {
        "rate": rate,
        "low": float(low),
        "high": float(high),
        "fair": fair,
        "advantage": rate - fair,
        "moved": share,
    }


def seat_win_rates(rounds: pd.DataFrame) -> pd.DataFrame:
    """Win rate of every seat with a 95% Wilson interval.

    Returns
    -------
    pandas.DataFrame
        Indexed by ``seat`` (:data:`SEAT_ORDER`), or by ``player`` for a match run's round
        table (:data:`PLAYER_ORDER`): ``wins``, ``rate``, ``low``, ``high``, ``fair``
        (1/players) and ``excess`` = rate - fair. Unfinished rounds count as won by nobody.
    """
    p = players_of(rounds)
    n = len(rounds)
    wins = rounds["winner"].value_counts().reindex(range(p), fill_value=0).to_numpy()
    low, high = wilson_interval(wins, np.full(p, n))
    rate = wins / n if n else np.full(p, np.nan)
    return pd.DataFrame(
        {
            "wins": wins,
            "rate": rate,
            "low": low,
            "high": high,
            "fair": 1.0 / p,
            "excess": rate - 1.0 / p,
        },
        index=pd.RangeIndex(p, name="player" if _is_match_table(rounds) else "seat"),
    )


def first_player_advantage(rounds: pd.DataFrame, z: float = Z95) -> dict:
    """How much more often the player who acts first (:data:`ACTS_FIRST`) wins a round
    than a fair share (1/players): :func:`first_player_edge` of the round table.

    Returns
    -------
    dict
        ``rate``, ``low``, ``high`` (Wilson), ``fair``, ``advantage`` = rate - fair and
        ``moved`` (the share of rounds another seat than seat 0 acted first).
    """
    n, won, moved = first_player_counts(rounds)
    return first_player_edge(n, won, players_of(rounds), moved, z)


def first_player_table(rounds: pd.DataFrame) -> pd.DataFrame:
    """Both figures of the first player, named: the player who acts first, then every seat
    in seat order (every player, in a match run).

    Returns
    -------
    pandas.DataFrame
        Indexed by ``who``: ``"acts first"``, then ``"seat 0"`` ... (``"player 0"`` ... in a
        match run); columns ``wins``, ``rate``, ``low``, ``high`` (Wilson 95%), ``fair`` and
        ``edge`` (rate - fair). ``attrs["moved"]``: the share of rounds in which the first
        card moved the first turn away from seat 0, where the two figures differ;
        ``attrs["note"]`` says so in a sentence.

    Examples
    --------
    >>> import pandas as pd
    >>> r = pd.DataFrame({"first_player": [0, 1, 0, 3], "winner": [0, 1, 2, 0],
    ...                   "cards_left_0": 0, "cards_left_1": 0, "cards_left_2": 0,
    ...                   "cards_left_3": 0})
    >>> t = first_player_table(r)
    >>> list(t.index), float(t.at["acts first", "rate"]), float(t.at["seat 0", "rate"])
    (['acts first', 'seat 0', 'seat 1', 'seat 2', 'seat 3'], 0.5, 0.5)
    >>> t.attrs["moved"]
    0.5
    """
    seats = seat_win_rates(rounds)
    n, won, moved = first_player_counts(rounds)
    e = first_player_edge(n, won, players_of(rounds), moved)
    who = seats.index.name
    rows = [("acts first", won, e["rate"], e["low"], e["high"], e["fair"], e["advantage"])]
    for i, r in seats.iterrows():
        rows.append((f"{who} {i}", r.wins, r.rate, r.low, r.high, r.fair, r.excess))
    t = pd.DataFrame(rows, columns=["who", "wins", "rate", "low", "high", "fair", "edge"])
    t = t.set_index("who")
    t["wins"] = t["wins"].astype(np.int64)
    t.attrs["moved"] = e["moved"]
    t.attrs["note"] = first_player_note(e["moved"], match=who == "player")
    return t


def first_player_note(moved: float, match: bool = False) -> str:
    """The sentence that tells the two figures apart: what each is and in what share of
    rounds (``moved``) the player who acts first was not the one in seat 0."""
    order = PLAYER_ORDER if match else SEAT_ORDER
    text = f"'acts first': {ACTS_FIRST}; {order}."
    whom = "the player dealt seat 0" if match else "seat 0"
    if math.isfinite(moved) and moved > 0:
        text += (
            f" In {moved:.1%} of these rounds the first card made another player than "
            f"{whom} act first, so the two figures differ."
        )
    elif math.isfinite(moved):
        text += f" In every one of these rounds {whom} acted first: the two figures agree."
    return text
