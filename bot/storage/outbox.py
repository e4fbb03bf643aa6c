"""The outbox's storage: rows to deliver, claimed one deliverer at a time, and the map from a
turn post's key to the message it became (see `bot.storage.models.Delivery`).

A step's post cannot be written in the step's own transaction as it will be sent (it is
rendered after the commit, and only the shell knows how it splits into messages), so the step
writes a *marker* there instead: a `compose` row in its channel's queue. The shell's rows for
the step then take the marker's place (its id, so the queue's order holds). A marker nobody
replaced within `COMPOSE_WAIT` belongs to a process that stopped between the commit and
the delivery: a deliverer composes the step's post from the database (`Deliverer.recover`).
"""

from __future__ import annotations

import json
import secrets
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from sqlalchemy import delete, update
from sqlalchemy.exc import IntegrityError
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.storage.db import Database
from bot.storage.models import Delivery, OpenTurnPost, TurnMessage, utcnow

KEEP_SENT = timedelta(days=1)  # delivered rows kept this long (the fault counts read them)
KEEP_TURN_MESSAGES = timedelta(days=60)  # a turn post older than this is not edited again
# A step's marker waits this long for its shell's rows before a deliverer composes the post
# itself (longer than any render; a live process replaces it within seconds).
COMPOSE_WAIT = timedelta(seconds=120)
QUEUED = ("pending", "compose")  # rows still to deliver (a marker holds its place)
# The `turn_message` key of the channel's message whose buttons are live (see `sent`).
LIVE_CONTROLS = "live-controls"


@dataclass
class Announcing:
    """The markers the steps of one command (or one scheduler task) wrote, by channel."""

    markers: dict[str, int] = field(default_factory=dict)
    wait: timedelta = COMPOSE_WAIT  # how long a marker waits for the shell's rows


_announcing: ContextVar[Announcing | None] = ContextVar("sortie_announcing", default=None)


def announcing() -> Announcing | None:
    """The scope of the command running now (None: its steps write no marker)."""
    return _announcing.get()


def compose_marker(
    channel_id: str, campaign_id: int, from_seq: int, wait: timedelta = COMPOSE_WAIT
) -> Delivery:
    """The marker a step writes in its own transaction: its post is owed to the channel."""
    return Delivery(
        channel_id=channel_id,
        nonce=secrets.token_hex(12),
        payload_json=json.dumps({"campaign_id": campaign_id, "from_seq": from_seq}),
        status="compose",
        lease_until=utcnow() + wait,
    )


@asynccontextmanager
async def announce_scope(db: Database, wait: timedelta = COMPOSE_WAIT) -> AsyncIterator[Announcing]:
    """Within this block every committed step writes a marker (once per channel); the shell's
    rows replace it. On a normal exit the markers left (a step with nothing public to post,
    or posted as the interaction's own answer) are dropped; on an error they stay, for a
    deliverer to compose the post."""
    scope = Announcing(wait=wait)
    token = _announcing.set(scope)
    try:
        yield scope
    finally:
        _announcing.reset(token)
    if scope.markers:
        await OutboxStore(db).drop_markers(list(scope.markers.values()))
        scope.markers.clear()


async def take_marker(session: AsyncSession, marker_id: int, claim: int | None = None) -> bool:
    """Delete a marker in the caller's transaction; False when another took it first."""
    query = delete(Delivery).where(col(Delivery.id) == marker_id, col(Delivery.status) == "compose")
    if claim is not None:
        query = query.where(col(Delivery.claim) == claim)
    result = await session.exec(query)
    return bool(result.rowcount == 1)


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

    async def add(
        self,
        rows: Sequence[Delivery],
        scope: Announcing | None = None,
        marker: Delivery | None = None,
    ) -> list[int]:
        """Write the rows in one transaction; their ids, in order. The first row for a channel
        with a marker (the scope's, or the claimed `marker` being recovered) takes its place."""
        async with self.db.write_session() as session:
            places: dict[str, tuple[int, int | None]] = {}
            if scope is not None:
                places = {c: (m, None) for c, m in scope.markers.items()}
            if marker is not None and marker.id is not None:
                places[marker.channel_id] = (marker.id, marker.claim)
            kept: list[Delivery] = []
            lost: set[str] = set()  # channels whose post another deliverer composed already
            for row in rows:
                place = places.pop(row.channel_id, None)
                if place is not None:
                    if await take_marker(session, *place):
                        row.id = place[0]
                    else:
                        lost.add(row.channel_id)
                if row.channel_id in lost:
                    continue  # never a second post of the same step
                session.add(row)
                kept.append(row)
                await session.flush()  # the marker's id is free again before the next insert
            await session.commit()
            for row in kept:
                await session.refresh(row)
        if scope is not None:
            for row in rows:
                scope.markers.pop(row.channel_id, None)
        return [row.id or 0 for row in rows]

    async def drop_markers(self, ids: list[int], claim: int | None = None) -> None:
        async with self.db.write_session() as session:
            for marker_id in ids:
                await take_marker(session, marker_id, claim)
            await session.commit()

    async def pending(self, channel_id: str | None = None, limit: int = 200) -> list[Delivery]:
        """Undelivered rows and markers, oldest first (of one channel, or of all)."""
        async with self.db.session() as session:
            query = select(Delivery).where(col(Delivery.status).in_(QUEUED))
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
                    col(Delivery.status) == row.status,
                )
                .values(claim=row.claim + 1, lease_until=now + lease)
            )
            await session.commit()
        if result.rowcount != 1:
            return False
        row.claim += 1
        row.lease_until = now + lease
        return True

    async def sent(self, row: Delivery, message_id: str | None, controls: bool = False) -> None:
        """Delivered: record the message (and, for a turn post, which message it is). A
        message with `controls` (buttons, menus) supersedes the channel's earlier one: a row
        to take that one's controls away is queued behind it, in the same transaction."""
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
            if controls and message_id is not None:
                await self._supersede(session, row.channel_id, message_id)
            await session.commit()
        row.status = "sent"

    @staticmethod
    async def _supersede(session: AsyncSession, channel_id: str, message_id: str) -> None:
        """One set of live controls per channel: the message that has them now, and an edit
        that strips the previous one's."""
        live = await session.get(TurnMessage, (channel_id, LIVE_CONTROLS))
        if live is not None and live.message_id == message_id:
            return
        if live is not None:
            session.add(
                Delivery(
                    channel_id=channel_id,
                    nonce=secrets.token_hex(12),
                    payload_json=json.dumps({"strip": live.message_id}),
                )
            )
        await session.merge(
            TurnMessage(channel_id=channel_id, post_key=LIVE_CONTROLS, message_id=message_id)
        )

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

    async def forget_message(self, channel_id: str, post_key: str, message_id: str) -> None:
        """The turn post was deleted on Discord: the next delivery posts it anew (and nothing
        edits the deleted message again to take its buttons away)."""
        async with self.db.write_session() as session:
            await session.exec(
                delete(TurnMessage).where(
                    col(TurnMessage.channel_id) == channel_id, col(TurnMessage.post_key) == post_key
                )
            )
            await session.exec(
                delete(TurnMessage).where(
                    col(TurnMessage.channel_id) == channel_id,
                    col(TurnMessage.post_key) == LIVE_CONTROLS,
                    col(TurnMessage.message_id) == message_id,
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
                    col(Delivery.status).not_in(QUEUED),
                    col(Delivery.created_at) < moment - KEEP_SENT,
                )
            )
            await session.exec(
                delete(TurnMessage).where(col(TurnMessage.created_at) < moment - KEEP_TURN_MESSAGES)
            )
            await session.commit()
