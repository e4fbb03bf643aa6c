"""Messages the bot sends on its own (reminders, deadlines, digests): the scheduler's outbox.

Unlike interaction replies these are plain channel messages and direct messages, so they need
the bot's own permissions. Channel messages go through the outbox (`bot.discord.deliverer`).
A channel that refuses (permissions taken away, channel deleted)
raises `ChannelUnavailable`, which pauses its campaign; a user who refuses direct messages is
reported as not reached.
Private replies have no place here: an ephemeral reply is never posted to a channel.
"""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot.delivery import ChannelUnavailable
from bot.discord.adapter import (
    DEFAULT_UPLOAD_LIMIT,
    Outgoing,
    campaign_version,
    outgoing,
)
from bot.replies import Reply
from bot.table import TableService

log = logging.getLogger("sortie.discord")


class DiscordOutbox:
    def __init__(self, client: discord.Client, service: TableService) -> None:
        self.client = client
        self.service = service

    async def post(self, channel_id: str, reply: Reply) -> None:
        """Through the outbox: delivered now, or retried by the worker until Discord takes it
        (a reminder is sent once delivered, never lost to a rate limit or a 5xx)."""
        if reply.ephemeral:
            log.error("refused to post a private reply in channel %s", channel_id)
            return
        version = None
        if reply.buttons:
            version = await campaign_version(self.service, channel_id)
        deliverer = self.client.deliverer  # type: ignore[attr-defined]
        limit = self._upload_limit(channel_id)
        if await deliverer.post(int(channel_id), [reply], limit, version) == "refused":
            raise ChannelUnavailable(
                f"the bot may no longer post in channel {channel_id} (or it is gone)"
            )

    async def dm(self, user_id: str, reply: Reply) -> bool:
        try:
            user = self.client.get_user(int(user_id)) or await self.client.fetch_user(int(user_id))
            for message in await outgoing(reply, DEFAULT_UPLOAD_LIMIT, None):
                await user.send(**_channel_kwargs(message))
        except (discord.Forbidden, discord.NotFound) as refused:
            log.info("no direct message to %s: %s", user_id, refused.text)
            return False
        return True

    def _upload_limit(self, channel_id: str) -> int:
        channel = self.client.get_channel(int(channel_id))
        guild = getattr(channel, "guild", None)
        return int(guild.filesize_limit) if guild is not None else DEFAULT_UPLOAD_LIMIT


def _channel_kwargs(message: Outgoing) -> dict[str, Any]:
    kwargs = message.kwargs()
    kwargs.pop("ephemeral", None)
    return kwargs
