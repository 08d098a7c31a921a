"""The end-of-run summary: games, speed, unfinished rounds, seat win rates, mean turns.

:func:`summarize` returns a tidy table (one row per statistic, with a 95% interval where
one applies) and :func:`format_summary` renders it for the terminal;
:mod:`.summary_text` holds what ``run`` prints when it finishes and what ``summary DIR``
prints.
"""

from __future__ import annotations

import math
from typing import ClassVar

import numpy as np
import pandas as pd

from .seats import PLAYER_ORDER, SEAT_ORDER, first_player_counts, first_player_edge
from .stats import Z95, mean_interval, players_of, wilson_interval

__all__ = [
    "Z95",
    "SummaryAccumulator",
    "format_match_summary",
    "format_summary",
    "mean_interval",
    "summarize",
    "wilson_interval",
]


class SummaryAccumulator:
    """Counts and sums of a run's rounds, enough for :func:`summarize` and the rotated
    player win rates, accumulated chunk by chunk (memory does not grow with the run).

    Integer sums are exact (Python ints), so adding chunks in any order, or merging the
    accumulators of separate processes, gives the same numbers.

    Parameters
    ----------
    players : int
        Seats of the rule set.
    """

    # the order is the stored form's key order (to_dict), "players" first (from_dict)
    __slots__ = (  # noqa: RUF023
        "players",
        "games",
        "unfinished",
        "wins",
        "player_wins",
        "turns_sum",
        "turns_sumsq",
        "jumps_sum",
        "jumps_sumsq",
        "first_wins",
        "first_moved",
    )
    #: keys a stored accumulator may lack (written before they existed, or not counted):
    #: their default
    _OPTIONAL: ClassVar[dict[str, None]] = {
        "jumps_sum": None,
        "jumps_sumsq": None,
        "first_wins": None,
        "first_moved": None,
    }
    #: optional counts kept together: both None or both ints
    _PAIRS = (("jumps_sum", "jumps_sumsq"), ("first_wins", "first_moved"))

    def __init__(self, players: int) -> None:
        self.players = int(players)
        self.games = 0
        self.unfinished = 0
        self.wins = [0] * self.players  # per seat
        self.player_wins = [0] * self.players  # per player of a rotated run: (seat + game) % N
        self.turns_sum = 0
        self.turns_sumsq = 0
        # house rule jump_in: jump-ins summed over the rounds (None: not counted)
        self.jumps_sum: int | None = None
        self.jumps_sumsq: int | None = None
        # rounds won by the player who acts first, and rounds whose first card moved the
        # first turn away from seat 0 (analysis.seats; None: not counted)
        self.first_wins: int | None = None
        self.first_moved: int | None = None

    @classmethod
    def of_rounds(
        cls, players: int, game, winner, turns, jumps=None, first=None
    ) -> SummaryAccumulator:
        """The accumulator of one block of rounds (``game``, ``winner``, ``turns`` arrays;
        ``jumps``: the rounds' jump-ins under the house rule jump_in; ``first``: the SEAT
        that acted first, as ``winner`` a seat)."""
        acc = cls(players)
        winner = np.asarray(winner).astype(np.int64)
        turns = np.asarray(turns).astype(np.int64)
        won = winner >= 0
        acc.games = int(winner.size)
        acc.unfinished = int(winner.size - np.count_nonzero(won))
        w = winner[won]
        acc.wins = [int(v) for v in np.bincount(w, minlength=players)[:players]]
        pl = (w + np.asarray(game).astype(np.int64)[won]) % players
        acc.player_wins = [int(v) for v in np.bincount(pl, minlength=players)[:players]]
        acc.turns_sum = int(turns.sum())
        acc.turns_sumsq = int(np.dot(turns, turns))  # turns <= 1e6: < 2**63 for any chunk
        if jumps is not None:
            jumps = np.asarray(jumps).astype(np.int64)
            acc.jumps_sum = int(jumps.sum())
            acc.jumps_sumsq = int(np.dot(jumps, jumps))
        if first is not None:
            first = np.asarray(first).astype(np.int64)
            acc.first_wins = int(np.count_nonzero(won & (winner == first)))
            acc.first_moved = int(np.count_nonzero(first != 0))
        return acc

    def merge(self, other: SummaryAccumulator) -> SummaryAccumulator:
        """Add ``other``'s counts to this one (in place); returns ``self``."""
        if other.players != self.players:
            raise ValueError("accumulators of different player counts")
        for a, b in self._PAIRS:
            if (getattr(self, a) is None) != (getattr(other, a) is None):
                if getattr(self, a) is None and self.games == 0:
                    setattr(self, a, 0)
                    setattr(self, b, 0)
                elif other.games == 0:
                    pass
                elif a == "first_wins":  # chunks of an older version resumed: not counted
                    self.first_wins = self.first_moved = None
                else:
                    raise ValueError(f"accumulators with and without {a} counts")
        self.games += other.games
        self.unfinished += other.unfinished
        self.wins = [a + b for a, b in zip(self.wins, other.wins)]
        self.player_wins = [a + b for a, b in zip(self.player_wins, other.player_wins)]
        self.turns_sum += other.turns_sum
        self.turns_sumsq += other.turns_sumsq
        if self.jumps_sum is not None and other.jumps_sum is not None:
            # the sum and the sum of squares are counted together: both None or both ints
            assert self.jumps_sumsq is not None and other.jumps_sumsq is not None
            self.jumps_sum += other.jumps_sum
            self.jumps_sumsq += other.jumps_sumsq
        if self.first_wins is not None and other.first_wins is not None:
            assert self.first_moved is not None and other.first_moved is not None
            self.first_wins += other.first_wins
            self.first_moved += other.first_moved
        return self

    def to_dict(self) -> dict:
        """JSON-able form (stored in the manifest and meta.json; the jump-in sums only when
        counted)."""
        return {
            k: getattr(self, k)
            for k in self.__slots__
            if not (k in self._OPTIONAL and getattr(self, k) is None)
        }

    @classmethod
    def from_dict(cls, d: dict) -> SummaryAccumulator:
        acc = cls(d["players"])
        for k in cls.__slots__[1:]:
            setattr(acc, k, d[k] if k in d or k not in cls._OPTIONAL else cls._OPTIONAL[k])
        if len(acc.wins) != acc.players or len(acc.player_wins) != acc.players:
            raise ValueError("accumulator with the wrong number of seats")
        return acc

    def mean_turns(self) -> tuple[float, float, float]:
        """Mean turns with the same 95% interval as :func:`mean_interval`."""
        return _mean_of_sums(self.games, self.turns_sum, self.turns_sumsq)

    def mean_jump_ins(self) -> tuple[float, float, float]:
        """Mean jump-ins per round with its 95% interval (house rule jump_in; NaN when the
        jump-ins were not counted)."""
        if self.jumps_sum is None:
            return math.nan, math.nan, math.nan
        assert self.jumps_sumsq is not None  # counted with jumps_sum
        return _mean_of_sums(self.games, self.jumps_sum, self.jumps_sumsq)

    def summarize(
        self, seconds: float | None = None, who: str = "seat", teams: int | None = None
    ) -> pd.DataFrame:
        """The :func:`summarize` table of the accumulated rounds; ``who="player"``: win rates
        per player (a rotated run, or matches with the deal passing) instead of per seat;
        ``teams``: add the team win rates (house rule partners)."""
        n, nan, players = self.games, math.nan, self.players
        rows = [("games", float(n), nan, nan)]
        if seconds is not None:
            rows.append(("seconds", float(seconds), nan, nan))
            rows.append(("games_per_second", n / seconds if seconds > 0 else nan, nan, nan))
        rows.append(("unfinished", float(self.unfinished), nan, nan))
        wins = np.asarray(self.player_wins if who == "player" else self.wins, dtype=np.int64)
        low, high = wilson_interval(wins, n)
        for seat in range(players):
            rate = wins[seat] / n if n else nan
            rows.append((f"win_rate_{seat}", rate, float(low[seat]), float(high[seat])))
        rows += _team_rows(wins, n, teams)
        if self.first_wins is not None:
            rows += _first_rows(n, self.first_wins, players, self.first_moved)
        rows.append(("mean_turns", *self.mean_turns()))
        if self.jumps_sum is not None:
            rows.append(("mean_jump_ins", *self.mean_jump_ins()))
        return pd.DataFrame(rows, columns=["statistic", "value", "ci_low", "ci_high"])

    def player_win_rates(self) -> pd.DataFrame:
        """Like :func:`~unospin_sim.analysis.player_win_rates` with ``rotated=True``."""
        n, p = self.games, self.players
        wins = np.asarray(self.player_wins, dtype=np.int64)
        low, high = wilson_interval(wins, np.full(p, n))
        return pd.DataFrame(
            {"wins": wins, "rate": wins / n, "low": low, "high": high},
            index=pd.RangeIndex(p, name="player"),
        )


def _mean_of_sums(n: int, s: int, q: int) -> tuple[float, float, float]:
    """Mean of n integers from their sum s and sum of squares q, with the 95% normal interval
    of :func:`mean_interval` (exact integers, one rounding)."""
    if n == 0:
        return math.nan, math.nan, math.nan
    mean = s / n
    if n == 1:
        return mean, math.nan, math.nan
    var = (n * q - s * s) / (n * (n - 1))
    half = Z95 * math.sqrt(max(var, 0.0)) / math.sqrt(n)
    return mean, mean - half, mean + half


def _first_rows(n: int, won: int, players: int, moved: int | None) -> list[tuple]:
    """The rows of the player who acts first (:func:`~unospin_sim.analysis.seats.
    first_player_edge`): ``first_player_win_rate`` with its Wilson interval and
    ``first_player_moved``, the share of rounds another seat than seat 0 acted first."""
    e = first_player_edge(n, won, players, moved)
    nan = math.nan
    return [
        ("first_player_win_rate", e["rate"], e["low"], e["high"]),
        ("first_player_moved", e["moved"], nan, nan),
    ]


def _team_rows(wins: np.ndarray, n: int, teams: int | None) -> list[tuple]:
    """``team_win_rate_<t>`` rows (house rule partners: seat i plays for team i mod teams,
    partners sit opposite) from the per-seat wins of ``n`` rounds, Wilson 95% intervals."""
    if not teams:
        return []
    team_wins = np.array([wins[t::teams].sum() for t in range(teams)], dtype=np.int64)
    low, high = wilson_interval(team_wins, n)
    return [
        (f"team_win_rate_{t}", team_wins[t] / n if n else math.nan, float(low[t]), float(high[t]))
        for t in range(teams)
    ]


def summarize(
    rounds: pd.DataFrame,
    players: int | None = None,
    seconds: float | None = None,
    teams: int | None = None,
) -> pd.DataFrame:
    """Summary statistics of a round table.

    Parameters
    ----------
    rounds : pandas.DataFrame
        The round table (needs ``winner`` and ``turns``).
    players : int, optional
        Number of seats; inferred from the ``cards_left_<i>`` columns when omitted.
    seconds : float, optional
        Wall time of the run; adds ``seconds`` and ``games_per_second`` rows.
    teams : int, optional
        House rule partners: the number of teams (players / 2); adds ``team_win_rate_<t>``
        per team (seats t, t + teams, ...; Wilson 95% interval).

    Returns
    -------
    pandas.DataFrame
        Columns ``statistic``, ``value``, ``ci_low``, ``ci_high`` (NaN where no interval
        applies).  Rows: ``games``, [``seconds``, ``games_per_second``,] ``unfinished``,
        ``win_rate_<i>`` per seat (wins / all games, Wilson 95% interval) and
        ``mean_turns`` (95% normal interval); with ``teams``, ``team_win_rate_<t>`` before
        ``mean_turns``; when the table has ``first_player``, ``first_player_win_rate`` (the
        player who acts first, :func:`~unospin_sim.analysis.seats.first_player_edge`) and
        ``first_player_moved`` (the share of rounds another seat than seat 0 acted first)
        before ``mean_turns``; when the table has a ``jump_ins`` column (house rule jump_in),
        ``mean_jump_ins`` last (jump-ins per round, 95% normal interval).

    Examples
    --------
    >>> import pandas as pd
    >>> rounds = pd.DataFrame({"winner": [0, 2, 1, 0], "turns": [30, 41, 25, 38]})
    >>> t = summarize(rounds, players=4, teams=2).set_index("statistic")
    >>> float(t.at["team_win_rate_0", "value"])  # seats 0 and 2 won 3 of the 4 rounds
    0.75
    """
    if players is None:
        players = players_of(rounds)
    n = len(rounds)
    nan = math.nan
    rows = [("games", float(n), nan, nan)]
    if seconds is not None:
        rows.append(("seconds", float(seconds), nan, nan))
        rows.append(("games_per_second", n / seconds if seconds > 0 else nan, nan, nan))
    winner = rounds["winner"].to_numpy()
    rows.append(("unfinished", float(np.count_nonzero(winner < 0)), nan, nan))
    wins = np.bincount(winner[winner >= 0].astype(np.int64), minlength=players)[:players]
    low, high = wilson_interval(wins, n)
    for seat in range(players):
        rate = wins[seat] / n if n else nan
        rows.append((f"win_rate_{seat}", rate, float(low[seat]), float(high[seat])))
    rows += _team_rows(wins, n, teams)
    if "first_player" in rounds.columns:
        n_, won, moved = first_player_counts(rounds)
        rows += _first_rows(n_, won, players, moved)
    rows.append(("mean_turns", *mean_interval(rounds["turns"].to_numpy())))
    if "jump_ins" in rounds.columns:
        rows.append(("mean_jump_ins", *mean_interval(rounds["jump_ins"].to_numpy())))
    return pd.DataFrame(rows, columns=["statistic", "value", "ci_low", "ci_high"])


def format_summary(summary: pd.DataFrame, who: str = "seat") -> str:
    """Render a :func:`summarize` table as a few aligned lines of text.

    Parameters
    ----------
    summary : pandas.DataFrame
        The output of :func:`summarize`.
    who : str
        Heading of the win-rate rows: ``"seat"``, or ``"player"`` for a match-mode round
        table (whose seat columns are players).

    Returns
    -------
    str
        Multi-line text without a trailing newline.
    """
    s = summary.set_index("statistic")
    games = int(s.at["games", "value"])
    head = f"rounds      {games:,}"  # the statistic "games" counts rounds (one hand each)
    if "seconds" in s.index:
        gps = s.at["games_per_second", "value"]
        speed = f"{gps:,.0f} rounds/s" if math.isfinite(gps) else "- rounds/s"
        head += f" in {s.at['seconds', 'value']:.2f} s ({speed})"
    unfinished = int(s.at["unfinished", "value"])
    share = f" ({unfinished / games:.2%})" if games else ""
    order = PLAYER_ORDER if who == "player" else SEAT_ORDER
    lines = [
        head,
        f"unfinished  {unfinished:,}{share}",
        f"{who:>4}  win rate  95% interval  ({order})",
    ]
    for name in s.index:
        if name.startswith("win_rate_"):
            v, lo, hi = s.loc[name, ["value", "ci_low", "ci_high"]]
            lines.append(f"{name[9:]:>4}  {v:8.4f}  [{lo:.4f}, {hi:.4f}]")
    lines += _first_lines(s, who)
    team_rows = [name for name in s.index if name.startswith("team_win_rate_")]
    if team_rows:
        lines.append("team  win rate  95% interval  (partners: team t = seats t, t + teams)")
        for name in team_rows:
            v, lo, hi = s.loc[name, ["value", "ci_low", "ci_high"]]
            lines.append(f"{name[14:]:>4}  {v:8.4f}  [{lo:.4f}, {hi:.4f}]")
    v, lo, hi = s.loc["mean_turns", ["value", "ci_low", "ci_high"]]
    lines.append(f"mean turns  {v:.3f}  95% interval [{lo:.3f}, {hi:.3f}]")
    if "mean_jump_ins" in s.index:  # jump-ins are not turns
        v, lo, hi = s.loc["mean_jump_ins", ["value", "ci_low", "ci_high"]]
        lines.append(
            f"jump-ins    {v:.3f}  per round, 95% interval [{lo:.3f}, {hi:.3f}] (not turns)"
        )
    return "\n".join(lines)


def _first_lines(s: pd.DataFrame, who: str) -> list[str]:
    """The summary's lines on the player who acts first (absent: not counted)."""
    if "first_player_win_rate" not in s.index:
        return []
    v, lo, hi = s.loc["first_player_win_rate", ["value", "ci_low", "ci_high"]]
    fair = 1.0 / sum(1 for name in s.index if name.startswith("win_rate_"))
    moved = s.at["first_player_moved", "value"] if "first_player_moved" in s.index else math.nan
    whom = "the player dealt seat 0" if who == "player" else "seat 0"
    if not math.isfinite(moved):
        where = ""
    elif moved == 0:
        where = f": {whom} in every round here"
    else:
        where = f": not {whom} in {moved:.2%} of rounds (a first Skip, Reverse or Draw Two)"
    return [
        f"acts first  {v:.4f}  [{lo:.4f}, {hi:.4f}]  {100 * (v - fair):+.2f} pp against a "
        f"fair share of {fair:.4f}",
        f"  (who takes the first turn after the first card's effect{where})",
    ]


def format_match_summary(
    matches: pd.DataFrame, players: int, seconds: float | None = None, teams: int | None = None
) -> str:
    """A few lines on a match table (match mode): matches, speed, rounds per match and
    each player's match win rate with a 95% Wilson interval (players are the bots in order;
    winner -1: a match still running after the runner's round limit). With ``teams``
    (house rule partners) the rates are per team: a match's ``winner`` is then the team
    number t (players t and t + teams)."""
    n = len(matches)
    head = f"matches     {n:,}"
    if seconds is not None and seconds > 0:
        head += f" ({n / seconds:,.1f} matches/s)"
    lines = [head]
    if n == 0:
        return "\n".join(lines)
    m, lo, hi = mean_interval(matches["rounds"].to_numpy())
    lines.append(f"rounds per match  {m:.3f}  95% interval [{lo:.3f}, {hi:.3f}]")
    w = matches["winner"].to_numpy().astype(np.int64)
    unfinished = int(np.count_nonzero(w < 0))
    if unfinished:
        lines.append(f"matches without a winner  {unfinished:,}")
    k = teams or players
    wins = np.bincount(w[w >= 0], minlength=k)[:k]
    low, high = wilson_interval(wins, n)
    lines.append(f"{'team' if teams else 'player':>6}  match win rate  95% interval")
    for i in range(k):
        lines.append(f"{i:>6}  {wins[i] / n:14.4f}  [{low[i]:.4f}, {high[i]:.4f}]")
    return "\n".join(lines)
