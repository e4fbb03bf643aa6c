"""`/campaign mirror` checks the target: the owner may post there, and so may the bot."""

from __future__ import annotations

import asyncio

from discord_harness import Harness
from fake_discord import ATTACH_FILES, SEND_MESSAGES

TIMEOUT = 30


async def test_mirror_targets_are_checked(h: Harness) -> None:
    async with asyncio.timeout(TIMEOUT):
        fake = h.fake
        ann = fake.member("ann")
        table = fake.channel("table")
        created = await h.slash(ann, table, "campaign create", game="dash", scenario="sprint")
        assert "is set up here" in h.said(created)
        # Issue #22: a mirror could point at any channel, posted or not.
        closed, no_files, open_one = (fake.add_channel(n) for n in ("mods", "quiet", "stands"))
        fake.deny_member(closed, ann, SEND_MESSAGES)
        fake.deny_bot(no_files, ATTACH_FILES)
        refused = await h.slash(ann, table, "campaign mirror", channel=closed)
        assert f"You cannot post in <#{closed}> yourself" in h.said(refused, ann)
        refused = await h.slash(ann, table, "campaign mirror", channel=no_files)
        assert "I am missing attach files there" in h.said(refused, ann)
        accepted = await h.slash(ann, table, "campaign mirror", channel=open_one)
        assert f"now mirrored to <#{open_one}>" in h.said(accepted)
        assert h.service is not None
        campaign = await h.service.repo.live_in_channel(str(table))
        assert campaign is not None and str(open_one) in campaign.settings_json
        assert str(closed) not in campaign.settings_json
