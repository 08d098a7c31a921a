"""The report's sections on each run's rounds: what was read (``runs_section``), balance per
round (length, first-player advantage, seat equality, winner points, jump-ins, every run
against the first) and the round win rate per seat (``seats_section``).
"""

from __future__ import annotations

import math

import numpy as np

from ..analysis.stats import mean_interval
from .context import Context, bots_label, mixed_unrotated
from .doc import format_p, pp, ratio_interval, save_figure, with_ci
from .render import chart_alt

__all__ = ["balance_section", "runs_section", "seats_section"]


def runs_section(ctx: Context) -> None:
    """What was read: one line per run (a labelled run's full rule string here, once)."""
    ctx.body.h(2, "Runs")
    items = []
    for label, (rounds, _, meta, d) in ctx.runs.items():
        flag = (
            " **Mixed bots without rotation: seat figures measure the bots, not the "
            "seats; they are left out.**"
            if mixed_unrotated(meta)
            else ""
        )
        rules = (
            ""  # the label is the rule string and bots
            if label.startswith(str(meta.get("rules")))
            else f"rules `{meta.get('rules')}`, bots `{bots_label(meta)}`, "
        )
        items.append(
            f"`{label}`: {rules}{len(rounds):,} rounds, seed {meta.get('seed')}, from "
            f"`{d}` (version {meta.get('version')}){flag}"
        )
    ctx.body.ul(items)


def balance_section(ctx: Context) -> None:
    """Per round: length, first-player advantage, seat equality, winner points; jump-ins;
    every run's length and winner points against the first run's."""
    import matplotlib.pyplot as plt

    from ..analysis import balance_table
    from ..plots import plot_balance, plot_turns

    runs, body, out = ctx.runs, ctx.body, ctx.out
    bal = balance_table({k: v[0] for k, v in runs.items()})
    bal.to_csv(out / "tables" / "balance.csv")
    shown = bal.rename(columns={"games": "rounds"}).copy()
    shown["seat_equality_p"] = [format_p(p) for p in shown["seat_equality_p"]]
    for label, (_, _, meta, _) in runs.items():
        if mixed_unrotated(meta):
            for c in (
                "first_player_advantage",
                "first_player_advantage_low",
                "first_player_advantage_high",
                "seat_spread",
            ):
                shown.loc[label, c] = np.nan
            shown.loc[label, "seat_equality_p"] = "mixed bots"
    body.h(2, "Balance, per round")
    body.p(
        "First-player advantage: round win rate of the player who acts first (whoever takes "
        "the first turn after the first card's effect: seat 0 unless the first card is a "
        "Skip, Reverse or Draw Two) minus a fair share, in percentage points (pp); seat by "
        "seat under 'Does the seat matter?'. Seat spread: the best seat's round win rate "
        "minus the worst seat's, in pp. Seat equality p: chi-square test that every seat "
        "wins equally often (p below 1e-6 shown as < 1e-6). Every interval is 95%."
    )
    shown["seat_spread"] = (100.0 * shown["seat_spread"]).round(2)
    body.table(
        with_ci(
            shown,
            {"mean_turns", "first_player_advantage", "mean_winner_points"},
            scale={"first_player_advantage": 100.0},
        ).rename(
            columns={
                "first_player_advantage": "first_player_advantage (pp)",
                "seat_spread": "seat_spread (pp)",
            }
        )
    )
    fair = bal.drop([k for k, v in runs.items() if mixed_unrotated(v[2])])
    fig, axes = plt.subplots(1, 2, figsize=(12, max(3.5, 0.6 * len(runs) + 2.5)))
    if len(fair):
        plot_balance(fair, ax=axes[0])
    else:
        axes[0].text(
            0.5,
            0.5,
            "no run with equal (or rotated) bots",
            ha="center",
            transform=axes[0].transAxes,
        )
    for label, (rounds, *_rest) in runs.items():
        plot_turns(rounds, ax=axes[1], label=label)
    save_figure(fig, out, "balance.png")
    body.figure(
        "balance.png",
        "Left: first-player advantage in percentage points with 95% "
        "intervals (runs with mixed, unrotated bots left out). Right: turns per round "
        f"(density per turn). Reproduce: `{ctx.cmd}`",
        chart_alt("balance.png", list(runs)),
    )

    for label, (_rounds, _, meta, _) in runs.items():
        if mixed_unrotated(meta):
            continue
        b = bal.loc[label]
        lo_, hi_ = b.first_player_advantage_low, b.first_player_advantage_high
        verdict = "an edge" if lo_ > 0 else "a handicap" if hi_ < 0 else "no detectable edge"
        ctx.findings.append(
            f"`{label}`: a round lasts {b.mean_turns:.1f} turns on average "
            f"[{b.mean_turns_low:.1f}, {b.mean_turns_high:.1f}]; the round win rate of the "
            f"player who acts first is {pp(b.first_player_advantage)} percentage points off a "
            f"fair share [{pp(lo_)}, {pp(hi_)}]: {verdict}{_seat0_aside(_rounds)}."
        )
        ctx.answer("length", None, True, _length_answer(label, b, _rounds["turns"]))
        ctx.answer(
            "seat",
            b.first_player_advantage,
            lo_ > 0 or hi_ < 0,
            f"in `{label}` the round win rate of the player who acts first is "
            f"{pp(b.first_player_advantage)} percentage points off a fair share "
            f"[{pp(lo_)}, {pp(hi_)}]: {verdict}{_seat0_aside(_rounds)}.",
        )
    _jump_ins(ctx)
    _against_the_first(ctx)


def _seat0_aside(rounds) -> str:
    """Where the player who acts first is not always seat 0: seat 0's figure beside it and
    why they differ (empty when they agree, and in a match run, whose rows are players)."""
    from ..analysis import first_player_table

    t = first_player_table(rounds)
    moved = t.attrs["moved"]
    if "seat 0" not in t.index or not moved > 0:
        return ""
    s0 = t.loc["seat 0"]
    return (
        f" (seat 0, left of the dealer: {pp(s0.edge)} [{pp(s0.low - s0.fair)}, "
        f"{pp(s0.high - s0.fair)}]; a first Skip, Reverse or Draw Two made another player act "
        f"first in {moved:.1%} of rounds)"
    )


def _length_answer(label: str, b, turns) -> str:
    """The Answers' line on round length: mean turns, the share of rounds past 100 and 150
    turns and minutes at the assumed seconds a turn."""
    from ..analysis.verdict import SECONDS_PER_TURN

    t = turns.to_numpy()
    over = [100.0 * (t > cut).mean() if len(t) else float("nan") for cut in (100, 150)]
    f = SECONDS_PER_TURN / 60.0
    return (
        f"`{label}`: {b.mean_turns:.1f} turns per round "
        f"[{b.mean_turns_low:.1f}, {b.mean_turns_high:.1f}], {over[0]:.1f}% of rounds past "
        f"100 turns and {over[1]:.1f}% past 150; about {b.mean_turns * f:.1f} minutes at "
        f"{SECONDS_PER_TURN:g} s a turn (an assumption, not measured)."
    )


def _jump_ins(ctx: Context) -> None:
    """House rule jump_in: jump-ins per round (not turns: they come on top of the turns)."""
    jumps = []
    for label, (rounds, *_rest) in ctx.runs.items():
        if "jump_ins" in rounds.columns:
            m, lo, hi = mean_interval(rounds["jump_ins"].to_numpy())
            jumps.append(
                f"`{label}`: {m:.2f} jump-ins per round [{lo:.2f}, {hi:.2f}] (house "
                f"rule jump_in; a jump-in is not a turn, so these come on top of the "
                f"{rounds['turns'].mean():.1f} turns)."
            )
    if jumps:
        ctx.body.h(3, "Jump-ins")
        ctx.body.ul(jumps)
        ctx.findings += jumps


def _against_the_first(ctx: Context) -> None:
    """Every later run's round length and winner points as a ratio to the first run's."""
    labels = list(ctx.runs)
    for other in labels[1:]:
        a_r, b_r = ctx.runs[other][0], ctx.runs[labels[0]][0]
        r, lo, hi = ratio_interval(a_r["turns"], b_r["turns"])
        if math.isfinite(r):
            word = "longer" if r >= 1 else "shorter"
            text = (
                f"`{other}` rounds are {abs(r - 1):.0%} {word} than `{labels[0]}` rounds "
                f"(change in mean turns per round {r - 1:+.0%} [{lo - 1:+.0%}, "
                f"{hi - 1:+.0%}])."
            )
            ctx.findings.append(text)
            ctx.answer("length", r - 1, lo > 1 or hi < 1, text)
        wa = a_r.loc[a_r["winner"] >= 0, "winner_points"]
        wb = b_r.loc[b_r["winner"] >= 0, "winner_points"]
        r, lo, hi = ratio_interval(wa, wb)
        if math.isfinite(r):
            ctx.findings.append(
                f"The winner of a `{other}` round scores {r:.2f} times the points of a "
                f"`{labels[0]}` round winner [{lo:.2f}, {hi:.2f}]."
            )


def seats_section(ctx: Context) -> None:
    """Round win rate of the player who acts first and of each seat in seat order (each
    player, in a match run), runs with equal or rotated bots; where the two differ, why."""
    import matplotlib.pyplot as plt

    from ..analysis import first_player_table
    from ..plots import plot_seat_win_rates

    body = ctx.body
    body.h(2, "Does the seat matter? (per round)")
    fig, ax = plt.subplots(figsize=(6.5, 4))
    drawn = []
    for i, (label, (rounds, _, meta, _)) in enumerate(ctx.runs.items()):
        if mixed_unrotated(meta):
            body.p(
                f"`{label}`: left out (mixed bots without rotation: the seat figures would "
                "measure the bots)."
            )
            continue
        seats = first_player_table(rounds)
        seats.to_csv(ctx.out / "tables" / f"seats_{i}.csv")
        plot_seat_win_rates(seats, ax=ax, label=label)
        drawn.append(label)
        body.p(f"`{label}`: {seats.attrs['note']}")
        body.table(seats)
    save_figure(fig, ctx.out, "seats.png")
    if drawn:
        body.figure(
            "seats.png",
            "Round win rate of the player who acts first (left), then per seat in seat "
            "order (per player in a match run), with 95% Wilson intervals; dashed: "
            f"fair share. Reproduce: `{ctx.cmd}`",
            chart_alt("seats.png", drawn),
        )
