"""Estimators with confidence intervals shared by the analyses.

Proportions get Wilson intervals and means normal intervals. Rounds are independent; spins
are not (several per round), so every per-spin estimate is a ratio of per-round sums with a
cluster-robust (by round) delta-method variance.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

__all__ = [
    "Z95",
    "cluster_ratio",
    "cluster_ratio_diff",
    "format_interval",
    "mean_interval",
    "players_of",
    "wilson_interval",
]

#: two-sided 95% standard-normal quantile
Z95 = 1.959963984540054


def wilson_interval(k, n, z: float = Z95):
    """Wilson score interval for a binomial proportion.

    Parameters
    ----------
    k, n : int or array_like
        Successes and trials (``0 <= k <= n``).
    z : float
        Normal quantile (default: 95% two-sided).

    Returns
    -------
    low, high : float or numpy.ndarray
        Interval bounds; NaN where ``n == 0``.
    """
    k = np.asarray(k, dtype=np.float64)
    n = np.asarray(n, dtype=np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = k / n
        denom = 1.0 + z * z / n
        centre = (p + z * z / (2.0 * n)) / denom
        half = z * np.sqrt(p * (1.0 - p) / n + z * z / (4.0 * n * n)) / denom
        low, high = np.clip(centre - half, 0.0, 1.0), np.clip(centre + half, 0.0, 1.0)
    if low.ndim == 0:
        return float(low), float(high)
    return low, high


def mean_interval(x, z: float = Z95) -> tuple[float, float, float]:
    """Mean of ``x`` with a normal-approximation interval (``mean +- z * sd / sqrt(n)``).

    Parameters
    ----------
    x : array_like
        Observations.
    z : float
        Normal quantile (default: 95% two-sided).

    Returns
    -------
    mean, low, high : float
        NaN when there are no observations; the bounds are NaN for one observation.
    """
    x = np.asarray(x, dtype=np.float64)
    n = x.size
    if n == 0:
        return math.nan, math.nan, math.nan
    mean = float(x.mean())
    if n == 1:
        return mean, math.nan, math.nan
    half = z * float(x.std(ddof=1)) / math.sqrt(n)
    return mean, mean - half, mean + half


def players_of(rounds: pd.DataFrame) -> int:
    seats = [
        int(c.rsplit("_", 1)[1])
        for c in rounds.columns
        if c.startswith("cards_left_") and c.rsplit("_", 1)[1].isdigit()
    ]
    return max(seats) + 1 if seats else int(rounds["winner"].max()) + 1


def _per_cluster(values: pd.Series, clusters: pd.Series, index) -> tuple[np.ndarray, np.ndarray]:
    """Per-cluster sums of ``values`` and counts, aligned on ``index`` (missing -> 0)."""
    g = pd.DataFrame({"c": clusters.to_numpy(), "y": values.to_numpy(float)}).groupby("c")["y"]
    sums = g.sum().reindex(index, fill_value=0.0).to_numpy(float)
    counts = g.size().reindex(index, fill_value=0).to_numpy(float)
    return sums, counts


def cluster_ratio(
    values: pd.Series, clusters: pd.Series, n_clusters_index=None, z: float = Z95
) -> tuple[float, float, float]:
    """Mean of ``values`` over observations grouped in independent ``clusters``.

    Returns ``(mean, low, high)``: the ratio estimator sum(y)/n with a cluster-robust
    delta-method interval. ``n_clusters_index`` (all cluster ids, including clusters with no
    observation) defaults to the clusters present.
    """
    index = pd.unique(clusters) if n_clusters_index is None else n_clusters_index
    y, n = _per_cluster(values, clusters, index)
    total = n.sum()
    if total == 0:
        return float("nan"), float("nan"), float("nan")
    r = y.sum() / total
    g = len(index)
    u = (y - r * n) / total
    se = np.sqrt(g / max(g - 1, 1) * np.sum(u * u))
    return float(r), float(r - z * se), float(r + z * se)


def cluster_ratio_diff(
    values: pd.Series, clusters: pd.Series, in_group: pd.Series, z: float = Z95
) -> tuple[float, float, float]:
    """Difference of the mean of ``values`` inside and outside a group of observations
    (e.g. spins landing on one space vs the others), cluster-robust by ``clusters``.

    Returns ``(difference, low, high)``.
    """
    index = pd.unique(clusters)
    mask = in_group.to_numpy(bool)
    a, n = _per_cluster(values[mask], clusters[mask], index)
    b, m = _per_cluster(values[~mask], clusters[~mask], index)
    if n.sum() == 0 or m.sum() == 0:
        return float("nan"), float("nan"), float("nan")
    r1, r2 = a.sum() / n.sum(), b.sum() / m.sum()
    u = (a - r1 * n) / n.sum() - (b - r2 * m) / m.sum()
    g = len(index)
    se = np.sqrt(g / max(g - 1, 1) * np.sum(u * u))
    d = r1 - r2
    return float(d), float(d - z * se), float(d + z * se)


def format_interval(value, low, high, digits: int = 4) -> str:
    """An estimate and its interval, ``value [low, high]``, all three to the same decimals:
    those that give ``digits`` significant digits to the larger of ``|value|`` and the
    interval's half-width (so ``1.510 [0.442, 2.606]``, not ``1.51 [0.4423, 2.606]``).

    Parameters
    ----------
    value, low, high : float
        The estimate and its interval's ends; one that is not finite prints ``-``.
    digits : int
        Significant digits of the larger of the estimate and the half-width.

    Returns
    -------
    str
        Below ``1e-6`` in size every number is written with ``digits`` significant digits
        (``%g``) instead.

    >>> format_interval(1.51004, 0.44231, 2.6059)
    '1.510 [0.442, 2.606]'
    >>> format_interval(0.0001234, -0.02, 0.02)
    '0.00012 [-0.02000, 0.02000]'
    """

    def finite(x) -> bool:
        return isinstance(x, (int, float, np.integer, np.floating)) and math.isfinite(x)

    xs = [float(x) if finite(x) else None for x in (value, low, high)]
    half = (xs[2] - xs[1]) / 2 if xs[1] is not None and xs[2] is not None else 0.0
    size = max(abs(xs[0]) if xs[0] is not None else 0.0, abs(half))
    if 0 < size < 1e-6:
        text = [f"{x:.{digits}g}" if x is not None else "-" for x in xs]
    else:
        decimals = 0 if size == 0 else max(0, digits - 1 - math.floor(math.log10(size)))
        text = [f"{x:.{decimals}f}" if x is not None else "-" for x in xs]
    return f"{text[0]} [{text[1]}, {text[2]}]"
