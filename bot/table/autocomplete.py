"""Autocomplete: at most 25 suggestions for whatever the player is typing."""

from __future__ import annotations

import json

from bot import rules as rules_reference
from bot.commands import GROUPS, PLAY_VERBS, TOP_LEVEL, Command, CommandError, parse
from bot.pacing import (
    CAMPAIGN_SETTINGS,
)
from bot.table.context import (
    BOARD_VIEWS,
    Caller,
    Loaded,
    Suggestion,
    by_prefix,
    id_of,
    scenario_named,
)
from bot.table.guidance import NOTHING, WHO, figure_name, why_empty
from bot.table.parts import TableParts
from bot.table.picker import fit, kind_name, kind_of, term_description, unique
from engine.core.game import Action, scenario_info
from engine.core.view import View
from engine.registry import games, get_game


class Autocomplete:
    """Suggestions while typing: at most 25, each a value the command accepts."""

    def __init__(self, parts: TableParts) -> None:
        self.parts = parts
        self.repo = parts.repo

    async def _figure_choices(self, caller: Caller) -> list[Suggestion]:
        campaign = await self.repo.live_in_channel(caller.channel_id)
        if campaign is None or not campaign.state_json:
            return []
        game = get_game(campaign.game)
        view = game.view(game.load(json.loads(campaign.state_json)), None)
        return [Suggestion(f"{f.name} at {f.coord}"[:100], f.id) for f in view.figures]

    async def suggest(self, caller: Caller, text: str) -> list[Suggestion]:
        try:
            command = parse(text, allow_partial=True)
        except CommandError:
            return []
        if command.partial is None or (
            command.name not in GROUPS and command.name not in TOP_LEVEL
        ):
            return by_prefix(
                [Suggestion(f"/{n}", f"/{n}") for n in (*GROUPS, *TOP_LEVEL)], command.name
            )
        typed = command.options.get(command.partial, "")
        if command.name == "campaign":
            return by_prefix(await self._campaign_choices(caller, command), typed)
        if command.name in PLAY_VERBS or command.name == "pick":
            mine = await self._my_actions(caller)
            if mine is None:
                return []
            if command.name == "pick":
                return by_prefix(self._pick_choices(mine, command), typed)
            return by_prefix(self._action_choices(mine, command), typed)
        if command.name == "rules" and command.partial == "topic":
            game_key = command.options.get("game", "") or await self.parts.loader.channel_game(
                caller
            )
            try:
                found = rules_reference.search(game_key, typed)
            except ValueError:
                return []
            return [Suggestion(f"{t.title} ({t.key})"[:100], t.key) for t in found]
        if command.name in ("sheet",) and command.partial == "unit":
            return by_prefix(await self._figure_choices(caller), typed)
        if command.name == "board" and command.partial == "view":
            return by_prefix([Suggestion(v, v) for v in BOARD_VIEWS], typed)
        if command.name == "rules" and command.partial == "game":
            return by_prefix([Suggestion(g.title, k) for k, g in games().items()], typed)
        return []

    async def _campaign_choices(self, caller: Caller, command: Command) -> list[Suggestion]:
        key = command.partial or ""
        if command.sub == "create":
            if key == "game":
                return [Suggestion(f"{g.key} — {g.title}", g.key) for g in games().values()]
            game_key = command.options.get("game", "")
            if game_key not in games():
                return []
            game = games()[game_key]
            if key == "scenario":
                return [Suggestion(f"{s.key} — {s.title}", s.key) for s in game.scenarios()]
            try:
                info = scenario_info(game, command.options.get("scenario", ""))
            except ValueError:
                return []
            option = next((o for o in info.options if o.key == key), None)
            return [Suggestion(c, c) for c in option.choices] if option else []
        if command.sub in ("join", "leave") and key == "role":
            campaign = await self.repo.live_in_channel(caller.channel_id)
            if campaign is None:
                return []
            info = scenario_named(get_game(campaign.game), campaign.scenario)
            seats = await self.repo.seats(id_of(campaign))
            taken = {s.role for s in seats if s.user_id}
            mine = {s.role for s in seats if s.user_id == caller.user_id}
            held = {s.role for s in seats}

            def free(key: str) -> bool:
                return key not in taken and info.clash(key, held) is None  # one per group

            wanted = free if command.sub == "join" else mine.__contains__
            return [Suggestion(f"{r.key} — {r.name}", r.key) for r in info.roles if wanted(r.key)]
        if command.sub == "seat" and key == "role":
            campaign = await self.repo.live_in_channel(caller.channel_id)
            if campaign is None:
                return []
            return [
                Suggestion(f"{s.role} — {s.user_name or 'free'}", s.role)
                for s in await self.repo.seats(id_of(campaign))
            ]
        if command.sub == "settings" and key in CAMPAIGN_SETTINGS:
            return [Suggestion(v, v) for v in CAMPAIGN_SETTINGS[key]]
        return []

    async def _my_actions(self, caller: Caller) -> tuple[Loaded, list[Action]] | None:
        """Every legal action of the caller's seats (a seat the game is not waiting on has
        none, except what the rules let it do out of turn)."""
        table = await self.parts.loader.playing(caller.channel_id)
        if table is None:
            return None
        mine = [
            s.role
            for s in await self.repo.seats(id_of(table.campaign))
            if s.user_id == caller.user_id
        ]
        if not mine:
            return None  # a spectator: nothing to offer, nothing to explain
        return table, unique([a for role in mine for a in self.parts.legal.of(table, role)])

    def _action_choices(
        self, found: tuple[Loaded, list[Action]], command: Command
    ) -> list[Suggestion]:
        table, actions = found
        focus = command.partial or ""
        fixed = {k: v.lower() for k, v in command.options.items() if k != focus and v}
        matching = [
            a
            for a in actions
            if a.verb == command.name
            and all(a.args.get(k, "").lower() == v for k, v in fixed.items())
        ]
        groups: dict[str, list[Action]] = {}
        for action in matching:
            if focus in action.args:
                groups.setdefault(action.args[focus], []).append(action)
        view = table.game.view(table.state, None)
        if not groups:
            if matching or command.options.get(focus):
                # The command is complete without this option, or what is typed matches
                # nothing (Discord says so itself).
                return []
            reason = why_empty(command.name, command.options.get("unit"), actions, view)
            return [Suggestion(fit(reason), NOTHING)]
        return [
            self._labelled(focus, value, members, set(fixed) | {focus}, view)
            for value, members in groups.items()
        ]

    @staticmethod
    def _labelled(
        focus: str, value: str, members: list[Action], given: set[str], view: View
    ) -> Suggestion:
        game_key = view.game
        """A value with what it means: a complete action's own label, or the figure (for
        `unit`), or the options still to choose after it."""
        if len(members) == 1 and set(members[0].args) <= given | set(WHO):
            words = term_description(game_key, members[0])
            label = members[0].label or value
            return Suggestion(fit(f"{label} — {words}" if words else label), value)
        if focus == "unit":
            return Suggestion(fit(f"{figure_name(view, value)}: {len(members)} choices"), value)
        still = [k for k in members[0].args if k not in given and k not in WHO]
        if not still:
            return Suggestion(fit(members[0].label or value), value)
        return Suggestion(
            fit(f"{value}, then choose {', '.join(still)} ({len(members)} choices)"), value
        )

    def _pick_choices(
        self, found: tuple[Loaded, list[Action]], command: Command
    ) -> list[Suggestion]:
        table, actions = found
        focus = command.partial or ""
        unit = command.options.get("unit") if focus != "unit" else None
        if unit:
            actions = [a for a in actions if a.args.get("unit", "").lower() == unit.lower()]
        view = table.game.view(table.state, None)
        if focus == "unit":
            units = dict.fromkeys(a.args["unit"] for a in actions if a.args.get("unit"))
            return [Suggestion(fit(figure_name(view, u)), u) for u in units]
        if focus == "kind":
            kinds = dict.fromkeys(kind_of(a) for a in actions)
            return [Suggestion(fit(kind_name(k, table.game.key)), k) for k in kinds]
        return []
