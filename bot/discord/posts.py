"""Turn posts on Discord: a reply with a `post_key` the bot posted before is edited in place.

The table gives each turn post a key (`bot.table.turnposts`); this module remembers which
message of which channel it became, and edits that message when a later reply carries the
same key: new text and image, fresh buttons, and no ping (an edit never notifies anyone on
Discord, and `allowed_mentions` says so too). Only the bot's own channel messages are edited
(an interaction's answer may be edited for 15 minutes only). The map lives in this process:
after a restart, or when another process served the earlier step, the reply is posted as a
new message instead; nothing is lost but one post of the budget.
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from typing import Any

import discord

log = logging.getLogger("sortie.discord")

MAX_REMEMBERED = 5000


class TurnMessages:
    """(channel, key) -> the message id the bot posted for that key."""

    def __init__(self, limit: int = MAX_REMEMBERED) -> None:
        self.limit = limit
        self._ids: OrderedDict[tuple[int, str], int] = OrderedDict()

    def get(self, channel_id: int, key: str) -> int | None:
        return self._ids.get((channel_id, key))

    def remember(self, channel_id: int, key: str, message_id: int) -> None:
        self._ids[(channel_id, key)] = message_id
        self._ids.move_to_end((channel_id, key))
        while len(self._ids) > self.limit:
            self._ids.popitem(last=False)

    def forget(self, channel_id: int, key: str) -> None:
        self._ids.pop((channel_id, key), None)


TURN_MESSAGES = TurnMessages()


async def send_or_edit(
    channel: Any, channel_id: int, key: str, kwargs: dict[str, Any]
) -> discord.Message | None:
    """Edit the message posted under `key` in this channel, else send a new one (and remember
    it when keyed). `kwargs` are a channel send's (content, files, embed, view, mentions)."""
    known = TURN_MESSAGES.get(channel_id, key) if key else None
    if known is not None:
        edit = dict(kwargs)
        edit["attachments"] = edit.pop("files", [])
        edit["allowed_mentions"] = discord.AllowedMentions.none()
        edit.setdefault("view", None)
        if "embed" not in edit:
            edit["embed"] = None
        try:
            await channel.get_partial_message(known).edit(**edit)
            return None
        except discord.NotFound:
            TURN_MESSAGES.forget(channel_id, key)  # deleted meanwhile: post it anew
    sent: discord.Message = await channel.send(**kwargs)
    if key:
        TURN_MESSAGES.remember(channel_id, key, sent.id)
    return sent
