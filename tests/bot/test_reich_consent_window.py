"""Reichbusters Give/Take consent through the table: the owner's answer window and its default."""

from __future__ import annotations

from datetime import timedelta

import pytest
from support import caller, text
from test_scheduler import RecordingOutbox

from bot.clock import ManualClock
from bot.scheduler import Scheduler
from bot.storage.db import Database
from bot.table import TableService

ANN, BOB = caller("ann"), caller("bob")


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
async def service(db: Database, clock: ManualClock) -> TableService:
    return TableService(db, new_seed=lambda: 4242, clock=clock)


async def hans_asks_for_the_helmet(service: TableService) -> str:
    """Sarge (Ann) picks up the Helmet in 1A; Hans (Bob) joins him and asks for it."""
    for who, command in [
        (ANN, "/campaign create game:reichbusters scenario:lab-rats"),
        (ANN, "/campaign settings window_minutes:5 nudge_hours:0"),
        (ANN, "/campaign join role:sarge"),
        (BOB, "/campaign join role:hans"),
        (ANN, "/campaign begin"),
        (ANN, "/move unit:sarge to:1C"),
        (BOB, "/move unit:hans to:1C"),
        (ANN, "/end-turn"),
        (BOB, "/end-turn"),
        (ANN, "/move unit:sarge to:1A"),
        (ANN, "/act unit:sarge what:pickup target:L1"),
        (BOB, "/move unit:hans to:1A"),
    ]:
        replies = await service.handle(who, command)
        assert not any(r.error for r in replies), (command, text(replies))
    asked = await service.handle(BOB, "/act unit:hans what:take target:helmet to:sarge")
    assert not any(r.error for r in asked), text(asked)
    assert asked[-1].mentions == ["id-ann"]
    return text(asked)


async def test_an_unanswered_take_is_declined_when_the_window_closes(
    service: TableService, clock: ManualClock
) -> None:
    asked = await hans_asks_for_the_helmet(service)
    assert "Hans asks Sarge for Helmet (Sarge accepts or declines)" in asked
    refused = await service.handle(BOB, "/end-turn")
    assert refused[0].error  # nobody else acts while the question is open
    outbox = RecordingOutbox()
    clock.advance(timedelta(minutes=4))
    assert await Scheduler(service, outbox, clock).scan() == 0
    clock.advance(timedelta(minutes=1))
    assert await Scheduler(service, outbox, clock).scan() == 1
    posted = outbox.texts()[-1]
    assert "No answer from sarge in time" in posted
    assert "Sarge declines: Hans does not get Helmet" in posted
    assert all(ok for _, ok, _ in await service.verify())


async def test_accepting_in_time_hands_it_over(service: TableService, clock: ManualClock) -> None:
    await hans_asks_for_the_helmet(service)
    accepted = await service.handle(ANN, "/choose option:accept")
    assert "Sarge agrees: Hans takes Helmet" in text(accepted)
    clock.advance(timedelta(minutes=10))
    assert await Scheduler(service, RecordingOutbox(), clock).scan() == 0
    assert all(ok for _, ok, _ in await service.verify())
