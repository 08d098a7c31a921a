"""A variant's skill profile (``python -m unospin_sim skill``): the skill trace, the strength
table and the rating spread (issue 50, item 1).

- **The skill trace** (after Ludii's SkillTrace): ``search`` at 8, 16, 32, ... rollouts up to
  a top budget, each doubling (player 0) paired against the budget below (the other
  players), bots rotated from round to round so that seat advantage cancels, the same rounds
  per step. Each step's figure is the doubled bot's share of the rounds above the fair share
  1/P, in points, with its 95% Wilson interval. The **skill depth**
  (:func:`~unospin_sim.analysis.skill_profile.skill_depth`) is the smallest budget from which
  every further doubling gains less than 1 point with its 95% upper bound below 2 points;
  issue 50 defines it with at least 20,000 rounds a step.
- **The strength table** (after the 2025 Tabletop Games balancing competition): search at the
  top budget, at half of it, the best cheap strategy (:data:`CHEAP`, chosen on measured data
  of another seed) and random, every pair head to head (more than 2 players: each against a
  field of the other, both ways); the order holds when every stronger one's share of the
  rounds against every weaker one has its 95% interval above the fair share. The pairing
  of the top budget against half of it is the trace's last step (same bots, same seed).
- **The rating spread** (after Duersch, Lambrecht and Oechssler, "Measuring skill and chance
  in games", European Economic Review 2020: the spread of the ratings of a field of many
  strengths measures how much a game rewards skill, comparably across games): the standard
  deviation (over the four strategies, ddof 0) of their Bradley-Terry ratings
  (:func:`~unospin_sim.studies.ratings.fit_ratings`, natural-log strengths; 400/ln 10 x that
  in Elo points), with a 95% percentile bootstrap interval (each pairing's round wins
  redrawn from a binomial at its observed share, the ratings refitted); the max-min range
  is given beside it.

Every pairing uses the profile's seed (common random numbers); results are reproducible from
the seed and independent of the thread count. So a profile of the same rules, rounds and seed
at a higher top budget plays some pairings again: ``reuse`` (``skill --reuse DIR``) takes
them from earlier profiles instead (:func:`reused_pairings`), which gives the same figures.
"""

from __future__ import annotations

import json
import math
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from ..analysis.skill_profile import (
    ISSUE_ROUNDS,
    order_holds,
    skill_depth,
    trace_budgets,
    trace_step,
)
from ..bots import parse_bots
from ..errors import UserError
from ..results.outdir import claim_out_dir
from .ratings import fit_ratings, pairing_row

__all__ = [
    "CHEAP",
    "CHEAP_SEED",
    "ELO_PER_UNIT",
    "SKILL_FILES",
    "SkillProfile",
    "format_skill_profile",
    "load_skill_profile",
    "rating_spread",
    "run_skill_profile",
    "search_bot",
    "skill_field",
]

#: the best cheap strategy per edition: the highest share of the rounds against three random
#: among the cheap strategies in docs/BOTS.md's skill ladder (tournament --players 4
#: --games 20000 --seed 2026), so that it is not chosen on the seed a profile reports
CHEAP = {
    "classic": "heuristic",
    "spin2005": "spin_aware",
    "spin2025": "spin_aware",
    "spiderman": "aggressor",
}
#: the seed :data:`CHEAP` was chosen on (a profile on it is warned)
CHEAP_SEED = 2026
#: Elo points per unit of a natural-log Bradley-Terry rating
ELO_PER_UNIT = 400.0 / math.log(10.0)
#: the files :meth:`SkillProfile.save` writes
SKILL_FILES = (
    "trace.parquet",
    "strength.parquet",
    "ratings.parquet",
    "skill.json",
    "summary.md",
    "skill_trace.png",
)


def search_bot(budget: int) -> str:
    """The canonical bot string of search at ``budget`` rollouts a decision."""
    (spec,) = parse_bots(f"search(rollouts={int(budget)})", 1)
    return str(spec)


def skill_field(rules, top_budget: int, cheap: str | None = None) -> list[str]:
    """The strength table's field, strongest first: search at ``top_budget`` rollouts, at
    half of it, the cheap strategy (default :data:`CHEAP` of the edition, ``heuristic`` for
    another), random; each checked to play under ``rules``.

    Raises
    ------
    UserError
        A bad budget (:func:`~unospin_sim.analysis.skill_profile.trace_budgets`), a cheap
        strategy that is unknown, search or random, or one the rules cannot play.
    """
    from ..engine.encode import check_bots_for_rules

    trace_budgets(top_budget)
    (spec,) = parse_bots(cheap if cheap is not None else CHEAP.get(rules.edition, "heuristic"), 1)
    if spec.strategy in ("search", "random"):
        raise UserError(f"--cheap names a cheap strategy (not search or random), got {cheap!r}")
    field_ = [search_bot(top_budget), search_bot(top_budget // 2), str(spec), "random"]
    for s in field_:
        check_bots_for_rules(rules, parse_bots(s, rules.players))
    return field_


def rating_spread(tables, boot: int = 1000, seed: int = 0) -> dict:
    """The spread of the Bradley-Terry ratings of a field, with a bootstrap interval.

    Parameters
    ----------
    tables : list of (counts, wins, n)
        Per pairing, as :func:`~unospin_sim.studies.ratings.fit_ratings` takes them, each
        with exactly two strategies.
    boot : int
        Bootstrap replicates (0: none, the intervals NaN).
    seed : int
        The bootstrap's random seed.

    Returns
    -------
    dict
        ``sd`` (standard deviation of the ratings over the field, ddof 0), ``sd_low``,
        ``sd_high`` (95% percentile bootstrap), ``range`` (max - min) with ``range_low``,
        ``range_high``, ``sd_elo`` (``sd`` in Elo points) and ``boot``.
    """
    ratings = fit_ratings(tables)["rating"].to_numpy()
    out = {
        "sd": float(np.std(ratings)),
        "range": float(ratings.max() - ratings.min()),
        "boot": int(boot),
    }
    sds, ranges = [], []
    rng = np.random.default_rng(seed)
    for _ in range(boot):
        redrawn = []
        for counts, wins, n in tables:
            a, b = list(wins)  # two strategies a pairing
            k = int(rng.binomial(n, wins[a] / n)) if n else 0
            redrawn.append((counts, {a: k, b: n - k}, n))
        r = fit_ratings(redrawn)["rating"].to_numpy()
        sds.append(np.std(r))
        ranges.append(r.max() - r.min())
    for key, xs in (("sd", sds), ("range", ranges)):
        lo, hi = np.percentile(xs, [2.5, 97.5]) if xs else (math.nan, math.nan)
        out[f"{key}_low"], out[f"{key}_high"] = float(lo), float(hi)
    out["sd_elo"] = out["sd"] * ELO_PER_UNIT
    return out


@dataclass
class SkillProfile:
    """Results of :func:`run_skill_profile`: ``trace`` (a row per doubling,
    :func:`~unospin_sim.analysis.skill_profile.trace_step`), ``depth`` (the skill depth, None
    if not reached), ``pairings`` (the strength table: rows of
    :func:`~unospin_sim.studies.ratings.pairing_row`), ``strategies`` (the field, strongest first),
    ``order`` (:func:`~unospin_sim.analysis.skill_profile.order_holds`), ``ratings``
    (Bradley-Terry, random = 0), ``spread`` (:func:`rating_spread`) and the parameters."""

    rules: str
    rounds: int
    seed: int
    top_budget: int
    trace: pd.DataFrame
    depth: int | None
    pairings: pd.DataFrame
    strategies: list[str]
    order: dict
    ratings: pd.DataFrame
    spread: dict
    meta: dict = field(default_factory=dict)

    def figures(self) -> dict:
        """The profile's figures as JSON-ready values (``skill.json``)."""
        return {
            "rules": self.rules,
            "rounds_per_pairing": self.rounds,
            "unit": "rounds",
            "seed": self.seed,
            "top_budget": self.top_budget,
            "skill_depth": self.depth,
            "field": self.strategies,
            "order": self.order,
            "rating_spread": self.spread,
            **self.meta,
        }

    def save(self, out, overwrite: bool = False) -> Path:
        """Write the tables (Parquet), ``skill.json`` (the figures), ``summary.md`` and the
        chart ``skill_trace.png`` to ``out`` (one-line :class:`UserError` if it holds other
        files, or an earlier profile's without ``overwrite``)."""
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        from ..plots.skill import plot_skill_trace

        out = claim_out_dir(out, SKILL_FILES, "skill", overwrite=overwrite)
        self.trace.to_parquet(out / "trace.parquet", index=False)
        self.pairings.to_parquet(out / "strength.parquet", index=False)
        self.ratings.reset_index().to_parquet(out / "ratings.parquet", index=False)
        text = json.dumps(self.figures(), indent=2, default=str) + "\n"
        (out / "skill.json").write_text(text, encoding="utf-8")
        (out / "summary.md").write_text(format_skill_profile(self), encoding="utf-8")
        fig, ax = plt.subplots(figsize=(6, 4))
        plot_skill_trace(self.trace, ax=ax, depth=self.depth, label=self.rules)
        fig.tight_layout()
        fig.savefig(out / "skill_trace.png", dpi=120)
        plt.close(fig)
        return out


def _play(rs, a: str, b: str, rounds: int, seed: int, threads: int, progress: bool):
    """One rotated pairing, ``a`` as player 0 against P-1 x ``b``: its
    :func:`pairing_row` (kind ``head_to_head``) and its Bradley-Terry table."""
    from ..run import Execution, simulate

    p = rs.players
    res = simulate(
        rs,
        ",".join([a] + [b] * (p - 1)),
        games=rounds,
        seed=seed,
        rotate_bots=True,
        execution=Execution(threads=threads, progress=progress),
    )
    r = res.rounds
    opp = b if p == 2 else f"{p - 1} x {b}"
    row = pairing_row(r, p, "head_to_head" if p == 2 else "vs_field", a, opp)
    w = r["winner"].to_numpy().astype(np.int64)
    g = r["game"].to_numpy().astype(np.int64)
    fin = w >= 0
    wa = int((((w[fin] + g[fin]) % p) == 0).sum())
    table = ({a: 1, b: p - 1}, {a: wa, b: int(fin.sum()) - wa}, int(fin.sum()))
    return row, table


def run_skill_profile(
    rules,
    top_budget: int = 128,
    rounds: int = ISSUE_ROUNDS,
    seed: int = 0,
    cheap: str | None = None,
    boot: int = 1000,
    execution=None,
    reuse=(),
) -> SkillProfile:
    """Play a variant's skill profile (module docstring) and return its figures.

    Parameters
    ----------
    rules : RuleSet or str
        The variant (its players included).
    top_budget : int
        The trace's top budget: 8 doubled at least once (16, 32, ...).
    rounds : int
        Rounds per pairing (each trace step and each pair of the strength table).
    cheap : str, optional
        The strength table's cheap strategy (default :data:`CHEAP` of the edition,
        ``heuristic`` for an edition not there).
    boot : int
        Bootstrap replicates of the rating spread.
    execution : unospin_sim.run.Execution, optional
        Its ``threads`` (default 1: search is dear) and ``progress`` (a line per pairing
        and a progress bar on stderr; default off); nothing else of it is read.
    reuse : sequence of path-like
        Earlier profile directories of the same rules, rounds and seed whose pairings are
        taken instead of played again (:func:`reused_pairings`).

    Raises
    ------
    UserError
        Bad rules, budget, rounds or cheap strategy (one line).
    """
    from ..rules import parse_rules

    rs = parse_rules(rules) if isinstance(rules, str) else rules
    threads = (execution.threads if execution else None) or 1
    progress = bool(execution and execution.progress)
    budgets = trace_budgets(top_budget)
    if isinstance(rounds, bool) or not isinstance(rounds, (int, np.integer)) or rounds < 1:
        raise UserError(f"--rounds must be an integer >= 1, got {rounds!r}")
    field_ = skill_field(rs, top_budget, cheap)
    plan = [(search_bot(2 * b), search_bot(b)) for b in budgets[:-1]]
    for i, a in enumerate(field_):
        for b in field_[i + 1 :]:
            if (a, b) not in plan:
                plan.append((a, b))
            if rs.players > 2:
                plan.append((b, a))
    played, seconds, start = {}, {}, time.perf_counter()
    earlier = reused_pairings(reuse, rs, rounds, seed)
    reused = set()
    for k, (a, b) in enumerate(plan):
        if (a, b) in earlier and (
            earlier[a, b][0][1] is not None or a not in field_ or b not in field_
        ):
            played[a, b], seconds[a, b] = earlier[a, b]
            reused.add((a, b))
            if progress:
                print(f"pairing {k + 1}/{len(plan)}: {a} against {b}: reused", file=sys.stderr)
            continue
        if progress:
            print(
                f"pairing {k + 1}/{len(plan)}: {a} against {b}, {rounds:,} rounds",
                file=sys.stderr,
                flush=True,
            )
        t0 = time.perf_counter()
        played[a, b] = _play(rs, a, b, rounds, seed, threads, progress)
        seconds[a, b] = time.perf_counter() - t0
    steps = []
    for budget in budgets[:-1]:
        key = (search_bot(2 * budget), search_bot(budget))
        step = trace_step(budget, played[key][0]["round_wins"], rounds, rs.players)
        steps.append({**step, "seconds": seconds[key]})
    trace = pd.DataFrame(steps)
    strength = [(a, b) for (a, b) in played if a in field_ and b in field_]
    pairings = pd.DataFrame([{**played[k][0], "seconds": seconds[k]} for k in strength])
    tables = [played[k][1] for k in strength]
    return SkillProfile(
        rules=str(rs),
        rounds=int(rounds),
        seed=int(seed),
        top_budget=int(top_budget),
        trace=trace,
        depth=skill_depth(trace),
        pairings=pairings,
        strategies=field_,
        order=order_holds(pairings, field_),
        ratings=fit_ratings(tables),
        spread=rating_spread(tables, boot=boot, seed=seed),
        meta={
            "players": rs.players,
            "cheap_chosen_by": _cheap_words(cheap),
            "threads": threads,
            "wall_seconds": round(time.perf_counter() - start, 1),
            "reused": [str(d) for d in reuse],
            "pairings_reused": len(reused),
        },
    )


def reused_pairings(dirs, rs, rounds: int, seed: int) -> dict:
    """The pairings earlier profiles played, ``(a, b) -> ((pairing row, Bradley-Terry
    table), seconds)``: their strength tables' rows, and their trace's steps (whose rows
    hold only the round wins the trace reads, and no table: a pairing of the strength table
    is reused only from a strength table). One-line :class:`UserError` for a directory
    that is not a profile of the same rules, rounds a pairing and seed (its pairings would
    not be the ones this profile plays)."""
    out: dict = {}
    p = rs.players
    for d in dirs:
        prof = load_skill_profile(d)
        mine = (str(rs), int(rounds), int(seed))
        theirs = (prof["rules"], prof.get("rounds_per_pairing"), prof.get("seed"))
        if theirs != mine:
            raise UserError(
                f"--reuse {d}: a profile of {theirs[0]}, {theirs[1]} rounds a pairing, seed "
                f"{theirs[2]}; this one is {mine[0]}, {mine[1]} rounds, seed {mine[2]}"
            )
        for t in prof["trace"].itertuples():
            key = (search_bot(int(t.doubled)), search_bot(int(t.budget)))
            out.setdefault(key, (({"round_wins": int(t.wins)}, None), float(t.seconds)))
        try:
            strength = pd.read_parquet(Path(d) / "strength.parquet")
        except (OSError, ValueError) as e:
            raise UserError(f"--reuse {d}: unreadable strength table: {e}") from None
        for r in strength.to_dict("records"):
            a, fin, wins = r["strategy"], r["finished_rounds"], r["round_wins"]
            b = r["opponent"] if p == 2 else r["opponent"].split(" x ", 1)[1]  # "P-1 x b"
            row = {k: v for k, v in r.items() if k != "seconds"}
            table = ({a: 1, b: p - 1}, {a: int(wins), b: int(fin) - int(wins)}, int(fin))
            out[a, b] = ((row, table), float(r["seconds"]))
    return out


def _cheap_words(cheap) -> str:
    if cheap is not None:
        return "named with --cheap"
    return (
        f"the edition's best cheap strategy against three random in docs/BOTS.md's skill "
        f"ladder (seed {CHEAP_SEED})"
    )


def _pp(x, lo, hi) -> str:
    return f"{100 * x:+.1f} [{100 * lo:+.1f}, {100 * hi:+.1f}]"


def format_skill_profile(s: SkillProfile) -> str:
    """The Markdown summary of a profile (every share of ROUNDS, 95% intervals)."""
    p = int(s.meta.get("players", 2))
    fair = 100.0 / p
    depth = (
        f"**{s.depth} rollouts**"
        if s.depth is not None
        else f"**not reached by {s.top_budget} rollouts**"
    )
    lines = [
        f"# Skill profile: {s.rules}, {p} players",
        "",
        f"{s.rounds:,} rounds per pairing (rounds, not matches), seed {s.seed}, bots rotated "
        f"from round to round (seat advantage cancels); fair share {fair:.1f}%; "
        f"{s.meta.get('wall_seconds', math.nan):.0f} s wall time on "
        f"{s.meta.get('threads', '?')} thread(s).",
        "",
        "## Skill trace",
        "",
        f"Skill depth: {depth} (the smallest budget from which every further doubling gains "
        f"< 1 point of the rounds with its 95% upper bound < 2 points; {s.rounds:,} rounds a "
        f"step{'' if s.rounds >= ISSUE_ROUNDS else ', fewer than the 20,000 of its definition'}).",
        "",
        "| doubling (rollouts) | rounds | doubled bot's share | gain over fair (points) [95%] |",
        "|---|---|---|---|",
    ]
    for _, r in s.trace.iterrows():
        lines.append(
            f"| {int(r['budget'])} -> {int(r['doubled'])} | {int(r['rounds']):,} | "
            f"{100 * r['share']:.1f}% | {_pp(r['gain'], r['gain_low'], r['gain_high'])} |"
        )
    o = s.order
    verdict = (
        "holds"
        if o["holds"]
        else f"does not hold at 95% ({', '.join(o['failing'])} not above fair)"
    )
    lines += [
        "",
        "## Strength table",
        "",
        f"Field, strongest first: {', '.join(s.strategies)} (the cheap one: "
        f"{s.meta.get('cheap_chosen_by', '')}). The order {verdict}: "
        f"{o['pairs'] - len(o['failing'])} of {o['pairs']} pairs above fair.",
        "",
        "| strategy | against | rounds | share of rounds [95%] | above fair (points) |",
        "|---|---|---|---|---|",
    ]
    for _, r in s.pairings.iterrows():
        lines.append(
            f"| {r['strategy']} | {r['opponent']} | {int(r['rounds']):,} | "
            f"{100 * r['round_share']:.1f}% [{100 * r['round_low']:.1f}, "
            f"{100 * r['round_high']:.1f}] | {100 * (r['round_share'] - r['fair_share']):+.1f} |"
        )
    sp = s.spread
    lines += [
        "",
        "## Rating spread",
        "",
        f"Bradley-Terry ratings (natural-log strength of a round win, random = 0) of the "
        f"field; spread = their standard deviation: **{sp['sd']:.3f}** "
        f"[{sp['sd_low']:.3f}, {sp['sd_high']:.3f}] ({sp['sd_elo']:.0f} Elo points); "
        f"max - min {sp['range']:.3f} [{sp['range_low']:.3f}, {sp['range_high']:.3f}] "
        f"(95% percentile bootstrap, {sp['boot']} replicates; after Duersch, Lambrecht and "
        f"Oechssler 2020).",
        "",
        "| strategy | rating [95%] |",
        "|---|---|",
    ]
    for name, r in s.ratings.iterrows():
        lines.append(f"| {name} | {r['rating']:+.3f} [{r['low']:+.3f}, {r['high']:+.3f}] |")
    lines.append("")
    return "\n".join(lines)


def load_skill_profile(out) -> dict:
    """The figures (``skill.json``) and the trace of a directory :meth:`SkillProfile.save`
    wrote, as ``{**figures, "trace": DataFrame}``; one-line :class:`UserError` if it is not
    one."""
    out = Path(out)
    if not (out / "skill.json").is_file() or not (out / "trace.parquet").is_file():
        raise UserError(
            f"{out} is not a skill profile directory (write one with 'skill --out DIR')"
        )
    try:
        figures = json.loads((out / "skill.json").read_text(encoding="utf-8"))
        trace = pd.read_parquet(out / "trace.parquet")
    except (OSError, ValueError) as e:
        raise UserError(f"{out}: unreadable skill profile: {e}") from None
    if not isinstance(figures, dict) or "rules" not in figures:
        raise UserError(f"{out}/skill.json does not name the rules")
    return {**figures, "trace": trace}
