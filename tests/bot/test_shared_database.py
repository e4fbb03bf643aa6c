"""Several bot processes on one PostgreSQL: each stands for a process with its own engine.

Commands on one channel from two processes are serialised by PostgreSQL's advisory lock
(neither answers "the table changed"), and a due reminder is sent once however many
schedulers scan at the same moment.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator
from datetime import timedelta

import pytest
from sqlmodel import SQLModel
from support import caller
from test_scheduler import RecordingOutbox

from bot.clock import ManualClock
from bot.scheduler import Scheduler
from bot.storage.db import Database, lock_key
from bot.table import TableService

pytestmark = pytest.mark.skipif(
    not os.environ.get("TEST_DATABASE_URL"),
    reason="several processes share a PostgreSQL database: set TEST_DATABASE_URL (CI sets it)",
)
ANN, BOB = caller("ann"), caller("bob")


@pytest.fixture
async def databases() -> AsyncIterator[list[Database]]:
    url = os.environ["TEST_DATABASE_URL"]
    first = Database(url)
    async with first.engine.begin() as conn:
        await conn.run_sync(SQLModel.metadata.drop_all)
    await first.init()
    opened = [first, Database(url), Database(url)]
    yield opened
    for database in opened:
        await database.close()


async def begin_in_chan_1(service: TableService) -> None:
    for who, line in (
        (ANN, "/campaign create game:dash scenario:sprint"),
        (ANN, "/campaign join role:red"),
        (BOB, "/campaign join role:blue"),
        (ANN, "/campaign begin"),
    ):
        assert not (await service.handle(who, line))[0].error


async def test_one_channel_from_three_processes_is_served_in_turn(
    databases: list[Database],
) -> None:
    services = [TableService(db, new_seed=lambda: 77, limits=None) for db in databases]
    first = services[0]
    await begin_in_chan_1(first)
    burst = [services[n % 3].handle(ANN if n % 2 else BOB, "/act what:peek") for n in range(30)]
    answers = await asyncio.gather(*burst)
    changed = [a for a in answers if "table changed" in a[0].content]
    assert changed == []  # serialised across processes, not raced and refused
    campaign = await first.repo.live_in_channel("chan-1")
    assert campaign is not None
    rows = await first.repo.log(campaign.id or 0)
    assert [r.seq for r in rows] == list(range(1, len(rows) + 1))
    applied = sum(1 for a in answers if not a[0].error)
    assert len([r for r in rows if r.kind == "action"]) == applied
    assert all(ok for _, ok, _ in await first.verify())


async def test_the_lock_is_per_channel_and_freed_when_a_process_dies(
    databases: list[Database],
) -> None:
    one, two, _ = databases
    async with one.channel_lock("chan-a"):
        # Another channel is free; the same channel waits.
        async with two.channel_lock("chan-b"):
            pass
        second = two.channel_lock("chan-a")
        waiting = asyncio.ensure_future(second.__aenter__())
        await asyncio.sleep(0.3)
        assert not waiting.done()
    await asyncio.wait_for(waiting, 5)
    await second.__aexit__(None, None, None)
    # A process that dies holding a lock: its connection goes, and so does the lock.
    held = one._lock_engine
    assert held is not None
    conn = await held.connect()
    await conn.exec_driver_sql(f"SELECT pg_advisory_lock({lock_key('chan-c')})")
    await conn.invalidate()  # the connection drops, as when the process is killed
    async with asyncio.timeout(5), two.channel_lock("chan-c"):
        pass


async def test_each_reminder_is_sent_once_by_three_schedulers(databases: list[Database]) -> None:
    clock = ManualClock()
    services = [TableService(db, new_seed=lambda: 5, clock=clock, limits=None) for db in databases]
    first = services[0]
    await begin_in_chan_1(first)
    outboxes = [RecordingOutbox() for _ in services]
    schedulers = [Scheduler(s, o, clock) for s, o in zip(services, outboxes, strict=True)]
    clock.advance(timedelta(hours=24))
    for _ in range(3):
        await asyncio.gather(*(s.scan() for s in schedulers))
    posts = [text for outbox in outboxes for text in outbox.texts()]
    assert len(posts) == 2  # one reminder each for ann and bob, from whichever process won
    assert all("waiting on you for 24 hours" in p for p in posts)
