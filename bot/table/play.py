"""Playing: actions, undo, and what a player looks at (board, sheets, hand, log, rules)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from bot import rules as rules_reference
from bot.disclosure import log_line, private_answers
from bot.markup import escape
from bot.names import role_names, seat_name
from bot.replay import replay, run_action
from bot.replies import Button, Reply, ephemeral, split_message
from bot.storage.models import ActionLog, Campaign, Seat
from bot.table.context import (
    BOARD_VIEWS,
    Caller,
    Handler,
    Loaded,
    UserError,
    id_of,
    seat_id_of,
    waiting_line,
)
from bot.table.guidance import refusal_text
from bot.table.parts import TableParts
from bot.table.picker import kind_of, pick_command
from bot.table.steps import NewStep, final_step, log_row
from engine.core.errors import RuleError
from engine.core.events import parse_events
from engine.core.game import Action
from renders import text_board


def is_shared(options: dict[str, str]) -> bool:
    """`share:yes`: a look posted in the channel for the table instead of only to its caller."""
    shared = options.get("share", "").lower()
    if shared not in ("", "yes"):
        raise UserError("share takes yes (post it for the table); leave it out to look alone.")
    return shared == "yes"


def standing_orders(game: Any, state: Any, roles: list[str], shown: list[Button]) -> list[Button]:
    """A seat's standing orders without a figure (Forlorn's Xeno reaction rules) are hidden
    like her hand: when the panel does not offer them already, one button opens them as a
    private menu, each in words."""
    commands = {b.command for b in shown}
    orders = [
        a
        for role in roles
        for a in game.legal_actions(state, role)
        if a.verb == "orders" and not a.args.get("unit") and a.command() not in commands
    ]
    kinds = dict.fromkeys(kind_of(a) for a in orders)
    return [Button("Standing orders (only you see them)", pick_command(None, k)) for k in kinds]


class PlayCommands:
    """Commands that play and look at the table."""

    def __init__(self, parts: TableParts) -> None:
        self.parts = parts
        self.repo = parts.repo
        self.loader = parts.loader
        self.pictures = parts.pictures

    def verb(self, name: str) -> Handler:
        """The handler of a play verb: its options are the action's arguments."""

        async def play(caller: Caller, options: dict[str, str]) -> list[Reply]:
            return await self.act(caller, Action(verb=name, args=options))

        return play

    async def act(self, caller: Caller, action: Action) -> list[Reply]:
        table = await self.loader.active(caller)
        campaign = table.campaign
        seats = await self.repo.seats(id_of(campaign))
        prompt = table.prompt()
        welcome = await self._end_autopilot(caller, seats)
        try:
            seat = self._acting_seat(caller, table, seats, action)
        except UserError as refused:
            raise UserError(f"{welcome}{refused}") from None
        waiting_before = {s.user_id for s in seats if s.role in prompt.seats and s.user_id}
        try:
            step, random_used, automatic = await asyncio.to_thread(
                run_action, table.game, table.state, campaign.seed, campaign.step + 1, seat, action
            )
        except RuleError as refused:
            legal = self.parts.legal.of(table, seat)
            view = table.game.view(table.state, None)
            raise UserError(refusal_text(action, legal, str(refused), view)) from None
        log = log_row(table, seat, caller.user_id, action, step.events, random_used)
        table.state = step.state
        return await self.parts.run(
            caller,
            table,
            NewStep(
                step.events,
                log,
                waiting_before=waiting_before,
                seats_before=frozenset(prompt.seats),
                automatic=automatic,
                private_answer=prompt.private and seat in prompt.seats,
                ballot=prompt.kind == "vote",
            ),
        )

    async def _end_autopilot(self, caller: Caller, seats: list[Seat]) -> str:
        """Any attempt to play ends autopilot and away mode for the caller's seats."""
        returning = [
            s for s in seats if s.user_id == caller.user_id and (s.autopilot or s.away_until)
        ]
        for seat in returning:
            await self.repo.seat_update(seat_id_of(seat), autopilot=False, away_until=None)
            seat.autopilot, seat.away_until = False, None
        return "Welcome back: autopilot is off for your seats. " if returning else ""

    def _acting_seat(self, caller: Caller, table: Loaded, seats: list[Seat], action: Action) -> str:
        mine = [s.role for s in seats if s.user_id == caller.user_id]
        if not mine:
            raise UserError("You have no seat in this campaign. Join with /campaign join.")
        prompt = table.prompt()
        if prompt.finished:
            raise UserError("The mission is over.")
        ready = [role for role in mine if role in prompt.seats]
        if not ready:
            # Out of turn only where the rules allow it, which the engine says by listing the
            # action (a card the Xeno may play at any time of the Marine phase).
            for role in mine:
                if any(a.matches(action) for a in self.parts.legal.of(table, role)):
                    return role
            names = role_names(table.campaign.game, table.campaign.scenario)
            return_text = waiting_line(prompt, seats, names=names)
            raise UserError(f"It is not your turn. {return_text}")
        self._check_unit(table, ready, action)
        if len(ready) > 1:
            for role in ready:
                if any(a.matches(action) for a in self.parts.legal.of(table, role)):
                    return role
        return ready[0]

    def _check_unit(self, table: Loaded, ready: list[str], action: Action) -> None:
        """Refuse a `unit:` the caller does not control now, naming the ones they do."""
        wanted = action.args.get("unit")
        if not wanted:
            return
        units = {
            a.args["unit"]
            for role in ready
            for a in self.parts.legal.of(table, role)
            if "unit" in a.args
        }
        if units and wanted.lower() not in {u.lower() for u in units}:
            raise UserError(
                f"'{wanted}' is not one of your figures that can act now. "
                f"Yours: {', '.join(sorted(units))} (option unit)."
            )

    async def undo(self, caller: Caller, options: dict[str, str]) -> list[Reply]:
        table = await self.loader.active(caller)
        campaign = table.campaign
        last = await self.repo.last_log(id_of(campaign))
        if last is None or last.kind != "action":
            raise UserError("There is nothing to undo.")
        if last.user_id != caller.user_id:
            raise UserError("You can only undo your own last action.")
        if final_step(last, parse_events(json.loads(last.events_json))):
            raise UserError("That action rolled dice or revealed something: it cannot be undone.")
        rows = await self.repo.log(id_of(campaign))
        to_seq = max(r.seq for r in rows if r.seq < last.seq)
        kept = [r for r in rows if r.seq <= to_seq]
        seats = await self.repo.seats(id_of(campaign))
        prompt = table.prompt()
        waiting_before = {s.user_id for s in seats if s.role in prompt.seats and s.user_id}
        table.state = (await asyncio.to_thread(replay, campaign, kept)).final
        log = ActionLog(
            campaign_id=id_of(campaign),
            seq=campaign.step + 1,
            kind="undo",
            seat=last.seat,
            user_id=caller.user_id,
            action_json=json.dumps({"to_seq": to_seq, "undone": last.seq}),
        )
        headline = f"{escape(caller.user_name)} takes back their last action."
        step = NewStep(
            [],
            log,
            headline=headline,
            waiting_before=waiting_before,
            seats_before=frozenset(prompt.seats),
        )
        return await self.parts.run(caller, table, step)

    async def board(self, caller: Caller, options: dict[str, str]) -> list[Reply]:
        """The board: full (default; the map, then the side panel), a close-up, or as text.
        Only the caller sees it unless they share it."""
        table = await self.loader.active(caller, finished_ok=True)
        campaign, game, state = table.campaign, table.game, table.state
        private, seat = await self._viewer(caller, campaign, options)
        mode = options.get("view", "full").lower()
        if mode not in BOARD_VIEWS:
            raise UserError(f"view must be one of: {', '.join(BOARD_VIEWS)}.")
        view = game.view(state, seat)
        if mode == "text":
            return [Reply(text_board(view), ephemeral=private)]
        images = await self.pictures.board(view, mode)
        return [Reply(f"Board of campaign #{campaign.id}.", ephemeral=private, images=images)]

    async def sheet(self, caller: Caller, options: dict[str, str]) -> list[Reply]:
        """A figure's card: its profile and current state (only the caller sees it unless
        they share it)."""
        table = await self.loader.active(caller, finished_ok=True)
        campaign, game, state = table.campaign, table.game, table.state
        private, seat = await self._viewer(caller, campaign, options)
        view = game.view(state, seat)
        wanted = options.get("unit", "").strip().lower()
        figure = next((f for f in view.figures if wanted in (f.id.lower(), f.label.lower())), None)
        if figure is None:
            names = ", ".join(f.id for f in view.figures[:20])
            raise UserError(f"No figure '{wanted}' on the board. Figures: {names}.")
        image = await self.pictures.sheet(view, figure.id)
        return [Reply(f"{figure.name} ({figure.coord}).", ephemeral=private, images=[image])]

    async def _viewer(
        self, caller: Caller, campaign: Campaign, options: dict[str, str]
    ) -> tuple[bool, str | None]:
        """Whether the look is private, and whose view it shows.

        Looks answer privately (a channel is not a wall of boards) unless `share:yes` posts
        the public view for the table; `for:me` shows the caller's own seat view, hidden
        information included, so it is never shared.
        """
        audience = options.get("for", "all").lower()
        if audience not in ("all", "me"):
            raise UserError("for must be all or me.")
        shared = is_shared(options)
        if audience == "all":
            return not shared, None
        if shared:
            raise UserError(
                "Your own view (for:me) may hold secrets, so it is never shared; "
                "share:yes posts the public board."
            )
        mine = [
            s.role for s in await self.repo.seats(id_of(campaign)) if s.user_id == caller.user_id
        ]
        return True, mine[0] if mine else None

    async def show_log(self, caller: Caller, options: dict[str, str]) -> list[Reply]:
        campaign = await self.loader.live(caller)
        try:
            count = int(options.get("last", "10"))
        except ValueError:
            raise UserError("last must be a number from 1 to 50.") from None
        if not 1 <= count <= 50:
            raise UserError("last must be a number from 1 to 50.")
        rows = (await self.repo.log(id_of(campaign)))[-count:]
        names = role_names(campaign.game, campaign.scenario)
        lines = [
            log_line(row.seq, row.kind, row.seat, row.action_json, row.events_json, names)
            for row in rows
        ]
        text = "\n".join(lines) or "The log is empty."
        return (
            [Reply(chunk) for chunk in split_message(text)]
            if is_shared(options)
            else ephemeral(text)
        )

    async def rules(self, caller: Caller, options: dict[str, str]) -> list[Reply]:
        """Our own short rules reference for the channel's game (or the one named)."""
        game_key = options.get("game", "").lower() or await self.loader.channel_game(caller)
        if not game_key:
            raise UserError(
                "Which game? /rules game:<game> topic:<topic>, or ask in a campaign's channel."
            )
        query = options.get("topic", "")
        try:
            topic = rules_reference.find(game_key, query) if query else None
            found = [topic] if topic else rules_reference.search(game_key, query, limit=8)
        except ValueError as unknown:
            raise UserError(str(unknown)) from None
        if not found:
            raise UserError(f"No rules topic matches '{query}'. Autocomplete lists them all.")
        if topic is None and not query:
            names = ", ".join(f"`{t.key}`" for t in found)
            return ephemeral(f"Rules topics (try /rules topic:<name>): {names}.")
        best, others = found[0], found[1:6]
        also = ("\nSee also: " + ", ".join(f"`{t.key}`" for t in others)) if others else ""
        return ephemeral(rules_reference.render(best) + also)

    async def hand(self, caller: Caller, options: dict[str, str]) -> list[Reply]:
        """Your private cards and secrets, only ever shown to you."""
        table = await self.loader.active(caller, finished_ok=True)
        campaign, game, state = table.campaign, table.game, table.state
        mine = [
            s.role for s in await self.repo.seats(id_of(campaign)) if s.user_id == caller.user_id
        ]
        if not mine:
            raise UserError("You have no seat in this campaign, so there is no hand to show.")
        lines = []
        names = role_names(campaign.game, campaign.scenario)
        for role in mine:
            private = game.view(state, role).private
            shown = "\n".join(private) if private else "nothing hidden."
            lines.append(f"**{seat_name(names, role)}**: {shown}")
        prompt = game.waiting_on(state)
        answers = private_answers(game, state, prompt, set(mine))
        if answers and prompt.kind == "choice" and set(mine) & set(prompt.seats):
            lines.append(f"The game asks you: {prompt.text or 'choose an answer.'}")
        elif answers:
            lines.append("You may act now, out of turn:")
        replies = ephemeral("\n".join(lines))
        replies[-1].buttons = answers + standing_orders(game, state, mine, answers)
        replies[-1].version = campaign.version
        return replies
