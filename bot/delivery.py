"""The one way a campaign's posts leave the service: to its channel, then to its mirrors.

Interaction replies (Discord, playground) and the scheduler's own posts (an answer window
closing, autopilot, deadlines) all copy their public replies to the campaign's spectator
channels through `mirror_copies`, so a spectator sees a step the same whoever caused it.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import replace
from typing import Protocol

from bot.replies import Reply

log = logging.getLogger("sortie.delivery")


class ChannelUnavailable(Exception):
    """The channel is gone or the bot may no longer post there: pause its campaign."""


class Outbox(Protocol):
    """Where the bot's own messages go: channels and direct messages, never interactions."""

    async def post(self, channel_id: str, reply: Reply) -> None: ...

    async def dm(self, user_id: str, reply: Reply) -> bool:
        """Send a direct message; False when it cannot be delivered."""
        ...


def mirror_copies(replies: Sequence[Reply]) -> dict[str, list[Reply]]:
    """For each mirror channel, the public replies it gets: no pings, no buttons."""
    copies: dict[str, list[Reply]] = {}
    for reply in replies:
        if reply.ephemeral or reply.dm_to:
            continue
        for channel_id in reply.mirror_to:
            copies.setdefault(channel_id, []).append(
                replace(reply, mentions=[], buttons=[], mirror_to=[])
            )
    return copies


async def publish(outbox: Outbox, channel_id: str, replies: Sequence[Reply]) -> int:
    """Post the public replies in the campaign's channel, then copy them to its mirrors.

    Returns how many posts reached the campaign's channel. A mirror that cannot be reached is
    skipped (and logged); it never affects the table.
    """
    for reply in replies:
        if reply.dm_to:  # a word for one player: privately, or not at all
            await outbox.dm(reply.dm_to, replace(reply, dm_to=""))
    public = [reply for reply in replies if not reply.ephemeral and not reply.dm_to]
    for reply in public:
        await outbox.post(channel_id, reply)
    for mirror, copies in mirror_copies(public).items():
        try:
            for copy in copies:
                await outbox.post(mirror, copy)
        except ChannelUnavailable as gone:
            log.warning("mirror %s skipped: %s", mirror, gone)
    return len(public)
