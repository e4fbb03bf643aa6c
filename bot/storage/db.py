"""Connection, schema creation and schema versioning.

`Database` wraps one SQLAlchemy async engine. SQLite gets WAL mode and a busy timeout so
readers never block the writer; PostgreSQL needs nothing special. A newer bot opens an older
database by running the migrations between the stored schema version and `SCHEMA_VERSION`.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import os
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import event
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine
from sqlmodel import SQLModel, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.storage.models import SCHEMA_VERSION, SchemaInfo


async def _add_delivery_tables(conn: AsyncConnection) -> None:
    """Version 2: the signing-key mark, the outbox, the turn-post registry, remembered
    interactions and shared rate limits (new tables only; nothing existing changes)."""
    tables = [SQLModel.metadata.tables[name] for name in VERSION_2_TABLES]
    await conn.run_sync(lambda sync: SQLModel.metadata.create_all(sync, tables=tables))


VERSION_2_TABLES = (
    "signing_mark",
    "interaction",
    "delivery",
    "turn_message",
    "turn_post",
    "rate_bucket",
)

# version -> coroutine upgrading a database from version-1 to version
MIGRATIONS: dict[int, Callable[[AsyncConnection], Awaitable[None]]] = {2: _add_delivery_tables}


class SchemaTooNew(RuntimeError):
    pass


class ChannelLockTimeout(Exception):
    """Another process held the channel's lock for too long."""


# Commands of different channels may each hold one lock connection at once; more wait here.
LOCK_CONNECTIONS = 8
LOCK_WAIT_SECONDS = 20.0


def lock_key(channel_id: str) -> int:
    """A stable signed 64-bit key for PostgreSQL's advisory locks."""
    digest = hashlib.sha256(b"sortie-channel:" + channel_id.encode()).digest()
    return int.from_bytes(digest[:8], "big", signed=True)


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=10000")
    cursor.close()


PRIVATE_FILE = 0o600
SQLITE_COMPANIONS = ("", "-wal", "-shm", "-journal")


def sqlite_path(url: str) -> str | None:
    """The file a SQLite URL names (None: in memory)."""
    path = url.split(":///", 1)[-1].split("?", 1)[0]
    if not path or path == ":memory:" or path.startswith(":"):
        return None
    return path


def keep_private(path: str) -> None:
    """The database holds every seed, hand and (by default) the export-signing key: only its
    owner may read it. The file is created 0600 before SQLite opens it (SQLite gives its -wal
    and -shm files the database file's mode), and an older, wider file is narrowed."""
    Path(os.path.dirname(path) or ".").mkdir(parents=True, exist_ok=True)
    os.close(os.open(path, os.O_CREAT | os.O_RDWR, PRIVATE_FILE))
    for suffix in SQLITE_COMPANIONS:
        with contextlib.suppress(FileNotFoundError):
            if os.stat(path + suffix).st_mode & 0o077:
                os.chmod(path + suffix, PRIVATE_FILE)


class Database:
    def __init__(self, url: str) -> None:
        self.url = url
        self.is_sqlite = url.startswith("sqlite")
        path = sqlite_path(url) if self.is_sqlite else None
        if path is not None:
            keep_private(path)
        kwargs: dict[str, Any] = {}
        if self.is_sqlite:
            kwargs["connect_args"] = {"timeout": 10}
            # Every session ends its own transaction when it closes (commit, or rollback on
            # close), so the pool's extra rollback on check-in is a wasted round trip to the
            # driver's thread on every session.
            kwargs["pool_reset_on_return"] = None
        self.engine: AsyncEngine = create_async_engine(url, **kwargs)
        self._write_lock: asyncio.Lock | None = asyncio.Lock() if self.is_sqlite else None
        # PostgreSQL: channel locks shared by every process, on connections of their own so
        # a command waiting for its channel never holds one the commands need.
        self._lock_engine: AsyncEngine | None = None
        self._global_engine: AsyncEngine | None = None
        self._lock_slots = asyncio.Semaphore(LOCK_CONNECTIONS)
        self._global_slot = asyncio.Semaphore(1)
        if not self.is_sqlite:
            self._lock_engine = create_async_engine(url, pool_size=LOCK_CONNECTIONS, max_overflow=0)
            self._global_engine = create_async_engine(url, pool_size=1, max_overflow=0)
        if self.is_sqlite:
            event.listen(self.engine.sync_engine, "connect", _sqlite_pragmas)

    async def init(self) -> None:
        """Create missing tables and bring the schema to the current version."""
        async with self.engine.begin() as conn:
            await conn.run_sync(SQLModel.metadata.create_all)
        async with self.session() as session:
            info = await session.get(SchemaInfo, 1)
            if info is None:
                session.add(SchemaInfo(id=1, version=SCHEMA_VERSION))
                await session.commit()
                return
            if info.version > SCHEMA_VERSION:
                raise SchemaTooNew(
                    f"The database schema is version {info.version}, newer than this bot "
                    f"({SCHEMA_VERSION}). Upgrade the bot."
                )
            stored = info.version
        for version in range(stored + 1, SCHEMA_VERSION + 1):
            async with self.engine.begin() as conn:
                await MIGRATIONS[version](conn)
                table = SchemaInfo.__table__  # type: ignore[attr-defined]
                await conn.execute(table.update().values(version=version))

    async def schema_version(self) -> int:
        async with self.session() as session:
            info = (await session.exec(select(SchemaInfo))).first()
            return info.version if info else 0

    @asynccontextmanager
    async def session(self) -> AsyncIterator[AsyncSession]:
        async with AsyncSession(self.engine, expire_on_commit=False) as session:
            yield session

    @asynccontextmanager
    async def write_session(self) -> AsyncIterator[AsyncSession]:
        """A session for a transaction that writes.

        SQLite allows one writer at a time and makes the others sleep and retry; queueing
        this process's writers on a lock instead keeps busy tables fast. Other processes still
        meet the database's own locking, and the optimistic version check decides races.
        """
        if self._write_lock is None:
            async with self.session() as session:
                yield session
            return
        async with self._write_lock, self.session() as session:
            yield session

    @asynccontextmanager
    async def channel_lock(self, channel_id: str) -> AsyncIterator[None]:
        """Hold the channel across every process sharing this database.

        PostgreSQL: a session advisory lock on the channel's key, released when the block
        ends or, if the process dies, when its connection drops. SQLite serves one machine;
        its commands are serialised by the process lock and the version check decides.
        """
        if self._lock_engine is None:
            yield
            return
        async with self._advisory(lock_key(channel_id), self._lock_engine, self._lock_slots):
            yield

    @asynccontextmanager
    async def global_lock(self, name: str) -> AsyncIterator[None]:
        """One holder at a time across every process (taken inside a channel's lock, so it
        has a connection of its own: channel holders never wait for each other's slots)."""
        if self._global_engine is None:
            yield
            return
        async with self._advisory(lock_key(name), self._global_engine, self._global_slot):
            yield

    @asynccontextmanager
    async def _advisory(
        self, key: int, engine: AsyncEngine, slots: asyncio.Semaphore
    ) -> AsyncIterator[None]:
        async with slots, engine.connect() as conn:
            try:
                await asyncio.wait_for(
                    conn.exec_driver_sql(f"SELECT pg_advisory_lock({key})"), LOCK_WAIT_SECONDS
                )
            except TimeoutError:
                await conn.invalidate()
                raise ChannelLockTimeout(str(key)) from None
            await conn.commit()
            try:
                yield
            finally:
                await conn.exec_driver_sql(f"SELECT pg_advisory_unlock({key})")
                await conn.commit()

    async def close(self) -> None:
        await self.engine.dispose()
        for engine in (self._lock_engine, self._global_engine):
            if engine is not None:
                await engine.dispose()
