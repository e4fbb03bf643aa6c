"""Fifty players' clicks at once through the playground API, and fuzzed request bodies."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.playground.server import create_app
from bot.storage.db import Database
from bot.table import TableService


@pytest.fixture
async def client(db: Database) -> AsyncIterator[tuple[TestClient[Any, Any], TableService]]:
    service = TableService(db, new_seed=lambda: 5, limits=None)
    async with TestClient(TestServer(create_app(service))) as test_client:
        yield test_client, service


async def post(client: TestClient[Any, Any], user: str, text: str) -> dict[str, Any]:
    response = await client.post(
        "/api/command", json={"channel": "rush", "user": user, "text": text}
    )
    assert response.status == 200
    body: dict[str, Any] = await response.json()
    return body


async def test_fifty_concurrent_commands_are_serialised(
    client: tuple[TestClient[Any, Any], TableService],
) -> None:
    api, service = client
    for user, text in (
        ("ann", "/campaign create game:dash scenario:sprint pace:3"),
        ("ann", "/campaign join role:red"),
        ("bob", "/campaign join role:blue"),
        ("ann", "/campaign begin"),
    ):
        assert (await post(api, user, text))["ok"]
    commands = [
        ("ann" if i % 2 else "bob", "/end-turn" if i % 7 == 0 else "/act what:peek")
        for i in range(50)
    ]
    results = await asyncio.gather(*(post(api, u, t) for u, t in commands))
    campaign = await service.repo.live_in_channel("rush")
    assert campaign is not None
    rows = await service.repo.log(campaign.id or 0)
    applied = [r for r in rows if r.kind == "action"]
    # Every acknowledged command is exactly one log row; refusals explain themselves.
    assert len(applied) == sum(1 for r in results if r["ok"])
    assert all(r["replies"][0]["content"] for r in results if not r["ok"])
    assert [r.seq for r in rows] == list(range(1, len(rows) + 1))
    assert all(ok for _, ok, _ in await service.verify())


JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=40),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=8,
)
FIELDS = st.fixed_dictionaries(
    {},
    optional={
        "channel": JSONISH | st.text(max_size=60),
        "user": JSONISH | st.text(max_size=60),
        "text": JSONISH | st.text(max_size=700),
    },
)


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(body=FIELDS | JSONISH, raw=st.booleans())
async def test_fuzzed_bodies_get_json_answers_never_a_crash(
    client: tuple[TestClient[Any, Any], TableService], body: Any, raw: bool
) -> None:
    api, _ = client
    data = json.dumps(body).encode()[:-1] if raw else json.dumps(body).encode()
    response = await api.post(
        "/api/command", data=data, headers={"Content-Type": "application/json"}
    )
    assert response.status in (200, 400, 413)
    answer = await response.json()
    assert isinstance(answer, dict) and "ok" in answer


# Bodies an attacker sends: nested thousands deep, numbers thousands of digits long, both
# inside otherwise valid requests. Issue #22 saw each answered with a 500 and a traceback.
HOSTILE = st.one_of(
    st.integers(min_value=100, max_value=20_000).map(lambda n: "[" * n),
    st.integers(min_value=100, max_value=5_000).map(lambda n: "[" * n + "]" * n),
    st.integers(min_value=21, max_value=6_000).map(lambda n: "9" * n),
    st.tuples(st.sampled_from(["channel", "user", "text", "x"]), st.integers(21, 6_000)).map(
        lambda kv: "{" + f'"{kv[0]}": -' + "1" * kv[1] + "}"
    ),
    st.integers(min_value=9, max_value=3_000).map(
        lambda n: '{"channel": "rush", "user": "ann", "text": ' + "{" * n + "}" * n + "}"
    ),
)


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(raw=HOSTILE)
async def test_deep_or_huge_bodies_are_a_400_without_a_traceback(
    client: tuple[TestClient[Any, Any], TableService],
    raw: str,
    caplog: pytest.LogCaptureFixture,
) -> None:
    api, _ = client
    caplog.clear()
    response = await api.post(
        "/api/command", data=raw.encode(), headers={"Content-Type": "application/json"}
    )
    assert response.status in (400, 413), await response.text()
    answer = await response.json()
    assert answer["ok"] is False and answer["error"]
    assert not [r for r in caplog.records if r.levelname == "ERROR"]


async def test_the_two_bodies_of_the_report_are_refused(
    client: tuple[TestClient[Any, Any], TableService],
) -> None:
    api, _ = client
    for raw, why in (("[" * 7000, "nests deeper"), ("1" * 5000, "at most 20 digits")):
        response = await api.post("/api/command", data=raw)
        assert response.status == 400
        assert why in (await response.json())["error"]
