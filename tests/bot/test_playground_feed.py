"""The playground's feeds: kept across restarts, paged without gaps, never evicted silently."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from aiohttp.test_utils import TestClient, TestServer

from bot.playground.feed import MAX_MESSAGES_PER_PAGE, Playground
from bot.playground.server import create_app
from bot.table import TableService


async def post(api: TestClient[Any, Any], user: str, text: str, channel: str) -> Any:
    response = await api.post("/api/command", json={"channel": channel, "user": user, "text": text})
    return response.status, await response.json()


async def page(api: TestClient[Any, Any], channel: str, after: int, user: str = "ann") -> Any:
    response = await api.get(
        f"/api/channels/{channel}/messages", params={"after": str(after), "user": user}
    )
    assert response.status == 200
    return await response.json()


async def test_the_feed_and_its_images_survive_a_restart(
    table: TableService, tmp_path: Path
) -> None:
    path = str(tmp_path / "feed.db")
    async with TestClient(TestServer(create_app(table, feed_path=path))) as api:
        for line in (
            "/campaign create game:dash scenario:sprint",
            "/campaign join role:red",
            "/campaign begin",
        ):
            status, answer = await post(api, "ann", line, "war-room")
            assert status == 200 and answer["ok"], answer
        before = await page(api, "war-room", 0)
    async with TestClient(TestServer(create_app(table, feed_path=path))) as api:
        after = await page(api, "war-room", 0)
        # three commands, their replies, and the briefing that /campaign begin posts first
        assert after == before and len(after["messages"]) == 7
        image = next(m["images"][0] for m in after["messages"] if m["images"])
        assert (await api.get(image)).status == 200
        status, _ = await post(api, "ann", "/board view:text", "war-room")
        # Numbering goes on after the restart (ids and edits share the counter: the create
        # post's join buttons were taken away when the mission began).
        fresh = (await page(api, "war-room", before["last"]))["messages"]
        assert fresh[0]["id"] == before["last"] + 1


def test_pages_follow_each_other_without_skipping_an_id() -> None:
    playground = Playground()
    channel = playground.channel("busy")
    for n in range(1, 306):
        # Every third message is private to bob: ann's pages skip them, and only them.
        channel.post(author="x", content=str(n), kind="reply", ephemeral=n % 3 == 0, for_user="bob")
    seen: list[int] = []
    after, more = 10, True
    while more:
        shown = channel.since(after, "ann")
        assert len(shown.messages) <= MAX_MESSAGES_PER_PAGE
        seen += [m.id for m in shown.messages]
        after, more = shown.last, shown.more
    assert seen == [n for n in range(11, 306) if n % 3]
    assert after == 305
    # Issue #22: after=10 used to answer the latest 200 (105-304), silently skipping 11-104.
    first = channel.since(10, "bob")
    assert [m.id for m in first.messages] == list(range(11, 211)) and first.more


def test_old_messages_pruned_are_said_to_be_gone() -> None:
    playground = Playground(keep_messages=50)
    channel = playground.channel("long")
    for n in range(120):
        channel.post(author="x", content=str(n), kind="reply")
    shown = channel.since(0, None)
    assert shown.oldest == 71 and shown.messages[0].id == 71 and not shown.more


async def test_many_new_channels_evict_nothing_and_are_capped(table: TableService) -> None:
    app = create_app(table)
    async with TestClient(TestServer(app)) as api:
        status, _ = await post(api, "ann", "/help", "war-room")
        assert status == 200
        playground = next(v for v in app.values() if isinstance(v, Playground))
        playground.max_channels = 40
        for n in range(39):  # touching channels up to the cap keeps war-room's feed
            playground.post_bot(f"chan-{n}", [])
            playground.channel(f"chan-{n}").post(author="x", content="hi", kind="reply")
        assert len((await page(api, "war-room", 0))["messages"]) >= 2
        status, refused = await post(api, "bob", "/help", "one-too-many")
        assert status == 400 and "at most 40 channels" in refused["error"]
        assert (await page(api, "one-too-many", 0))["messages"] == []
        status, _ = await post(api, "bob", "/help", "war-room")  # existing channels still work
        assert status == 200
