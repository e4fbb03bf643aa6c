"""A strict fake Discord (REST + gateway websocket) that the real discord.py client talks to.

It models one application, one guild with channels, roles and members, the gateway handshake
(HELLO, IDENTIFY or RESUME, heartbeats, READY, GUILD_CREATE), slash-command registration, and
the interaction life cycle: INTERACTION_CREATE for slash commands, autocomplete and buttons, the
callback (once, within the acknowledgement deadline), follow-ups, and edits or deletes of the
original response. Every request is checked against Discord's documented limits; a request
Discord would reject is answered with the same kind of error and recorded in `violations`, so
a test can assert that the bot never broke a rule.

Only what Sortie uses is modelled, but what is modelled is strict: an unknown route is a
violation too.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import itertools
import json
import random
import re
import secrets
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web
from openapi_check import errors as openapi_errors
from openapi_check import load

API = "/api/v10"
CHANNEL_MESSAGE = re.compile(rf"{API}/channels/\d+/messages(/\d+)?")
DISCORD_EPOCH_MS = 1420070400000
ACK_DEADLINE = 3.0  # seconds Discord gives an interaction to be acknowledged
TOKEN_LIFETIME = 15 * 60.0
DEFAULT_ATTACHMENT_LIMIT = 10 * 1024 * 1024

# Limits from Discord's documentation.
MAX_CONTENT = 2000
MAX_EMBEDS = 10
MAX_EMBED_TOTAL = 6000
EMBED_LIMITS = {"title": 256, "description": 4096}
MAX_EMBED_FIELDS = 25
MAX_FILES = 10
MAX_CHOICES = 25
MAX_ROWS = 5
MAX_ROW_ITEMS = 5
MAX_CUSTOM_ID = 100
MAX_BUTTON_LABEL = 80
# Start Thread without Message's body, as discord-openapi.json describes it.
THREAD_SCHEMA = "#/components/schemas/CreateTextThreadWithoutMessageRequest"
openapi_document = functools.cache(load)

# String select menus (discord-openapi.json, StringSelectComponentForMessageRequest).
MAX_SELECT_OPTIONS = 25
MAX_SELECT_TEXT = 100  # an option's label, value and description
MAX_PLACEHOLDER = 150
MAX_GLOBAL_COMMANDS = 100
MAX_OPTIONS = 25
NAME_RULE = re.compile(r"^[-_\w]{1,32}$")

EPHEMERAL = 1 << 6
LOADING = 1 << 7

# Permission bits.
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
READ_HISTORY = 1 << 16
USE_APP_COMMANDS = 1 << 31
MANAGE_GUILD = 1 << 5
ADMINISTRATOR = 1 << 3
CREATE_PUBLIC_THREADS = 1 << 35
CREATE_PRIVATE_THREADS = 1 << 36
SEND_MESSAGES_IN_THREADS = 1 << 38
MEMBER_PERMISSIONS = (
    VIEW_CHANNEL
    | SEND_MESSAGES
    | EMBED_LINKS
    | ATTACH_FILES
    | READ_HISTORY
    | USE_APP_COMMANDS
    | CREATE_PUBLIC_THREADS
    | SEND_MESSAGES_IN_THREADS
)  # Create Private Threads is granted by a test that wants it (`grant`)


def json_response(
    data: Any, status: int = 200, headers: dict[str, str] | None = None
) -> web.Response:
    """JSON with the exact content type Discord sends (discord.py compares it verbatim)."""
    return web.Response(
        body=json.dumps(data).encode(),
        status=status,
        headers={**(headers or {}), "Content-Type": "application/json"},
    )


class FakeError(Exception):
    """An HTTP error the fake answers with, Discord-style."""

    def __init__(self, status: int, code: int, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


# ---------------------------------------------------------------------- model


@dataclass
class FakeUser:
    id: int
    name: str
    roles: list[int] = field(default_factory=list)
    bot: bool = False

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "username": self.name,
            "global_name": self.name.title(),
            "discriminator": "0",
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
        }


@dataclass
class FakeAttachment:
    filename: str
    data: bytes = field(repr=False)
    description: str | None = None

    @property
    def size(self) -> int:
        return len(self.data)


@dataclass
class FakeMessage:
    id: int
    channel_id: int
    content: str
    author_id: int
    interaction_id: int | None = None
    flags: int = 0
    owner_id: int | None = None  # the only viewer of an ephemeral message
    attachments: list[FakeAttachment] = field(default_factory=list)
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    pinged: set[int] = field(default_factory=set)
    deleted: bool = False
    edits: int = 0

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def loading(self) -> bool:
        return bool(self.flags & LOADING)

    def visible_to(self, user_id: int) -> bool:
        return not self.deleted and (not self.ephemeral or self.owner_id == user_id)

    def buttons(self) -> list[dict[str, Any]]:
        return [
            item
            for row in self.components
            for item in row.get("components", [])
            if item.get("type") != 3
        ]

    def menus(self) -> list[dict[str, Any]]:
        """The message's select menus."""
        return [
            item
            for row in self.components
            for item in row.get("components", [])
            if item.get("type") == 3
        ]

    def button(self, label: str) -> dict[str, Any]:
        """The button labelled `label`, or `label · seats`: a button only some seats' players
        may use says whose it is (by the seats' names)."""
        for item in self.buttons():
            if item.get("label") == label:
                return item
        for item in self.buttons():
            if str(item.get("label", "")).startswith(f"{label} · "):
                return item
        raise LookupError(f"no button {label!r} on message {self.id}: {self.buttons()}")

    def payload(self, guild_id: int, author: dict[str, Any], app_id: int) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "channel_id": str(self.channel_id),
            "guild_id": str(guild_id),
            "type": 20 if self.interaction_id else 0,
            "content": self.content,
            "author": author,
            "attachments": [
                {
                    "id": str(self.id * 16 + index),
                    "filename": a.filename,
                    "size": a.size,
                    "url": f"https://cdn.invalid/{self.id}/{a.filename}",
                    "proxy_url": f"https://media.invalid/{self.id}/{a.filename}",
                    "description": a.description,
                    "content_type": "image/png",
                }
                for index, a in enumerate(self.attachments)
            ],
            "embeds": self.embeds,
            "components": self.components,
            "mentions": [],
            "mention_roles": [],
            "mention_everyone": False,
            "pinned": False,
            "tts": False,
            "timestamp": "2026-01-01T00:00:00+00:00",
            "edited_timestamp": None,
            "flags": self.flags,
            "webhook_id": str(app_id),
            "application_id": str(app_id),
        }


@dataclass
class InteractionRecord:
    """One interaction the fake sent, and everything the bot did with it."""

    id: int
    token: str
    type: int  # 2 command, 3 component, 4 autocomplete
    user: FakeUser
    channel_id: int
    payload: dict[str, Any]
    sent_at: float
    attachment_limit: int
    acked_at: float | None = None
    callback_type: int | None = None
    callback_data: dict[str, Any] | None = None
    original_id: int | None = None  # the message of the initial response
    message_ids: list[int] = field(default_factory=list)  # every message it created
    deferred_ephemeral: bool = False
    placeholder_pending: bool = False  # a deferred "thinking" message not yet filled
    acked: asyncio.Event = field(default_factory=asyncio.Event)

    @property
    def ack_delay(self) -> float | None:
        return None if self.acked_at is None else self.acked_at - self.sent_at

    @property
    def deferred(self) -> bool:
        return self.callback_type in (5, 6)

    @property
    def choices(self) -> list[dict[str, Any]]:
        return list((self.callback_data or {}).get("choices", []))


@dataclass
class Violation:
    rule: str
    detail: str

    def __str__(self) -> str:
        return f"{self.rule}: {self.detail}"


# ---------------------------------------------------------------------- validation


def message_errors(
    data: dict[str, Any], files: list[FakeAttachment], size_limit: int, editing: bool = False
) -> list[tuple[str, str]]:
    """Everything Discord would refuse in a message body, as (rule, detail) pairs."""
    errors: list[tuple[str, str]] = []
    content = data.get("content") or ""
    if len(content) > MAX_CONTENT:
        errors.append(("content-length", f"{len(content)} characters (limit {MAX_CONTENT})"))
    embeds = data.get("embeds") or []
    if len(embeds) > MAX_EMBEDS:
        errors.append(("embed-count", f"{len(embeds)} embeds (limit {MAX_EMBEDS})"))
    total = 0
    for embed in embeds:
        for key, limit in EMBED_LIMITS.items():
            size = len(embed.get(key) or "")
            total += size
            if size > limit:
                errors.append((f"embed-{key}", f"{size} characters (limit {limit})"))
        fields = embed.get("fields") or []
        if len(fields) > MAX_EMBED_FIELDS:
            errors.append(("embed-fields", f"{len(fields)} fields (limit {MAX_EMBED_FIELDS})"))
        for item in fields:
            name, value = len(item.get("name") or ""), len(item.get("value") or "")
            total += name + value
            if name > 256 or value > 1024:
                errors.append(("embed-field", f"name {name}/256, value {value}/1024"))
        footer = len((embed.get("footer") or {}).get("text") or "")
        author = len((embed.get("author") or {}).get("name") or "")
        total += footer + author
        if footer > 2048 or author > 256:
            errors.append(("embed-footer-author", f"footer {footer}/2048, author {author}/256"))
    if total > MAX_EMBED_TOTAL:
        errors.append(("embed-total", f"{total} characters (limit {MAX_EMBED_TOTAL})"))
    if len(files) > MAX_FILES:
        errors.append(("file-count", f"{len(files)} files (limit {MAX_FILES})"))
    for file in files:
        if file.size > size_limit:
            errors.append(
                ("file-size", f"{file.filename} is {file.size} bytes (limit {size_limit})")
            )
    errors.extend(component_errors(data.get("components") or []))
    mentions = data.get("allowed_mentions")
    if mentions is not None:
        parse = mentions.get("parse", [])
        if "users" in parse and mentions.get("users"):
            errors.append(("allowed-mentions", "parse:users together with a users list"))
        if len(mentions.get("users") or []) > 100:
            errors.append(("allowed-mentions", "more than 100 users"))
    empty = not (content or embeds or files or data.get("components") or data.get("poll"))
    if empty and not editing:
        errors.append(("empty-message", "no content, embeds, files or components"))
    return errors


def component_errors(rows: list[dict[str, Any]]) -> list[tuple[str, str]]:
    errors: list[tuple[str, str]] = []
    if len(rows) > MAX_ROWS:
        errors.append(("component-rows", f"{len(rows)} rows (limit {MAX_ROWS})"))
    seen: set[str] = set()
    for row in rows:
        items = row.get("components") or []
        if row.get("type") != 1 or not 1 <= len(items) <= MAX_ROW_ITEMS:
            errors.append(("component-row", f"row of {len(items)} items (1 to {MAX_ROW_ITEMS})"))
        for item in items:
            if item.get("type") == 3:
                if len(items) != 1:
                    errors.append(("select-row", "a select menu shares its row"))
                errors.extend(select_errors(item, seen))
                continue
            if item.get("type") != 2:
                continue
            label = item.get("label") or ""
            if len(label) > MAX_BUTTON_LABEL:
                errors.append(("button-label", f"{len(label)} characters"))
            if item.get("style") == 5:
                if not item.get("url"):
                    errors.append(("button-url", "a link button needs a url"))
                continue
            errors.extend(custom_id_errors(item, seen))
    return errors


def custom_id_errors(item: dict[str, Any], seen: set[str]) -> list[tuple[str, str]]:
    """A component's custom id: 1 to 100 characters, unique within its message."""
    errors: list[tuple[str, str]] = []
    custom_id = item.get("custom_id") or ""
    if not 1 <= len(custom_id) <= MAX_CUSTOM_ID:
        errors.append(("custom-id", f"{len(custom_id)} characters (1 to {MAX_CUSTOM_ID})"))
    if custom_id in seen:
        errors.append(("custom-id", f"duplicate {custom_id!r}"))
    seen.add(custom_id)
    return errors


def select_errors(item: dict[str, Any], seen: set[str]) -> list[tuple[str, str]]:
    """Discord's rules for one string select menu."""
    errors = custom_id_errors(item, seen)
    if len(item.get("placeholder") or "") > MAX_PLACEHOLDER:
        errors.append(("select-placeholder", f"over {MAX_PLACEHOLDER} characters"))
    options = item.get("options") or []
    if not 1 <= len(options) <= MAX_SELECT_OPTIONS:
        errors.append(("select-options", f"{len(options)} options (1 to {MAX_SELECT_OPTIONS})"))
    values = [str(o.get("value") or "") for o in options]
    if len(set(values)) != len(values):
        errors.append(("select-values", "two options share a value"))
    for option in options:
        for key in ("label", "value"):
            if not 1 <= len(str(option.get(key) or "")) <= MAX_SELECT_TEXT:
                errors.append((f"select-{key}", f"{option!r}"))
        if len(option.get("description") or "") > MAX_SELECT_TEXT:
            errors.append(("select-description", f"{option!r}"))
    return errors


def command_errors(command: dict[str, Any]) -> list[str]:
    """Discord's rules for one application command (and its options, recursively)."""
    errors: list[str] = []

    def check(node: dict[str, Any], path: str, depth: int) -> None:
        name = node.get("name", "")
        if not NAME_RULE.match(name) or name != name.lower():
            errors.append(f"{path}: name {name!r} must be 1-32 lowercase letters, digits, - or _")
        description = node.get("description", "")
        if not 1 <= len(description) <= 100:
            errors.append(f"{path}: description must be 1-100 characters ({len(description)})")
        options = node.get("options") or []
        if len(options) > MAX_OPTIONS:
            errors.append(f"{path}: {len(options)} options (limit {MAX_OPTIONS})")
        names = [o.get("name") for o in options]
        if len(set(names)) != len(names):
            errors.append(f"{path}: duplicate option names {names}")
        seen_optional = False
        for option in options:
            kind = option.get("type")
            sub = f"{path} {option.get('name')}"
            if kind in (1, 2):
                if depth >= (2 if kind == 2 else 3):
                    errors.append(f"{sub}: subcommands nested too deeply")
                check(option, sub, depth + 1)
                continue
            check(option, sub, depth + 1)
            if option.get("required"):
                if seen_optional:
                    errors.append(f"{sub}: required option after an optional one")
            else:
                seen_optional = True
            choices = option.get("choices") or []
            if len(choices) > MAX_CHOICES:
                errors.append(f"{sub}: {len(choices)} choices (limit {MAX_CHOICES})")
            if choices and option.get("autocomplete"):
                errors.append(f"{sub}: choices and autocomplete together")
            if option.get("autocomplete") and kind not in (3, 4, 10):
                errors.append(f"{sub}: autocomplete on a non-text option")
        kinds = {o.get("type") for o in options}
        if kinds & {1, 2} and kinds - {1, 2}:
            errors.append(f"{path}: subcommands mixed with plain options")

    check(command, f"/{command.get('name')}", 0)
    return errors


def _value_errors(value: Any) -> bool:
    return isinstance(value, str) and len(value) > 100


# ---------------------------------------------------------------------- the server


Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


class FakeDiscord:
    def __init__(
        self,
        token: str = "fake-bot-token",
        attachment_limit: int = DEFAULT_ATTACHMENT_LIMIT,
        ack_deadline: float = ACK_DEADLINE,
    ) -> None:
        self.token = token
        self.attachment_limit = attachment_limit
        self.ack_deadline = ack_deadline
        self._ids = itertools.count(1)
        self.app_id = self.snowflake()
        self.bot_user = FakeUser(self.app_id, "sortie", bot=True)
        self.guild_id = self.snowflake()
        self.owner = FakeUser(self.snowflake(), "owner")
        self.admin_role = self.snowflake()
        self.roles: dict[int, tuple[str, int]] = {
            self.guild_id: ("@everyone", MEMBER_PERMISSIONS),
            self.admin_role: ("moderators", MEMBER_PERMISSIONS | MANAGE_GUILD),
        }
        self.members: dict[int, FakeUser] = {u.id: u for u in (self.bot_user, self.owner)}
        self.channels: dict[int, str] = {}
        # More guilds than the first (`add_guild`) let several shards split the traffic: each
        # guild belongs to shard (guild_id >> 22) % shard_count, as on Discord.
        self.guilds: list[int] = [self.guild_id]
        self.channel_guild: dict[int, int] = {}
        self._session_shard: dict[str, tuple[int, int]] = {}
        self.threads: dict[int, int] = {}  # thread -> its parent channel
        self.private_threads: dict[int, set[int]] = {}  # private thread -> its members
        self.bot_denied: dict[int, int] = {}
        self.member_denied: dict[tuple[int, int], int] = {}  # (channel, user) -> denied bits
        self.dm_channels: dict[int, int] = {}  # direct-message channel -> user
        self.dms_closed: set[int] = set()  # users who accept no direct messages
        self.messages: dict[int, FakeMessage] = {}
        # (channel, nonce) -> the message a send with `enforce_nonce` created: a repeat of the
        # send returns that message instead of posting again, as Discord does.
        self.nonces: dict[tuple[int, str], int] = {}
        self.interactions: dict[int, InteractionRecord] = {}
        self.by_token: dict[str, InteractionRecord] = {}
        self.commands: dict[int | None, list[dict[str, Any]]] = {}  # None: global
        self.sync_calls: list[tuple[int | None, int]] = []  # (guild or None, command count)
        self.violations: list[Violation] = []
        self.requests: list[tuple[str, str]] = []
        self.gateway_connects: list[str] = []  # "identify" or "resume", in order
        self.identified_shards: list[list[int] | None] = []
        self.sessions: dict[str, int] = {}  # session id -> last sequence
        self._sockets: list[web.WebSocketResponse] = []
        self._session_of: dict[web.WebSocketResponse, str] = {}
        self._seq = 0
        self._rate_limits: dict[str, int] = {}  # path fragment -> 429s still to answer
        # Fault injection on the bot's own channel posts and edits (`inject_faults`).
        self._fault_rate = 0.0
        self._fault_rng = random.Random(0)
        self._fault_kinds: tuple[str, ...] = ()
        self.faults: Counter[str] = Counter()
        self.channel_calls = 0
        self._runner: web.AppRunner | None = None
        self.url = ""

    # ------------------------------------------------------------------ set-up

    def snowflake(self) -> int:
        ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
        return (ms << 22) | (next(self._ids) & 0x3FFFFF)

    def add_member(self, name: str, admin: bool = False) -> FakeUser:
        user = FakeUser(self.snowflake(), name, roles=[self.admin_role] if admin else [])
        self.members[user.id] = user
        return user

    def member(self, name: str) -> FakeUser:
        return next(u for u in self.members.values() if u.name == name)

    def channel(self, name: str) -> int:
        return next(c for c, n in self.channels.items() if n == name)

    def add_channel(self, name: str, guild: int | None = None) -> int:
        channel_id = self.snowflake()
        self.channels[channel_id] = name
        if guild is not None:
            self.channel_guild[channel_id] = guild
        return channel_id

    def add_guild(self) -> int:
        """Another guild with the same members; its @everyone role has the usual rights."""
        guild_id = self.snowflake()
        self.guilds.append(guild_id)
        self.roles[guild_id] = ("@everyone", MEMBER_PERMISSIONS)
        return guild_id

    def guild_of(self, channel_id: int) -> int:
        parent = self.threads.get(channel_id, channel_id)
        return self.channel_guild.get(parent, self.guild_id)

    @staticmethod
    def shard_of(guild_id: int, shard_count: int) -> int:
        return (guild_id >> 22) % shard_count

    def rate_limit_next(self, path_fragment: str, times: int = 1) -> None:
        """Answer the next request whose path contains the fragment with a 429."""
        self._rate_limits[path_fragment] = times

    def inject_faults(
        self, rate: float, seed: int = 0, kinds: tuple[str, ...] = ("429", "500", "502", "drop")
    ) -> None:
        """Fail about `rate` of the bot's channel posts and edits, as Discord does on a bad
        day: a 429 with Retry-After, a 500 or 502, a connection dropped after the message
        was made (the bot cannot know it was), a request that times out (kind "timeout": no
        message, no answer), or a 404 because someone deleted the post."""
        self._fault_rate = rate
        self._fault_rng = random.Random(seed)
        self._fault_kinds = kinds

    async def _fault(self, request: web.Request) -> web.StreamResponse | None:
        if not self._fault_rate or request.method not in ("POST", "PATCH"):
            return None
        if not CHANNEL_MESSAGE.fullmatch(request.path):
            return None
        self.channel_calls += 1
        if self._fault_rng.random() >= self._fault_rate:
            return None
        kinds = list(self._fault_kinds) + (["404"] if request.method == "PATCH" else [])
        kind = self._fault_rng.choice(kinds)
        self.faults[kind] += 1
        if kind == "429":
            await request.read()
            return json_response(
                {"message": "You are being rate limited.", "retry_after": 0.3, "global": False},
                status=429,
                headers={"Retry-After": "0.3", "X-RateLimit-Scope": "user"},
            )
        if kind in ("500", "502"):
            await request.read()
            return json_response({"message": "Internal Server Error", "code": 0}, int(kind))
        if kind == "404":
            message = self.messages.get(int(request.path.rsplit("/", 1)[1]))
            if message is not None:
                message.deleted = True  # a moderator deleted the turn post meanwhile
            await request.read()
            return json_response({"message": "Unknown Message", "code": 10008}, status=404)
        if kind == "timeout":
            # The request never arrives whole: no message, and the bot waits in vain for the
            # answer until the connection gives up (as a timed-out request does).
            await request.read()
            await asyncio.sleep(0.2)
            if request.transport is not None:
                request.transport.close()
            return web.Response(status=204)
        # "drop": the message is made, then the connection breaks before the answer.
        await self.handle_then_drop(request)
        return web.Response(status=204)

    async def handle_then_drop(self, request: web.Request) -> None:
        handler = self._channel_message if request.method == "POST" else self._edit_channel_message
        with contextlib.suppress(FakeError):
            await handler(request)
        if request.transport is not None:
            request.transport.close()

    async def start(self) -> None:
        # Discord takes request bodies up to its attachment limit; the checks below enforce it.
        app = web.Application(middlewares=[self._middleware], client_max_size=32 * 1024 * 1024)
        app.router.add_get("/gateway", self._gateway)
        app.router.add_get("/gateway-resume", self._gateway)
        routes: list[tuple[str, str, Handler]] = [
            ("GET", "/users/@me", self._me),
            ("GET", "/oauth2/applications/@me", self._application),
            ("GET", "/applications/@me", self._application),
            ("GET", "/gateway", self._gateway_url),
            ("GET", "/gateway/bot", self._gateway_bot),
            ("PUT", "/applications/{app}/commands", self._sync),
            ("PUT", "/applications/{app}/guilds/{guild}/commands", self._sync),
            ("GET", "/applications/{app}/commands", self._list_commands),
            ("POST", "/interactions/{id}/{token}/callback", self._callback),
            ("POST", "/channels/{channel}/messages", self._channel_message),
            ("PATCH", "/channels/{channel}/messages/{message}", self._edit_channel_message),
            ("GET", "/channels/{channel}", self._get_channel),
            ("POST", "/channels/{channel}/threads", self._start_thread),
            ("PUT", "/channels/{channel}/thread-members/{user}", self._add_thread_member),
            ("DELETE", "/channels/{channel}", self._delete_channel),
            ("GET", "/users/{user}", self._user),
            ("GET", "/guilds/{guild}/members/{user}", self._guild_member),
            ("POST", "/users/@me/channels", self._open_dm),
            ("POST", "/webhooks/{app}/{token}", self._followup),
            ("GET", "/webhooks/{app}/{token}/messages/{message}", self._get_message),
            ("PATCH", "/webhooks/{app}/{token}/messages/{message}", self._edit_message),
            ("DELETE", "/webhooks/{app}/{token}/messages/{message}", self._delete_message),
        ]
        for method, path, handler in routes:
            app.router.add_route(method, API + path, handler)
        app.router.add_route("*", "/{tail:.*}", self._unknown)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        server = site._server
        assert server is not None and server.sockets  # type: ignore[attr-defined]
        port = server.sockets[0].getsockname()[1]  # type: ignore[attr-defined]
        self.url = f"http://127.0.0.1:{port}"

    @property
    def api_base(self) -> str:
        return self.url + API

    @property
    def gateway_url(self) -> str:
        return self.url.replace("http://", "ws://") + "/gateway"

    async def close(self) -> None:
        for ws in list(self._sockets):
            await ws.close()
        if self._runner is not None:
            await self._runner.cleanup()

    # ------------------------------------------------------------------ plumbing

    def violation(self, rule: str, detail: str) -> None:
        self.violations.append(Violation(rule, detail))

    @web.middleware
    async def _middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        self.requests.append((request.method, request.path))
        faulted = await self._fault(request)
        if faulted is not None:
            return faulted
        for fragment, left in list(self._rate_limits.items()):
            if left > 0 and fragment in request.path:
                self._rate_limits[fragment] = left - 1
                await request.read()
                return json_response(
                    {
                        "message": "You are being rate limited.",
                        "retry_after": 0.05,
                        "global": False,
                    },
                    status=429,
                    headers={"Via": "1.1 google", "Retry-After": "1", "X-RateLimit-Scope": "user"},
                )
        try:
            return await handler(request)
        except FakeError as error:
            return json_response(
                {"code": error.code, "message": error.message, "errors": {}}, status=error.status
            )

    def _authorised(self, request: web.Request) -> None:
        if request.headers.get("Authorization") != f"Bot {self.token}":
            self.violation("auth", f"{request.method} {request.path} without the bot token")
            raise FakeError(401, 0, "401: Unauthorized")

    def _reject(self, errors: list[tuple[str, str]], where: str) -> None:
        for rule, detail in errors:
            self.violation(rule, f"{where}: {detail}")
        if errors:
            raise FakeError(400, 50035, "Invalid Form Body: " + "; ".join(d for _, d in errors))

    async def _unknown(self, request: web.Request) -> web.StreamResponse:
        self.violation("unknown-route", f"{request.method} {request.path}")
        raise FakeError(404, 0, "404: Not Found")

    # ------------------------------------------------------------------ REST: identity

    async def _me(self, request: web.Request) -> web.StreamResponse:
        self._authorised(request)
        return json_response(
            {**self.bot_user.payload(), "verified": True, "mfa_enabled": False, "flags": 0}
        )

    async def _application(self, request: web.Request) -> web.StreamResponse:
        self._authorised(request)
        return json_response(
            {
                "id": str(self.app_id),
                "name": "Sortie (fake)",
                "icon": None,
                "description": "",
                "rpc_origins": [],
                "bot_public": False,
                "bot_require_code_grant": False,
                "owner": self.owner.payload(),
                "verify_key": "0" * 64,
                "team": None,
                "flags": 0,
                "summary": "",
            }
        )

    async def _gateway_url(self, request: web.Request) -> web.StreamResponse:
        return json_response({"url": self.gateway_url})

    async def _gateway_bot(self, request: web.Request) -> web.StreamResponse:
        self._authorised(request)
        return json_response(
            {
                "url": self.gateway_url,
                "shards": 1,
                "session_start_limit": {
                    "total": 1000,
                    "remaining": 999,
                    "reset_after": 0,
                    "max_concurrency": 1,
                },
            }
        )

    # ------------------------------------------------------------------ REST: commands

    async def _sync(self, request: web.Request) -> web.StreamResponse:
        self._authorised(request)
        if int(request.match_info["app"]) != self.app_id:
            raise FakeError(403, 50001, "Missing Access")
        guild = request.match_info.get("guild")
        scope = int(guild) if guild else None
        if scope is not None and scope not in self.guilds:
            raise FakeError(403, 50001, "Missing Access")
        body = await request.json()
        if not isinstance(body, list):
            self._reject([("commands", "the body must be a list")], request.path)
        problems = [e for command in body for e in command_errors(command)]
        if len(body) > MAX_GLOBAL_COMMANDS:
            problems.append(f"{len(body)} commands (limit {MAX_GLOBAL_COMMANDS})")
        names = [(c.get("type", 1), c.get("name")) for c in body]
        if len(set(names)) != len(names):
            problems.append("duplicate command names")
        self._reject([("command", p) for p in problems], request.path)
        stored = []
        for command in body:
            previous = next(
                (c for c in self.commands.get(scope, []) if c["name"] == command["name"]), None
            )
            stored.append(
                {
                    **command,
                    "id": previous["id"] if previous else str(self.snowflake()),
                    "application_id": str(self.app_id),
                    "guild_id": str(scope) if scope else None,
                    "version": str(self.snowflake()),
                    "type": command.get("type", 1),
                    "default_member_permissions": command.get("default_member_permissions"),
                }
            )
        self.commands[scope] = stored
        self.sync_calls.append((scope, len(stored)))
        return json_response(stored)

    async def _list_commands(self, request: web.Request) -> web.StreamResponse:
        self._authorised(request)
        return json_response(self.commands.get(None, []))

    # ------------------------------------------------------------------ gateway

    async def _gateway(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        self._sockets.append(ws)
        try:
            await self._send(ws, {"op": 10, "d": {"heartbeat_interval": 41250}})
            async for message in ws:
                if message.type is not WSMsgType.TEXT:
                    continue
                await self._on_gateway(ws, json.loads(message.data), request.path)
        finally:
            self._sockets.remove(ws)
            self._session_of.pop(ws, None)
        return ws

    async def _send(self, ws: web.WebSocketResponse, payload: dict[str, Any]) -> None:
        if not ws.closed:
            await ws.send_str(json.dumps(payload))

    async def _dispatch(
        self, ws: web.WebSocketResponse, event: str, data: dict[str, Any], session: str
    ) -> None:
        self._seq += 1
        self.sessions[session] = self._seq
        await self._send(ws, {"op": 0, "t": event, "s": self._seq, "d": data})

    async def _on_gateway(self, ws: web.WebSocketResponse, msg: dict[str, Any], path: str) -> None:
        op = msg.get("op")
        data: Any = msg.get("d")
        if op == 1:  # heartbeat
            await self._send(ws, {"op": 11})
        elif op == 2:  # identify
            if data.get("token") != self.token:
                await ws.close(code=4004, message=b"Authentication failed.")
                return
            if path != "/gateway":
                self.violation("gateway", "IDENTIFY sent to the resume url")
            session = secrets.token_hex(8)
            self._session_of[ws] = session
            self.gateway_connects.append("identify")
            shard = data.get("shard") or [0, 1]
            self.identified_shards.append(data.get("shard"))
            self._session_shard[session] = (int(shard[0]), int(shard[1]))
            mine = [g for g in self.guilds if self.shard_of(g, int(shard[1])) == int(shard[0])]
            ready = {
                "v": 10,
                "user": {**self.bot_user.payload(), "verified": True, "flags": 0},
                "guilds": [{"id": str(g), "unavailable": True} for g in mine],
                "session_id": session,
                "resume_gateway_url": self.url.replace("http://", "ws://") + "/gateway-resume",
                "shard": shard,
                "application": {"id": str(self.app_id), "flags": 0},
                "private_channels": [],
                "relationships": [],
                "presences": [],
            }
            await self._dispatch(ws, "READY", ready, session)
            for guild in mine:
                await self._dispatch(ws, "GUILD_CREATE", self.guild_payload(guild), session)
        elif op == 6:  # resume
            session = data.get("session_id")
            if data.get("token") != self.token or session not in self.sessions:
                await self._send(ws, {"op": 9, "d": False})
                return
            if path != "/gateway-resume":
                self.violation("gateway", "RESUME did not use resume_gateway_url")
            self._session_of[ws] = session
            self.gateway_connects.append("resume")
            await self._dispatch(ws, "RESUMED", {}, session)

    async def request_reconnect(self) -> None:
        """Ask the connected client to reconnect (gateway opcode 7); it should RESUME."""
        for ws in list(self._sockets):
            await self._send(ws, {"op": 7, "d": None})

    def _socket_for(self, guild_id: int) -> web.WebSocketResponse:
        """The live connection of the shard that serves this guild."""
        for ws in reversed(self._sockets):
            session = self._session_of.get(ws)
            if ws.closed or session is None:
                continue
            shard, count = self._session_shard.get(session, (0, 1))
            if self.shard_of(guild_id, count) == shard:
                return ws
        raise RuntimeError(f"no client is connected for the shard of guild {guild_id}")

    def _live_socket(self) -> web.WebSocketResponse:
        for ws in reversed(self._sockets):
            if not ws.closed and ws in self._session_of:
                return ws
        raise RuntimeError("no client is connected to the fake gateway")

    # ------------------------------------------------------------------ guild payloads

    def grant(self, bits: int) -> None:
        """More permissions for everyone on the server (the bot included)."""
        name, permissions = self.roles[self.guild_id]
        self.roles[self.guild_id] = (name, permissions | bits)

    def deny_bot(self, channel_id: int, bits: int) -> None:
        """A channel overwrite that takes permissions away from the bot."""
        self.bot_denied[channel_id] = bits

    def deny_member(self, channel_id: int, user: FakeUser, bits: int) -> None:
        """A channel overwrite that takes permissions away from one member."""
        self.member_denied[(channel_id, user.id)] = bits

    def overwrites(self, channel_id: int) -> list[dict[str, Any]]:
        """The channel's member overwrites as Discord sends them with the channel."""
        denied = {user: bits for (c, user), bits in self.member_denied.items() if c == channel_id}
        if channel_id in self.bot_denied:
            denied[self.bot_user.id] = self.bot_denied[channel_id]
        return [
            {"id": str(user), "type": 1, "allow": "0", "deny": str(bits)}
            for user, bits in denied.items()
        ]

    def permissions_of(self, user: FakeUser, channel_id: int | None = None) -> int:
        everyone = self.guild_of(channel_id) if channel_id is not None else self.guild_id
        value = self.roles[everyone][1]
        for role in user.roles:
            value |= self.roles[role][1]
        if user.id == self.owner.id or value & ADMINISTRATOR:
            return (1 << 50) - 1
        if user.bot and channel_id is not None:
            # A thread follows its parent channel's permissions.
            value &= ~self.bot_denied.get(self.threads.get(channel_id, channel_id), 0)
        if channel_id is not None:
            parent = self.threads.get(channel_id, channel_id)
            value &= ~self.member_denied.get((parent, user.id), 0)
        return value

    def member_payload(self, user: FakeUser, with_permissions: bool = False) -> dict[str, Any]:
        member: dict[str, Any] = {
            "user": user.payload(),
            "roles": [str(r) for r in user.roles],
            "joined_at": "2026-01-01T00:00:00+00:00",
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "nick": None,
            "avatar": None,
        }
        if with_permissions:
            member["permissions"] = str(self.permissions_of(user))
        return member

    def channel_payload(self, channel_id: int) -> dict[str, Any]:
        if channel_id in self.threads:
            return {
                "id": str(channel_id),
                "type": 12 if channel_id in self.private_threads else 11,
                "guild_id": str(self.guild_of(channel_id)),
                "name": self.channels[channel_id],
                "parent_id": str(self.threads[channel_id]),
                "owner_id": str(self.app_id),
                "member_count": 1,
                "message_count": 0,
                "rate_limit_per_user": 0,
                "flags": 0,
                "thread_metadata": {
                    "archived": False,
                    "auto_archive_duration": 10080,
                    "archive_timestamp": "2026-01-01T00:00:00+00:00",
                    "locked": False,
                },
            }
        return {
            "id": str(channel_id),
            "type": 0,
            "guild_id": str(self.guild_of(channel_id)),
            "name": self.channels[channel_id],
            "position": list(self.channels).index(channel_id),
            "permission_overwrites": self.overwrites(channel_id),
            "nsfw": False,
            "parent_id": None,
            "topic": None,
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "flags": 0,
        }

    def guild_payload(self, guild: int | None = None) -> dict[str, Any]:
        guild_id = guild or self.guild_id
        return {
            "id": str(guild_id),
            "name": "Sortie test guild",
            "icon": None,
            "owner_id": str(self.owner.id),
            "unavailable": False,
            "large": False,
            "member_count": len(self.members),
            "features": [],
            "emojis": [],
            "stickers": [],
            "roles": [
                {
                    "id": str(role_id),
                    "name": name,
                    "permissions": str(permissions),
                    "position": index,
                    "color": 0,
                    "hoist": False,
                    "managed": False,
                    "mentionable": False,
                    "flags": 0,
                }
                for index, (role_id, (name, permissions)) in enumerate(self.roles.items())
                if role_id == guild_id or role_id not in self.guilds
            ],
            "channels": [
                self.channel_payload(c) for c in self.channels if self.guild_of(c) == guild_id
            ],
            "members": [self.member_payload(u) for u in self.members.values()],
            "threads": [],
            "voice_states": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
            "preferred_locale": "en-US",
            "afk_timeout": 300,
            "system_channel_flags": 0,
        }

    # ------------------------------------------------------------------ sending interactions

    def find_command(self, name: str) -> tuple[dict[str, Any], int | None]:
        for scope in (self.guild_id, None):
            for command in self.commands.get(scope, []):
                if command["name"] == name:
                    return command, scope
        raise LookupError(f"/{name} was never registered with the fake (synced: {self.commands})")

    def command_data(
        self, command: str, options: dict[str, Any], focused: str | None = None
    ) -> dict[str, Any]:
        """Build interaction data the way Discord would from a registered command."""
        words = command.split()
        registered, scope = self.find_command(words[0])
        node = registered
        data: dict[str, Any] = {"id": registered["id"], "name": words[0], "type": 1}
        if scope is not None:
            data["guild_id"] = str(scope)
        target = data
        for word in words[1:]:
            sub = next((o for o in node.get("options") or [] if o["name"] == word), None)
            if sub is None or sub.get("type") not in (1, 2):
                raise LookupError(f"/{command}: no subcommand {word!r}")
            child: dict[str, Any] = {"type": sub["type"], "name": word}
            target["options"] = [child]
            target, node = child, sub
        declared = {o["name"]: o for o in node.get("options") or []}
        built = []
        for key, value in options.items():
            if value is None:
                continue
            option = declared.get(key)
            if option is None:
                raise LookupError(f"/{command} has no option {key!r}; it has {list(declared)}")
            kind = option["type"]
            if kind == 4:
                value = int(value)
            elif kind == 5:
                value = bool(value)
            else:
                value = str(value)
            if key != focused:
                choices = [c["value"] for c in option.get("choices") or []]
                if choices and value not in choices:
                    raise LookupError(f"/{command} {key}: {value!r} is not one of {choices}")
                if kind == 3 and not option.get("min_length", 0) <= len(value) <= 6000:
                    raise LookupError(f"/{command} {key}: bad length")
            entry: dict[str, Any] = {"type": kind, "name": key, "value": value}
            if kind in (6, 7) and key != focused:
                self._resolve(data, kind, int(value))
            if key == focused:
                entry["focused"] = True
            built.append(entry)
        if focused is None:
            missing = [o["name"] for o in declared.values() if o.get("required")]
            missing = [m for m in missing if options.get(m) is None]
            if missing:
                raise LookupError(f"/{command}: Discord would not send it without {missing}")
        if built:
            target["options"] = built
        return data

    def _resolve(self, data: dict[str, Any], kind: int, snowflake: int) -> None:
        """User and channel options travel with their objects in `resolved`, as on Discord."""
        resolved = data.setdefault("resolved", {})
        if kind == 6:
            user = self.members[snowflake]
            resolved.setdefault("users", {})[str(snowflake)] = user.payload()
            member = self.member_payload(user, with_permissions=True)
            member.pop("user")
            resolved.setdefault("members", {})[str(snowflake)] = member
        else:
            channel = {
                k: v
                for k, v in self.channel_payload(snowflake).items()
                if k in ("id", "type", "name", "parent_id", "topic", "nsfw")
            }
            channel["permissions"] = str(self.permissions_of(self.bot_user))
            resolved.setdefault("channels", {})[str(snowflake)] = channel

    def interaction_payload(
        self,
        kind: int,
        user: FakeUser,
        channel_id: int,
        data: dict[str, Any],
        message: FakeMessage | None = None,
    ) -> InteractionRecord:
        if channel_id not in self.channels:
            raise LookupError(f"unknown channel {channel_id}")
        record = InteractionRecord(
            id=self.snowflake(),
            token="tok-" + secrets.token_urlsafe(24),
            type=kind,
            user=user,
            channel_id=channel_id,
            payload={},
            sent_at=asyncio.get_running_loop().time(),
            attachment_limit=self.attachment_limit,
        )
        payload: dict[str, Any] = {
            "id": str(record.id),
            "application_id": str(self.app_id),
            "type": kind,
            "data": data,
            "guild_id": str(self.guild_of(channel_id)),
            "channel_id": str(channel_id),
            "channel": self.channel_payload(channel_id),
            "member": self.member_payload(user, with_permissions=True),
            "token": record.token,
            "version": 1,
            "app_permissions": str(self.permissions_of(self.bot_user, channel_id)),
            "locale": "en-US",
            "guild_locale": "en-US",
            "entitlements": [],
            "authorizing_integration_owners": {"0": str(self.guild_of(channel_id))},
            "context": 0,
            "attachment_size_limit": self.attachment_limit,
        }
        if message is not None:
            payload["message"] = message.payload(
                self.guild_of(message.channel_id), self.bot_user.payload(), self.app_id
            )
        record.payload = payload
        self.interactions[record.id] = record
        self.by_token[record.token] = record
        return record

    async def send_interaction(self, record: InteractionRecord) -> None:
        ws = self._socket_for(int(record.payload.get("guild_id") or self.guild_id))
        record.sent_at = asyncio.get_running_loop().time()
        await self._dispatch(ws, "INTERACTION_CREATE", record.payload, self._session_of[ws])

    async def slash(
        self, user: FakeUser, channel_id: int, command: str, **options: Any
    ) -> InteractionRecord:
        record = self.interaction_payload(2, user, channel_id, self.command_data(command, options))
        await self.send_interaction(record)
        return record

    async def autocomplete(
        self, user: FakeUser, channel_id: int, command: str, focused: str, **options: Any
    ) -> InteractionRecord:
        options.setdefault(focused, "")
        data = self.command_data(command, options, focused=focused)
        record = self.interaction_payload(4, user, channel_id, data)
        await self.send_interaction(record)
        return record

    async def press(self, user: FakeUser, message: FakeMessage, label: str) -> InteractionRecord:
        if not message.visible_to(user.id):
            raise LookupError(f"{user.name} cannot see message {message.id}")
        button = message.button(label)
        if button.get("disabled"):
            raise LookupError(f"the button {label!r} is disabled")
        data = {"custom_id": button["custom_id"], "component_type": 2}
        record = self.interaction_payload(3, user, message.channel_id, data, message)
        await self.send_interaction(record)
        return record

    # ------------------------------------------------------------------ reading the channel

    def feed(self, channel_id: int, viewer: FakeUser | None = None) -> list[FakeMessage]:
        """The channel as a viewer sees it (None: only what everyone sees; a private thread
        only its members see)."""
        members = self.private_threads.get(channel_id)
        if members is not None and (viewer is None or viewer.id not in members):
            return []
        return [
            m
            for m in self.messages.values()
            if m.channel_id == channel_id
            and not m.deleted
            and (not m.ephemeral or (viewer is not None and m.owner_id == viewer.id))
        ]

    def messages_of(self, record: InteractionRecord) -> list[FakeMessage]:
        return [self.messages[i] for i in record.message_ids if not self.messages[i].deleted]

    # ------------------------------------------------------------------ bot-initiated messages

    async def _start_thread(self, request: web.Request) -> web.StreamResponse:
        """A thread without a starter message (Start Thread without Message): public (type
        11) as `TextChannel.create_thread` asks, or private (type 12), which needs Create
        Private Threads; the body is checked against Discord's OpenAPI description."""
        self._authorised(request)
        parent = int(request.match_info["channel"])
        if parent not in self.channels or parent in self.threads:
            raise FakeError(404, 10003, "Unknown Channel")
        body = await request.json()
        private = body.get("type") == 12
        needed = CREATE_PRIVATE_THREADS if private else CREATE_PUBLIC_THREADS
        if not self.permissions_of(self.bot_user, parent) & needed:
            raise FakeError(403, 50013, "Missing Permissions")
        wrong = openapi_errors(body, {"$ref": THREAD_SCHEMA}, openapi_document(), "thread")
        self._reject([("thread-body", w) for w in wrong], request.path)
        name = str(body.get("name") or "")
        if not 1 <= len(name) <= 100:
            self._reject([("thread-name", f"name of {len(name)} characters")], request.path)
        thread_id = self.add_channel(name)
        self.threads[thread_id] = parent
        if private:
            self.private_threads[thread_id] = {self.bot_user.id}
        ws = self._socket_for(self.guild_of(parent))
        await self._dispatch(
            ws,
            "THREAD_CREATE",
            {**self.channel_payload(thread_id), "newly_created": True},
            self._session_of[ws],
        )
        return json_response(self.channel_payload(thread_id))

    async def _add_thread_member(self, request: web.Request) -> web.StreamResponse:
        """Add Thread Member: needs the ability to send messages in the thread."""
        self._authorised(request)
        thread_id = int(request.match_info["channel"])
        user_id = int(request.match_info["user"])
        if thread_id not in self.threads:
            raise FakeError(404, 10003, "Unknown Channel")
        if user_id not in self.members:
            raise FakeError(404, 10013, "Unknown User")
        if not self.permissions_of(self.bot_user, thread_id) & SEND_MESSAGES_IN_THREADS:
            raise FakeError(403, 50013, "Missing Permissions")
        self.private_threads.setdefault(thread_id, set()).add(user_id)
        return web.Response(status=204)

    async def _delete_channel(self, request: web.Request) -> web.StreamResponse:
        self._authorised(request)
        channel_id = int(request.match_info["channel"])
        if channel_id not in self.threads:
            self.violation("delete-channel", f"the bot deleted channel {channel_id}")
            raise FakeError(403, 50013, "Missing Permissions")
        payload = self.channel_payload(channel_id)
        del self.threads[channel_id]
        del self.channels[channel_id]
        return json_response(payload)

    async def _get_channel(self, request: web.Request) -> web.StreamResponse:
        self._authorised(request)
        channel_id = int(request.match_info["channel"])
        if channel_id not in self.channels:
            raise FakeError(404, 10003, "Unknown Channel")
        return json_response(self.channel_payload(channel_id))

    async def _user(self, request: web.Request) -> web.StreamResponse:
        self._authorised(request)
        user = self.members.get(int(request.match_info["user"]))
        if user is None:
            raise FakeError(404, 10013, "Unknown User")
        return json_response(user.payload())

    async def _guild_member(self, request: web.Request) -> web.StreamResponse:
        self._authorised(request)
        user = self.members.get(int(request.match_info["user"]))
        if int(request.match_info["guild"]) not in self.guilds or user is None:
            raise FakeError(404, 10007, "Unknown Member")
        return json_response(self.member_payload(user))

    async def _open_dm(self, request: web.Request) -> web.StreamResponse:
        self._authorised(request)
        body = await request.json()
        user = self.members.get(int(body.get("recipient_id", 0)))
        if user is None:
            raise FakeError(400, 50035, "Invalid Form Body")
        channel_id = next((c for c, u in self.dm_channels.items() if u == user.id), None)
        if channel_id is None:
            channel_id = self.snowflake()
            self.dm_channels[channel_id] = user.id
        return json_response(
            {
                "id": str(channel_id),
                "type": 1,
                "recipients": [user.payload()],
                "flags": 0,
                "last_message_id": None,
            }
        )

    async def _channel_message(self, request: web.Request) -> web.StreamResponse:
        """A message the bot posts on its own: its permissions in the channel apply."""
        self._authorised(request)
        channel_id = int(request.match_info["channel"])
        body, files = await self._read_body(request)
        where = f"POST {request.path}"
        if channel_id in self.dm_channels:
            if self.dm_channels[channel_id] in self.dms_closed:
                raise FakeError(403, 50007, "Cannot send messages to this user")
        elif channel_id in self.channels:
            have = self.permissions_of(self.bot_user, channel_id)
            needed = VIEW_CHANNEL | (
                SEND_MESSAGES_IN_THREADS if channel_id in self.threads else SEND_MESSAGES
            )
            if files:
                needed |= ATTACH_FILES
            if body.get("embeds"):
                needed |= EMBED_LINKS
            if have & needed != needed:
                raise FakeError(403, 50013, "Missing Permissions")
        else:
            self.violation("unknown-channel", where)
            raise FakeError(404, 10003, "Unknown Channel")
        if int(body.get("flags") or 0) & EPHEMERAL:
            self._reject([("ephemeral-channel-post", "only interactions can be ephemeral")], where)
        self._reject(message_errors(body, files, DEFAULT_ATTACHMENT_LIMIT), where)
        nonce = str(body["nonce"]) if body.get("nonce") and body.get("enforce_nonce") else None
        if nonce is not None and (channel_id, nonce) in self.nonces:
            sent = self.messages[self.nonces[(channel_id, nonce)]]
            payload = sent.payload(self.guild_of(channel_id), self.bot_user.payload(), self.app_id)
            payload.pop("webhook_id")
            payload["type"] = 0
            return json_response(payload)
        message = FakeMessage(
            id=self.snowflake(),
            channel_id=channel_id,
            content=body.get("content") or "",
            author_id=self.app_id,
            attachments=files,
            embeds=body.get("embeds") or [],
            components=body.get("components") or [],
        )
        message.pinged = self._pings(message, body.get("allowed_mentions"))
        self.messages[message.id] = message
        if nonce is not None:
            self.nonces[(channel_id, nonce)] = message.id
        payload = message.payload(
            self.guild_of(message.channel_id), self.bot_user.payload(), self.app_id
        )
        if channel_id in self.dm_channels:
            payload.pop("guild_id")
        payload.pop("webhook_id")
        payload["type"] = 0
        return json_response(payload)

    async def _edit_channel_message(self, request: web.Request) -> web.StreamResponse:
        """The bot edits one of its own channel messages (a turn post): any time, no ping."""
        self._authorised(request)
        where = f"PATCH {request.path}"
        channel_id = int(request.match_info["channel"])
        message = self.messages.get(int(request.match_info["message"]))
        if (
            message is None
            or message.deleted
            or message.channel_id != channel_id
            or message.author_id != self.app_id
            or message.interaction_id is not None
        ):
            self.violation("unknown-message", where)
            raise FakeError(404, 10008, "Unknown Message")
        body, files = await self._read_body(request)
        merged = {
            "content": body.get("content", message.content),
            "embeds": body.get("embeds", message.embeds),
            "components": body.get("components", message.components),
            "allowed_mentions": body.get("allowed_mentions"),
        }
        self._reject(message_errors(merged, files, DEFAULT_ATTACHMENT_LIMIT, editing=True), where)
        self._apply_edit(message, body, files)
        payload = message.payload(
            self.guild_of(message.channel_id), self.bot_user.payload(), self.app_id
        )
        payload.pop("webhook_id")
        payload["type"] = 0
        return json_response(payload)

    # ------------------------------------------------------------------ interaction callbacks

    async def _read_body(self, request: web.Request) -> tuple[dict[str, Any], list[FakeAttachment]]:
        if request.content_type == "multipart/form-data":
            reader = await request.multipart()
            payload: dict[str, Any] = {}
            raw_files: dict[int, tuple[str, bytes]] = {}
            async for part in reader:
                name = getattr(part, "name", None) or ""
                data = await part.read()  # type: ignore[union-attr]
                if name == "payload_json":
                    payload = json.loads(data)
                elif name.startswith("files["):
                    index = int(name[6:-1])
                    raw_files[index] = (getattr(part, "filename", None) or "", bytes(data))
                else:
                    self._reject([("multipart", f"unexpected part {name!r}")], request.path)
            declared = (payload.get("data") or payload).get("attachments") or []
            files = []
            for index, (filename, blob) in sorted(raw_files.items()):
                meta: dict[str, Any] = next(
                    (a for a in declared if int(a.get("id", -1)) == index), {}
                )
                files.append(FakeAttachment(filename, blob, meta.get("description")))
            if len(declared) != len(raw_files):
                self._reject(
                    [("attachments", f"{len(raw_files)} files, {len(declared)} declared")],
                    request.path,
                )
            return payload, files
        if request.content_type != "application/json":
            self._reject([("content-type", request.content_type)], request.path)
        return await request.json(), []

    def _record_for(self, token: str, where: str) -> InteractionRecord:
        record = self.by_token.get(token)
        if record is None:
            self.violation("unknown-webhook", where)
            raise FakeError(404, 10015, "Unknown Webhook")
        if asyncio.get_running_loop().time() - record.sent_at > TOKEN_LIFETIME:
            self.violation("expired-token", where)
            raise FakeError(401, 50027, "Invalid Webhook Token")
        return record

    def _new_message(
        self,
        record: InteractionRecord,
        data: dict[str, Any],
        files: list[FakeAttachment],
        flags: int,
    ) -> FakeMessage:
        message = FakeMessage(
            id=self.snowflake(),
            channel_id=record.channel_id,
            content=data.get("content") or "",
            author_id=self.app_id,
            interaction_id=record.id,
            flags=flags,
            owner_id=record.user.id,
            attachments=files,
            embeds=data.get("embeds") or [],
            components=data.get("components") or [],
        )
        message.pinged = self._pings(message, data.get("allowed_mentions"))
        self.messages[message.id] = message
        record.message_ids.append(message.id)
        return message

    def _pings(self, message: FakeMessage, allowed: dict[str, Any] | None) -> set[int]:
        """Who is notified: user mentions in the content that allowed_mentions lets through."""
        if message.ephemeral:
            return set()
        mentioned = {int(m) for m in re.findall(r"<@!?(\d+)>", message.content)}
        if allowed is None:
            return mentioned
        if "users" in (allowed.get("parse") or []):
            return mentioned
        return mentioned & {int(u) for u in allowed.get("users") or []}

    async def _callback(self, request: web.Request) -> web.StreamResponse:
        record = self.interactions.get(int(request.match_info["id"]))
        body, files = await self._read_body(request)
        where = f"callback of interaction {request.match_info['id']}"
        if record is None or record.token != request.match_info["token"]:
            self.violation("unknown-interaction", where)
            raise FakeError(404, 10062, "Unknown interaction")
        now = asyncio.get_running_loop().time()
        if record.acked_at is not None:
            self.violation("double-ack", where)
            raise FakeError(400, 40060, "Interaction has already been acknowledged.")
        if now - record.sent_at > self.ack_deadline:
            self.violation("late-ack", f"{where} after {now - record.sent_at:.2f}s")
            raise FakeError(404, 10062, "Unknown interaction")
        kind = body.get("type")
        data = body.get("data") or {}
        allowed = {2: {4, 5}, 3: {4, 5, 6, 7, 9}, 4: {8}}[record.type]
        if kind not in allowed:
            self._reject(
                [("callback-type", f"type {kind} for an interaction of type {record.type}")],
                where,
            )
        if kind == 8:
            choices = data.get("choices") or []
            errors = []
            if len(choices) > MAX_CHOICES:
                errors.append(("autocomplete-count", f"{len(choices)} choices (max 25)"))
            for choice in choices:
                if not 1 <= len(choice.get("name", "")) <= 100 or _value_errors(
                    choice.get("value")
                ):
                    errors.append(("autocomplete-choice", f"bad choice {choice!r}"))
            self._reject(errors, where)
        elif kind in (4, 7):
            self._reject(message_errors(data, files, record.attachment_limit), where)
        record.acked_at = now
        record.callback_type = kind
        record.callback_data = data
        record.acked.set()
        flags = int(data.get("flags") or 0)
        message: FakeMessage | None = None
        if kind == 4:
            message = self._new_message(record, data, files, flags & EPHEMERAL)
            record.original_id = message.id
        elif kind == 5:
            message = self._new_message(record, {"content": ""}, [], (flags & EPHEMERAL) | LOADING)
            record.original_id = message.id
            record.deferred_ephemeral = bool(flags & EPHEMERAL)
            record.placeholder_pending = True
        elif kind == 7:
            source = record.payload.get("message", {})
            original = self.messages.get(int(source.get("id", 0)))
            if original is not None:
                self._apply_edit(original, data, files)
        if kind in (1, 8) or request.query.get("with_response") != "1":
            return web.Response(status=204)
        response: dict[str, Any] = {
            "interaction": {
                "id": str(record.id),
                "type": record.type,
                "response_message_id": str(message.id) if message else None,
                "response_message_loading": kind == 5,
                "response_message_ephemeral": bool(message and message.ephemeral),
            }
        }
        if message is not None:
            response["resource"] = {
                "type": kind,
                "message": message.payload(
                    self.guild_of(message.channel_id), self.bot_user.payload(), self.app_id
                ),
            }
        return json_response(response)

    # ------------------------------------------------------------------ webhooks

    def _check_app(self, request: web.Request) -> None:
        if int(request.match_info["app"]) != self.app_id:
            self.violation("webhook-app", request.path)
            raise FakeError(404, 10015, "Unknown Webhook")

    async def _followup(self, request: web.Request) -> web.StreamResponse:
        self._check_app(request)
        body, files = await self._read_body(request)
        where = f"follow-up {request.path}"
        record = self._record_for(request.match_info["token"], where)
        if record.acked_at is None:
            self.violation("followup-before-ack", where)
            raise FakeError(404, 10015, "Unknown Webhook")
        if record.type == 4:
            self._reject([("followup", "autocomplete interactions take no follow-ups")], where)
        self._reject(message_errors(body, files, record.attachment_limit), where)
        flags = int(body.get("flags") or 0)
        if record.placeholder_pending and record.original_id is not None:
            # Discord: the first follow-up after a deferral fills the "thinking" message and
            # keeps the deferral's visibility, whatever the follow-up asked for.
            record.placeholder_pending = False
            message = self.messages[record.original_id]
            if flags & EPHEMERAL and not message.ephemeral:
                self.violation(
                    "ephemeral-leak",
                    f"{where}: an ephemeral follow-up filled a public deferral and is shown "
                    f"to everyone: {body.get('content', '')[:80]!r}",
                )
            message.flags &= ~LOADING
            self._apply_edit(message, body, files)
        else:
            message = self._new_message(record, body, files, flags & EPHEMERAL)
        if request.query.get("wait") in ("1", "true", "True"):
            return json_response(
                message.payload(
                    self.guild_of(message.channel_id), self.bot_user.payload(), self.app_id
                )
            )
        return web.Response(status=204)

    def _apply_edit(
        self, message: FakeMessage, data: dict[str, Any], files: list[FakeAttachment]
    ) -> None:
        if "content" in data:
            message.content = data["content"] or ""
        if "embeds" in data:
            message.embeds = data["embeds"] or []
        if "components" in data:
            message.components = data["components"] or []
        if "attachments" in data:
            listed = {str(a.get("id")) for a in data["attachments"] or []}
            kept = [
                a
                for index, a in enumerate(message.attachments)
                if str(message.id * 16 + index) in listed
            ]
            message.attachments = kept + files
        message.flags &= ~LOADING
        message.edits += 1
        message.pinged = self._pings(message, data.get("allowed_mentions"))

    def _target(self, request: web.Request, where: str) -> tuple[InteractionRecord, FakeMessage]:
        self._check_app(request)
        record = self._record_for(request.match_info["token"], where)
        key = request.match_info["message"]
        if record.acked_at is None:
            self.violation("edit-before-ack", where)
            raise FakeError(404, 10008, "Unknown Message")
        message_id = record.original_id if key == "@original" else int(key)
        if message_id is None and key == "@original" and record.type == 3:
            source = record.payload.get("message", {})
            message_id = int(source.get("id", 0))
        message = self.messages.get(message_id or 0)
        if message is None or message.deleted:
            self.violation("unknown-message", where)
            raise FakeError(404, 10008, "Unknown Message")
        return record, message

    async def _get_message(self, request: web.Request) -> web.StreamResponse:
        _, message = self._target(request, f"GET {request.path}")
        return json_response(
            message.payload(self.guild_of(message.channel_id), self.bot_user.payload(), self.app_id)
        )

    async def _edit_message(self, request: web.Request) -> web.StreamResponse:
        where = f"PATCH {request.path}"
        body, files = await self._read_body(request)
        record, message = self._target(request, where)
        merged = {
            "content": body.get("content", message.content),
            "embeds": body.get("embeds", message.embeds),
            "components": body.get("components", message.components),
            "allowed_mentions": body.get("allowed_mentions"),
        }
        self._reject(message_errors(merged, files, record.attachment_limit, editing=True), where)
        if record.original_id == message.id:
            record.placeholder_pending = False
        self._apply_edit(message, body, files)
        return json_response(
            message.payload(self.guild_of(message.channel_id), self.bot_user.payload(), self.app_id)
        )

    async def _delete_message(self, request: web.Request) -> web.StreamResponse:
        record, message = self._target(request, f"DELETE {request.path}")
        message.deleted = True
        if record.original_id == message.id:
            record.placeholder_pending = False
        return web.Response(status=204)
