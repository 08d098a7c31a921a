"""The report's sections, in the order they appear: the runs, balance per round, side by side,
seats, wheel spaces (the race to the target: ``race.py``). Each takes the :class:`Context` (the runs and
where the report goes), adds its blocks to ``ctx.body`` and its sentences to
``ctx.findings``, and writes its tables and charts beside the report.
"""

from __future__ import annotations

import math
import shlex
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..analysis.stats import mean_interval
from .doc import Doc, format_p, pp, ratio_interval, save_figure, with_ci

__all__ = [
    "QUESTIONS",
    "Answer",
    "Context",
    "balance_section",
    "bots_label",
    "editions_section",
    "headline",
    "mixed_unrotated",
    "runs_section",
    "seats_section",
    "side_by_side_section",
    "wheel_section",
]

#: the questions the report answers first, in order: key -> (question, what answers it when
#: this report cannot)
QUESTIONS = {
    "length": ("How long is a round?", ""),
    "seat": ("Does the seat matter?", "needs a run with equal (or rotated) bots"),
    "wheel": (
        "Which wheel space swings a round most?",
        "needs a run with a wheel and its spin table",
    ),
    "race": (
        "Is an early lead decisive in the race to the target?",
        "needs runs whose rounds make matches",
    ),
    "skill": ("How much of the game is skill?", "needs tournaments: report --skill DIR ..."),
    "editions": ("2005 against 2025", "needs a spin2005 and a spin2025 run"),
}


@dataclass(frozen=True)
class Answer:
    """A candidate headline: ``size`` is the effect's magnitude in its question's unit
    (None: a level, not an effect, used only when the question has no effect), ``clear``
    whether its 95% interval excludes no effect, ``text`` the finding."""

    question: str
    size: float | None
    clear: bool
    text: str


@dataclass
class Context:
    """What every section reads and writes.

    ``runs``: label -> ``(rounds, spins, meta, directory)``; ``played``: label -> the match
    table of a run that played matches in the engine, else None; ``cmd``: the command that
    reproduces the report; ``body`` and ``findings``: what the sections add.
    """

    runs: dict
    played: dict
    out: Path
    cmd: str
    target: int
    log: Callable[[str], None]
    wheel_games: int
    threads: int | None
    body: Doc
    findings: list = field(default_factory=list)
    answers: list = field(default_factory=list)

    def answer(self, question: str, size: float | None, clear: bool, text: str) -> None:
        """Offer ``text`` as a headline answer to ``question`` (a key of QUESTIONS)."""
        assert question in QUESTIONS, question
        self.answers.append(Answer(question, size, bool(clear), text))


def headline(answers) -> list[str]:
    """One line per question of QUESTIONS: the largest effect whose 95% interval excludes no
    effect; without one, that no effect is distinguishable (and the largest seen); a level
    (``size`` None) only where the question has no effect at all."""
    lines = []
    for key, (question, missing) in QUESTIONS.items():
        cands = [a for a in answers if a.question == key]
        effects = [a for a in cands if a.size is not None]
        clear = [a for a in effects if a.clear]
        if clear:
            text = max(clear, key=lambda a: abs(a.size)).text
        elif effects:
            text = (
                "no effect distinguishable from none at 95%; the largest seen: "
                + max(effects, key=lambda a: abs(a.size)).text
            )
        elif cands:
            text = cands[0].text
        else:
            text = f"not measured here ({missing})."
        lines.append(f"**{question}** {text}")
    return lines


def bots_label(meta) -> str:
    """The bots of a run in a label: one strategy, or the comma list."""
    bots = meta.get("bots", [])
    if len(set(bots)) == 1:
        return bots[0]
    return ",".join(bots)


def mixed_unrotated(meta) -> bool:
    """Whether a run seated different bots without rotating them (its seat figures would
    measure the bots, not the seats)."""
    return len(set(meta.get("bots", []))) > 1 and not meta.get("rotate_bots")


def runs_section(ctx: Context) -> None:
    """What was read: one line per run."""
    ctx.body.h(2, "Runs")
    items = []
    for label, (rounds, _, meta, d) in ctx.runs.items():
        flag = (
            " **Mixed bots without rotation: seat figures measure the bots, not the "
            "seats; they are left out.**"
            if mixed_unrotated(meta)
            else ""
        )
        items.append(
            f"`{label}`: {len(rounds):,} rounds, seed {meta.get('seed')}, from "
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
        "First-player advantage: round win rate of the seat that acts first minus a fair "
        "share, in percentage points (pp). Seat spread: the best seat's round win rate "
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
    )

    for label, (_rounds, _, meta, _) in runs.items():
        if mixed_unrotated(meta):
            continue
        b = bal.loc[label]
        lo_, hi_ = b.first_player_advantage_low, b.first_player_advantage_high
        verdict = "an edge" if lo_ > 0 else "a handicap" if hi_ < 0 else "no detectable edge"
        ctx.findings.append(
            f"`{label}`: a round lasts {b.mean_turns:.1f} turns on average "
            f"[{b.mean_turns_low:.1f}, {b.mean_turns_high:.1f}]; the first player's round win "
            f"rate is {pp(b.first_player_advantage)} percentage points off a fair share "
            f"[{pp(lo_)}, {pp(hi_)}]: {verdict}."
        )
        ctx.answer(
            "length",
            None,
            True,
            f"`{label}`: {b.mean_turns:.1f} turns per round "
            f"[{b.mean_turns_low:.1f}, {b.mean_turns_high:.1f}].",
        )
        ctx.answer(
            "seat",
            b.first_player_advantage,
            lo_ > 0 or hi_ < 0,
            f"in `{label}` the first player's round win rate is "
            f"{pp(b.first_player_advantage)} percentage points off a fair share "
            f"[{pp(lo_)}, {pp(hi_)}]: {verdict}.",
        )
    _jump_ins(ctx)
    _against_the_first(ctx)


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


def side_by_side_section(ctx: Context) -> None:
    """Differences of every run from the first (runs with equal or rotated bots), and which
    of them hold under every other run."""
    if len(ctx.runs) <= 1:
        return
    from ..analysis import difference_table, sensitivity_table

    body, out, target = ctx.body, ctx.out, ctx.target
    fair_runs = {k: v[0] for k, v in ctx.runs.items() if not mixed_unrotated(v[2])}
    if len(fair_runs) <= 1:
        return
    diff = difference_table(fair_runs, target=target)
    diff.to_csv(out / "tables" / "differences.csv")
    first = list(fair_runs)[0]
    body.h(2, f"Side by side: every run minus `{first}`")
    body.p(
        "Differences with 95% intervals (independent samples). First-player "
        "measures are shares (0.01 = 1 percentage point); match measures come "
        f"from races to {target} assembled from the rounds. holds: +1 clearly "
        "higher, -1 clearly lower, 0 not distinguishable."
    )
    body.table(diff)
    if len(fair_runs) > 2:
        sens = sensitivity_table(diff)
        sens.to_csv(out / "tables" / "sensitivity.csv")
        body.p(f"Which differences from `{first}` hold under every other run:")
        body.table(sens)
        held = [m for m, v in sens["verdict"].items() if v.startswith("holds")]
        flips = [m for m, v in sens["verdict"].items() if v == "flips"]
        ctx.findings.append(
            f"Against `{first}`, these differences hold in every other run: "
            f"{', '.join(held) or 'none'}; these flip direction: "
            f"{', '.join(flips) or 'none'}."
        )


def seats_section(ctx: Context) -> None:
    """Round win rate per seat (runs with equal or rotated bots)."""
    import matplotlib.pyplot as plt

    from ..analysis import seat_win_rates
    from ..plots import plot_seat_win_rates

    body = ctx.body
    body.h(2, "Does the seat matter? (per round)")
    fig, ax = plt.subplots(figsize=(6.5, 4))
    drawn = False
    for i, (label, (rounds, _, meta, _)) in enumerate(ctx.runs.items()):
        if mixed_unrotated(meta):
            body.p(
                f"`{label}`: left out (mixed bots without rotation: the seat figures would "
                "measure the bots)."
            )
            continue
        seats = seat_win_rates(rounds)
        seats.to_csv(ctx.out / "tables" / f"seats_{i}.csv")
        plot_seat_win_rates(seats, ax=ax, label=label)
        drawn = True
        body.p(f"`{label}`")
        body.table(seats)
    save_figure(fig, ctx.out, "seats.png")
    if drawn:
        body.figure(
            "seats.png",
            "Round win rate per seat with 95% Wilson intervals; dashed: "
            f"fair share. Reproduce: `{ctx.cmd}`",
        )


def wheel_section(ctx: Context) -> None:
    """Per run with a wheel: the absolute effects of its spaces (paired replays), their
    relative swing, and the catch-up index."""
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
        fig.suptitle(label, fontsize=9)
        save_figure(fig, out, f"wheel_{i}.png")
        body.figure(
            f"wheel_{i}.png",
            "Left: relative swing (percentage points, 95% "
            "intervals cluster-robust by round). Right: change of the spinner's hand "
            f"size per spin. Reproduce: `{ctx.cmd}`",
        )
        if "leader" in spins.columns:
            _catch_up(ctx, i, label, spins)


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


def editions_section(ctx: Context) -> None:
    """2005 against 2025: the first spin2025 run against the first spin2005 run with the same
    bots (round length and winner points as ratios, 95% intervals)."""

    def edition(meta):
        return meta.get("edition") or str(meta.get("rules", "")).split("(")[0]

    by = {}
    for label, (rounds, _, meta, _) in ctx.runs.items():
        by.setdefault((edition(meta), bots_label(meta)), (label, rounds))
    pairs = [
        (by[("spin2005", b)], by[("spin2025", b)])
        for e, b in by
        if e == "spin2005" and ("spin2025", b) in by
    ]
    if not pairs:
        return
    (l05, r05), (l25, r25) = pairs[0]
    lines = []
    r, lo, hi = ratio_interval(r25["turns"], r05["turns"])
    if math.isfinite(r):
        text = (
            f"`{l25}` rounds last {r:.2f} times as many turns as `{l05}` rounds "
            f"[{lo:.2f}, {hi:.2f}]."
        )
        lines.append(text)
        ctx.answer("editions", r - 1, lo > 1 or hi < 1, text)
    w25 = r25.loc[r25["winner"] >= 0, "winner_points"]
    w05 = r05.loc[r05["winner"] >= 0, "winner_points"]
    r, lo, hi = ratio_interval(w25, w05)
    if math.isfinite(r):
        text = (
            f"a `{l25}` round winner scores {r:.2f} times the points of a `{l05}` one "
            f"[{lo:.2f}, {hi:.2f}]."
        )
        lines.append(text)
        ctx.answer("editions", r - 1, lo > 1 or hi < 1, text)
    if lines:
        ctx.body.h(2, "2005 against 2025 (per round)")
        ctx.body.ul(lines)


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
    )
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
