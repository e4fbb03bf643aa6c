"""The web view (issue #34): `/campaign web` gives a link; the link's page, steps and step
images are served read-only from the public record; a replaced link answers 404."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer
from hidden_info import CHANNEL, Chooser, Table, fast_renderer, self_play, who
from pydantic import ValidationError

from bot.clock import ManualClock
from bot.config import Settings
from bot.playground.server import SERVICE, create_app
from bot.ratelimit import Limit
from bot.replay import canonical, replay
from bot.replies import Reply
from bot.storage.db import Database
from bot.table import TableService
from bot.web import timeline as timeline_module
from bot.web.server import WebView
from bot.web.server import create_app as create_web_app

LINK = re.compile(r"(https?://[^\s]+/t/([A-Za-z0-9_-]+))")


@pytest.fixture
async def sqlite(tmp_path: Path) -> AsyncIterator[Database]:
    database = Database(f"sqlite+aiosqlite:///{tmp_path / 'web.db'}")
    await database.init()
    yield database
    await database.close()


async def played(db: Database, steps: int = 30, scenario: str = "m1") -> Table:
    """A Galaxy Defenders mission a few dozen steps in, through the table service."""
    service = TableService(
        db, renderer=fast_renderer, new_seed=lambda: 4242, clock=ManualClock(), limits=None
    )
    table = Table(service, "galaxy-defenders", 4242)
    await table.say("ann", f"/campaign create game:galaxy-defenders scenario:{scenario}")
    await table.say("ann", "/campaign join role:marine")
    await table.say("bob", "/campaign join role:sniper")
    await table.say("ann", "/campaign begin")
    await self_play(table, {"marine": "ann", "sniper": "bob"}, policy_seed=7, max_steps=steps)
    return table


async def public_posts(table: Table) -> list[Reply]:
    """The public posts of the next step that makes any."""
    chooser = Chooser(3)
    for _ in range(20):
        chosen = chooser.next(table.game, await table.state())
        assert chosen is not None
        seat, action = chosen
        replies = await table.say({"marine": "ann", "sniper": "bob"}[seat], action.command())
        posts = [r for r in replies if not r.ephemeral]
        if posts:
            return posts
    return []


async def link_of(service: TableService, user: str = "ann") -> tuple[str, str]:
    replies = await service.handle(who(user), "/campaign web")
    assert not replies[0].error, replies[0].content
    found = LINK.search(replies[0].content)
    assert found, replies[0].content
    return found.group(1), found.group(2)


@pytest.fixture
async def client(sqlite: Database) -> AsyncIterator[TestClient[Any, Any]]:
    table = await played(sqlite)
    async with TestClient(TestServer(create_app(table.service))) as test_client:
        table.service.web.set_base(str(test_client.make_url("")).rstrip("/"))
        yield test_client


def service_of(client: TestClient[Any, Any]) -> TableService:
    service: TableService = client.app[SERVICE]
    return service


async def test_the_contract_link_page_steps_and_images(client: TestClient[Any, Any]) -> None:
    service = service_of(client)
    url, token = await link_of(service)
    page = await client.get(f"/t/{token}")
    assert page.status == 200 and page.content_type == "text/html"
    html = await page.text()
    assert "Crash Site" in html and "Roster" in html and "Objectives" in html and "Log" in html
    steps = await (await client.get(f"/t/{token}/steps.json")).json()
    campaign = await service.repo.latest_in_channel(CHANNEL)
    assert campaign is not None
    assert [s["n"] for s in steps] == list(range(1, campaign.step + 1))
    assert {"n", "headline", "text", "image"} <= set(steps[0])
    assert steps[0]["headline"] == "Crash Site begins"
    assert steps[0]["image"] == f"{url}/steps/1.png"
    image = await client.get(f"/t/{token}/steps/3.png")
    assert image.status == 200 and image.content_type == "image/png"
    data = await image.read()
    assert data.startswith(b"\x89PNG")
    # An earlier step's page shows that step, and links to its neighbours.
    early = await (await client.get(f"/t/{token}?step=2")).text()
    assert 'href="?step=1" rel="prev"' in early and 'href="?step=3" rel="next"' in early
    assert f"{token}/steps/2.png" in early
    assert (await client.get(f"/t/{token}?step=9999")).status == 404
    assert (await client.get(f"/t/{token}/steps/9999.png")).status == 404


async def test_a_reset_link_answers_404_and_only_the_owner_or_an_admin_resets(
    client: TestClient[Any, Any],
) -> None:
    service = service_of(client)
    _, old = await link_of(service)
    refused = await service.handle(who("bob"), "/campaign web reset:yes")
    assert refused[0].error and refused[0].ephemeral
    assert "Only the campaign owner or a server admin" in refused[0].content
    assert (await client.get(f"/t/{old}")).status == 200
    reset = await service.handle(who("ann"), "/campaign web reset:yes")
    assert not reset[0].error and "old link no longer works" in reset[0].content
    _, new = await link_of(service, "bob")  # anyone reads the current link
    assert new != old and len(new) >= 32
    for path in (f"/t/{old}", f"/t/{old}/steps.json", f"/t/{old}/steps/1.png"):
        assert (await client.get(path)).status == 404
    assert (await client.get(f"/t/{new}")).status == 200
    by_admin = await service.handle(who("eve", admin=True), "/campaign web reset:yes")
    assert not by_admin[0].error


async def test_no_write_endpoint_and_no_guessing(client: TestClient[Any, Any]) -> None:
    _, token = await link_of(service_of(client))
    for method in ("POST", "PUT", "DELETE", "PATCH"):
        response = await client.request(method, f"/t/{token}")
        assert response.status == 405, method
    assert (await client.get("/t/" + "A" * 32)).status == 404
    assert (await client.get("/t/short")).status == 404


async def test_turn_posts_carry_the_link_only_when_the_web_view_is_on(sqlite: Database) -> None:
    table = await played(sqlite, steps=0)
    off = await public_posts(table)
    assert off and all("/t/" not in r.content for r in off)
    refused = await table.service.handle(who("ann"), "/campaign web")
    assert refused[0].error and "WEB_BASE_URL" in refused[0].content
    table.service.web.set_base("https://sortie.example.org/")
    posts = await public_posts(table)
    assert posts and "https://sortie.example.org/t/" in posts[-1].content
    url, _ = await link_of(table.service)
    assert url in posts[-1].content


async def test_steps_open_from_snapshots(sqlite: Database) -> None:
    """Any step's state is the one the full replay gives, rebuilt from the nearest snapshot."""
    table = await played(sqlite, steps=60)
    service = table.service
    campaign = await service.repo.latest_in_channel(CHANNEL)
    assert campaign is not None and campaign.step > timeline_module.SNAPSHOT_EVERY + 4
    rows = await service.repo.log(campaign.id or 0)
    full = replay(campaign, rows)
    timelines = timeline_module.Timelines()
    line = await timelines.of(campaign, service.repo.log)
    for seq in (1, 2, timeline_module.SNAPSHOT_EVERY + 3, campaign.step - 1, campaign.step):
        assert canonical(line.game, line.state_at(seq)) == canonical(line.game, full.states[seq])


async def test_each_address_is_rate_limited(sqlite: Database) -> None:
    table = await played(sqlite, steps=0)
    table.service.web.set_base("http://example.test")
    _, token = await link_of(table.service)
    view = WebView(table.service, limit=Limit(burst=3, per_seconds=60.0))
    async with TestClient(TestServer(create_web_app(view))) as client:
        codes = [(await client.get(f"/t/{token}/steps.json")).status for _ in range(5)]
    assert codes == [200, 200, 200, 429, 429]


async def test_a_database_made_before_web_links_gains_them(tmp_path: Path) -> None:
    """`web_link` is a table of its own: a database without it gets it at start-up."""
    url = f"sqlite+aiosqlite:///{tmp_path / 'old.db'}"
    old = Database(url)
    await old.init()
    async with old.engine.begin() as conn:
        await conn.exec_driver_sql("DROP TABLE web_link")
    await old.close()
    reopened = Database(url)
    await reopened.init()
    try:
        table = await played(reopened, steps=0)
        table.service.web.set_base("http://example.test")
        _, token = await link_of(table.service)
        found = await table.service.web.links.campaign(token)
        assert found is not None and found.channel_id == CHANNEL
    finally:
        await reopened.close()


async def test_the_missions_of_a_campaign_are_chapters(sqlite: Database) -> None:
    """A Galaxy Defenders campaign goes on after its first mission ends: the timeline has a
    chapter per mission, and an earlier step's page names only the missions so far."""
    table = await played(sqlite, steps=150, scenario="campaign")
    table.service.web.set_base("http://example.test")
    _, token = await link_of(table.service)
    view = WebView(table.service, limit=None)
    async with TestClient(TestServer(create_web_app(view))) as client:
        steps = await (await client.get(f"/t/{token}/steps.json")).json()
        missions = list(dict.fromkeys(s["mission"] for s in steps))
        assert len(missions) >= 2, missions
        assert missions[0].startswith("1. Crash Site") and missions[1].startswith("2. ")
        second = next(s["n"] for s in steps if s["mission"] == missions[1])
        before = await (await client.get(f"/t/{token}", params={"step": str(second - 1)})).text()
        after = await (await client.get(f"/t/{token}", params={"step": str(second)})).text()
    assert missions[0] in before and missions[1] not in before
    assert missions[1] in after


def test_the_base_address_is_checked_and_off_by_default() -> None:
    assert Settings(_env_file=None).web_base_url is None
    assert Settings(_env_file=None, web_base_url=" ").web_base_url is None
    given = Settings(_env_file=None, web_base_url="https://sortie.example.org/")
    assert given.web_base_url == "https://sortie.example.org"
    with pytest.raises(ValidationError):
        Settings(_env_file=None, web_base_url="sortie.example.org")
