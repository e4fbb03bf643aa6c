"""Which private thread of a campaign channel is a player's (see `PlayerThread`)."""

from __future__ import annotations

from sqlalchemy import delete
from sqlmodel import col

from bot.storage.db import Database
from bot.storage.models import PlayerThread


class ThreadStore:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def thread_of(self, channel_id: str, user_id: str) -> str | None:
        async with self.db.session() as session:
            found = await session.get(PlayerThread, (channel_id, user_id))
            return found.thread_id if found else None

    async def remember(self, channel_id: str, user_id: str, thread_id: str) -> None:
        async with self.db.write_session() as session:
            await session.merge(
                PlayerThread(channel_id=channel_id, user_id=user_id, thread_id=thread_id)
            )
            await session.commit()

    async def forget(self, channel_id: str, user_id: str) -> None:
        """The thread is gone (deleted, or the bot may no longer post there)."""
        async with self.db.write_session() as session:
            await session.exec(
                delete(PlayerThread).where(
                    col(PlayerThread.channel_id) == channel_id,
                    col(PlayerThread.user_id) == user_id,
                )
            )
            await session.commit()
