"""Estimators with confidence intervals shared by the analyses.

Rounds are independent; spins are not (several per round), so every per-spin estimate
here is a ratio of per-round sums with a cluster-robust (by round) delta-method variance.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .summary import Z95, mean_interval, wilson_interval

__all__ = ["Z95", "wilson_interval", "mean_interval", "cluster_ratio", "cluster_ratio_diff"]


def _per_cluster(values: pd.Series, clusters: pd.Series, index) -> tuple[np.ndarray, np.ndarray]:
    """Per-cluster sums of ``values`` and counts, aligned on ``index`` (missing -> 0)."""
    g = pd.DataFrame({"c": clusters.to_numpy(), "y": values.to_numpy(float)}).groupby("c")["y"]
    sums = g.sum().reindex(index, fill_value=0.0).to_numpy(float)
    counts = g.size().reindex(index, fill_value=0).to_numpy(float)
    return sums, counts


def cluster_ratio(values: pd.Series, clusters: pd.Series, n_clusters_index=None,
                  z: float = Z95) -> tuple[float, float, float]:
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


def cluster_ratio_diff(values: pd.Series, clusters: pd.Series, in_group: pd.Series,
                       z: float = Z95) -> tuple[float, float, float]:
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
