"""Autopilot plays an awaited away seat, and `/away for:off` hands it back at once (issue
#32, item 11), through the playground API.

A Reichbusters hero put away in the middle of the heroes' turn, while a figure's step waits
(move it or skip it): the safe policy used to pick a standing order, which moves nothing on,
so the seat stayed awaited. Now the step is skipped and the turn ended for the seat; the
player's return gives the seat back before its next turn.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.playground.server import create_app
from bot.storage.db import Database
from bot.table import TableService
from engine.core.dice import SeededDice
from engine.core.game import Action
from engine.registry import games
from engine.selfplay import choose_action, default_seats


@pytest.fixture
def service(db: Database) -> TableService:
    return TableService(db, new_seed=lambda: 1, limits=None)


@pytest.fixture
async def client(service: TableService) -> AsyncIterator[TestClient[Any, Any]]:
    async with TestClient(TestServer(create_app(service))) as test_client:
        yield test_client


async def send(client: TestClient[Any, Any], user: str, text: str) -> str:
    body = {"channel": "war-room", "user": user, "text": text}
    response = await client.post("/api/command", json=body)
    assert response.status == 200, await response.text()
    answer = await response.json()
    assert answer["ok"], (text, answer)
    return "\n".join(r["content"] for r in answer["replies"])


class Table:
    def __init__(self, client: TestClient[Any, Any], service: TableService, key: str) -> None:
        self.client, self.service = client, service
        self.game = games()[key]

    async def state(self) -> Any:
        campaign = await self.service.repo.latest_in_channel("war-room")
        assert campaign is not None and campaign.state_json
        return self.game.load(json.loads(campaign.state_json))

    async def awaited(self) -> list[str]:
        return list(self.game.waiting_on(await self.state()).seats)


@pytest.mark.parametrize("own_actions", [2, 3])
async def test_an_away_seat_is_played_while_awaited_and_handed_back_at_once(
    client: TestClient[Any, Any], service: TableService, own_actions: int
) -> None:
    table = Table(client, service, "reichbusters")
    ann_role, bob_role = default_seats(table.game, "radio-silence", 2)
    await send(client, "ann", "/campaign create game:reichbusters scenario:radio-silence")
    await send(client, "ann", f"/campaign join role:{ann_role}")
    await send(client, "bob", f"/campaign join role:{bob_role}")
    await send(client, "ann", "/campaign begin")
    policy, acted = SeededDice(1), 0
    for _ in range(200):
        state = await table.state()
        seat = table.game.waiting_on(state).seats[0]
        offered = table.game.legal_actions(state, seat)
        if seat == ann_role:
            if acted >= own_actions:
                break
            acted += 1
            offered = [a for a in offered if a.verb not in ("orders", "end-turn")] or offered
        else:
            offered = [a for a in offered if a.verb == "end-turn"] or offered
        action: Action = choose_action(offered, policy, 0)
        await send(client, "ann" if seat == ann_role else "bob", action.command())
    assert ann_role in await table.awaited()
    # Away during her own turn: autopilot plays her seat at once, the table moves on.
    said = await send(client, "ann", "/away for:1d")
    assert "Autopilot played for you" in said
    assert ann_role not in await table.awaited()
    # Back: her seat is hers again before its next turn, which waits on her.
    assert "is back" in await send(client, "ann", "/away for:off")
    for _ in range(60):
        awaited = await table.awaited()
        if ann_role in awaited:
            break
        state = await table.state()
        offered = table.game.legal_actions(state, awaited[0])
        ender = [a for a in offered if a.verb == "end-turn"] or offered
        await send(client, "bob", ender[0].command())
    assert ann_role in await table.awaited()
    seats = await service.repo.seats(
        (await service.repo.latest_in_channel("war-room")).id or 0  # type: ignore[union-attr]
    )
    assert all(not s.autopilot and s.away_until is None for s in seats if s.role == ann_role)
