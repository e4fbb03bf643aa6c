"""Three bot processes on one PostgreSQL behind the fake Discord, the shards split between them.

Each process runs one of three shards (SHARD_COUNT=3, SHARD_IDS=[n]); the fake Discord has a
guild on each shard and delivers every interaction to the process of its guild's shard, as
Discord does. Players run campaigns in six channels at once; one process is killed with
SIGKILL in the middle of a burst. The other two keep serving their guilds, every step a player
saw acknowledged is in the database, and `python -m bot verify` replays every campaign.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from fake_discord import FakeDiscord, FakeUser, InteractionRecord
from sqlmodel import SQLModel, select

from bot.storage.db import Database
from bot.storage.models import ActionLog, Campaign

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from processes import bot_command, clean_env, cli

pytestmark = pytest.mark.skipif(
    not os.environ.get("TEST_DATABASE_URL"),
    reason="the multi-process test needs PostgreSQL: set TEST_DATABASE_URL (CI sets it)",
)
SHARDS = 3
ANSWER_WITHIN = 30.0


class Fleet:
    """The fake Discord with a guild per shard, two channels in each, and the processes."""

    def __init__(self, tmp: Path, url: str) -> None:
        self.tmp, self.url = tmp, url
        self.fake = FakeDiscord()
        self.ann, self.bob = self.fake.add_member("ann"), self.fake.add_member("bob")
        self.guild_of_shard: dict[int, int] = {
            FakeDiscord.shard_of(self.fake.guild_id, SHARDS): self.fake.guild_id
        }
        while len(self.guild_of_shard) < SHARDS:
            guild = self.fake.add_guild()
            self.guild_of_shard.setdefault(FakeDiscord.shard_of(guild, SHARDS), guild)
        self.channels: dict[int, list[int]] = {
            shard: [self.fake.add_channel(f"s{shard}-c{i}", guild=guild) for i in range(2)]
            for shard, guild in self.guild_of_shard.items()
        }
        # Each channel's own two players: on PostgreSQL a player's rate limit is shared by
        # every process, so one pair of players in six busy channels would be held back.
        self.players: dict[int, tuple[FakeUser, FakeUser]] = {
            channel: (
                self.fake.add_member(f"ann-{self.fake.channels[channel]}"),
                self.fake.add_member(f"bob-{self.fake.channels[channel]}"),
            )
            for channels in self.channels.values()
            for channel in channels
        }
        self.processes: dict[int, subprocess.Popen[bytes]] = {}
        self.unanswered: list[str] = []  # what went unanswered, for the failure message

    def env(self, shard: int | None = None) -> dict[str, str]:
        # Ann owns every campaign here: more than a player's default cap.
        values = {"DATABASE_URL": self.url, "MAX_CAMPAIGNS_PER_USER": "10"}
        if shard is not None:
            values |= {
                "DISCORD_TOKEN": self.fake.token,
                "FAKE_DISCORD_URL": self.fake.url,
                "SHARD_COUNT": str(SHARDS),
                "SHARD_IDS": f"[{shard}]",
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
            raise AssertionError("the three processes did not connect within 60 s")
        await asyncio.gather(*(self.answering(channels[0]) for channels in self.channels.values()))

    async def answering(self, channel: int) -> None:
        """Wait until the process of this channel's shard answers (a busy machine is slow)."""
        for _ in range(30):
            try:  # a shard reconnecting (missed heartbeats on a loaded machine) has no socket
                record = await self.fake.slash(self.ann, channel, "help")
            except RuntimeError:
                await asyncio.sleep(2.0)
                continue
            try:
                await asyncio.wait_for(record.acked.wait(), 2.0)
                return
            except TimeoutError:
                continue
        raise AssertionError(f"nobody answers in channel {channel}")

    async def stop(self) -> None:
        for process in self.processes.values():
            if process.poll() is None:
                process.kill()
                process.wait(10)
        await self.fake.close()

    async def run(self, user: FakeUser, channel: int, command: str, **options: str) -> bool:
        """Send a slash command; True once its public answer has been posted."""
        posted_before = self.public_activity(channel)
        try:
            record = await self.fake.slash(user, channel, command, **options)
        except RuntimeError:  # nobody serves this guild's shard any more
            return False
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
        """How often the bot has posted or edited a public message in `channel` so far."""
        public = [
            m
            for m in self.fake.messages.values()
            if m.channel_id == channel and not m.ephemeral and not m.deleted
        ]
        return len(public) + sum(m.edits for m in public)

    def answered(self, record: InteractionRecord, posted_before: int) -> bool:
        """A public answer on the interaction, or a step whose outcome went to the channel as
        the bot's turn post (posted or edited) once the interaction itself was settled: its
        "thinking..." note removed or replaced by a private line (a catch-up). A refusal
        settles the interaction too, but changes nothing in the channel."""
        own = [self.fake.messages[i] for i in record.message_ids]
        if any(m.content and not m.loading and not m.ephemeral for m in own if not m.deleted):
            return True
        settled = bool(own) and all(m.deleted or not m.loading for m in own)
        return settled and self.public_activity(record.channel_id) > posted_before


@pytest.fixture
async def fleet(tmp_path: Path) -> AsyncIterator[Fleet]:
    url = os.environ["TEST_DATABASE_URL"]
    database = Database(url)
    async with database.engine.begin() as conn:
        await conn.run_sync(SQLModel.metadata.drop_all)
    await database.init()
    await database.close()
    running = Fleet(tmp_path, url)
    try:
        await running.start()
        yield running
    finally:
        await running.stop()


async def test_three_processes_share_the_work_and_survive_losing_one(fleet: Fleet) -> None:
    every = [c for channels in fleet.channels.values() for c in channels]

    async def set_up(channel: int) -> None:
        ann, bob = fleet.players[channel]
        for user, command, options in (
            (ann, "campaign create", {"game": "dash", "scenario": "sprint"}),
            (ann, "campaign join", {"role": "red"}),
            (bob, "campaign join", {"role": "blue"}),
            (ann, "campaign begin", {}),
        ):
            assert await fleet.run(user, channel, command, **options), fleet.unanswered

    await asyncio.gather(*(set_up(c) for c in every))
    acknowledged = {c: 0 for c in every}
    victim = fleet.processes[0]

    async def burst(channel: int, moves: int) -> None:
        ann, bob = fleet.players[channel]
        for n in range(moves):
            # A step answered in public (an /act is answered privately: its options may name
            # a hidden card), so the fake sees its acknowledgement on the interaction.
            if await fleet.run(ann if n % 2 else bob, channel, "end-turn"):
                acknowledged[channel] += 1
                if sum(acknowledged.values()) == 8 and victim.poll() is None:
                    victim.send_signal(signal.SIGKILL)  # mid-burst: other moves are in flight

    await asyncio.gather(*(burst(c, 6) for c in every))
    assert victim.poll() is not None, (
        f"only {sum(acknowledged.values())} of 36 commands were answered in time, so the "
        f"process was never killed: {fleet.unanswered}"
    )
    assert victim.wait(10) == -signal.SIGKILL
    # The surviving processes keep serving their guilds.
    survivors = [c for shard in (1, 2) for c in fleet.channels[shard]]
    before = dict(acknowledged)
    await asyncio.gather(*(burst(c, 2) for c in survivors))
    assert all(acknowledged[c] == before[c] + 2 for c in survivors), fleet.unanswered
    # Each process served only its own shard's guild: work was split, not duplicated.
    served = {
        shard: sum(acknowledged[c] for c in fleet.channels[shard]) for shard in fleet.channels
    }
    assert all(served[shard] > 0 for shard in (1, 2))
    # Nothing acknowledged is lost, and every campaign replays.
    database = Database(fleet.url)
    try:
        async with database.session() as session:
            for channel in every:
                campaign = (
                    await session.exec(select(Campaign).where(Campaign.channel_id == str(channel)))
                ).one()
                rows = (
                    await session.exec(
                        select(ActionLog).where(ActionLog.campaign_id == campaign.id)
                    )
                ).all()
                seqs = sorted(r.seq for r in rows)
                assert seqs == list(range(1, len(seqs) + 1))
                assert sum(1 for r in rows if r.kind == "action") >= acknowledged[channel]
    finally:
        await database.close()
    checked = cli("verify", env=fleet.env())
    assert checked.returncode == 0 and "6 campaigns checked, 6 reproducible" in checked.stdout
    for shard in (1, 2):
        process = fleet.processes[shard]
        process.send_signal(signal.SIGTERM)
        _, err = await asyncio.to_thread(process.communicate, timeout=20)
        assert process.returncode == 0, err.decode()[-2000:]
    assert [str(v) for v in fleet.fake.violations] == []
