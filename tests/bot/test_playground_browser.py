"""The playground page end to end in headless Chromium, driven over the DevTools protocol.

No selenium or playwright: the test starts Chromium itself, reads the DevTools port from
`DevToolsActivePort` and speaks the protocol over a websocket with aiohttp's client. Set
SORTIE_SCREENSHOT=/some/file.png to save a phone-sized screenshot while developing.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import os
import shutil
import subprocess
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from aiohttp import web

from bot.playground.server import create_app
from bot.table import TableService
from engine.registry import get_game

pytestmark = pytest.mark.browser

PHONE = {"width": 375, "height": 667, "deviceScaleFactor": 2, "mobile": True}
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
    "--remote-debugging-port=0",
]
STEP_TIMEOUT = 20.0


def find_chromium() -> str | None:
    if os.access("/usr/bin/chromium", os.X_OK):
        return "/usr/bin/chromium"
    return shutil.which("chromium") or shutil.which("chromium-browser")


class DevTools:
    """A minimal DevTools protocol client for one page target."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws
        self.next_id = 0
        self.pending: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self.reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        async for message in self.ws:
            if message.type != aiohttp.WSMsgType.TEXT:
                break
            data = json.loads(message.data)
            future = self.pending.pop(data.get("id", -1), None)
            if future is not None and not future.done():
                future.set_result(data)
        for future in self.pending.values():
            if not future.done():
                future.set_exception(ConnectionError("DevTools connection closed"))

    async def call(self, method: str, **params: Any) -> dict[str, Any]:
        self.next_id += 1
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.pending[self.next_id] = future
        await self.ws.send_json({"id": self.next_id, "method": method, "params": params})
        answer = await asyncio.wait_for(future, STEP_TIMEOUT)
        if "error" in answer:
            raise AssertionError(f"{method} failed: {answer['error']}")
        result: dict[str, Any] = answer.get("result", {})
        return result

    async def js(self, expression: str) -> Any:
        result = await self.call(
            "Runtime.evaluate", expression=expression, awaitPromise=True, returnByValue=True
        )
        if "exceptionDetails" in result:
            raise AssertionError(f"page script failed: {result['exceptionDetails']}")
        return result["result"].get("value")

    async def wait_for(self, expression: str, what: str, timeout: float = STEP_TIMEOUT) -> Any:
        deadline = asyncio.get_running_loop().time() + timeout
        while True:
            value = await self.js(expression)
            if value:
                return value
            if asyncio.get_running_loop().time() > deadline:
                seen = await self.js(
                    "({feed: document.getElementById('feed').innerText,"
                    " notice: document.getElementById('notice').textContent})"
                )
                raise AssertionError(
                    f"timed out waiting for {what}; page notice: {seen['notice']!r}; "
                    f"feed shows:\n{seen['feed']}"
                )
            await asyncio.sleep(0.1)

    async def close(self) -> None:
        self.reader.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await self.reader
        await self.ws.close()


@contextlib.asynccontextmanager
async def serving(table: TableService) -> AsyncIterator[str]:
    runner = web.AppRunner(create_app(table), access_log=None)
    await runner.setup()
    try:
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        host, port = runner.addresses[0][:2]
        yield f"http://{host}:{port}"
    finally:
        await runner.cleanup()


@contextlib.asynccontextmanager
async def chromium(binary: str, profile: Path) -> AsyncIterator[int]:
    """Start headless Chromium and yield its DevTools port; always kill it afterwards."""
    profile.mkdir()
    log = (profile.parent / "chromium.log").open("wb")
    process = subprocess.Popen(
        [binary, *CHROMIUM_FLAGS, f"--user-data-dir={profile}", "about:blank"],
        stdout=log,
        stderr=subprocess.STDOUT,
        stdin=subprocess.DEVNULL,
    )
    try:
        port_file = profile / "DevToolsActivePort"
        deadline = asyncio.get_running_loop().time() + 30
        while not (port_file.exists() and port_file.read_text().strip()):
            if process.poll() is not None:
                raise AssertionError(f"chromium exited early with code {process.returncode}")
            if asyncio.get_running_loop().time() > deadline:
                raise AssertionError("chromium did not open a DevTools port within 30 s")
            await asyncio.sleep(0.1)
        yield int(port_file.read_text().split()[0])
    finally:
        process.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=10)
        log.close()


async def open_page(session: aiohttp.ClientSession, port: int) -> DevTools:
    deadline = asyncio.get_running_loop().time() + STEP_TIMEOUT
    while True:
        async with session.get(f"http://127.0.0.1:{port}/json/list") as response:
            targets = await response.json()
        pages = [t for t in targets if t.get("type") == "page"]
        if pages:
            break
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError("chromium shows no page target")
        await asyncio.sleep(0.1)
    ws = await session.ws_connect(pages[0]["webSocketDebuggerUrl"], max_msg_size=64 * 2**20)
    return DevTools(ws)


async def type_into(page: DevTools, selector: str, text: str) -> None:
    """Fill an input the way typing does: focus, value, caret at the end, input event."""
    await page.js(
        f"""(() => {{
            const input = document.querySelector({json.dumps(selector)});
            input.focus();
            input.value = {json.dumps(text)};
            input.setSelectionRange(input.value.length, input.value.length);
            input.dispatchEvent(new Event("input", {{bubbles: true}}));
            input.dispatchEvent(new Event("change", {{bubbles: true}}));
        }})()"""
    )


async def send(page: DevTools, text: str) -> None:
    await type_into(page, "#command", text)
    await page.js("document.getElementById('send').click()")
    await page.wait_for("document.getElementById('command').value === ''", f"{text} to be sent")


async def open_feed(page: DevTools, base: str, metrics: dict[str, Any]) -> None:
    """The page on a phone of these metrics, as ann in #ops."""
    await page.call("Emulation.setDeviceMetricsOverride", **metrics)
    await page.call("Page.enable")
    await page.call("Page.navigate", url=base + "/")
    await page.wait_for(
        "document.readyState === 'complete' && !!document.getElementById('command')",
        "the page to load",
    )
    await type_into(page, "#user", "ann")
    await type_into(page, "#channel", "ops")


@contextlib.asynccontextmanager
async def browsing(
    table: TableService, tmp_path: Path
) -> AsyncIterator[tuple[str, int, aiohttp.ClientSession]]:
    """The playground served, Chromium started, and a client session: (base, port, session)."""
    binary = find_chromium()
    if binary is None:
        pytest.skip("Chromium is not installed (no /usr/bin/chromium or chromium on PATH)")
    async with (
        serving(table) as base,
        chromium(binary, tmp_path / "profile") as port,
        aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=STEP_TIMEOUT)) as session,
    ):
        yield base, port, session


def feed_has(text: str) -> str:
    return f"document.getElementById('feed').innerText.includes({json.dumps(text)})"


async def test_the_page_plays_a_turn_on_a_phone(table: TableService, tmp_path: Path) -> None:
    async with browsing(table, tmp_path) as (base, port, session):
        page = await open_page(session, port)
        try:
            await open_feed(page, base, PHONE)
            await page.wait_for("localStorage.getItem('sortie.user') === 'ann'", "the name")

            # Autocomplete: click a suggestion, then accept one with Tab.
            await type_into(page, "#command", "/campaign create game:")
            await page.wait_for(
                "[...document.querySelectorAll('#suggestions li .value')]"
                ".some(v => v.textContent === 'dash')",
                "the game suggestions",
            )
            await page.js(
                """(() => {
                    const item = [...document.querySelectorAll('#suggestions li')]
                        .find(li => li.querySelector('.value').textContent === 'dash');
                    item.dispatchEvent(new MouseEvent('mousedown', {bubbles: true}));
                })()"""
            )
            assert await page.js("document.getElementById('command').value") == (
                "/campaign create game:dash "
            )
            await type_into(page, "#command", "/campaign create game:dash scenario:sp")
            await page.wait_for(
                "document.querySelectorAll('#suggestions li').length === 1", "the scenario"
            )
            await page.js(
                """document.getElementById('command').dispatchEvent(
                    new KeyboardEvent('keydown', {key: 'Tab', bubbles: true, cancelable: true}))"""
            )
            assert await page.js("document.getElementById('command').value") == (
                "/campaign create game:dash scenario:sprint "
            )
            await page.js("document.getElementById('send').click()")
            await page.wait_for(feed_has("is set up here"), "the campaign to be created")

            await send(page, "/campaign join role:red")
            await page.wait_for(feed_has("takes the seat Red runner"), "ann to sit")
            joined = await session.post(
                base + "/api/command",
                json={"channel": "ops", "user": "bob", "text": "/campaign join role:blue"},
            )
            assert (await joined.json())["ok"]
            await send(page, "/campaign begin")
            await page.wait_for(feed_has("begins"), "the mission to begin")
            await page.wait_for(
                "[...document.querySelectorAll('.msg .images img')]"
                ".some(img => img.complete && img.naturalWidth > 0)",
                "the board image to load",
            )
            assert await page.js(
                "document.querySelector('.msg.mentioned .mention.me').textContent"
            ) == ("@ann")

            # A button under the bot's message runs its command.
            images_before = await page.js("document.querySelectorAll('.msg .images img').length")
            await page.js(
                """[...document.querySelectorAll('.buttons button')]
                    .filter(b => b.dataset.command === '/board').pop().click()"""
            )
            await page.wait_for(
                f"document.querySelectorAll('.msg .images img').length > {images_before}",
                "the Board button's image",
            )

            # The picker: "Pick an action" opens a private panel of menus; a choice narrows
            # it down (the panel is replaced), and a complete action is played.
            await page.js(
                """[...document.querySelectorAll('.buttons button')]
                    .filter(b => b.dataset.command === '/pick').pop().click()"""
            )
            for prefix in ("/pick kind:move", "/move"):
                await page.wait_for(
                    "[...document.querySelectorAll('.msg.ephemeral .menus option')]"
                    f".some(o => o.value.startsWith({json.dumps(prefix)}))",
                    f"a picker entry {prefix}",
                )
                await page.js(
                    f"""(() => {{
                        const select = [...document.querySelectorAll('.menus select')].pop();
                        const option = [...select.options]
                            .find(o => o.value.startsWith({json.dumps(prefix)}));
                        select.value = option.value;
                        select.dispatchEvent(new Event('change', {{bubbles: true}}));
                    }})()"""
                )
            await page.wait_for(feed_has("red runs to"), "the picked move to be played")
            # The next panel follows the move (the box is busy until it has arrived).
            await page.wait_for(
                "!document.getElementById('send').disabled", "the picker's next panel"
            )

            # A private answer is marked as such.
            await send(page, "/campaign status")
            await page.wait_for(
                "[...document.querySelectorAll('.msg.ephemeral .only-you')].length > 0",
                "an ephemeral message",
            )
            await page.wait_for(
                "[...document.querySelectorAll('.msg .images img')]"
                ".every(img => img.complete && img.naturalWidth > 0)",
                "all images to load",
            )

            layout = await page.js(
                """({
                    width: window.innerWidth,
                    scroll: document.documentElement.scrollWidth,
                    images: [...document.querySelectorAll('.msg .images img')]
                        .map(img => img.getBoundingClientRect().right),
                })"""
            )
            assert layout["width"] == 375
            assert layout["scroll"] <= 375, layout
            assert layout["images"] and max(layout["images"]) <= 375, layout

            shot_path = os.environ.get("SORTIE_SCREENSHOT")
            if shot_path:
                shot = await page.call("Page.captureScreenshot", format="png")
                Path(shot_path).write_bytes(base64.b64decode(shot["data"]))
        finally:
            await page.close()


PHONE_390 = {"width": 390, "height": 844, "deviceScaleFactor": 3, "mobile": True}


async def test_a_turn_post_on_a_390_px_phone(table: TableService, tmp_path: Path) -> None:
    """A real board on a 390x844 phone: the picture fills the width of the screen (scaled
    down to it, never wider), and the turn post is edited in place as its player acts."""
    async with browsing(table, tmp_path) as (base, port, session):

        async def api(user: str, text: str) -> dict[str, Any]:
            body = {"channel": "ops", "user": user, "text": text}
            async with session.post(base + "/api/command", json=body) as response:
                answer: dict[str, Any] = await response.json()
            assert answer["ok"], (text, answer)
            return answer

        await api("ann", "/campaign create game:galaxy-defenders scenario:m1")
        await api("ann", "/campaign join role:marine")
        await api("bob", "/campaign join role:sniper")
        await api("ann", "/campaign begin")
        page = await open_page(session, port)
        try:
            await open_feed(page, base, PHONE_390)
            await page.wait_for("localStorage.getItem('sortie.channel') === 'ops'", "the channel")
            await page.wait_for(feed_has("Waiting on"), "the opening post")
            game = get_game("galaxy-defenders")
            # Answer the opening questions (the vote, a teleport's hex) and make the agent's
            # first move through the API: that move opens his own turn post (the post before
            # it was the last voter's). His next move, typed on the page, edits it in place.
            moved = 0
            for _ in range(20):
                campaign = await table.repo.live_in_channel("ops")
                assert campaign is not None and campaign.state_json
                state = game.load(json.loads(campaign.state_json))
                seat = game.waiting_on(state).seats[0]
                user = "ann" if seat == "marine" else "bob"
                legal = game.legal_actions(state, seat)
                move = next((a for a in legal if a.verb == "move"), None)
                if move is not None and moved:
                    break
                await api(user, (move or legal[0]).command())
                moved += move is not None
            assert move is not None and moved
            await type_into(page, "#user", user)
            await page.wait_for(f"localStorage.getItem('sortie.user') === '{user}'", "the user")
            await page.wait_for(feed_has("Waiting on"), "the opening post")

            # The move must edit the open post, not add one: counted on the server's feed (the
            # page's own count raced its polling of the answers sent above).
            async def posts() -> int:
                async with session.get(base + "/api/channels/ops/messages") as response:
                    listed: dict[str, Any] = await response.json()
                return sum(1 for m in listed["messages"] if m["author"] == "Sortie")

            before = await posts()
            await send(page, move.command())
            await page.wait_for(feed_has("(edited)"), "the turn post to be edited in place")
            assert await posts() == before
            await page.wait_for(
                "[...document.querySelectorAll('.msg .images img')]"
                ".every(img => img.complete && img.naturalWidth > 0)",
                "the images to load",
            )
            layout = await page.js(
                """({
                    width: window.innerWidth,
                    scroll: document.documentElement.scrollWidth,
                    images: [...document.querySelectorAll('.msg .images img')].map(img => {
                        const box = img.getBoundingClientRect();
                        return {left: box.left, width: box.width, natural: img.naturalWidth};
                    }),
                })"""
            )
            assert layout["width"] == 390 and layout["scroll"] <= 390, layout
            for image in layout["images"]:
                # Scaled to the viewport: nearly the screen's width, never wider, and smaller
                # than the picture itself (585 px), so the phone shrinks it, never crops it.
                assert 0.9 * 390 <= image["width"] <= 390 - image["left"], layout
                assert image["natural"] == 585 and image["width"] < image["natural"], layout
            shot = await page.call("Page.captureScreenshot", format="png")
            shot_path = os.environ.get("SORTIE_SCREENSHOT_390") or str(tmp_path / "phone.png")
            Path(shot_path).write_bytes(base64.b64decode(shot["data"]))
        finally:
            await page.close()


async def test_a_link_opens_its_channel_as_its_user(table: TableService, tmp_path: Path) -> None:
    """`/?channel=war-room&user=bob` (issue #32): the page opens #war-room as bob."""
    async with browsing(table, tmp_path) as (base, port, session):
        page = await open_page(session, port)
        try:
            await page.call("Emulation.setDeviceMetricsOverride", **PHONE)
            await page.call("Page.enable")
            await page.call("Page.navigate", url=base + "/?channel=war-room&user=bob")
            await page.wait_for(
                # null-safe: the check may run while the new page is still being built
                "document.getElementById('user')?.value === 'bob'"
                " && document.getElementById('channel')?.value === 'war-room'"
                " && document.getElementById('channel-title')?.textContent === '# war-room'",
                "the linked channel and user",
            )
        finally:
            await page.close()
