"""Turn interactions into slash text for the table service, and replies into Discord messages.

Everything here is transport glue: the rules, the checks and the wording live in the service.
"""

from __future__ import annotations

import io
import logging
import shlex
import uuid
from typing import Any

import discord

from bot.replies import Reply
from bot.table import Caller, TableService

log = logging.getLogger("sortie.discord")


def caller_of(interaction: discord.Interaction[Any]) -> Caller:
    permissions = interaction.permissions
    return Caller(
        user_id=str(interaction.user.id),
        user_name=interaction.user.display_name,
        channel_id=str(interaction.channel_id),
        guild_id=str(interaction.guild_id) if interaction.guild_id else None,
        is_admin=bool(permissions and permissions.manage_guild),
    )


def slash_text(name: str, options: dict[str, Any]) -> str:
    """Rebuild the typed command from an interaction's options (quoted when needed)."""
    parts = [f"/{name}"]
    for key, value in options.items():
        if value is None:
            continue
        text = str(value)
        parts.append(f"{key}:{shlex.quote(text) if text != shlex.quote(text) else text}")
    return " ".join(parts)


def to_message_kwargs(reply: Reply, size_limit: int | None = None) -> dict[str, Any]:
    files = [
        discord.File(
            io.BytesIO(image.data),
            filename=image.filename,
            description=image.description[:1024] or None,
        )
        for image in reply.images
        if size_limit is None or len(image.data) <= size_limit
    ]
    kwargs: dict[str, Any] = {
        "content": reply.content or None,
        "ephemeral": reply.ephemeral,
        "allowed_mentions": discord.AllowedMentions(
            everyone=False,
            roles=False,
            users=[discord.Object(int(u)) for u in reply.mentions if u.isdigit()],
        ),
    }
    if files:
        kwargs["files"] = files
    return kwargs


async def send_replies(
    interaction: discord.Interaction[Any], replies: list[Reply], deferred: bool
) -> None:
    limit = getattr(interaction, "attachment_size_limit", None)
    for index, reply in enumerate(replies):
        kwargs = to_message_kwargs(reply, limit)
        if index == 0 and not deferred and not interaction.response.is_done():
            await interaction.response.send_message(**kwargs)
        else:
            await interaction.followup.send(**kwargs)


async def run_command(
    service: TableService,
    interaction: discord.Interaction[Any],
    name: str,
    options: dict[str, Any],
    defer: bool = False,
) -> None:
    """Run one slash command; defer first when the step may render or run an enemy phase."""
    if defer:
        await interaction.response.defer(thinking=True)
    replies = await service.handle(caller_of(interaction), slash_text(name, options))
    if defer and replies and all(r.ephemeral for r in replies):
        # The deferred answer would be public: drop it and answer privately instead.
        await interaction.delete_original_response()
    await send_replies(interaction, replies, deferred=defer)


def error_id() -> str:
    return uuid.uuid4().hex[:8]
