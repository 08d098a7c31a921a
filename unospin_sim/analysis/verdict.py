"""My rules against the published ones: a verdict per headline measure of every run against a
base run (what ``python -m unospin_sim compare`` prints).

Each measure is a mean of per-round (or per-match) values, so a change and its 95% interval
come from those values: PAIRED (the mean of the per-round differences) when the two runs
played the same deals -- the same players, the same deck and, round for round, the same game
seeds (the round table's ``seed`` column: game g of a run with seed S deals from a stream
derived from (S, g) only, whatever the bots or the wheel) -- and INDEPENDENT (the two means'
standard errors added in quadrature) otherwise. Each row says which.

Also the table-side units of round and match length: the share of rounds longer than 100 and
150 turns and minutes at a stated seconds-per-turn (:data:`SECONDS_PER_TURN`, an assumption).
"""

from __future__ import annotations

import math
import textwrap
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..errors import UserError
from .seats import acts_first_won
from .stats import Z95, format_interval, players_of

__all__ = [
    "SECONDS_PER_TURN",
    "RunData",
    "compare_runs",
    "format_comparison",
    "length_lines",
    "pairing",
    "run_legend",
    "verdict_paragraph",
    "verdict_rows",
]

#: seconds a turn takes at the table: an ASSUMPTION (no timed games measured), stated with
#: every figure in minutes; ``--seconds-per-turn`` changes it
SECONDS_PER_TURN = 10.0

#: measure: (name as printed, scale to print it with, unit after the number)
MEASURES: dict[str, tuple[str, float, str]] = {
    "mean_turns": ("round length (mean turns)", 1.0, " turns"),
    "round_minutes": ("round length in minutes", 1.0, " min"),
    "over_100": ("rounds past 100 turns", 100.0, " %"),
    "over_150": ("rounds past 150 turns", 100.0, " %"),
    "first_player_edge": ("first-player edge", 100.0, " pp"),
    "winner_points": ("winner's points", 1.0, " points"),
    "rounds_per_match": ("rounds per match", 1.0, " rounds"),
    "match_minutes": ("match length in minutes", 1.0, " min"),
    "comeback_rate": ("comeback rate", 100.0, " %"),
}

EDGE_DEFINITION = (
    "first-player edge = the round win rate of the player who acts first "
    "(after the first card's effect; the round table's first_player, as run, summary and "
    "the report show it) minus a fair share 1/players"
)


@dataclass(frozen=True)
class RunData:
    """One run to compare: its round table, its ``meta`` (``rules``, ``seed``) and, in match
    mode, its match table."""

    label: str
    rounds: pd.DataFrame
    meta: dict
    matches: pd.DataFrame | None = None


def _round_values(rounds: pd.DataFrame, seconds_per_turn: float) -> pd.DataFrame:
    """Per-round values of the round measures, indexed by ``game`` (NaN: not defined)."""
    p = players_of(rounds)
    turns = rounds["turns"].to_numpy(np.float64)
    won = rounds["winner"].to_numpy() >= 0
    out = pd.DataFrame(
        {
            "mean_turns": turns,
            "round_minutes": turns * seconds_per_turn / 60.0,
            "over_100": (turns > 100).astype(np.float64),
            "over_150": (turns > 150).astype(np.float64),
            "first_player_edge": acts_first_won(rounds).astype(np.float64) - 1.0 / p,
            "winner_points": np.where(won, rounds["winner_points"].to_numpy(np.float64), np.nan),
        },
        index=pd.Index(rounds["game"].to_numpy(np.int64), name="game"),
    )
    return out


def _match_values(run: RunData, seconds_per_turn: float) -> pd.DataFrame | None:
    """Per-match values (rounds, minutes, comeback under a race) of a match-mode run, indexed
    by ``match``; finished matches only; None for runs of single rounds."""
    m = run.matches
    if m is None:
        return None
    m = m[m["winner"].to_numpy() >= 0]
    out = pd.DataFrame(
        {
            "rounds_per_match": m["rounds"].to_numpy(np.float64),
            "match_minutes": m["turns"].to_numpy(np.float64) * seconds_per_turn / 60.0,
        },
        index=pd.Index(m["match"].to_numpy(np.int64), name="match"),
    )
    from ..rules import parse_rules

    if parse_rules(run.meta["rules"]).option("match") == "race" and len(m):
        from .race import played_match_rounds

        mr = played_match_rounds(run.rounds, m)
        p = sum(1 for c in mr.columns if c.startswith("score_"))
        sc = mr[[f"score_{i}" for i in range(p)]].to_numpy()
        champ = mr["match_winner"].to_numpy()
        deficit = sc.max(axis=1) - sc[np.arange(len(sc)), champ]
        behind = pd.Series(deficit >= 100).groupby(mr["match"].to_numpy()).any()
        out["comeback_rate"] = behind.reindex(out.index).astype(float)
    return out


def _same_deals(a: RunData, b: RunData, level: str) -> bool:
    """The two runs dealt the same rounds (``level="rounds"``: same players and deck, the
    same games with the same game seeds) or played the same matches (``"matches"``: same
    players and deck, the same seed and number of matches: match m deals from (seed, m))."""
    from ..rules import parse_rules

    ra, rb = parse_rules(a.meta["rules"]), parse_rules(b.meta["rules"])
    if ra.players != rb.players or not np.array_equal(ra.deck_counts(), rb.deck_counts()):
        return False
    if level == "matches":
        if a.matches is None or b.matches is None:
            return False
        return a.meta.get("seed") == b.meta.get("seed") and len(a.matches) == len(b.matches)
    if "seed" not in a.rounds or "seed" not in b.rounds or len(a.rounds) != len(b.rounds):
        return False
    ka = a.rounds[["game", "seed"]].sort_values("game").to_numpy()
    kb = b.rounds[["game", "seed"]].sort_values("game").to_numpy()
    return bool(np.array_equal(ka, kb))


def pairing(a: RunData, b: RunData, level: str = "rounds") -> str:
    """``"paired"`` when ``a`` and ``b`` dealt the same rounds (``level="rounds"``) or played
    the same matches (``"matches"``), see the module; else ``"independent"``. Matches of
    different lengths share only some rounds, so their round measures are independent."""
    return "paired" if _same_deals(a, b, level) else "independent"


def _mean_se(x: np.ndarray) -> tuple[float, float]:
    x = x[~np.isnan(x)]
    if len(x) == 0:
        return math.nan, math.nan
    if len(x) == 1:
        return float(x[0]), math.nan
    return float(x.mean()), float(x.std(ddof=1) / math.sqrt(len(x)))


def _difference(vb: pd.Series, va: pd.Series, paired: bool) -> tuple[float, float, float]:
    """(mean of base, mean of the other, standard error of their difference)."""
    b, sb = _mean_se(vb.to_numpy(np.float64))
    a, sa = _mean_se(va.to_numpy(np.float64))
    if paired:
        d = (va - vb.reindex(va.index)).to_numpy(np.float64)
        _, se = _mean_se(d)
    else:
        se = float(np.hypot(sa, sb))
    return b, a, se


def _rows(base: RunData, other: RunData, seconds_per_turn: float) -> list[dict]:
    rows = []
    tables = [
        (
            "rounds",
            _round_values(base.rounds, seconds_per_turn),
            _round_values(other.rounds, seconds_per_turn),
        )
    ]
    mb, mo = _match_values(base, seconds_per_turn), _match_values(other, seconds_per_turn)
    if mb is not None and mo is not None:
        tables.append(("matches", mb, mo))
    for level, tb, to in tables:
        kind = pairing(base, other, level)
        paired = kind == "paired"
        for key in MEASURES:
            if key not in tb or key not in to:
                continue
            vb, va, se = _difference(tb[key], to[key], paired)
            d = va - vb
            lo, hi = d - Z95 * se, d + Z95 * se
            if not math.isfinite(se):
                verdict = "not enough data"
            elif lo > 0:
                verdict = "higher"
            elif hi < 0:
                verdict = "lower"
            else:
                verdict = "no change distinguishable"
            rows.append(
                {
                    "label": other.label,
                    "measure": key,
                    "base": vb,
                    "value": va,
                    "change": d,
                    "low": lo,
                    "high": hi,
                    "interval": kind,
                    "verdict": verdict,
                }
            )
    return rows


def compare_runs(runs: list[RunData], seconds_per_turn: float = SECONDS_PER_TURN) -> pd.DataFrame:
    """Every run after the first against the first (the base): per headline measure the two
    values, the change (other minus base) with its 95% interval, which kind of interval
    (``paired`` / ``independent``, see :func:`pairing`) and a ``verdict``: ``higher``,
    ``lower`` or ``no change distinguishable`` (the interval holds zero).

    Measures (:data:`MEASURES`): ``mean_turns``, ``round_minutes`` (at ``seconds_per_turn``,
    an assumption), ``over_100`` and ``over_150`` (share of rounds longer than 100 / 150
    turns), ``first_player_edge`` (:data:`EDGE_DEFINITION`), ``winner_points`` (rounds with
    a winner) and, when both runs played matches in the engine, ``rounds_per_match``,
    ``match_minutes`` and (races) ``comeback_rate`` (the match winner trailed the leader by
    >= 100 points after some round).

    Raises
    ------
    UserError
        Fewer than two runs, or runs of different player counts (the seat measures are
        not comparable).

    A label given twice gets `` #i`` (its position among the runs, the base being 1).

    Returns
    -------
    pandas.DataFrame
        Indexed by (``label``, ``measure``); columns ``base``, ``value``, ``change``,
        ``low``, ``high``, ``interval``, ``verdict``.
    """
    if len(runs) < 2:
        raise UserError("compare needs a base run and at least one other")
    if not seconds_per_turn > 0:
        raise UserError(f"seconds per turn must be > 0, got {seconds_per_turn}")
    p0 = players_of(runs[0].rounds)
    for r in runs[1:]:
        if players_of(r.rounds) != p0:
            raise UserError(
                f"runs of different player counts are not comparable: {runs[0].label} has "
                f"{p0} players, {r.label} {players_of(r.rounds)}"
            )
    seen: set[str] = {runs[0].label}
    rows = []
    for i, other in enumerate(runs[1:], start=2):
        if other.label in seen:  # the same label twice: told apart by its position
            other = RunData(f"{other.label} #{i}", other.rounds, other.meta, other.matches)
        seen.add(other.label)
        rows += _rows(runs[0], other, seconds_per_turn)
    return pd.DataFrame(rows).set_index(["label", "measure"])


def _fmt(key: str, v: float, lo: float | None = None, hi: float | None = None) -> str:
    """A value (or, with ``lo`` and ``hi``, a change: shares in percentage points) in its
    measure's unit, to 3 significant digits."""
    _, scale, unit = MEASURES[key]
    if lo is None or hi is None:
        return format_interval(v * scale, math.nan, math.nan, 3).split(" [")[0] + unit
    return format_interval(v * scale, lo * scale, hi * scale, 3) + unit.replace("%", "pp")


def verdict_paragraph(t: pd.DataFrame, base: str, label: str) -> str:
    """One run's verdict in words: ``t`` is its rows of :func:`compare_runs` (indexed by
    measure); what changed with its interval, what did not, and which intervals."""
    kinds = sorted(set(t["interval"]))
    changed = [
        f"{MEASURES[k][0]} {r.verdict}, {_fmt(k, r.change, r.low, r.high)}"
        for k, r in t.iterrows()
        if r.verdict in ("higher", "lower")
    ]
    same = [MEASURES[k][0] for k, r in t.iterrows() if r.verdict == "no change distinguishable"]
    text = f"Against {base}, {label}: " + ("; ".join(changed) or "nothing changed clearly")
    if same:
        text += ". No change distinguishable in " + ", ".join(same) + "."
    else:
        text += ". Every measure changed distinguishably."
    return text + f" Intervals: {' and '.join(kinds)} (95%)."


def verdict_rows(t: pd.DataFrame) -> pd.DataFrame:
    """One run's rows of :func:`compare_runs` (indexed by measure) as printed text, one row per
    measure: its name, the base's value, this run's, the change with its 95% interval, the
    kind of interval and the verdict."""
    return pd.DataFrame(
        [
            {
                "measure": MEASURES[k][0],
                "base": _fmt(k, r.base),
                "this run": _fmt(k, r.value),
                "change [95% interval]": _fmt(k, r.change, r.low, r.high),
                "interval": r.interval,
                "verdict": r.verdict,
            }
            for k, r in t.iterrows()
        ]
    ).set_index("measure")


def _fill(text: str) -> str:
    """``text`` wrapped at 100 columns, never inside a word: a path or a rule string stays
    whole, even at its hyphens."""
    return textwrap.fill(text, 100, break_on_hyphens=False, break_long_words=False)


def format_comparison(
    table: pd.DataFrame, base: str, seconds_per_turn: float = SECONDS_PER_TURN
) -> str:
    """The verdict of :func:`compare_runs` as text: per other run a paragraph (what changed,
    what did not) and a table, then the definitions and the assumption."""
    lines = []
    for label, t in table.groupby(level="label", sort=False):
        t = t.droplevel("label")
        lines += [_fill(verdict_paragraph(t, base, str(label))), ""]
        head = f"{'measure':26s} {'base':>16s} {'this':>16s}  change [95% interval]"
        lines.append(head)
        for k, r in t.iterrows():
            lines.append(
                f"{MEASURES[k][0]:26s} {_fmt(k, r.base):>16s} {_fmt(k, r.value):>16s}  "
                f"{_fmt(k, r.change, r.low, r.high)}  {r.interval}: {r.verdict}"
            )
        lines.append("")
    note = (
        f"{EDGE_DEFINITION}; pp = percentage points. Minutes at {seconds_per_turn:g} s a turn "
        "(an assumption, not measured: --seconds-per-turn). Paired: the runs dealt the same "
        "rounds (same players, deck and game seeds); independent otherwise. Skill is not "
        "measured by results directories (see 'tournament')."
    )
    lines.append(_fill(note))
    return "\n".join(lines)


def run_legend(runs) -> list[str]:
    """The full rule string of every run, once: a line per :class:`RunData` (its label, then
    its rules, bots and seed; ``from DIR`` when its label is not its directory), for the
    foot of a comparison whose rows name runs by label."""
    lines = ["Runs:"]
    for run in runs:
        meta = run.meta
        bots = meta.get("bots")
        bots = ",".join(map(str, bots)) if isinstance(bots, list) else "?"
        where = meta.get("source") or meta.get("results_dir")
        source = f", from {where}" if where and str(where) != run.label else ""
        lines.append(
            f"  {run.label}: {meta.get('rules', '?')} (bots {bots}, seed "
            f"{meta.get('seed', '?')}{source})"
        )
    return lines


def length_lines(turns, match_turns=None, seconds_per_turn: float = SECONDS_PER_TURN) -> list[str]:
    """Table-side units of round (and match) length: the share of rounds longer than 100
    and 150 turns (Wilson 95% intervals) and minutes at ``seconds_per_turn`` (stated as an
    assumption)."""
    from .stats import mean_interval, wilson_interval

    t = np.asarray(turns, np.float64)
    n = len(t)
    lines = []
    for cut in (100, 150):
        k = int(np.count_nonzero(t > cut))
        lo, hi = wilson_interval(k, n) if n else (math.nan, math.nan)
        share = k / n if n else math.nan
        lines.append(
            f"rounds past {cut} turns  {format_interval(share * 100, lo * 100, hi * 100, 3)} %"
        )
    f = seconds_per_turn / 60.0
    m, lo, hi = mean_interval(t)
    lines.append(
        f"round length  {format_interval(m * f, lo * f, hi * f, 3)} min at "
        f"{seconds_per_turn:g} s a turn (an assumption: --seconds-per-turn)"
    )
    if match_turns is not None and len(match_turns):
        m, lo, hi = mean_interval(np.asarray(match_turns, np.float64))
        lines.append(
            f"match length  {format_interval(m * f, lo * f, hi * f, 3)} min at "
            f"{seconds_per_turn:g} s a turn"
        )
    return lines
