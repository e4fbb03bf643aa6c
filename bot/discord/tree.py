"""The slash command tree, built from `bot.schema`: each command a thin shell over the service.

discord.py reads a command's options from its callback's signature, so each command gets a
callback whose signature is made from its `Spec`; the callback turns the typed options back
into slash text and hands it to the service, exactly as the playground does.
"""

from __future__ import annotations

import inspect
import keyword
import shlex
from collections.abc import Callable, Coroutine
from typing import Any, Optional

import discord
from discord import app_commands

from bot import help_text
from bot.discord.adapter import (
    answer_privately,
    caller_of,
    finished,
    run_command,
    run_text,
    slash_text,
)
from bot.discord.threads import campaign_channel
from bot.markup import mention
from bot.pacing import CAMPAIGN_SETTINGS
from bot.schema import COMMANDS, GROUP_DESCRIPTIONS, Option, Spec
from bot.table import TableService

MAX_CHOICES = 25
MAX_VALUE = 100  # characters in an autocomplete choice's name or value
Completer = Callable[
    [discord.Interaction[Any], str], Coroutine[Any, Any, list[app_commands.Choice[str]]]
]
AppCommand = app_commands.Command[Any, ..., Any] | app_commands.Group
# Channels a post can go to: text, announcement, and the three kinds of thread. Not voice,
# stage, forum or media channels, nor a category (Discord's API refuses some of those in a
# command's channel list, and none of them takes a plain message).
POSTABLE_CHANNELS = (
    discord.ChannelType.text,
    discord.ChannelType.news,
    discord.ChannelType.news_thread,
    discord.ChannelType.public_thread,
    discord.ChannelType.private_thread,
)


class PostableChannel(app_commands.Transformer):
    """A channel option that offers only `POSTABLE_CHANNELS`; the value stays Discord's raw
    channel (only its id is used), so it needs no cache."""

    @property
    def type(self) -> discord.AppCommandOptionType:
        return discord.AppCommandOptionType.channel

    @property
    def channel_types(self) -> list[discord.ChannelType]:
        return list(POSTABLE_CHANNELS)

    async def transform(self, interaction: discord.Interaction[Any], value: Any, /) -> Any:
        if getattr(value, "type", None) not in POSTABLE_CHANNELS:
            raise app_commands.TransformerError(value, discord.AppCommandOptionType.channel, self)
        return value


# What the bot needs in a campaign's channel to post boards and reminders on its own.
CHANNEL_NEEDS = ("view_channel", "attach_files", "embed_links", "read_message_history")
THREAD_TYPES = (
    discord.ChannelType.public_thread,
    discord.ChannelType.private_thread,
    discord.ChannelType.news_thread,
)


def bot_can_post(interaction: discord.Interaction[Any]) -> bool:
    """Refuse, naming each missing permission, when the bot could not post here itself."""
    have = interaction.app_permissions
    channel = interaction.channel
    in_thread = getattr(channel, "type", None) in THREAD_TYPES
    needs = (*CHANNEL_NEEDS, "send_messages_in_threads" if in_thread else "send_messages")
    missing = [name for name in needs if not getattr(have, name)]
    if missing:
        raise app_commands.BotMissingPermissions(missing)
    return True


# ---------------------------------------------------------------------- completion


def _quoted(value: Any) -> str:
    text = str(value)
    return text if text == shlex.quote(text) else shlex.quote(text)


def focused_text(name: str, options: dict[str, Any], focused: str, current: str) -> str:
    """The typed command so far, ending in the option being completed (left open)."""
    parts = [f"/{name}"]
    parts += [f"{k}:{_quoted(v)}" for k, v in options.items() if k != focused and v is not None]
    parts.append(
        f'{focused}:"{current}' if any(c.isspace() for c in current) else f"{focused}:{current}"
    )
    return " ".join(parts)


def completer(service: TableService, path: str, focused: str) -> Completer:
    """Suggestions from the table service, as the playground gets them."""

    async def complete(
        interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        options = {k: v for k, v in interaction.namespace}
        if path == "campaign settings" and focused == "value":
            # Discord's setting/value pair is `<setting>:<value>` in the typed text.
            setting = str(options.get("setting") or "")
            if setting not in CAMPAIGN_SETTINGS:
                return []
            text = focused_text(path, {}, setting, current)
        else:
            text = focused_text(path, options, focused, current)
        here = await campaign_channel(interaction)  # a private thread's: its campaign's
        found = await service.autocomplete(caller_of(interaction, here), text)
        # A value Discord cannot carry back whole (over 100 characters) is left out, not cut.
        fitting = [s for s in found if 0 < len(s.value) <= MAX_VALUE]
        return [
            app_commands.Choice(name=(s.name or s.value)[:MAX_VALUE], value=s.value)
            for s in fitting[:MAX_CHOICES]
        ]

    return complete


def listed(values: Callable[[], list[str]]) -> Completer:
    """Completion from a fixed list the bot knows (no campaign needed)."""

    async def complete(
        interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        typed = current.lower()
        return [app_commands.Choice(name=v, value=v) for v in values() if typed in v.lower()][
            :MAX_CHOICES
        ]

    return complete


def _completer_for(service: TableService, spec: Spec, option: Option) -> Completer | None:
    if option.complete == "help":
        return listed(lambda: list(help_text.TOPICS))
    if spec.path == "campaign settings" and option.name == "setting":
        return listed(lambda: list(CAMPAIGN_SETTINGS))
    if option.complete == "table":
        return completer(service, spec.path, option.name)
    return None


# ---------------------------------------------------------------------- from Discord to text


def text_options(spec: Spec, values: dict[str, Any]) -> dict[str, Any]:
    """An interaction's typed options in the shape of the slash text."""
    if spec.path == "campaign settings":
        setting, value = values.get("setting"), values.get("value")
        return {setting: value} if setting and value is not None else {}
    shown: dict[str, Any] = {}
    for option in spec.options:
        value = values.get(option.name)
        if option.discord_only or value is None:
            continue
        if option.kind == "user":
            value = mention(str(value.id))
        elif option.kind == "channel":
            value = str(value.id)
        shown[option.name] = value
    if spec.path == "campaign create":
        pairs = (token.partition(":")[::2] for token in str(values.get("options") or "").split())
        shown.update(dict(pairs))
    return shown


async def create_in_thread(
    service: TableService, interaction: discord.Interaction[Any], text: str, name: str
) -> None:
    """Open a public thread, set the campaign up there, and point the channel at it."""
    try:
        await _create_in_thread(service, interaction, text, name)
    finally:
        finished(interaction)


async def _create_in_thread(
    service: TableService, interaction: discord.Interaction[Any], text: str, name: str
) -> None:
    channel = interaction.channel
    if not isinstance(channel, discord.TextChannel):
        await answer_privately(
            interaction,
            "A campaign thread can only be opened in a text "
            "channel; run /campaign create without thread here.",
        )
        return
    await interaction.response.defer(ephemeral=True, thinking=True)
    try:
        thread = await channel.create_thread(
            name=name[:100], type=discord.ChannelType.public_thread, auto_archive_duration=10080
        )
    except discord.Forbidden:
        await interaction.followup.send(
            "I may not open threads here (Create Public Threads is missing).", ephemeral=True
        )
        return
    replies = await service.handle(caller_of(interaction, thread.id), text)
    if any(reply.error for reply in replies):
        await thread.delete()
        await interaction.followup.send(replies[0].content, ephemeral=True)
        return
    for reply in replies:
        await thread.send(reply.content, allowed_mentions=discord.AllowedMentions.none())
    await interaction.followup.send(f"Campaign thread opened: {thread.mention}", ephemeral=True)


async def run_spec(
    service: TableService, interaction: discord.Interaction[Any], spec: Spec, values: dict[str, Any]
) -> None:
    """Hand one invoked command to the service."""
    options = text_options(spec, values)
    if spec.path == "campaign create" and values.get("thread"):
        text = slash_text(spec.path, options)
        title = f"{values.get('game')} · {values.get('scenario')}"
        await create_in_thread(service, interaction, text, title)
        return
    # Typed in the player's private thread: the campaign of the channel it belongs to.
    here = await campaign_channel(interaction)
    if spec.path == "campaign create":
        await run_text(service, interaction, slash_text(spec.path, options), channel_id=here)
        return
    await run_command(service, interaction, spec.path, options, spec.defers, here)


# ---------------------------------------------------------------------- the tree


def _python_name(option: Option) -> str:
    name = option.name.replace("-", "_")
    return f"{name}_" if keyword.iskeyword(name) else name


def _annotation(option: Option) -> Any:
    base: Any
    if option.kind == "integer":
        low = option.min_value if option.min_value is not None else -(2**53)
        high = option.max_value if option.max_value is not None else 2**53
        base = app_commands.Range[int, low, high]
    elif option.kind == "boolean":
        base = bool
    elif option.kind == "user":
        base = discord.Member
    elif option.kind == "channel":
        base = app_commands.Transform[Any, PostableChannel]
        return base if option.required else Optional[base]  # noqa: UP045 (a Transform)
    else:
        base = str
    return base if option.required else base | None


def build_command(service: TableService, spec: Spec) -> app_commands.Command[Any, ..., Any]:
    """One slash command whose options, types, help and completion come from `spec`."""
    by_python = {_python_name(o): o for o in spec.options}

    async def callback(interaction: discord.Interaction[Any], **given: Any) -> None:
        values = {by_python[key].name: value for key, value in given.items()}
        await run_spec(service, interaction, spec, values)

    parameters = [
        inspect.Parameter(
            "interaction",
            inspect.Parameter.POSITIONAL_OR_KEYWORD,
            annotation=discord.Interaction,
        )
    ]
    for python_name, option in by_python.items():
        parameters.append(
            inspect.Parameter(
                python_name,
                inspect.Parameter.KEYWORD_ONLY,
                annotation=_annotation(option),
                default=inspect.Parameter.empty if option.required else None,
            )
        )
    callback.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]
    callback.__name__ = callback.__qualname__ = spec.path.replace(" ", "_").replace("-", "_")
    decorated: Any = callback
    if by_python:
        decorated = app_commands.describe(**{p: o.description for p, o in by_python.items()})(
            decorated
        )
    renamed = {p: o.name for p, o in by_python.items() if p != o.name}
    if renamed:
        decorated = app_commands.rename(**renamed)(decorated)
    fixed = {
        p: [app_commands.Choice(name=c.label, value=c.value) for c in o.choices]
        for p, o in by_python.items()
        if o.choices
    }
    if fixed:
        decorated = app_commands.choices(**fixed)(decorated)
    if spec.needs_posting:
        decorated = app_commands.check(bot_can_post)(decorated)
    command: app_commands.Command[Any, ..., Any] = app_commands.Command(
        name=spec.sub or spec.name, description=spec.description, callback=decorated
    )
    for python_name, option in by_python.items():
        complete = _completer_for(service, spec, option)
        if complete is not None:
            command.autocomplete(python_name)(complete)
    return command


def build_tree(service: TableService) -> list[AppCommand]:
    """Every top-level command and group, in the schema's order."""
    groups: dict[str, app_commands.Group] = {}
    top: list[AppCommand] = []
    for spec in COMMANDS:
        command = build_command(service, spec)
        if spec.sub is None:
            top.append(command)
            continue
        group = groups.get(spec.name)
        if group is None:
            group = app_commands.Group(name=spec.name, description=GROUP_DESCRIPTIONS[spec.name])
            groups[spec.name] = group
            top.append(group)
        group.add_command(command)
    return top


def add_commands(tree: app_commands.CommandTree[Any], service: TableService) -> None:
    for command in build_tree(service):
        tree.add_command(command)
