"""Messages the bot sends on its own (the scheduler's reminders) reach Discord correctly."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from pathlib import Path

import pytest
from discord_harness import Harness
from fake_discord import SEND_MESSAGES, FakeDiscord

from bot.clock import ManualClock
from bot.delivery import ChannelUnavailable
from bot.discord.outbox import DiscordOutbox
from bot.replies import Attachment, Button, Reply
from bot.storage.db import Database

TIMEOUT = 20


async def test_reminders_ping_in_the_channel_then_by_direct_message(
    fake: FakeDiscord, sqlite: Database, tmp_path: Path
) -> None:
    clock = ManualClock()
    h = Harness(fake, sqlite, tmp_path / "state", clock=clock)
    await h.start()
    try:
        async with asyncio.timeout(TIMEOUT):
            table = fake.channel("table")
            ann, bob = fake.member("ann"), fake.member("bob")
            await h.slash(ann, table, "campaign create", game="dash", scenario="sprint")
            await h.slash(ann, table, "campaign join", role="red")
            await h.slash(bob, table, "campaign join", role="blue")
            await h.slash(ann, table, "campaign settings", setting="nudge_hours", value="1")
            await h.slash(bob, table, "prefs", dm="on")
            await h.slash(ann, table, "campaign begin")
            assert h.bot is not None
            clock.advance(timedelta(hours=2))
            assert await h.bot.scheduler.scan() == 2
            # The bot's own channel messages: the create post (its seat buttons make it the
            # bot's own post), the opening turn post, then the reminders.
            nudges = [
                m
                for m in fake.feed(table)
                if m.interaction_id is None
                and "begins" not in m.content
                and "is set up here" not in m.content
            ]
            assert sorted(p for m in nudges for p in m.pinged) == sorted([ann.id, bob.id])
            assert all(len(m.pinged) == 1 for m in nudges)
            clock.advance(timedelta(hours=2))
            assert await h.bot.scheduler.scan() == 2
            direct = [m for m in fake.messages.values() if m.channel_id in fake.dm_channels]
            assert [fake.dm_channels[m.channel_id] for m in direct] == [bob.id]
            assert "waiting on you" in direct[0].content
            # The bot loses the right to post there: the next reminder pauses the campaign.
            fake.deny_bot(table, SEND_MESSAGES)
            clock.advance(timedelta(hours=2))
            await h.bot.scheduler.scan()
            assert h.service is not None
            campaign = await h.service.repo.latest_in_channel(str(table))
            assert campaign is not None and campaign.status == "paused"
    finally:
        await h.stop()
    assert fake.violations == []


async def test_outbox_posts_boards_with_working_buttons_and_respects_refusals(h: Harness) -> None:
    async with asyncio.timeout(TIMEOUT):
        fake, table, lounge = h.fake, h.fake.channel("table"), h.fake.channel("lounge")
        ann, bob = fake.member("ann"), fake.member("bob")
        await h.slash(ann, table, "campaign create", game="dash", scenario="sprint")
        await h.slash(ann, table, "campaign join", role="red")
        await h.slash(bob, table, "campaign join", role="blue")
        await h.slash(ann, table, "campaign begin")
        assert h.bot is not None and h.service is not None
        outbox = DiscordOutbox(h.bot, h.service)
        board = b"\x89PNG not really an image"
        await outbox.post(
            str(table),
            Reply(
                f"<@{ann.id}> <@{bob.id}> the drone stirs.",
                images=[Attachment("board.png", board)],
                mentions=[str(bob.id)],
                buttons=[Button("End turn", "/end-turn", "primary")],
            ),
        )
        posted = [m for m in fake.feed(table) if m.interaction_id is None][-1]
        assert posted.pinged == {bob.id} and posted.attachments and posted.buttons()
        pressed = await h.press(bob, posted, "End turn")
        assert "blue ends the turn" in h.said(pressed)
        await outbox.post(str(table), Reply("secret", ephemeral=True))
        assert "secret" not in [m.content for m in fake.feed(table)]
        fake.deny_bot(lounge, SEND_MESSAGES)
        with pytest.raises(ChannelUnavailable):
            await outbox.post(str(lounge), Reply("hello"))
        assert not fake.feed(lounge)
        fake.dms_closed.add(ann.id)
        assert await outbox.dm(str(ann.id), Reply("psst")) is False
        assert await outbox.dm(str(bob.id), Reply("psst")) is True


async def test_the_schedulers_steps_reach_a_mirror_channel(
    fake: FakeDiscord, sqlite: Database, tmp_path: Path
) -> None:
    """An answer window closing and an autopilot step are copied to the spectators."""
    clock = ManualClock()
    h = Harness(fake, sqlite, tmp_path / "state", clock=clock)
    await h.start()
    try:
        async with asyncio.timeout(TIMEOUT):
            table, stands = fake.channel("table"), fake.add_channel("stands")
            ann, bob = fake.member("ann"), fake.member("bob")
            await h.slash(ann, table, "campaign create", game="dash", scenario="sprint")
            for setting, value in [
                ("window_minutes", "5"),
                ("nudge_hours", "0"),
                ("deadline_hours", "12"),
                ("deadline_policy", "autopilot"),
            ]:
                await h.slash(ann, table, "campaign settings", setting=setting, value=value)
            await h.slash(ann, table, "campaign join", role="red")
            await h.slash(bob, table, "campaign join", role="blue")
            await h.slash(ann, table, "campaign begin")
            await h.slash(ann, table, "campaign mirror", channel=stands)
            await h.slash(ann, table, "act", what="ask")
            assert h.bot is not None
            clock.advance(timedelta(minutes=5))
            assert await h.bot.scheduler.scan() == 1
            copies = [m.content for m in fake.feed(stands)]
            assert any("blue answers no" in c for c in copies), copies
            await h.slash(ann, table, "end-turn")
            clock.advance(timedelta(hours=12))
            await h.bot.scheduler.scan()
            copies = [m.content for m in fake.feed(stands)]
            assert any("Autopilot plays for Blue runner" in c for c in copies), copies
            assert all(not m.pinged and not m.components for m in fake.feed(stands))
    finally:
        await h.stop()
    assert fake.violations == []


async def test_a_reminder_discord_refuses_for_a_while_is_delivered_later_and_once(
    fake: FakeDiscord, sqlite: Database, tmp_path: Path
) -> None:
    """Issue #33, item 4: a reminder is marked sent only once delivered (through the outbox);
    a 429 or a dropped connection no longer loses it, and a resend posts it once."""
    clock = ManualClock()
    h = Harness(fake, sqlite, tmp_path / "state", clock=clock)
    await h.start()
    try:
        async with asyncio.timeout(60):
            table = fake.channel("table")
            ann, bob = fake.member("ann"), fake.member("bob")
            await h.slash(ann, table, "campaign create", game="dash", scenario="sprint")
            await h.slash(ann, table, "campaign join", role="red")
            await h.slash(bob, table, "campaign join", role="blue")
            await h.slash(ann, table, "campaign settings", setting="nudge_hours", value="1")
            await h.slash(ann, table, "campaign begin")
            assert h.bot is not None
            fake.inject_faults(1.0, kinds=("drop", "429"))  # Discord refuses everything
            clock.advance(timedelta(hours=2))
            await h.bot.scheduler.scan()
            assert await h.bot.deliverer.store.pending()  # kept, not lost
            fake.inject_faults(0.0)
            loop = asyncio.get_running_loop()
            deadline = loop.time() + 30
            while await h.bot.deliverer.store.pending():
                assert loop.time() < deadline, "the reminders were never delivered"
                h.bot.deliverer.wake()
                await asyncio.sleep(0.2)
            nudges = [m for m in fake.feed(table) if "waiting on you" in m.content]
            assert sorted(p for m in nudges for p in m.pinged) == sorted([ann.id, bob.id])
            assert sum(fake.faults.values()) > 0
    finally:
        await h.stop()
    assert fake.violations == []
