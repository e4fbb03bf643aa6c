"""Persistent buttons under the turn prompt.

A button's custom id carries everything needed to act on it after a restart:
`sortie:<campaign channel id>:<campaign version>:<command key>`. The key names a short, known
command (`end`, `undo`, `board`, ...) or, prefixed with `~`, the command text itself when it is
short enough. A press whose version is not the campaign's current one is refused: the board has
moved on since the button was posted.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from typing import Any, Self

import discord

from bot.discord.adapter import answer_privately, failure_text, finished, run_text
from bot.replies import Button
from bot.table import TableService

log = logging.getLogger("sortie.discord")

PREFIX = "sortie"
TEMPLATE = re.compile(rf"{PREFIX}:(?P<channel>[0-9]+):(?P<version>[0-9]+):(?P<key>\S+)")
MAX_CUSTOM_ID = 100
MAX_BUTTONS = 25  # five rows of five
KEYS: dict[str, str] = {
    "end": "/end-turn",
    "undo": "/undo",
    "board": "/board",
    "mine": "/board for:me",
    "status": "/campaign status",
    "stop": "/campaign end confirm:yes",
}
COMMAND_KEYS = {command: key for key, command in KEYS.items()}
STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}
STALE = (
    "The board has moved on since this button was posted. "
    "Use the buttons under the latest post, or a slash command."
)
ELSEWHERE = "This button belongs to a campaign in another channel."


def key_for(command: str) -> str | None:
    if command in COMMAND_KEYS:
        return COMMAND_KEYS[command]
    text = command.strip()
    if not text.startswith("/") or "~" in text or any(c.isspace() and c != " " for c in text):
        return None
    return "~" + text[1:].replace(" ", "~")


def command_for(key: str) -> str | None:
    if key in KEYS:
        return KEYS[key]
    if key.startswith("~") and len(key) > 1:
        return "/" + key[1:].replace("~", " ")
    return None


def custom_id(channel_id: int, version: int, key: str) -> str:
    return f"{PREFIX}:{channel_id}:{version}:{key}"


class TurnButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=TEMPLATE):
    def __init__(
        self,
        channel_id: int,
        version: int,
        key: str,
        label: str = "",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label[:80] or key, style=style, custom_id=custom_id(channel_id, version, key)
            )
        )
        self.channel_id = channel_id
        self.version = version
        self.key = key

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> Self:
        label = getattr(item, "label", None) or ""
        style = getattr(item, "style", discord.ButtonStyle.secondary)
        return cls(int(match["channel"]), int(match["version"]), match["key"], label, style)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        try:
            await press(service_of(interaction.client), interaction, self)
        except Exception as error:  # answer the player; discord.py would only log it
            await answer_privately(interaction, failure_text(error))
            finished(interaction)


def service_of(client: discord.Client) -> TableService:
    service = getattr(client, "service", None)
    if not isinstance(service, TableService):
        raise RuntimeError("the Discord client carries no table service")
    return service


async def press(
    service: TableService, interaction: discord.Interaction[Any], button: TurnButton
) -> None:
    command = command_for(button.key)
    if command is None or interaction.channel_id != button.channel_id:
        await answer_privately(interaction, ELSEWHERE if command else STALE)
        finished(interaction)
        return
    if await service.campaign_version(str(button.channel_id)) != button.version:
        await answer_privately(interaction, STALE)
        finished(interaction)
        return
    await run_text(
        service,
        interaction,
        command,
        defer=True,
        channel_id=button.channel_id,
        expect_version=button.version,
    )


def turn_view(buttons: Sequence[Button], channel_id: int, version: int) -> discord.ui.View | None:
    """A persistent view of the reply's buttons (those whose command fits a custom id)."""
    view = discord.ui.View(timeout=None)
    for button in buttons[:MAX_BUTTONS]:
        key = key_for(button.command)
        if key is None or len(custom_id(channel_id, version, key)) > MAX_CUSTOM_ID:
            log.warning("button %r does not fit a custom id; left out", button.command)
            continue
        style = STYLES.get(button.style, discord.ButtonStyle.secondary)
        view.add_item(TurnButton(channel_id, version, key, button.label, style))
    return view if view.children else None
