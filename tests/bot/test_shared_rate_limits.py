"""Rate limits shared across processes on PostgreSQL (issue #33, item 5): two processes give
a user one burst between them, not one each. SQLite keeps them per process (documented)."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest
from support import caller

from bot.clock import ManualClock
from bot.ratelimit import Limit, RateLimits
from bot.storage.db import Database
from bot.table import TableService

ANN = caller("ann")
LIMITS = RateLimits(user=Limit(burst=4, per_seconds=40), channel=Limit(burst=100, per_seconds=1))


async def allowed(table: TableService, times: int) -> int:
    answers = [await table.handle(ANN, "/help") for _ in range(times)]
    return sum(1 for a in answers if not a[0].error)


async def test_two_processes_share_one_burst(db: Database) -> None:
    clock = ManualClock()
    first = TableService(db, clock=clock, limits=LIMITS)
    second = TableService(db, clock=clock, limits=LIMITS)  # another process, same database
    granted = await allowed(first, 3) + await allowed(second, 3)
    if db.is_sqlite:
        assert granted == 6  # per process on SQLite: each has its own burst of 4
        return
    assert granted == 4
    clock.advance(timedelta(seconds=10))  # one token back (4 per 40 s)
    assert await allowed(second, 2) == 1


async def test_a_concurrent_flood_gets_exactly_the_burst(db: Database) -> None:
    if db.is_sqlite:
        pytest.skip("SQLite keeps buckets per process (tested in test_reliability)")
    clock = ManualClock()
    tables = [TableService(db, clock=clock, limits=LIMITS) for _ in range(4)]
    answers = await asyncio.gather(*(t.handle(ANN, "/help") for t in tables for _ in range(5)))
    assert sum(1 for a in answers if not a[0].error) == 4
