"""Bot processes on one PostgreSQL behind the fake Discord, the shards split between them: the
harness the multi-process tests share (start, connect, send a command and wait until it is
settled, restart a shard's process).

Each process runs one shard (SHARD_COUNT=n, SHARD_IDS=[i]); the fake Discord has a guild on
each shard and delivers every interaction to the live process of its guild's shard, as
Discord does. The processes are started through `processes.bot_command` (the Dash game
registered, this checkout's code).
"""

from __future__ import annotations

import asyncio
import signal
import subprocess
import sys
from pathlib import Path

from fake_discord import FakeDiscord, FakeUser, InteractionRecord

from bot.discord.adapter import DELAYED

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from processes import bot_command, clean_env, cli

__all__ = ["Fleet", "cli"]


class Fleet:
    """The fake Discord with a guild per shard, `per_guild` channels in each (each with its
    own two players: on PostgreSQL a player's rate limit is shared by every process), and a
    process per shard."""

    def __init__(
        self,
        tmp: Path,
        url: str,
        shards: int,
        per_guild: int = 2,
        env: dict[str, str] | None = None,
        answer_within: float = 30.0,
    ) -> None:
        self.tmp, self.url, self.shards = tmp, url, shards
        self.extra_env = env or {}
        self.answer_within = answer_within
        self.fake = FakeDiscord()
        self.ann, self.bob = self.fake.add_member("ann"), self.fake.add_member("bob")
        self.guild_of_shard: dict[int, int] = {
            FakeDiscord.shard_of(self.fake.guild_id, shards): self.fake.guild_id
        }
        while len(self.guild_of_shard) < shards:
            guild = self.fake.add_guild()
            self.guild_of_shard.setdefault(FakeDiscord.shard_of(guild, shards), guild)
        self.channels: dict[int, list[int]] = {
            shard: [self.fake.add_channel(f"s{shard}-c{i}", guild=guild) for i in range(per_guild)]
            for shard, guild in sorted(self.guild_of_shard.items())
        }
        self.players: dict[int, tuple[FakeUser, FakeUser]] = {
            channel: (
                self.fake.add_member(f"ann-{self.fake.channels[channel]}"),
                self.fake.add_member(f"bob-{self.fake.channels[channel]}"),
            )
            for channels in self.channels.values()
            for channel in channels
        }
        self.processes: dict[int, subprocess.Popen[bytes]] = {}
        self.log_files: dict[int, Path] = {}
        self.starts = 0
        self.unanswered: list[str] = []  # what went unanswered, for the failure message

    def shard_of_channel(self, channel: int) -> int:
        return next(s for s, channels in self.channels.items() if channel in channels)

    def env(self, shard: int | None = None) -> dict[str, str]:
        """A process's environment (None: the command line's, no Discord)."""
        values = {"DATABASE_URL": self.url, **self.extra_env}
        if shard is not None:
            values |= {
                "DISCORD_TOKEN": self.fake.token,
                "FAKE_DISCORD_URL": self.fake.url,
                "SHARD_COUNT": str(self.shards),
                "SHARD_IDS": f"[{shard}]",
            }
        return clean_env(**values)

    def spawn(self, shard: int, **env: str) -> None:
        """Start the shard's process (again, after one was killed)."""
        self.starts += 1
        home = self.tmp / f"process-{shard}-{self.starts}"
        home.mkdir()
        # Its log goes to a file: a pipe nobody reads would fill up and stop a busy process.
        self.log_files[shard] = home / "stderr.log"
        with self.log_files[shard].open("wb") as log:
            self.processes[shard] = subprocess.Popen(
                bot_command("run"),
                env={**self.env(shard), **env},
                cwd=home,
                stdout=subprocess.DEVNULL,
                stderr=log,
            )

    async def start(self) -> None:
        await self.fake.start()
        for shard in range(self.shards):
            self.spawn(shard)
        await self.connected(self.shards)

    async def connected(self, identifies: int) -> None:
        """Wait for that many gateway identifies, then until each shard answers."""
        for _ in range(1200):
            if len(self.fake.identified_shards) >= identifies and self.fake.commands:
                break
            for shard, process in self.processes.items():
                assert process.poll() is None, (shard, self.log(shard))
            await asyncio.sleep(0.05)
        else:
            raise AssertionError(f"the processes did not connect within 60 s ({identifies})")
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

    def log(self, shard: int) -> str:
        """The end of what the shard's (latest) process logged."""
        return self.log_files[shard].read_text(errors="replace")[-3000:]

    def logs(self) -> dict[int, str]:
        """The end of every process's log (for a failure's message)."""
        return {shard: self.log(shard) for shard in self.processes}

    async def terminate(self, shard: int) -> tuple[int, str]:
        """SIGTERM, as `docker stop` sends: the exit code and the end of the log."""
        process = self.processes[shard]
        process.send_signal(signal.SIGTERM)
        code = await asyncio.to_thread(process.wait, 20)
        return code, self.log(shard)

    async def stop(self) -> None:
        for process in self.processes.values():
            if process.poll() is None:
                process.kill()
                process.wait(10)
        await self.fake.close()

    async def send(
        self, user: FakeUser, channel: int, command: str, **options: str
    ) -> tuple[InteractionRecord | None, bool]:
        """Send a slash command; the interaction, and True once it is settled (see
        `answered`). False when nobody answered in time or the shard's process is gone."""
        posted_before = self.public_activity(channel)
        try:
            record = await self.fake.slash(user, channel, command, **options)
        except RuntimeError:  # nobody serves this guild's shard any more
            return None, False
        process = self.processes[self.shard_of_channel(channel)]
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.answer_within
        while loop.time() < deadline and process.poll() is None:
            if self.answered(record, posted_before):
                return record, True
            await asyncio.sleep(0.05)
        shown = [(m.content[:80], m.loading, m.ephemeral) for m in self.fake.messages_of(record)]
        state = "running" if process.poll() is None else f"exited {process.returncode}"
        if process.poll() is None:
            process.send_signal(signal.SIGUSR1)  # its tasks' stacks, into its log
        self.unanswered.append(f"{command} in {self.fake.channels[channel]} ({state}): {shown}")
        return record, False

    async def run(self, user: FakeUser, channel: int, command: str, **options: str) -> bool:
        """Send a slash command; True once it is settled."""
        return (await self.send(user, channel, command, **options))[1]

    def public_activity(self, channel: int) -> int:
        """How often the bot has posted or edited a public message in `channel` so far."""
        public = [
            m
            for m in self.fake.messages.values()
            if m.channel_id == channel and not m.ephemeral and not m.deleted
        ]
        return len(public) + sum(m.edits for m in public)

    def answered(self, record: InteractionRecord, posted_before: int) -> bool:
        """Settled: a public answer on the interaction; a private one (the channel post, if
        any, was attempted before it: delivered, or the author told it follows); or the
        interaction's "thinking..." note removed once its step's turn post went out."""
        own = [self.fake.messages[i] for i in record.message_ids]
        live = [m for m in own if not m.deleted]
        if any(m.content and not m.loading for m in live):
            return True
        if any(DELAYED in m.content for m in live):
            return True  # committed; its post waits in the outbox
        settled = bool(own) and all(m.deleted or not m.loading for m in own)
        return settled and self.public_activity(record.channel_id) > posted_before
