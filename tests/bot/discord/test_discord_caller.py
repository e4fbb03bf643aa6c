"""Who the adapter says is calling: admins are Manage Server holders and the bot's owners."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from bot.discord.adapter import caller_of


def interaction(user_id: int, manage_guild: bool, owners: set[int] | None) -> Any:
    return SimpleNamespace(
        user=SimpleNamespace(id=user_id, display_name=f"user{user_id}"),
        permissions=SimpleNamespace(manage_guild=manage_guild),
        client=SimpleNamespace(owner_ids=owners),
        channel_id=10,
        guild_id=20,
    )


def test_manage_server_or_bot_owner_is_admin() -> None:
    assert caller_of(interaction(1, True, None)).is_admin
    assert caller_of(interaction(42, False, {42})).is_admin
    assert not caller_of(interaction(7, False, {42})).is_admin
    plain = caller_of(interaction(7, False, None))
    assert (plain.user_id, plain.channel_id, plain.guild_id) == ("7", "10", "20")
