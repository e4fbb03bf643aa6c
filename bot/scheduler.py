"""Reminders, deadlines and daily digests, driven by a periodic scan of our own tables.

APScheduler only fires `scan()` every interval (in-memory job store, started by the shell).
All state lives in the `nudge` table, written with each step: after a restart nothing is
forgotten, and with several processes each due row is claimed by a conditional update before
anything is sent, so no reminder goes out twice. A reminder whose player acted meanwhile no
longer matches its claim (the step rewrote the row) and is dropped.
"""

from __future__ import annotations

import json
import logging
from datetime import timedelta
from typing import Any, Protocol

from apscheduler.schedulers.asyncio import AsyncIOScheduler

from bot.clock import Clock, aware
from bot.logs import new_request_id
from bot.pacing import campaign_settings, quiet_until, remind_after
from bot.replies import Reply
from bot.storage.models import Campaign, Nudge
from bot.table import TableService, waiting_line
from engine.core.events import parse_events
from engine.registry import get_game

log = logging.getLogger("sortie.scheduler")

DIGEST_EVERY = timedelta(days=1)


class ChannelUnavailable(Exception):
    """The channel is gone or the bot may no longer post there: pause its campaign."""


class Outbox(Protocol):
    """Where the scheduler's messages go: channels and direct messages, never interactions."""

    async def post(self, channel_id: str, reply: Reply) -> None: ...

    async def dm(self, user_id: str, reply: Reply) -> bool:
        """Send a direct message; False when it cannot be delivered."""
        ...


class Scheduler:
    def __init__(self, service: TableService, outbox: Outbox, clock: Clock) -> None:
        self.service = service
        self.repo = service.repo
        self.outbox = outbox
        self.clock = clock
        self._apscheduler: AsyncIOScheduler | None = None

    def start(self, interval_seconds: int = 60) -> None:
        """Fire `scan` periodically on the running event loop."""
        self._apscheduler = AsyncIOScheduler()
        self._apscheduler.add_job(
            self.scan, "interval", seconds=interval_seconds, max_instances=1, coalesce=True
        )
        self._apscheduler.start()

    def shutdown(self) -> None:
        if self._apscheduler is not None:
            self._apscheduler.shutdown(wait=False)
            self._apscheduler = None

    async def scan(self) -> int:
        """Handle every due row once; return how many messages were sent."""
        new_request_id()
        sent = 0
        now = self.clock.now()
        for row in await self.repo.due_nudges(now):
            campaign = await self.repo.get(row.campaign_id)
            if campaign is not None and campaign.status == "paused":
                await self.repo.claim(row, next_due=now + DIGEST_EVERY)  # look again later
                continue
            if campaign is None or campaign.status != "active":
                await self.repo.claim(row, next_due=None, deadline_at=None)
                continue
            try:
                if row.kind == "digest":
                    sent += await self._digest(campaign, row)
                    continue
                if row.kind == "window":
                    sent += await self._window(campaign, row)
                    continue
                if (
                    row.deadline_at is not None
                    and aware(row.deadline_at) <= now
                    and not row.deadline_passed
                ):
                    sent += await self._deadline(campaign, row)
                if row.next_due is not None and aware(row.next_due) <= now:
                    sent += await self._remind(campaign, row)
            except ChannelUnavailable as gone:
                await self.service.pause(campaign.channel_id, str(gone))
            except Exception:  # one bad campaign must not stop the others' reminders
                log.exception("scheduler failed on campaign %s", campaign.id)
        return sent

    async def _remind(self, campaign: Campaign, row: Nudge) -> int:
        now = self.clock.now()
        prefs = await self.repo.prefs(row.user_id)
        quiet_end = quiet_until(prefs, now)
        if quiet_end is not None:
            await self.repo.claim(row, next_due=quiet_end)  # deliver when quiet hours end
            return 0
        interval = remind_after(campaign_settings(campaign), prefs)
        # The ladder: a mention in the channel, a direct message if allowed, then a word to
        # the whole table; after that the reminders stop (a deadline may still apply).
        ladder = ["channel", "dm", "table"] if prefs.dm else ["channel", "table"]
        stage = row.sent_count
        if stage >= len(ladder):
            await self.repo.claim(row, next_due=None)
            return 0
        last = stage == len(ladder) - 1
        next_due = now + interval if interval and not last else None
        if not await self.repo.claim(row, next_due=next_due, last_sent=now, sent_count=stage + 1):
            return 0
        waited = _span(now - aware(row.waiting_since))
        step = ladder[stage]
        if step == "channel":
            await self.outbox.post(
                campaign.channel_id,
                Reply(
                    f"<@{row.user_id}>, the table has been waiting on you for {waited}. "
                    "`/board` shows where things stand.",
                    mentions=[row.user_id],
                ),
            )
            return 1
        if step == "dm" and await self.outbox.dm(
            row.user_id,
            Reply(
                f"A friendly nudge: your campaign in <#{campaign.channel_id}> has been "
                f"waiting on you for {waited}."
            ),
        ):
            return 1
        await self.outbox.post(
            campaign.channel_id,
            Reply(
                f"This campaign has been waiting on <@{row.user_id}> for {waited}. Others can "
                "keep an eye out, or the owner can set a deadline with /campaign settings."
            ),
        )
        return 1

    async def _deadline(self, campaign: Campaign, row: Nudge) -> int:
        if not await self.repo.claim(row, deadline_passed=True):
            return 0
        policy = campaign_settings(campaign).deadline_policy
        seats = [s for s in await self.repo.seats(campaign.id or 0) if s.user_id == row.user_id]
        roles = ", ".join(s.role for s in seats)
        if policy == "autopilot":
            for seat in seats:
                await self.repo.seat_update(seat.id or 0, autopilot=True)
            replies = await self.service.resume_autopilot(
                campaign.channel_id,
                f"The deadline for {roles} passed: autopilot plays until they return.",
            )
            for reply in replies:
                await self.outbox.post(campaign.channel_id, reply)
            return max(1, len(replies))
        if policy == "vote":
            text = (
                f"The deadline for {roles} (<@{row.user_id}>) has passed. The other "
                f"players may skip this turn with `/vote skip:{seats[0].role if seats else ''}`."
            )
        else:
            text = (
                f"The deadline for {roles} (<@{row.user_id}>) has passed; the table keeps waiting."
            )
        await self.outbox.post(campaign.channel_id, Reply(text, mentions=[row.user_id]))
        return 1

    async def _window(self, campaign: Campaign, row: Nudge) -> int:
        """A question's answer window closed: its default answer applies."""
        if not await self.repo.claim(row, deadline_at=None):
            return 0
        replies = await self.service.close_window(campaign.id or 0)
        for reply in replies:
            if not reply.ephemeral:
                await self.outbox.post(campaign.channel_id, reply)
        return sum(1 for r in replies if not r.ephemeral)

    async def _digest(self, campaign: Campaign, row: Nudge) -> int:
        now = self.clock.now()
        if not await self.repo.claim(row, next_due=now + DIGEST_EVERY, last_sent=now):
            return 0
        since = now - DIGEST_EVERY
        rows = await self.repo.log_since(campaign.id or 0, since)
        texts = [
            e.text
            for r in rows
            for e in parse_events(json.loads(r.events_json))
            if e.text and e.visible_for(None)
        ]
        game = get_game(campaign.game)
        state: Any = game.load(json.loads(campaign.state_json or "{}"))
        waiting = waiting_line(game.waiting_on(state), await self.repo.seats(campaign.id or 0))
        body = "\n".join(f"- {t}" for t in texts[-8:]) or "- a quiet day: no moves."
        await self.outbox.post(
            campaign.channel_id,
            Reply(
                f"**Daily digest** of campaign #{campaign.id} ({len(rows)} steps today):\n{body}\n"
                + waiting.replace("<@", "@").replace(">", "")
            ),
        )
        return 1


def _span(delta: timedelta) -> str:
    hours_total = int(delta.total_seconds() // 3600)
    if hours_total >= 48:
        return f"{hours_total // 24} days"
    if hours_total >= 1:
        return f"{hours_total} hour{'s' if hours_total != 1 else ''}"
    return f"{max(1, int(delta.total_seconds() // 60))} minutes"
