"""Two bot processes on one PostgreSQL behind a failing fake Discord (issue #33's fault test):
about 20 % of the bot's channel posts and edits fail (429 with Retry-After, 500, 502, a
dropped connection after the message was made, 404 on a deleted turn post); then Discord
takes nothing from one process's channels, which commits steps it cannot deliver, and that
process is killed between commit and delivery. The other process delivers its outbox: every
committed step's public post arrives, no post is made twice, and `verify` is clean.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from collections import Counter
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from fake_discord import FakeDiscord, FakeUser, InteractionRecord
from sqlmodel import SQLModel, select

from bot.discord.adapter import DELAYED
from bot.storage.db import Database
from bot.storage.models import ActionLog, Campaign, Delivery

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from processes import bot_command, clean_env, cli

pytestmark = pytest.mark.skipif(
    not os.environ.get("TEST_DATABASE_URL"),
    reason="the multi-process test needs PostgreSQL: set TEST_DATABASE_URL (CI sets it)",
)
SHARDS = 2
ANSWER_WITHIN = 40.0
MOVES = 8


class Pair:
    """The fake Discord with a guild per shard, two channels in each, and two processes."""

    def __init__(self, tmp: Path, url: str) -> None:
        self.tmp, self.url = tmp, url
        self.fake = FakeDiscord()
        self.ann, self.bob = self.fake.add_member("ann"), self.fake.add_member("bob")
        self.guild_of_shard = {FakeDiscord.shard_of(self.fake.guild_id, SHARDS): self.fake.guild_id}
        while len(self.guild_of_shard) < SHARDS:
            guild = self.fake.add_guild()
            self.guild_of_shard.setdefault(FakeDiscord.shard_of(guild, SHARDS), guild)
        self.channels = {
            shard: [self.fake.add_channel(f"s{shard}-c{i}", guild=guild) for i in range(2)]
            for shard, guild in self.guild_of_shard.items()
        }
        # Each channel's own players (a player's rate limit is shared by the processes).
        self.players: dict[int, tuple[FakeUser, FakeUser]] = {
            channel: (
                self.fake.add_member(f"ann-{self.fake.channels[channel]}"),
                self.fake.add_member(f"bob-{self.fake.channels[channel]}"),
            )
            for channels in self.channels.values()
            for channel in channels
        }
        self.processes: dict[int, subprocess.Popen[bytes]] = {}
        self.unanswered: list[str] = []

    def env(self, shard: int | None = None) -> dict[str, str]:
        values = {"DATABASE_URL": self.url}
        if shard is not None:
            values |= {
                "DISCORD_TOKEN": self.fake.token,
                "FAKE_DISCORD_URL": self.fake.url,
                "SHARD_COUNT": str(SHARDS),
                "SHARD_IDS": f"[{shard}]",
                "DELIVERY_LEASE_SECONDS": "5",
            }
        return clean_env(**values)

    async def start(self) -> None:
        await self.fake.start()
        for shard in range(SHARDS):
            home = self.tmp / f"process-{shard}"
            home.mkdir()
            self.processes[shard] = subprocess.Popen(
                bot_command("run"),
                env=self.env(shard),
                cwd=home,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
            )
        for _ in range(1200):
            shards = {tuple(s) for s in self.fake.identified_shards if s}
            if len(shards) == SHARDS and self.fake.commands:
                break
            for shard, process in self.processes.items():
                assert process.poll() is None, (shard, process.communicate()[1].decode()[-3000:])
            await asyncio.sleep(0.05)
        else:
            raise AssertionError("the processes did not connect within 60 s")

    async def stop(self) -> None:
        for process in self.processes.values():
            if process.poll() is None:
                process.kill()
                process.wait(10)
        await self.fake.close()

    async def run(self, user: FakeUser, channel: int, command: str, **options: str) -> bool:
        """Send a slash command; True once it is settled: its public answer or turn post is
        out, or its author was told the post follows."""
        posted_before = self.public_activity(channel)
        record = await self.fake.slash(user, channel, command, **options)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + ANSWER_WITHIN
        while loop.time() < deadline:
            if self.answered(record, posted_before):
                return True
            await asyncio.sleep(0.05)
        shown = [(m.content[:80], m.loading, m.ephemeral) for m in self.fake.messages_of(record)]
        self.unanswered.append(f"{command} in {self.fake.channels[channel]}: {shown}")
        return False

    def public_activity(self, channel: int) -> int:
        public = [
            m
            for m in self.fake.messages.values()
            if m.channel_id == channel and not m.ephemeral and not m.deleted
        ]
        return len(public) + sum(m.edits for m in public)

    def answered(self, record: InteractionRecord, posted_before: int) -> bool:
        own = [self.fake.messages[i] for i in record.message_ids]
        live = [m for m in own if not m.deleted]
        if any(m.content and not m.loading and not m.ephemeral for m in live):
            return True
        if any(DELAYED in m.content for m in live):
            return True  # committed; its post waits in the outbox
        settled = bool(own) and all(m.deleted or not m.loading for m in own)
        return settled and self.public_activity(record.channel_id) > posted_before


@pytest.fixture
async def pair(tmp_path: Path) -> AsyncIterator[Pair]:
    url = os.environ["TEST_DATABASE_URL"]
    database = Database(url)
    async with database.engine.begin() as conn:
        await conn.run_sync(SQLModel.metadata.drop_all)
    await database.init()
    await database.close()
    running = Pair(tmp_path, url)
    try:
        await running.start()
        yield running
    finally:
        await running.stop()


async def outbox(url: str) -> list[Delivery]:
    database = Database(url)
    try:
        async with database.session() as session:
            return list((await session.exec(select(Delivery))).all())
    finally:
        await database.close()


async def test_two_processes_deliver_every_post_once_through_faults_and_a_kill(
    pair: Pair,
) -> None:
    fake = pair.fake
    every = [c for channels in pair.channels.values() for c in channels]

    async def set_up(channel: int) -> None:
        ann, bob = pair.players[channel]
        for user, command, options in (
            (ann, "campaign create", {"game": "dash", "scenario": "sprint"}),
            (ann, "campaign join", {"role": "red"}),
            (bob, "campaign join", {"role": "blue"}),
            (ann, "campaign begin", {}),
        ):
            assert await pair.run(user, channel, command, **options), pair.unanswered

    await asyncio.gather(*(set_up(c) for c in every))
    fake.inject_faults(0.2, seed=33)
    settled = Counter[int]()

    async def play(channel: int, moves: int) -> None:
        ann, bob = pair.players[channel]
        for n in range(moves):
            if await pair.run(bob if n % 2 == 0 else ann, channel, "end-turn"):
                settled[channel] += 1

    await asyncio.gather(*(play(c, MOVES) for c in every))
    assert sum(settled.values()) == MOVES * len(every), pair.unanswered
    # Discord now drops every post of the victim's guild after making it: its steps commit,
    # their posts stay in its outbox (or are made without it knowing), and it is killed.
    victim = pair.processes[0]
    fake.inject_faults(1.0, seed=34, kinds=("drop",))
    await asyncio.gather(*(play(c, 2) for c in pair.channels[0]))
    stranded = [
        r
        for r in await outbox(pair.url)
        if r.status == "pending" and int(r.channel_id) in pair.channels[0]
    ]
    assert stranded, "the victim delivered everything before it was killed"
    victim.send_signal(signal.SIGKILL)
    assert victim.wait(10) == -signal.SIGKILL
    fake.inject_faults(0.0)
    # The survivor's worker delivers what the victim left (after the lease, if it held any).
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 90
    while True:
        rows = await outbox(pair.url)
        if all(row.status != "pending" for row in rows):
            break
        assert loop.time() < deadline, Counter(row.status for row in rows)
        await asyncio.sleep(0.5)
    assert Counter(row.status for row in rows) == {"sent": len(rows)}
    # No post was made twice: one message per nonce, and every bot channel post had one.
    assert all(n == 1 for n in Counter(fake.nonces.values()).values())
    posted = [
        m for m in fake.messages.values() if m.interaction_id is None and m.channel_id in every
    ]
    assert len(posted) == len(fake.nonces)
    # Every committed step had its public post delivered, and each interaction acted once.
    database = Database(pair.url)
    try:
        async with database.session() as session:
            for channel in every:
                campaign = (
                    await session.exec(select(Campaign).where(Campaign.channel_id == str(channel)))
                ).one()
                actions = [
                    r
                    for r in (
                        await session.exec(
                            select(ActionLog).where(ActionLog.campaign_id == campaign.id)
                        )
                    ).all()
                    if r.kind == "action"
                ]
                assert len(actions) == settled[channel]
                sent = [r for r in rows if r.channel_id == str(channel)]
                assert len(sent) >= len(actions) + 1  # the opening post, then one per step
    finally:
        await database.close()
    checked = cli("verify", env=pair.env())
    assert checked.returncode == 0 and "4 campaigns checked, 4 reproducible" in checked.stdout
    print(
        f"\ntwo processes: channel calls {fake.channel_calls}, faults injected "
        f"{sum(fake.faults.values())} {dict(fake.faults)}; outbox rows {len(rows)} "
        f"(attempts beyond the first: {sum(r.attempts for r in rows)}); channel messages "
        f"{len(posted)}, edits {sum(m.edits for m in posted)}; steps {sum(settled.values())}; "
        f"rows the killed process left, delivered by the other: {len(stranded)}"
    )
    survivor = pair.processes[1]
    survivor.send_signal(signal.SIGTERM)
    _, err = await asyncio.to_thread(survivor.communicate, timeout=20)
    assert survivor.returncode == 0, err.decode()[-2000:]
    assert [str(v) for v in fake.violations] == []
