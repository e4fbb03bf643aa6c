"""Slash commands as thin shells: each builds the typed command and hands it to the service."""

from __future__ import annotations

import shlex
from collections.abc import Callable, Coroutine
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import help_text
from bot.discord.adapter import (
    answer_privately,
    caller_of,
    finished,
    run_command,
    run_text,
    slash_text,
)
from bot.pacing import CAMPAIGN_SETTINGS, REMINDER_CHOICES
from bot.table import TableService

MAX_CHOICES = 25
MAX_VALUE = 100  # characters in an autocomplete choice's name or value
Completer = Callable[
    [discord.Interaction[Any], str], Coroutine[Any, Any, list[app_commands.Choice[str]]]
]
YES = [app_commands.Choice(name="yes, I am sure", value="yes")]
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


def completer(service: TableService, name: str, focused: str) -> Completer:
    async def complete(
        interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        options = {k: v for k, v in interaction.namespace}
        text = focused_text(name, options, focused, current)
        found = await service.autocomplete(caller_of(interaction), text)
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


class CampaignCog(
    commands.GroupCog,
    group_name="campaign",
    group_description="Create, join and run a campaign in this channel",
):
    def __init__(self, service: TableService) -> None:
        self.service = service
        super().__init__()
        self.create.autocomplete("game")(completer(service, "campaign create", "game"))
        self.create.autocomplete("scenario")(completer(service, "campaign create", "scenario"))
        self.join.autocomplete("role")(completer(service, "campaign join", "role"))
        self.leave.autocomplete("role")(completer(service, "campaign leave", "role"))
        self.seat.autocomplete("role")(completer(service, "campaign seat", "role"))
        self.settings.autocomplete("setting")(listed(lambda: list(CAMPAIGN_SETTINGS)))
        self.settings.autocomplete("value")(self._setting_values)

    @app_commands.command(name="create", description="Set up a mission in this channel")
    @app_commands.describe(
        game="Which game",
        scenario="Which mission",
        options="Extra options as name:value pairs, e.g. difficulty:veteran",
        thread="Open a thread for the campaign and play there",
    )
    @app_commands.check(bot_can_post)
    async def create(
        self,
        interaction: discord.Interaction[Any],
        game: str,
        scenario: str,
        options: str | None = None,
        thread: bool = False,
    ) -> None:
        extra = dict(token.partition(":")[::2] for token in (options or "").split())
        text = slash_text("campaign create", {"game": game, "scenario": scenario, **extra})
        if thread:
            await create_in_thread(self.service, interaction, text, f"{game} · {scenario}")
            return
        await run_text(self.service, interaction, text)

    @app_commands.command(name="join", description="Take a seat in this channel's campaign")
    async def join(self, interaction: discord.Interaction[Any], role: str | None = None) -> None:
        await run_command(self.service, interaction, "campaign join", {"role": role})

    @app_commands.command(name="leave", description="Give up your seat")
    async def leave(self, interaction: discord.Interaction[Any], role: str | None = None) -> None:
        await run_command(self.service, interaction, "campaign leave", {"role": role})

    @app_commands.command(name="begin", description="Start the mission (owner)")
    @app_commands.check(bot_can_post)
    async def begin(self, interaction: discord.Interaction[Any]) -> None:
        await run_command(self.service, interaction, "campaign begin", {}, defer=True)

    @app_commands.command(name="status", description="Seats, and whose turn it is")
    async def status(self, interaction: discord.Interaction[Any]) -> None:
        await run_command(self.service, interaction, "campaign status", {})

    async def _setting_values(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        setting = str(getattr(interaction.namespace, "setting", "") or "")
        if setting not in CAMPAIGN_SETTINGS:
            return []
        text = focused_text("campaign settings", {}, setting, current)
        found = await self.service.autocomplete(caller_of(interaction), text)
        return [app_commands.Choice(name=s.name[:100], value=s.value[:100]) for s in found[:25]]

    @app_commands.command(name="settings", description="Show or change campaign settings")
    @app_commands.describe(
        setting="Which setting to change (leave empty to see them all)", value="Its new value"
    )
    async def settings(
        self,
        interaction: discord.Interaction[Any],
        setting: str | None = None,
        value: str | None = None,
    ) -> None:
        options = {setting: value} if setting and value is not None else {}
        await run_command(self.service, interaction, "campaign settings", options)

    @app_commands.command(name="end", description="End this channel's campaign for good")
    @app_commands.choices(confirm=YES)
    async def end(self, interaction: discord.Interaction[Any], confirm: str | None = None) -> None:
        await run_command(self.service, interaction, "campaign end", {"confirm": confirm})

    @app_commands.command(name="export", description="Download the whole campaign as a file")
    async def export(self, interaction: discord.Interaction[Any]) -> None:
        await run_command(self.service, interaction, "campaign export", {})

    @app_commands.command(name="rollback", description="Return the campaign to an earlier step")
    @app_commands.describe(to="The step number to return to (see /log)")
    @app_commands.choices(confirm=YES)
    async def rollback(
        self,
        interaction: discord.Interaction[Any],
        to: app_commands.Range[int, 1, 1_000_000],
        confirm: str | None = None,
    ) -> None:
        await run_command(
            self.service, interaction, "campaign rollback", {"to": to, "confirm": confirm}, True
        )

    @app_commands.command(name="list", description="Campaigns running on this server")
    async def list_(self, interaction: discord.Interaction[Any]) -> None:
        await run_command(self.service, interaction, "campaign list", {})

    @app_commands.command(name="mirror", description="Follow this campaign in another channel")
    @app_commands.describe(channel="The spectator channel", stop="yes to stop mirroring there")
    @app_commands.choices(stop=YES)
    async def mirror(
        self,
        interaction: discord.Interaction[Any],
        channel: app_commands.AppCommandChannel | None = None,
        stop: str | None = None,
    ) -> None:
        options = {"channel": str(channel.id) if channel else None, "stop": stop}
        await run_command(self.service, interaction, "campaign mirror", options)

    @app_commands.command(name="seat", description="Hand your seat to a player, or take a free one")
    @app_commands.describe(role="The seat", to="Who takes it over (leave out to take it yourself)")
    async def seat(
        self,
        interaction: discord.Interaction[Any],
        role: str,
        to: discord.Member | None = None,
    ) -> None:
        options = {"role": role, "to": f"<@{to.id}>" if to is not None else None}
        await run_command(self.service, interaction, "campaign seat", options)


# Every option of a play verb completes from the player's legal actions.
PLAY_OPTIONS: dict[str, tuple[str, ...]] = {
    "move": ("to", "unit"),
    "attack": ("target", "unit", "weapon", "mode", "target2"),
    "act": ("what", "unit", "target", "to", "weapon", "using", "card", "drop", "discard"),
    "orders": ("order", "unit", "target", "aps", "range", "spin", "weapon"),
    "choose": ("option",),
    "end-turn": ("unit",),
}
UNIT = "Which of your figures (when you have several)"
AUDIENCE = [
    app_commands.Choice(name="everyone", value="all"),
    app_commands.Choice(name="just me", value="me"),
]


class PlayCog(commands.Cog):
    def __init__(self, service: TableService) -> None:
        self.service = service
        commands_by_name = {c.name: c for c in self.get_app_commands()}
        for verb, options in PLAY_OPTIONS.items():
            command = commands_by_name[verb]
            assert isinstance(command, app_commands.Command)
            for option in options:
                command.autocomplete(option)(completer(service, verb, option))
        self.help.autocomplete("topic")(listed(lambda: list(help_text.TOPICS)))
        self.rules.autocomplete("topic")(completer(service, "rules", "topic"))
        self.sheet.autocomplete("unit")(completer(service, "sheet", "unit"))
        self.rules.autocomplete("game")(completer(service, "rules", "game"))

    @app_commands.command(name="move", description="Move one of your figures")
    @app_commands.describe(
        to="Where to (only reachable places are offered)",
        unit=UNIT,
        facing="Which way to face at the end, where the game has facing",
    )
    @app_commands.choices(facing=[app_commands.Choice(name=f, value=f) for f in "NESW"])
    async def move(
        self,
        interaction: discord.Interaction[Any],
        to: str,
        unit: str | None = None,
        facing: str | None = None,
    ) -> None:
        options = {"unit": unit, "to": to, "facing": facing}
        await run_command(self.service, interaction, "move", options, True)

    @app_commands.command(name="attack", description="Attack with one of your figures")
    @app_commands.describe(
        target="Whom to attack (only valid targets are offered)",
        unit=UNIT,
        weapon="Which weapon",
        mode="How to fire, where the weapon allows a choice",
        target2="A second target, for a figure that may attack two at once",
    )
    async def attack(
        self,
        interaction: discord.Interaction[Any],
        target: str,
        unit: str | None = None,
        weapon: str | None = None,
        mode: str | None = None,
        target2: str | None = None,
    ) -> None:
        options = {
            "unit": unit,
            "target": target,
            "weapon": weapon,
            "mode": mode,
            "target2": target2,
        }
        await run_command(self.service, interaction, "attack", options, True)

    @app_commands.command(name="act", description="A special action, ability, card or device")
    @app_commands.describe(
        what="What to do (only usable actions are offered)",
        unit=UNIT,
        target="On whom or what",
        to="Where to",
        weapon="With which weapon",
        using="Paid with which action",
        card="Which card to play",
        drop="What to drop to make room",
        discard="A card discarded to strengthen the one played, where the game allows",
    )
    async def act(
        self,
        interaction: discord.Interaction[Any],
        what: str,
        unit: str | None = None,
        target: str | None = None,
        to: str | None = None,
        weapon: str | None = None,
        using: str | None = None,
        card: str | None = None,
        drop: str | None = None,
        discard: str | None = None,
    ) -> None:
        options = {
            "unit": unit,
            "what": what,
            "target": target,
            "to": to,
            "weapon": weapon,
            "using": using,
            "card": card,
            "drop": drop,
            "discard": discard,
        }
        await run_command(self.service, interaction, "act", options, True)

    @app_commands.command(name="orders", description="Give a standing order such as Guard")
    @app_commands.describe(
        order="Which standing order",
        unit=UNIT,
        target="Aimed at whom or where",
        aps="Action points to hold back",
        range="Up to what range",
        spin="Allow turning on the spot",
        weapon="With which weapon",
    )
    async def orders(
        self,
        interaction: discord.Interaction[Any],
        order: str,
        unit: str | None = None,
        target: str | None = None,
        aps: str | None = None,
        range: str | None = None,
        spin: str | None = None,
        weapon: str | None = None,
    ) -> None:
        options = {
            "unit": unit,
            "order": order,
            "target": target,
            "aps": aps,
            "range": range,
            "spin": spin,
            "weapon": weapon,
        }
        await run_command(self.service, interaction, "orders", options, True)

    @app_commands.command(name="choose", description="Answer the question the game is asking")
    @app_commands.describe(option="Your answer (the possible answers are offered)")
    async def choose(self, interaction: discord.Interaction[Any], option: str) -> None:
        await run_command(self.service, interaction, "choose", {"option": option}, True)

    @app_commands.command(name="end-turn", description="You are done for this turn")
    @app_commands.describe(unit=UNIT)
    async def end_turn(
        self, interaction: discord.Interaction[Any], unit: str | None = None
    ) -> None:
        await run_command(self.service, interaction, "end-turn", {"unit": unit}, True)

    @app_commands.command(name="undo", description="Take back your last action")
    async def undo(self, interaction: discord.Interaction[Any]) -> None:
        await run_command(self.service, interaction, "undo", {}, True)

    @app_commands.command(name="board", description="Show the board")
    @app_commands.describe(view="The whole board, a close-up, or a text grid", for_="Who sees it")
    @app_commands.choices(
        view=[
            app_commands.Choice(name="whole board", value="full"),
            app_commands.Choice(name="close-up around the action", value="focus"),
            app_commands.Choice(name="text (for screen readers)", value="text"),
        ],
        for_=AUDIENCE,
    )
    @app_commands.rename(for_="for")
    async def board(
        self,
        interaction: discord.Interaction[Any],
        view: str | None = None,
        for_: str | None = None,
    ) -> None:
        await run_command(self.service, interaction, "board", {"view": view, "for": for_}, True)

    @app_commands.command(name="sheet", description="A figure's card: profile and state")
    @app_commands.describe(unit="Which figure", for_="Who sees it")
    @app_commands.choices(for_=AUDIENCE)
    @app_commands.rename(for_="for")
    async def sheet(
        self, interaction: discord.Interaction[Any], unit: str, for_: str | None = None
    ) -> None:
        await run_command(self.service, interaction, "sheet", {"unit": unit, "for": for_}, True)

    @app_commands.command(name="log", description="Recent steps of the campaign")
    @app_commands.describe(last="How many steps to show (1 to 50)")
    async def log(
        self,
        interaction: discord.Interaction[Any],
        last: app_commands.Range[int, 1, 50] | None = None,
    ) -> None:
        await run_command(self.service, interaction, "log", {"last": last})

    @app_commands.command(name="rules", description="A short rules reference for this game")
    @app_commands.describe(topic="What to look up", game="Another game than this channel's")
    async def rules(
        self,
        interaction: discord.Interaction[Any],
        topic: str | None = None,
        game: str | None = None,
    ) -> None:
        await run_command(self.service, interaction, "rules", {"topic": topic, "game": game})

    @app_commands.command(name="help", description="How to play Sortie")
    async def help(self, interaction: discord.Interaction[Any], topic: str | None = None) -> None:
        await run_command(self.service, interaction, "help", {"topic": topic})

    @app_commands.command(name="prefs", description="Your reminder preferences, for every campaign")
    @app_commands.describe(
        timezone="Your time zone, e.g. Europe/Paris",
        quiet="Quiet hours as start-end in your time, e.g. 22-7, or off",
        reminders="Hours before a reminder when it is your turn",
        dm="Reminders by direct message",
    )
    @app_commands.choices(
        reminders=[app_commands.Choice(name=c, value=c) for c in REMINDER_CHOICES],
        dm=[
            app_commands.Choice(name="on", value="on"),
            app_commands.Choice(name="off", value="off"),
        ],
    )
    async def prefs(
        self,
        interaction: discord.Interaction[Any],
        timezone: str | None = None,
        quiet: str | None = None,
        reminders: str | None = None,
        dm: str | None = None,
    ) -> None:
        await run_command(
            self.service,
            interaction,
            "prefs",
            {"timezone": timezone, "quiet": quiet, "reminders": reminders, "dm": dm},
        )

    @app_commands.command(name="away", description="Mark yourself away; your seats play safe")
    @app_commands.describe(for_="How long, e.g. 12h or 3d; off when you are back")
    @app_commands.rename(for_="for")
    async def away(self, interaction: discord.Interaction[Any], for_: str) -> None:
        await run_command(self.service, interaction, "away", {"for": for_}, True)

    @app_commands.command(
        name="hand", description="Your private cards, secrets and answers open to you (only you)"
    )
    async def hand(self, interaction: discord.Interaction[Any]) -> None:
        await run_command(self.service, interaction, "hand", {})

    @app_commands.command(name="vote", description="Vote to skip a seat past its deadline")
    @app_commands.describe(skip="The seat to skip")
    async def vote(self, interaction: discord.Interaction[Any], skip: str) -> None:
        await run_command(self.service, interaction, "vote", {"skip": skip}, True)
