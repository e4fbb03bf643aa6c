"""A command acts once (issue #33, item 3): each request id (a Discord interaction's, a
playground client's) is remembered with its first outcome, and a retry or repeat gets that
outcome again, never a second step."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import timedelta
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer
from support import caller, text

from bot.playground.server import create_app
from bot.storage.db import Database
from bot.table import TableService
from bot.table.service import ALREADY_DONE

ANN, BOB = caller("ann"), caller("bob")


async def begun(table: TableService) -> None:
    for who, line in (
        (ANN, "/campaign create game:dash scenario:sprint"),
        (ANN, "/campaign join role:red"),
        (BOB, "/campaign join role:blue"),
        (ANN, "/campaign begin"),
    ):
        assert not (await table.handle(who, line))[0].error, line


async def version(table: TableService) -> int:
    found = await table.campaign_version("chan-1")
    assert found is not None
    return found


async def test_a_repeated_request_does_not_step_twice(table: TableService) -> None:
    await begun(table)
    before = await version(table)
    first = await table.handle(ANN, "/end-turn", request="discord:111")
    assert not any(r.error for r in first)
    after = await version(table)
    assert after > before
    again = await table.handle(ANN, "/end-turn", request="discord:111")
    assert await version(table) == after  # no second step
    assert all(r.repeat for r in again)
    assert [r.content for r in again] == [r.content for r in first]
    # A new request id is a new command (here refused: it is no longer Ann's turn).
    fresh = await table.handle(ANN, "/end-turn", request="discord:112")
    assert not fresh[0].repeat


async def test_concurrent_repeats_step_once(table: TableService) -> None:
    await begun(table)
    before = await version(table)
    answers = await asyncio.gather(
        *(table.handle(ANN, "/end-turn", request="playground:ann:x1") for _ in range(5))
    )
    assert await version(table) == before + 1
    assert sum(1 for a in answers if not a[0].repeat) == 1


async def test_a_request_whose_answer_was_lost_says_it_was_done(db: Database) -> None:
    """The process stopped after the step committed, before it stored the answer."""
    table = TableService(db)
    await begun(table)
    with table.repo.request_scope("discord:7", "chan-1"):
        assert not (await table.handle(ANN, "/end-turn"))[0].error  # the write carries the id
    stepped = await version(table)
    retry = await table.handle(ANN, "/end-turn", request="discord:7")
    assert text(retry) == ALREADY_DONE and await version(table) == stepped


async def test_a_transient_refusal_is_not_remembered(table: TableService) -> None:
    await begun(table)
    refused = await table.handle(caller("eve"), "/end-turn", request="playground:eve:r1")
    assert refused[0].error and await table.repo.interaction("playground:eve:r1") is None


async def test_old_request_ids_are_forgotten(table: TableService) -> None:
    await begun(table)
    await table.handle(ANN, "/end-turn", request="discord:9")
    assert await table.repo.interaction("discord:9") is not None
    later = table.clock.now() + timedelta(days=2)
    assert await table.repo.forget_interactions(later) >= 1
    assert await table.repo.interaction("discord:9") is None


@pytest.fixture
async def client(table: TableService) -> AsyncIterator[TestClient[Any, Any]]:
    async with TestClient(TestServer(create_app(table))) as test_client:
        yield test_client


async def post(client: TestClient[Any, Any], body: dict[str, Any]) -> dict[str, Any]:
    response = await client.post("/api/command", json=body)
    assert response.status == 200, await response.text()
    answer: dict[str, Any] = await response.json()
    return answer


async def test_the_playground_takes_a_client_id(
    client: TestClient[Any, Any], table: TableService
) -> None:
    for user, line in (
        ("ann", "/campaign create game:dash scenario:sprint"),
        ("ann", "/campaign join role:red"),
        ("bob", "/campaign join role:blue"),
        ("ann", "/campaign begin"),
    ):
        assert (await post(client, {"channel": "general", "user": user, "text": line}))["ok"]
    body = {"channel": "general", "user": "ann", "text": "/end-turn", "id": "c-42"}
    first = await post(client, body)
    step = await table.campaign_version("general")
    second = await post(client, body)
    assert second["repeat"] is True and second["ok"] == first["ok"]
    assert [r["content"] for r in second["replies"]] == [r["content"] for r in first["replies"]]
    assert await table.campaign_version("general") == step
    feed = await client.get("/api/channels/general/messages")
    invocations = [
        m for m in (await feed.json())["messages"] if "/end-turn" in m.get("content", "")
    ]
    assert len(invocations) <= 1
    # Ids are per user, and checked like names.
    bad = await client.post("/api/command", json={**body, "id": "no spaces"})
    assert bad.status == 400


async def test_a_pressed_control_acts_once_and_only_on_its_own_board(
    client: TestClient[Any, Any], table: TableService
) -> None:
    """`/api/component` (a button or menu entry pressed in the playground) takes the client's
    id, as `/api/command` does, and the version the control was posted with."""
    for user, line in (
        ("ann", "/campaign create game:dash scenario:sprint"),
        ("ann", "/campaign join role:red"),
        ("bob", "/campaign join role:blue"),
        ("ann", "/campaign begin"),
    ):
        assert (await post(client, {"channel": "general", "user": user, "text": line}))["ok"]
    feed = await (await client.get("/api/channels/general/messages?user=ann")).json()
    board = [m for m in feed["messages"] if m["buttons"] and m["version"] is not None][-1]
    shown = await table.campaign_version("general")
    assert board["version"] == shown
    press = {
        "channel": "general",
        "user": "ann",
        "command": "/end-turn",
        "version": board["version"],
        "id": "press-1",
    }
    first = await client.post("/api/component", json=press)
    assert first.status == 200 and (await first.json())["ok"]
    stepped = await table.campaign_version("general")
    assert stepped is not None and shown is not None and stepped > shown
    again = await (await client.post("/api/component", json=press)).json()
    assert again["repeat"] is True
    assert await table.campaign_version("general") == stepped
    # The same control pressed anew (another id) belongs to an earlier board: refused.
    stale = await (await client.post("/api/component", json={**press, "id": "press-2"})).json()
    assert stale["ok"] is False and "earlier board" in stale["replies"][0]["content"]
    assert await table.campaign_version("general") == stepped
    for bad in ({"version": "7"}, {"version": -1}, {"id": "no spaces"}, {"command": ""}):
        refused = await client.post("/api/component", json={**press, **bad})
        assert refused.status == 400, bad
