"""The report's wheel section, per run with a wheel: the wheel drawn, the absolute effects of
its spaces (paired replays against a blank space), their relative swing, and the catch-up
index.
"""

from __future__ import annotations

import shlex
import textwrap

from .context import Context
from .doc import pp, save_figure, with_ci
from .render import chart_alt

__all__ = ["wheel_section"]


def wheel_section(ctx: Context) -> None:
    """Per run with a wheel: the wheel drawn, the absolute effects of its spaces (paired
    replays), their relative swing, and the catch-up index."""
    import matplotlib.pyplot as plt

    from ..analysis import space_effects
    from ..plots import plot_space_effects

    body, out = ctx.body, ctx.out
    for i, (label, (rounds, spins, meta, _d)) in enumerate(ctx.runs.items()):
        if spins is None or spins.empty:
            if (
                isinstance(meta.get("tables"), list)
                and "spins" not in meta["tables"]
                and str(meta.get("rules", "")).startswith("spin")
            ):
                body.h(2, f"Wheel spaces of `{label}`")
                body.p(
                    "Not analysed: this run was written without its spin table "
                    "(`run --no-spins` or `--tables rounds`); run it again with the spin "
                    "table for the wheel's figures."
                )
            continue
        ctx.log(f"wheel spaces of {label}")
        eff = space_effects(rounds, spins)
        eff.to_csv(out / "tables" / f"wheel_{i}.csv")
        body.h(2, f"Wheel spaces of `{label}`")
        _drawn_wheel(ctx, i, label, meta)
        matches = ctx.played.get(label) is not None  # a run of matches
        replayed = ctx.wheel_games > 0 and meta.get("games", 0) > 0 and not matches
        if replayed:
            _absolute_effects(ctx, i, label, meta)
        elif ctx.wheel_games > 0 and matches:
            body.p(
                "No paired replays: this run played matches, and the replays are of "
                "single rounds (`python -m unospin_sim wheel` with the same rules without "
                "`match` measures the spaces' absolute effects)."
            )
        body.h(3, "Relative swing (observational, against the rest of the wheel)")
        body.p(
            "Swing: the spinner's round win rate after landing on the space minus after "
            "landing on any OTHER space, percentage points. It is relative to the mix of "
            "the other spaces (reweighting them changes it), so it is not the space's own "
            "effect; the paired replays above are."
        )
        body.table(
            with_ci(
                eff[
                    [
                        "spins",
                        "per_round",
                        "per_round_low",
                        "per_round_high",
                        "swing",
                        "swing_low",
                        "swing_high",
                        "hand_change",
                        "hand_change_low",
                        "hand_change_high",
                    ]
                ],
                {"per_round", "swing", "hand_change"},
                scale={"swing": 100.0},
            )
        )
        if not replayed:
            _swing_answer(ctx, label, eff)
        fig, axes = plt.subplots(1, 2, figsize=(13, 4.5))
        plot_space_effects(eff, ax=axes[0], metric="swing")
        plot_space_effects(eff, ax=axes[1], metric="hand_change")
        # a long rule string (a custom wheel, a variant's spaces) on lines of its own
        fig.suptitle("\n".join(textwrap.wrap(label, 150, break_on_hyphens=False)), fontsize=9)
        save_figure(fig, out, f"wheel_{i}.png")
        body.figure(
            f"wheel_{i}.png",
            "Left: relative swing (percentage points, 95% "
            "intervals cluster-robust by round). Right: change of the spinner's hand "
            f"size per spin. Reproduce: `{ctx.cmd}`",
            chart_alt(f"wheel_{i}.png", [label]),
        )
        if "leader" in spins.columns:
            _catch_up(ctx, i, label, spins)


def _drawn_wheel(ctx: Context, i: int, label: str, meta: dict) -> None:
    """The run's wheel drawn (``plots.plot_wheel``), with its slot layout as text; a wheel
    that cannot be drawn is said so in one line."""
    import matplotlib.pyplot as plt

    from ..errors import UserError
    from ..plots import LAYOUT_RULE, format_slots, plot_wheel, wheel_slots
    from ..rules import parse_rules

    try:
        rules = parse_rules(meta["rules"])
        slots = wheel_slots(rules.option("wheel"))
    except (UserError, KeyError) as e:
        ctx.body.p(f"The wheel is not drawn: {e}.")
        return
    fig, ax = plt.subplots(figsize=(9, 9.5))
    plot_wheel(rules, ax=ax)
    save_figure(fig, ctx.out, f"wheel_drawn_{i}.png")
    ctx.body.figure(
        f"wheel_drawn_{i}.png",
        f"{format_slots(slots)} ({LAYOUT_RULE}). Draw it as SVG and PNG: "
        f"`python -m unospin_sim wheel --rules {shlex.quote(str(rules))} --draw wheel`",
        chart_alt(f"wheel_drawn_{i}.png", [label]),
    )


def _luck(ctx: Context, label: str, rep) -> None:
    """The wheel's luck (analysis.luck): a paragraph and the luck question's answer."""
    from ..analysis.luck import wheel_luck
    from ..analysis.stats import format_interval

    luck = wheel_luck(rep)
    text = format_interval(luck["luck"], luck["low"], luck["high"], digits=3)
    ctx.body.p(
        f"Wheel luck: {text} percentage points of round-win chance, the standard deviation "
        "of the spaces' effects on the spinner over the wheel's segments (0 when every "
        "space does the same to the spinner; 95% bootstrap interval over rounds)."
    )
    ctx.answer(
        "luck",
        luck["luck"],
        luck["low"] > 0,
        f"where the `{label}` wheel stops moves the spinner's chance to win the round by "
        f"{text} percentage points (standard deviation over the wheel's segments; its "
        f"spaces' mean effect on the spinner is {pp(luck['mean'] / 100)} points).",
    )


def _swing_answer(ctx: Context, label: str, eff) -> None:
    """Without paired replays the wheel's headline is the largest relative swing."""
    sw = eff["swing"].dropna()
    if not len(sw):
        return
    s = sw.abs().idxmax()
    e = eff.loc[s]
    ctx.answer(
        "wheel",
        float(e["swing"]),
        e["swing_low"] > 0 or e["swing_high"] < 0,
        f"on the `{label}` wheel, a spinner landing on `{s}` wins the round "
        f"{pp(e['swing'])} percentage points more often than one landing elsewhere "
        f"[{pp(e['swing_low'])}, {pp(e['swing_high'])}] (relative swing, "
        "observational: no paired replays in this report).",
    )


def _absolute_effects(ctx: Context, i: int, label: str, meta: dict) -> None:
    """The paired replays of a run's spins against a blank space: table, chart, findings."""
    import matplotlib.pyplot as plt

    from ..analysis.wheel_effects import wheel_effects
    from ..bots import saved_bots
    from ..plots import plot_wheel_effects
    from ..run import Execution, RunSpec, replay_spins

    body, out = ctx.body, ctx.out
    games = int(min(ctx.wheel_games, meta.get("games", ctx.wheel_games)))
    ctx.log(f"replaying the spins of {games:,} rounds of {label}")
    played_bots = saved_bots(meta["bots"])  # as the run played them
    spec = RunSpec.build(
        meta["rules"],
        played_bots,
        games,
        int(meta.get("seed", 0)),
        rotate_bots=bool(meta.get("rotate_bots")),
    )
    rep = replay_spins(spec, execution=Execution(threads=ctx.threads))
    absolute = wheel_effects(rep)
    absolute.to_csv(out / "tables" / f"space_effects_{i}.csv", index=False)
    wcmd = (
        f"python -m unospin_sim wheel --rules {shlex.quote(meta['rules'])} "
        f"--bots {shlex.quote(','.join(played_bots))} --games {games} "
        f"--seed {meta.get('seed', 0)}"
        + (" --rotate-bots" if meta.get("rotate_bots") else "")
        + f" --out {shlex.quote(str(out / 'wheel'))}"
    )
    body.h(3, "Absolute effects (paired replays against a blank space)")
    body.p(
        f"{rep.attrs['spins']:,} spins of the first {games:,} rounds, each replayed "
        "once per space and once with a blank space (`none`: the spin happens, "
        "nothing else), the round before the spin identical. Effect: change in the "
        "chance to win the round, percentage points, 95% interval cluster-robust by "
        "round; points: change in the points that seat scores; turns: change in "
        "the round's length."
    )
    t = absolute.set_index(["space", "who"])[
        [
            "effect",
            "low",
            "high",
            "points",
            "points_low",
            "points_high",
            "turns",
            "turns_low",
            "turns_high",
        ]
    ]
    body.table(
        with_ci(
            t.rename(columns={"low": "effect_low", "high": "effect_high"}),
            {"effect", "points", "turns"},
            digits=3,
            scale={"effect": 100.0},
        )
    )
    fig, ax = plt.subplots(figsize=(7, 0.35 * len(t) / 4 + 3))
    plot_wheel_effects(absolute, ax=ax)
    save_figure(fig, out, f"wheel_effects_{i}.png")
    body.figure(
        f"wheel_effects_{i}.png",
        "Change in the spinner's chance to win the "
        "round against a blank space, percentage points, 95% intervals. "
        f"Reproduce: `{wcmd}`",
        chart_alt(f"wheel_effects_{i}.png", [label]),
    )
    _luck(ctx, label, rep)
    sp = absolute[absolute["who"] == "spinner"].set_index("space")
    best, worst = sp["effect"].idxmax(), sp["effect"].idxmin()
    null = [s for s in sp.index if sp.loc[s, "low"] <= 0 <= sp.loc[s, "high"]]
    for s in (best, worst):
        e = sp.loc[s]
        ctx.answer(
            "wheel",
            float(e["effect"]),
            e["low"] > 0 or e["high"] < 0,
            f"on the `{label}` wheel, `{s}` changes the spinner's chance to win the "
            f"round by {pp(e['effect'])} percentage points [{pp(e['low'])}, "
            f"{pp(e['high'])}] against a blank space.",
        )
    ctx.findings.append(
        f"`{label}` wheel, against a blank space: `{best}` helps the spinner most "
        f"({pp(sp.loc[best, 'effect'])} percentage points of round-win chance "
        f"[{pp(sp.loc[best, 'low'])}, {pp(sp.loc[best, 'high'])}]), `{worst}` hurts "
        f"most ({pp(sp.loc[worst, 'effect'])} [{pp(sp.loc[worst, 'low'])}, "
        f"{pp(sp.loc[worst, 'high'])}])"
        + (f"; no detectable effect: {', '.join(f'`{s}`' for s in null)}." if null else ".")
    )
    oth = absolute[absolute["who"] == "other"]
    if len(oth):
        o = oth.loc[oth["effect"].abs().idxmax()]
        ctx.findings.append(
            f"`{label}`: the space with the largest effect on its other party is "
            f"`{o['space']}` ({pp(o['effect'])} percentage points "
            f"[{pp(o['low'])}, {pp(o['high'])}] for that player)."
        )


def _catch_up(ctx: Context, i: int, label: str, spins) -> None:
    """Does the wheel help whoever is behind? The catch-up index of a run's spaces."""
    from ..analysis import catch_up_table

    body = ctx.body
    cu = catch_up_table(spins)
    cu.to_csv(ctx.out / "tables" / f"catch_up_{i}.csv")
    body.h(3, "Does the wheel help whoever is behind? (catch-up index)")
    body.p(
        "The change in the spinner's hand (cards) when the spinner trails at the "
        "spin (another seat alone holds the fewest cards) and when it leads; "
        "catch-up index: the leader's change minus the trailing spinner's, in "
        "cards (> 0: the space does a trailing spinner more good than a leading "
        "one, so it closes gaps). Spins at a tie for the lead are left out; `all` "
        "is the wheel as a whole."
    )
    body.table(with_ci(cu, {"catch_up"}, digits=3))
    a = cu.loc["all"]
    if a["catch_up"] == a["catch_up"]:
        verdict = (
            "closes gaps"
            if a["catch_up_low"] > 0
            else "widens gaps"
            if a["catch_up_high"] < 0
            else "neither closes nor widens gaps detectably"
        )
        per = cu.drop(index="all")["catch_up"].dropna()
        most = (
            f"; most of all `{per.idxmax()}` ({per.max():+.2f} cards)"
            if len(per) and verdict == "closes gaps"
            else ""
        )
        ctx.findings.append(
            f"`{label}`: the wheel as a whole {verdict}: catch-up index "
            f"{a['catch_up']:+.2f} cards [{a['catch_up_low']:+.2f}, "
            f"{a['catch_up_high']:+.2f}] per spin (a trailing spinner's hand change "
            f"against a leading one's){most}."
        )
