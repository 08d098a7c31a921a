"""How much luck does a wheel deal? The spread of its spaces' effects on the spinner.

A spin is a lottery over the wheel's spaces. :func:`wheel_luck` measures how much the
outcome of that lottery matters to the player who spins: the standard deviation, over the
wheel's segments, of each space's effect on the spinner's chance of winning the round
(measured by the paired replays of :func:`unospin_sim.run.replay_spins`, each space against
the blank ``none`` control on the same spins, as in :func:`.wheel_effects.wheel_effects`).

- A wheel whose spaces all do the same to the spinner has no wheel luck (0), however large
  that common effect: which space comes up changes nothing.
- The spread is weighted by the wheel's weights (the share of segments each space holds), so
  a space on one segment of twelve counts a twelfth.
- Its 95% interval is a percentile bootstrap over rounds (every replay of a round's spins is
  resampled together, as the cluster-robust intervals of ``wheel_effects`` treat them).

The figure is in points of win share (percentage points): a wheel luck of 10 means the
spinner's chance of winning the round moves, from segment to segment, by 10 points in the
root-mean-square.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..rules import parse_rules

__all__ = ["wheel_luck"]

#: bootstrap resamples of :func:`wheel_luck`'s interval
N_BOOT = 1000


def _weighted_sd(effects: np.ndarray, w: np.ndarray) -> np.ndarray:
    """Weighted standard deviation over the last axis (``w`` sums to 1)."""
    mean = effects @ w
    return np.sqrt(np.clip(((effects - mean[..., None]) ** 2) @ w, 0.0, None))


def wheel_luck(
    replays: pd.DataFrame,
    weights: dict[str, float] | None = None,
    *,
    n_boot: int = N_BOOT,
    seed: int = 0,
) -> dict:
    """The segment-weighted standard deviation of the spaces' effects on the spinner.

    Parameters
    ----------
    replays : pandas.DataFrame
        The table of :func:`unospin_sim.run.replay_spins` (with its ``none`` control and its
        ``attrs``: ``rules`` names the wheel when ``weights`` is not given).
    weights : dict, optional
        Space -> weight (default: the wheel of ``replays.attrs["rules"]``). Every space with
        a weight must have been replayed.
    n_boot : int
        Bootstrap resamples of rounds for the interval.
    seed : int
        Seed of the bootstrap.

    Returns
    -------
    dict
        ``luck`` with its 95% interval ``low``, ``high`` (points of win share), ``mean``
        (the wheel's weighted mean effect on the spinner, in points), ``spins`` and
        ``rounds`` measured, and ``effects`` (space -> effect in points).

    Examples
    --------
    >>> from unospin_sim.run import replay_spins
    >>> rep = replay_spins("spin2025(players=4)", games=2000, seed=1)  # doctest: +SKIP
    >>> wheel_luck(rep)["luck"]  # doctest: +SKIP
    """
    if weights is None:
        weights = dict(parse_rules(replays.attrs["rules"]).option("wheel"))
    weights = {s: float(w) for s, w in weights.items() if w > 0}
    if not weights:
        raise ValueError("the wheel has no space with a weight")
    replayed = set(replays["space"].astype(str))
    if "none" not in replayed:
        raise ValueError("the replays hold no 'none' control")
    missing = sorted(set(weights) - replayed)
    if missing:
        raise ValueError(f"spaces with a weight were not replayed: {', '.join(missing)}")
    spaces = list(weights)
    w = np.array([weights[s] for s in spaces]) / sum(weights.values())

    df = replays.sort_values(["pair", "space"], kind="stable")
    names = df["space"].astype(str)
    ctrl = df[names == "none"].set_index("pair")
    spinner = ctrl["spinner"].to_numpy(np.int64)
    off = (ctrl["winner"].to_numpy(np.int64) == spinner).astype(float)
    rounds, cluster = np.unique(ctrl["game"].to_numpy(np.int64), return_inverse=True)
    # per round: the spins measured and each space's summed change of the spinner's win
    n_per_round = np.bincount(cluster, minlength=len(rounds)).astype(float)
    sums = np.empty((len(rounds), len(spaces)))
    for j, space in enumerate(spaces):
        sub = df[names == space].set_index("pair").reindex(ctrl.index)
        on = (sub["winner"].to_numpy(np.int64) == spinner).astype(float)
        sums[:, j] = np.bincount(cluster, weights=on - off, minlength=len(rounds))
    effects = sums.sum(axis=0) / n_per_round.sum()
    luck = float(_weighted_sd(effects, w))

    rng = np.random.default_rng(seed)
    boot = np.empty(n_boot)
    for b in range(n_boot):
        take = rng.integers(0, len(rounds), len(rounds))
        counts = np.bincount(take, minlength=len(rounds)).astype(float)
        boot[b] = _weighted_sd((counts @ sums) / (counts @ n_per_round), w)
    low, high = np.percentile(boot, [2.5, 97.5])
    return {
        "luck": 100 * luck,
        "low": 100 * float(low),
        "high": 100 * float(high),
        "mean": 100 * float(effects @ w),
        "spins": len(ctrl),
        "rounds": len(rounds),
        "effects": {s: 100 * float(e) for s, e in zip(spaces, effects)},
    }
