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
