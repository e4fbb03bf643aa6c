"""The step runner: one committed transaction per step, autopilot, and who gets pinged."""

from __future__ import annotations

import asyncio

from support import caller, text

from bot.replay import run_action
from bot.table import TableService
from bot.table.steps import NewStep, log_row
from engine.core.game import Action

ANN, BOB = caller("ann"), caller("bob")


async def begun(table: TableService) -> None:
    for who, command in [
        (ANN, "/campaign create game:dash scenario:sprint"),
        (ANN, "/campaign join role:red"),
        (BOB, "/campaign join role:blue"),
        (ANN, "/campaign begin"),
    ]:
        replies = await table.handle(who, command)
        assert not any(r.error for r in replies), text(replies)


async def test_a_committed_step_is_stored_and_pings_only_the_newly_needed(
    table: TableService,
) -> None:
    await begun(table)
    parts = table.campaigns.parts
    loaded = await parts.loader.active(ANN)
    version = loaded.campaign.version
    action = Action(verb="end-turn")
    step, random_used, _ = await asyncio.to_thread(
        run_action, loaded.game, loaded.state, loaded.campaign.seed, version + 1, "red", action
    )
    row = log_row(loaded, "red", ANN.user_id, action, step.events, random_used)
    loaded.state = step.state
    before = {"id-ann", "id-bob"}
    outcome = await parts.steps.commit(
        ANN, loaded, NewStep(step.events, row, waiting_before=before)
    )
    assert outcome.prompt.seats == ["blue"]
    assert outcome.mentions == []  # the game already waited on bob: no second ping
    stored = await table.repo.live_in_channel("chan-1")
    assert stored is not None and stored.version == version + 1
    assert (await table.repo.last_log(stored.id or 0)) is not None
    assert all(ok for _, ok, _ in await table.verify())


async def test_autopilot_plays_a_seat_while_a_human_still_plays(table: TableService) -> None:
    await begun(table)
    parts = table.campaigns.parts
    campaign = await table.repo.live_in_channel("chan-1")
    assert campaign is not None
    (blue,) = [s for s in await table.repo.seats(campaign.id or 0) if s.role == "blue"]
    await table.repo.seat_update(blue.id or 0, autopilot=True)
    ended = await table.handle(ANN, "/end-turn")
    assert "Autopilot plays for Blue runner" in text(ended)
    assert (await parts.loader.active(ANN)).prompt().seats == ["red"]  # a new round: red's turn
    log = await table.repo.log(campaign.id or 0)
    assert any(r.user_id == "autopilot" and r.seat == "blue" for r in log)
