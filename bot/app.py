"""Composition root: build the database and the table service from settings."""

from __future__ import annotations

import asyncio
import gc
import logging

from bot.clock import Clock, OffsetClock, SystemClock
from bot.config import Settings
from bot.pictures import configure_workers
from bot.ratelimit import RateLimits
from bot.signing import SigningKeyError, configured_key
from bot.storage.db import Database
from bot.table import TableService
from engine.registry import games

log = logging.getLogger("sortie")


async def build_service(settings: Settings) -> TableService:
    key = configured_key(settings.sortie_signing_key, settings.sortie_signing_key_file)
    db = Database(settings.database_url_with_password())
    await db.init()
    # The adjustable clock exists only in the playground's development mode.
    dev = settings.playground_dev_clock and settings.discord_token is None
    clock: Clock = OffsetClock() if dev else SystemClock()
    limits = RateLimits(
        live_per_user=settings.max_campaigns_per_user,
        live_per_server=settings.max_campaigns_per_server,
    )
    service = TableService(db, clock=clock, limits=limits)
    service.set_signing_key(key)  # SORTIE_SIGNING_KEY(_FILE), else the database's
    try:
        rotated = await service.repo.check_signing_key()
    except SigningKeyError:
        await db.close()
        raise
    if rotated:
        log.warning("%s", rotated)
    await asyncio.to_thread(configure_workers, settings.render_workers)  # starts processes
    settle_heap()
    return service


def settle_heap() -> None:
    """Load every game's content now and take what start-up built out of garbage collection.

    A full collection walks every tracked object and stops the event loop while it does;
    the modules, game content and database metadata loaded at start-up live as long as the
    process, so freezing them keeps those pauses short for the rest of its life.
    """
    games()
    gc.collect()
    gc.freeze()
