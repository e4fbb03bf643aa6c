"""One lock per channel, kept only while someone holds it or waits for it.

A bot that has seen a million channels must not keep a million locks: an entry is created
by the first command of a channel and dropped when its last holder or waiter leaves. Given
the database, the holder then also takes the channel's lock shared by every process on it
(PostgreSQL's advisory lock; nothing more on SQLite).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from bot.storage.db import Database


class ChannelLocks:
    def __init__(self, db: Database | None = None) -> None:
        self._locks: dict[str, tuple[asyncio.Lock, int]] = {}
        self._db = db

    @asynccontextmanager
    async def hold(self, channel_id: str) -> AsyncIterator[None]:
        """Serialise with every other holder of this channel's lock."""
        lock, users = self._locks.get(channel_id, (None, 0))
        lock = lock or asyncio.Lock()
        self._locks[channel_id] = (lock, users + 1)
        try:
            async with lock:
                if self._db is None:
                    yield
                else:
                    async with self._db.channel_lock(channel_id):
                        yield
        finally:
            lock, users = self._locks[channel_id]
            if users <= 1:
                del self._locks[channel_id]
            else:
                self._locks[channel_id] = (lock, users - 1)

    def __len__(self) -> int:
        """How many channels have a holder or a waiter right now."""
        return len(self._locks)
