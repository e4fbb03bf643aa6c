"""Slash commands as thin shells: each builds the typed command and hands it to the service."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.adapter import caller_of, run_command
from bot.table import TableService


def _focused_text(
    name: str, interaction: discord.Interaction[Any], focused: str, current: str
) -> str:
    options = {k: v for k, v in interaction.namespace if k != focused and v is not None}
    parts = [f"/{name}"] + [f"{k}:{v}" for k, v in options.items()] + [f"{focused}:{current}"]
    return " ".join(parts)


def completer(service: TableService, name: str, focused: str):  # type: ignore[no-untyped-def]
    async def complete(
        interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        text = _focused_text(name, interaction, focused, current)
        found = await service.autocomplete(caller_of(interaction), text)
        return [app_commands.Choice(name=s.name[:100], value=s.value[:100]) for s in found[:25]]

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
        for setting in ("nudge_hours", "deadline_hours", "deadline_policy"):
            self.settings.autocomplete(setting)(completer(service, "campaign settings", setting))

    @app_commands.command(name="create", description="Set up a mission in this channel")
    @app_commands.describe(
        game="Which game",
        scenario="Which mission",
        options="Extra options as name:value pairs, e.g. difficulty:veteran",
    )
    async def create(
        self,
        interaction: discord.Interaction[Any],
        game: str,
        scenario: str,
        options: str | None = None,
    ) -> None:
        extra = dict(token.partition(":")[::2] for token in (options or "").split())
        await run_command(
            self.service,
            interaction,
            "campaign create",
            {"game": game, "scenario": scenario, **extra},
        )

    @app_commands.command(name="join", description="Take a seat in this channel's campaign")
    async def join(self, interaction: discord.Interaction[Any], role: str | None = None) -> None:
        await run_command(self.service, interaction, "campaign join", {"role": role})

    @app_commands.command(name="leave", description="Give up your seat")
    async def leave(self, interaction: discord.Interaction[Any], role: str | None = None) -> None:
        await run_command(self.service, interaction, "campaign leave", {"role": role})

    @app_commands.command(name="begin", description="Start the mission (owner)")
    async def begin(self, interaction: discord.Interaction[Any]) -> None:
        await run_command(self.service, interaction, "campaign begin", {}, defer=True)

    @app_commands.command(name="status", description="Seats, and whose turn it is")
    async def status(self, interaction: discord.Interaction[Any]) -> None:
        await run_command(self.service, interaction, "campaign status", {})

    @app_commands.command(name="settings", description="Show or change campaign settings")
    async def settings(
        self,
        interaction: discord.Interaction[Any],
        nudge_hours: str | None = None,
        deadline_hours: str | None = None,
        deadline_policy: str | None = None,
    ) -> None:
        await run_command(
            self.service,
            interaction,
            "campaign settings",
            {
                "nudge_hours": nudge_hours,
                "deadline_hours": deadline_hours,
                "deadline_policy": deadline_policy,
            },
        )

    @app_commands.command(name="end", description="End this channel's campaign for good")
    async def end(self, interaction: discord.Interaction[Any], confirm: str | None = None) -> None:
        await run_command(self.service, interaction, "campaign end", {"confirm": confirm})

    @app_commands.command(name="list", description="Campaigns running on this server")
    async def list_(self, interaction: discord.Interaction[Any]) -> None:
        await run_command(self.service, interaction, "campaign list", {})


class PlayCog(commands.Cog):
    def __init__(self, service: TableService) -> None:
        self.service = service
        self.move.autocomplete("unit")(completer(service, "move", "unit"))
        self.move.autocomplete("to")(completer(service, "move", "to"))
        self.attack.autocomplete("unit")(completer(service, "attack", "unit"))
        self.attack.autocomplete("target")(completer(service, "attack", "target"))
        self.act.autocomplete("what")(completer(service, "act", "what"))
        self.choose.autocomplete("option")(completer(service, "choose", "option"))
        self.orders.autocomplete("unit")(completer(service, "orders", "unit"))
        self.orders.autocomplete("order")(completer(service, "orders", "order"))

    @app_commands.command(name="move", description="Move one of your figures")
    async def move(
        self, interaction: discord.Interaction[Any], to: str, unit: str | None = None
    ) -> None:
        await run_command(self.service, interaction, "move", {"unit": unit, "to": to}, True)

    @app_commands.command(name="attack", description="Attack with one of your figures")
    async def attack(
        self,
        interaction: discord.Interaction[Any],
        target: str,
        unit: str | None = None,
        weapon: str | None = None,
    ) -> None:
        await run_command(
            self.service,
            interaction,
            "attack",
            {"unit": unit, "target": target, "weapon": weapon},
            True,
        )

    @app_commands.command(name="act", description="A special action, ability, card or device")
    async def act(
        self,
        interaction: discord.Interaction[Any],
        what: str,
        unit: str | None = None,
        target: str | None = None,
    ) -> None:
        await run_command(
            self.service, interaction, "act", {"unit": unit, "what": what, "target": target}, True
        )

    @app_commands.command(name="orders", description="Give a standing order such as Guard")
    @app_commands.describe(order="Which standing order", unit="Which of your figures")
    async def orders(
        self,
        interaction: discord.Interaction[Any],
        order: str,
        unit: str | None = None,
        target: str | None = None,
    ) -> None:
        await run_command(
            self.service,
            interaction,
            "orders",
            {"unit": unit, "order": order, "target": target},
            True,
        )

    @app_commands.command(name="choose", description="Answer the question the game is asking")
    async def choose(self, interaction: discord.Interaction[Any], option: str) -> None:
        await run_command(self.service, interaction, "choose", {"option": option}, True)

    @app_commands.command(name="end-turn", description="You are done for this turn")
    async def end_turn(self, interaction: discord.Interaction[Any]) -> None:
        await run_command(self.service, interaction, "end-turn", {}, True)

    @app_commands.command(name="undo", description="Take back your last action")
    async def undo(self, interaction: discord.Interaction[Any]) -> None:
        await run_command(self.service, interaction, "undo", {}, True)

    @app_commands.command(name="board", description="Show the board")
    @app_commands.choices(
        for_=[
            app_commands.Choice(name="everyone", value="all"),
            app_commands.Choice(name="just me", value="me"),
        ]
    )
    @app_commands.rename(for_="for")
    async def board(self, interaction: discord.Interaction[Any], for_: str | None = None) -> None:
        await run_command(self.service, interaction, "board", {"for": for_}, True)

    @app_commands.command(name="log", description="Recent steps of the campaign")
    async def log(self, interaction: discord.Interaction[Any], last: int | None = None) -> None:
        await run_command(self.service, interaction, "log", {"last": last})

    @app_commands.command(name="help", description="How to play Sortie")
    async def help(self, interaction: discord.Interaction[Any], topic: str | None = None) -> None:
        await run_command(self.service, interaction, "help", {"topic": topic})
