"""Fixtures for the Discord tests: the fake Discord, a database, and the bot wired to both."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import discord
import pytest
import yarl
from discord_harness import Harness
from fake_discord import FakeDiscord

from bot.storage.db import Database


@pytest.fixture
async def fake(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[FakeDiscord]:
    server = FakeDiscord()
    for name in ("ann", "bob", "eve"):
        server.add_member(name)
    server.add_member("mod", admin=True)
    server.add_channel("table")
    server.add_channel("lounge")
    await server.start()
    monkeypatch.setattr(discord.http.Route, "BASE", server.api_base)
    monkeypatch.setattr(
        discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY", yarl.URL(server.gateway_url)
    )
    yield server
    await server.close()


@pytest.fixture
async def sqlite(tmp_path: Path) -> AsyncIterator[Database]:
    database = Database(f"sqlite+aiosqlite:///{tmp_path / 'sortie.db'}")
    await database.init()
    yield database
    await database.close()


@pytest.fixture
async def h(fake: FakeDiscord, sqlite: Database, tmp_path: Path) -> AsyncIterator[Harness]:
    """The bot running against the fake; any broken Discord rule fails the test."""
    h = Harness(fake, sqlite, tmp_path / "state")
    await h.start()
    yield h
    await h.stop()
    assert [str(v) for v in fake.violations] == []
