"""A step's post is owed in the step's own transaction (issue #33, item 1): the step commits a
marker in its channel's queue, and the shell's outbox rows take its place. A process that
stops between the commit and the outbox leaves the marker, and a deliverer (after
`COMPOSE_WAIT`) composes the step's post from the database: nothing is lost, nothing is
posted twice.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Sequence
from datetime import datetime, timedelta

from discord_harness import Harness
from sqlmodel import col, select

from bot.replies import Reply
from bot.storage.db import Database
from bot.storage.models import ActionLog, Delivery, utcnow
from bot.storage.outbox import COMPOSE_WAIT, Announcing, OutboxStore, compose_marker
from bot.table.lateposts import LATE

TIMEOUT = 60


class Stopped(Exception):
    """The process stopped here (a SIGKILL, as far as the database can tell)."""


async def rows(db: Database) -> list[Delivery]:
    """The outbox's posts and edits (not the edits that take a superseded post's buttons)."""
    async with db.session() as session:
        found = (await session.exec(select(Delivery).order_by(col(Delivery.id)))).all()
    return [r for r in found if '"strip"' not in r.payload_json]


async def drained(h: Harness) -> None:
    assert h.bot is not None
    for _ in range(200):
        if not await h.bot.deliverer.store.pending():
            return
        await h.bot.deliverer.sweep()
        await asyncio.sleep(0.05)
    raise AssertionError("the outbox did not drain")


async def test_a_stop_between_the_commit_and_the_outbox_loses_no_post(h: Harness) -> None:
    async with asyncio.timeout(TIMEOUT):
        fake, table = h.fake, h.fake.channel("table")
        ann, bob = fake.member("ann"), fake.member("bob")
        await h.slash(ann, table, "campaign create", game="dash", scenario="sprint")
        await h.slash(ann, table, "campaign join", role="red")
        await h.slash(bob, table, "campaign join", role="blue")
        await h.slash(ann, table, "campaign begin")
        await h.slash(bob, table, "end-turn")
        # Ordinary steps leave no marker behind: their rows took the markers' places (the
        # create post with its seat buttons is an outbox post too, so a newer one can strip it).
        assert [r.status for r in await rows(h.db)] == ["sent", "sent", "sent"]
        assert h.bot is not None and h.service is not None
        deliverer = h.bot.deliverer

        async def stop_here(
            channel_id: int, replies: Sequence[Reply], limit: int | None, version: int | None
        ) -> list[int]:
            raise Stopped("between the commit and the outbox")

        deliverer.enqueue = stop_here  # type: ignore[method-assign]
        before = len(fake.feed(table))
        await h.slash(ann, table, "end-turn")
        # The step is committed; its post is not written, but its marker is.
        async with h.db.session() as session:
            moves = (await session.exec(select(ActionLog).where(ActionLog.kind == "action"))).all()
        assert [m.seat for m in moves] == ["blue", "red"]
        markers = [r for r in await rows(h.db) if r.status == "compose"]
        assert len(markers) == 1
        assert len([m for m in fake.feed(table) if m.interaction_id is None]) <= before
        # A new process; before the marker's wait it holds its channel's queue...
        await h.restart()
        assert h.bot is not None
        await h.bot.deliverer.sweep()
        assert [r.status for r in await rows(h.db)][-1] == "compose"
        # ...after it, the deliverer composes the post from the database, once.
        later = utcnow() + COMPOSE_WAIT + timedelta(seconds=1)

        def after_the_wait() -> datetime:
            return later

        h.bot.deliverer.now = after_the_wait
        await drained(h)
        late = [m for m in fake.feed(table) if LATE in m.content]
        assert len(late) == 1, [m.content for m in fake.feed(table)]
        assert late[0].buttons()
        assert late[0].attachments
        stored = await rows(h.db)
        assert Counter(r.status for r in stored) == {"sent": 4}
        assert stored[-1].id == markers[0].id  # the post took the marker's place in the queue
        await h.bot.deliverer.sweep()
        assert len([m for m in fake.feed(table) if LATE in m.content]) == 1
        # The table plays on from the composed post.
        await h.slash(bob, table, "end-turn")
        assert [r.status for r in await rows(h.db)] == ["sent"] * 5


async def test_the_shell_and_a_recovering_deliverer_never_both_post(sqlite: Database) -> None:
    store = OutboxStore(sqlite)
    for shell_first in (True, False):
        marker = compose_marker("7", 1, 3)
        async with sqlite.write_session() as session:
            session.add(marker)
            await session.commit()
            await session.refresh(marker)
        assert marker.id is not None
        assert await store.claim(marker, utcnow(), timedelta(seconds=60))
        scope = Announcing({"7": marker.id})

        def row(text: str) -> Delivery:
            return Delivery(channel_id="7", nonce=text, payload_json="{}")

        if shell_first:
            await store.add([row(f"shell{shell_first}")], scope)
            await store.add([row(f"late{shell_first}")], marker=marker)
        else:
            await store.add([row(f"late{shell_first}")], marker=marker)
            await store.add([row(f"shell{shell_first}")], scope)
        written = [r.nonce for r in await rows(sqlite) if r.nonce.endswith(str(shell_first))]
        assert written == [f"shell{shell_first}" if shell_first else f"late{shell_first}"]
        assert scope.markers == {}
