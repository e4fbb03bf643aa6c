"""The post budget through the fake Discord: one full round of each game with three seats,
counting the channel's public messages (new ones are posts, edits are not), the users each
new post pings and the images, against the budget in `round_budget`."""

from __future__ import annotations

import asyncio

import pytest
from discord_harness import Harness
from round_budget import ROUNDS, Round, Seen, check_budget, play_round

from bot.commands import parse
from bot.storage.models import Campaign

ROUND_TIMEOUT = 240  # seconds: Reichbusters' random round runs to a couple of hundred steps


class ChannelWatch:
    """The channel as everyone sees it: new public messages, and edits of ones seen before."""

    def __init__(self, h: Harness, channel: int) -> None:
        self.h = h
        self.channel = channel
        self.edits: dict[int, int] = {}

    async def watch(self) -> Seen:
        seen = Seen()
        names = {u.id: u.name for u in self.h.fake.members.values()}
        for message in self.h.fake.feed(self.channel):
            if message.author_id != self.h.fake.app_id:
                continue
            if message.id not in self.edits:
                seen.posts += 1
                seen.images += len(message.attachments)
                seen.pings += [names[u] for u in message.pinged]
            elif message.edits != self.edits[message.id]:
                seen.edits += 1
                seen.images += len(message.attachments)
                seen.edit_pings += len(message.pinged)
            self.edits[message.id] = message.edits
        return seen


@pytest.mark.slow
@pytest.mark.parametrize("case", ROUNDS, ids=[case[0] for case in ROUNDS])
async def test_a_round_through_discord_stays_within_the_post_budget(
    h: Harness, case: Round
) -> None:
    game_key, scenario, roles, options = case
    fake, table = h.fake, h.fake.channel("table")
    players = dict(zip(roles, ("ann", "bob", "eve"), strict=True))

    async def send(user: str, text: str) -> None:
        command = parse(text)
        name = f"{command.name} {command.sub}" if command.sub else command.name
        record = await h.slash(fake.member(user), table, name, **command.options)
        assert "went wrong" not in h.said(record, fake.member(user)), text

    async def latest() -> Campaign:
        assert h.service is not None
        campaign = await h.service.repo.latest_in_channel(str(table))
        assert campaign is not None
        return campaign

    async with asyncio.timeout(ROUND_TIMEOUT):
        extra = " ".join(f"{k}:{v}" for k, v in options.items())
        created = {"game": game_key, "scenario": scenario, "options": extra or None}
        await h.slash(fake.member("ann"), table, "campaign create", **created)
        for role, user in players.items():
            await send(user, f"/campaign join role:{role}")
        await send("ann", "/campaign begin")
        watch = ChannelWatch(h, table)
        tally = await play_round(game_key, roles, players, send, latest, watch.watch)
    print("\ndiscord", tally.line())
    check_budget(tally)
