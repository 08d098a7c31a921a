"""The skill figures of a tournament's pairings against random fields
(:mod:`unospin_sim.studies.tournament`): the best bot's share of rounds and of matches above the fair
share (:func:`skill_figure`), and the skill ladder (:func:`skill_ladder`): every strategy by
tier, random < the cheap card-ranking strategies < ``tuned`` < ``search``, each tier's step
over the tier below, paired on the tournament's shared deals where its rounds are given.
Every share is of ROUNDS (single hands) unless it says matches.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import overload

import numpy as np
import pandas as pd

from ..bots import parse_bots
from ..errors import UserError
from .stats import Z95, wilson_interval

__all__ = ["TIERS", "bot_budget", "ladder_text", "skill_figure", "skill_ladder", "strategy_tier"]


#: the skill ladder's tiers, weakest first: ``random``; the cheap card-ranking strategies
#: (one ranking of the legal cards per decision: heuristic, greedy, ...); ``tuned`` (a card
#: ranking with optimised weights); ``search`` (rollouts per decision)
TIERS = ("random", "cheap", "tuned", "search")


def _spec(label: str):
    """The bot of a pairing's strategy label (``name#2`` is a second copy of ``name``)."""
    (spec,) = parse_bots(label.split("#", 1)[0], 1)
    return spec


def strategy_tier(label: str) -> str:
    """The tier (:data:`TIERS`) of a strategy label: ``"search(rollouts=512)"`` -> ``"search"``,
    ``"heuristic"`` -> ``"cheap"``."""
    name = _spec(label).strategy
    return name if name in TIERS else "cheap"


def bot_budget(label: str) -> str:
    """What one decision of the bot costs, in words: search's rollouts (and how far a close
    decision runs on, knob ``extend``) and horizon, the knobs that set its speed, or one
    card ranking for every other strategy."""
    b = _spec(label)
    if b.strategy == "search":
        horizon = "to the end of the round" if b.horizon == 0 else f"horizon {int(b.horizon)} turns"
        close = f" ({int(b.rollouts * b.extend)} when close)" if b.extend > 1 else ""
        return (
            f"{int(b.rollouts)} rollouts per decision{close}, {horizon}, inference level "
            f"{int(b.infer)}" + (", seeing every hand" if b.peek else "")
        )
    if b.strategy == "random":
        return "a uniform legal move"
    return "one card ranking per decision"


def skill_ladder(vs_random: pd.DataFrame, won: pd.DataFrame | None = None) -> pd.DataFrame:
    """Every strategy's share of rounds against random fields, by tier (:data:`TIERS`), and
    each tier's step over the tier below.

    Parameters
    ----------
    vs_random : pandas.DataFrame
        Rows of :func:`pairing_row` of kind ``vs_random``.
    won : pandas.DataFrame, optional
        Round by round, whether each strategy's seat won (a column per strategy label, a row
        per round: :attr:`Tournament.won`). A tournament's pairings are played on the same
        deals (one seed), so two strategies' rounds are paired: with ``won`` a step is the
        mean of the paired differences, whose standard error is smaller than the independent
        one's by the correlation of the two seats' results on the same deals (measured: 0.5 to
        0.7 at 4 players, 0.2 to 0.35 at 2); without it, independent samples. Its columns
        must hold 0 or 1 a round, as many rounds and wins as ``vs_random`` says.

    Returns
    -------
    pandas.DataFrame
        One row per strategy, weakest tier first and within a tier the highest round share
        first: ``tier``, ``strategy``, ``budget``, ``players``, ``rounds``, ``round_share``,
        ``round_low``, ``round_high``, ``round_excess`` (share - 1/P), ``match_share``,
        ``match_low``, ``match_high``, ``best_in_tier`` (the tier's highest round share;
        never ``random``, whose tier is the fair share: a random seat named as a strategy is
        listed but is no rung); for a tier's best, the step over the best of the tier below
        that played (``random``: the fair share): ``step_over``, ``step`` (difference of the
        round shares), ``step_low``, ``step_high`` (95%) and ``step_test`` (``"paired"``,
        ``"independent"`` or ``"fair share"``, the Wilson interval less 1/P).
    """
    t = vs_random.reset_index(drop=True).copy()
    if not len(t):
        raise UserError("no pairing against a random field: no skill ladder")
    share = t["round_wins"] / t["rounds"]
    lo_hi = [wilson_interval(int(k), int(n)) for k, n in zip(t["round_wins"], t["rounds"])]
    out = pd.DataFrame(
        {
            "tier": [strategy_tier(s) for s in t["strategy"]],
            "strategy": t["strategy"],
            "budget": [bot_budget(s) for s in t["strategy"]],
            "players": t["players"].astype(int),
            "rounds": t["rounds"].astype(int),
            "round_share": share,
            "round_low": [x[0] for x in lo_hi],
            "round_high": [x[1] for x in lo_hi],
            "round_excess": share - 1.0 / t["players"],
            "match_share": t["match_wins"] / t["matches"].where(t["matches"] > 0),
        }
    )
    m = [
        wilson_interval(int(k), int(n)) if n else (math.nan, math.nan)
        for k, n in zip(t["match_wins"], t["matches"])
    ]
    out["match_low"], out["match_high"] = [x[0] for x in m], [x[1] for x in m]
    out["tier_rank"] = out["tier"].map(TIERS.index)
    out = (
        out.sort_values(["tier_rank", "round_share"], ascending=[True, False], kind="stable")
        .drop(columns="tier_rank")
        .reset_index(drop=True)
    )
    out["best_in_tier"] = ~out["tier"].duplicated() & (out["tier"] != "random")
    if won is not None:
        _check_won(won, t)
    _ladder_steps(out, won)
    return out


def _check_won(won: pd.DataFrame, vs_random: pd.DataFrame) -> None:
    """One-line :class:`UserError` unless every pairing's column of ``won`` holds 0 or 1 a
    round and adds up to the pairing's rounds and round wins."""
    for _, r in vs_random.iterrows():
        name = r["strategy"]
        if name not in won.columns:
            continue
        x = won[name].to_numpy()
        ok = (
            len(x) == int(r["rounds"])
            and bool(np.isin(x, (0, 1)).all())
            and int(np.sum(x)) == int(r["round_wins"])
        )
        if not ok:
            raise UserError(
                f"the round-by-round wins of {name!r} ({len(x)} rows) do not match "
                f"its pairing ({int(r['rounds'])} rounds, {int(r['round_wins'])} "
                f"won)"
            )


def _ladder_steps(lad: pd.DataFrame, won) -> None:
    """Fill the ``step_*`` columns of :func:`skill_ladder` in place."""
    for c in ("step_over", "step_test"):
        lad[c] = pd.Series([None] * len(lad), dtype=object)
    for c in ("step", "step_low", "step_high"):
        lad[c] = math.nan
    prev = None
    for i in lad.index[lad["best_in_tier"]]:
        r = lad.loc[i]
        if prev is None:
            fair = 1.0 / r["players"]
            lad.loc[i, ["step_over", "step_test"]] = ["random", "fair share"]
            lad.loc[i, ["step", "step_low", "step_high"]] = [
                r["round_share"] - fair,
                r["round_low"] - fair,
                r["round_high"] - fair,
            ]
        else:
            q = lad.loc[prev]
            a, b = r["strategy"], q["strategy"]
            if won is not None and a in won.columns and b in won.columns:
                d = won[a].to_numpy(float) - won[b].to_numpy(float)
                step, se, test = float(d.mean()), float(d.std(ddof=1) / math.sqrt(len(d))), "paired"
            else:
                step = float(r["round_share"] - q["round_share"])
                se = math.sqrt(
                    r["round_share"] * (1 - r["round_share"]) / r["rounds"]
                    + q["round_share"] * (1 - q["round_share"]) / q["rounds"]
                )
                test = "independent"
            lad.loc[i, ["step_over", "step_test"]] = [q["tier"], test]
            lad.loc[i, ["step", "step_low", "step_high"]] = [step, step - Z95 * se, step + Z95 * se]
        prev = i


# without ``tiers`` the figure is always there (no strategy but random's raises)
@overload
def skill_figure(vs_random: pd.DataFrame, tiers: None = None) -> dict: ...
@overload
def skill_figure(vs_random: pd.DataFrame, tiers: Sequence[str]) -> dict | None: ...
def skill_figure(vs_random: pd.DataFrame, tiers=None) -> dict | None:
    """The skill figure a designer can quote: the best strategy's share of rounds and of
    matches against a field of random bots, above the fair share 1/P, with 95% intervals.

    Parameters
    ----------
    vs_random : pandas.DataFrame
        Rows of :func:`pairing_row` of kind ``vs_random`` (columns ``strategy``,
        ``players``, ``rounds``, ``round_wins``, ``matches``, ``match_wins``); the best is the
        one with the highest round share.
    tiers : sequence of str, optional
        Only the strategies of these tiers (:data:`TIERS`), e.g. ``("cheap",)`` for the best
        cheap strategy; default every tier but ``random`` (a random seat against random
        fields measures nothing).

    Returns
    -------
    dict or None
        ``strategy``, ``tier``, ``budget`` (:func:`bot_budget`), ``players``,
        ``fair_share``; ``round_share``, ``round_low``, ``round_high`` and ``round_excess``
        (share - fair share) with ``round_excess_low`` / ``_high``; the same for ``match_``.
        None when ``tiers`` is given and no strategy of those tiers played.

    Raises
    ------
    UserError
        No pairing, or (``tiers`` not given) none but ``random``'s.
    """
    if len(vs_random) == 0:
        raise UserError("no pairing against a random field: nothing to measure skill by")
    t = vs_random.reset_index(drop=True)
    among = TIERS[1:] if tiers is None else tiers
    t = t[[strategy_tier(s) in among for s in t["strategy"]]].reset_index(drop=True)
    if not len(t):
        if tiers is None:
            raise UserError("only random played against random fields: nothing to measure skill by")
        return None
    share = t["round_wins"] / t["rounds"]
    b = t.loc[int(np.argmax(share.to_numpy()))]
    players = int(b["players"])
    fair = 1.0 / players
    out = {
        "strategy": b["strategy"],
        "tier": strategy_tier(b["strategy"]),
        "budget": bot_budget(b["strategy"]),
        "players": players,
        "fair_share": fair,
    }
    for unit, n, k in (
        ("round", b["rounds"], b["round_wins"]),
        ("match", b["matches"], b["match_wins"]),
    ):
        n, k = int(n), int(k)
        if n:
            lo, hi = wilson_interval(k, n)
            s = k / n
        else:
            lo = hi = s = math.nan
        out.update(
            {
                {"round": "rounds", "match": "matches"}[unit]: n,
                f"{unit}_share": s,
                f"{unit}_low": lo,
                f"{unit}_high": hi,
                f"{unit}_excess": s - fair,
                f"{unit}_excess_low": lo - fair,
                f"{unit}_excess_high": hi - fair,
            }
        )
    return out


def ladder_text(ladder: pd.DataFrame, legend: bool = True) -> str:
    """One sentence on whether the ladder random < cheap < tuned < search holds: each
    played tier's best against the best of the tier below it (:func:`skill_ladder`'s
    steps, 95% intervals); ``legend`` adds what the signs and figures mean."""
    best = ladder[ladder["best_in_tier"]]
    players = int(ladder["players"].iloc[0])
    steps, rels, rising, tests = [], [], True, set()
    for _, r in best.iterrows():
        rel = ">" if r["step_low"] > 0 else "<" if r["step_high"] < 0 else "~"
        rising &= bool(r["step"] > 0)
        rels.append(rel)
        tests.add(r["step_test"])
        steps.append(
            f"{r['tier']} ({r['strategy']}, {100 * r['round_share']:.1f}%) {rel} "
            f"{r['step_over']} by {100 * r['step']:+.1f} pp of rounds "
            f"[{100 * r['step_low']:+.1f}, {100 * r['step_high']:+.1f}]"
        )
    if not steps:
        return "Only random played: no ladder."
    if all(x == ">" for x in rels):
        head = "The ladder holds: "
    elif "<" in rels:
        head = "The ladder does not hold: "
    elif rising:
        head = "The ladder holds in the estimates, not every step separated at 95%: "
    else:
        head = "The ladder is not resolved: "
    if "paired" in tests:
        how = "each step over the tier below on the same deals (paired rounds)"
    elif "independent" in tests:
        how = "each step over the tier below as independent samples"
    else:
        how = "the step over the fair share"
    if not legend:
        return (
            head
            + "; ".join(steps)
            + (
                f" (steps {'paired' if 'paired' in tests else 'independent'})."
                if tests - {"fair share"}
                else "."
            )
        )
    return (
        head
        + "; ".join(steps)
        + (
            f" (shares of the rounds won against random fields; random: the fair share "
            f"{100 / players:.1f}%; pp: percentage points; {how}, 95% intervals; > and < where "
            f"the interval excludes 0, ~ where it does not)"
        )
    )
