"""`/pick`: the action picker's panels for the caller (see `bot/table/picker.py`)."""

from __future__ import annotations

from bot.names import role_names
from bot.replies import Reply
from bot.table.context import Caller, Loaded, UserError, id_of, waiting_line
from bot.table.parts import TableParts
from bot.table.picker import Describe, Panel, PanelBuilder, default_describe, narrow, unique
from bot.table.quick import Hint, facing_hints, quick_buttons, ranked
from engine.core.game import Action, advisor_of
from engine.core.view import View

MENU_ROW = 5  # Discord: a select menu fills a row of five button places
ROWS = 5  # Discord: rows of a message


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
        if not narrowed.unit and not narrowed.kind and page == 1:
            awaited = [role for role in mine if role in prompt.seats]
            self.add_quick(panel, table, awaited, view)
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

    def add_quick(self, panel: Panel, table: Loaded, roles: list[str], view: View) -> None:
        """The first panel opens with the awaited seats' quick actions and hints (see
        `bot/table/quick.py`), in the room the menus leave."""
        advisor = advisor_of(table.game)
        quick: list[Action] = []
        hints: list[Hint] = []
        for role in roles:
            legal = self.parts.legal.of(table, role)
            hints += facing_hints(table.game, table.state, role, legal)
            if advisor is not None:
                quick += ranked(advisor, table.state, role, legal)
        seen = {b.command for b in panel.buttons}
        quick = [a for a in unique(quick) if a.command() not in seen]
        ends = [a for a in quick if a.verb == "end-turn"][1:]
        quick = [a for a in quick if a not in ends]
        room = MENU_ROW * (ROWS - len(panel.menus)) - len(panel.buttons)
        panel.buttons[:0] = quick_buttons(quick, view, room, hints)
        if hints:
            panel.text += "\n" + "\n".join(h.text for h in hints[:3])
