"""What each skill is worth: restricted play (``python -m unospin_sim worth``).

Jaffe, Miller, Andersen, Liu, Karlin and Popović, "Evaluating competitive game balance
with restricted play" (AIIDE 2012): the worth of a skill is how much an agent loses when it
is denied that skill and nothing else. Here the agent is ``spin_aware`` (the strongest cheap
strategy that reads only what a seat may know, docs/BOTS.md) and each skill is a knob:

==============================  ==========================================================
skill                           denied by
==============================  ==========================================================
naming the colour               ``name_colour=0``: a random colour for a wild
holding wilds back              ``hold_wilds=0``: a wild is played as any card (its points)
attacking a player near UNO     ``attack=0``: the next player's hand size is ignored
valuing the wheel               ``value_wheel=0``: no spin bonus (Spin editions only)
calling UNO                     ``forget=1``: it never calls UNO
catching                        ``catch=0``: it never catches a player who forgot
challenging                     ``challenge=0`` (the full bot challenges at the best rate)
==============================  ==========================================================

Catching has no worth to measure here (the full bot never forgets UNO), nor challenging
when the best rate is 0 (the full bot never bluffs, so a challenge always fails): their rows
say so instead of a figure. The full bot is ``spin_aware`` with the best challenge rate of :data:`CHALLENGE_RATES`,
chosen per rule set on a seed of its own (``tune_seed``), never on the seeds reported. For
each skill, player 0 is the denied bot and every other player the full bot; the same rounds
(same seeds, bots rotated so that every player sits in every seat) are also played with
player 0 full. A skill's worth is player 0's paired loss of round-win share, in points:
the mean over rounds of (player 0 won with the full bot) - (player 0 won denied), with a
95% normal interval from the per-round differences.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..errors import UserError

#: skill -> (its knob, the value that denies it); the order of the printed table
SKILLS = {
    "naming the colour": ("name_colour", 0),
    "holding wilds back": ("hold_wilds", 0),
    "attacking a player near UNO": ("attack", 0),
    "valuing the wheel": ("value_wheel", 0),
    "calling UNO": ("forget", 1),
    "catching": ("catch", 0),
    "challenging": ("challenge", 0),
}
#: the challenge rates the full bot's is chosen from
CHALLENGE_RATES = (0.0, 0.25, 0.5, 0.75, 1.0)
BASE = "spin_aware"
Z95 = 1.959963984540054


def _bot(knobs: dict) -> str:
    text = ",".join(f"{k}={v:g}" for k, v in knobs.items())
    return f"{BASE}({text})" if text else BASE


def player0_won(rules, bots: str, games: int, seed: int, threads: int | None) -> np.ndarray:
    """bool[games]: whether player 0 won round g (in game order) of ``simulate(rules, bots,
    games, seed, rotate_bots=True)``; seat s holds player (s + g) mod P."""
    from ..run import Execution, simulate

    res = simulate(
        rules, bots, games=games, seed=seed, rotate_bots=True, execution=Execution(threads=threads)
    )
    rounds = res.rounds.sort_values("game", kind="stable")
    w = rounds["winner"].to_numpy().astype(np.int64)
    g = rounds["game"].to_numpy().astype(np.int64)
    p = rules.players
    return (w >= 0) & ((w + g) % p == 0)


def paired_loss(full: np.ndarray, denied: np.ndarray) -> tuple[float, float, float]:
    """Mean of ``full - denied`` (bool arrays of the same rounds) in points of share, with its
    95% normal interval: (estimate, low, high)."""
    d = full.astype(np.float64) - denied.astype(np.float64)
    n = d.size
    if n < 2:
        raise UserError(f"a paired loss needs at least 2 rounds, got {n}")
    m = d.mean()
    se = d.std(ddof=1) / math.sqrt(n)
    return 100 * m, 100 * (m - Z95 * se), 100 * (m + Z95 * se)


def best_challenge(rules, games: int, seed: int, threads: int | None) -> float:
    """The challenge rate of :data:`CHALLENGE_RATES` whose bot (player 0) wins the largest
    share of rounds against a field of ``spin_aware`` at the default rate, on ``seed``."""
    n = rules.players
    share = {}
    for c in CHALLENGE_RATES:
        bots = ",".join([_bot({"challenge": c})] + [BASE] * (n - 1))
        share[c] = player0_won(rules, bots, games, seed, threads).mean()
    return max(CHALLENGE_RATES, key=lambda c: (share[c], -c))


@dataclass
class SkillWorth:
    """The worth of each skill for one rule set. ``table`` has a row per skill and seed
    (``skill``, ``knob``, ``seed``, ``rounds``, ``worth``, ``low``, ``high``, in points of
    round-win share, NaN where denying the skill cannot change a round, and ``note`` saying
    why); ``challenge`` is the full bot's challenge rate."""

    rules: str
    players: int
    challenge: float
    tune_seed: int
    table: pd.DataFrame

    def to_df(self) -> pd.DataFrame:
        """The table, with the rule set and the full bot in columns of their own."""
        out = self.table.copy()
        out.insert(0, "rules", self.rules)
        out.insert(1, "full_bot", _bot({"challenge": self.challenge} if self.challenge else {}))
        return out


def skill_worth(
    rules,
    games: int = 20_000,
    seeds=(1, 2),
    tune_seed: int = 0,
    threads: int | None = None,
    progress=None,
) -> SkillWorth:
    """What each skill of :data:`SKILLS` is worth to ``spin_aware`` (module docstring).

    Parameters
    ----------
    rules : RuleSet or str
    games : int
        Rounds per run (each skill and seed plays 2 runs: denied and full).
    seeds : sequence of int
        The seeds reported (at least one; two or more for a figure per fresh seed).
    tune_seed : int
        The seed on which the full bot's challenge rate is chosen (not among ``seeds``).
    progress : callable, optional
        Called with a line of text before each run.
    """
    from ..run.inputs import as_rules

    rs = as_rules(rules)
    if isinstance(games, bool) or not isinstance(games, (int, np.integer)) or games < 2:
        raise UserError(f"games must be an integer >= 2, got {games!r}")
    seeds = [int(s) for s in seeds]
    if not seeds:
        raise UserError("give at least one seed to report")
    if tune_seed in seeds:
        raise UserError(
            f"the tuning seed {tune_seed} is also a reported seed: a seed that chooses a "
            "setting cannot report it"
        )
    say = progress or (lambda line: None)
    say(f"{rs}: choosing the challenge rate on seed {tune_seed}")
    c = best_challenge(rs, games, tune_seed, threads)
    full = {"challenge": c} if c else {}
    n = rs.players
    rows = []
    for seed in seeds:
        say(f"{rs}: the full bot, seed {seed}")
        base = player0_won(rs, ",".join([_bot(full)] * n), games, seed, threads)
        for skill, (knob, value) in SKILLS.items():
            if knob == "value_wheel" and not rs.wheel_spaces():
                continue
            note = ""
            if knob == "catch":  # the full bot never forgets UNO (forget=0)
                note = "nothing to catch: the full bot never forgets UNO"
            elif knob == "challenge" and c == 0:
                note = "the best challenge rate is 0 (the full bot never bluffs)"
            if note:
                est = (math.nan, math.nan, math.nan)
            else:
                say(f"{rs}: {skill} denied, seed {seed}")
                denied = _bot(full | {knob: value})
                bots = ",".join([denied] + [_bot(full)] * (n - 1))
                est = paired_loss(base, player0_won(rs, bots, games, seed, threads))
            rows.append(
                dict(skill=skill, knob=f"{knob}={value:g}", seed=seed, rounds=games)
                | dict(zip(("worth", "low", "high"), est))
                | dict(note=note)
            )
    return SkillWorth(str(rs), n, c, tune_seed, pd.DataFrame(rows))


def format_worth(w: SkillWorth) -> str:
    """The table as text: one row per skill, one column per seed, most worth first."""
    t = w.table
    seeds = sorted(t["seed"].unique())
    rounds = int(t["rounds"].iloc[0]) if len(t) else 0
    order = t.groupby("skill")["worth"].mean().sort_values(ascending=False, na_position="last")
    order = order.index
    lines = [
        f"What each skill is worth to spin_aware: {w.rules}",
        f"full bot {_bot({'challenge': w.challenge} if w.challenge else {})} (challenge rate "
        f"chosen on seed {w.tune_seed}); player 0 denied one skill against a field of the "
        f"full bot, paired with player 0 full on the same {rounds:,} rounds per seed",
        "worth = points of round-win share player 0 loses when denied [95% interval]",
        "",
    ]
    width = max((len(s) for s in order), default=5) + 2
    head = "skill".ljust(width) + "".join(f"seed {s}".ljust(24) for s in seeds)
    lines.append(head)
    for skill in order:
        cells = []
        for s in seeds:
            r = t[(t["skill"] == skill) & (t["seed"] == s)].iloc[0]
            if r.note:
                cells = [f"n/a: {r.note}"]
                break
            cells.append(f"{r.worth:+6.2f} [{r.low:+.2f}, {r.high:+.2f}]".ljust(24))
        lines.append((skill.ljust(width) + "".join(cells)).rstrip())
    return "\n".join(lines)


#: the columns of a table ``worth --out FILE.csv`` writes (:meth:`SkillWorth.to_df`)
WORTH_COLUMNS = ("rules", "full_bot", "skill", "knob", "seed", "rounds", "worth", "low", "high")


def load_worth(path) -> pd.DataFrame:
    """The table ``worth --out FILE.csv`` wrote (:meth:`SkillWorth.to_df`); one-line
    :class:`UserError` for a missing, unreadable or foreign file."""
    try:
        t = pd.read_csv(path, keep_default_na=False, na_values=[""])
    except (OSError, ValueError) as e:
        raise UserError(f"{path}: not a readable worth table: {e}") from None
    missing = [c for c in WORTH_COLUMNS if c not in t.columns]
    if missing:
        raise UserError(
            f"{path} is not a worth table (no column {missing[0]!r}; write one with "
            "'worth --out FILE.csv')"
        )
    notes = t["note"] if "note" in t.columns else [""] * len(t)
    t["note"] = ["" if v != v else str(v) for v in notes]  # NaN (an empty cell): no note
    return t


def pooled_worth(table: pd.DataFrame) -> pd.DataFrame:
    """Each rule set's skills pooled over its seeds: the mean of the seeds' worths (the
    seeds' rounds are independent), its 95% interval from the seeds' standard errors
    (sqrt(sum se^2) / k), most worth first within each rule set; a skill whose worth is not
    measured (``note``) keeps its note and NaN. Columns ``rules``, ``skill``, ``seeds``,
    ``rounds`` (in all), ``worth``, ``low``, ``high``, ``note``."""
    rows = []
    for (rules, skill), g in table.groupby(["rules", "skill"], sort=False):
        measured = g[g["worth"].notna()]
        if measured.empty:
            est = (math.nan, math.nan, math.nan)
        else:
            se = (measured["high"] - measured["low"]) / (2 * Z95)
            mean = float(measured["worth"].mean())
            half = Z95 * math.sqrt(float((se**2).sum())) / len(measured)
            est = (mean, mean - half, mean + half)
        rows.append(
            dict(rules=rules, skill=skill, seeds=len(g), rounds=int(g["rounds"].sum()))
            | dict(zip(("worth", "low", "high"), est))
            | dict(note=str(g["note"].iloc[0]) if measured.empty else "")
        )
    out = pd.DataFrame(rows)
    if out.empty:
        return out
    order = out["rules"].drop_duplicates().tolist()
    out["_r"] = out["rules"].map(order.index)
    out = out.sort_values(["_r", "worth"], ascending=[True, False], na_position="last")
    return out.drop(columns="_r").reset_index(drop=True)
