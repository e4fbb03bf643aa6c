"""Who may post where on Discord: the check behind `/campaign mirror`.

A campaign's public steps are copied to its mirror channels, so a mirror must be a text
channel of the campaign's own server where the owner could post those words himself and the
bot can post them with their images.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.table import Caller

NOT_A_CHANNEL = "Name a text channel of this server to mirror to: channel:#spectators."


class DiscordChannelAccess:
    def __init__(self, client: discord.Client) -> None:
        self.client = client

    async def refuses(self, caller: Caller, channel_id: str) -> str | None:
        if not channel_id.isdigit() or len(channel_id) > 20:
            return NOT_A_CHANNEL
        try:
            channel: Any = self.client.get_channel(int(channel_id))
            if channel is None:
                channel = await self.client.fetch_channel(int(channel_id))
        except (discord.NotFound, discord.Forbidden):
            return f"I cannot see <#{channel_id}>: it is gone, or hidden from me."
        guild = getattr(channel, "guild", None)
        if guild is None or str(guild.id) != caller.guild_id:
            return "A campaign can be mirrored only to a channel of its own server."
        if not isinstance(channel, discord.TextChannel | discord.Thread):
            return NOT_A_CHANNEL
        try:
            member = guild.get_member(int(caller.user_id)) or await guild.fetch_member(
                int(caller.user_id)
            )
        except (discord.NotFound, discord.Forbidden, ValueError):
            return "Only a member of this server can choose where its campaigns are mirrored."
        theirs = channel.permissions_for(member)
        if not (theirs.view_channel and theirs.send_messages):
            return (
                f"You cannot post in <#{channel_id}> yourself, so the campaign cannot be "
                "mirrored there."
            )
        mine = channel.permissions_for(guild.me)
        needed = {
            "view channel": mine.view_channel,
            "send messages": mine.send_messages,
            "attach files": mine.attach_files,
        }
        missing = [name for name, granted in needed.items() if not granted]
        if missing:
            return (
                f"I cannot post in <#{channel_id}>: I am missing {', '.join(missing)} there. "
                "Ask a server admin to grant it, or choose another channel."
            )
        return None
