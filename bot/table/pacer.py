"""The pacing service: everything the scheduler asks of the table, and the catch-up a
returning player sees.

The scheduler only keeps time; each due reminder, deadline, answer window and digest is
decided here and delivered through the outbox it passes in (`bot.delivery.publish` for
steps, so mirrors get them too). All bookkeeping lives in the `nudge` table: each due row is
claimed by a conditional update before anything is sent, so with several processes or after
a restart no reminder goes out twice.
"""

from __future__ import annotations

import json
import logging
from datetime import datetime, timedelta
from typing import Any

from bot.clock import aware
from bot.delivery import ChannelUnavailable, Outbox, publish
from bot.disclosure import public_events, public_texts
from bot.locks import ChannelLocks
from bot.markup import channel_link, mention
from bot.names import role_names, seat_name
from bot.pacing import campaign_settings, quiet_until, remind_after
from bot.replies import Button, Reply, ephemeral
from bot.storage.models import ActionLog, Campaign, Nudge
from bot.storage.outbox import announce_scope
from bot.storage.repo import StepWrite, WaitingUpdate
from bot.table.context import Caller, Loaded, id_of, waiting_line
from bot.table.parts import TableParts
from bot.table.steps import DEFAULT_ANSWER
from engine.core.events import parse_events
from engine.core.words import counted
from engine.registry import get_game

log = logging.getLogger("sortie.pacing")

DIGEST_EVERY = timedelta(days=1)


def system_caller(campaign: Campaign) -> Caller:
    """The scheduler, when it runs a step in a campaign's channel."""
    return Caller("scheduler", "Sortie", campaign.channel_id, campaign.guild_id)


class Pacer:
    def __init__(self, parts: TableParts, locks: ChannelLocks) -> None:
        self.parts = parts
        self.repo = parts.repo
        self.locks = locks

    # ------------------------------------------------------------------ the scheduler's scan

    async def run_due(self, outbox: Outbox) -> int:
        """Handle every due row once; return how many messages were sent."""
        sent = 0
        now = self.parts.clock.now()
        for row in await self.repo.due_nudges(now):
            campaign = await self.repo.get(row.campaign_id)
            if campaign is not None and campaign.status == "paused":
                await self.repo.claim(row, next_due=now + DIGEST_EVERY)  # look again later
                continue
            if campaign is None or campaign.status != "active":
                await self.repo.claim(row, next_due=None, deadline_at=None)
                continue
            try:
                # A step it commits writes a marker its post replaces (`bot.storage.outbox`).
                async with announce_scope(self.repo.db):
                    sent += await self._due(campaign, row, outbox, now)
            except ChannelUnavailable as gone:
                await self.pause(campaign.channel_id, str(gone))
            except Exception:  # one bad campaign must not stop the others' reminders
                log.exception("pacing failed on campaign %s", campaign.id)
        return sent

    async def _due(self, campaign: Campaign, row: Nudge, outbox: Outbox, now: datetime) -> int:
        if row.kind == "digest":
            return await self._digest(campaign, row, outbox)
        if row.kind == "window":
            return await self._window(campaign, row, outbox)
        sent = 0
        if (
            row.deadline_at is not None
            and aware(row.deadline_at) <= now
            and not row.deadline_passed
        ):
            sent += await self._deadline(campaign, row, outbox)
        if row.next_due is not None and aware(row.next_due) <= now:
            sent += await self._remind(campaign, row, outbox)
        return sent

    async def _remind(self, campaign: Campaign, row: Nudge, outbox: Outbox) -> int:
        now = self.parts.clock.now()
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
        waited = span(now - aware(row.waiting_since))
        step = ladder[stage]
        if step == "channel":
            await outbox.post(
                campaign.channel_id,
                Reply(
                    f"{mention(row.user_id)}, the table has been waiting on you for {waited}. "
                    "`/board` shows where things stand.",
                    mentions=[row.user_id],
                ),
            )
            return 1
        if step == "dm" and await outbox.dm(
            row.user_id,
            Reply(
                f"A friendly nudge: your campaign in {channel_link(campaign.channel_id)} has been "
                f"waiting on you for {waited}."
            ),
        ):
            return 1
        await outbox.post(
            campaign.channel_id,
            Reply(
                f"This campaign has been waiting on {mention(row.user_id)} for {waited}. Others "
                "can keep an eye out, or the owner can set a deadline with /campaign settings."
            ),
        )
        return 1

    async def _deadline(self, campaign: Campaign, row: Nudge, outbox: Outbox) -> int:
        if not await self.repo.claim(row, deadline_passed=True):
            return 0
        policy = campaign_settings(campaign).deadline_policy
        seats = [s for s in await self.repo.seats(id_of(campaign)) if s.user_id == row.user_id]
        names = role_names(campaign.game, campaign.scenario)
        roles = ", ".join(seat_name(names, s.role) for s in seats)
        if policy == "autopilot":
            for seat in seats:
                await self.repo.seat_update(seat.id or 0, autopilot=True)
            replies = await self.resume_autopilot(
                campaign.channel_id,
                f"The deadline for {roles} passed: autopilot plays until they return.",
            )
            return max(1, await publish(outbox, campaign.channel_id, replies))
        buttons: list[Button] = []
        if policy == "vote":
            text = (
                f"The deadline for {roles} ({mention(row.user_id)}) has passed. The other "
                "players may vote to skip this turn."
            )
            if seats:
                buttons = [Button("Vote to skip", f"/vote skip:{seats[0].role}", "danger")]
        else:
            text = (
                f"The deadline for {roles} ({mention(row.user_id)}) has passed; "
                "the table keeps waiting."
            )
        await outbox.post(campaign.channel_id, Reply(text, mentions=[row.user_id], buttons=buttons))
        return 1

    async def _window(self, campaign: Campaign, row: Nudge, outbox: Outbox) -> int:
        """A question's answer window closed: its default answer applies."""
        if not await self.repo.claim(row, deadline_at=None):
            return 0
        replies = await self.close_window(id_of(campaign))
        return await publish(outbox, campaign.channel_id, replies)

    async def _digest(self, campaign: Campaign, row: Nudge, outbox: Outbox) -> int:
        now = self.parts.clock.now()
        if not await self.repo.claim(row, next_due=now + DIGEST_EVERY, last_sent=now):
            return 0
        since = now - DIGEST_EVERY
        rows = await self.repo.log_since(id_of(campaign), since)
        texts = [t for r in rows for t in public_texts(parse_events(json.loads(r.events_json)))]
        game = get_game(campaign.game)
        state: Any = game.load(json.loads(campaign.state_json or "{}"))
        names = role_names(campaign.game, campaign.scenario)
        seats = await self.repo.seats(id_of(campaign))
        waiting = waiting_line(game.waiting_on(state), seats, names=names)
        body = "\n".join(f"- {t}" for t in texts[-8:]) or "- a quiet day: no moves."
        await outbox.post(
            campaign.channel_id,
            Reply(
                f"**Daily digest** of campaign #{campaign.id} ({len(rows)} steps today):\n{body}\n"
                + waiting
            ),
        )
        return 1

    # ------------------------------------------------------------------ steps it runs

    async def close_window(self, campaign_id: int) -> list[Reply]:
        """The answer window of a pending question has closed: apply its default."""
        campaign = await self.repo.get(campaign_id)
        if campaign is None:
            return []
        async with self.locks.hold(campaign.channel_id):
            table = await self.parts.loader.playing(campaign.channel_id)
            if table is None:
                return []
            prompt = table.prompt()
            if prompt.default is None or not prompt.seats:
                return []  # answered meanwhile
            role = prompt.seats[0]
            steps = self.parts.steps
            version_before = table.campaign.version
            events = await steps.play_for(table, role, prompt.default, DEFAULT_ANSWER)
            events += await steps.run_autopilot(table)
            caller = system_caller(table.campaign)
            if prompt.private:
                # Asked in private: the open turn post shows the turn going on, no new post.
                outcome = await steps.settled(caller, table, events, "", private_for=role)
                outcome.version_before = version_before
                return await self.parts.presenter.present(outcome)
            if prompt.kind == "vote":  # the rulebook's fallback when players cannot agree
                headline = "The vote's answer window closed without agreement: the default applies."
            else:
                headline = f"No answer from {role} in time: the default applies."
            outcome = await steps.settled(caller, table, events, headline)
            return await self.parts.presenter.present(outcome)

    async def resume_autopilot(self, channel_id: str, headline: str) -> list[Reply]:
        """Let autopilot seats play now (after the scheduler put a seat on autopilot)."""
        async with self.locks.hold(channel_id):
            table = await self.parts.loader.playing(channel_id)
            if table is None:
                return []
            events = await self.parts.steps.run_autopilot(table)
            if not events:
                return [Reply(headline)]
            caller = system_caller(table.campaign)
            outcome = await self.parts.steps.settled(caller, table, events, headline)
            return await self.parts.presenter.present(outcome)

    async def pause(self, channel_id: str, reason: str) -> bool:
        """Pause a campaign whose channel the bot can no longer post in (logged, reversible).

        Reminders stop; the first command in the channel afterwards resumes it.
        """
        async with self.locks.hold(channel_id):
            campaign = await self.repo.live_in_channel(channel_id)
            if campaign is None or campaign.status != "active" or campaign.state_json is None:
                return False
            row = ActionLog(
                campaign_id=id_of(campaign),
                seq=campaign.step + 1,
                kind="pause",
                action_json=json.dumps({"reason": reason[:200]}),
            )
            waiting = WaitingUpdate(now=self.parts.clock.now(), users=set())
            await self.repo.commit_step(
                campaign, StepWrite(campaign.state_json, row, "paused", waiting=waiting)
            )
            log.info("campaign %s paused: %s", campaign.id, reason)
            return True

    # ------------------------------------------------------------------ catching up

    async def catch_up(self, caller: Caller) -> list[Reply]:
        """'Since your last turn': what others did while this player was away."""
        campaign, seats = await self.repo.table(caller.channel_id)
        if campaign is None or campaign.status != "active":
            return []
        mine = [s for s in seats if s.user_id == caller.user_id]
        if not mine:
            return []
        seen = max(s.last_seen_seq for s in mine)
        if seen >= campaign.step:
            return []  # the usual case: their own last step was the table's last
        await self.repo.mark_seen(id_of(campaign), caller.user_id, campaign.step)
        if seen == 0:
            return []
        rows = [
            r
            for r in await self.repo.log(id_of(campaign), after_seq=seen)
            if r.user_id != caller.user_id
        ]
        if not rows:
            return []
        events = [
            e
            for r in rows
            for e in public_events(parse_events(json.loads(r.events_json)))
            if e.text
        ]
        game = get_game(campaign.game)
        table = Loaded(campaign, game, game.load(json.loads(campaign.state_json or "{}")))
        view = game.view(table.state, mine[0].role)
        roles = {s.role for s in mine}
        my_figures = {f.id for f in view.figures if f.seat in roles}
        touching = [
            e.text
            for e in events
            if {getattr(e, "figure", None), getattr(e, "target", None)} & my_figures
        ]
        lines = [e.text for e in events]
        shown = lines[-12:]
        more = (
            f"\n…and {len(lines) - len(shown)} earlier lines (see /log)."
            if len(lines) > len(shown)
            else ""
        )
        yours = ("\n**Your figures:**\n" + "\n".join(touching[-6:])) if touching else ""
        images = await self.parts.pictures.board(view, "focus")
        replies = ephemeral(
            f"**Since your last turn** ({counted(len(rows), 'step')}):\n"
            + "\n".join(shown)
            + more
            + yours
        )
        replies[-1].images.extend(images)
        return replies


def span(delta: timedelta) -> str:
    hours_total = int(delta.total_seconds() // 3600)
    if hours_total >= 48:
        return f"{hours_total // 24} days"
    if hours_total >= 1:
        return f"{hours_total} hour{'s' if hours_total != 1 else ''}"
    return f"{max(1, int(delta.total_seconds() // 60))} minutes"
