"""Storage guarantees: one transaction per step, optimistic versions, schema versioning."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from support import caller, text

from bot.storage import db as db_module
from bot.storage.db import Database, SchemaTooNew
from bot.storage.models import SCHEMA_VERSION, ActionLog, SchemaInfo
from bot.storage.repo import StepWrite, TableChanged
from bot.table import TableService

ANN, BOB = caller("ann"), caller("bob")


async def begin(table: TableService) -> None:
    await table.handle(ANN, "/campaign create game:dash scenario:sprint pace:3")
    await table.handle(ANN, "/campaign join role:red")
    await table.handle(BOB, "/campaign join role:blue")
    await table.handle(ANN, "/campaign begin")


async def test_stale_writer_loses_and_nothing_is_half_written(table: TableService) -> None:
    await begin(table)
    first = await table.repo.live_in_channel("chan-1")
    second = await table.repo.live_in_channel("chan-1")
    assert first is not None and second is not None
    log = ActionLog(campaign_id=first.id or 0, seq=first.step + 1, kind="action")
    await table.repo.commit_step(first, StepWrite(first.state_json or "", log, "active"))
    stale = ActionLog(campaign_id=second.id or 0, seq=second.step + 1, kind="action")
    with pytest.raises(TableChanged, match="try again"):
        await table.repo.commit_step(second, StepWrite("{}", stale, "active"))
    rows = await table.repo.log(first.id or 0)
    assert [r.seq for r in rows] == [1, 2]
    current = await table.repo.live_in_channel("chan-1")
    assert current is not None and current.state_json == first.state_json


async def test_two_services_racing_never_apply_twice(db: Database) -> None:
    a, b = TableService(db), TableService(db)
    await begin(a)
    moves = await a.autocomplete(ANN, "/move to:")
    results = await asyncio.gather(
        a.handle(ANN, f"/move to:{moves[0].value}"),
        b.handle(ANN, f"/move to:{moves[-1].value}"),
    )
    outcomes = [text(r) for r in results]
    campaign = await a.repo.live_in_channel("chan-1")
    assert campaign is not None
    rows = await a.repo.log(campaign.id or 0)
    applied = [r for r in rows if r.kind == "action"]
    assert len(applied) == sum("runs to" in o for o in outcomes) >= 1
    assert all(
        "runs to" in o or "table changed" in o.lower() or "not next to" in o for o in outcomes
    ), outcomes
    assert [r.seq for r in rows] == list(range(1, len(rows) + 1))
    assert all(ok for _, ok, _ in await a.verify())


async def test_fifty_concurrent_commands_are_serialised(table: TableService) -> None:
    await begin(table)
    commands = []
    for i in range(50):
        who = ANN if i % 2 else BOB
        commands.append(table.handle(who, "/act what:peek" if i % 5 else "/end-turn"))
    await asyncio.gather(*commands)
    campaign = await table.repo.live_in_channel("chan-1")
    assert campaign is not None
    rows = await table.repo.log(campaign.id or 0)
    assert [r.seq for r in rows] == list(range(1, len(rows) + 1))
    assert campaign.step == rows[-1].seq and campaign.version >= len(rows)
    assert all(ok for _, ok, _ in await table.verify())


async def test_newer_bot_opens_older_database(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'old.db'}"
    database = Database(url)
    await database.init()
    async with database.session() as session:
        info = await session.get(SchemaInfo, 1)
        assert info is not None
        info.version = SCHEMA_VERSION - 1
        session.add(info)
        await session.commit()
    await database.close()
    ran: list[int] = []

    async def migrate(conn: object) -> None:
        ran.append(SCHEMA_VERSION)

    monkeypatch.setitem(db_module.MIGRATIONS, SCHEMA_VERSION, migrate)
    reopened = Database(url)
    await reopened.init()
    assert ran == [SCHEMA_VERSION] and await reopened.schema_version() == SCHEMA_VERSION
    await reopened.close()


async def test_older_bot_refuses_newer_database(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'new.db'}"
    database = Database(url)
    await database.init()
    async with database.session() as session:
        info = await session.get(SchemaInfo, 1)
        assert info is not None
        info.version = SCHEMA_VERSION + 1
        session.add(info)
        await session.commit()
    await database.close()
    with pytest.raises(SchemaTooNew, match="Upgrade the bot"):
        await Database(url).init()


async def test_sqlite_runs_in_wal_mode(tmp_path: Path) -> None:
    database = Database(f"sqlite+aiosqlite:///{tmp_path / 'wal.db'}")
    await database.init()
    async with database.engine.connect() as conn:
        mode = (await conn.exec_driver_sql("PRAGMA journal_mode")).scalar()
    assert mode == "wal"
    await database.close()


async def test_state_snapshot_is_plain_json(table: TableService) -> None:
    await begin(table)
    campaign = await table.repo.live_in_channel("chan-1")
    assert campaign is not None
    assert json.loads(campaign.state_json or "")["seats"] == ["red", "blue"]


async def test_one_command_reads_its_table_once(table: TableService) -> None:
    """The catch-up, the turn check and the commit share one read of campaign and seats."""
    from sqlalchemy import event

    await begin(table)
    statements: list[str] = []

    def record(_conn: object, _cursor: object, statement: str, *_: object) -> None:
        statements.append(" ".join(statement.split()[:4]))

    event.listen(table.repo.db.engine.sync_engine, "before_cursor_execute", record)
    try:
        await table.handle(ANN, "/act what:peek")
    finally:
        event.remove(table.repo.db.engine.sync_engine, "before_cursor_execute", record)
    reads = [s for s in statements if s.startswith("SELECT")]
    assert sum("FROM campaign" in s or "campaign." in s for s in reads) == 1, statements
    assert sum(s.startswith("SELECT seat.") for s in reads) == 1, statements


async def test_a_write_inside_a_command_forgets_what_it_read(table: TableService) -> None:
    await begin(table)
    with table.repo.command_scope():
        campaign, seats = await table.repo.table("chan-1")
        assert campaign is not None and not seats[0].autopilot
        assert (await table.repo.seats(campaign.id or 0))[0] is seats[0]  # served from memory
        await table.repo.seat_update(seats[0].id or 0, autopilot=True)
        again = await table.repo.seats(campaign.id or 0)
        assert again[0] is not seats[0] and again[0].autopilot
    outside = await table.repo.seats(campaign.id or 0)
    assert outside[0] is not again[0]  # no memory outside a command
