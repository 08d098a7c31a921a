"""The balance report: written findings, charts and tables from one or more results
directories.

    python -m unospin_sim report                       # the newest directory under results/
    python -m unospin_sim report results/a results/b   # several runs side by side
    python -m unospin_sim report DIR --out reports/mine

Writes ``report.md`` and a self-contained ``report.html`` (the charts embedded), both opening
with findings generated from the numbers (never typed by hand), then every table with its
95% intervals and every figure with the command that reproduces it; PNG charts and the
tables as CSV beside them. A *round* is one deal played out; a *match* is a race of rounds
to the target score.
"""

from __future__ import annotations

import base64
import datetime as _dt
import html
import math
import os
import shlex
from pathlib import Path

import numpy as np
import pandas as pd

from .analysis.stats import Z95, mean_interval
from .errors import UserError

__all__ = ["build_report", "latest_results", "format_p", "ratio_interval"]


def latest_results(root: str | os.PathLike = "results") -> Path:
    """The most recently written results directory under ``root``."""
    root = Path(root)
    found = sorted((p for p in root.glob("*/meta.json")), key=lambda p: p.stat().st_mtime)
    if not found:
        raise UserError(f"no results directory given and none found under {root}/: "
                        "run `python -m unospin_sim run` first")
    return found[-1].parent


def format_p(p: float) -> str:
    """A p-value for people: 3 significant digits, ``< 1e-6`` below that, ``-`` if NaN."""
    if p is None or not math.isfinite(p):
        return "-"
    if p < 1e-6:
        return "< 1e-6"
    return f"{p:.3g}"


def ratio_interval(a, b, z: float = 1.959963984540054) -> tuple[float, float, float]:
    """Ratio of the means of two independent samples, ``mean(a) / mean(b)``, with a
    delta-method 95% interval (on the log scale). Returns ``(ratio, low, high)``."""
    a = np.asarray(a, float)
    b = np.asarray(b, float)
    if len(a) < 2 or len(b) < 2 or a.mean() <= 0 or b.mean() <= 0:
        return math.nan, math.nan, math.nan
    ma, mb = a.mean(), b.mean()
    se = math.sqrt(a.var(ddof=1) / len(a) / ma ** 2 + b.var(ddof=1) / len(b) / mb ** 2)
    r = ma / mb
    return r, r * math.exp(-z * se), r * math.exp(z * se)


def _fmt(v, digits=4):
    if isinstance(v, (float, np.floating)):
        if not math.isfinite(v):
            return "-"
        return f"{v:.{digits}g}"
    return str(v)


def _with_ci(df: pd.DataFrame, cols, digits=4, scale=None) -> pd.DataFrame:
    """Columns ``c``, ``c_low``, ``c_high`` folded into one text column ``c [low, high]``
    (``scale``: {column: factor}, e.g. 100 for percentage points)."""
    scale = scale or {}
    out = pd.DataFrame(index=df.index)
    for c in df.columns:
        if c.endswith("_low") or c.endswith("_high"):
            continue
        f = scale.get(c, 1.0)
        if c in cols and f"{c}_low" in df:
            out[c] = [f"{_fmt(f * v, digits)} [{_fmt(f * lo, digits)}, {_fmt(f * hi, digits)}]"
                      for v, lo, hi in zip(df[c], df[f"{c}_low"], df[f"{c}_high"])]
        else:
            out[c] = df[c]
    return out


class _Doc:
    """Blocks rendered both as Markdown and as one self-contained HTML page."""

    def __init__(self, out: Path):
        self.out = out
        self.blocks = []

    def h(self, level, text):
        self.blocks.append(("h", level, text))

    def p(self, text):
        self.blocks.append(("p", text))

    def ul(self, items):
        self.blocks.append(("ul", list(items)))

    def code(self, text):
        self.blocks.append(("code", text))

    def table(self, df: pd.DataFrame, digits=4):
        self.blocks.append(("table", df.reset_index(), digits))

    def figure(self, name, caption):
        self.blocks.append(("fig", name, caption))

    def markdown(self) -> str:
        md = []
        for b in self.blocks:
            if b[0] == "h":
                md += ["#" * b[1] + " " + b[2], ""]
            elif b[0] == "p":
                md += [b[1], ""]
            elif b[0] == "ul":
                md += [f"- {i}" for i in b[1]] + [""]
            elif b[0] == "code":
                md += ["```", b[1], "```", ""]
            elif b[0] == "table":
                df, digits = b[1], b[2]
                md.append("| " + " | ".join(map(str, df.columns)) + " |")
                md.append("|" + "---|" * len(df.columns))
                for row in df.itertuples(index=False):
                    md.append("| " + " | ".join(_fmt(v, digits) for v in row) + " |")
                md.append("")
            elif b[0] == "fig":
                md += [f"![{b[1]}]({b[1]})", "", b[2], ""]
        return "\n".join(md)

    def html(self, title) -> str:
        def inline(text):
            # `code` spans of the Markdown text
            parts = html.escape(text).split("`")
            return "".join(f"<code>{s}</code>" if i % 2 else s for i, s in enumerate(parts))
        body = []
        for b in self.blocks:
            if b[0] == "h":
                body.append(f"<h{b[1]}>{inline(b[2])}</h{b[1]}>")
            elif b[0] == "p":
                body.append(f"<p>{inline(b[1])}</p>")
            elif b[0] == "ul":
                body.append("<ul>" + "".join(f"<li>{inline(i)}</li>" for i in b[1]) + "</ul>")
            elif b[0] == "code":
                body.append(f"<pre>{html.escape(b[1])}</pre>")
            elif b[0] == "table":
                df, digits = b[1], b[2]
                head = "".join(f"<th>{html.escape(str(c))}</th>" for c in df.columns)
                rows = "".join("<tr>" + "".join(f"<td>{html.escape(_fmt(v, digits))}</td>"
                                                for v in row) + "</tr>"
                               for row in df.itertuples(index=False))
                body.append(f"<table><tr>{head}</tr>{rows}</table>")
            elif b[0] == "fig":
                data = base64.b64encode((self.out / b[1]).read_bytes()).decode("ascii")
                body.append(f'<figure><img alt="{html.escape(b[1])}" '
                            f'src="data:image/png;base64,{data}"><figcaption>'
                            f"{inline(b[2])}</figcaption></figure>")
        style = ("body{font-family:sans-serif;max-width:1100px;margin:2em auto;padding:0 1em}"
                 "table{border-collapse:collapse;font-size:12px;margin:1em 0}"
                 "td,th{border:1px solid #ccc;padding:2px 6px}img{max-width:100%}"
                 "figcaption{font-size:12px;color:#444}pre{background:#f4f4f4;padding:6px}")
        return (f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{html.escape(title)}"
                f"</title><style>{style}</style></head><body>" + "\n".join(body)
                + "</body></html>")


def _bots_label(meta) -> str:
    bots = meta.get("bots", [])
    if len(set(bots)) == 1:
        return bots[0]
    return ",".join(bots)


def _mixed_unrotated(meta) -> bool:
    return len(set(meta.get("bots", []))) > 1 and not meta.get("rotate_bots")


def _pp(v):
    return f"{100 * v:+.1f}"


def _skill_section(body, findings, skill_dirs, out, cmd) -> None:
    """The skill section: one row per tournament, and the difference of every tournament's
    round excess from the first one's (independent samples, 95% intervals)."""
    import pandas as pd

    from .tournament import load_skill

    rows = [load_skill(d) for d in skill_dirs]
    t = pd.DataFrame(rows).set_index("rules")
    t.to_csv(out / "tables" / "skill.csv")

    def pct(r, unit, kind=""):
        k = f"{unit}_{kind}" if kind else f"{unit}_share"
        lo, hi = (f"{unit}_{kind}_low", f"{unit}_{kind}_high") if kind else \
            (f"{unit}_low", f"{unit}_high")
        if r[k] != r[k]:
            return "n/a"
        return f"{100 * r[k]:+.1f} [{100 * r[lo]:+.1f}, {100 * r[hi]:+.1f}]" if kind else \
            f"{100 * r[k]:.1f}% [{100 * r[lo]:.1f}, {100 * r[hi]:.1f}]"

    shown = pd.DataFrame({
        "best strategy": t["strategy"],
        "players": t["players"].astype(int),
        "rounds per pairing": t["rounds"].astype(int),
        "round share vs random": [pct(r, "round") for _, r in t.iterrows()],
        "above fair share (pp)": [pct(r, "round", "excess") for _, r in t.iterrows()],
        "match share vs random": [pct(r, "match") for _, r in t.iterrows()],
        "match above fair share (pp)": [pct(r, "match", "excess") for _, r in t.iterrows()],
    }, index=t.index)
    body.h(2, "Skill: the best strategy against random fields")
    body.p("From `python -m unospin_sim tournament` runs (bots rotated from round to round, so "
           "seat advantage cancels): the share of rounds and of matches (races to 500 "
           "assembled from consecutive rounds) that the best strategy wins against a field of "
           "random bots, and how far that is above a fair share, in percentage points, with "
           "95% intervals. Tournaments: " + ", ".join(f"`{d}`" for d in skill_dirs) + ".")
    body.table(shown)
    for rules, r in t.iterrows():
        findings.append(
            f"Skill in `{rules}`: the best strategy ({r['strategy']}) wins "
            f"{100 * r['round_share']:.1f}% of rounds [{100 * r['round_low']:.1f}, "
            f"{100 * r['round_high']:.1f}] against random bots, "
            f"{100 * r['round_excess']:+.1f} percentage points above a fair share "
            f"[{100 * r['round_excess_low']:+.1f}, {100 * r['round_excess_high']:+.1f}]"
            + (f", and {100 * r['match_share']:.1f}% of matches [{100 * r['match_low']:.1f}, "
               f"{100 * r['match_high']:.1f}]" if r["match_share"] == r["match_share"] else "")
            + ".")
    if len(t) > 1:
        first = t.index[0]
        a = t.iloc[0]
        for rules, r in t.iloc[1:].iterrows():
            se = math.hypot((a["round_high"] - a["round_low"]) / (2 * Z95),
                            (r["round_high"] - r["round_low"]) / (2 * Z95))
            d = r["round_excess"] - a["round_excess"]
            lo, hi = d - Z95 * se, d + Z95 * se
            verdict = ("more skill than there" if lo > 0 else "less skill than there"
                       if hi < 0 else "no detectable difference")
            findings.append(
                f"Skill difference: `{rules}` gives the best strategy {100 * d:+.1f} "
                f"percentage points per round [{100 * lo:+.1f}, {100 * hi:+.1f}] more above a "
                f"fair share than `{first}` does ({verdict}).")


def build_report(dirs, out=None, target: int = 500, log=None, wheel_games: int = 3000,
                 threads: int | None = None, skill_dirs=()) -> Path:
    """Write the balance report for the results directories ``dirs`` into ``out``.

    Parameters
    ----------
    dirs : sequence of path-like
        Results directories written by ``run`` / :func:`unospin_sim.simulate`.
    out : path-like, optional
        Report directory (default ``reports/report-<timestamp>``); created if needed.
    target : int
        Points of the match analysis (race to ``target``).
    log : callable, optional
        Called with a short progress message before each step (the CLI prints them).
    wheel_games : int
        Rounds (of each run with a wheel, same rules, bots and seed) whose spins are
        replayed for the absolute space effects (``unospin_sim.run.replay_spins``);
        0 leaves that section out.
    threads : int, optional
        Threads for the replays (default every core).
    skill_dirs : sequence of path-like
        Tournament directories (``python -m unospin_sim tournament --out DIR``): a skill
        section compares their skill figures (the best strategy against random fields).

    Returns
    -------
    pathlib.Path
        The written ``report.md`` (``report.html`` beside it).
    """
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from .analysis.race import with_round_wins
    from .analysis import (assemble_matches, balance_table, race_summary, seat_win_rates,
                           space_effects)
    from .analysis.wheel_effects import wheel_effects
    from .plots import (plot_balance, plot_race_rounds, plot_seat_win_rates,
                        plot_space_effects, plot_turns, plot_wheel_effects)
    from .results import load_results

    if not dirs:
        raise UserError("no results directory given")
    log = log or (lambda message: None)
    runs, played = {}, {}
    for d in dirs:
        res = load_results(d)
        rounds, spins, meta = res.rounds, res.spins, res.meta
        log(f"read {d}: {len(rounds):,} rounds")  # after loading: an error stays one line
        label = f"{meta['rules']} {_bots_label(meta)}".strip()
        while label in runs:
            label += "'"
        runs[label] = (rounds, spins, meta, Path(d))
        played[label] = res.matches  # matches played in the engine (match mode), else None
    if out is None:
        stamp = _dt.datetime.now().strftime("%Y%m%d-%H%M%S")
        out = Path("reports") / f"report-{stamp}"
    out = Path(out)
    try:
        (out / "tables").mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise UserError(f"cannot create report directory {out}: {e.strerror or e}") from None
    cmd = "python -m unospin_sim report " + " ".join(shlex.quote(str(v[3])) for v in
                                                     runs.values()) \
        + f" --out {shlex.quote(str(out))}" + (f" --target {target}" if target != 500 else "")

    findings: list[str] = []
    doc = _Doc(out)
    body = _Doc(out)   # everything after the findings

    # ---- runs
    body.h(2, "Runs")
    items = []
    for label, (rounds, _, meta, d) in runs.items():
        flag = " **Mixed bots without rotation: seat figures measure the bots, not the " \
               "seats; they are left out.**" if _mixed_unrotated(meta) else ""
        items.append(f"`{label}`: {len(rounds):,} rounds, seed {meta.get('seed')}, from "
                     f"`{d}` (version {meta.get('version')}){flag}")
    body.ul(items)

    # ---- balance
    bal = balance_table({k: v[0] for k, v in runs.items()})
    bal.to_csv(out / "tables" / "balance.csv")
    shown = bal.rename(columns={"games": "rounds"}).copy()
    shown["seat_equality_p"] = [format_p(p) for p in shown["seat_equality_p"]]
    for label, (_, _, meta, _) in runs.items():
        if _mixed_unrotated(meta):
            for c in ("first_player_advantage", "first_player_advantage_low",
                      "first_player_advantage_high", "seat_spread"):
                shown.loc[label, c] = np.nan
            shown.loc[label, "seat_equality_p"] = "mixed bots"
    body.h(2, "Balance, per round")
    body.p("First-player advantage: round win rate of the seat that acts first minus a fair "
           "share, in percentage points. Seat equality p: chi-square test that every seat "
           "wins equally often (p below 1e-6 shown as < 1e-6). Every interval is 95%.")
    body.table(_with_ci(shown, {"mean_turns", "first_player_advantage", "mean_winner_points"},
                        scale={"first_player_advantage": 100.0}))
    fair = bal.drop([k for k, v in runs.items() if _mixed_unrotated(v[2])])
    fig, axes = plt.subplots(1, 2, figsize=(12, max(3.5, 0.6 * len(runs) + 2.5)))
    if len(fair):
        plot_balance(fair, ax=axes[0])
    else:
        axes[0].text(0.5, 0.5, "no run with equal (or rotated) bots", ha="center",
                     transform=axes[0].transAxes)
    for label, (rounds, *_rest) in runs.items():
        plot_turns(rounds, ax=axes[1], label=label)
    fig.tight_layout()
    fig.savefig(out / "balance.png", dpi=110)
    plt.close(fig)
    body.figure("balance.png", "Left: first-player advantage in percentage points with 95% "
                "intervals (runs with mixed, unrotated bots left out). Right: turns per round "
                f"(density per turn). Reproduce: `{cmd}`")

    for label, (rounds, _, meta, _) in runs.items():
        if _mixed_unrotated(meta):
            continue
        b = bal.loc[label]
        lo_, hi_ = b.first_player_advantage_low, b.first_player_advantage_high
        verdict = ("an edge" if lo_ > 0 else "a handicap" if hi_ < 0
                   else "no detectable edge")
        findings.append(
            f"`{label}`: a round lasts {b.mean_turns:.1f} turns on average "
            f"[{b.mean_turns_low:.1f}, {b.mean_turns_high:.1f}]; the first player's round win "
            f"rate is {_pp(b.first_player_advantage)} percentage points off a fair share "
            f"[{_pp(lo_)}, {_pp(hi_)}]: {verdict}.")
    # house rule jump_in: jump-ins per round (not turns: they come on top of the turns)
    jumps = []
    for label, (rounds, *_rest) in runs.items():
        if "jump_ins" in rounds.columns:
            m, lo, hi = mean_interval(rounds["jump_ins"].to_numpy())
            jumps.append(f"`{label}`: {m:.2f} jump-ins per round [{lo:.2f}, {hi:.2f}] (house "
                         f"rule jump_in; a jump-in is not a turn, so these come on top of the "
                         f"{rounds['turns'].mean():.1f} turns).")
    if jumps:
        body.h(3, "Jump-ins")
        body.ul(jumps)
        findings += jumps
    labels = list(runs)
    for other in labels[1:]:
        a_r, b_r = runs[other][0], runs[labels[0]][0]
        r, lo, hi = ratio_interval(a_r["turns"], b_r["turns"])
        if math.isfinite(r):
            word = "longer" if r >= 1 else "shorter"
            findings.append(
                f"`{other}` rounds are {abs(r - 1):.0%} {word} than `{labels[0]}` rounds "
                f"[{abs(lo - 1) if r >= 1 else abs(hi - 1):.0%}, "
                f"{abs(hi - 1) if r >= 1 else abs(lo - 1):.0%}] (mean turns per round).")
        wa = a_r.loc[a_r["winner"] >= 0, "winner_points"]
        wb = b_r.loc[b_r["winner"] >= 0, "winner_points"]
        r, lo, hi = ratio_interval(wa, wb)
        if math.isfinite(r):
            findings.append(
                f"The winner of a `{other}` round scores {r:.2f} times the points of a "
                f"`{labels[0]}` round winner [{lo:.2f}, {hi:.2f}].")

    # ---- side by side: differences against the first run
    if len(runs) > 1:
        from .analysis import difference_table, sensitivity_table
        fair_runs = {k: v[0] for k, v in runs.items() if not _mixed_unrotated(v[2])}
        if len(fair_runs) > 1:
            diff = difference_table(fair_runs, target=target)
            diff.to_csv(out / "tables" / "differences.csv")
            first = list(fair_runs)[0]
            body.h(2, f"Side by side: every run minus `{first}`")
            body.p("Differences with 95% intervals (independent samples). First-player "
                   "measures are shares (0.01 = 1 percentage point); match measures come "
                   f"from races to {target} assembled from the rounds. holds: +1 clearly "
                   "higher, -1 clearly lower, 0 not distinguishable.")
            body.table(diff)
            if len(fair_runs) > 2:
                sens = sensitivity_table(diff)
                sens.to_csv(out / "tables" / "sensitivity.csv")
                body.p(f"Which differences from `{first}` hold under every other run:")
                body.table(sens)
                held = [m for m, v in sens["verdict"].items() if v.startswith("holds")]
                flips = [m for m, v in sens["verdict"].items() if v == "flips"]
                findings.append(
                    f"Against `{first}`, these differences hold in every other run: "
                    f"{', '.join(held) or 'none'}; these flip direction: "
                    f"{', '.join(flips) or 'none'}.")

    # ---- seats
    body.h(2, "Does the seat matter? (per round)")
    fig, ax = plt.subplots(figsize=(6.5, 4))
    drawn = False
    for i, (label, (rounds, _, meta, _)) in enumerate(runs.items()):
        if _mixed_unrotated(meta):
            body.p(f"`{label}`: left out (mixed bots without rotation: the seat figures would "
                   "measure the bots).")
            continue
        seats = seat_win_rates(rounds)
        seats.to_csv(out / "tables" / f"seats_{i}.csv")
        plot_seat_win_rates(seats, ax=ax, label=label)
        drawn = True
        body.p(f"`{label}`")
        body.table(seats)
    fig.tight_layout()
    fig.savefig(out / "seats.png", dpi=110)
    plt.close(fig)
    if drawn:
        body.figure("seats.png", "Round win rate per seat with 95% Wilson intervals; dashed: "
                    f"fair share. Reproduce: `{cmd}`")

    # ---- wheel spaces
    for i, (label, (rounds, spins, meta, d)) in enumerate(runs.items()):
        if spins is None or spins.empty:
            continue
        log(f"wheel spaces of {label}")
        eff = space_effects(rounds, spins)
        eff.to_csv(out / "tables" / f"wheel_{i}.csv")
        body.h(2, f"Wheel spaces of `{label}`")
        absolute = None
        if wheel_games > 0 and meta.get("games", 0) > 0:
            from .run import replay_spins
            games = int(min(wheel_games, meta.get("games", wheel_games)))
            log(f"replaying the spins of {games:,} rounds of {label}")
            from .bots import saved_bots
            played_bots = saved_bots(meta["bots"])  # as the run played them
            rep = replay_spins(meta["rules"], played_bots, games,
                               int(meta.get("seed", 0)),
                               threads=threads, rotate_bots=bool(meta.get("rotate_bots")))
            absolute = wheel_effects(rep)
            absolute.to_csv(out / "tables" / f"space_effects_{i}.csv", index=False)
            wcmd = (f"python -m unospin_sim wheel --rules {shlex.quote(meta['rules'])} "
                    f"--bots {shlex.quote(','.join(played_bots))} --games {games} "
                    f"--seed {meta.get('seed', 0)}"
                    + (" --rotate-bots" if meta.get("rotate_bots") else "")
                    + f" --out {shlex.quote(str(out / 'wheel'))}")
            body.h(3, "Absolute effects (paired replays against a blank space)")
            body.p(f"{rep.attrs['spins']:,} spins of the first {games:,} rounds, each replayed "
                   "once per space and once with a blank space (`none`: the spin happens, "
                   "nothing else), the round before the spin identical. Effect: change in the "
                   "chance to win the round, percentage points, 95% interval cluster-robust by "
                   "round; points: change in the points that seat scores; turns: change in "
                   "the round's length.")
            t = absolute.set_index(["space", "who"])[
                ["effect", "low", "high", "points", "points_low", "points_high", "turns",
                 "turns_low", "turns_high"]]
            body.table(_with_ci(t.rename(columns={"low": "effect_low", "high": "effect_high"}),
                                {"effect", "points", "turns"}, digits=3,
                                scale={"effect": 100.0}))
            fig, ax = plt.subplots(figsize=(7, 0.35 * len(t) / 4 + 3))
            plot_wheel_effects(absolute, ax=ax)
            fig.tight_layout()
            fig.savefig(out / f"wheel_effects_{i}.png", dpi=110)
            plt.close(fig)
            body.figure(f"wheel_effects_{i}.png", "Change in the spinner's chance to win the "
                        "round against a blank space, percentage points, 95% intervals. "
                        f"Reproduce: `{wcmd}`")
            sp = absolute[absolute["who"] == "spinner"].set_index("space")
            best, worst = sp["effect"].idxmax(), sp["effect"].idxmin()
            null = [s for s in sp.index if sp.loc[s, "low"] <= 0 <= sp.loc[s, "high"]]
            findings.append(
                f"`{label}` wheel, against a blank space: `{best}` helps the spinner most "
                f"({_pp(sp.loc[best, 'effect'])} percentage points of round-win chance "
                f"[{_pp(sp.loc[best, 'low'])}, {_pp(sp.loc[best, 'high'])}]), `{worst}` hurts "
                f"most ({_pp(sp.loc[worst, 'effect'])} [{_pp(sp.loc[worst, 'low'])}, "
                f"{_pp(sp.loc[worst, 'high'])}])"
                + (f"; no detectable effect: {', '.join(f'`{s}`' for s in null)}."
                   if null else "."))
            oth = absolute[absolute["who"] == "other"]
            if len(oth):
                o = oth.loc[oth["effect"].abs().idxmax()]
                findings.append(
                    f"`{label}`: the space with the largest effect on its other party is "
                    f"`{o['space']}` ({_pp(o['effect'])} percentage points "
                    f"[{_pp(o['low'])}, {_pp(o['high'])}] for that player).")
        body.h(3, "Relative swing (observational, against the rest of the wheel)")
        body.p("Swing: the spinner's round win rate after landing on the space minus after "
               "landing on any OTHER space, percentage points. It is relative to the mix of "
               "the other spaces (reweighting them changes it), so it is not the space's own "
               "effect; the paired replays above are.")
        body.table(_with_ci(eff[["spins", "per_round", "per_round_low", "per_round_high",
                                 "swing", "swing_low", "swing_high", "hand_change",
                                 "hand_change_low", "hand_change_high"]],
                            {"per_round", "swing", "hand_change"}, scale={"swing": 100.0}))
        fig, axes = plt.subplots(1, 2, figsize=(13, 4.5))
        plot_space_effects(eff, ax=axes[0], metric="swing")
        plot_space_effects(eff, ax=axes[1], metric="hand_change")
        fig.suptitle(label, fontsize=9)
        fig.tight_layout()
        fig.savefig(out / f"wheel_{i}.png", dpi=110)
        plt.close(fig)
        body.figure(f"wheel_{i}.png", "Left: relative swing (percentage points, 95% "
                    "intervals cluster-robust by round). Right: change of the spinner's hand "
                    f"size per spin. Reproduce: `{cmd}`")
        if "leader" in spins.columns:
            from .analysis import catch_up_table
            cu = catch_up_table(spins)
            cu.to_csv(out / "tables" / f"catch_up_{i}.csv")
            body.h(3, "Does the wheel help whoever is behind? (catch-up index)")
            body.p("The change in the spinner's hand (cards) when the spinner trails at the "
                   "spin (another seat alone holds the fewest cards) and when it leads; "
                   "catch-up index: the leader's change minus the trailing spinner's, in "
                   "cards (> 0: the space does a trailing spinner more good than a leading "
                   "one, so it closes gaps). Spins at a tie for the lead are left out; `all` "
                   "is the wheel as a whole.")
            body.table(_with_ci(cu, {"catch_up"}, digits=3))
            a = cu.loc["all"]
            if a["catch_up"] == a["catch_up"]:
                verdict = ("closes gaps" if a["catch_up_low"] > 0 else "widens gaps"
                           if a["catch_up_high"] < 0 else "neither closes nor widens gaps "
                           "detectably")
                per = cu.drop(index="all")["catch_up"].dropna()
                most = (f"; most of all `{per.idxmax()}` ({per.max():+.2f} cards)"
                        if len(per) and verdict == "closes gaps" else "")
                findings.append(
                    f"`{label}`: the wheel as a whole {verdict}: catch-up index "
                    f"{a['catch_up']:+.2f} cards [{a['catch_up_low']:+.2f}, "
                    f"{a['catch_up_high']:+.2f}] per spin (a trailing spinner's hand change "
                    f"against a leading one's){most}.")

    # ---- race to the target
    log(f"matches to {target} points")
    race_blocks, fig, ax, lead_curves, heats = [], None, None, [], []
    for i, (label, (rounds, _, meta, _)) in enumerate(runs.items()):
        in_engine = played[label]
        if in_engine is not None and meta.get("match") != "race":
            race_blocks.append(("p", f"`{label}`: matches of mode {meta.get('match')!r} "
                                     f"(see the summary command), not a race"))
            continue
        try:
            if in_engine is not None:  # matches played in the engine
                matches = with_round_wins(rounds, in_engine)
            else:
                matches = assemble_matches(rounds, target=target, bots=meta.get("bots"),
                                           rotated=bool(meta.get("rotate_bots")))
            summ = race_summary(matches)
        except UserError as e:
            race_blocks.append(("p", f"`{label}`: {e}"))
            continue
        summ.to_csv(out / "tables" / f"race_{i}.csv")
        if fig is None:
            fig, ax = plt.subplots(figsize=(6.5, 4))
        plot_race_rounds(matches, ax=ax, label=label)
        race_blocks.append(("p", f"`{label}`: {len(matches):,} matches"))
        race_blocks.append(("table", summ))
        from .analysis.race import (lead_heat_table, lead_win_table, match_rounds,
                                     played_match_rounds, race_dynamics)
        mr = (played_match_rounds(rounds, in_engine) if in_engine is not None else
              match_rounds(rounds, target=target, bots=meta.get("bots"),
                           rotated=bool(meta.get("rotate_bots"))))
        dyn = race_dynamics(mr)
        lead = lead_win_table(mr)
        dyn.to_csv(out / "tables" / f"race_dynamics_{i}.csv")
        lead.to_csv(out / "tables" / f"race_lead_{i}.csv")
        heat = lead_heat_table(mr)
        heat.to_csv(out / "tables" / f"race_lead_heat_{i}.csv", index=False)
        heats.append((label, heat))
        race_blocks.append(("p", "Round by round: comeback rate (the match winner trailed by "
                                 ">= 100 points after some round), lead changes, rounds and "
                                 "turns per match, the first player's edge over a whole "
                                 "match (player 0 starts round 1; minus a fair share)."))
        race_blocks.append(("table", dyn))
        race_blocks.append(("p", "P(the sole leader after round k wins the match), among "
                                 "matches still running after round k:"))
        race_blocks.append(("table", lead))
        lead_curves.append((label, lead))
        d1 = lead.loc[1]
        cb = dyn.loc["comeback_rate"]
        lead_text = (f"the leader after the first round wins the match "
                     f"{d1.p_leader_wins:.0%} of the time [{d1.low:.0%}, {d1.high:.0%}]; "
                     if d1.n > 0 else "")
        findings.append(
            f"`{label}`: {lead_text}"
            f"{cb.value:.0%} of matches [{cb.low:.0%}, {cb.high:.0%}] are won by a player who "
            f"trailed by 100 points or more; a match lasts "
            f"{dyn.loc['turns_per_match', 'value']:.0f} turns "
            f"[{dyn.loc['turns_per_match', 'low']:.0f}, "
            f"{dyn.loc['turns_per_match', 'high']:.0f}].")
        s = summ
        findings.append(
            f"`{label}`: a match to {meta.get('target', target)} points lasts "
            f"{s.loc['rounds_per_match', 'value']:.2f} rounds "
            f"[{s.loc['rounds_per_match', 'low']:.2f}, {s.loc['rounds_per_match', 'high']:.2f}]; "
            f"in {s.loc['p_winner_not_most_rounds', 'value']:.0%} of matches "
            f"[{s.loc['p_winner_not_most_rounds', 'low']:.0%}, "
            f"{s.loc['p_winner_not_most_rounds', 'high']:.0%}] the match winner won fewer "
            "rounds than another player.")
    if race_blocks:
        body.h(2, f"The race to {target} points (a match)")
        body.p("Matches played in the engine (match mode) where a run did so; otherwise "
               "assembled from consecutive rounds with the deal passing clockwise.")
        for blk in race_blocks:
            body.p(blk[1]) if blk[0] == "p" else body.table(blk[1])
    if fig is not None:
        fig.tight_layout()
        fig.savefig(out / "race.png", dpi=110)
        plt.close(fig)
        body.figure("race.png", "Share of matches decided within k rounds (cumulative, one "
                    f"step curve per run). Reproduce: `{cmd}`")
    if lead_curves:
        fig, ax = plt.subplots(figsize=(6.5, 4))
        for label, lead in lead_curves:
            ok = lead["n"] > 0
            ax.errorbar(lead.index[ok], 100 * lead.loc[ok, "p_leader_wins"],
                        yerr=100 * np.clip(np.nan_to_num(np.vstack([
                            lead.loc[ok, "p_leader_wins"] - lead.loc[ok, "low"],
                            lead.loc[ok, "high"] - lead.loc[ok, "p_leader_wins"]])), 0, None),
                        fmt="o-", capsize=3, label=label)
        ax.set_xlabel("round of the match (k)")
        ax.set_ylabel("leader after round k wins the match (%)")
        ax.set_title("Is an early lead decisive? (95% intervals)", fontsize=10)
        ax.legend(frameon=False, fontsize=7)
        fig.tight_layout()
        fig.savefig(out / "race_lead.png", dpi=110)
        plt.close(fig)
        body.figure("race_lead.png", "P(the sole leader after round k wins the match), 95% "
                    f"Wilson intervals. Reproduce: `{cmd}`")
    for j, (label, heat) in enumerate(heats):
        from .plots import plot_lead_heatmap
        fig, ax = plt.subplots(figsize=(7, 4))
        plot_lead_heatmap(heat, ax=ax)
        ax.set_title(f"{label}: the leader wins the match (%)", fontsize=9)
        fig.tight_layout()
        fig.savefig(out / f"race_heat_{j}.png", dpi=110)
        plt.close(fig)
        body.figure(f"race_heat_{j}.png", f"`{label}`: P(the sole leader after round k wins "
                    "the match) by the lead over second place (percent; blank: fewer than 30 "
                    "matches; intervals in tables/race_lead_heat_*.csv). Reproduce: "
                    f"`{cmd}`")

    # ---- skill: the best strategy against random fields, per tournament
    if skill_dirs:
        _skill_section(body, findings, skill_dirs, out, cmd)

    # ---- assemble: title, findings first
    doc.h(1, "unospin_sim balance report")
    doc.p(f"Generated {_dt.datetime.now().isoformat(timespec='seconds')} by `{cmd}`. A round "
          "is one deal played out; a match is a race of rounds to "
          f"{target} points. Every interval is 95%.")
    if any(v[2].get("edition") == "spin2025" or str(v[2].get("rules", "")).startswith("spin2025")
           for v in runs.values()):
        doc.p("Caution: the 2025 wheel layout (eight equal spaces) is an assumption "
              "(docs/RULINGS.md: the physical layout was not found); every 2025 figure "
              "depends on it.")
    doc.h(2, "Findings")
    doc.ul(findings or ["No finding: too few rounds."])
    doc.blocks += body.blocks
    path = out / "report.md"
    path.write_text(doc.markdown())
    (out / "report.html").write_text(doc.html("unospin_sim balance report"))
    return path
