"""A word for one player alone (issue #32, item 8: nobody drops out silently) reaches them as a
Discord direct message, never the channel; a player who takes no direct messages is skipped."""

from __future__ import annotations

import asyncio

from discord_harness import Harness

from bot.discord.adapter import send_direct
from bot.replies import Reply

TIMEOUT = 20


async def test_a_reply_for_one_player_is_a_direct_message(h: Harness) -> None:
    async with asyncio.timeout(TIMEOUT):
        fake, table = h.fake, h.fake.channel("table")
        ann, bob = fake.member("ann"), fake.member("bob")
        assert h.bot is not None
        assert await send_direct(h.bot, Reply("Your last Marine is gone.", dm_to=str(bob.id)))
        direct = [m for m in fake.messages.values() if m.channel_id in fake.dm_channels]
        assert [fake.dm_channels[m.channel_id] for m in direct] == [bob.id]
        assert direct[0].content == "Your last Marine is gone."
        assert not [m for m in fake.feed(table) if "Marine" in m.content]
        fake.dms_closed.add(ann.id)
        assert not await send_direct(h.bot, Reply("psst", dm_to=str(ann.id)))
    assert fake.violations == []
