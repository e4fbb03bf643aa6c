"""One lock per channel, kept only while someone holds it or waits for it.

A bot that has seen a million channels must not keep a million locks: an entry is created
by the first command of a channel and dropped when its last holder or waiter leaves.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager


class ChannelLocks:
    def __init__(self) -> None:
        self._locks: dict[str, tuple[asyncio.Lock, int]] = {}

    @asynccontextmanager
    async def hold(self, channel_id: str) -> AsyncIterator[None]:
        """Serialise with every other holder of this channel's lock."""
        lock, users = self._locks.get(channel_id, (None, 0))
        lock = lock or asyncio.Lock()
        self._locks[channel_id] = (lock, users + 1)
        try:
            async with lock:
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
