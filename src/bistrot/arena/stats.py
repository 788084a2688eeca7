"""Small statistics for arena reports: means with confidence intervals, proportions, medians.

>>> summary = mean_ci95([1, 2, 3, 4])
>>> round(summary.mean, 2), [round(x, 2) for x in summary.ci95]
(2.5, [0.45, 4.55])
>>> [round(x, 3) for x in wilson_ci95(75, 100)]
[0.657, 0.825]
>>> wilson_ci95(0, 10)[0], wilson_ci95(10, 10)[1]
(0.0, 1.0)
>>> ratio = ratio_ci95([2, 4], [2, 2])   # equal denominators: the mean of 1 and 2 per unit
>>> round(ratio.mean, 2), [round(x, 3) for x in ratio.ci95]
(1.5, [-4.853, 7.853])
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from typing import NamedTuple

Z95 = 1.959963984540054
# Two-sided 97.5% quantiles of Student's t for small samples; beyond 30 the normal one is used.
_T975 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306, 9: 2.262,
         10: 2.228, 11: 2.201, 12: 2.179, 13: 2.160, 14: 2.145, 15: 2.131, 16: 2.120, 17: 2.110,
         18: 2.101, 19: 2.093, 20: 2.086, 21: 2.080, 22: 2.074, 23: 2.069, 24: 2.064, 25: 2.060,
         26: 2.056, 27: 2.052, 28: 2.048, 29: 2.045, 30: 2.042}


class MeanCI(NamedTuple):
    """A sample mean and its 95% confidence interval ``[low, high]``."""

    mean: float
    ci95: list[float]


def mean_ci95(values: Sequence[float]) -> MeanCI:
    """Mean and 95% interval from Student's t (normal beyond 30 degrees of freedom)."""
    n = len(values)
    if n == 0:
        raise ValueError("no values to summarise")
    mean = statistics.fmean(values)
    if n == 1:
        return MeanCI(mean, [mean, mean])
    quantile = _T975.get(n - 1, Z95)
    half = quantile * statistics.stdev(values) / math.sqrt(n)
    return MeanCI(mean, [mean - half, mean + half])


def ratio_ci95(numerators: Sequence[float], denominators: Sequence[float]) -> MeanCI:
    """A ratio of sums ``sum(numerators) / sum(denominators)`` over independent units (e.g. tokens
    per deal over matches of different lengths) and its 95% interval, by linearisation (the
    ratio estimator); with equal denominators it is :func:`mean_ci95` of the unit ratios."""
    m = len(numerators)
    if m == 0 or m != len(denominators):
        raise ValueError("a ratio needs as many denominators as numerators, at least one")
    total = math.fsum(denominators)
    if total <= 0:
        raise ValueError("the denominators must add up to more than 0")
    ratio = math.fsum(numerators) / total
    if m == 1:
        return MeanCI(ratio, [ratio, ratio])
    residuals = [x - ratio * y for x, y in zip(numerators, denominators, strict=True)]
    spread = math.sqrt(math.fsum(e * e for e in residuals) / (m - 1) / m) / (total / m)
    half = _T975.get(m - 1, Z95) * spread
    return MeanCI(ratio, [ratio - half, ratio + half])


def wilson_ci95(successes: float, trials: int) -> tuple[float, float]:
    """Wilson score interval for a proportion (sound near 0 and 1, unlike mean ± 2 s.e.)."""
    if trials <= 0:
        raise ValueError("a proportion needs at least one trial")
    p = successes / trials
    denominator = 1 + Z95**2 / trials
    centre = (p + Z95**2 / (2 * trials)) / denominator
    half = Z95 * math.sqrt(p * (1 - p) / trials + Z95**2 / (4 * trials**2)) / denominator
    # At 0 or n successes the interval touches 0 or 1 exactly; rounding would miss it by 1e-17.
    low = 0.0 if successes <= 0 else max(0.0, centre - half)
    high = 1.0 if successes >= trials else min(1.0, centre + half)
    return low, high


def median_max_ms(seconds: Sequence[float]) -> dict[str, float]:
    """``{"median": ..., "max": ...}`` in milliseconds, for think-time reports."""
    if not seconds:
        return {"median": 0.0, "max": 0.0}
    return {"median": statistics.median(seconds) * 1000, "max": max(seconds) * 1000}
