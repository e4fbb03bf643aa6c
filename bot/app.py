"""Composition root: build the database and the table service from settings."""

from __future__ import annotations

from bot.config import Settings
from bot.storage.db import Database
from bot.table import TableService


async def build_service(settings: Settings) -> TableService:
    db = Database(settings.database_url)
    await db.init()
    return TableService(db)
