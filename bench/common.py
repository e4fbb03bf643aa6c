"""Small helpers shared by the benchmarks: percentiles, timers, memory."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from typing import Any


def summary(samples_ms: list[float]) -> dict[str, float]:
    if not samples_ms:
        return {"n": 0}
    ordered = sorted(samples_ms)

    def pct(p: float) -> float:
        return round(ordered[min(len(ordered) - 1, int(p * len(ordered)))], 3)

    return {
        "n": len(ordered),
        "p50": pct(0.5),
        "p95": pct(0.95),
        "max": round(ordered[-1], 3),
        "mean": round(statistics.fmean(ordered), 3),
    }


def timed(fn: Callable[[], Any]) -> tuple[Any, float]:
    start = time.perf_counter()
    result = fn()
    return result, (time.perf_counter() - start) * 1000


def rss_mb() -> float:
    """Resident memory of this process in MB (Linux /proc)."""
    with open("/proc/self/statm") as statm:
        pages = int(statm.read().split()[1])
    import resource

    return round(pages * resource.getpagesize() / 1_048_576, 1)


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time of another process so far (Linux /proc), 0 once it is gone."""
    import os

    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
