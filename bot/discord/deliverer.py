"""The outbox's Discord side: every public post, turn-post edit, mirror copy and reminder the
bot makes on its own is written to the `delivery` table first, then delivered from there.

Delivery happens at once when Discord takes it (the player waits no longer than before), and
otherwise later: a worker in every process retries each channel's rows in order, with backoff,
honouring Discord's `Retry-After`. A row is claimed with a lease, so two processes never send
it at once, and one killed mid-send leaves it to the others when the lease ends. Sends carry
the row's `nonce` with `enforce_nonce`, so a resend after a crash finds the message already
sent instead of posting twice; a turn post's message id is kept in `turn_message`, so any
process edits the same message, and a deleted one is posted anew.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import io
import json
import logging
import random
import secrets
from collections import Counter
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import asdict
from datetime import datetime, timedelta
from typing import Any, Literal

import aiohttp
import discord

from bot.clock import aware
from bot.delivery import mirror_copies
from bot.discord.adapter import GAME_COLOURS, outgoing
from bot.discord.buttons import turn_view
from bot.replies import Button, Menu, MenuEntry, Reply
from bot.storage.db import Database
from bot.storage.models import Delivery, utcnow
from bot.storage.outbox import OutboxStore, announcing

log = logging.getLogger("sortie.delivery")

Outcome = Literal["sent", "later", "refused"]
LEASE = timedelta(seconds=120)  # longer than discord.py's own retries of one request
GIVE_UP_AFTER = timedelta(days=1)
MAX_BACKOFF = 300.0
WORKER_INTERVAL = 2.0
PRUNE_EVERY = 3600.0


def backoff(attempts: int) -> float:
    """Seconds before the next try: doubling from 1 s, at most 5 minutes, with jitter."""
    return min(MAX_BACKOFF, 2.0**attempts) * random.uniform(0.5, 1.0)


def retry_after(error: discord.HTTPException) -> float | None:
    """Discord's own wait, from a rate limit."""
    if isinstance(error, discord.RateLimited):
        return float(error.retry_after)
    if error.status != 429:
        return None
    headers = getattr(error.response, "headers", None) or {}
    try:
        return float(headers.get("Retry-After", ""))
    except ValueError:
        return None


def encode(reply: Reply, messages: Sequence[Any], version: int | None) -> list[dict[str, Any]]:
    """The messages of one reply as the outbox stores them (images inline, buttons by
    command: the view is rebuilt at delivery)."""
    payloads = []
    for index, message in enumerate(messages):
        last = index == len(messages) - 1
        payloads.append(
            {
                "content": message.content,
                "mentions": list(message.mentions),
                "files": [
                    {
                        "filename": f.filename,
                        "data": base64.b64encode(f.data).decode(),
                        "description": f.description,
                    }
                    for f in message.files
                ],
                "colour": message.colour,
                "buttons": [asdict(b) for b in reply.buttons] if last else [],
                "menus": [asdict(m) for m in reply.menus] if last else [],
                "version": version,
            }
        )
    return payloads


def channel_kwargs(channel_id: int, payload: dict[str, Any]) -> dict[str, Any]:
    """A channel send's keyword arguments from a stored payload."""
    files = [
        discord.File(
            io.BytesIO(base64.b64decode(f["data"])),
            filename=f["filename"],
            description=f["description"][:1024] or None,
        )
        for f in payload["files"]
    ]
    kwargs: dict[str, Any] = {
        "content": payload["content"] or None,
        "allowed_mentions": discord.AllowedMentions(
            everyone=False,
            roles=False,
            replied_user=False,
            users=[discord.Object(int(u)) for u in payload["mentions"] if u.isdigit()],
        ),
    }
    if files:
        kwargs["files"] = files
        if payload["colour"] is not None:
            embed = discord.Embed(colour=payload["colour"])
            embed.set_image(url=f"attachment://{payload['files'][-1]['filename']}")
            kwargs["embed"] = embed
    buttons = [Button(**b) for b in payload["buttons"]]
    menus = [
        Menu(m["placeholder"], tuple(MenuEntry(**e) for e in m["entries"]))
        for m in payload["menus"]
    ]
    if (buttons or menus) and payload["version"] is not None:
        view = turn_view(buttons, channel_id, payload["version"], menus)
        if view is not None:
            kwargs["view"] = view
    return kwargs


Recover = Callable[[int, int], Awaitable[list[Reply]]]


async def nothing_to_recover(campaign_id: int, from_seq: int) -> list[Reply]:
    return []


class Deliverer:
    def __init__(
        self,
        client: discord.Client,
        db: Database,
        lease: timedelta = LEASE,
        now: Callable[[], datetime] = utcnow,
        recover: Recover | None = None,
    ) -> None:
        self.client = client
        # Composes a step's post from the database when its process stopped before posting.
        self.recover: Recover = recover or nothing_to_recover
        self.store = OutboxStore(db)
        self.lease = lease
        self.now = now
        # What a fault test reads: calls to Discord, faults met, retries planned, messages
        # sent, edits made, deleted turn posts posted anew, rows given up.
        self.stats: Counter[str] = Counter()
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    # ------------------------------------------------------------------ writing

    async def enqueue(
        self, channel_id: int, replies: Sequence[Reply], limit: int | None, version: int | None
    ) -> list[int]:
        """Write the replies' messages to the outbox; their row ids, in order. The first takes
        the place of the marker its step wrote (see `bot.storage.outbox`)."""
        rows = await self.rows(channel_id, replies, limit, version)
        return await self.store.add(rows, announcing())

    async def rows(
        self, channel_id: int, replies: Sequence[Reply], limit: int | None, version: int | None
    ) -> list[Delivery]:
        """The outbox rows of the replies' messages, in order."""
        rows: list[Delivery] = []
        for reply in replies:
            shown = reply.version if reply.version is not None else version
            messages = await outgoing(reply, limit, None)
            colour = GAME_COLOURS.get(reply.game or "")
            for message in messages:
                message.colour = colour
            for index, payload in enumerate(encode(reply, messages, shown)):
                key = reply.post_key if index == len(messages) - 1 else ""
                rows.append(
                    Delivery(
                        channel_id=str(channel_id),
                        post_key=key,
                        nonce=secrets.token_hex(12),
                        payload_json=json.dumps(payload),
                    )
                )
        return rows

    async def post(
        self, channel_id: int, replies: Sequence[Reply], limit: int | None, version: int | None
    ) -> Outcome:
        """Enqueue and try at once: "sent" when Discord has every message, "later" when the
        worker will finish it, "refused" when the channel will not take it."""
        ids = await self.enqueue(channel_id, replies, limit, version)
        outcomes = await self.deliver_channel(str(channel_id))
        mine = [outcomes.get(i, "later") for i in ids]
        if "refused" in mine:
            return "refused"
        if all(o == "sent" for o in mine):
            return "sent"
        self.wake()
        return "later"

    # ------------------------------------------------------------------ delivering

    async def deliver_channel(self, channel_id: str) -> dict[int, Outcome]:
        """Deliver the channel's due rows in order; stop at the first that must wait (a later
        row never overtakes an earlier one, so an old edit never overwrites a newer)."""
        outcomes: dict[int, Outcome] = {}
        rows = await self.store.pending(channel_id)
        while rows:
            row = rows.pop(0)
            now = self.now()
            if aware(row.next_at) > now:
                break  # waiting out its backoff
            if row.lease_until is not None and aware(row.lease_until) > now:
                break  # another deliverer has it, or its step's process is writing its post
            if not await self.store.claim(row, now, self.lease):
                break
            if row.status == "compose":
                await self.recover_post(row)
                rows = await self.store.pending(channel_id)
                continue
            outcome = await self._attempt(row)
            outcomes[row.id or 0] = outcome
            if outcome == "later":
                break
        return outcomes

    async def recover_post(self, marker: Delivery) -> None:
        """The process that committed a step stopped before writing its post: compose it from
        the database (`recover`) in the marker's place, and its mirrors' copies."""
        payload = json.loads(marker.payload_json)
        replies = await self.recover(int(payload["campaign_id"]), int(payload["from_seq"]))
        public = [reply for reply in replies if not reply.ephemeral]
        channel = int(marker.channel_id)
        rows = await self.rows(channel, public, None, None)
        for mirror, copies in mirror_copies(public).items():
            if mirror.isdigit():
                rows += await self.rows(int(mirror), copies, None, None)
        if rows:
            await self.store.add(rows, marker=marker)
        else:
            await self.store.drop_markers([marker.id or 0], marker.claim)
        self.stats["recovered"] += 1
        log.warning(
            "composed the post of campaign %s from step %s: its process stopped before posting",
            payload["campaign_id"],
            payload["from_seq"],
        )

    async def _attempt(self, row: Delivery) -> Outcome:
        payload = json.loads(row.payload_json)
        channel = self.client.get_partial_messageable(int(row.channel_id))
        try:
            message_id = await self._send_or_edit(channel, row, payload)
        except (discord.Forbidden, discord.NotFound) as refused:
            self.stats["faults"] += 1
            await self.store.failed(row, f"{refused.status} {refused.text}")
            self.stats["refused"] += 1
            log.warning("channel %s refused a post: %s", row.channel_id, refused.text)
            return "refused"
        except discord.HTTPException as error:
            self.stats["faults"] += 1
            if 400 <= error.status < 500 and error.status != 429:
                await self.store.failed(row, f"{error.status} {error.text}")
                self.stats["refused"] += 1
                log.error("Discord refused a post to %s: %s", row.channel_id, error)
                return "refused"
            return await self._later(row, retry_after(error), f"{error.status} {error.text}")
        except (TimeoutError, aiohttp.ClientError, OSError) as error:
            self.stats["faults"] += 1
            return await self._later(row, None, f"{type(error).__name__}: {error}")
        controls = bool(payload.get("buttons") or payload.get("menus"))
        await self.store.sent(row, message_id, controls and payload.get("version") is not None)
        return "sent"

    async def _send_or_edit(self, channel: Any, row: Delivery, payload: dict[str, Any]) -> str:
        if "strip" in payload:
            return await self._strip(channel, str(payload["strip"]))
        kwargs = channel_kwargs(int(row.channel_id), payload)
        known = await self.store.message_for(row.channel_id, row.post_key) if row.post_key else None
        if known is not None:
            edit = dict(kwargs)
            edit["attachments"] = edit.pop("files", [])
            edit["allowed_mentions"] = discord.AllowedMentions.none()  # an edit never pings
            edit.setdefault("view", None)
            edit.setdefault("embed", None)
            self.stats["calls"] += 1
            try:
                await channel.get_partial_message(int(known)).edit(**edit)
                self.stats["edits"] += 1
                return known
            except discord.NotFound:
                # Deleted meanwhile: post it anew (the channel itself answers below).
                self.stats["deleted_posts"] += 1
                await self.store.forget_message(row.channel_id, row.post_key, known)
        self.stats["calls"] += 1
        sent: discord.Message = await channel.send(nonce=row.nonce, **kwargs)
        self.stats["posts"] += 1
        return str(sent.id)

    async def _strip(self, channel: Any, message_id: str) -> str:
        """A superseded post's buttons and menus taken away (its text and board stay)."""
        self.stats["calls"] += 1
        with contextlib.suppress(discord.NotFound):  # deleted meanwhile: nothing to strip
            message = channel.get_partial_message(int(message_id))
            await message.edit(view=None, allowed_mentions=discord.AllowedMentions.none())
        self.stats["stripped"] += 1
        return message_id

    async def _later(self, row: Delivery, wait: float | None, error: str) -> Outcome:
        if self.now() - aware(row.created_at) > GIVE_UP_AFTER:
            await self.store.failed(row, f"gave up after a day: {error}")
            self.stats["given_up"] += 1
            log.error("gave up a post to %s after a day: %s", row.channel_id, error)
            return "refused"
        delay = wait if wait is not None else backoff(row.attempts)
        await self.store.retry_at(row, self.now() + timedelta(seconds=delay), error)
        self.stats["retries"] += 1
        log.info("post to %s delayed %.1f s: %s", row.channel_id, delay, error)
        return "later"

    # ------------------------------------------------------------------ the worker

    def wake(self) -> None:
        self._wake.set()

    def start(self, interval: float = WORKER_INTERVAL) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._run(interval))

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
            self._task = None

    async def sweep(self) -> int:
        """One pass over every channel with due rows; how many rows were delivered."""
        channels = list(dict.fromkeys(row.channel_id for row in await self.store.pending()))
        delivered = 0
        for channel_id in channels:
            outcomes = await self.deliver_channel(channel_id)
            delivered += sum(1 for o in outcomes.values() if o == "sent")
        return delivered

    async def _run(self, interval: float) -> None:
        pruned = 0.0
        loop = asyncio.get_running_loop()
        while True:
            try:
                await self.sweep()
                if loop.time() - pruned > PRUNE_EVERY:
                    await self.store.prune(self.now())
                    pruned = loop.time()
            except Exception:  # the worker must outlive one bad pass
                log.exception("the delivery worker's pass failed")
            self._wake.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), interval)
