"""The fake Discord itself is strict: it refuses what Discord refuses, and records it."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest
from fake_discord import FakeDiscord, InteractionRecord

TIMEOUT = 10


@pytest.fixture
async def server() -> AsyncIterator[FakeDiscord]:
    fake = FakeDiscord(attachment_limit=1000)
    fake.add_member("ann")
    fake.add_channel("table")
    await fake.start()
    yield fake
    await fake.close()


@pytest.fixture
async def http() -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession() as session:
        yield session


def interaction(fake: FakeDiscord, kind: int = 2) -> InteractionRecord:
    data: dict[str, Any] = {"id": "1", "name": "help", "type": 1}
    if kind == 3:
        data = {"custom_id": "x", "component_type": 2}
    return fake.interaction_payload(kind, fake.member("ann"), fake.channel("table"), data)


async def callback(
    http: aiohttp.ClientSession, fake: FakeDiscord, record: InteractionRecord, body: dict[str, Any]
) -> tuple[int, Any]:
    url = f"{fake.api_base}/interactions/{record.id}/{record.token}/callback?with_response=1"
    async with http.post(url, json=body) as response:
        payload = await response.json(content_type=None) if response.status != 204 else None
        return response.status, payload


def rules(fake: FakeDiscord) -> list[str]:
    return [v.rule for v in fake.violations]


async def test_content_over_2000_characters_is_refused(
    server: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    async with asyncio.timeout(TIMEOUT):
        record = interaction(server)
        status, body = await callback(
            http, server, record, {"type": 4, "data": {"content": "x" * 2001}}
        )
        assert status == 400 and body["code"] == 50035
        assert rules(server) == ["content-length"] and record.acked_at is None
        status, body = await callback(
            http, server, record, {"type": 4, "data": {"content": "x" * 2000}}
        )
        assert status == 200 and body["resource"]["message"]["content"] == "x" * 2000
        assert record.ack_delay is not None and record.ack_delay < 3


async def test_more_than_25_autocomplete_choices_are_refused(
    server: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    async with asyncio.timeout(TIMEOUT):
        record = interaction(server, kind=4)
        choices = [{"name": f"c{i}", "value": f"c{i}"} for i in range(26)]
        status, _ = await callback(http, server, record, {"type": 8, "data": {"choices": choices}})
        assert status == 400 and rules(server) == ["autocomplete-count"]
        status, _ = await callback(http, server, record, {"type": 4, "data": {"content": "hi"}})
        assert status == 400 and rules(server)[-1] == "callback-type"
        status, _ = await callback(
            http, server, record, {"type": 8, "data": {"choices": choices[:25]}}
        )
        assert status == 204 and len(record.choices) == 25


async def test_oversized_embeds_and_empty_messages_are_refused(
    server: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    async with asyncio.timeout(TIMEOUT):
        record = interaction(server)
        embed = {"title": "t", "description": "d" * 4097}
        status, _ = await callback(http, server, record, {"type": 4, "data": {"embeds": [embed]}})
        assert status == 400 and "embed-description" in rules(server)
        many = [{"description": "d" * 4000}, {"description": "d" * 4000}]
        status, _ = await callback(http, server, record, {"type": 4, "data": {"embeds": many}})
        assert status == 400 and "embed-total" in rules(server)
        status, _ = await callback(http, server, record, {"type": 4, "data": {}})
        assert status == 400 and rules(server)[-1] == "empty-message"


async def test_files_over_the_interaction_limit_are_refused(
    server: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    async with asyncio.timeout(TIMEOUT):
        record = interaction(server)
        url = f"{server.api_base}/interactions/{record.id}/{record.token}/callback"

        def form(size: int) -> aiohttp.FormData:
            data = aiohttp.FormData()
            payload = {"type": 4, "data": {"attachments": [{"id": 0, "filename": "b.png"}]}}
            data.add_field("payload_json", json.dumps(payload), content_type="application/json")
            data.add_field("files[0]", b"x" * size, filename="b.png")
            return data

        async with http.post(url, data=form(1001)) as response:
            assert response.status == 400
        assert rules(server) == ["file-size"]
        async with http.post(url, data=form(1000)) as response:
            assert response.status == 204
        message = server.messages_of(record)[0]
        assert message.attachments[0].size == 1000


async def test_late_double_and_unknown_acknowledgements(
    server: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    async with asyncio.timeout(TIMEOUT):
        late = interaction(server)
        late.sent_at -= 3.5  # as if the bot took 3.5 s to answer
        status, body = await callback(http, server, late, {"type": 5})
        assert status == 404 and body["code"] == 10062 and rules(server) == ["late-ack"]
        record = interaction(server)
        assert (await callback(http, server, record, {"type": 5}))[0] == 200
        status, body = await callback(http, server, record, {"type": 5})
        assert status == 400 and body["code"] == 40060 and rules(server)[-1] == "double-ack"
        forged = f"{server.api_base}/interactions/{record.id}/forged/callback"
        async with http.post(forged, json={"type": 5}) as response:
            assert response.status == 404
        assert rules(server)[-1] == "unknown-interaction"


async def test_follow_ups_need_an_acknowledgement_and_keep_private_text_private(
    server: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    async with asyncio.timeout(TIMEOUT):
        record = interaction(server)
        url = f"{server.api_base}/webhooks/{server.app_id}/{record.token}?wait=1"
        async with http.post(url, json={"content": "too early"}) as response:
            assert response.status == 404
        assert rules(server) == ["followup-before-ack"]
        await callback(http, server, record, {"type": 5})  # public "thinking..."
        async with http.post(url, json={"content": "secret", "flags": 64}) as response:
            assert response.status == 200
        assert rules(server)[-1] == "ephemeral-leak"
        shown = server.feed(server.channel("table"))
        assert [m.content for m in shown] == ["secret"], "Discord would show it to everyone"


async def test_unknown_routes_and_bad_tokens_are_violations(
    server: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    async with asyncio.timeout(TIMEOUT):
        async with http.get(f"{server.api_base}/channels/1/messages") as response:
            assert response.status == 404
        async with http.get(
            f"{server.api_base}/users/@me", headers={"Authorization": "Bot wrong"}
        ) as response:
            assert response.status == 401
        async with http.get(
            f"{server.api_base}/users/@me", headers={"Authorization": f"Bot {server.token}"}
        ) as response:
            assert response.status == 200
            assert response.headers["Content-Type"] == "application/json"
        assert rules(server) == ["unknown-route", "auth"]


async def test_command_sync_is_validated_and_recorded(
    server: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    async with asyncio.timeout(TIMEOUT):
        headers = {"Authorization": f"Bot {server.token}"}
        url = f"{server.api_base}/applications/{server.app_id}/commands"
        bad = [{"name": "Move", "description": "x", "type": 1}]
        async with http.put(url, json=bad, headers=headers) as response:
            assert response.status == 400
        good = [{"name": "move", "description": "Move a figure", "type": 1, "options": []}]
        async with http.put(url, json=good, headers=headers) as response:
            assert response.status == 200
            stored = await response.json()
        guild_url = (
            f"{server.api_base}/applications/{server.app_id}/guilds/{server.guild_id}/commands"
        )
        async with http.put(guild_url, json=good, headers=headers) as response:
            assert response.status == 200
        assert server.sync_calls == [(None, 1), (server.guild_id, 1)]
        assert stored[0]["id"] and server.find_command("move")[1] == server.guild_id
        assert rules(server) == ["command"]


async def test_rate_limit_answers_carry_via_and_retry_after(
    server: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    async with asyncio.timeout(TIMEOUT):
        server.rate_limit_next("/users/@me")
        headers = {"Authorization": f"Bot {server.token}"}
        async with http.get(f"{server.api_base}/users/@me", headers=headers) as response:
            assert response.status == 429 and response.headers.get("Via")
            assert (await response.json(content_type=None))["retry_after"] > 0
        async with http.get(f"{server.api_base}/users/@me", headers=headers) as response:
            assert response.status == 200
