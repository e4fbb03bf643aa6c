"""`TableService`: the transport-free entry point the Discord adapter and the playground call.

One command at a time per channel: parse, check the button's version, show a returning player
what they missed, then run the command.
"""

from __future__ import annotations

import json
import time

from bot import help_text
from bot.commands import PLAY_VERBS, Command, CommandError, parse
from bot.logs import new_request_id
from bot.replay import canonical, replay
from bot.replies import Reply, refusal
from bot.storage.db import ChannelLockTimeout
from bot.storage.repo import TableChanged
from bot.table.archives import ArchiveCommands
from bot.table.autocomplete import AutocompleteCommands
from bot.table.campaigns import CampaignCommands
from bot.table.core import (
    CATCH_UP_ON,
    Caller,
    UserError,
    id_of,
    log,
)
from bot.table.pace import PaceCommands
from bot.table.play import PlayCommands
from engine.core.errors import RuleError
from engine.core.game import Action
from engine.registry import get_game


class TableService(
    CampaignCommands, ArchiveCommands, PlayCommands, PaceCommands, AutocompleteCommands
):
    """Every campaign behaviour behind `handle` (a typed command) and `autocomplete`."""

    async def handle(
        self, caller: Caller, text: str, expect_version: int | None = None
    ) -> list[Reply]:
        """Run one typed command. `expect_version` (a button's) refuses it atomically once the
        campaign has moved past the version the button was posted with."""
        new_request_id()
        started = time.perf_counter()
        replies = await self._handle(caller, text, expect_version)
        log.info(
            "command %s by %s in %s: %s in %.0f ms",
            text.split(" ", 1)[0][:40],
            caller.user_id,
            caller.channel_id,
            "refused" if any(r.error for r in replies) else "ok",
            (time.perf_counter() - started) * 1000,
        )
        return replies

    async def _handle(self, caller: Caller, text: str, expect_version: int | None) -> list[Reply]:
        wait = self._rate_limited(caller)
        if wait:
            return refusal(
                f"Easy there: commands are coming in faster than the table can take "
                f"them. Try again in {max(1, round(wait))} s."
            )
        try:
            command = parse(text)
            async with self._serialised(caller.channel_id):
                with self.repo.command_scope():
                    return await self._run_command(caller, command, expect_version)
        except (CommandError, UserError, RuleError, TableChanged) as refused:
            return refusal(str(refused))
        except ChannelLockTimeout:
            return refusal("This table is busy right now. Please try again in a moment.")

    async def _run_command(
        self, caller: Caller, command: Command, expect_version: int | None
    ) -> list[Reply]:
        if expect_version is not None:
            await self._check_version(caller, expect_version)
        named = f"{command.name} {command.sub}" if command.sub else command.name
        digest = await self._catch_up(caller) if named in CATCH_UP_ON else []
        return digest + await self._dispatch(caller, command)

    async def _dispatch(self, caller: Caller, command: Command) -> list[Reply]:
        if command.name == "campaign":
            handler = getattr(self, f"campaign_{command.sub}")
        elif command.name in PLAY_VERBS:
            return await self.act(caller, Action(verb=command.name, args=command.options))
        else:
            handler = {
                "undo": self.undo,
                "board": self.board,
                "sheet": self.sheet,
                "hand": self.hand,
                "log": self.show_log,
                "rules": self.rules,
                "prefs": self.prefs,
                "away": self.away,
                "vote": self.vote,
                "help": self.help,
            }[command.name]
        result: list[Reply] = await handler(caller, command.options)
        return result

    async def help(self, caller: Caller, options: dict[str, str]) -> list[Reply]:
        return [Reply(help_text.render(options.get("topic")), ephemeral=True)]

    async def verify(self) -> list[tuple[int, bool, str]]:
        """Replay every campaign's log and compare with its stored snapshot."""
        results = []
        for campaign in await self.repo.all():
            rows = await self.repo.log(id_of(campaign))
            if campaign.state_json is None:
                results.append(
                    (id_of(campaign), not rows or all(r.kind == "end" for r in rows), "not begun")
                )
                continue
            try:
                game = get_game(campaign.game)
                final = replay(campaign, rows).final
                stored = game.load(json.loads(campaign.state_json))
                same = canonical(game, final) == canonical(game, stored)
                results.append((id_of(campaign), same, "reproducible" if same else "DIFFERS"))
            except Exception as error:  # verification reports, it does not crash
                results.append((id_of(campaign), False, f"replay failed: {error}"))
        return results
