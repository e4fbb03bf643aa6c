"""The table service: every campaign behaviour, transport-free.

The Discord adapter and the playground are thin shells over `TableService.handle` and
`TableService.autocomplete`. A command loads the channel's campaign, asks the engine, persists
the step in one transaction, renders the board and returns `Reply` objects. Nothing is replied
before the step is committed.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from bot import help_text
from bot import rules as rules_reference
from bot.archive import export_campaign, read_archive
from bot.clock import Clock, SystemClock
from bot.commands import GROUPS, PLAY_VERBS, TOP_LEVEL, Command, CommandError, parse
from bot.logs import new_request_id
from bot.pacing import (
    CAMPAIGN_SETTINGS,
    MAX_AUTOPILOT_STEPS,
    REMINDER_CHOICES,
    answer_window,
    campaign_settings,
    check_timezone,
    hours,
    parse_away,
    parse_quiet,
    quiet_until,
    remind_after,
    safe_action,
    seat_on_autopilot,
)
from bot.pictures import board_image, has_activity, phase_images, sheet_image, step_image
from bot.ratelimit import Buckets, RateLimits
from bot.replay import canonical, replay, run_action, run_begin
from bot.replies import Attachment, Button, Reply, ephemeral, refusal, split_message
from bot.storage.db import Database
from bot.storage.models import ActionLog, Campaign, Seat
from bot.storage.repo import CampaignRepo, ChannelBusy, StepWrite, TableChanged, WaitingUpdate
from engine.core.errors import RuleError
from engine.core.events import Event, Note, PhaseChanged, dump_events, parse_events
from engine.core.game import Action, Game, Prompt, ScenarioInfo, scenario_info
from engine.registry import games, get_game
from renders import text_board

log = logging.getLogger("sortie.table")

MAX_AUTOCOMPLETE = 25
DEFAULT_LIMITS = RateLimits()
# Commands after which a returning player first sees what happened while they were away.
CATCH_UP_ON = frozenset({*PLAY_VERBS, "board", "undo", "campaign status"})


class UserError(Exception):
    """A request the service refuses, with a message for the user."""


@dataclass(frozen=True)
class Caller:
    user_id: str
    user_name: str
    channel_id: str
    guild_id: str | None = None
    is_admin: bool = False  # Manage Server in the guild (checked by the adapter)


@dataclass(frozen=True)
class Suggestion:
    name: str
    value: str


Renderer = Callable[[Any, list[Event]], Awaitable[Attachment]]


default_renderer: Renderer = step_image


class TableService:
    def __init__(
        self,
        db: Database,
        renderer: Renderer = default_renderer,
        new_seed: Callable[[], int] = lambda: secrets.randbits(62),
        clock: Clock | None = None,
        limits: RateLimits | None = DEFAULT_LIMITS,
    ) -> None:
        self.db = db
        self.clock: Clock = clock or SystemClock()
        self._user_buckets = Buckets(limits.user, self.clock) if limits else None
        self._channel_buckets = Buckets(limits.channel, self.clock) if limits else None
        self.repo = CampaignRepo(db)
        self.render = renderer
        self.new_seed = new_seed
        self._locks: dict[str, asyncio.Lock] = {}

    # ------------------------------------------------------------------ entry points

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
            async with self._lock(caller.channel_id):
                with self.repo.command_scope():
                    return await self._run_command(caller, command, expect_version)
        except (CommandError, UserError, RuleError, TableChanged) as refused:
            return refusal(str(refused))

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

    async def _check_version(self, caller: Caller, expected: int) -> None:
        campaign = await self.repo.live_in_channel(caller.channel_id)
        if campaign is None or campaign.version != expected:
            raise UserError(
                "That button belongs to an earlier board: the table has moved on since. "
                "/board shows where things stand now."
            )

    def _rate_limited(self, caller: Caller) -> float:
        if self._user_buckets is None or self._channel_buckets is None:
            return 0.0
        return self._user_buckets.take(caller.user_id) or self._channel_buckets.take(
            caller.channel_id
        )

    def _lock(self, channel_id: str) -> asyncio.Lock:
        return self._locks.setdefault(channel_id, asyncio.Lock())

    # ------------------------------------------------------------------ campaign lifecycle

    async def campaign_create(self, caller: Caller, options: dict[str, str]) -> list[Reply]:
        options = dict(options)
        game_key, scenario_key = options.pop("game", ""), options.pop("scenario", "")
        if not game_key or not scenario_key:
            raise UserError(
                "Say which game and scenario: /campaign create game:<key> "
                "scenario:<name>. /campaign list shows none yet? See /help."
            )
        game = _game(game_key)
        info = _scenario(game, scenario_key)
        try:
            resolved = info.resolve_options(options)
        except ValueError as bad:
            raise UserError(str(bad)) from None
        existing = await self.repo.live_in_channel(caller.channel_id)
        if existing is not None:
            raise UserError(_busy(existing))
        campaign = Campaign(
            channel_id=caller.channel_id,
            guild_id=caller.guild_id,
            game=game.key,
            scenario=info.key,
            options_json=json.dumps(resolved, sort_keys=True),
            seed=self.new_seed(),
            owner_id=caller.user_id,
        )
        try:
            campaign = await self.repo.create(campaign)
        except ChannelBusy:
            raise UserError("This channel already has a campaign.") from None
        roles = ", ".join(f"`{r.key}`" for r in info.roles)
        opts = ", ".join(f"{k}={v}" for k, v in resolved.items()) or "defaults"
        return [
            Reply(
                f"**{game.title} — {info.title}** is set up here (campaign #{campaign.id}, "
                f"options: {opts}).\nSeats: {roles} ({info.min_seats}-{info.max_seats} "
                "players). Take one with `/campaign join role:<seat>`; the owner starts with "
                "`/campaign begin`."
            )
        ]

    async def campaign_join(self, caller: Caller, options: dict[str, str]) -> list[Reply]:
        campaign = await self._live(caller)
        info = _scenario(get_game(campaign.game), campaign.scenario)
        seats = await self.repo.seats(_id(campaign))
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
                names = ", ".join(s.role for s in vacant) or "none"
                raise UserError(f"The mission is under way; free seats: {names}.")
            seat.user_id, seat.user_name = caller.user_id, caller.user_name
            seat.last_seen_seq = campaign.step
            await self.repo.update_seat(seat)
            return [
                Reply(
                    f"<@{caller.user_id}> takes the free seat **{seat.role}**.",
                    mentions=[caller.user_id],
                )
            ]
        if not role:
            free = [r for r in info.roles if r.key not in taken]
            if not free:
                raise UserError("Every seat is taken.")
            role = next((r.key for r in free if r.required), free[0].key)
        if info.role(role) is None:
            valid = ", ".join(r.key for r in info.roles)
            raise UserError(f"There is no seat '{role}' in this scenario. Seats: {valid}.")
        if role in taken:
            raise UserError(f"The seat {role} is taken by {taken[role].user_name or 'someone'}.")
        if len(taken) >= info.max_seats:
            raise UserError(f"This scenario seats at most {info.max_seats} players.")
        role_info = info.role(role)
        assert role_info is not None
        await self.repo.add_seat(
            campaign,
            Seat(
                campaign_id=_id(campaign),
                role=role,
                user_id=caller.user_id,
                user_name=caller.user_name,
            ),
        )
        return [Reply(f"{caller.user_name} takes the seat **{role}** ({role_info.name}).")]

    async def campaign_leave(self, caller: Caller, options: dict[str, str]) -> list[Reply]:
        campaign = await self._live(caller)
        mine = [s for s in await self.repo.seats(_id(campaign)) if s.user_id == caller.user_id]
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
        return [Reply(f"{caller.user_name} leaves {names}.{extra}")]

    async def campaign_begin(self, caller: Caller, options: dict[str, str]) -> list[Reply]:
        campaign = await self._live(caller)
        self._require_owner(caller, campaign, "begin the mission")
        if campaign.status != "open":
            raise UserError("The mission has already begun.")
        game = get_game(campaign.game)
        info = _scenario(game, campaign.scenario)
        seats = await self.repo.seats(_id(campaign))
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
            campaign_id=_id(campaign),
            seq=seq,
            kind="begin",
            user_id=caller.user_id,
            action_json=json.dumps({"seats": roles}),
            events_json=json.dumps(dump_events(step.events)),
            random_used=True,
        )
        return await self._commit_and_post(
            caller,
            campaign,
            game,
            step.state,
            step.events,
            log,
            headline=f"**{info.title}** begins.",
        )

    async def campaign_status(self, caller: Caller, options: dict[str, str]) -> list[Reply]:
        campaign = await self._live(caller, allow_none=True)
        if campaign is None:
            return ephemeral("No campaign in this channel. Start one with /campaign create.")
        game = get_game(campaign.game)
        info = _scenario(game, campaign.scenario)
        seats = await self.repo.seats(_id(campaign))
        lines = [f"**{game.title} — {info.title}** (campaign #{campaign.id}, {campaign.status})"]
        lines += [f"- {s.role}: {s.user_name or 'free'}" for s in seats] or ["- no seats taken"]
        if campaign.status == "active" and campaign.state_json:
            prompt = game.waiting_on(game.load(json.loads(campaign.state_json)))
            lines.append(waiting_line(prompt, seats))
        return [Reply("\n".join(lines), ephemeral=True)]

    async def campaign_settings(self, caller: Caller, options: dict[str, str]) -> list[Reply]:
        campaign = await self._live(caller)
        settings = campaign_settings(campaign)
        if options:
            self._require_owner(caller, campaign, "change settings")
            for key, value in options.items():
                if key not in CAMPAIGN_SETTINGS:
                    raise UserError(
                        f"Unknown setting '{key}'. Settings: {', '.join(CAMPAIGN_SETTINGS)}."
                    )
                if value not in CAMPAIGN_SETTINGS[key]:
                    raise UserError(f"{key} must be one of: {', '.join(CAMPAIGN_SETTINGS[key])}.")
                settings[key] = value
            campaign.settings_json = json.dumps(settings, sort_keys=True)
            await self.repo.save_settings(campaign)
            if "digest" in options:
                due = self.clock.now() + timedelta(days=1) if settings["digest"] == "on" else None
                await self.repo.set_digest(_id(campaign), due)
        shown = ", ".join(f"{k}={settings[k]}" for k in CAMPAIGN_SETTINGS)
        return [Reply(f"Campaign settings: {shown}.", ephemeral=not options)]

    async def campaign_end(self, caller: Caller, options: dict[str, str]) -> list[Reply]:
        campaign = await self._live(caller)
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
            campaign_id=_id(campaign), seq=campaign.step + 1, kind="end", user_id=caller.user_id
        )
        await self.repo.close(campaign, "ended", log)
        return [
            Reply(
                f"Campaign #{campaign.id} ended by {caller.user_name}. "
                "The channel is free for a new one."
            )
        ]

    async def campaign_export(self, caller: Caller, options: dict[str, str]) -> list[Reply]:
        """The whole campaign as a file, for the owner or a server admin."""
        campaign = await self.repo.live_in_channel(
            caller.channel_id
        ) or await self.repo.latest_in_channel(caller.channel_id)
        if campaign is None:
            raise UserError("No campaign in this channel to export.")
        if caller.user_id != campaign.owner_id and not caller.is_admin:
            raise UserError("Only the campaign owner or a server admin can export the campaign.")
        data = export_campaign(
            campaign, await self.repo.seats(_id(campaign)), await self.repo.log(_id(campaign))
        )
        name = f"sortie-campaign-{campaign.id}-step-{campaign.step}.json"
        return [
            Reply(
                f"Campaign #{campaign.id} at step {campaign.step}: keep this file to "
                "restore the campaign later.",
                ephemeral=True,
                images=[Attachment(name, data, "campaign export (JSON)")],
            )
        ]

    async def campaign_rollback(self, caller: Caller, options: dict[str, str]) -> list[Reply]:
        """Owner only: return the campaign to an earlier step; the rollback is logged too."""
        campaign, game, _ = await self._active(caller)
        self._require_owner(caller, campaign, "roll the campaign back")
        rows = await self.repo.log(_id(campaign))
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
        state = replay(campaign, [r for r in rows if r.seq <= target]).final
        log = ActionLog(
            campaign_id=_id(campaign),
            seq=campaign.step + 1,
            kind="rollback",
            user_id=caller.user_id,
            action_json=json.dumps({"to_seq": target}),
        )
        return await self._commit_and_post(
            caller,
            campaign,
            game,
            state,
            [],
            log,
            headline=f"{caller.user_name} rolls the campaign back to step {target}.",
        )

    async def import_campaign(self, data: bytes, channel_id: str, guild_id: str | None) -> str:
        """Recreate an exported campaign in a free channel; the log must reproduce its state."""
        try:
            archive = read_archive(data)
        except ValueError as bad:
            raise UserError(str(bad)) from None
        game = _game(archive.game)
        _scenario(game, archive.scenario)
        campaign = Campaign(
            channel_id=channel_id,
            guild_id=guild_id,
            game=game.key,
            scenario=archive.scenario,
            options_json=json.dumps(archive.options, sort_keys=True),
            settings_json=json.dumps(archive.settings, sort_keys=True),
            seed=archive.seed,
            status=archive.status,
            owner_id=archive.owner_id,
            outcome=archive.outcome,
            step=len(archive.log),
            version=len(archive.log),
        )
        rows = [
            ActionLog(
                seq=step.seq,
                kind=step.kind,
                seat=step.seat,
                user_id=step.user_id,
                action_json=json.dumps(step.action),
                events_json=json.dumps(step.events),
                random_used=step.random_used,
                campaign_id=0,
            )
            for step in archive.log
        ]
        if archive.state is not None:
            try:
                final = replay(campaign, rows).final
            except Exception as error:
                raise UserError(f"The export's log does not replay: {error}") from None
            if canonical(game, final) != canonical(game, game.load(archive.state)):
                raise UserError("The export's log does not reproduce its state; not imported.")
            campaign.state_json = json.dumps(game.dump(final), separators=(",", ":"))
        seats = [
            Seat(
                campaign_id=0,
                role=s.role,
                user_id=s.user_id,
                user_name=s.user_name,
                last_seen_seq=len(archive.log),
            )
            for s in archive.seats
        ]
        try:
            created = await self.repo.import_campaign(campaign, seats, rows)
        except ChannelBusy:
            raise UserError("That channel already has a live campaign.") from None
        return f"Imported as campaign #{created.id} in channel {channel_id} at step {created.step}."

    async def campaign_seat(self, caller: Caller, options: dict[str, str]) -> list[Reply]:
        """Hand your seat to someone else, or (without `to`) take a free seat."""
        campaign = await self._live(caller)
        seats = await self.repo.seats(_id(campaign))
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
            await self.repo.seat_update(
                _id_seat(seat),
                user_id=caller.user_id,
                user_name=caller.user_name,
                last_seen_seq=campaign.step,
                autopilot=False,
                away_until=None,
            )
            return [Reply(f"<@{caller.user_id}> takes the free seat **{role}**.")]
        if caller.user_id not in (seat.user_id, campaign.owner_id):
            raise UserError(f"Only {role}'s player or the campaign owner can hand it over.")
        user_id = target.removeprefix("<@").removeprefix("!").removesuffix(">")
        if not user_id or len(user_id) > 32 or any(ch.isspace() for ch in user_id):
            raise UserError("Say who takes the seat: to:@player.")
        await self.repo.seat_update(
            _id_seat(seat),
            user_id=user_id,
            user_name="",
            last_seen_seq=campaign.step,
            autopilot=False,
            away_until=None,
        )
        return [Reply(f"{caller.user_name} hands **{role}** to <@{user_id}>.", mentions=[user_id])]

    async def campaign_mirror(self, caller: Caller, options: dict[str, str]) -> list[Reply]:
        """Follow this campaign in another channel: each public step is copied there."""
        campaign = await self._live(caller)
        settings = campaign_settings(campaign)
        mirrors = [m for m in settings.get("mirrors", "").split(",") if m]
        target = options.get("channel", "").strip().removeprefix("<#").removesuffix(">")
        if not target:
            shown = ", ".join(f"<#{m}>" for m in mirrors) or "none"
            return ephemeral(f"This campaign is mirrored to: {shown}.")
        self._require_owner(caller, campaign, "change where the campaign is mirrored")
        if not MIRROR_CHANNEL.fullmatch(target) or target == caller.channel_id:
            raise UserError("Name another channel to mirror to: channel:#spectators.")
        if options.get("stop", "").lower() == "yes":
            if target not in mirrors:
                raise UserError(f"<#{target}> is not a mirror of this campaign.")
            mirrors.remove(target)
        elif target in mirrors:
            raise UserError(f"<#{target}> already mirrors this campaign.")
        elif len(mirrors) >= MAX_MIRRORS:
            raise UserError(f"A campaign can be mirrored to at most {MAX_MIRRORS} channels.")
        else:
            mirrors.append(target)
        settings["mirrors"] = ",".join(mirrors)
        campaign.settings_json = json.dumps(settings, sort_keys=True)
        await self.repo.save_settings(campaign)
        shown = ", ".join(f"<#{m}>" for m in mirrors) or "no channel"
        return [Reply(f"Campaign #{campaign.id} is now mirrored to {shown}.")]

    async def campaign_list(self, caller: Caller, options: dict[str, str]) -> list[Reply]:
        rows = await self.repo.in_guild(caller.guild_id)
        if not rows:
            return ephemeral(
                "No campaigns running on this server. Games: " + ", ".join(games()) + "."
            )
        lines = [f"- <#{c.channel_id}> #{c.id}: {c.game} / {c.scenario} ({c.status})" for c in rows]
        return ephemeral("Campaigns on this server:\n" + "\n".join(lines))

    # ------------------------------------------------------------------ play

    async def act(self, caller: Caller, action: Action) -> list[Reply]:
        campaign, game, state = await self._active(caller)
        seats = await self.repo.seats(_id(campaign))
        prompt = game.waiting_on(state)
        welcome = await self._end_autopilot(caller, seats)
        try:
            seat = self._acting_seat(caller, seats, prompt, game, state, action)
        except UserError as refused:
            raise UserError(f"{welcome}{refused}") from None
        waiting_before = {s.user_id for s in seats if s.role in prompt.seats and s.user_id}
        seq = campaign.step + 1
        step, random_used, automatic = await asyncio.to_thread(
            run_action, game, state, campaign.seed, seq, seat, action
        )
        log = _action_row(campaign, seq, seat, caller.user_id, action, step.events, random_used)
        return await self._commit_and_post(
            caller,
            campaign,
            game,
            step.state,
            step.events,
            log,
            waiting_before=waiting_before,
            automatic=automatic,
        )

    async def _end_autopilot(self, caller: Caller, seats: list[Seat]) -> str:
        """Any attempt to play ends autopilot and away mode for the caller's seats."""
        returning = [
            s for s in seats if s.user_id == caller.user_id and (s.autopilot or s.away_until)
        ]
        for seat in returning:
            await self.repo.seat_update(_id_seat(seat), autopilot=False, away_until=None)
            seat.autopilot, seat.away_until = False, None
        return "Welcome back: autopilot is off for your seats. " if returning else ""

    def _acting_seat(
        self,
        caller: Caller,
        seats: list[Seat],
        prompt: Prompt,
        game: Game[Any],
        state: Any,
        action: Action,
    ) -> str:
        mine = [s.role for s in seats if s.user_id == caller.user_id]
        if not mine:
            raise UserError("You have no seat in this campaign. Join with /campaign join.")
        if prompt.finished:
            raise UserError("The mission is over.")
        ready = [role for role in mine if role in prompt.seats]
        if not ready:
            return_text = waiting_line(prompt, seats)
            raise UserError(f"It is not your turn. {return_text}")
        if len(ready) > 1:
            for role in ready:
                if any(a.matches(action) for a in game.legal_actions(state, role)):
                    return role
        return ready[0]

    async def undo(self, caller: Caller, options: dict[str, str]) -> list[Reply]:
        campaign, game, _ = await self._active(caller)
        last = await self.repo.last_log(_id(campaign))
        if last is None or last.kind != "action":
            raise UserError("There is nothing to undo.")
        if last.user_id != caller.user_id:
            raise UserError("You can only undo your own last action.")
        if last.random_used or any(
            e.visible_to is not None for e in parse_events(json.loads(last.events_json))
        ):
            raise UserError("That action rolled dice or revealed something: it cannot be undone.")
        rows = await self.repo.log(_id(campaign))
        to_seq = max(r.seq for r in rows if r.seq < last.seq)
        state = replay(campaign, [r for r in rows if r.seq <= to_seq]).final
        log = ActionLog(
            campaign_id=_id(campaign),
            seq=campaign.step + 1,
            kind="undo",
            seat=last.seat,
            user_id=caller.user_id,
            action_json=json.dumps({"to_seq": to_seq, "undone": last.seq}),
        )
        return await self._commit_and_post(
            caller,
            campaign,
            game,
            state,
            [],
            log,
            headline=f"{caller.user_name} takes back their last action.",
        )

    async def board(self, caller: Caller, options: dict[str, str]) -> list[Reply]:
        """The board: full (default), a close-up around the action, or as text."""
        campaign, game, state = await self._active(caller, finished_ok=True)
        private, seat = await self._viewer(caller, campaign, options)
        mode = options.get("view", "full").lower()
        if mode not in BOARD_VIEWS:
            raise UserError(f"view must be one of: {', '.join(BOARD_VIEWS)}.")
        view = game.view(state, seat)
        if mode == "text":
            return [Reply(text_board(view), ephemeral=private)]
        image = await board_image(view, "focus" if mode == "focus" else "full")
        return [Reply(f"Board of campaign #{campaign.id}.", ephemeral=private, images=[image])]

    async def sheet(self, caller: Caller, options: dict[str, str]) -> list[Reply]:
        """A figure's card: its profile and current state."""
        campaign, game, state = await self._active(caller, finished_ok=True)
        private, seat = await self._viewer(caller, campaign, options)
        view = game.view(state, seat)
        wanted = options.get("unit", "").strip().lower()
        figure = next((f for f in view.figures if wanted in (f.id.lower(), f.label.lower())), None)
        if figure is None:
            names = ", ".join(f.id for f in view.figures[:20])
            raise UserError(f"No figure '{wanted}' on the board. Figures: {names}.")
        image = await sheet_image(view, figure.id)
        return [Reply(f"{figure.name} ({figure.coord}).", ephemeral=private, images=[image])]

    async def _viewer(
        self, caller: Caller, campaign: Campaign, options: dict[str, str]
    ) -> tuple[bool, str | None]:
        """`for:me` answers privately with the caller's own seat view (hidden info included)."""
        audience = options.get("for", "all").lower()
        if audience not in ("all", "me"):
            raise UserError("for must be all or me.")
        if audience == "all":
            return False, None
        mine = [s.role for s in await self.repo.seats(_id(campaign)) if s.user_id == caller.user_id]
        return True, mine[0] if mine else None

    async def show_log(self, caller: Caller, options: dict[str, str]) -> list[Reply]:
        campaign = await self._live(caller)
        try:
            count = int(options.get("last", "10"))
        except ValueError:
            raise UserError("last must be a number from 1 to 50.") from None
        if not 1 <= count <= 50:
            raise UserError("last must be a number from 1 to 50.")
        rows = (await self.repo.log(_id(campaign)))[-count:]
        lines = []
        for row in rows:
            texts = [
                e.text
                for e in parse_events(json.loads(row.events_json))
                if e.text and e.visible_for(None)
            ]
            what = (
                row.kind
                if row.kind != "action"
                else Action.model_validate_json(row.action_json).command()
            )
            lines.append(f"`#{row.seq}` {row.seat or ''} {what}: " + (" ".join(texts)[:300] or "-"))
        return ephemeral("\n".join(lines) or "The log is empty.")

    # ------------------------------------------------------------------ pacing

    async def rules(self, caller: Caller, options: dict[str, str]) -> list[Reply]:
        """Our own short rules reference for the channel's game (or the one named)."""
        game_key = options.get("game", "").lower() or await self._channel_game(caller)
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

    async def _figure_choices(self, caller: Caller) -> list[Suggestion]:
        campaign = await self.repo.live_in_channel(caller.channel_id)
        if campaign is None or not campaign.state_json:
            return []
        game = get_game(campaign.game)
        view = game.view(game.load(json.loads(campaign.state_json)), None)
        return [Suggestion(f"{f.name} at {f.coord}"[:100], f.id) for f in view.figures]

    async def _channel_game(self, caller: Caller) -> str:
        campaign = await self.repo.live_in_channel(
            caller.channel_id
        ) or await self.repo.latest_in_channel(caller.channel_id)
        return campaign.game if campaign else ""

    async def hand(self, caller: Caller, options: dict[str, str]) -> list[Reply]:
        """Your private cards and secrets, only ever shown to you."""
        campaign, game, state = await self._active(caller, finished_ok=True)
        mine = [s.role for s in await self.repo.seats(_id(campaign)) if s.user_id == caller.user_id]
        if not mine:
            raise UserError("You have no seat in this campaign, so there is no hand to show.")
        lines = []
        for role in mine:
            private = game.view(state, role).private
            lines.append(f"**{role}**: " + ("\n".join(private) if private else "nothing hidden."))
        return ephemeral("\n".join(lines))

    async def prefs(self, caller: Caller, options: dict[str, str]) -> list[Reply]:
        """A player's own reminder settings, shared by all their campaigns."""
        prefs = await self.repo.prefs(caller.user_id)
        unknown = set(options) - {"timezone", "quiet", "reminders", "dm"}
        if unknown:
            raise UserError(
                f"Unknown preference '{sorted(unknown)[0]}': timezone, quiet, reminders, dm."
            )
        try:
            if "timezone" in options:
                prefs.timezone = check_timezone(options["timezone"])
            if "quiet" in options:
                if options["quiet"].lower() == "off":
                    prefs.quiet_start = prefs.quiet_end = None
                else:
                    prefs.quiet_start, prefs.quiet_end = parse_quiet(options["quiet"])
        except ValueError as bad:
            raise UserError(str(bad)) from None
        if "reminders" in options:
            if options["reminders"].lower() not in REMINDER_CHOICES:
                raise UserError(f"reminders must be one of: {', '.join(REMINDER_CHOICES)}.")
            prefs.reminders = options["reminders"].lower()
        if "dm" in options:
            if options["dm"].lower() not in ("on", "off"):
                raise UserError("dm must be on or off.")
            prefs.dm = options["dm"].lower() == "on"
        if options:
            await self.repo.save_prefs(prefs)
        quiet = f"{prefs.quiet_start}-{prefs.quiet_end}" if prefs.quiet_start is not None else "off"
        return ephemeral(
            f"Your preferences: timezone {prefs.timezone}, quiet hours {quiet}, reminders "
            f"{prefs.reminders}, direct messages {'on' if prefs.dm else 'off'}."
        )

    async def away(self, caller: Caller, options: dict[str, str]) -> list[Reply]:
        """Mark yourself away: your seats are played safely until you return or act."""
        campaign, game, state = await self._active(caller)
        mine = [s for s in await self.repo.seats(_id(campaign)) if s.user_id == caller.user_id]
        if not mine:
            raise UserError("You have no seat in this campaign.")
        span_text = options.get("for", "")
        if span_text.lower() == "off":
            for seat in mine:
                await self.repo.seat_update(_id_seat(seat), away_until=None, autopilot=False)
            return [Reply(f"{caller.user_name} is back.")]
        try:
            until = self.clock.now() + parse_away(span_text)
        except ValueError as bad:
            raise UserError(str(bad)) from None
        for seat in mine:
            await self.repo.seat_update(_id_seat(seat), away_until=until)
        roles = ", ".join(s.role for s in mine)
        headline = (
            f"{caller.user_name} is away until {until:%Y-%m-%d %H:%M} UTC; the safe "
            f"policy plays {roles} meanwhile (end the turn, keep standing orders)."
        )
        state, events = await self._run_autopilot(campaign, game, state)
        if not events:
            return [Reply(headline)]
        return await self._post_step(
            caller, campaign, game, state, game.waiting_on(state), events, headline, set()
        )

    async def vote(self, caller: Caller, options: dict[str, str]) -> list[Reply]:
        """Vote to skip a seat whose deadline has passed (deadline policy 'vote')."""
        campaign, game, state = await self._active(caller)
        if campaign_settings(campaign)["deadline_policy"] != "vote":
            raise UserError("This campaign does not skip by vote (deadline_policy is not vote).")
        role = options.get("skip", "").lower()
        seats = await self.repo.seats(_id(campaign))
        target = next((s for s in seats if s.role == role), None)
        if target is None:
            raise UserError("Name the seat to skip: /vote skip:<seat>.")
        voters = {s.user_id for s in seats if s.user_id and s.user_id != target.user_id}
        if caller.user_id not in voters:
            raise UserError("Only the other players at this table can vote to skip a seat.")
        nudge = next(
            (
                n
                for n in await self.repo.nudges(_id(campaign))
                if n.kind == "reminder" and n.user_id == target.user_id
            ),
            None,
        )
        if nudge is None or not nudge.deadline_passed:
            raise UserError(f"{role} has not passed the deadline, so there is nothing to vote on.")
        votes = set(json.loads(nudge.votes_json)) | {caller.user_id}
        if not await self.repo.claim(nudge, votes_json=json.dumps(sorted(votes))):
            raise TableChanged()
        needed = len(voters) // 2 + 1
        if len(votes) < needed:
            return [Reply(f"{caller.user_name} votes to skip {role} ({len(votes)}/{needed}).")]
        action = safe_action(game, state, role)
        if action is None or role not in game.waiting_on(state).seats:
            return [Reply(f"The vote passes, but {role} has nothing to decide right now.")]
        state, events = await self._play_for(
            campaign, game, state, role, action, "vote", "The table's vote"
        )
        return await self._post_step(
            caller,
            campaign,
            game,
            state,
            game.waiting_on(state),
            events,
            f"The vote passes: {role} is skipped this time.",
            set(),
        )

    async def close_window(self, campaign_id: int) -> list[Reply]:
        """The answer window of a pending question has closed: apply its default."""
        campaign = await self.repo.get(campaign_id)
        if campaign is None:
            return []
        async with self._lock(campaign.channel_id):
            campaign = await self.repo.live_in_channel(campaign.channel_id)
            if campaign is None or campaign.status != "active" or not campaign.state_json:
                return []
            game = get_game(campaign.game)
            state = game.load(json.loads(campaign.state_json))
            prompt = game.waiting_on(state)
            if prompt.default is None or not prompt.seats:
                return []  # answered meanwhile
            role = prompt.seats[0]
            state, events = await self._play_for(
                campaign, game, state, role, prompt.default, "window", "The default answer"
            )
            state, more = await self._run_autopilot(campaign, game, state)
            system = Caller("scheduler", "Sortie", campaign.channel_id, campaign.guild_id)
            return await self._post_step(
                system,
                campaign,
                game,
                state,
                game.waiting_on(state),
                [*events, *more],
                f"No answer from {role} in time: the default applies.",
                set(),
            )

    async def resume_autopilot(self, channel_id: str, headline: str) -> list[Reply]:
        """Let autopilot seats play now (after the scheduler put a seat on autopilot)."""
        async with self._lock(channel_id):
            campaign = await self.repo.live_in_channel(channel_id)
            if campaign is None or campaign.status != "active" or not campaign.state_json:
                return []
            game = get_game(campaign.game)
            state = game.load(json.loads(campaign.state_json))
            state, events = await self._run_autopilot(campaign, game, state)
            system = Caller("scheduler", "Sortie", channel_id, campaign.guild_id)
            if not events:
                return [Reply(headline)]
            return await self._post_step(
                system, campaign, game, state, game.waiting_on(state), events, headline, set()
            )

    async def pause(self, channel_id: str, reason: str) -> bool:
        """Pause a campaign whose channel the bot can no longer post in (logged, reversible).

        Reminders stop; the first command in the channel afterwards resumes it.
        """
        async with self._lock(channel_id):
            campaign = await self.repo.live_in_channel(channel_id)
            if campaign is None or campaign.status != "active" or campaign.state_json is None:
                return False
            row = ActionLog(
                campaign_id=_id(campaign),
                seq=campaign.step + 1,
                kind="pause",
                action_json=json.dumps({"reason": reason[:200]}),
            )
            waiting = WaitingUpdate(now=self.clock.now(), users=set())
            await self.repo.commit_step(
                campaign, StepWrite(campaign.state_json, row, "paused", waiting=waiting)
            )
            log.info("campaign %s paused: %s", campaign.id, reason)
            return True

    async def _resume(self, campaign: Campaign, game: Game[Any], state: Any) -> None:
        log_row = ActionLog(campaign_id=_id(campaign), seq=campaign.step + 1, kind="resume")
        await self._persist(campaign, game, state, log_row, actor=None)

    async def _catch_up(self, caller: Caller) -> list[Reply]:
        """'Since your last turn': what others did while this player was away."""
        campaign, seats = await self.repo.table(caller.channel_id)
        if campaign is None or campaign.status != "active":
            return []
        mine = [s for s in seats if s.user_id == caller.user_id]
        if not mine:
            return []
        seen = max(s.last_seen_seq for s in mine)
        if seen >= campaign.step:
            return []  # the usual case: their own last step was the table's last
        await self.repo.mark_seen(_id(campaign), caller.user_id, campaign.step)
        if seen == 0:
            return []
        rows = [
            r
            for r in await self.repo.log(_id(campaign), after_seq=seen)
            if r.user_id != caller.user_id
        ]
        if not rows:
            return []
        events = [
            e
            for r in rows
            for e in parse_events(json.loads(r.events_json))
            if e.text and e.visible_for(None)
        ]
        game = get_game(campaign.game)
        state = game.load(json.loads(campaign.state_json or "{}"))
        view = game.view(state, mine[0].role)
        roles = {s.role for s in mine}
        my_figures = {f.id for f in view.figures if f.seat in roles}
        touching = [
            e.text
            for e in events
            if {getattr(e, "figure", None), getattr(e, "target", None)} & my_figures
        ]
        lines = [e.text for e in events]
        shown = lines[-12:]
        more = (
            f"\n…and {len(lines) - len(shown)} earlier lines (see /log)."
            if len(lines) > len(shown)
            else ""
        )
        yours = ("\n**Your figures:**\n" + "\n".join(touching[-6:])) if touching else ""
        image = await board_image(view, "focus")
        replies = ephemeral(
            f"**Since your last turn** ({len(rows)} steps):\n" + "\n".join(shown) + more + yours
        )
        replies[-1].images.append(image)
        return replies

    # ------------------------------------------------------------------ autocomplete

    async def autocomplete(self, caller: Caller, text: str) -> list[Suggestion]:
        try:
            command = parse(text, allow_partial=True)
        except CommandError:
            return []
        if command.partial is None or (
            command.name not in GROUPS and command.name not in TOP_LEVEL
        ):
            return _prefix(
                [Suggestion(f"/{n}", f"/{n}") for n in (*GROUPS, *TOP_LEVEL)], command.name
            )
        typed = command.options.get(command.partial, "")
        if command.name == "campaign":
            return _prefix(await self._campaign_choices(caller, command), typed)
        if command.name in PLAY_VERBS:
            return _prefix(await self._action_choices(caller, command), typed)
        if command.name == "rules" and command.partial == "topic":
            game_key = command.options.get("game", "") or await self._channel_game(caller)
            try:
                found = rules_reference.search(game_key, typed)
            except ValueError:
                return []
            return [Suggestion(f"{t.title} ({t.key})"[:100], t.key) for t in found]
        if command.name in ("sheet",) and command.partial == "unit":
            return _prefix(await self._figure_choices(caller), typed)
        if command.name == "board" and command.partial == "view":
            return _prefix([Suggestion(v, v) for v in BOARD_VIEWS], typed)
        if command.name == "rules" and command.partial == "game":
            return _prefix([Suggestion(g.title, k) for k, g in games().items()], typed)
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
            info = _scenario(get_game(campaign.game), campaign.scenario)
            seats = await self.repo.seats(_id(campaign))
            taken = {s.role for s in seats if s.user_id}
            mine = {s.role for s in seats if s.user_id == caller.user_id}
            wanted = (lambda key: key not in taken) if command.sub == "join" else mine.__contains__
            return [Suggestion(f"{r.key} — {r.name}", r.key) for r in info.roles if wanted(r.key)]
        if command.sub == "seat" and key == "role":
            campaign = await self.repo.live_in_channel(caller.channel_id)
            if campaign is None:
                return []
            return [
                Suggestion(f"{s.role} — {s.user_name or 'free'}", s.role)
                for s in await self.repo.seats(_id(campaign))
            ]
        if command.sub == "settings" and key in CAMPAIGN_SETTINGS:
            return [Suggestion(v, v) for v in CAMPAIGN_SETTINGS[key]]
        return []

    async def _action_choices(self, caller: Caller, command: Command) -> list[Suggestion]:
        campaign = await self.repo.live_in_channel(caller.channel_id)
        if campaign is None or campaign.status != "active" or not campaign.state_json:
            return []
        game = get_game(campaign.game)
        state = game.load(json.loads(campaign.state_json))
        prompt = game.waiting_on(state)
        mine = [
            s.role
            for s in await self.repo.seats(_id(campaign))
            if s.user_id == caller.user_id and s.role in prompt.seats
        ]
        focus = command.partial or ""
        fixed = {k: v.lower() for k, v in command.options.items() if k != focus}
        seen: dict[str, Suggestion] = {}
        for role in mine:
            for action in game.legal_actions(state, role):
                if action.verb != command.name or focus not in action.args:
                    continue
                if any(action.args.get(k, "").lower() != v for k, v in fixed.items()):
                    continue
                value = action.args[focus]
                if value not in seen:
                    seen[value] = Suggestion((action.label or value)[:100], value)
        return list(seen.values())

    # ------------------------------------------------------------------ verification

    async def verify(self) -> list[tuple[int, bool, str]]:
        """Replay every campaign's log and compare with its stored snapshot."""
        results = []
        for campaign in await self.repo.all():
            rows = await self.repo.log(_id(campaign))
            if campaign.state_json is None:
                results.append(
                    (_id(campaign), not rows or all(r.kind == "end" for r in rows), "not begun")
                )
                continue
            try:
                game = get_game(campaign.game)
                final = replay(campaign, rows).final
                stored = game.load(json.loads(campaign.state_json))
                same = canonical(game, final) == canonical(game, stored)
                results.append((_id(campaign), same, "reproducible" if same else "DIFFERS"))
            except Exception as error:  # verification reports, it does not crash
                results.append((_id(campaign), False, f"replay failed: {error}"))
        return results

    # ------------------------------------------------------------------ helpers

    async def _live(self, caller: Caller, allow_none: bool = False) -> Campaign:
        campaign = await self.repo.live_in_channel(caller.channel_id)
        if campaign is None and not allow_none:
            raise UserError("No campaign in this channel. Start one with /campaign create.")
        if campaign is not None:
            _same_server(caller, campaign)
        return campaign  # type: ignore[return-value]

    async def _active(
        self, caller: Caller, finished_ok: bool = False
    ) -> tuple[Campaign, Game[Any], Any]:
        campaign, _ = await self.repo.table(caller.channel_id)  # its seats are read with it
        if campaign is None:
            latest = await self.repo.latest_in_channel(caller.channel_id)
            if latest is not None and finished_ok and latest.state_json:
                campaign = latest
            elif latest is not None:
                raise UserError(
                    f"The last campaign here is over ({latest.outcome or latest.status}). "
                    "Start a new one with /campaign create."
                )
            else:
                raise UserError("No campaign in this channel. Start one with /campaign create.")
        if campaign.state_json is None:
            raise UserError(
                "The mission has not begun yet: the owner starts it with /campaign begin."
            )
        _same_server(caller, campaign)
        game = get_game(campaign.game)
        state = game.load(json.loads(campaign.state_json))
        if campaign.status == "paused":
            await self._resume(campaign, game, state)
        return campaign, game, state

    def _require_owner(self, caller: Caller, campaign: Campaign, what: str) -> None:
        if caller.user_id != campaign.owner_id:
            raise UserError(f"Only the campaign owner can {what}.")

    async def _persist(
        self,
        campaign: Campaign,
        game: Game[Any],
        state: Any,
        log: ActionLog,
        actor: str | None,
        seats: list[Seat] | None = None,
    ) -> Prompt:
        """Commit one step with the scheduler's bookkeeping in the same transaction."""
        prompt = game.waiting_on(state)
        now = self.clock.now()
        if seats is None:
            seats = await self.repo.seats(_id(campaign))
        waiting = {
            s.user_id
            for s in seats
            if s.role in prompt.seats and s.user_id and not seat_on_autopilot(s, now)
        }
        settings = campaign_settings(campaign)
        remind: dict[str, timedelta | None] = {}
        all_prefs = await self.repo.prefs_many(waiting)
        for user_id in waiting:
            prefs = all_prefs[user_id]
            interval = remind_after(settings, prefs)
            quiet_end = quiet_until(prefs, now)
            if quiet_end is not None and interval is not None:
                # The mention is held back: the reminder arrives when quiet hours end.
                interval = min(interval, quiet_end - now)
            remind[user_id] = interval
        await self.repo.commit_step(
            campaign,
            StepWrite(
                state_json=json.dumps(game.dump(state), separators=(",", ":")),
                log=log,
                status="finished" if prompt.finished else "active",
                outcome=prompt.outcome,
                seen_by=actor,
                waiting=WaitingUpdate(
                    now=now,
                    users=set() if prompt.finished else waiting,
                    actor=actor,
                    remind_after=remind,
                    deadline_after=hours(settings["deadline_hours"]),
                    window_after=answer_window(settings)
                    if prompt.default is not None and not prompt.finished
                    else None,
                ),
            ),
        )
        return prompt

    async def _run_autopilot(
        self, campaign: Campaign, game: Game[Any], state: Any, seats: list[Seat] | None = None
    ) -> tuple[Any, list[Event]]:
        """Play seats on autopilot while the game waits on them and a human still plays."""
        events: list[Event] = []
        if seats is None:
            seats = await self.repo.seats(_id(campaign))
        for _ in range(MAX_AUTOPILOT_STEPS):
            prompt = game.waiting_on(state)
            if prompt.finished:
                break
            now = self.clock.now()
            if (
                prompt.default is not None
                and prompt.seats
                and not answer_window(campaign_settings(campaign))
            ):
                # Questions are answered by their default at once on this table.
                state, step_events = await self._play_for(
                    campaign,
                    game,
                    state,
                    prompt.seats[0],
                    prompt.default,
                    "window",
                    "The default answer",
                    seats,
                )
                events.extend(step_events)
                continue
            humans = [s for s in seats if s.user_id and not seat_on_autopilot(s, now)]
            auto = [s for s in seats if s.role in prompt.seats and seat_on_autopilot(s, now)]
            if not auto or not humans:
                break
            seat = auto[0]
            action = safe_action(game, state, seat.role)
            if action is None:
                break
            state, step_events = await self._play_for(
                campaign, game, state, seat.role, action, "autopilot", "Autopilot", seats
            )
            events.extend(step_events)
        return state, events

    async def _play_for(
        self,
        campaign: Campaign,
        game: Game[Any],
        state: Any,
        role: str,
        action: Action,
        user_id: str,
        who: str,
        seats: list[Seat] | None = None,
    ) -> tuple[Any, list[Event]]:
        """Apply a safe action on a seat's behalf, logged like any other step."""
        seq = campaign.step + 1
        step, random_used, _ = await asyncio.to_thread(
            run_action, game, state, campaign.seed, seq, role, action
        )
        events: list[Event] = [
            Note(text=f"{who} plays for {role}: {action.command()}"),
            *step.events,
        ]
        log = _action_row(campaign, seq, role, user_id, action, events, random_used)
        await self._persist(campaign, game, step.state, log, actor=None, seats=seats)
        return step.state, events

    async def _commit_and_post(
        self,
        caller: Caller,
        campaign: Campaign,
        game: Game[Any],
        state: Any,
        events: list[Event],
        log: ActionLog,
        headline: str = "",
        waiting_before: set[str] | None = None,
        automatic: list[Event] | None = None,
    ) -> list[Reply]:
        actor = caller.user_id if log.kind == "action" else None
        automatic = list(automatic or [])
        seats = await self.repo.seats(_id(campaign))
        prompt = await self._persist(campaign, game, state, log, actor, seats)
        state, auto_events = await self._run_autopilot(campaign, game, state, seats)
        if auto_events:
            events = [*events, *auto_events]
            automatic += auto_events
            prompt = game.waiting_on(state)
        return await self._post_step(
            caller,
            campaign,
            game,
            state,
            prompt,
            events,
            headline,
            waiting_before or set(),
            actor,
            seats,
            automatic,
        )

    async def _post_step(
        self,
        caller: Caller,
        campaign: Campaign,
        game: Game[Any],
        state: Any,
        prompt: Prompt,
        events: list[Event],
        headline: str,
        waiting_before: set[str],
        actor: str | None = None,
        seats: list[Seat] | None = None,
        automatic: list[Event] | None = None,
    ) -> list[Reply]:
        if seats is None:
            seats = await self.repo.seats(_id(campaign))
        public = [e for e in events if e.visible_for(None)]
        lines = [headline] if headline else []
        lines += [e.text for e in public if e.text]
        view = game.view(state, None)
        images: list[Attachment] | None = None
        shown_automatic = [e for e in automatic or [] if e.visible_for(None)]
        if has_activity(shown_automatic):
            # The enemy or Event phase: one animation of every activation, then the board.
            images = await phase_images(view, shown_automatic)
        if images is None:
            images = [await self.render(view, public)]
        mentions: list[str] = []
        if prompt.finished:
            lines.append(f"**Mission over: {prompt.outcome or 'ended'}.**")
        else:
            lines.append(waiting_line(prompt, seats))
            mentions = await self._mentions(prompt, seats, events, actor, waiting_before)
        chunks = split_message("\n".join(lines))
        replies = [Reply(chunk) for chunk in chunks[:-1]]
        buttons = (
            []
            if prompt.finished
            else [
                Button("End turn", "/end-turn", "primary"),
                Button("Undo", "/undo"),
                Button("Board", "/board"),
            ]
        )
        buttons = _choice_buttons(game, state, prompt) + buttons
        replies.append(
            Reply(
                chunks[-1],
                images=images,
                mentions=mentions,
                buttons=buttons,
                version=campaign.version,
                game=campaign.game,
            )
        )
        mirrors = [m for m in campaign_settings(campaign).get("mirrors", "").split(",") if m]
        for reply in replies:
            reply.mirror_to = list(mirrors)
        my_roles = {s.role for s in seats if s.user_id == caller.user_id}
        secret = [
            e.text
            for e in events
            if not e.visible_for(None) and e.text and any(e.visible_for(r) for r in my_roles)
        ]
        if secret:
            replies.extend(ephemeral("Only you see this:\n" + "\n".join(secret)))
        return replies

    async def _mentions(
        self,
        prompt: Prompt,
        seats: list[Seat],
        events: list[Event],
        actor: str | None,
        waiting_before: set[str],
    ) -> list[str]:
        """Ping only players whose input is newly needed, never the one who just acted, and
        nobody inside their quiet hours (their reminder comes when those end)."""
        now = self.clock.now()
        waiting = {
            s.user_id
            for s in seats
            if s.role in prompt.seats and s.user_id and not seat_on_autopilot(s, now)
        }
        # A new phase or a question (a choice, a vote) needs fresh input even from players the
        # game was already waiting on.
        renewed = prompt.kind in ("choice", "vote") or any(
            isinstance(e, PhaseChanged) for e in events
        )
        fresh = waiting - {actor} - (set() if renewed else waiting_before)
        prefs = await self.repo.prefs_many(fresh)
        return [user_id for user_id in sorted(fresh) if quiet_until(prefs[user_id], now) is None]


# ---------------------------------------------------------------------- module helpers


def _id(campaign: Campaign) -> int:
    assert campaign.id is not None
    return campaign.id


def _action_row(
    campaign: Campaign,
    seq: int,
    seat: str,
    user_id: str,
    action: Action,
    events: list[Event],
    random_used: bool,
) -> ActionLog:
    """The log row of a player action: enough to replay it exactly."""
    return ActionLog(
        campaign_id=_id(campaign),
        seq=seq,
        kind="action",
        seat=seat,
        user_id=user_id,
        action_json=action.model_dump_json(include={"verb", "args"}),
        events_json=json.dumps(dump_events(events)),
        random_used=random_used,
    )


def _id_seat(seat: Seat) -> int:
    assert seat.id is not None
    return seat.id


MAX_CHOICE_BUTTONS = 4
BOARD_VIEWS = ("full", "focus", "text")
MAX_MIRRORS = 5
MIRROR_CHANNEL = re.compile(r"[A-Za-z0-9_-]{1,32}")


def _choice_buttons(game: Game[Any], state: Any, prompt: Prompt) -> list[Button]:
    """When the game asks a question, its first answers as buttons (all stay typeable)."""
    if prompt.kind != "choice" or prompt.finished:
        return []
    options = [
        a for seat in prompt.seats for a in game.legal_actions(state, seat) if a.verb == "choose"
    ]
    return [
        Button((a.label or a.args.get("option", "?"))[:80], a.command(), "success")
        for a in options[:MAX_CHOICE_BUTTONS]
    ]


def _same_server(caller: Caller, campaign: Campaign) -> None:
    """Defence in depth: a campaign answers only to commands from its own server."""
    if campaign.guild_id != caller.guild_id:
        raise UserError("This campaign belongs to another server.")


def _game(key: str) -> Game[Any]:
    try:
        return get_game(key.lower())
    except ValueError as unknown:
        raise UserError(str(unknown)) from None


def _scenario(game: Game[Any], key: str) -> ScenarioInfo:
    try:
        return scenario_info(game, key.lower())
    except ValueError as unknown:
        raise UserError(str(unknown)) from None


def _busy(existing: Campaign) -> str:
    return (
        f"This channel already has a campaign (#{existing.id}, {existing.game} / "
        f"{existing.scenario}, {existing.status}). End it with /campaign end, or use "
        "another channel or thread."
    )


def waiting_line(prompt: Prompt, seats: list[Seat]) -> str:
    if prompt.finished:
        return f"The mission is over: {prompt.outcome or 'ended'}."
    holders = []
    for role in prompt.seats:
        seat = next((s for s in seats if s.role == role), None)
        who = f"<@{seat.user_id}>" if seat and seat.user_id else "a free seat"
        holders.append(f"{who} ({role})")
    text = f" {prompt.text}" if prompt.text else ""
    return f"Waiting on {', '.join(holders) or 'nobody'}.{text}"


def _prefix(choices: list[Suggestion], typed: str) -> list[Suggestion]:
    typed = typed.lower()
    starts = [c for c in choices if c.value.lower().startswith(typed)]
    contains = [c for c in choices if typed in c.name.lower() and c not in starts]
    return (starts + contains)[:MAX_AUTOCOMPLETE]
