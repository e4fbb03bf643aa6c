"""The playground's JSON API, driven over HTTP with aiohttp's test client and the Dash game."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.playground.feed import ImageStore
from bot.playground.server import create_app, deliver
from bot.replies import Reply
from bot.table import Caller, Suggestion, TableService

CHANNEL = "general"


@pytest.fixture
async def client(table: TableService) -> AsyncIterator[TestClient[Any, Any]]:
    async with TestClient(TestServer(create_app(table))) as test_client:
        yield test_client


async def command(
    client: TestClient[Any, Any], user: str, text: str, channel: str = CHANNEL
) -> dict[str, Any]:
    response = await client.post(
        "/api/command", json={"channel": channel, "user": user, "text": text}
    )
    assert response.status == 200, await response.text()
    body: dict[str, Any] = await response.json()
    return body


def content(body: dict[str, Any]) -> str:
    return "\n".join(reply["content"] for reply in body["replies"])


async def feed(
    client: TestClient[Any, Any], user: str | None = None, after: int = 0
) -> dict[str, Any]:
    params = {"after": str(after)} | ({"user": user} if user else {})
    response = await client.get(f"/api/channels/{CHANNEL}/messages", params=params)
    assert response.status == 200, await response.text()
    body: dict[str, Any] = await response.json()
    return body


async def suggestions(client: TestClient[Any, Any], user: str, text: str) -> list[str]:
    response = await client.get(
        "/api/autocomplete", params={"channel": CHANNEL, "user": user, "text": text}
    )
    assert response.status == 200, await response.text()
    return [s["value"] for s in (await response.json())["suggestions"]]


async def start(client: TestClient[Any, Any]) -> dict[str, Any]:
    assert (await command(client, "ann", "/campaign create game:dash scenario:sprint"))["ok"]
    assert (await command(client, "ann", "/campaign join role:red"))["ok"]
    assert (await command(client, "bob", "/campaign join role:blue"))["ok"]
    begun = await command(client, "ann", "/campaign begin")
    assert begun["ok"], begun
    return begun


async def test_a_whole_turn_through_the_api(client: TestClient[Any, Any]) -> None:
    begun = await start(client)
    board = begun["replies"][-1]
    assert not board["ephemeral"] and "begins" in content(begun)
    assert board["images"] and board["images"][0].startswith("/images/")
    assert {
        "label": "Pick an action · Red runner, Blue runner",
        "command": "/pick",
    }.items() <= board["buttons"][0].items()
    assert {"label": "End turn · Red runner, Blue runner", "command": "/end-turn"}.items() <= board[
        "buttons"
    ][1].items()
    assert sorted(board["mentions"]) == ["pg:ann", "pg:bob"]
    assert "<@pg:ann>" in board["content"]

    image = await client.get(board["images"][0])
    assert image.status == 200 and image.content_type == "image/png"
    assert (await image.read()).startswith(b"\x89PNG")

    moves = await suggestions(client, "ann", "/move to:")
    assert moves and all(len(m) == 2 for m in moves)
    moved = await command(client, "ann", f"/move to:{moves[0]}")
    assert moved["ok"] and f"red runs to {moves[0]}" in content(moved)

    assert (await command(client, "ann", "/end-turn"))["ok"]
    last = await command(client, "bob", "/end-turn")
    assert last["ok"] and "Round 2" in content(last)

    messages = (await feed(client, "bob"))["messages"]
    ids = [m["id"] for m in messages]
    assert len(set(ids)) == len(ids)
    # A step's outcome is the bot's turn post: its running log says what was done, so the
    # typed line is shown to its author only (as on Discord, where it is answered privately).
    assert not any(m["content"] == f"/move to:{moves[0]}" for m in messages)
    mine = (await feed(client, "ann"))["messages"]
    invocation = next(m for m in mine if m["content"] == f"/move to:{moves[0]}")
    assert invocation["author"] == "ann" and invocation["ephemeral"]
    answer = next(m for m in messages if "red runs to" in m["content"])
    assert answer["author"] == "Sortie"
    assert answer["images"] and not answer["error"]
    # Only the latest post keeps live buttons: the rounds' later posts superseded this one.
    live = [m for m in messages if m["buttons"]]
    assert len(live) == 1 and live[0]["id"] == max(m["id"] for m in messages if m["images"])
    for key in ("id", "author", "content", "images", "ephemeral", "mentions", "buttons", "error"):
        assert key in answer


async def test_feed_paging_with_after(client: TestClient[Any, Any]) -> None:
    await start(client)
    whole = await feed(client, "ann")
    assert whole["last"] == whole["messages"][-1]["id"]
    assert (await feed(client, "ann", after=whole["last"]))["messages"] == []
    await command(client, "bob", "/board share:yes")
    fresh = (await feed(client, "ann", after=whole["last"]))["messages"]
    assert [m["author"] for m in fresh] == ["bob", "Sortie"]
    assert fresh[0]["content"] == "/board share:yes" and fresh[1]["images"]


async def test_ephemeral_messages_reach_only_their_user(client: TestClient[Any, Any]) -> None:
    await start(client)
    peek = await command(client, "ann", "/act what:peek")
    assert peek["ok"]
    secret = [r for r in peek["replies"] if "peeks" in r["content"]]
    assert secret and all(r["ephemeral"] for r in secret)
    assert any("peeks" in m["content"] for m in (await feed(client, "ann"))["messages"])
    for other in ("bob", None):
        shown = (await feed(client, other))["messages"]
        assert shown and not any("peeks" in m["content"] for m in shown)
        assert not any(m["ephemeral"] for m in shown)

    # A private answer hides the invocation from the others too, as Discord does.
    status = await command(client, "bob", "/campaign status")
    assert status["ok"] and all(r["ephemeral"] for r in status["replies"])
    assert "/campaign status" in [m["content"] for m in (await feed(client, "bob"))["messages"]]
    assert "/campaign status" not in [m["content"] for m in (await feed(client, "ann"))["messages"]]


async def test_refused_command_is_not_ok_and_changes_nothing(
    client: TestClient[Any, Any], table: TableService
) -> None:
    await start(client)
    before = await table.repo.live_in_channel(CHANNEL)
    seen = (await feed(client, "cat"))["last"]
    for user, text in (
        ("eve", "/move to:A2"),
        ("ann", "/move to:Z9"),
        ("bob", "/campaign begin"),
        ("ann", "/fly to:A1"),
        ("ann", "move to:A1"),
    ):
        refused = await command(client, user, text)
        assert refused["ok"] is False, text
        assert refused["replies"] and all(r["ephemeral"] for r in refused["replies"])
        assert any(r["error"] for r in refused["replies"])
    after = await table.repo.live_in_channel(CHANNEL)
    assert before is not None and after is not None
    assert (after.version, after.step, after.state_json) == (
        before.version,
        before.step,
        before.state_json,
    )
    # Nobody else sees the refusals in the channel.
    assert (await feed(client, "cat", after=seen))["messages"] == []
    mine = (await feed(client, "bob", after=seen))["messages"]
    assert mine[0]["content"] == "/campaign begin" and mine[1]["error"]


async def test_channels_are_separate(client: TestClient[Any, Any]) -> None:
    await start(client)
    other = await command(client, "ann", "/move to:B2", channel="side-room")
    assert other["ok"] is False and "No campaign" in content(other)
    response = await client.get("/api/channels/empty-one/messages")
    assert await response.json() == {"messages": [], "last": 0, "more": False, "oldest": 0}


GOOD = {"channel": CHANNEL, "user": "ann", "text": "/help"}


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        ({"user": None}, "user is missing"),
        ({"user": ""}, "user is empty"),
        ({"user": "a" * 33}, "user is too long"),
        ({"user": "ann smith"}, "user may only use"),
        ({"user": "ann<script>"}, "user may only use"),
        ({"user": 7}, "user must be a string"),
        ({"user": "sortie"}, "reserved"),
        ({"channel": None}, "channel is missing"),
        ({"channel": ""}, "channel is empty"),
        ({"channel": "c" * 33}, "channel is too long"),
        ({"channel": "../etc"}, "channel may only use"),
        ({"text": None}, "text is missing"),
        ({"text": "   "}, "text is empty"),
        ({"text": "/" + "x" * 500}, "text is too long"),
        ({"text": ["/help"]}, "text must be a string"),
    ],
)
async def test_command_fields_are_validated(
    client: TestClient[Any, Any], change: dict[str, Any], problem: str
) -> None:
    body = {k: v for k, v in (GOOD | change).items() if v is not None}
    response = await client.post("/api/command", json=body)
    assert response.status == 400
    answer = await response.json()
    assert answer["ok"] is False and problem in answer["error"]
    assert (await feed(client, "ann"))["messages"] == []


async def test_malformed_requests_get_json_errors(client: TestClient[Any, Any]) -> None:
    for data in ("not json", "[1, 2]", '"text"'):
        response = await client.post(
            "/api/command", data=data, headers={"Content-Type": "application/json"}
        )
        assert response.status == 400 and (await response.json())["ok"] is False
    huge = await client.post("/api/command", json=GOOD | {"text": "/" + "x" * 40_000})
    assert huge.status == 413 and (await huge.json())["ok"] is False
    for query in ({"after": "-1"}, {"after": "soon"}, {"after": "\u00b2"}, {"user": "no way"}):
        response = await client.get(f"/api/channels/{CHANNEL}/messages", params=query)
        assert response.status == 400 and "error" in await response.json()
    bad_channel = await client.get("/api/channels/" + "x" * 40 + "/messages")
    assert bad_channel.status == 400
    for query in (
        {"user": "ann", "text": "/m"},
        {"channel": CHANNEL, "text": "/m"},
        {"channel": CHANNEL, "user": "ann"},
        {"channel": CHANNEL, "user": "ann", "text": ""},
        {"channel": CHANNEL, "user": "ann", "text": "/" * 501},
    ):
        response = await client.get("/api/autocomplete", params=query)
        assert response.status == 400 and (await response.json())["ok"] is False
    missing = await client.get("/api/nothing-here")
    assert missing.status == 404 and (await missing.json())["ok"] is False
    gone = await client.get("/images/" + "ab" * 12 + ".png")
    assert gone.status == 404


async def test_autocomplete_follows_the_command_being_typed(client: TestClient[Any, Any]) -> None:
    assert "/move" in await suggestions(client, "ann", "/mo")
    assert await suggestions(client, "ann", "/campaign j") == ["join"]
    assert "dash" in await suggestions(client, "ann", "/campaign create game:")
    assert await suggestions(client, "ann", "/campaign create game:dash scenario:") == ["sprint"]
    assert await suggestions(client, "ann", "/campaign create game:dash ") == ["scenario:"]
    assert await suggestions(client, "ann", "/campaign create game:dash scenario:sprint p") == [
        "pace:"
    ]
    assert await suggestions(client, "ann", "/move ") == ["to:", "unit:", "facing:", "surge:"]
    assert await suggestions(client, "ann", "/nonsense x") == []
    await start(client)
    assert await suggestions(client, "bob", "/campaign join role:") == []  # all seats taken
    assert await suggestions(client, "bob", "/campaign leave role:") == ["blue"]  # his own
    assert await suggestions(client, "eve", "/move to:") == []  # no seat, nothing legal


async def test_autocomplete_returns_at_most_25(
    client: TestClient[Any, Any], table: TableService, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def many(caller: Caller, text: str) -> list[Suggestion]:
        assert caller.user_id == "pg:ann" and caller.channel_id == CHANNEL
        return [Suggestion(f"square {i}", f"Q{i}") for i in range(60)]

    monkeypatch.setattr(table, "autocomplete", many)
    for text in ("/move to:", "/m"):
        found = await suggestions(client, "ann", text)
        assert len(found) == 25 and found[0] == "Q0"


async def test_page_health_and_images_are_served(client: TestClient[Any, Any]) -> None:
    health = await client.get("/healthz")
    assert health.status == 200 and await health.json() == {"ok": True}
    page = await client.get("/")
    assert page.status == 200 and page.content_type == "text/html"
    assert "Sortie" in await page.text()
    assert "default-src 'self'" in page.headers["Content-Security-Policy"]


def test_image_store_keeps_only_the_latest() -> None:
    store = ImageStore(limit=3)
    ids = [store.add(bytes([n])) for n in range(5)]
    assert len(store) == 3
    assert store.get(ids[0]) is None and store.get(ids[1]) is None
    assert store.get(ids[4]) == bytes([4])


class FakeClock:
    def __init__(self) -> None:
        self.moment = datetime(2026, 1, 5, 12, 0, tzinfo=UTC)

    def now(self) -> datetime:
        return self.moment

    def advance(self, delta: timedelta) -> datetime:
        self.moment += delta
        return self.moment


async def test_dev_clock_moves_only_forward_and_only_when_enabled(table: TableService) -> None:
    clock = FakeClock()
    async with TestClient(TestServer(create_app(table, dev_clock=True, clock=clock))) as dev:
        assert (await (await dev.get("/api/dev/clock")).json())["now"].startswith("2026-01-05T12")
        moved = await dev.post("/api/dev/clock", json={"hours": 30})
        assert moved.status == 200 and (await moved.json())["now"].startswith("2026-01-06T18")
        for bad in ({"hours": -1}, {"hours": 0}, {"hours": "6"}, {"hours": True}, {}, [6]):
            response = await dev.post("/api/dev/clock", json=bad)
            assert response.status == 400 and (await response.json())["ok"] is False
        assert clock.moment == datetime(2026, 1, 6, 18, 0, tzinfo=UTC)
    async with TestClient(TestServer(create_app(table, dev_clock=True))) as no_clock:
        assert (await no_clock.get("/api/dev/clock")).status == 501
    async with TestClient(TestServer(create_app(table, clock=clock))) as plain:
        assert (await plain.post("/api/dev/clock", json={"hours": 1})).status in (404, 405)
    assert clock.moment == datetime(2026, 1, 6, 18, 0, tzinfo=UTC)


async def test_bot_messages_can_be_delivered_to_a_channel(client: TestClient[Any, Any]) -> None:
    reminder = Reply("<@pg:ann>, the table is waiting on you.", mentions=["pg:ann"])
    deliver(client.app, CHANNEL, [reminder, Reply("nobody to show this to", ephemeral=True)])
    messages = (await feed(client, "ann"))["messages"]
    assert [(m["author"], m["mentions"]) for m in messages] == [("Sortie", ["pg:ann"])]


async def test_reminders_reach_the_feed_when_the_dev_clock_moves(db: Any) -> None:
    from bot.clock import ManualClock
    from bot.playground.outbox import PlaygroundOutbox
    from bot.playground.server import SCHEDULER
    from bot.scheduler import Scheduler

    clock = ManualClock()
    service = TableService(db, clock=clock)
    app = create_app(service, dev_clock=True)
    app[SCHEDULER] = Scheduler(service, PlaygroundOutbox(app), clock)
    async with TestClient(TestServer(app)) as dev:
        await start(dev)
        assert (await command(dev, "bob", "/prefs dm:on"))["ok"]
        moved = await dev.post("/api/dev/clock", json={"hours": 24})
        assert (await moved.json())["sent"] == 2
        texts = [m["content"] for m in (await feed(dev, "ann"))["messages"]]
        assert sum("waiting on you for 24 hours" in t for t in texts) == 2
        await dev.post("/api/dev/clock", json={"hours": 24})
        response = await dev.get("/api/channels/dm-bob/messages", params={"user": "bob"})
        dms = (await response.json())["messages"]
        assert dms and "friendly nudge" in dms[0]["content"]


async def test_a_mirrored_campaign_copies_public_steps_to_the_spectator_channel(
    client: TestClient[Any, Any],
) -> None:
    await start(client)
    refused = await command(client, "bob", "/campaign mirror channel:stands")
    assert not refused["ok"] and "Only the campaign owner" in content(refused)
    assert not (await command(client, "ann", "/campaign mirror channel:" + CHANNEL))["ok"]
    assert (await command(client, "ann", "/campaign mirror channel:stands"))["ok"]
    assert (await command(client, "ann", "/act what:peek"))["ok"]
    moves = await suggestions(client, "ann", "/move to:")
    assert (await command(client, "ann", f"/move to:{moves[0]}"))["ok"]
    response = await client.get("/api/channels/stands/messages", params={"user": "eve"})
    copies = (await response.json())["messages"]
    assert copies and all(not m["ephemeral"] and not m["mentions"] for m in copies)
    assert any(m["images"] for m in copies) and not any("peeks:" in m["content"] for m in copies)
    assert (await command(client, "ann", "/campaign mirror channel:stands stop:yes"))["ok"]
    before = len(copies)
    await command(client, "ann", "/end-turn")
    response = await client.get("/api/channels/stands/messages", params={"user": "eve"})
    assert len((await response.json())["messages"]) == before
