"""The web view's routes: a read-only page per campaign, its steps as JSON and step images.

    GET /t/{token}                 the page (HTML; `?step=n` for an earlier step)
    GET /t/{token}/steps.json      every step, oldest first: n, headline, text, image
    GET /t/{token}/steps/{n}.png   the board after step n

There is no write endpoint. A wrong token and a replaced one answer the same 404. Each address
has a token bucket (`WEB_LIMIT`); rendered images are kept in a bounded cache by campaign,
step and view, so a step drawn once is served from memory. The routes join the playground's
app, or `serve` runs them on their own next to the Discord client.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from aiohttp import web

from bot.clock import SystemClock
from bot.disclosure import public_events
from bot.guide import progress
from bot.pictures import wide_board_image
from bot.ratelimit import Buckets, Limit
from bot.storage.models import Campaign
from bot.table import TableService
from bot.web.pages import PageData, page
from bot.web.timeline import Timeline, Timelines
from engine.core.events import parse_events

log = logging.getLogger("sortie.web")

STATIC_DIR = Path(__file__).parent / "static"
TOKEN_RE = r"[A-Za-z0-9_-]{16,64}"
STEP_RE = re.compile(r"[0-9]{1,9}")
WEB_LIMIT = Limit(burst=60, per_seconds=30.0)  # requests per address
IMAGE_CACHE_BYTES = 64 * 2**20
IMAGE_VIEW = "wide"  # the one view the page draws (the cache key names it)
NOT_FOUND = "No campaign page here: the link is wrong, or its owner has replaced it."
CSP = (
    "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
    "connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
PRIVATE = {"Referrer-Policy": "no-referrer", "X-Robots-Tag": "noindex, nofollow"}

ImageKey = tuple[int, int, str]  # campaign id, step, view


class ImageCache:
    """Rendered step images, least recently used first out, bounded by their total size."""

    def __init__(self, max_bytes: int = IMAGE_CACHE_BYTES) -> None:
        self.max_bytes = max_bytes
        self._kept: OrderedDict[ImageKey, bytes] = OrderedDict()
        self._size = 0
        self._drawing: dict[ImageKey, asyncio.Task[bytes]] = {}

    def get(self, key: ImageKey) -> bytes | None:
        data = self._kept.get(key)
        if data is not None:
            self._kept.move_to_end(key)
        return data

    def put(self, key: ImageKey, data: bytes) -> None:
        if key in self._kept:
            return
        self._kept[key] = data
        self._size += len(data)
        while self._size > self.max_bytes and self._kept:
            _, gone = self._kept.popitem(last=False)
            self._size -= len(gone)

    async def get_or_draw(self, key: ImageKey, draw: Callable[[], Awaitable[bytes]]) -> bytes:
        """The cached image, else one drawing shared by every request asking meanwhile."""
        hit = self.get(key)
        if hit is not None:
            return hit
        task = self._drawing.get(key)
        if task is None:
            task = asyncio.ensure_future(draw())
            self._drawing[key] = task
            try:
                data = await task
            finally:
                self._drawing.pop(key, None)
            self.put(key, data)
            return data
        return await task


class WebView:
    """The campaigns' public pages over the table service's storage."""

    def __init__(
        self,
        service: TableService,
        limit: Limit | None = WEB_LIMIT,
        trust_proxy: bool = False,
        image_cache_bytes: int = IMAGE_CACHE_BYTES,
    ) -> None:
        self.service = service
        self.timelines = Timelines()
        self.images = ImageCache(image_cache_bytes)
        self.buckets = Buckets(limit, SystemClock()) if limit else None
        self.trust_proxy = trust_proxy

    # ------------------------------------------------------------------ lookups

    def check_rate(self, request: web.Request) -> None:
        if self.buckets is None:
            return
        wait = self.buckets.take(self.address(request))
        if wait:
            raise web.HTTPTooManyRequests(
                text="Too many requests from your address: try again in a moment.",
                headers={"Retry-After": str(max(1, round(wait)))},
            )

    def address(self, request: web.Request) -> str:
        """Who asks: behind the operator's reverse proxy (`WEB_TRUST_PROXY`), the address the
        proxy saw (the last X-Forwarded-For entry, which the proxy itself appends)."""
        forwarded = request.headers.get("X-Forwarded-For", "")
        if self.trust_proxy and forwarded:
            return forwarded.split(",")[-1].strip()[:64]
        return request.remote or "?"

    async def campaign(self, token: str) -> Campaign:
        campaign = await self.service.web.links.campaign(token)
        if campaign is None:
            raise web.HTTPNotFound(text=NOT_FOUND)
        return campaign

    async def timeline(self, campaign: Campaign) -> Timeline:
        return await self.timelines.of(campaign, self.service.repo.log)

    def step_of(self, timeline: Timeline, raw: str | None) -> int | None:
        """The step asked for (`None`: the latest); 404 for a step the log does not have."""
        if raw is None or raw == "":
            return timeline.last_seq or None
        if not STEP_RE.fullmatch(raw) or not timeline.has(int(raw)):
            raise web.HTTPNotFound(text="This campaign has no such step.")
        return int(raw)

    def image_url(self, request: web.Request, token: str, n: int) -> str:
        base = self.service.web.base or str(request.url.origin())
        return f"{base}/t/{token}/steps/{n}.png"

    # ------------------------------------------------------------------ content

    async def page_data(self, campaign: Campaign, timeline: Timeline, n: int | None) -> PageData:
        game = timeline.game
        seats = await self.service.repo.seats(campaign.id or 0)
        holders = {s.role: s.user_name for s in seats if s.user_name}
        status = f"campaign #{campaign.id}, {campaign.status}"
        if n is None:
            return PageData(game.title, status, [], [], None, None, [], holders)

        def read() -> tuple[Any, list[str]]:
            view, state = timeline.facts_at(n)
            return view, progress(game.key, state) if state is not None else []

        view, objectives = await self.timelines.run(read)
        return PageData(
            game.title,
            status,
            list(timeline.steps),
            list(timeline.chapters),
            timeline.step(n),
            view,
            objectives,
            holders,
        )

    async def image(self, campaign: Campaign, timeline: Timeline, n: int) -> bytes:
        async def draw() -> bytes:
            view = await self.timelines.run(timeline.view_at, n)
            if view is None:
                raise web.HTTPNotFound(text="Nothing is on the board before the mission begins.")
            row = timeline.row(n)
            events = public_events(parse_events(json.loads(row.events_json)))
            return (await wide_board_image(view, events)).data

        return await self.images.get_or_draw((campaign.id or 0, n, IMAGE_VIEW), draw)


WEB = web.AppKey("web_view", WebView)


def _headers(response: web.StreamResponse, cache: str) -> web.StreamResponse:
    response.headers["Cache-Control"] = cache
    response.headers.update(PRIVATE)
    response.headers.setdefault("Content-Security-Policy", CSP)
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    return response


async def get_page(request: web.Request) -> web.StreamResponse:
    view = request.app[WEB]
    view.check_rate(request)
    token = request.match_info["token"]
    campaign = await view.campaign(token)
    timeline = await view.timeline(campaign)
    n = view.step_of(timeline, request.query.get("step"))
    data = await view.page_data(campaign, timeline, n)
    body = page(data, token)
    return _headers(web.Response(text=body, content_type="text/html"), "private, no-cache")


async def get_steps(request: web.Request) -> web.StreamResponse:
    view = request.app[WEB]
    view.check_rate(request)
    token = request.match_info["token"]
    timeline = await view.timeline(await view.campaign(token))
    chapters = [c.title for c in timeline.chapters]
    steps = [
        {
            "n": step.n,
            "headline": step.headline,
            "text": " ".join(step.lines),
            "image": view.image_url(request, token, step.n),
            "mission": chapters[step.chapter] if chapters else "",
        }
        for step in timeline.steps
    ]
    return _headers(web.json_response(steps), "private, no-cache")


async def get_step_image(request: web.Request) -> web.StreamResponse:
    view = request.app[WEB]
    view.check_rate(request)
    campaign = await view.campaign(request.match_info["token"])
    timeline = await view.timeline(campaign)
    n = view.step_of(timeline, request.match_info["n"])
    assert n is not None
    data = await view.image(campaign, timeline, n)
    response = web.Response(body=data, content_type="image/png")
    # A step's board never changes: the browser keeps it (privately: the link is a secret).
    return _headers(response, "private, max-age=86400, immutable")


def add_routes(app: web.Application, view: WebView) -> None:
    """The web view's routes on an app (the playground's, or `create_app`'s)."""
    app[WEB] = view
    app.router.add_get(f"/t/{{token:{TOKEN_RE}}}", get_page)
    app.router.add_get(f"/t/{{token:{TOKEN_RE}}}/steps.json", get_steps)
    app.router.add_get(f"/t/{{token:{TOKEN_RE}}}/steps/{{n:[0-9]{{1,9}}}}.png", get_step_image)
    app.router.add_static("/web-static/", STATIC_DIR, follow_symlinks=False)


@web.middleware
async def headers(request: web.Request, handler: Any) -> web.StreamResponse:
    response: web.StreamResponse = await handler(request)
    response.headers.setdefault("Content-Security-Policy", CSP)
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    return response


def create_app(view: WebView) -> web.Application:
    """The web view alone (beside the Discord client, behind the operator's reverse proxy)."""
    app = web.Application(middlewares=[headers], client_max_size=1024)
    add_routes(app, view)
    return app


async def serve(view: WebView, host: str, port: int) -> None:
    """Serve the web view until cancelled."""
    runner = web.AppRunner(create_app(view), access_log=None)
    await runner.setup()
    try:
        await web.TCPSite(runner, host, port).start()
        log.info("web view listening on http://%s:%s", host, port)
        await asyncio.Event().wait()
    finally:
        await runner.cleanup()
