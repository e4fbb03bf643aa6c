"""Composition root: build the database and the table service from settings."""

from __future__ import annotations

import asyncio

from bot.clock import Clock, OffsetClock, SystemClock
from bot.config import Settings
from bot.pictures import configure_workers
from bot.storage.db import Database
from bot.table import TableService


async def build_service(settings: Settings) -> TableService:
    db = Database(settings.database_url)
    await db.init()
    await asyncio.to_thread(configure_workers, settings.render_workers)  # starts processes
    # The adjustable clock exists only in the playground's development mode.
    dev = settings.playground_dev_clock and settings.discord_token is None
    clock: Clock = OffsetClock() if dev else SystemClock()
    return TableService(db, clock=clock)
