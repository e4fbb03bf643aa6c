"""Token buckets that keep one user or one channel from flooding the table, and the caps on
live campaigns that keep one player or one server from filling the database."""

from __future__ import annotations

from dataclasses import dataclass

from bot.clock import Clock

MAX_KEYS = 10_000


@dataclass(frozen=True)
class Limit:
    burst: int  # commands allowed at once
    per_seconds: float  # time to earn the whole burst back


@dataclass(frozen=True)
class RateLimits:
    user: Limit = Limit(burst=20, per_seconds=20.0)
    channel: Limit = Limit(burst=60, per_seconds=20.0)
    live_per_user: int = 5  # live campaigns one player may own, across servers
    live_per_server: int = 50  # live campaigns in one server


class Buckets:
    def __init__(self, limit: Limit, clock: Clock) -> None:
        self.limit = limit
        self.clock = clock
        self._state: dict[str, tuple[float, float]] = {}  # key -> (tokens, at seconds)

    def take(self, key: str) -> float:
        """Spend one token; return 0 if allowed, else the seconds to wait."""
        now = self.clock.now().timestamp()
        rate = self.limit.burst / self.limit.per_seconds
        tokens, at = self._state.get(key, (float(self.limit.burst), now))
        tokens = min(float(self.limit.burst), tokens + (now - at) * rate)
        if tokens < 1:
            self._state[key] = (tokens, now)
            return (1 - tokens) / rate
        self._state[key] = (tokens - 1, now)
        if len(self._state) > MAX_KEYS:
            self._forget_full(now, rate)
        return 0.0

    def _forget_full(self, now: float, rate: float) -> None:
        full = [
            k for k, (t, at) in self._state.items() if t + (now - at) * rate >= self.limit.burst
        ]
        for key in full:
            del self._state[key]
