"""Campaign lifecycle commands: create, join, leave, begin, status, settings, end, export,
import, rollback, seats, mirrors and the server's list."""

from __future__ import annotations

import asyncio
import json
import logging
from datetime import timedelta
from typing import Any

from bot.archive import (
    LIVE_STATUSES,
    MAX_IMPORT_BYTES,
    export_campaign,
    export_public_record,
    for_upload,
)
from bot.disclosure import has_opponents, seat_conflict, with_holder
from bot.guide import briefing
from bot.guide.status import roster_line, status_lines
from bot.guide.words import settings_in_words
from bot.markup import channel_id_in, channel_link, escape, mention, user_id_in
from bot.names import seat_name
from bot.pacing import (
    CAMPAIGN_SETTINGS,
    campaign_settings,
)
from bot.replay import replay, run_begin
from bot.replies import Attachment, Button, Reply, ephemeral, split_message
from bot.settings_model import CHANNEL_ID, MAX_MIRRORS, SettingsError
from bot.storage.models import ActionLog, Campaign, Seat
from bot.storage.repo import ChannelBusy
from bot.table.context import (
    Caller,
    Loaded,
    UserError,
    busy_message,
    game_named,
    id_of,
    require_owner,
    scenario_named,
    seat_id_of,
    waiting_line,
)
from bot.table.parts import TableParts
from bot.table.steps import NewStep
from engine.core.events import dump_events
from engine.core.game import Game, RoleInfo, ScenarioInfo
from engine.registry import games, get_game

log = logging.getLogger("sortie.table")


# Buttons under the set-up post: one Join a seat (Discord: five rows of five), and Begin.
MAX_JOIN_BUTTONS = 20


# Option words a player reads in capitals (`npc-signals` -> "NPC signals").
ACRONYMS = {"npc": "NPC", "ai": "AI", "gd": "GD"}


def option_words(key: str, value: str) -> str:
    """A table option as a player reads it: `friendly-fire=off` -> `Friendly fire: off`."""
    said = " ".join(ACRONYMS.get(w, w) for w in key.split("-"))
    return f"{said[:1].upper()}{said[1:]}: {value.replace('-', ' ')}"


class CampaignCommands:
    """Campaign lifecycle commands."""

    def __init__(self, parts: TableParts) -> None:
        self.parts = parts
        self.repo = parts.repo
        self.loader = parts.loader
        self._create_lock = asyncio.Lock()

    async def create(self, caller: Caller, options: dict[str, str]) -> list[Reply]:
        options = dict(options)
        game_key, scenario_key = options.pop("game", ""), options.pop("scenario", "")
        if not game_key or not scenario_key:
            raise UserError(
                "Say which game and scenario: /campaign create game:<key> "
                "scenario:<name>. /campaign list shows none yet? See /help."
            )
        game = game_named(game_key)
        info = scenario_named(game, scenario_key)
        try:
            resolved = info.resolve_options(options)
        except ValueError as bad:
            raise UserError(str(bad)) from None
        existing = await self.repo.live_in_channel(caller.channel_id)
        if existing is not None:
            raise UserError(busy_message(existing))
        # Counted and created under one lock, in this process and across processes.
        async with self._create_lock, self.repo.db.global_lock("sortie:campaign-create"):
            await self._check_caps(caller)
            return await self._create(caller, game, info, resolved)

    async def _check_caps(self, caller: Caller) -> None:
        """A player, and a server, run at most so many live campaigns at once."""
        limits = self.parts.limits
        if limits is None:
            return
        mine, here = await self.repo.live_counts(caller.user_id, caller.guild_id)
        if mine >= limits.live_per_user:
            raise UserError(
                f"You already run {mine} live campaigns, the most one player may "
                f"({limits.live_per_user}). End one with /campaign end first."
            )
        if caller.guild_id is not None and here >= limits.live_per_server:
            raise UserError(
                f"This server already runs {here} live campaigns, the most it may "
                f"({limits.live_per_server}). One has to end before another starts."
            )

    async def _create(
        self, caller: Caller, game: Game[Any], info: ScenarioInfo, resolved: dict[str, str]
    ) -> list[Reply]:
        campaign = Campaign(
            channel_id=caller.channel_id,
            guild_id=caller.guild_id,
            game=game.key,
            scenario=info.key,
            options_json=json.dumps(resolved, sort_keys=True),
            seed=self.parts.new_seed(),
            owner_id=caller.user_id,
        )
        try:
            campaign = await self.repo.create(campaign)
        except ChannelBusy:
            raise UserError("This channel already has a campaign.") from None
        roles = ", ".join(r.name for r in info.roles)
        opts = "; ".join(option_words(k, v) for k, v in resolved.items()) or "defaults"
        joins = [
            Button(f"Join as {r.name}"[:80], f"/campaign join role:{r.key}") for r in info.roles
        ]
        return [
            Reply(
                f"**{game.title} — {info.title}** is set up here (campaign #{campaign.id}; "
                f"options: {opts}).\nSeats: {roles} ({info.min_seats}-{info.max_seats} "
                "players). Take one with its Join button; the owner then presses Begin.",
                buttons=[*joins[:MAX_JOIN_BUTTONS], Button("Begin", "/campaign begin", "primary")],
            )
        ]

    async def join(self, caller: Caller, options: dict[str, str]) -> list[Reply]:
        campaign = await self.loader.live(caller)
        info = scenario_named(get_game(campaign.game), campaign.scenario)
        names = {r.key: r.name for r in info.roles}
        seats = await self.repo.seats(id_of(campaign))
        taken = {s.role: s for s in seats if s.user_id}
        role = options.get("role", "").lower()
        if campaign.status == "active":
            vacant = [s for s in seats if not s.user_id]
            seat = (
                next((s for s in vacant if s.role == role), None)
                if role
                else (vacant[0] if vacant else None)
            )
            if seat is None:
                shown = ", ".join(f"{seat_name(names, v.role)} (`{v.role}`)" for v in vacant)
                raise UserError(f"The mission is under way; free seats: {shown or 'none'}.")
            self._check_sides(campaign, seat.role, caller.user_id, seats)
            seat.user_id, seat.user_name = caller.user_id, caller.user_name
            seat.last_seen_seq = campaign.step
            seat.settings_json = with_holder(seat.settings_json, caller.user_id)
            await self.repo.update_seat(seat)
            return [
                Reply(
                    f"{mention(caller.user_id)} takes the free seat "
                    f"**{seat_name(names, seat.role)}**.",
                    mentions=[caller.user_id],
                )
            ]
        held = {s.role for s in seats}
        if not role:
            free = [r for r in info.roles if r.key not in held and not info.clash(r.key, held)]
            if not free:
                raise UserError("Every seat is taken.")
            role = next((r.key for r in free if r.required), free[0].key)
        if info.role(role) is None:
            valid = ", ".join(r.key for r in info.roles)
            raise UserError(f"There is no seat '{role}' in this scenario. Seats: {valid}.")
        if role in taken:
            raise UserError(f"The seat {role} is taken by {taken[role].user_name or 'someone'}.")
        clash = info.clash(role, held)
        if clash is not None:
            raise UserError(group_refusal(info, role, clash, held))
        if len(taken) >= info.max_seats:
            raise UserError(f"This scenario seats at most {info.max_seats} players.")
        role_info = info.role(role)
        assert role_info is not None
        self._check_sides(campaign, role, caller.user_id, seats)
        await self.repo.add_seat(
            campaign,
            Seat(
                campaign_id=id_of(campaign),
                role=role,
                user_id=caller.user_id,
                user_name=caller.user_name,
                settings_json=with_holder("{}", caller.user_id),
            ),
        )
        about = f": {role_info.description}" if role_info.description else ""
        seats = await self.repo.seats(id_of(campaign))
        line = f"{escape(caller.user_name)} takes the seat **{role_info.name}**{about}."
        return [Reply(line + roster_line(get_game(campaign.game), campaign, seats))]

    async def leave(self, caller: Caller, options: dict[str, str]) -> list[Reply]:
        campaign = await self.loader.live(caller)
        mine = [s for s in await self.repo.seats(id_of(campaign)) if s.user_id == caller.user_id]
        role = options.get("role", "").lower()
        if role:
            mine = [s for s in mine if s.role == role]
        if not mine:
            raise UserError(
                "You hold no seat in this campaign" + (f" called {role}." if role else ".")
            )
        for seat in mine:
            if campaign.status == "open":
                await self.repo.remove_seat(campaign, seat)
            else:
                seat.user_id, seat.user_name = "", ""
                await self.repo.update_seat(seat)
        names = ", ".join(s.role for s in mine)
        extra = (
            " The seat is free: anyone may take it with /campaign join."
            if campaign.status == "active"
            else ""
        )
        return [Reply(f"{escape(caller.user_name)} leaves {names}.{extra}")]

    async def begin(self, caller: Caller, options: dict[str, str]) -> list[Reply]:
        campaign = await self.loader.live(caller)
        require_owner(caller, campaign, "begin the mission")
        if campaign.status != "open":
            raise UserError("The mission has already begun.")
        game = get_game(campaign.game)
        info = scenario_named(game, campaign.scenario)
        seats = await self.repo.seats(id_of(campaign))
        held = {s.role for s in seats}
        missing = [r.key for r in info.roles if r.required and r.key not in held]
        if missing:
            raise UserError(
                f"Seats still empty: {', '.join(missing)}. Players join with "
                "/campaign join role:<seat>."
            )
        if len(held) < info.min_seats:
            raise UserError(f"This scenario needs at least {info.min_seats} seats taken.")
        roles = [r.key for r in info.roles if r.key in held]
        seq = campaign.step + 1
        # Engine work runs in a thread so a long enemy phase never stalls other channels.
        step, _ = await asyncio.to_thread(run_begin, game, campaign, roles, seq)
        log = ActionLog(
            campaign_id=id_of(campaign),
            seq=seq,
            kind="begin",
            user_id=caller.user_id,
            action_json=json.dumps({"seats": roles}),
            events_json=json.dumps(dump_events(step.events)),
            random_used=True,
        )
        table = Loaded(campaign, game, step.state)
        holders = {s.role: s.user_name or "free" for s in seats}
        told = briefing(game, info.key, json.loads(campaign.options_json), step.state, holders)
        replies = await self.parts.run(
            caller, table, NewStep(step.events, log, headline=f"**{info.title}** begins.")
        )
        return [Reply(told.text(), mirror_to=list(campaign_settings(campaign).mirrors)), *replies]

    async def status(self, caller: Caller, options: dict[str, str]) -> list[Reply]:
        """Seats, round and phase, objective progress, every figure's health and who the game
        waits on: public facts only, from the public view."""
        campaign = await self.loader.live_or_none(caller)
        if campaign is None:
            return ephemeral("No campaign in this channel. Start one with /campaign create.")
        game = get_game(campaign.game)
        info = scenario_named(game, campaign.scenario)
        seats = await self.repo.seats(id_of(campaign))
        lines = [f"**{game.title} — {info.title}** (campaign #{campaign.id}, {campaign.status})"]
        names = {r.key: r.name for r in info.roles}
        topic = info.title
        if campaign.status == "active" and campaign.state_json:
            state = game.load(json.loads(campaign.state_json))
            topic = game.view(state, None).title
            lines += status_lines(game, state, seats)
            prompt = game.waiting_on(state)
            lines.append(waiting_line(prompt, seats, campaign_settings(campaign), names))
        else:
            lines += [f"- {seat_name(names, s.role)}: {s.user_name or 'free'}" for s in seats] or [
                "- no seats taken"
            ]
            if campaign.status == "open" and seats:
                lines.append(roster_line(game, campaign, seats).strip())
        lines.append("The briefing: /rules (topic: " + f"{topic}).")
        return [Reply(chunk, ephemeral=True) for chunk in split_message("\n".join(lines))]

    async def settings(self, caller: Caller, options: dict[str, str]) -> list[Reply]:
        campaign = await self.loader.live(caller)
        settings = campaign_settings(campaign)
        if options:
            require_owner(caller, campaign, "change settings")
            unknown = [key for key in options if key not in CAMPAIGN_SETTINGS]
            if unknown:
                raise UserError(
                    f"Unknown setting '{unknown[0]}'. Settings: {', '.join(CAMPAIGN_SETTINGS)}."
                )
            try:
                settings = settings.changed(**{k: v.strip().lower() for k, v in options.items()})
            except SettingsError as bad:
                raise UserError(f"{bad}.") from None
            campaign.settings_json = settings.stored()
            await self.repo.save_settings(campaign)
            if "digest" in options:
                due = (
                    self.parts.clock.now() + timedelta(days=1) if settings.digest == "on" else None
                )
                await self.repo.set_digest(id_of(campaign), due)
        words = "\n".join(f"- {line}" for line in settings_in_words(settings))
        change = "Change one (owner): `/campaign settings setting:<name> value:<value>`."
        return [Reply(f"**Campaign settings**\n{words}\n{change}", ephemeral=not options)]

    async def end(self, caller: Caller, options: dict[str, str]) -> list[Reply]:
        campaign = await self.loader.live(caller)
        if caller.user_id != campaign.owner_id and not caller.is_admin:
            raise UserError("Only the campaign owner or a server admin can end the campaign.")
        if options.get("confirm", "").lower() != "yes":
            return [
                Reply(
                    "Ending stops the campaign for good. To confirm: `/campaign end confirm:yes`.",
                    ephemeral=True,
                    buttons=[Button("End the campaign", "/campaign end confirm:yes", "danger")],
                )
            ]
        log = ActionLog(
            campaign_id=id_of(campaign), seq=campaign.step + 1, kind="end", user_id=caller.user_id
        )
        await self.repo.close(campaign, "ended", log)
        return [
            Reply(
                f"Campaign #{campaign.id} ended by {escape(caller.user_name)}. "
                "The channel is free for a new one."
            )
        ]

    async def export(self, caller: Caller, options: dict[str, str]) -> list[Reply]:
        """The whole campaign as a file, for the owner or a server admin."""
        campaign = await self.repo.live_in_channel(
            caller.channel_id
        ) or await self.repo.latest_in_channel(caller.channel_id)
        if campaign is None:
            raise UserError("No campaign in this channel to export.")
        if caller.user_id != campaign.owner_id and not caller.is_admin:
            raise UserError("Only the campaign owner or a server admin can export the campaign.")
        seats, rows = await self.repo.seats(id_of(campaign)), await self.repo.log(id_of(campaign))
        base = f"sortie-campaign-{campaign.id}-step-{campaign.step}"
        if campaign.status in LIVE_STATUSES:
            # While it is live, nothing that reveals a secret or the dice to come leaves.
            data = export_public_record(campaign, seats, rows)
            filename = f"{base}-public.json"
            about = (
                "its public record (what every player sees). A live campaign's full backup is "
                "made by the server's operator (`python -m bot export`); once the campaign is "
                "over, this command gives the complete file."
            )
        else:
            data = export_campaign(campaign, seats, rows, key=await self.repo.signing_key())
            filename = f"{base}.json"
            about = "keep this file to restore the campaign later."
        name, data = for_upload(data, filename)
        if len(data) > MAX_IMPORT_BYTES:
            raise UserError(
                f"Campaign #{campaign.id}'s export is {len(data) / 2**20:.1f} MiB even "
                "compressed, more than Discord lets me attach. The bot's operator can write it "
                f"to a file with `python -m bot export --channel {campaign.channel_id} --out "
                "FILE`."
            )
        return [
            Reply(
                f"Campaign #{campaign.id} at step {campaign.step}: {about}",
                ephemeral=True,
                images=[Attachment(name, data, "campaign export (JSON)")],
            )
        ]

    async def rollback(self, caller: Caller, options: dict[str, str]) -> list[Reply]:
        """Owner only: return the campaign to an earlier step; the rollback is logged too.

        Against a human opponent who keeps cards hidden, a rollback would let one side see
        the other's hidden plays and take its own moves back: only a server admin may then.
        """
        table = await self.loader.active(caller)
        campaign = table.campaign
        seats = await self.repo.seats(id_of(campaign))
        if has_opponents(campaign.game, [(s.role, s.user_id) for s in seats]):
            if not caller.is_admin:
                raise UserError(
                    "This table has a human opponent who keeps cards hidden: only a server "
                    "admin can roll the campaign back."
                )
        else:
            require_owner(caller, campaign, "roll the campaign back")
        rows = await self.repo.log(id_of(campaign))
        steps = [r.seq for r in rows if r.kind in ("begin", "action", "undo", "rollback")]
        try:
            target = int(options.get("to", ""))
        except ValueError:
            raise UserError(
                "Say which step to return to: /campaign rollback to:<step> "
                "(see /log for step numbers)."
            ) from None
        if target not in steps or target >= campaign.step:
            raise UserError(
                f"Step {target} is not an earlier step of this campaign "
                f"(steps 1 to {campaign.step - 1})."
            )
        if options.get("confirm", "").lower() != "yes":
            return [
                Reply(
                    f"Rolling back to step {target} undoes {campaign.step - target} "
                    f"steps for everyone. To confirm: `/campaign rollback to:{target} "
                    "confirm:yes`.",
                    ephemeral=True,
                )
            ]
        kept = [r for r in rows if r.seq <= target]
        state = (await asyncio.to_thread(replay, campaign, kept)).final
        log = ActionLog(
            campaign_id=id_of(campaign),
            seq=campaign.step + 1,
            kind="rollback",
            user_id=caller.user_id,
            action_json=json.dumps({"to_seq": target}),
        )
        table.state = state
        headline = f"{escape(caller.user_name)} rolls the campaign back to step {target}."
        return await self.parts.run(caller, table, NewStep([], log, headline=headline))

    async def seat(self, caller: Caller, options: dict[str, str]) -> list[Reply]:
        """Hand your seat to someone else, or (without `to`) take a free seat.

        Only the seat's player hands it over, or a server admin (logged and announced); nobody
        ends up seeing both sides of a game with an opponent who keeps cards hidden.
        """
        campaign = await self.loader.live(caller)
        seats = await self.repo.seats(id_of(campaign))
        role = options.get("role", "").lower()
        seat = next((s for s in seats if s.role == role), None)
        if seat is None:
            names = ", ".join(s.role for s in seats) or "none yet"
            raise UserError(f"Name a seat of this campaign: role:<seat> ({names}).")
        target = options.get("to", "").strip()
        if not target:
            if seat.user_id:
                raise UserError(
                    f"{role} is taken; its player can hand it over with "
                    f"/campaign seat role:{role} to:<player>."
                )
            self._check_sides(campaign, role, caller.user_id, seats)
            await self.repo.seat_update(
                seat_id_of(seat),
                user_id=caller.user_id,
                user_name=caller.user_name,
                last_seen_seq=campaign.step,
                autopilot=False,
                away_until=None,
                settings_json=with_holder(seat.settings_json, caller.user_id),
            )
            return [Reply(f"{mention(caller.user_id)} takes the free seat **{role}**.")]
        by_admin = caller.user_id != seat.user_id
        if by_admin and not caller.is_admin:
            raise UserError(f"Only {role}'s player or a server admin can hand it over.")
        user_id = user_id_in(target)
        if not user_id or len(user_id) > 32 or any(ch.isspace() for ch in user_id):
            raise UserError("Say who takes the seat: to:@player.")
        self._check_sides(campaign, role, user_id, seats)
        await self.repo.seat_update(
            seat_id_of(seat),
            user_id=user_id,
            user_name="",
            last_seen_seq=campaign.step,
            autopilot=False,
            away_until=None,
            settings_json=with_holder(seat.settings_json, user_id),
        )
        if not by_admin:
            text = f"{escape(caller.user_name)} hands **{role}** to {mention(user_id)}."
            return [Reply(text, mentions=[user_id])]
        was = mention(seat.user_id) if seat.user_id else "nobody"
        log.info(
            "admin %s handed seat %s of campaign %s from %s to %s",
            caller.user_id,
            role,
            campaign.id,
            seat.user_id or "-",
            user_id,
        )
        text = (
            f"Server admin {escape(caller.user_name)} hands **{role}** (held by {was}) "
            f"to {mention(user_id)}."
        )
        return [Reply(text, mentions=[m for m in (user_id, seat.user_id) if m])]

    def _check_sides(self, campaign: Campaign, role: str, user_id: str, seats: list[Seat]) -> None:
        others = [(s.role, s.user_id, s.settings_json) for s in seats if s.role != role]
        conflict = seat_conflict(campaign.game, role, user_id, others)
        if conflict:
            raise UserError(conflict)

    async def mirror(self, caller: Caller, options: dict[str, str]) -> list[Reply]:
        """Follow this campaign in another channel: each public step is copied there."""
        campaign = await self.loader.live(caller)
        settings = campaign_settings(campaign)
        mirrors = list(settings.mirrors)
        target = channel_id_in(options.get("channel", ""))
        if not target:
            shown = ", ".join(channel_link(m) for m in mirrors) or "none"
            return ephemeral(f"This campaign is mirrored to: {shown}.")
        require_owner(caller, campaign, "change where the campaign is mirrored")
        if not CHANNEL_ID.fullmatch(target) or target == caller.channel_id:
            raise UserError("Name another channel to mirror to: channel:#spectators.")
        if options.get("stop", "").lower() == "yes":
            if target not in mirrors:
                raise UserError(f"{channel_link(target)} is not a mirror of this campaign.")
            mirrors.remove(target)
        elif target in mirrors:
            raise UserError(f"{channel_link(target)} already mirrors this campaign.")
        elif len(mirrors) >= MAX_MIRRORS:
            raise UserError(f"A campaign can be mirrored to at most {MAX_MIRRORS} channels.")
        else:
            problem = await self.parts.access.refuses(caller, target)
            if problem:
                raise UserError(problem)
            mirrors.append(target)
        campaign.settings_json = settings.changed(mirrors=mirrors).stored()
        await self.repo.save_settings(campaign)
        shown = ", ".join(channel_link(m) for m in mirrors) or "no channel"
        return [Reply(f"Campaign #{campaign.id} is now mirrored to {shown}.")]

    async def list_campaigns(self, caller: Caller, options: dict[str, str]) -> list[Reply]:
        rows = await self.repo.in_guild(caller.guild_id)
        if not rows:
            return ephemeral(
                "No campaigns running on this server. Games: " + ", ".join(games()) + "."
            )
        lines = [
            f"- {channel_link(c.channel_id)} #{c.id}: {c.game} / {c.scenario} ({c.status})"
            for c in rows
        ]
        return ephemeral("Campaigns on this server:\n" + "\n".join(lines))


def group_refusal(info: ScenarioInfo, role: str, clash: RoleInfo, held: set[str]) -> str:
    """Why `role` cannot be taken while `clash` (same group) is held, and what is still free,
    in the names players read (Reichbusters: one Hero from each team)."""
    wanted = info.role(role)
    assert wanted is not None
    taken = {r.group for r in info.roles if r.key in held}
    groups: dict[str, list[str]] = {}
    for r in info.roles:
        if r.group and r.group not in taken:
            groups.setdefault(r.group, []).append(r.name)
    free = "; ".join(f"{g}: {', '.join(names)}" for g, names in groups.items())
    return (
        f"{wanted.name} is in {wanted.group}, like {clash.name}, who already has a seat: only "
        f"one seat of {wanted.group} may be taken." + (f" Still free: {free}." if free else "")
    )
