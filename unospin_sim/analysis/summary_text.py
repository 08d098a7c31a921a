"""What ``run`` prints when it finishes (:func:`run_summary_text`) and what ``summary DIR``
prints (:func:`results_summary_text`): the run's summary (:mod:`.summary`), in match mode the
match summary, and the table-side units of length."""

from __future__ import annotations

import math
from pathlib import Path

from .summary import SummaryAccumulator, format_match_summary, format_summary, summarize

__all__ = ["results_summary_text", "run_summary_text"]


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
    from ..results import LABEL_KEY, run_label

    named = f"label {run_label(meta)!r}  " if LABEL_KEY in meta else ""
    lines = [
        f"{named}rules {rules}  bots {bots}  seed {meta.get('seed', '?')}  results {results_dir}"
    ]
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
