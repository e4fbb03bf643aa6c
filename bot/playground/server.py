"""The playground: a small web app standing in for one Discord server.

Users are plain names and channels are plain names; the page (static/index.html) and the
JSON API below let several local players type the same slash commands they would use on
Discord and watch the replies and board images arrive. The JSON API is a public contract
(listed in the design notes): end-to-end tests and benchmarks drive it.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
from collections.abc import Awaitable, Callable
from dataclasses import replace
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, Protocol

from aiohttp import web

from bot.commands import MAX_COMMAND_LENGTH
from bot.delivery import mirror_copies
from bot.logs import new_request_id
from bot.playground.feed import BOT_NAME, MAX_CHANNELS, Playground, TooManyChannels
from bot.playground.suggest import suggest
from bot.replies import Reply, direct
from bot.scheduler import Scheduler
from bot.table import Caller, TableService
from bot.web.server import WebView, add_routes
from renders.media import media_type

log = logging.getLogger(__name__)

GUILD_ID = "playground"
USER_PREFIX = "pg:"
MAX_TEXT = MAX_COMMAND_LENGTH
MAX_NAME = 32
MAX_BODY = 16 * 1024
NAME_RE = re.compile(r"[A-Za-z0-9_-]{1,32}")
AFTER_RE = re.compile(r"[0-9]{1,18}")
STATIC_DIR = Path(__file__).parent / "static"

SERVICE = web.AppKey("service", TableService)
PLAYGROUND = web.AppKey("playground", Playground)
MAX_CLOCK_STEP_HOURS = 24 * 14


class AdjustableClock(Protocol):
    """A clock that development tools may move forward (see bot/clock.py)."""

    def now(self) -> datetime: ...

    def advance(self, delta: timedelta) -> datetime: ...


DEV_CLOCK = web.AppKey("dev_clock", bool)
CLOCK = web.AppKey("clock", object)
LOCKS = web.AppKey("locks", dict[str, asyncio.Lock])
SCHEDULER = web.AppKey("scheduler", Scheduler)

# The page loads nothing from the network but its own files and images.
CSP = (
    "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
    "connect-src 'self'; base-uri 'none'; frame-ancestors 'none'"
)

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


class BadField(Exception):
    """A request field that fails validation; answered with a 400."""


def error_response(message: str, status: int = 400) -> web.Response:
    return web.json_response({"ok": False, "error": message}, status=status)


# ---------------------------------------------------------------------- validation


def check_name(what: str, value: Any) -> str:
    if value is None:
        raise BadField(f"{what} is missing.")
    if not isinstance(value, str):
        raise BadField(f"{what} must be a string.")
    if not value:
        raise BadField(f"{what} is empty.")
    if len(value) > MAX_NAME:
        raise BadField(f"{what} is too long (at most {MAX_NAME} characters).")
    if not NAME_RE.fullmatch(value):
        raise BadField(f"{what} may only use letters, digits, '_' and '-'.")
    return value


def check_user(value: Any) -> str:
    name = check_name("user", value)
    if name.lower() == BOT_NAME.lower():
        raise BadField(f"user '{name}' is reserved for the bot.")
    return name


def check_text(value: Any) -> str:
    if value is None:
        raise BadField("text is missing.")
    if not isinstance(value, str):
        raise BadField("text must be a string.")
    if not value.strip():
        raise BadField("text is empty.")
    if len(value) > MAX_TEXT:
        raise BadField(f"text is too long (at most {MAX_TEXT} characters).")
    return value


MAX_DEPTH = 8  # the API's bodies are flat objects
MAX_NUMBER_DIGITS = 20


def nesting_depth(text: str) -> int:
    """How deeply arrays and objects nest in JSON text (brackets inside strings ignored)."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


def _bounded_int(digits: str) -> int:
    if len(digits.lstrip("-")) > MAX_NUMBER_DIGITS:
        raise BadField(f"Numbers in the body have at most {MAX_NUMBER_DIGITS} digits.")
    return int(digits)


async def read_json(request: web.Request) -> Any:
    """The request's JSON body, or BadField (a 400) for anything the API never takes: not
    JSON, nested deeper than MAX_DEPTH, or numbers too long to be meant (the body's size is
    capped by the app's client_max_size, answered with a 413)."""
    try:
        text = await request.text()
    except UnicodeDecodeError:
        raise BadField("The body must be JSON (UTF-8).") from None
    if nesting_depth(text) > MAX_DEPTH:
        raise BadField(f"The body nests deeper than {MAX_DEPTH} levels.")
    try:
        return json.loads(text, parse_int=_bounded_int)
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise BadField("The body must be JSON.") from None
    except (RecursionError, ValueError, OverflowError):
        raise BadField("The body must be JSON the API can read.") from None


def caller_for(user: str, channel: str) -> Caller:
    return Caller(user_id=USER_PREFIX + user, user_name=user, channel_id=channel, guild_id=GUILD_ID)


# ---------------------------------------------------------------------- middleware


@web.middleware
async def guard(request: web.Request, handler: Handler) -> web.StreamResponse:
    """JSON errors for the API, no caching of live data, and a strict content policy."""
    is_api = request.path.startswith("/api/")
    new_request_id()
    try:
        response = await handler(request)
    except BadField as bad:
        response = error_response(str(bad))
    except web.HTTPException as http:
        if not is_api:
            raise
        response = error_response(http.reason or "request failed", http.status)
    except ConnectionResetError:
        # The client went away mid-request (closed tab, half-open connection): not our
        # fault, so one line and no traceback. The answer below is never read.
        log.info("client disconnected: %s %s", request.method, request.path)
        response = error_response("The connection was closed.", 400)
    except Exception:
        log.exception("playground request failed: %s %s", request.method, request.path)
        if not is_api:
            raise
        response = error_response("Something went wrong on the server.", 500)
    if is_api:
        response.headers["Cache-Control"] = "no-store"
    response.headers.setdefault("Content-Security-Policy", CSP)
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    return response


# ---------------------------------------------------------------------- handlers


def channel_lock(app: web.Application, channel: str) -> asyncio.Lock:
    locks = app[LOCKS]
    if channel not in locks and len(locks) >= 2 * MAX_CHANNELS:
        for name in [n for n, lock in locks.items() if not lock.locked()]:
            del locks[name]
    return locks.setdefault(channel, asyncio.Lock())


async def post_command(request: web.Request) -> web.Response:
    """A typed command: `{"channel", "user", "text", "id"?}`."""
    body = await read_json(request)
    if not isinstance(body, dict):
        raise BadField('The body must be a JSON object: {"channel", "user", "text"}.')
    channel = check_name("channel", body.get("channel"))
    user = check_user(body.get("user"))
    text = check_text(body.get("text"))
    return await run_in_channel(request, channel, user, text, client_id(user, body))


async def post_component(request: web.Request) -> web.Response:
    """A button pressed or a menu entry chosen, as a Discord component interaction:
    `{"channel", "user", "command", "version"?, "id"?}`. The version the control was posted
    with refuses it once the table has moved on; the id makes it act once."""
    body = await read_json(request)
    if not isinstance(body, dict):
        raise BadField('The body must be a JSON object: {"channel", "user", "command"}.')
    channel = check_name("channel", body.get("channel"))
    user = check_user(body.get("user"))
    command = check_text(body.get("command"))
    raw_version = body.get("version")
    if raw_version is not None and (
        isinstance(raw_version, bool) or not isinstance(raw_version, int) or raw_version < 0
    ):
        raise BadField("version must be the whole number the control was posted with.")
    once = client_id(user, body)
    return await run_in_channel(request, channel, user, command, once, raw_version)


def client_id(user: str, body: dict[str, Any]) -> str | None:
    """A client-supplied id makes the command act once: a retry gets the first answer again
    (per user, so one user's ids never answer another's)."""
    raw_id = body.get("id")
    return f"playground:{user}:{check_name('id', raw_id)}" if raw_id is not None else None


async def run_in_channel(
    request: web.Request,
    channel: str,
    user: str,
    text: str,
    once: str | None,
    version: int | None = None,
) -> web.Response:
    service, playground = request.app[SERVICE], request.app[PLAYGROUND]
    try:
        playground.check_room_for(channel)
    except TooManyChannels as full:
        raise BadField(str(full)) from None
    # One command at a time per channel keeps each invocation next to its replies in the feed;
    # the service serialises a channel's commands anyway.
    lock = channel_lock(request.app, channel)
    async with lock:
        replies = await service.handle(caller_for(user, channel), text, version, request=once)
        replies, letters = direct(replies)
        for letter in letters:
            send_direct(request.app, letter)
        current = None
        if any((r.buttons or r.menus) and r.version is None for r in replies):
            # Controls without a board (a confirmation) take the campaign's version.
            current = await service.campaign_version(channel)
        shown = [playground.store_reply(reply, current) for reply in replies]
        if any(reply.repeat for reply in replies):
            ok = not any(reply.error for reply in replies)
            return web.json_response({"ok": ok, "repeat": True, "replies": shown})
        playground.record(channel, user, text.strip(), shown)
    for mirror, copies in mirror_copies(replies).items():
        deliver(request.app, mirror, copies)
    ok = not any(reply.error for reply in replies)
    return web.json_response({"ok": ok, "replies": shown})


async def get_messages(request: web.Request) -> web.Response:
    channel_name = check_name("channel", request.match_info.get("channel"))
    raw_user = request.query.get("user")
    user = check_user(raw_user) if raw_user is not None else None
    raw_after = request.query.get("after", "0") or "0"
    if not AFTER_RE.fullmatch(raw_after):
        raise BadField("after must be a message id (a whole number, 0 or more).")
    after = int(raw_after)
    channel = request.app[PLAYGROUND].peek(channel_name)
    if channel is None:
        return web.json_response({"messages": [], "last": 0, "more": False, "oldest": 0})
    return web.json_response(channel.since(after, user).to_json())


async def get_autocomplete(request: web.Request) -> web.Response:
    channel = check_name("channel", request.query.get("channel"))
    user = check_user(request.query.get("user"))
    text = check_text(request.query.get("text"))
    found = await suggest(request.app[SERVICE], caller_for(user, channel), text)
    return web.json_response({"suggestions": [{"name": s.name, "value": s.value} for s in found]})


async def get_image(request: web.Request) -> web.Response:
    store = request.app[PLAYGROUND].images
    image_id = request.match_info["image_id"]
    data = store.get(image_id)
    if data is None:
        raise web.HTTPNotFound(text="That image is gone (only the latest ones are kept).")
    if store.is_private(image_id):
        # Shown to one user only (a private board, a campaign export): no cache keeps a copy.
        cache = "private, no-store"
    else:
        cache = "public, max-age=86400, immutable"
    # What an attachment is, from its first bytes (a campaign export is JSON).
    content_type = "application/json" if data.startswith(b"{") else media_type(data)
    return web.Response(body=data, content_type=content_type, headers={"Cache-Control": cache})


def adjustable_clock(app: web.Application) -> AdjustableClock:
    clock = app[CLOCK]
    if not (callable(getattr(clock, "now", None)) and callable(getattr(clock, "advance", None))):
        raise web.HTTPNotImplemented(reason="This playground has no adjustable clock.")
    return clock  # type: ignore[return-value]


async def get_clock(request: web.Request) -> web.Response:
    clock = adjustable_clock(request.app)
    return web.json_response({"ok": True, "now": clock.now().isoformat()})


async def post_clock(request: web.Request) -> web.Response:
    """Development only: move the clock forward to try reminders and deadlines now."""
    clock = adjustable_clock(request.app)
    body = await read_json(request)
    hours = body.get("hours") if isinstance(body, dict) else None
    if isinstance(hours, bool) or not isinstance(hours, int | float):
        raise BadField('Say how far to move the clock: {"hours": 6}.')
    if not 0 < hours <= MAX_CLOCK_STEP_HOURS:
        raise BadField(f"hours must be more than 0 and at most {MAX_CLOCK_STEP_HOURS}.")
    now = clock.advance(timedelta(hours=hours))
    scheduler = request.app.get(SCHEDULER)
    sent = await scheduler.scan() if scheduler is not None else 0
    return web.json_response({"ok": True, "now": now.isoformat(), "sent": sent})


async def get_health(request: web.Request) -> web.Response:
    return web.json_response({"ok": True})


async def get_page(request: web.Request) -> web.FileResponse:
    return web.FileResponse(STATIC_DIR / "index.html", headers={"Cache-Control": "no-cache"})


# ---------------------------------------------------------------------- app


def create_app(
    service: TableService,
    dev_clock: bool = False,
    clock: AdjustableClock | None = None,
    feed_path: str = ":memory:",
) -> web.Application:
    """The playground app over a table service.

    With `dev_clock`, `GET/POST /api/dev/clock` read and move forward an adjustable clock (the
    one given, else the service's `clock` attribute if it has one), so reminders and deadlines
    can be tried without waiting; the page then shows a control for it. The channel feeds
    are kept in `feed_path` (a SQLite file; in memory by default).
    """
    app = web.Application(middlewares=[guard], client_max_size=MAX_BODY)
    app[SERVICE] = service
    playground = app[PLAYGROUND] = Playground(feed_path)

    async def close_feed(_: web.Application) -> None:
        playground.close()

    app.on_cleanup.append(close_feed)
    app[DEV_CLOCK] = dev_clock
    app[CLOCK] = clock if clock is not None else getattr(service, "clock", None)
    app[LOCKS] = {}
    app.router.add_get("/", get_page)
    app.router.add_get("/healthz", get_health)
    app.router.add_post("/api/command", post_command)
    app.router.add_post("/api/component", post_component)
    app.router.add_get("/api/channels/{channel}/messages", get_messages)
    app.router.add_get("/api/autocomplete", get_autocomplete)
    if dev_clock:
        app.router.add_get("/api/dev/clock", get_clock)
        app.router.add_post("/api/dev/clock", post_clock)
    app.router.add_get("/images/{image_id:[0-9a-f]{1,64}}.{ext:png|gif}", get_image)
    app.router.add_static("/static/", STATIC_DIR, follow_symlinks=False)
    # The campaigns' read-only pages (`/campaign web` gives their links).
    add_routes(app, WebView(service))
    return app


def send_direct(app: web.Application, reply: Reply) -> bool:
    """A direct message: the user's `dm-<user>` channel, as the scheduler's reminders."""
    if not reply.dm_to.startswith(USER_PREFIX):
        return False
    deliver(app, f"dm-{reply.dm_to.removeprefix(USER_PREFIX)}", [replace(reply, dm_to="")])
    return True


def deliver(app: web.Application, channel: str, replies: list[Reply]) -> None:
    """Post what the bot says on its own (a reminder, a deadline) into a channel's feed.

    Ephemeral replies have no user to show them to here, so they are dropped.
    """
    playground = app[PLAYGROUND]
    shown = [playground.store_reply(r) for r in replies if not r.ephemeral]
    playground.post_bot(check_name("channel", channel), shown)


async def serve(
    service: TableService,
    host: str,
    port: int,
    dev_clock: bool = False,
    clock: AdjustableClock | None = None,
    scan_interval_seconds: int = 60,
    feed_path: str = ":memory:",
    web_base_url: str | None = None,
) -> None:
    """Serve the playground, with the reminder scheduler posting into its feeds, until
    cancelled. The campaigns' web pages are served too, linked from `web_base_url` (by
    default the playground's own address)."""
    from bot.playground.outbox import PlaygroundOutbox

    shown_host = "127.0.0.1" if host in ("0.0.0.0", "::", "") else host
    service.web.set_base(web_base_url or f"http://{shown_host}:{port}")
    app = create_app(service, dev_clock, clock, feed_path)
    scheduler = Scheduler(service, PlaygroundOutbox(app), service.clock)
    app[SCHEDULER] = scheduler
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    try:
        site = web.TCPSite(runner, host, port)
        await site.start()
        scheduler.start(scan_interval_seconds)
        log.info("playground listening on http://%s:%s", host, port)
        await asyncio.Event().wait()
    finally:
        scheduler.shutdown()
        await runner.cleanup()
