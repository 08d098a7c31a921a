"""Tournaments between strategies: who plays better, by how much, and how much of the game is
skill (``python -m unospin_sim tournament``).

Pairings (each ``games`` rounds, bots rotated so that seat advantage cancels: in game ``g``
seat ``s`` holds player ``(s + g) mod P``, and consecutive rounds form matches):

- ``vs_random``: every strategy (player 0) against a field of ``random`` (players 1..P-1);
- ``head_to_head`` (2 players): every pair of strategies;
- ``vs_field`` (more than 2 players): every strategy against a field of every other one.

For every pairing: player 0's share of the ROUNDS and of the 500-point MATCHES (assembled from
consecutive rotated rounds, :func:`analysis.assemble_matches`) with 95% Wilson intervals. A
rating per strategy: a Bradley-Terry (Luce choice) model fitted on every finished round of
every pairing, P(player i wins a round) = exp(theta_i) / sum_j exp(theta_j) over the players
at the table, ``random`` fixed at 0, 95% intervals from the Fisher information. The skill
figure (:func:`skill_figure`): the best strategy's share of rounds and of matches against
random fields, above the fair share 1/P, with the bot and its budget (:func:`bot_budget`). The
skill ladder (:func:`skill_ladder`): every strategy's share against random fields by tier,
random < the cheap card-ranking strategies < ``tuned`` < ``search``; the skill figure is
given for the strongest bot and for the best cheap one.

Every pairing uses the tournament's seed, so they are played on the same deals (common random
numbers); results are reproducible from the seed and independent of the thread count.
"""

from __future__ import annotations

import itertools
import json
import math
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from .._text import split_top_level
from ..analysis.pool import pool_tournaments
from ..analysis.skill import (
    TIERS,
    bot_budget,
    ladder_text,
    skill_figure,
    skill_ladder,
    strategy_tier,
)
from ..bots import STRATEGIES, parse_bots
from ..errors import BotError, UserError
from ..results.load import learn_variant
from ..results.outdir import claim_out_dir, remove_stale
from ..results.schema import VARIANT_KEY
from ..rules import parse_rules
from ..rules.variants import variant_record
from .ratings import TARGET, fit_ratings, pairing_row

__all__ = [
    "TIERS",
    "Tournament",
    "bot_budget",
    "check_strategies",
    "fit_ratings",
    "format_tournament",
    "ladder_text",
    "load_skill",
    "pairing_row",
    "parse_strategies",
    "pool_tournaments",
    "run_tournament",
    "skill_figure",
    "skill_ladder",
    "strategy_tier",
]

#: the files :meth:`Tournament.save` writes in its directory
TOURNAMENT_FILES = (
    "pairings.parquet",
    "ratings.parquet",
    "skill.parquet",
    "ladder.parquet",
    "won_vs_random.parquet",
    "tournament.json",
    "summary.md",
)


#: strategies a tournament leaves out unless named: the field, and the slow search
DEFAULT_LEFT_OUT = ("random", "search")


def parse_strategies(text, players: int = 2) -> list[str]:
    """Canonical bot strings of a comma list of strategies (knobs allowed:
    ``heuristic(bluff=0.2),greedy``). Default (None or empty): every strategy but random and
    search (search plays hundreds of rounds/s where the others play 100,000s: name it to rank
    it).

    Raises
    ------
    BotError
        An unknown strategy or knob, a malformed entry (one line).
    """
    if text is None:
        return [s for s in STRATEGIES if s not in DEFAULT_LEFT_OUT]
    if not isinstance(text, str):
        text = ",".join(text)
    if not text.strip():
        raise BotError(f"--strategies is empty; known strategies: {', '.join(STRATEGIES)}")
    items = split_top_level(text, BotError, "strategy list", max_depth=1)
    out = []
    for item in items:
        if not item.strip():
            raise BotError(f"malformed strategy list {text!r}: empty entry")
        (spec,) = parse_bots(item, 1)
        out.append(str(spec))
    return out


def check_strategies(rules, strategies) -> list[str]:
    """The canonical bot strings of ``strategies`` (:func:`parse_strategies`), each checked
    to play under the RuleSet ``rules`` (a knob of a house rule it lacks is refused), not
    all random: what :func:`run_tournament` checks before it plays.

    Raises
    ------
    UserError
        An unknown strategy or knob, one the rules cannot play, or only random ones.
    """
    from ..engine.encode import check_bots_for_rules

    specs = parse_strategies(strategies, rules.players)
    if all(parse_bots(s, 1)[0].strategy == "random" for s in specs):
        raise UserError(
            "every strategy named is random: a tournament against random fields "
            "needs another strategy (e.g. --strategies heuristic,random)"
        )
    for s in specs:
        check_bots_for_rules(rules, parse_bots(s, rules.players))
    return specs


def _labels(specs: list[str]) -> list[str]:
    """Unique labels: a strategy given twice becomes ``name``, ``name#2``."""
    seen: dict[str, int] = {}
    out = []
    for s in specs:
        seen[s] = seen.get(s, 0) + 1
        out.append(s if seen[s] == 1 else f"{s}#{seen[s]}")
    return out


@dataclass
class Tournament:
    """Results of :func:`run_tournament`: ``pairings`` (one row per pairing), ``ratings``
    (Bradley-Terry), ``skill`` (:func:`skill_figure`: the strongest bot against random
    fields), ``skill_cheap`` (the best cheap strategy's, None if none played), ``ladder``
    (:func:`skill_ladder`) and the parameters."""

    rules: str
    games: int
    seed: int
    pairings: pd.DataFrame
    ratings: pd.DataFrame
    skill: dict
    meta: dict = field(default_factory=dict)
    skill_cheap: dict | None = None
    ladder: pd.DataFrame | None = None
    #: round by round (row = round, in game order), whether each strategy's seat won its
    #: pairing against random fields (a bool column per strategy label)
    won: pd.DataFrame | None = None

    def save(self, out, overwrite: bool = False) -> Path:
        """Write ``pairings.parquet``, ``ratings.parquet``, ``skill.parquet`` (a row
        ``measure="strongest"``, and ``"cheap"`` when a cheap strategy played),
        ``ladder.parquet``, ``won_vs_random.parquet`` (:attr:`won`), ``tournament.json``
        (rules, rounds per pairing, seed) and
        ``summary.md`` to directory ``out`` (``report --skill`` reads it).  A directory
        holding anything else is refused, and one holding an earlier tournament's files
        unless ``overwrite`` (:func:`~unospin_sim.results.claim_out_dir`; one-line
        :class:`UserError`)."""
        out = claim_out_dir(out, TOURNAMENT_FILES, "tournament", overwrite=overwrite)
        self.pairings.to_parquet(out / "pairings.parquet", index=False)
        self.ratings.reset_index().to_parquet(out / "ratings.parquet", index=False)
        rows = [{"measure": "strongest", **self.skill}]
        if self.skill_cheap is not None:
            rows.append({"measure": "cheap", **self.skill_cheap})
        pd.DataFrame(rows).to_parquet(out / "skill.parquet", index=False)
        written = [
            "pairings.parquet",
            "ratings.parquet",
            "skill.parquet",
            "tournament.json",
            "summary.md",
        ]
        if self.ladder is not None:
            self.ladder.to_parquet(out / "ladder.parquet", index=False)
            written.append("ladder.parquet")
        if self.won is not None:
            self.won.to_parquet(out / "won_vs_random.parquet", index=False)
            written.append("won_vs_random.parquet")
        remove_stale(out, TOURNAMENT_FILES, written)
        record = {"rules": self.rules, "games": self.games, "seed": self.seed, **self.meta}
        variant = parse_rules(self.rules).variant
        if variant is not None:  # the variant file played, so that --pool reads the rules
            record[VARIANT_KEY] = variant_record(variant)
        (out / "tournament.json").write_text(
            json.dumps(record, indent=2, default=str) + "\n", encoding="utf-8"
        )
        (out / "summary.md").write_text(format_tournament(self), encoding="utf-8")
        return out


def _pct(x, lo, hi) -> str:
    if x != x:  # NaN
        return "n/a"
    return f"{100 * x:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}]"


def format_tournament(t: Tournament) -> str:
    """The Markdown summary of a tournament; its first line names the player count."""
    from ..rules import parse_rules

    lines = [
        f"# Tournament: {parse_rules(t.rules).players} players, {t.rules}",
        "",
        f"{t.games} rounds per pairing, seed {t.seed}, bots rotated from round to round "
        f"(seat advantage cancels); a match is a race to {TARGET} points assembled from "
        f"consecutive rounds. Shares are player 0's (the strategy named first), with 95% "
        f"intervals.",
        "",
    ]
    lines += ["## Skill", ""]
    for s, who in ((t.skill, "Strongest bot"), (t.skill_cheap, "Best cheap strategy")):
        if s is None or (who != "Strongest bot" and s["strategy"] == t.skill["strategy"]):
            continue
        lines += [
            f"{who} against a field of random: **{s['strategy']}** ({s['budget']}) "
            f"wins {_pct(s['round_share'], s['round_low'], s['round_high'])} of the "
            f"{s['rounds']:,} rounds and "
            f"{_pct(s['match_share'], s['match_low'], s['match_high'])} of the "
            f"{s['matches']:,} matches; a fair share is {100 * s['fair_share']:.1f}%, so skill adds "
            f"{100 * s['round_excess']:+.1f} percentage points of the rounds "
            f"[{100 * s['round_excess_low']:+.1f}, {100 * s['round_excess_high']:+.1f}] "
            f"and {100 * s['match_excess']:+.1f} percentage points of the matches "
            f"[{100 * s['match_excess_low']:+.1f}, {100 * s['match_excess_high']:+.1f}].",
            "",
        ]
    if t.ladder is not None:
        lines += [
            "### The skill ladder (share of rounds against random fields)",
            "",
            ladder_text(t.ladder),
            "",
            "| tier | strategy | budget | round share [95%] | above fair share (pp) | "
            "step over the tier below (pp of rounds) [95%] |",
            "|---|---|---|---|---|---|",
        ]
        for _, r in t.ladder.iterrows():
            step = (
                f"{100 * r['step']:+.1f} [{100 * r['step_low']:+.1f}, "
                f"{100 * r['step_high']:+.1f}] over {r['step_over']}, {r['step_test']}"
                if r["best_in_tier"]
                else ""
            )
            lines.append(
                f"| {r['tier']} | {r['strategy']} | {r['budget']} | "
                f"{_pct(r['round_share'], r['round_low'], r['round_high'])} | "
                f"{100 * r['round_excess']:+.1f} | {step} |"
            )
        lines.append("")
    p = int(t.meta.get("players", 2))
    field = "head to head" if p == 2 else f"against {p - 1} random"
    lines += [
        "## Ranking (Bradley-Terry rating of a round win, random = 0)",
        "",
        "It ranks by every pairing played (head to head and against fields as well as "
        "against random fields), so its order can differ from the skill figure's, which "
        "is the share against random fields alone. The last column is the rating as a "
        f"round share {field}: exp(rating) / (exp(rating) + {p - 1}).",
        "",
        f"| rank | strategy | rating [95%] | round share {field}, from the rating |",
        "|---|---|---|---|",
    ]
    for name, r in t.ratings.iterrows():
        e = math.exp(r["rating"])
        lines.append(
            f"| {int(r['rank'])} | {name} | {r['rating']:+.3f} [{r['low']:+.3f}, "
            f"{r['high']:+.3f}] | {100 * e / (e + p - 1):.1f}% |"
        )
    lines.append("")
    titles = {
        "vs_random": "Against a field of random",
        "head_to_head": "Head to head",
        "vs_field": "Against a field of another",
    }
    for kind in ("vs_random", "head_to_head", "vs_field"):
        part = t.pairings[t.pairings["kind"] == kind]
        if not len(part):
            continue
        lines += [
            f"## {titles[kind]}",
            "",
            "| strategy | opponents | rounds | round share [95%] | matches | match share [95%] |",
            "|---|---|---|---|---|---|",
        ]
        for _, r in part.iterrows():
            lines.append(
                f"| {r['strategy']} | {r['opponent']} | {r['rounds']} | "
                f"{_pct(r['round_share'], r['round_low'], r['round_high'])} | "
                f"{r['matches']} | "
                f"{_pct(r['match_share'], r['match_low'], r['match_high'])} |"
            )
        lines.append("")
    return "\n".join(lines)


def run_tournament(
    edition: str = "classic",
    players: int = 2,
    games: int = 10_000,
    strategies=None,
    seed: int = 0,
    head_to_head: bool = True,
    rules=None,
    execution=None,
) -> Tournament:
    """Play a tournament (module docstring) and return its tables.

    Parameters
    ----------
    edition, players : str, int
        The rule set (``rules``, a RuleSet or rule string, overrides both).
    games : int
        Rounds per pairing.
    strategies : str or list of str, optional
        Bot strings (knobs allowed); default every strategy but random and search. A strategy given
        twice plays against its copy (labelled ``name#2``).
    head_to_head : bool
        Also play the pairings among the strategies (not only against random fields).
    execution : Execution, optional
        Its ``threads`` (default every core) and ``progress`` (a bar over the pairings).

    Raises
    ------
    UserError
        Bad rules, an unknown strategy or knob, ``games`` < 1.
    """
    from ..rules import RuleSet, parse_rules
    from ..run import Execution, simulate

    how = execution or Execution()
    threads, progress = how.resolved().threads, how.progress
    if rules is None:
        rs = RuleSet.build(edition, players=players)
    else:
        rs = parse_rules(rules) if isinstance(rules, str) else rules
    p = rs.players
    if isinstance(games, bool) or not isinstance(games, (int, np.integer)) or games < 1:
        raise UserError(f"games must be an integer >= 1, got {games!r}")
    specs = check_strategies(rs, strategies)
    labels = _labels(specs)
    plan = []  # (kind, label a, spec a, label b, spec b)
    for la, sa in zip(labels, specs):
        plan.append(("vs_random", la, sa, "random", "random"))
    if head_to_head:
        pairs = (
            itertools.combinations(range(len(specs)), 2)
            if p == 2
            else itertools.permutations(range(len(specs)), 2)
        )
        kind = "head_to_head" if p == 2 else "vs_field"
        for i, j in pairs:
            plan.append((kind, labels[i], specs[i], labels[j], specs[j]))
    bar = None
    if progress:
        from tqdm.auto import tqdm

        bar = tqdm(total=len(plan) * games, unit="round", desc="tournament", leave=False)
    rows, tables, won = [], [], {}
    try:
        for kind, la, sa, lb, sb in plan:
            bots = ",".join([sa] + [sb] * (p - 1))
            res = simulate(
                rs,
                bots,
                games=games,
                seed=seed,
                rotate_bots=True,
                execution=Execution(threads=threads),
            )
            rounds = res.rounds
            opp = lb if p == 2 else f"{p - 1} x {lb}"
            rows.append(pairing_row(rounds, p, kind, la, opp))
            w = rounds["winner"].to_numpy().astype(np.int64)
            g = rounds["game"].to_numpy().astype(np.int64)
            fin = w >= 0
            player = (w[fin] + g[fin]) % p
            wa = int((player == 0).sum())
            counts = {la: 1}
            counts[lb] = counts.get(lb, 0) + p - 1
            wins = {la: wa}
            wins[lb] = wins.get(lb, 0) + int(fin.sum()) - wa
            tables.append((counts, wins, int(fin.sum())))
            if kind == "vs_random":  # round by round, for the ladder's paired steps
                order = np.argsort(g, kind="stable")
                won[la] = ((w >= 0) & ((w + g) % p == 0))[order]
            if bar is not None:
                bar.update(games)
    finally:
        if bar is not None:
            bar.close()
    pairings = pd.DataFrame(rows)
    ratings = fit_ratings(tables)
    vs_random = pairings[pairings["kind"] == "vs_random"]
    won = pd.DataFrame(won)
    return Tournament(
        str(rs),
        games,
        seed,
        pairings,
        ratings,
        skill_figure(vs_random),
        {"strategies": specs, "players": p},
        skill_cheap=skill_figure(vs_random, tiers=("cheap",)),
        ladder=skill_ladder(vs_random, won),
        won=won,
    )


def load_skill(out) -> dict:
    """The skill figure of the strongest bot (:func:`skill_figure`) and ``rules``, ``games``
    and ``seed`` of a tournament directory written by :meth:`Tournament.save`, with
    ``cheap`` (the best cheap strategy's figure, or None) and ``ladder``
    (:func:`skill_ladder`, paired where ``won_vs_random.parquet`` is there), both computed
    from its ``pairings.parquet``; one-line
    :class:`UserError` if it is not one."""
    out = Path(out)
    missing = [
        f
        for f in ("tournament.json", "pairings.parquet", "skill.parquet")
        if not (out / f).is_file()
    ]
    if missing:
        hint = (
            " --skill takes every DIR after it: give the runs before --skill"
            if (out / "meta.json").is_file()
            else ""
        )
        raise UserError(
            f"{out} is not a tournament directory (no {missing[0]}; write one "
            f"with 'tournament --out DIR'){';' if hint else ''}{hint}"
        )
    try:
        meta = json.loads((out / "tournament.json").read_text(encoding="utf-8"))
        if isinstance(meta, dict):
            learn_variant(meta, str(out / "tournament.json"))
        pd.read_parquet(out / "skill.parquet")
        pairings = pd.read_parquet(out / "pairings.parquet")
        vs_random = pairings[pairings["kind"] == "vs_random"]
        skill = skill_figure(vs_random)
        cheap = skill_figure(vs_random, tiers=("cheap",))
        f = out / "won_vs_random.parquet"
        ladder = skill_ladder(vs_random, pd.read_parquet(f) if f.is_file() else None)
    except (OSError, ValueError, IndexError, KeyError, BotError) as e:
        raise UserError(f"{out}: unreadable tournament results: {e}") from None
    if not isinstance(meta, dict) or "rules" not in meta:
        raise UserError(f"{out}/tournament.json does not name the rules")
    return {
        **skill,
        "rules": str(meta["rules"]),
        "games": meta.get("games"),
        "seed": meta.get("seed"),
        "cheap": cheap,
        "ladder": ladder,
    }
