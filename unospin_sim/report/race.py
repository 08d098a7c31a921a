"""The report's race section: per run its matches (played in the engine, or assembled from
consecutive rounds), their length, comebacks and how decisive an early lead is. Like every
section, it takes the :class:`~unospin_sim.report.context.Context`, adds its
blocks to ``ctx.body`` and its sentences to ``ctx.findings``, and writes its tables and charts
beside the report.
"""

from __future__ import annotations

import numpy as np

from ..analysis.stats import players_of
from ..errors import UserError
from .context import Context
from .doc import save_figure
from .render import chart_alt

__all__ = ["race_section"]


def race_section(ctx: Context) -> None:
    """The race to the target: per run its matches (played in the engine, or assembled
    from consecutive rounds), their length, comebacks and how decisive an early lead is."""
    import matplotlib.pyplot as plt

    from ..plots import plot_race_rounds

    body, target = ctx.body, ctx.target
    ctx.log(f"matches to {target} points")
    race_blocks, fig, ax, lead_curves, heats = [], None, None, [], []
    for i, (label, (rounds, _, meta, _)) in enumerate(ctx.runs.items()):
        in_engine = ctx.played[label]
        if in_engine is not None and meta.get("match") != "race":
            race_blocks.append(
                (
                    "p",
                    f"`{label}`: matches of mode {meta.get('match')!r} "
                    f"(see the summary command), not a race",
                )
            )
            continue
        got = _race_run(ctx, i, label, rounds, meta, in_engine, race_blocks)
        if got is None:
            continue
        matches, lead, heat = got
        if fig is None:
            fig, ax = plt.subplots(figsize=(6.5, 4))
        plot_race_rounds(matches, ax=ax, label=label)
        lead_curves.append((label, lead))
        heats.append((label, heat))
    if race_blocks:
        body.h(2, f"The race to {target} points (a match)")
        body.p(
            "Matches played in the engine (match mode) where a run did so; otherwise "
            "assembled from consecutive rounds with the deal passing clockwise."
        )
        for blk in race_blocks:
            body.p(blk[1]) if blk[0] == "p" else body.table(blk[1])
    if fig is not None:
        save_figure(fig, ctx.out, "race.png")
        body.figure(
            "race.png",
            "Share of matches decided within k rounds (cumulative, one "
            f"step curve per run). Reproduce: `{ctx.cmd}`",
            chart_alt("race.png", [label for label, _ in lead_curves]),
        )
    if lead_curves:
        _lead_chart(ctx, lead_curves)
    for j, (label, heat) in enumerate(heats):
        _lead_heat_chart(ctx, j, label, heat)


def _race_run(ctx: Context, i: int, label: str, rounds, meta, in_engine, race_blocks):
    """One run's matches: tables, blocks and findings; ``(matches, lead table, heat
    table)``, or None when the run's rounds make no matches (said in a block)."""
    from ..analysis import assemble_matches, race_summary
    from ..analysis.race import (
        lead_heat_table,
        lead_win_table,
        match_rounds,
        played_match_rounds,
        race_dynamics,
        with_round_wins,
    )

    out, target = ctx.out, ctx.target
    try:
        if in_engine is not None:  # matches played in the engine
            matches = with_round_wins(rounds, in_engine)
        else:
            matches = assemble_matches(
                rounds, target=target, bots=meta.get("bots"), rotated=bool(meta.get("rotate_bots"))
            )
        summ = race_summary(matches)
    except UserError as e:
        race_blocks.append(("p", f"`{label}`: {e}"))
        return None
    summ.to_csv(out / "tables" / f"race_{i}.csv")
    race_blocks.append(("p", f"`{label}`: {len(matches):,} matches"))
    race_blocks.append(("table", summ))
    mr = (
        played_match_rounds(rounds, in_engine)
        if in_engine is not None
        else match_rounds(
            rounds, target=target, bots=meta.get("bots"), rotated=bool(meta.get("rotate_bots"))
        )
    )
    dyn = race_dynamics(mr)
    lead = lead_win_table(mr)
    dyn.to_csv(out / "tables" / f"race_dynamics_{i}.csv")
    lead.to_csv(out / "tables" / f"race_lead_{i}.csv")
    heat = lead_heat_table(mr)
    heat.to_csv(out / "tables" / f"race_lead_heat_{i}.csv", index=False)
    race_blocks.append(
        (
            "p",
            "Round by round: comeback rate (the match winner trailed by "
            ">= 100 points after some round), lead changes, rounds and "
            "turns per match, the first player's edge over a whole "
            "match (player 0 starts round 1; minus a fair share).",
        )
    )
    race_blocks.append(("table", dyn))
    race_blocks.append(
        (
            "p",
            "P(the sole leader after round k wins the match), among "
            "matches still running after round k:",
        )
    )
    race_blocks.append(("table", lead))
    d1 = lead.loc[1]
    cb = dyn.loc["comeback_rate"]
    if d1.n > 0:
        fair = 1.0 / players_of(rounds)
        ctx.answer(
            "race",
            float(d1.p_leader_wins - fair),
            d1.low > fair or d1.high < fair,
            f"in `{label}` the leader after the first round wins the match "
            f"{d1.p_leader_wins:.0%} of the time [{d1.low:.0%}, {d1.high:.0%}], "
            f"against {fair:.0%} for a lead that meant nothing.",
        )
    lead_text = (
        f"the leader after the first round wins the match "
        f"{d1.p_leader_wins:.0%} of the time [{d1.low:.0%}, {d1.high:.0%}]; "
        if d1.n > 0
        else ""
    )
    ctx.findings.append(
        f"`{label}`: {lead_text}"
        f"{cb.value:.0%} of matches [{cb.low:.0%}, {cb.high:.0%}] are won by a player who "
        f"trailed by 100 points or more; a match lasts "
        f"{dyn.loc['turns_per_match', 'value']:.0f} turns "
        f"[{dyn.loc['turns_per_match', 'low']:.0f}, "
        f"{dyn.loc['turns_per_match', 'high']:.0f}]."
    )
    s = summ
    ctx.findings.append(
        f"`{label}`: a match to {meta.get('target', target)} points lasts "
        f"{s.loc['rounds_per_match', 'value']:.2f} rounds "
        f"[{s.loc['rounds_per_match', 'low']:.2f}, {s.loc['rounds_per_match', 'high']:.2f}]; "
        f"in {s.loc['p_winner_not_most_rounds', 'value']:.0%} of matches "
        f"[{s.loc['p_winner_not_most_rounds', 'low']:.0%}, "
        f"{s.loc['p_winner_not_most_rounds', 'high']:.0%}] the match winner won fewer "
        "rounds than another player."
    )
    return matches, lead, heat


def _lead_chart(ctx: Context, lead_curves) -> None:
    """Is an early lead decisive? One curve per run."""
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.5, 4))
    for label, lead in lead_curves:
        ok = lead["n"] > 0
        ax.errorbar(
            lead.index[ok],
            100 * lead.loc[ok, "p_leader_wins"],
            yerr=100
            * np.clip(
                np.nan_to_num(
                    np.vstack(
                        [
                            lead.loc[ok, "p_leader_wins"] - lead.loc[ok, "low"],
                            lead.loc[ok, "high"] - lead.loc[ok, "p_leader_wins"],
                        ]
                    )
                ),
                0,
                None,
            ),
            fmt="o-",
            capsize=3,
            label=label,
        )
    ax.set_xlabel("round of the match (k)")
    ax.set_ylabel("leader after round k wins the match (%)")
    ax.set_title("Is an early lead decisive? (95% intervals)", fontsize=10)
    ax.legend(frameon=False, fontsize=7)
    save_figure(fig, ctx.out, "race_lead.png")
    ctx.body.figure(
        "race_lead.png",
        "P(the sole leader after round k wins the match), 95% "
        f"Wilson intervals. Reproduce: `{ctx.cmd}`",
        chart_alt("race_lead.png", [label for label, _ in lead_curves]),
    )


def _lead_heat_chart(ctx: Context, j: int, label: str, heat) -> None:
    """A run's lead heat map: P(the leader wins the match) by round and lead."""
    import matplotlib.pyplot as plt

    from ..plots import plot_lead_heatmap

    fig, ax = plt.subplots(figsize=(7, 4))
    plot_lead_heatmap(heat, ax=ax)
    ax.set_title(f"{label}: the leader wins the match (%)", fontsize=9)
    save_figure(fig, ctx.out, f"race_heat_{j}.png")
    ctx.body.figure(
        f"race_heat_{j}.png",
        f"`{label}`: P(the sole leader after round k wins "
        "the match) by the lead over second place (percent; blank: fewer than 30 "
        "matches; intervals in tables/race_lead_heat_*.csv). Reproduce: "
        f"`{ctx.cmd}`",
        chart_alt(f"race_heat_{j}.png", [label]),
    )
