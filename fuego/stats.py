"""How sure a forecast is: confidence intervals for counts of runs (pure arithmetic).

A forecast's share ("escaped in 80 % of the runs") is an estimate from a finite number of
runs; these functions say how far the true chance may be from it:

- :func:`wilson`: the Wilson score interval of ``k`` successes in ``n`` runs. Unlike the
  textbook ``p +/- z*sqrt(p(1-p)/n)`` it stays inside 0..1 and is not zero-wide at 0 % or
  100 % (no run of 500 killing Bjorn does not prove he cannot die);
- :func:`mean_interval`: a normal interval for the mean of a whole-number outcome (Dramatic
  Wounds, areas burning) from its histogram ``{value: runs}``;
- :func:`runs_for`: how many runs give a share to within ``+/- half_width``;
- :func:`newcombe`: the interval of a difference of two shares (a what-if sweep's "this change
  saves Bjorn in 12 more runs of 100"), Newcombe's hybrid score interval from the two Wilson
  intervals; :func:`mean_difference` the normal interval of a difference of two means.

``Z95`` (1.959964) is the two-sided 95 % normal quantile, used throughout.
"""

from __future__ import annotations

import math

__all__ = ["Z95", "wilson", "mean_interval", "runs_for", "newcombe", "mean_difference"]

#: The two-sided 95 % quantile of the standard normal distribution.
Z95 = 1.959963984540054


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of ``k`` successes in ``n`` trials, as ``(low, high)``;
    ``(0.0, 1.0)`` when there are no trials."""
    if n <= 0:
        return 0.0, 1.0
    if not 0 <= k <= n:
        raise ValueError(f"{k} successes in {n} trials")
    p = k / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z / (1 + z2 / n) * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    # at k = 0 or k = n one end is exactly 0 or 1 (rounding aside)
    low = 0.0 if k == 0 else max(0.0, centre - half)
    high = 1.0 if k == n else min(1.0, centre + half)
    return low, high


def mean_interval(hist: dict[int, int], n: int, z: float = Z95) -> tuple[float, float]:
    """A normal confidence interval for the mean of a value counted as ``{value: runs}`` over
    ``n`` runs (sample variance; a zero-wide interval when every run agrees), kept within
    the values seen."""
    if n <= 0:
        return 0.0, 0.0
    mean = sum(v * c for v, c in hist.items()) / n
    if n == 1:
        return mean, mean
    var = sum(c * (v - mean) ** 2 for v, c in hist.items()) / (n - 1)
    half = z * math.sqrt(var / n)
    # the mean cannot leave the values seen (no negative wounds)
    return max(min(hist), mean - half), min(max(hist), mean + half)


def runs_for(half_width: float, p: float = 0.5, z: float = Z95) -> int:
    """Runs needed for a share near ``p`` to be known to within ``+/- half_width`` (95 %):
    ``z^2 p (1-p) / half_width^2``, rounded up; ``p = 0.5`` is the worst case."""
    if not 0 < half_width < 1:
        raise ValueError(f"half width {half_width} is not between 0 and 1")
    p = min(max(p, 0.0), 1.0)
    return max(1, math.ceil(z * z * p * (1 - p) / (half_width * half_width)))


def newcombe(k1: int, n1: int, k2: int, n2: int, z: float = Z95) -> tuple[float, float]:
    """The interval of ``k1/n1 - k2/n2`` for two independent shares, as ``(low, high)``:
    Newcombe's hybrid score interval (1998, method 10), built from each share's Wilson
    interval, so it stays within -1..1 and is not zero-wide at 0 % or 100 %."""
    if n1 <= 0 or n2 <= 0:
        return -1.0, 1.0
    p1, p2 = k1 / n1, k2 / n2
    l1, u1 = wilson(k1, n1, z)
    l2, u2 = wilson(k2, n2, z)
    d = p1 - p2
    low = d - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2)
    high = d + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)
    return max(-1.0, low), min(1.0, high)


def _mean_var(hist: dict[int, int], n: int) -> tuple[float, float]:
    mean = sum(v * c for v, c in hist.items()) / n
    var = sum(c * (v - mean) ** 2 for v, c in hist.items()) / (n - 1) if n > 1 else 0.0
    return mean, var


def mean_difference(hist1: dict[int, int], n1: int, hist2: dict[int, int], n2: int,
                    z: float = Z95) -> tuple[float, float, float]:
    """The difference of two means counted as ``{value: runs}``, with its normal interval
    (unequal variances): ``(difference, low, high)``."""
    if n1 <= 0 or n2 <= 0:
        return 0.0, 0.0, 0.0
    m1, v1 = _mean_var(hist1, n1)
    m2, v2 = _mean_var(hist2, n2)
    half = z * math.sqrt(v1 / n1 + v2 / n2)
    d = m1 - m2
    return d, d - half, d + half
