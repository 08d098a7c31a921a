"""The balance report: charts and tables from one or more results directories.

    python -m unospin_sim report                       # the newest directory under results/
    python -m unospin_sim report results/a results/b   # several runs side by side
    python -m unospin_sim report DIR --out reports/mine

Writes ``report.md`` (tables with 95% intervals), PNG charts and the tables as CSV.
"""

from __future__ import annotations

import datetime as _dt
import os
from pathlib import Path

import pandas as pd

from .errors import UserError

__all__ = ["build_report", "latest_results"]


def latest_results(root: str | os.PathLike = "results") -> Path:
    """The most recently written results directory under ``root``."""
    root = Path(root)
    found = sorted((p for p in root.glob("*/meta.json")), key=lambda p: p.stat().st_mtime)
    if not found:
        raise UserError(f"no results directory given and none found under {root}/: "
                        "run `python -m unospin_sim run` first")
    return found[-1].parent


def _md_table(df: pd.DataFrame, digits: int = 4) -> str:
    df = df.reset_index()
    cols = [str(c) for c in df.columns]
    lines = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    for row in df.itertuples(index=False):
        cells = []
        for v in row:
            if isinstance(v, float):
                cells.append(f"{v:.{digits}g}")
            else:
                cells.append(str(v))
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _with_ci(df: pd.DataFrame, cols, digits=4) -> pd.DataFrame:
    """Columns ``c``, ``c_low``, ``c_high`` folded into one text column ``c [low, high]``."""
    out = pd.DataFrame(index=df.index)
    for c in df.columns:
        if c.endswith("_low") or c.endswith("_high"):
            continue
        if c in cols and f"{c}_low" in df:
            out[c] = [f"{v:.{digits}g} [{lo:.{digits}g}, {hi:.{digits}g}]"
                      for v, lo, hi in zip(df[c], df[f"{c}_low"], df[f"{c}_high"])]
        else:
            out[c] = df[c]
    return out


def build_report(dirs, out=None, target: int = 500, log=None) -> Path:
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

    Returns
    -------
    pathlib.Path
        The written ``report.md``.
    """
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from .analysis.race import with_round_wins
    from .analysis import (assemble_matches, balance_table, race_summary, seat_win_rates,
                           space_effects)
    from .plots import (plot_balance, plot_race_rounds, plot_seat_win_rates,
                        plot_space_effects, plot_turns)
    from .results import load_results

    if not dirs:
        raise UserError("no results directory given")
    log = log or (lambda message: None)
    runs = {}
    for d in dirs:
        res = load_results(d)
        rounds, spins, meta = res.rounds, res.spins, res.meta
        log(f"read {d}: {len(rounds):,} rounds")  # after loading: an error stays one line
        label = meta["rules"]
        bots = meta.get("bots", [])
        if len(set(bots)) == 1:
            label += f" {bots[0]}"
        elif bots:
            label += " " + ",".join(bots)
        while label in runs:
            label += "'"
        runs[label] = (rounds, spins, meta, Path(d), res.matches)
    if out is None:
        stamp = _dt.datetime.now().strftime("%Y%m%d-%H%M%S")
        out = Path("reports") / f"report-{stamp}"
    out = Path(out)
    try:
        (out / "tables").mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise UserError(f"cannot create report directory {out}: {e.strerror or e}") from None

    md = ["# unospin_sim balance report", "",
          f"Generated {_dt.datetime.now().isoformat(timespec='seconds')}. "
          "Every interval is 95%.", ""]
    md += ["## Runs", ""]
    for label, (rounds, _, meta, d, _) in runs.items():
        md.append(f"- `{label}`: {len(rounds):,} rounds, seed {meta.get('seed')}, "
                  f"from `{d}` (version {meta.get('version')})")
    md.append("")

    # balance side by side
    bal = balance_table({k: v[0] for k, v in runs.items()})
    bal.to_csv(out / "tables" / "balance.csv")
    md += ["## Balance", "",
           "First-player advantage: win rate of the seat that acts first minus a fair share. "
           "Seat equality p: chi-square test that every seat wins equally often.", "",
           _md_table(_with_ci(bal, {"mean_turns", "first_player_advantage",
                                    "mean_winner_points"})), ""]
    fig, axes = plt.subplots(1, 2, figsize=(11, 4))
    plot_balance(bal, ax=axes[0])
    for label, (rounds, *_rest) in runs.items():
        plot_turns(rounds, ax=axes[1], label=label)
    fig.tight_layout()
    fig.savefig(out / "balance.png", dpi=110)
    plt.close(fig)
    md += ["![balance](balance.png)", ""]

    # seats
    md += ["## Does the seat matter?", ""]
    fig, ax = plt.subplots(figsize=(6, 4))
    for i, (label, (rounds, *_rest)) in enumerate(runs.items()):
        seats = seat_win_rates(rounds)
        seats.to_csv(out / "tables" / f"seats_{i}.csv")
        plot_seat_win_rates(seats, ax=ax, label=label)
        md += [f"`{label}`", "", _md_table(seats), ""]
    fig.tight_layout()
    fig.savefig(out / "seats.png", dpi=110)
    plt.close(fig)
    md += ["![seats](seats.png)", ""]

    # wheel spaces
    for i, (label, (rounds, spins, meta, *_rest)) in enumerate(runs.items()):
        if spins is None or spins.empty:
            continue
        log(f"wheel spaces of {label}")
        eff = space_effects(rounds, spins)
        eff.to_csv(out / "tables" / f"wheel_{i}.csv")
        fig, axes = plt.subplots(1, 2, figsize=(12, 4))
        plot_space_effects(eff, ax=axes[0], metric="swing")
        plot_space_effects(eff, ax=axes[1], metric="hand_change")
        axes[0].set_title(label, fontsize=9)
        fig.tight_layout()
        fig.savefig(out / f"wheel_{i}.png", dpi=110)
        plt.close(fig)
        md += [f"## Which wheel spaces swing the game? `{label}`", "",
               "Swing: the spinner's chance to win the round after landing on the space, "
               "minus after landing on any other space (the space is random, so this is its "
               "causal effect).", "",
               _md_table(_with_ci(eff[["spins", "per_round", "per_round_low", "per_round_high",
                                       "swing", "swing_low", "swing_high", "hand_change",
                                       "hand_change_low", "hand_change_high"]],
                                  {"per_round", "swing", "hand_change"})),
               "", f"![wheel](wheel_{i}.png)", ""]

    # race to the target
    log(f"races to {target} points")
    race_md, fig, ax = [], None, None
    for i, (label, (rounds, _, meta, _, played)) in enumerate(runs.items()):
        try:
            if played is not None:  # matches played in the engine
                matches = with_round_wins(rounds, played)
            else:
                matches = assemble_matches(rounds, target=target, bots=meta.get("bots"),
                                           rotated=bool(meta.get("rotate_bots")))
            summ = race_summary(matches)
        except UserError as e:
            race_md += [f"`{label}`: {e}", ""]
            continue
        summ.to_csv(out / "tables" / f"race_{i}.csv")
        if fig is None:
            fig, ax = plt.subplots(figsize=(6, 4))
        plot_race_rounds(matches, ax=ax, label=label)
        race_md += [f"`{label}`: {len(matches):,} matches", "", _md_table(summ), ""]
    if race_md:
        md += [f"## The race to {target} points", "",
               "Matches assembled from consecutive rounds with the deal passing clockwise.", ""]
        md += race_md
    if fig is not None:
        fig.tight_layout()
        fig.savefig(out / "race.png", dpi=110)
        plt.close(fig)
        md += ["![race](race.png)", ""]

    path = out / "report.md"
    path.write_text("\n".join(md))
    return path
