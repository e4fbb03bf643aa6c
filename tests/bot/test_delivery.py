"""One delivery path: steps the scheduler runs reach mirror channels like a player's steps."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer
from support import caller
from test_scheduler import RecordingOutbox

from bot.clock import ManualClock
from bot.delivery import ChannelUnavailable, mirror_copies, publish
from bot.playground.outbox import PlaygroundOutbox
from bot.playground.server import SCHEDULER, create_app
from bot.replies import Button, Reply
from bot.scheduler import Scheduler
from bot.storage.db import Database
from bot.table import TableService

ANN, BOB = caller("ann"), caller("bob")


def test_mirror_copies_are_public_without_pings_or_buttons() -> None:
    step = Reply("blue moves", mentions=["id-bob"], buttons=[Button("End turn", "/end-turn")])
    step.mirror_to = ["stands", "lobby"]
    secret = Reply("your hand: ace", ephemeral=True)
    secret.mirror_to = ["stands"]
    copies = mirror_copies([step, secret])
    assert set(copies) == {"stands", "lobby"}
    for channel in copies.values():
        assert [(c.content, c.mentions, c.buttons, c.ephemeral) for c in channel] == [
            ("blue moves", [], [], False)
        ]


class GoneMirror(RecordingOutbox):
    async def post(self, channel_id: str, reply: Reply) -> None:
        if channel_id == "gone":
            raise ChannelUnavailable("deleted")
        await super().post(channel_id, reply)


async def test_an_unreachable_mirror_never_stops_the_table() -> None:
    step = Reply("blue moves")
    step.mirror_to = ["gone", "stands"]
    outbox = GoneMirror()
    assert await publish(outbox, "table", [step]) == 1
    assert [channel for channel, _ in outbox.posts] == ["table", "stands"]


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
async def service(db: Database, clock: ManualClock) -> TableService:
    return TableService(db, new_seed=lambda: 4242, clock=clock)


async def mirrored(service: TableService, *settings: str) -> None:
    for who, command in [
        (ANN, "/campaign create game:dash scenario:sprint"),
        (ANN, "/campaign settings " + " ".join(settings)),
        (ANN, "/campaign join role:red"),
        (BOB, "/campaign join role:blue"),
        (ANN, "/campaign begin"),
        (ANN, "/campaign mirror channel:stands"),
    ]:
        replies = await service.handle(who, command)
        assert not any(r.error for r in replies), (command, replies)


async def test_a_closing_answer_window_reaches_the_mirror(
    service: TableService, clock: ManualClock
) -> None:
    await mirrored(service, "window_minutes:5", "nudge_hours:0")
    await service.handle(ANN, "/act what:ask")
    outbox = RecordingOutbox()
    clock.advance(timedelta(minutes=5))
    assert await Scheduler(service, outbox, clock).scan() == 1
    stands = [reply for channel, reply in outbox.posts if channel == "stands"]
    assert stands and "blue answers no" in "\n".join(r.content for r in stands)
    assert all(not r.mentions and not r.buttons for r in stands)


async def test_an_autopilot_step_reaches_the_mirror(
    service: TableService, clock: ManualClock
) -> None:
    await mirrored(service, "deadline_hours:12", "deadline_policy:autopilot", "nudge_hours:0")
    await service.handle(ANN, "/end-turn")
    outbox = RecordingOutbox()
    clock.advance(timedelta(hours=12))
    await Scheduler(service, outbox, clock).scan()
    stands = "\n".join(reply.content for channel, reply in outbox.posts if channel == "stands")
    assert "Autopilot plays for Blue runner: end your turn" in stands


async def test_the_playground_mirror_gets_the_schedulers_steps(
    service: TableService, clock: ManualClock
) -> None:
    app = create_app(service, clock=clock)
    app[SCHEDULER] = Scheduler(service, PlaygroundOutbox(app), clock)
    async with TestClient(TestServer(app)) as client:
        await mirrored(service, "window_minutes:5", "nudge_hours:0")
        await service.handle(ANN, "/act what:ask")
        clock.advance(timedelta(minutes=5))
        assert await app[SCHEDULER].scan() == 1
        response = await client.get("/api/channels/stands/messages", params={"user": "eve"})
        feed: list[dict[str, Any]] = (await response.json())["messages"]
        assert any("blue answers no" in m["content"] for m in feed)
        assert all(not m["mentions"] for m in feed)
