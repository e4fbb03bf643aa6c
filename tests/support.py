"""Small helpers shared by the bot tests."""

from __future__ import annotations

from bot.replies import Reply
from bot.table import Caller


def caller(user: str, channel: str = "chan-1", admin: bool = False) -> Caller:
    return Caller(
        user_id=f"id-{user}", user_name=user, channel_id=channel, guild_id="guild-1", is_admin=admin
    )


def text(replies: list[Reply]) -> str:
    return "\n".join(r.content for r in replies)
