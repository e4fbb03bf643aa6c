"""Autopilot plays an awaited away seat, and `/away for:off` hands it back at once (issue
#32, item 11), through the playground API.

A Reichbusters hero put away in the middle of the heroes' turn, while a figure's step waits
(move it or skip it): the safe policy used to pick a standing order, which moves nothing on,
so the seat stayed awaited. Now the step is skipped and the turn ended for the seat; the
player's return gives the seat back before its next turn.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from playground_table import Playground, playground

from bot.storage.db import Database
from bot.table import TableService
from engine.core.dice import SeededDice
from engine.core.game import Action
from engine.registry import games
from engine.selfplay import choose_action, default_seats


@pytest.fixture
async def table(db: Database) -> AsyncIterator[Playground]:
    async with playground(TableService(db, new_seed=lambda: 1, limits=None), "war-room") as t:
        yield t


@pytest.mark.parametrize("own_actions", [2, 3])
async def test_an_away_seat_is_played_while_awaited_and_handed_back_at_once(
    table: Playground, own_actions: int
) -> None:
    game = games()["reichbusters"]
    ann_role, bob_role = default_seats(game, "radio-silence", 2)
    await table.open("reichbusters", "radio-silence", {ann_role: "ann", bob_role: "bob"})

    async def awaited() -> list[str]:
        return list(game.waiting_on(await table.state(game)).seats)

    policy, acted = SeededDice(1), 0
    for _ in range(200):
        state = await table.state(game)
        seat = game.waiting_on(state).seats[0]
        offered = game.legal_actions(state, seat)
        if seat == ann_role:
            if acted >= own_actions:
                break
            acted += 1
            offered = [a for a in offered if a.verb not in ("orders", "end-turn")] or offered
        else:
            offered = [a for a in offered if a.verb == "end-turn"] or offered
        action: Action = choose_action(offered, policy, 0)
        await table.send("ann" if seat == ann_role else "bob", action.command())
    assert ann_role in await awaited()
    # Away during her own turn: autopilot plays her seat at once, the table moves on.
    said = await table.say("ann", "/away for:1d")
    assert "Autopilot played for you" in said
    assert ann_role not in await awaited()
    # Back: her seat is hers again before its next turn, which waits on her.
    assert "is back" in await table.say("ann", "/away for:off")
    for _ in range(60):
        waiting = await awaited()
        if ann_role in waiting:
            break
        offered = game.legal_actions(await table.state(game), waiting[0])
        ender = [a for a in offered if a.verb == "end-turn"] or offered
        await table.send("bob", ender[0].command())
    assert ann_role in await awaited()
    seats = await table.service.repo.seats((await table.campaign()).id or 0)
    assert all(not s.autopilot and s.away_until is None for s in seats if s.role == ann_role)
