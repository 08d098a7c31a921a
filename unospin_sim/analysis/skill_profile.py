"""The pure figures of a skill profile (:mod:`unospin_sim.studies.skill_profile` plays it):
the budgets of the skill trace (:func:`trace_budgets`), each doubling's gain
(:func:`trace_step`), the skill depth (:func:`skill_depth`) and whether a field's order of
strength holds head to head (:func:`order_holds`).

Every share is of ROUNDS (single hands); a gain is in percentage points of the rounds won
above the fair share 1/P.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..errors import UserError
from .stats import wilson_interval

__all__ = [
    "DEPTH_GAIN",
    "DEPTH_HIGH",
    "FIRST_BUDGET",
    "ISSUE_ROUNDS",
    "order_holds",
    "skill_depth",
    "trace_budgets",
    "trace_step",
]

#: the skill trace's smallest budget (search's ``rollouts``)
FIRST_BUDGET = 8
#: the largest budget search's ``rollouts`` knob takes is 100000: the largest power of two
#: times :data:`FIRST_BUDGET` below it
MAX_BUDGET = 65536
#: a doubling gains "nothing more" below this share of the rounds (1 point) ...
DEPTH_GAIN = 0.01
#: ... with the 95% upper bound of its gain below this (2 points)
DEPTH_HIGH = 0.02
#: rounds per step of the skill trace that issue 50 defines the skill depth with
ISSUE_ROUNDS = 20_000


def trace_budgets(top: int) -> list[int]:
    """The skill trace's budgets: 8, 16, 32, ... up to ``top``.

    Raises
    ------
    UserError
        ``top`` is not 8 times a power of two between 16 and 65536 (one line).

    Examples
    --------
    >>> trace_budgets(64)
    [8, 16, 32, 64]
    """
    ok = (
        isinstance(top, int)
        and not isinstance(top, bool)
        and 2 * FIRST_BUDGET <= top <= MAX_BUDGET
        and top % FIRST_BUDGET == 0
        and (top // FIRST_BUDGET) & (top // FIRST_BUDGET - 1) == 0
    )
    if not ok:
        raise UserError(
            f"--top-budget must be 8 doubled at least once (16, 32, 64, ... up to "
            f"{MAX_BUDGET}), got {top!r}"
        )
    out = [FIRST_BUDGET]
    while out[-1] < top:
        out.append(2 * out[-1])
    return out


def trace_step(budget: int, wins: int, rounds: int, players: int) -> dict:
    """One doubling of the skill trace: the bot at ``2 * budget`` rollouts won ``wins`` of
    ``rounds`` rounds against ``players - 1`` bots at ``budget``.

    Returns
    -------
    dict
        ``budget`` (the one below), ``doubled`` (2 x budget), ``players``, ``rounds``,
        ``wins``, ``share``, ``gain`` (share - 1/P), ``gain_low``, ``gain_high`` (the 95%
        Wilson interval of the share less 1/P).

    Examples
    --------
    >>> s = trace_step(8, 560, 1000, 2)
    >>> round(s["gain"], 3)
    0.06
    """
    if rounds < 1 or not 0 <= wins <= rounds:
        raise UserError(f"a trace step needs 0 <= wins <= rounds >= 1, got {wins} of {rounds}")
    fair = 1.0 / players
    lo, hi = wilson_interval(int(wins), int(rounds))
    return {
        "budget": int(budget),
        "doubled": 2 * int(budget),
        "players": int(players),
        "rounds": int(rounds),
        "wins": int(wins),
        "share": wins / rounds,
        "gain": wins / rounds - fair,
        "gain_low": lo - fair,
        "gain_high": hi - fair,
    }


def skill_depth(
    trace: pd.DataFrame, gain_below: float = DEPTH_GAIN, high_below: float = DEPTH_HIGH
) -> int | None:
    """The skill depth: the smallest budget from which every further doubling gains less
    than ``gain_below`` of the rounds with its 95% upper bound below ``high_below``.

    Parameters
    ----------
    trace : pandas.DataFrame
        One row per doubling (:func:`trace_step`): ``budget`` (the one doubled), ``gain``,
        ``gain_high``, in any order.

    Returns
    -------
    int or None
        The budget (a doubling *from* it gains nothing more, nor does any after it); None
        when the last doubling still gains ("not reached" by the top budget).

    Examples
    --------
    >>> t = pd.DataFrame({"budget": [8, 16, 32], "gain": [0.05, 0.004, 0.002],
    ...                   "gain_high": [0.06, 0.015, 0.012]})
    >>> skill_depth(t)
    16
    """
    if not len(trace):
        raise UserError("a skill trace needs at least one doubling")
    t = trace.sort_values("budget")
    depth = None
    for budget, gain, high in zip(t["budget"], t["gain"], t["gain_high"]):
        flat = gain < gain_below and high < high_below
        if not flat:
            depth = None
        elif depth is None:
            depth = int(budget)
    return depth


def order_holds(pairings: pd.DataFrame, order: list[str]) -> dict:
    """Whether every stronger strategy of ``order`` beats every weaker one head to head.

    Parameters
    ----------
    pairings : pandas.DataFrame
        Rows of :func:`~unospin_sim.studies.ratings.pairing_row` (``strategy`` as player 0
        against ``opponent``, the field of the others; ``round_low``, ``fair_share``);
        the stronger one's row of each pair must be there.
    order : list of str
        The field, strongest first (strategy labels as in ``pairings``).

    Returns
    -------
    dict
        ``holds`` (every stronger one's 95% lower bound above the fair share), ``pairs``
        (how many), ``failing`` (``"a vs b"`` for each pair where it is not).

    Examples
    --------
    >>> p = pd.DataFrame({"strategy": ["a", "a", "b"], "opponent": ["b", "c", "c"],
    ...                   "round_low": [0.55, 0.6, 0.49], "fair_share": [0.5] * 3})
    >>> order_holds(p, ["a", "b", "c"])["failing"]
    ['b vs c']
    """
    failing, pairs = [], 0
    for i, a in enumerate(order):
        for b in order[i + 1 :]:
            mine = np.array(
                [
                    s == a and (o == b or o.endswith(f" x {b}"))
                    for s, o in zip(pairings["strategy"], pairings["opponent"])
                ],
                dtype=bool,
            )
            rows = pairings[mine]
            if not len(rows):
                raise UserError(f"no pairing of {a!r} against {b!r}: the order cannot be checked")
            pairs += 1
            r = rows.iloc[0]
            if not r["round_low"] > r["fair_share"]:
                failing.append(f"{a} vs {b}")
    return {"holds": not failing, "pairs": pairs, "failing": failing}
