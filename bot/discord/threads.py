"""A private thread per player in the campaign channel (issue #32, item 12).

An ephemeral reply is gone when the Discord app restarts (a phone does that often). What a
player wants to read again — their hand, the action picker's panels, "since your last turn"
(`Reply.keep`) — goes instead to a private thread of the campaign channel that the bot opens
once per player and adds them to; the interaction answers with a pointer to it.

Discord's needs, checked against the interaction's `app_permissions` before trying:
Start Thread without Message with type 12 (private thread) needs **Create Private Threads**;
Add Thread Member and posting in the thread need **Send Messages in Threads** (and Attach
Files for a board picture). Manage Threads is not needed: the bot made the thread and is in
it. Where the channel is not a plain text channel (a campaign already in a thread) or a
permission is missing, or Discord refuses anyway, the reply stays ephemeral, as before.

A command typed in the thread acts on the campaign of the channel it belongs to, as its
buttons do (`campaign_channel`); it answers there in private, and a step's post still goes
to the campaign channel.
"""

from __future__ import annotations

import logging
from typing import Any, Literal

import discord

from bot.discord.adapter import outgoing
from bot.discord.buttons import thread_parent, turn_view
from bot.replies import Reply
from bot.storage.db import Database
from bot.storage.threads import ThreadStore

log = logging.getLogger("sortie.discord")

PRIVATE_THREAD: Literal[12] = 12  # Discord's channel type of a private thread
WEEK: Literal[10080] = 10080  # minutes before an idle thread is archived (a post revives it)
NEEDS = ("create_private_threads", "send_messages_in_threads")
NAME = "{}'s private table"


def allowed(interaction: discord.Interaction[Any]) -> bool:
    """Whether the bot may keep this player's private thread in the interaction's channel."""
    channel = interaction.channel
    if getattr(channel, "type", None) != discord.ChannelType.text:
        return False
    permissions = interaction.app_permissions
    return all(getattr(permissions, need) for need in NEEDS)


async def campaign_channel(interaction: discord.Interaction[Any]) -> int | None:
    """The channel whose campaign a command acts on when it is typed in the player's own
    private thread (None: the interaction's channel, as everywhere else)."""
    threads = getattr(interaction.client, "threads", None)
    if not isinstance(threads, PlayerThreads):
        return None
    return await threads.parent_of(interaction)


class PlayerThreads:
    def __init__(self, client: discord.Client, db: Database) -> None:
        self.client = client
        self.store = ThreadStore(db)

    async def parent_of(self, interaction: discord.Interaction[Any]) -> int | None:
        """The campaign channel of the interaction's private thread when it is the one the
        bot opened there for this player; None for any other channel or thread."""
        parent = thread_parent(interaction)
        if parent is None or interaction.channel_id is None:
            return None
        mine = await self.store.thread_of(str(parent), str(interaction.user.id))
        return parent if mine == str(interaction.channel_id) else None

    async def post(
        self,
        interaction: discord.Interaction[Any],
        channel_id: int,
        reply: Reply,
        version: int | None,
    ) -> int | None:
        """Post `reply` in the player's private thread of `channel_id`: the thread's id, or
        None when it must stay an ephemeral reply."""
        if not allowed(interaction) and thread_parent(interaction) != channel_id:
            return None
        user = interaction.user
        for _ in range(2):  # a thread deleted meanwhile is opened anew, once
            thread_id = await self._thread(channel_id, user)
            if thread_id is None:
                return None
            try:
                await self._send(thread_id, channel_id, reply, version)
                return thread_id
            except discord.NotFound:
                await self.store.forget(str(channel_id), str(user.id))
            except discord.HTTPException as refused:
                log.info("private thread %s refused a reply: %s", thread_id, refused)
                return None
        return None

    async def _thread(self, channel_id: int, user: discord.abc.User) -> int | None:
        known = await self.store.thread_of(str(channel_id), str(user.id))
        if known is not None:
            return int(known)
        try:
            made = await self.client.http.start_thread_without_message(
                channel_id,
                name=NAME.format(user.display_name)[:100],
                auto_archive_duration=WEEK,
                type=PRIVATE_THREAD,
                invitable=False,
            )
            thread_id = int(made["id"])
            await self.client.http.add_user_to_thread(thread_id, user.id)
        except discord.HTTPException as refused:
            log.info("no private thread in channel %s: %s", channel_id, refused)
            return None
        await self.store.remember(str(channel_id), str(user.id), str(thread_id))
        return thread_id

    async def _send(
        self, thread_id: int, channel_id: int, reply: Reply, version: int | None
    ) -> None:
        """The reply as the bot's messages in the thread; its buttons and menus act on the
        campaign channel, as the ephemeral panel's did."""
        shown = reply.version if reply.version is not None else version
        view = None
        if (reply.buttons or reply.menus) and shown is not None:
            view = turn_view(reply.buttons, channel_id, shown, reply.menus)
        public = Reply(reply.content, images=reply.images, game=reply.game)
        thread = self.client.get_partial_messageable(thread_id)
        for message in await outgoing(public, None, view):
            kwargs = message.kwargs()
            kwargs.pop("ephemeral", None)
            kwargs["allowed_mentions"] = discord.AllowedMentions.none()
            await thread.send(**kwargs)
