"""`/pick`: the action picker's panels for the caller (see `bot/table/picker.py`)."""

from __future__ import annotations

from bot.names import role_names
from bot.replies import Reply
from bot.table.context import Caller, UserError, id_of, waiting_line
from bot.table.parts import TableParts
from bot.table.picker import Describe, PanelBuilder, default_describe, narrow, unique


class PickCommands:
    """The private panel of select menus built from the caller's legal actions."""

    def __init__(self, parts: TableParts, describe: Describe = default_describe) -> None:
        self.parts = parts
        self.describe = describe

    async def pick(self, caller: Caller, options: dict[str, str]) -> list[Reply]:
        table = await self.parts.loader.active(caller, finished_ok=True)
        campaign = table.campaign
        seats = await self.parts.repo.seats(id_of(campaign))
        mine = [s.role for s in seats if s.user_id == caller.user_id]
        if not mine:
            raise UserError("You have no seat in this campaign. Join with /campaign join.")
        prompt = table.prompt()
        if prompt.finished or campaign.status == "finished":
            # Not a refusal either: the picker after the last action of a mission says so.
            return [Reply(f"The mission is over: {prompt.outcome or campaign.outcome}.", True)]
        actions = unique([a for role in mine for a in self.parts.legal.of(table, role)])
        if not actions:
            # Not a refusal: the answer to "what may I do?" is "nothing yet".
            names = role_names(campaign.game, campaign.scenario)
            waiting = waiting_line(prompt, seats, names=names)
            return [Reply(f"Nothing for you to do now. {waiting}", True)]
        try:
            page = int(options.get("page", "1") or "1")
        except ValueError:
            raise UserError("page must be a whole number.") from None
        try:
            narrowed = narrow(actions, options.get("unit"), options.get("kind"))
        except ValueError as wrong:
            raise UserError(str(wrong)) from None
        view = table.game.view(table.state, None)
        panel = PanelBuilder(campaign.game, view, self.describe).build(
            narrowed.actions, narrowed.unit, narrowed.kind, page
        )
        asked = f"\n{prompt.text}" if prompt.text and prompt.seats else ""
        return [
            Reply(
                panel.text + asked,
                ephemeral=True,
                menus=panel.menus,
                buttons=panel.buttons,
                version=campaign.version,
                game=campaign.game,
            )
        ]
