"""The end-of-run summary: games, speed, unfinished rounds, seat win rates, mean turns.

:func:`summarize` returns a tidy table (one row per statistic, with a 95% interval where
one applies) and :func:`format_summary` renders it for the terminal;
:func:`run_summary_text` is what ``run`` prints when it finishes and
:func:`results_summary_text` what ``summary DIR`` prints.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import ClassVar

import numpy as np
import pandas as pd

from .stats import Z95, mean_interval, players_of, wilson_interval

__all__ = [
    "Z95",
    "SummaryAccumulator",
    "format_match_summary",
    "format_summary",
    "mean_interval",
    "results_summary_text",
    "run_summary_text",
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
    )
    #: keys a stored accumulator may lack (written before they existed): their default
    _OPTIONAL: ClassVar[dict[str, None]] = {"jumps_sum": None, "jumps_sumsq": None}

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

    @classmethod
    def of_rounds(cls, players: int, game, winner, turns, jumps=None) -> SummaryAccumulator:
        """The accumulator of one block of rounds (``game``, ``winner``, ``turns`` arrays;
        ``jumps``: the rounds' jump-ins under the house rule jump_in)."""
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
        return acc

    def merge(self, other: SummaryAccumulator) -> SummaryAccumulator:
        """Add ``other``'s counts to this one (in place); returns ``self``."""
        if other.players != self.players:
            raise ValueError("accumulators of different player counts")
        if (self.jumps_sum is None) != (other.jumps_sum is None):
            if self.jumps_sum is None and self.games == 0:
                self.jumps_sum = self.jumps_sumsq = 0
            elif other.games != 0:
                raise ValueError("accumulators with and without jump-in counts")
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
        ``mean_turns``; when the table has a ``jump_ins`` column (house rule jump_in),
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
    lines = [head, f"unfinished  {unfinished:,}{share}", f"{who:>4}  win rate  95% interval"]
    for name in s.index:
        if name.startswith("win_rate_"):
            v, lo, hi = s.loc[name, ["value", "ci_low", "ci_high"]]
            lines.append(f"{name[9:]:>4}  {v:8.4f}  [{lo:.4f}, {hi:.4f}]")
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


def run_summary_text(results) -> str:
    """What ``run`` prints when a run (or a resumed run) finishes: the summary of its rounds
    (seats, or players when bots rotate or matches are played), the match summary in match
    mode, what a resume played, the players' win rates under rotation and where the results
    are. ``results``: the :class:`~unospin_sim.results.Results` of ``simulate``/``resume``."""
    from ..results import load_matches
    from ..rules import parse_rules

    meta = results.meta
    rules = parse_rules(meta["rules"])
    bots = meta["bots"]
    # the games alone, as `summary` reports them; after a resume only this session's speed
    seconds = None if meta["resumed"] else meta["wall_seconds"]
    match_mode = "matches" in meta
    who = "player" if match_mode else "seat"
    lines = [
        format_summary(
            results.summary.summarize(seconds=seconds, who=who, teams=rules.teams), who=who
        )
    ]
    if match_mode:
        lines.append(
            format_match_summary(
                load_matches(meta["results_dir"]), rules.players, seconds, teams=rules.teams
            )
        )
    if meta["resumed"]:
        unit, total = ("matches", "matches") if match_mode else ("rounds", "games")
        played = meta["matches_played" if match_mode else "games_played"]
        lines.append(
            f"resumed: played {played:,} of the {meta[total]:,} {unit} in "
            f"{meta['wall_seconds']:.2f} s"
        )
    if meta["rotate_bots"]:
        t = results.summary.player_win_rates()
        lines.append(
            "player  bot  win rate  95% interval  (bots rotated: averaged over every seat)"
        )
        for i, row in t.iterrows():
            lines.append(f"{i:>6}  {bots[i]}  {row.rate:.4f}  [{row.low:.4f}, {row.high:.4f}]")
    lines.append(f"results in {meta['results_dir']}")
    return "\n".join(lines)


def results_summary_text(results_dir, seconds_per_turn: float | None = None) -> str:
    """What ``summary DIR`` prints: the run's rules, bots and seed, then the summary ``run``
    printed (from the round table, or from the counts of a summary-only run), the match
    summary in match mode and, from a round table, the table-side units of length (rounds
    past 100 and 150 turns, minutes at ``seconds_per_turn``, default
    :data:`~unospin_sim.analysis.verdict.SECONDS_PER_TURN`, an assumption). Every problem with the directory is one
    :class:`~unospin_sim.errors.ResultsError` line."""
    from ..errors import ResultsError
    from ..results import load_results, read_summary_only
    from ..rules import parse_rules

    meta = read_summary_only(results_dir)
    res = None
    if meta is None:
        res = load_results(results_dir)
        meta = res.meta
    rules = parse_rules(meta["rules"])  # checked to parse by either reader
    seconds = meta.get("wall_seconds")
    if (
        isinstance(seconds, bool)
        or not isinstance(seconds, (int, float))
        or not math.isfinite(seconds)
        or seconds < 0
    ):
        seconds = None  # absent or garbled: the summary just leaves out the speed
    bots = meta.get("bots")
    bots = ",".join(map(str, bots)) if isinstance(bots, list) else "?"
    lines = [f"rules {rules}  bots {bots}  seed {meta.get('seed', '?')}  results {results_dir}"]
    if res is None:
        try:
            acc = SummaryAccumulator.from_dict(meta["summary"])
        except (KeyError, TypeError, ValueError) as e:
            raise ResultsError(
                f"{Path(results_dir) / 'meta.json'}: a summary-only run "
                f"without valid summary counts: {e}"
            ) from None
        who = "player" if rules.plays_matches else "seat"  # as `run` printed it
        lines.append(
            format_summary(acc.summarize(seconds=seconds, who=who, teams=rules.teams), who=who)
        )
        if rules.plays_matches:  # the match table is written even then
            from ..results import load_matches

            lines.append(
                format_match_summary(
                    load_matches(results_dir), rules.players, seconds, teams=rules.teams
                )
            )
        lines.append("(a summary-only run: no round table was written)")
        return "\n".join(lines)
    matches = res.matches  # None unless the run played matches
    lines.append(
        format_summary(
            summarize(res.rounds, players=rules.players, seconds=seconds, teams=rules.teams),
            who="seat" if matches is None else "player",
        )
    )
    if matches is not None:
        lines.append(format_match_summary(matches, rules.players, seconds, teams=rules.teams))
    from .verdict import SECONDS_PER_TURN, length_lines

    lines += length_lines(
        res.rounds["turns"],
        None if matches is None else matches.loc[matches["winner"] >= 0, "turns"],
        SECONDS_PER_TURN if seconds_per_turn is None else seconds_per_turn,
    )
    return "\n".join(lines)
