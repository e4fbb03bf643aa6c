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

from bot.disclosure import command_verb
from bot.discord.adapter import answer_privately, caller_of, failure_text, finished, run_text
from bot.replies import Button, Menu, Reply
from bot.table import TableService

log = logging.getLogger("sortie.discord")

PREFIX = "sortie"
TEMPLATE = re.compile(rf"{PREFIX}:(?P<channel>[0-9]+):(?P<version>[0-9]+):(?P<key>\S+)")
MAX_CUSTOM_ID = 100
MAX_BUTTONS = 25  # five rows of five
MAX_MENUS = 4  # a select menu fills a row; the fifth row holds the picker's buttons
MAX_OPTIONS = 25
MAX_OPTION_TEXT = 100
MAX_PLACEHOLDER = 150
MENU_PREFIX = "sortie-menu"
MENU_TEMPLATE = re.compile(
    rf"{MENU_PREFIX}:(?P<channel>[0-9]+):(?P<version>[0-9]+):(?P<index>[0-9]+)"
)
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
    await run_chosen(
        service, interaction, command_for(button.key), button.channel_id, button.version
    )


async def run_chosen(
    service: TableService,
    interaction: discord.Interaction[Any],
    command: str | None,
    channel_id: int,
    version: int,
) -> None:
    """A pressed button or a chosen menu entry: the picker's next panel replaces the private
    panel it came from; a complete action is played, then the player's next panel follows."""
    # A panel in the player's private thread acts on the campaign channel it belongs to.
    here = thread_parent(interaction) or interaction.channel_id
    if command is None or here != channel_id:
        await answer_privately(interaction, ELSEWHERE if command else STALE)
        finished(interaction)
        return
    if await service.campaign_version(str(channel_id)) != version:
        await answer_privately(interaction, STALE)
        finished(interaction)
        return
    if command_verb(command) == "pick" and in_private_panel(interaction):
        await show_panel(service, interaction, command, channel_id, version)
        return
    await run_text(
        service,
        interaction,
        command,
        defer=True,
        channel_id=channel_id,
        expect_version=version,
        then="/pick" if in_private_panel(interaction) else None,
    )


def in_private_panel(interaction: discord.Interaction[Any]) -> bool:
    """A panel only its player sees: an ephemeral one, or one in their private thread."""
    message = interaction.message
    if message is None:
        return False
    return message.flags.ephemeral or thread_parent(interaction) is not None


def thread_parent(interaction: discord.Interaction[Any]) -> int | None:
    """The campaign channel whose private thread the interaction came from (None: not in a
    private thread)."""
    channel = interaction.channel
    if getattr(channel, "type", None) != discord.ChannelType.private_thread:
        return None
    parent = getattr(channel, "parent_id", None)
    return int(parent) if parent else None


async def show_panel(
    service: TableService,
    interaction: discord.Interaction[Any],
    command: str,
    channel_id: int,
    version: int,
) -> None:
    """Edit the private panel in place with the picker's next step."""
    try:
        replies = await service.handle(caller_of(interaction, channel_id), command, version)
        panel = replies[0] if len(replies) == 1 else None
        if panel is None or panel.error:
            text = "\n".join(r.content for r in replies) or STALE
            await answer_privately(interaction, text)
            return
        shown = panel.version if panel.version is not None else version
        view = turn_view(panel.buttons, channel_id, shown, panel.menus) or discord.ui.View()
        await interaction.response.edit_message(content=panel.content[:2000], view=view)
    finally:
        finished(interaction)


class MenuSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=MENU_TEMPLATE):
    """A select menu whose option values are command keys (as buttons carry them)."""

    def __init__(
        self,
        channel_id: int,
        version: int,
        index: int,
        menu: Menu | None = None,
    ) -> None:
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=f"{MENU_PREFIX}:{channel_id}:{version}:{index}",
            placeholder=(menu.placeholder[:MAX_PLACEHOLDER] if menu else None),
            options=options_of(menu) if menu else [discord.SelectOption(label="-", value="-")],
        )
        super().__init__(select)
        self.channel_id = channel_id
        self.version = version

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> Self:
        made = cls(int(match["channel"]), int(match["version"]), int(match["index"]))
        made.item.options = list(getattr(item, "options", []) or made.item.options)
        return made

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        try:
            data: Any = interaction.data or {}
            values = data.get("values") or []
            command = command_for(str(values[0])) if values else None
            await run_chosen(
                service_of(interaction.client), interaction, command, self.channel_id, self.version
            )
        except Exception as error:  # answer the player; discord.py would only log it
            await answer_privately(interaction, failure_text(error))
            finished(interaction)


def options_of(menu: Menu) -> list[discord.SelectOption]:
    """A menu's entries whose command fits an option value; the rest are left out (logged)."""
    options = []
    for entry in menu.entries[:MAX_OPTIONS]:
        key = key_for(entry.command)
        if key is None or len(key) > MAX_OPTION_TEXT:
            log.warning("menu entry %r does not fit an option value; left out", entry.command)
            continue
        options.append(
            discord.SelectOption(
                label=entry.label[:MAX_OPTION_TEXT] or key,
                value=key,
                description=entry.description[:MAX_OPTION_TEXT] or None,
            )
        )
    return options


def has_controls(reply: Reply) -> bool:
    return bool(reply.buttons or reply.menus)


def turn_view(
    buttons: Sequence[Button],
    channel_id: int,
    version: int,
    menus: Sequence[Menu] = (),
) -> discord.ui.View | None:
    """A persistent view of the reply's menus and buttons (those whose command fits)."""
    view = discord.ui.View(timeout=None)
    for index, menu in enumerate(menus[:MAX_MENUS]):
        select = MenuSelect(channel_id, version, index, menu)
        if select.item.options:
            view.add_item(select)
    room = MAX_BUTTONS - 5 * len(view.children)
    for button in buttons[:room]:
        key = key_for(button.command)
        if key is None or len(custom_id(channel_id, version, key)) > MAX_CUSTOM_ID:
            log.warning("button %r does not fit a custom id; left out", button.command)
            continue
        style = STYLES.get(button.style, discord.ButtonStyle.secondary)
        view.add_item(TurnButton(channel_id, version, key, button.label, style))
    return view if view.children else None
