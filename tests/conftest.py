"""Shared fixtures: the test-only Dash game, a fresh database and a table service."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from fixture_game import DashGame

from bot.storage.db import Database
from bot.table import TableService
from engine.registry import register, unregister


def pytest_configure(config: pytest.Config) -> None:
    """Under pytest-xdist every worker gets a PostgreSQL database of its own (`test_gw0`, ...),
    created on first use: the storage tests drop and create tables, which two workers sharing
    one database would do under each other's feet. Subprocesses inherit the worker's URL."""
    url = os.environ.get("TEST_DATABASE_URL")
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if url and worker:
        os.environ["TEST_DATABASE_URL"] = own_database(url, worker)


def own_database(url: str, worker: str) -> str:
    import asyncio

    import asyncpg
    from sqlalchemy.engine import make_url

    base = make_url(url)
    name = f"{base.database}_{worker}"

    async def create() -> None:
        admin = base.set(drivername="postgresql").render_as_string(hide_password=False)
        conn = await asyncpg.connect(admin)
        try:
            if not await conn.fetchval("SELECT 1 FROM pg_database WHERE datname = $1", name):
                await conn.execute(f'CREATE DATABASE "{name}"')
        finally:
            await conn.close()

    asyncio.run(create())
    return base.set(database=name).render_as_string(hide_password=False)


@pytest.fixture(autouse=True)
def dash_game() -> Iterator[None]:
    register(DashGame())
    yield
    unregister("dash")


def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite+aiosqlite:///{tmp_path / 'sortie.db'}"


DATABASES = [
    "sqlite",
    pytest.param(
        "postgres",
        marks=pytest.mark.skipif(
            not os.environ.get("TEST_DATABASE_URL"),
            reason="PostgreSQL storage tests need TEST_DATABASE_URL (CI sets it)",
        ),
    ),
]


@pytest.fixture(params=DATABASES)
async def db(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Database]:
    if request.param == "postgres":
        database = Database(os.environ["TEST_DATABASE_URL"])
        from sqlmodel import SQLModel

        async with database.engine.begin() as conn:
            await conn.run_sync(SQLModel.metadata.drop_all)
    else:
        database = Database(sqlite_url(tmp_path))
    await database.init()
    yield database
    await database.close()


@pytest.fixture
async def table(db: Database) -> TableService:
    seeds = iter(range(1000, 2000))
    return TableService(db, new_seed=lambda: next(seeds))
