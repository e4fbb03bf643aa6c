"""The campaign web page in headless Chromium on a phone (issue #34): a Galaxy Defenders, a
Forlorn: Hope and a Reichbusters campaign open at 390x844, step through the timeline (links,
the slider's preview) and zoom the board. Set SORTIE_SCREENSHOT_DIR=/some/dir to keep the
screenshots."""

from __future__ import annotations

import asyncio
import base64
import os
import re
from pathlib import Path

import aiohttp
import pytest
from aiohttp import web
from hidden_info import Table, fast_renderer, self_play, who
from test_playground_browser import STEP_TIMEOUT, DevTools, chromium, find_chromium, open_page

from bot.clock import ManualClock
from bot.playground.server import create_app
from bot.storage.db import Database
from bot.table import TableService

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844, "deviceScaleFactor": 2, "mobile": True}
GAMES = [
    ("galaxy-defenders", "m1", {"marine": "ann", "sniper": "bob"}),
    ("forlorn-hope", "op-01", {"marines": "ann", "xeno": "bob"}),
    ("reichbusters", "lab-rats", {"sarge": "ann", "hans": "bob"}),
]


async def campaign(db: Database, game: str, scenario: str, players: dict[str, str]) -> Table:
    service = TableService(
        db, renderer=fast_renderer, new_seed=lambda: 77, clock=ManualClock(), limits=None
    )
    table = Table(service, game, 77)
    owner = next(iter(players.values()))
    await table.say(owner, f"/campaign create game:{game} scenario:{scenario}")
    for role, user in players.items():
        await table.say(user, f"/campaign join role:{role}")
    await table.say(owner, "/campaign begin")
    await self_play(table, players, policy_seed=3, max_steps=30)
    return table


async def screenshot(page: DevTools, name: str, tmp_path: Path) -> Path:
    shot = await page.call("Page.captureScreenshot", format="png")
    folder = Path(os.environ.get("SORTIE_SCREENSHOT_DIR") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.png"
    path.write_bytes(base64.b64decode(shot["data"]))
    return path


async def load(page: DevTools, url: str) -> None:
    await page.call("Page.navigate", url=url)
    await wait(
        page,
        "document.readyState === 'complete' && !!document.getElementById('boardimg')"
        " && document.getElementById('boardimg').complete"
        " && document.getElementById('boardimg').naturalWidth > 0",
        f"{url} and its board to load",
    )


async def wait(page: DevTools, expression: str, what: str) -> None:
    """Wait until the expression holds; on a timeout, say what the page shows."""
    deadline = asyncio.get_running_loop().time() + STEP_TIMEOUT
    while not await page.js(expression):
        if asyncio.get_running_loop().time() > deadline:
            seen = await page.js(
                "JSON.stringify({url: location.href, title: document.title,"
                " img: document.getElementById('boardimg') &&"
                " [document.getElementById('boardimg').src,"
                " document.getElementById('boardimg').complete],"
                f" headline: {headline()}}})"
            )
            raise AssertionError(f"timed out waiting for {what}; the page shows {seen}")
        await asyncio.sleep(0.1)


def headline() -> str:
    return "(document.getElementById('headline') || {textContent: ''}).textContent"


@pytest.mark.parametrize(("game", "scenario", "players"), GAMES, ids=[g[0] for g in GAMES])
async def test_a_campaign_page_on_a_phone(
    tmp_path: Path, game: str, scenario: str, players: dict[str, str]
) -> None:
    binary = find_chromium()
    if binary is None:
        pytest.skip("Chromium is not installed (no /usr/bin/chromium or chromium on PATH)")
    db = Database(f"sqlite+aiosqlite:///{tmp_path / 'web.db'}")
    await db.init()
    try:
        table = await campaign(db, game, scenario, players)
        runner = web.AppRunner(create_app(table.service), access_log=None)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        host, port_number = runner.addresses[0][:2]
        table.service.web.set_base(f"http://{host}:{port_number}")
        asked = await table.service.handle(who("ann"), "/campaign web")
        link = re.search(r"http://\S+/t/[A-Za-z0-9_-]+", asked[0].content)
        assert link, asked[0].content
        async with (
            chromium(binary, tmp_path / "profile") as port,
            aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=STEP_TIMEOUT)) as session,
        ):
            page = await open_page(session, port)
            try:
                await page.call("Emulation.setDeviceMetricsOverride", **PHONE)
                await page.call("Page.enable")
                await load(page, link.group(0))
                last = await page.js("Number(document.getElementById('step').max)")
                assert last > 10
                assert (await page.js(headline())).startswith(f"Step {last}:")
                # The page fits the phone's width: only the board's own box scrolls.
                assert await page.js("document.documentElement.scrollWidth") <= PHONE["width"]
                await screenshot(page, f"{game}-latest", tmp_path)
                await page.js("document.querySelector('table.roster').scrollIntoView()")
                await screenshot(page, f"{game}-roster-and-log", tmp_path)

                # Previous: the step before, its board and its words.
                await page.js("document.querySelector('nav.steps a[rel=prev]').click()")
                await wait(
                    page, f"{headline()}.startsWith('Step {last - 1}:')", "the previous step"
                )
                await load(page, await page.js("location.href"))
                src = await page.js("document.getElementById('boardimg').src")
                assert src.endswith(f"/steps/{last - 1}.png")

                # The slider previews any step as it moves (here the mission's first).
                await wait(page, "document.body.dataset.ready === 'yes'", "the steps to load")
                await page.js(
                    """(() => { const s = document.getElementById('step'); s.value = s.min;
                    s.dispatchEvent(new Event('input', {bubbles: true})); })()"""
                )
                await wait(
                    page,
                    "document.getElementById('boardimg').src.endsWith('/steps/1.png')"
                    " && document.getElementById('boardimg').complete",
                    "the slider's preview of step 1",
                )
                assert (await page.js(headline())).startswith("Step 1:")
                # What only the loaded step's page knows is dimmed and said to be so.
                assert await page.js("document.body.classList.contains('previewing')")
                assert not await page.js("document.querySelector('.preview-note').hidden")
                assert "begins" in await page.js(headline())
                await screenshot(page, f"{game}-step-1", tmp_path)

                # Zoom: the board grows past the screen inside its box, which then pans.
                await load(page, link.group(0) + "?step=5")
                before = await page.js("document.getElementById('boardimg').clientWidth")
                for _ in range(2):
                    await page.js("document.querySelector('button[data-zoom=\"1\"]').click()")
                after = await page.js("document.getElementById('boardimg').clientWidth")
                assert after >= 1.9 * before
                await page.js(
                    "const b = document.getElementById('board');"
                    " b.scrollLeft = b.scrollWidth / 3; b.scrollTop = b.scrollHeight / 3;"
                )
                assert await page.js("document.getElementById('board').scrollLeft") > 0
                assert await page.js("document.documentElement.scrollWidth") <= PHONE["width"]
                await page.js("document.getElementById('board').scrollIntoView()")
                await screenshot(page, f"{game}-zoomed", tmp_path)
            finally:
                await page.close()
        await runner.cleanup()
    finally:
        await db.close()
