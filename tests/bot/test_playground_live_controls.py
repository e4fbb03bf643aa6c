"""One set of live controls in the playground (issue #32, item 5): a public post superseded
by a newer one with buttons loses its buttons and menus (an edit the page polls), as on
Discord (tests/bot/discord/test_live_controls.py)."""

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
from engine.registry import games
from engine.selfplay import END_VERBS, choose_action, default_seats


@pytest.fixture
def service(db: Database) -> TableService:
    return TableService(db, new_seed=lambda: 77, limits=None)


@pytest.fixture
async def client(service: TableService) -> AsyncIterator[TestClient[Any, Any]]:
    async with TestClient(TestServer(create_app(service))) as test_client:
        yield test_client


async def send(client: TestClient[Any, Any], user: str, text: str) -> None:
    body = {"channel": "general", "user": user, "text": text}
    response = await client.post("/api/command", json=body)
    assert response.status == 200, await response.text()


async def public(client: TestClient[Any, Any]) -> list[dict[str, Any]]:
    page = await (await client.get("/api/channels/general/messages")).json()
    messages: list[dict[str, Any]] = page["messages"]
    return messages


@pytest.mark.parametrize(
    ("game_key", "scenario"), [("galaxy-defenders", "m1"), ("forlorn-hope", "op-01")]
)
async def test_only_the_latest_post_keeps_its_buttons(
    client: TestClient[Any, Any], service: TableService, game_key: str, scenario: str
) -> None:
    game = games()[game_key]
    roles = default_seats(game, scenario, 2)
    users = ["ann", "bob"][: len(roles)]
    seat_of = dict(zip(roles, users, strict=False))
    await send(client, "ann", f"/campaign create game:{game_key} scenario:{scenario}")
    for role, user in seat_of.items():
        await send(client, user, f"/campaign join role:{role}")
    await send(client, "ann", "/campaign begin")
    policy, patience, had_controls = SeededDice(5), 0, set()
    for _ in range(40):
        campaign = await service.repo.latest_in_channel("general")
        assert campaign is not None and campaign.state_json
        state = game.load(json.loads(campaign.state_json))
        prompt = game.waiting_on(state)
        if prompt.finished:
            break
        seat = prompt.seats[0]
        action = choose_action(game.legal_actions(state, seat), policy, patience + 8)
        patience = 0 if action.verb in END_VERBS else patience + 1
        await send(client, seat_of[seat], action.command())
        live = [m for m in await public(client) if m["buttons"] or m["menus"]]
        assert len(live) <= 1, [(m["id"], m["content"][:60]) for m in live]
        had_controls |= {m["id"] for m in live}
        if live:
            assert live[0]["id"] == max(had_controls)
    assert len(had_controls) >= 3, had_controls
