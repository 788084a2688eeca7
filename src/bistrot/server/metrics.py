"""A window over the last durations of something, summarised as percentiles (for /healthz).

>>> window = LatencyWindow(size=100)
>>> for ms in range(1, 101):
...     window.record(ms / 1000)
>>> window.summary()
{'count': 100, 'ms_p50': 51.0, 'ms_p99': 100.0}
"""

from __future__ import annotations

from collections import deque


class LatencyWindow:
    """The last ``size`` durations (seconds) and how many were recorded in all."""

    def __init__(self, size: int = 2000) -> None:
        self._times: deque[float] = deque(maxlen=size)
        self.count = 0

    def record(self, seconds: float) -> None:
        self._times.append(seconds)
        self.count += 1

    def percentile_ms(self, q: float) -> float:
        times = sorted(self._times)
        if not times:
            return 0.0
        return round(1000 * times[min(len(times) - 1, int(q * len(times)))], 2)

    def summary(self) -> dict[str, float]:
        return {"count": self.count, "ms_p50": self.percentile_ms(0.5), "ms_p99": self.percentile_ms(0.99)}
