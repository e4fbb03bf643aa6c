"""Token buckets that keep one user or one channel from flooding the table, and the caps on
live campaigns that keep one player or one server from filling the database.

On PostgreSQL the buckets live in the database (`SharedBuckets`), so several processes give
a user one burst between them, not one each; on SQLite (one machine, usually one process)
they are kept in the process (`Buckets`).
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import case, delete, func
from sqlalchemy.dialects.postgresql import insert
from sqlmodel import col

from bot.clock import Clock
from bot.storage.db import Database
from bot.storage.models import RateBucket

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


PRUNE_EVERY = 1000  # takes between two clean-ups of full buckets


class SharedBuckets:
    """The same buckets, one row per key in PostgreSQL, taken in one atomic statement."""

    def __init__(self, limit: Limit, clock: Clock, db: Database, scope: str) -> None:
        self.limit = limit
        self.clock = clock
        self.db = db
        self.scope = scope  # "user" or "channel": keys of both share the table
        self._takes = 0

    async def take(self, key: str) -> float:
        """Spend one token; return 0 if allowed, else the seconds to wait."""
        now = self.clock.now().timestamp()
        burst = float(self.limit.burst)
        rate = burst / self.limit.per_seconds
        table = RateBucket.__table__  # type: ignore[attr-defined]
        refilled = func.least(burst, table.c.tokens + (now - table.c.at) * rate)
        statement = (
            insert(table)
            .values(key=f"{self.scope}:{key}"[:80], tokens=burst - 1, at=now, granted=True)
            .on_conflict_do_update(
                index_elements=[table.c.key],
                set_={
                    "tokens": case((refilled >= 1, refilled - 1), else_=refilled),
                    "at": now,
                    "granted": refilled >= 1,
                },
            )
            .returning(table.c.tokens, table.c.granted)
        )
        async with self.db.engine.begin() as conn:
            tokens, granted = (await conn.execute(statement)).one()
        self._takes += 1
        if self._takes % PRUNE_EVERY == 0:
            await self._prune(now)
        return 0.0 if granted else (1 - float(tokens)) / rate

    async def _prune(self, now: float) -> None:
        """Forget buckets that have been full again for a while."""
        async with self.db.engine.begin() as conn:
            await conn.execute(
                delete(RateBucket).where(col(RateBucket.at) < now - 2 * self.limit.per_seconds)
            )
