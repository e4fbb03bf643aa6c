"""The discord.py application: sharding-ready bot, command sync, error handling, shutdown."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
from datetime import timedelta
from pathlib import Path
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.config import Settings
from bot.discord.access import DiscordChannelAccess
from bot.discord.adapter import answer_privately, failure_text, finished
from bot.discord.buttons import MenuSelect, TurnButton
from bot.discord.deliverer import Deliverer
from bot.discord.outbox import DiscordOutbox
from bot.discord.threads import PlayerThreads
from bot.discord.tree import add_commands
from bot.health import HEARTBEAT_EVERY, write_heartbeat
from bot.scheduler import Scheduler
from bot.table import TableService

log = logging.getLogger("sortie.discord")


def build_tree_json(tree: app_commands.CommandTree[Any]) -> list[dict[str, Any]]:
    return [command.to_dict(tree) for command in tree.get_commands()]


class SortieBot(commands.AutoShardedBot):
    """Only the default, unprivileged intents: everything arrives as interactions."""

    def __init__(
        self,
        service: TableService,
        settings: Settings,
        state_dir: Path = Path("data"),
        scan_every: int | None = 60,
        **client_options: Any,
    ) -> None:
        sharding: dict[str, Any] = {"shard_count": settings.shard_count}
        if settings.shard_ids is not None:
            sharding["shard_ids"] = settings.shard_ids
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.default(),
            **sharding,
            **client_options,
        )
        self.service = service
        service.set_channel_access(DiscordChannelAccess(self))
        self.settings = settings
        self.state_dir = state_dir
        self.scan_every = scan_every  # seconds between reminder scans; None: do not start
        self.scheduler = Scheduler(service, DiscordOutbox(self, service), service.clock)
        # Every channel post goes through the outbox; its worker retries what Discord refused.
        lease = timedelta(seconds=settings.delivery_lease_seconds)
        self.deliverer = Deliverer(self, service.db, lease=lease, recover=service.late_post)
        self.threads = PlayerThreads(self, service.db)  # each player's private thread
        self._heartbeat: asyncio.Task[None] | None = None
        self.tree.on_error = self.on_tree_error  # type: ignore[method-assign]

    async def setup_hook(self) -> None:
        # The bot's owners (the application's owner or team) get admin rights everywhere.
        app = self.application
        if app is not None and not self.owner_ids:
            members = app.team.members if app.team else [app.owner]
            self.owner_ids = {member.id for member in members}
        add_commands(self.tree, self.service)
        # Buttons outlive the process: any message's turn buttons are routed by custom id.
        self.add_dynamic_items(TurnButton, MenuSelect)
        await self.sync_commands()
        if self.scan_every:
            self.scheduler.start(self.scan_every)
        self._heartbeat = asyncio.create_task(self._beat())
        self.deliverer.start()

    async def _beat(self) -> None:
        """Tell `python -m bot health` (the container's health check) how the gateway is."""
        while not self.is_closed():
            connected = self.is_ready()
            latency = self.latency if connected and self.latency == self.latency else None
            try:
                await asyncio.to_thread(write_heartbeat, self.state_dir, connected, latency)
            except OSError as error:
                log.warning("cannot write the heartbeat: %s", error)
            await asyncio.sleep(HEARTBEAT_EVERY)

    async def close(self) -> None:
        self.scheduler.shutdown()
        await self.deliverer.stop()
        if self._heartbeat is not None:
            self._heartbeat.cancel()
        with contextlib.suppress(OSError):
            write_heartbeat(self.state_dir, False, None)
        await super().close()

    async def sync_commands(self) -> None:
        """Per-guild sync when DEV_GUILD_ID is set (instant); global sync only on change."""
        if self.settings.dev_guild_id:
            guild = discord.Object(self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
            return
        digest = hashlib.sha256(
            json.dumps(build_tree_json(self.tree), sort_keys=True).encode()
        ).hexdigest()
        marker = self.state_dir / "command-tree.sha256"
        if marker.exists() and marker.read_text().strip() == digest:
            log.info("command tree unchanged; skipping global sync")
            return
        await self.tree.sync()
        self.state_dir.mkdir(parents=True, exist_ok=True)
        marker.write_text(digest)

    async def on_tree_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        if isinstance(error, app_commands.BotMissingPermissions):
            names = [p.replace("_", " ") for p in error.missing_permissions]
            message = (
                "I cannot post in this channel on my own: I am missing the permission"
                + ("s " if len(names) > 1 else " ")
                + ", ".join(names)
                + ". Ask a server admin to grant it to me here."
            )
        elif isinstance(error, app_commands.MissingPermissions | app_commands.CheckFailure):
            message = "You do not have permission to use this command here."
        else:
            message = failure_text(error)
        await answer_privately(interaction, message)
        finished(interaction)


async def command_tree_json() -> list[dict[str, Any]]:
    """The command tree as Discord would receive it, built offline."""
    from bot.storage.db import Database

    bot = commands.Bot(command_prefix="!", intents=discord.Intents.default())
    service = TableService(Database("sqlite+aiosqlite:///:memory:"))
    add_commands(bot.tree, service)
    return build_tree_json(bot.tree)
