"""The outbox's storage: rows to deliver, claimed one deliverer at a time, and the map from a
turn post's key to the message it became (see `bot.storage.models.Delivery`)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta

from sqlalchemy import delete, update
from sqlalchemy.exc import IntegrityError
from sqlmodel import col, select

from bot.storage.db import Database
from bot.storage.models import Delivery, OpenTurnPost, TurnMessage, utcnow

KEEP_SENT = timedelta(days=1)  # delivered rows kept this long (the fault counts read them)
KEEP_TURN_MESSAGES = timedelta(days=60)  # a turn post older than this is not edited again


class TurnPostStore:
    """The open turn post of each campaign (one row per campaign)."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def load(self, campaign_id: int) -> OpenTurnPost | None:
        async with self.db.session() as session:
            return await session.get(OpenTurnPost, campaign_id)

    async def save(self, row: OpenTurnPost) -> None:
        async with self.db.write_session() as session:
            await session.merge(row)
            await session.commit()

    async def drop(self, campaign_id: int) -> None:
        async with self.db.write_session() as session:
            await session.exec(
                delete(OpenTurnPost).where(col(OpenTurnPost.campaign_id) == campaign_id)
            )
            await session.commit()


class OutboxStore:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def add(self, rows: Sequence[Delivery]) -> list[int]:
        """Write the rows in one transaction; their ids, in order."""
        async with self.db.write_session() as session:
            for row in rows:
                session.add(row)
            await session.commit()
            for row in rows:
                await session.refresh(row)
        return [row.id or 0 for row in rows]

    async def pending(self, channel_id: str | None = None, limit: int = 200) -> list[Delivery]:
        """Undelivered rows, oldest first (of one channel, or of all)."""
        async with self.db.session() as session:
            query = select(Delivery).where(col(Delivery.status) == "pending")
            if channel_id is not None:
                query = query.where(col(Delivery.channel_id) == channel_id)
            return list((await session.exec(query.order_by(col(Delivery.id)).limit(limit))).all())

    async def get(self, row_id: int) -> Delivery | None:
        async with self.db.session() as session:
            return await session.get(Delivery, row_id)

    async def claim(self, row: Delivery, now: datetime, lease: timedelta) -> bool:
        """Take the row for this deliverer until the lease ends; exactly one wins."""
        async with self.db.write_session() as session:
            result = await session.exec(
                update(Delivery)
                .where(
                    col(Delivery.id) == row.id,
                    col(Delivery.claim) == row.claim,
                    col(Delivery.status) == "pending",
                )
                .values(claim=row.claim + 1, lease_until=now + lease)
            )
            await session.commit()
        if result.rowcount != 1:
            return False
        row.claim += 1
        row.lease_until = now + lease
        return True

    async def sent(self, row: Delivery, message_id: str | None) -> None:
        """Delivered: record the message (and, for a turn post, which message it is)."""
        async with self.db.write_session() as session:
            await session.exec(
                update(Delivery)
                .where(col(Delivery.id) == row.id)
                .values(status="sent", message_id=message_id, lease_until=None)
            )
            if row.post_key and message_id is not None:
                await session.merge(
                    TurnMessage(
                        channel_id=row.channel_id, post_key=row.post_key, message_id=message_id
                    )
                )
            await session.commit()
        row.status = "sent"

    async def retry_at(self, row: Delivery, when: datetime, error: str) -> None:
        async with self.db.write_session() as session:
            await session.exec(
                update(Delivery)
                .where(col(Delivery.id) == row.id)
                .values(
                    attempts=row.attempts + 1,
                    next_at=when,
                    lease_until=None,
                    last_error=error[:300],
                )
            )
            await session.commit()
        row.attempts += 1
        row.next_at = when

    async def failed(self, row: Delivery, error: str) -> None:
        """Given up for good (the channel refuses, or a day of faults)."""
        async with self.db.write_session() as session:
            await session.exec(
                update(Delivery)
                .where(col(Delivery.id) == row.id)
                .values(status="failed", attempts=row.attempts + 1, last_error=error[:300])
            )
            await session.commit()
        row.status = "failed"

    async def message_for(self, channel_id: str, post_key: str) -> str | None:
        async with self.db.session() as session:
            found = await session.get(TurnMessage, (channel_id, post_key))
            return found.message_id if found else None

    async def forget_message(self, channel_id: str, post_key: str) -> None:
        """The turn post was deleted on Discord: the next delivery posts it anew."""
        async with self.db.write_session() as session:
            await session.exec(
                delete(TurnMessage).where(
                    col(TurnMessage.channel_id) == channel_id, col(TurnMessage.post_key) == post_key
                )
            )
            try:
                await session.commit()
            except IntegrityError:
                await session.rollback()

    async def prune(self, now: datetime | None = None) -> None:
        moment = now or utcnow()
        async with self.db.write_session() as session:
            await session.exec(
                delete(Delivery).where(
                    col(Delivery.status) != "pending", col(Delivery.created_at) < moment - KEEP_SENT
                )
            )
            await session.exec(
                delete(TurnMessage).where(col(TurnMessage.created_at) < moment - KEEP_TURN_MESSAGES)
            )
            await session.commit()
