"""Figures the benchmarks of every package report."""

from __future__ import annotations


def percentile(values: list[float], q: float) -> float:
    """The q-quantile (0..1) of `values`, interpolated between the two nearest ranks; nan when empty."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    k = (len(ordered) - 1) * q
    lo, hi = int(k), min(int(k) + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo)
