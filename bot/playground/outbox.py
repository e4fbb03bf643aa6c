"""The scheduler's outbox in the playground: reminders land in the channel feed.

Direct messages go to a per-user channel named `dm-<user>`, which the page can open like any
other channel.
"""

from __future__ import annotations

from dataclasses import replace

from aiohttp import web

from bot.playground.server import deliver, send_direct
from bot.replies import Reply


class PlaygroundOutbox:
    def __init__(self, app: web.Application) -> None:
        self.app = app

    async def post(self, channel_id: str, reply: Reply) -> None:
        deliver(self.app, channel_id, [reply])

    async def dm(self, user_id: str, reply: Reply) -> bool:
        return send_direct(self.app, replace(reply, dm_to=user_id))
