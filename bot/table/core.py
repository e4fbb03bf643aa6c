"""What every table command stands on: the service's state, loading a channel's campaign,
committing a step with its scheduler bookkeeping, autopilot, and the reply after a step.

Nothing is replied before the step is committed.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import timedelta
from typing import Any, Protocol

from bot.clock import Clock, SystemClock
from bot.commands import PLAY_VERBS
from bot.pacing import (
    MAX_AUTOPILOT_STEPS,
    answer_window,
    campaign_settings,
    hours,
    quiet_until,
    remind_after,
    safe_action,
    seat_on_autopilot,
)
from bot.pictures import has_activity, phase_images, step_image
from bot.ratelimit import Buckets, RateLimits
from bot.replay import logged_events, run_action
from bot.replies import Attachment, Button, Reply, ephemeral, split_message
from bot.storage.db import Database
from bot.storage.models import ActionLog, Campaign, Seat
from bot.storage.repo import CampaignRepo, StepWrite, WaitingUpdate
from engine.core.events import Event, PhaseChanged, dump_events
from engine.core.game import Action, Game, Prompt, ScenarioInfo, scenario_info
from engine.registry import get_game

log = logging.getLogger("sortie.table")

MAX_AUTOCOMPLETE = 25
LEGAL_CACHE_SIZE = 256
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


class ChannelAccess(Protocol):
    """Whether a channel can receive a campaign's copies: the transport knows its channels."""

    async def refuses(self, caller: Caller, channel_id: str) -> str | None:
        """None when both the caller and the bot may post there, else why not."""
        ...


class AnyChannel:
    """The playground's rule: every channel of the pretend server is open to everyone."""

    async def refuses(self, caller: Caller, channel_id: str) -> str | None:
        return None


default_renderer: Renderer = step_image


class TableCore:
    """State and shared steps of the table service; the command groups build on it."""

    def __init__(
        self,
        db: Database,
        renderer: Renderer = default_renderer,
        new_seed: Callable[[], int] = lambda: secrets.randbits(62),
        clock: Clock | None = None,
        limits: RateLimits | None = DEFAULT_LIMITS,
    ) -> None:
        self.db = db
        self.limits = limits
        # Set by the Discord client, which can ask who may post where.
        self.channel_access: ChannelAccess = AnyChannel()
        # Counting live campaigns and creating one happen under this lock, so a burst of
        # creates cannot all pass the same count.
        self._create_lock = asyncio.Lock()
        self.clock: Clock = clock or SystemClock()
        self._user_buckets = Buckets(limits.user, self.clock) if limits else None
        self._channel_buckets = Buckets(limits.channel, self.clock) if limits else None
        self.repo = CampaignRepo(db)
        self.render = renderer
        self.new_seed = new_seed
        self._locks: dict[str, asyncio.Lock] = {}
        # Legal actions by (campaign, version, seat): every autocomplete keystroke and the
        # command that follows ask for the same list, and some games take milliseconds to
        # enumerate it. A new version (any step) is a new key, so entries never go stale.
        self._legal: OrderedDict[tuple[int, int, str], list[Action]] = OrderedDict()

    def _legal_actions(
        self, campaign: Campaign, game: Game[Any], state: Any, seat: str
    ) -> list[Action]:
        key = (id_of(campaign), campaign.version, seat)
        known = self._legal.get(key)
        if known is not None:
            self._legal.move_to_end(key)
            return known
        actions = game.legal_actions(state, seat)
        self._legal[key] = actions
        while len(self._legal) > LEGAL_CACHE_SIZE:
            self._legal.popitem(last=False)
        return actions

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

    @asynccontextmanager
    async def _serialised(self, channel_id: str) -> AsyncIterator[None]:
        """One command at a time on a channel: in this process, then across every process
        on the same database (PostgreSQL's advisory lock)."""
        async with self._lock(channel_id), self.db.channel_lock(channel_id):
            yield

    async def _channel_game(self, caller: Caller) -> str:
        campaign = await self.repo.live_in_channel(
            caller.channel_id
        ) or await self.repo.latest_in_channel(caller.channel_id)
        return campaign.game if campaign else ""

    async def _resume(self, campaign: Campaign, game: Game[Any], state: Any) -> None:
        log_row = ActionLog(campaign_id=id_of(campaign), seq=campaign.step + 1, kind="resume")
        await self._persist(campaign, game, state, log_row, actor=None)

    async def _live(self, caller: Caller, allow_none: bool = False) -> Campaign:
        campaign = await self.repo.live_in_channel(caller.channel_id)
        if campaign is None and not allow_none:
            raise UserError("No campaign in this channel. Start one with /campaign create.")
        if campaign is not None:
            check_same_server(caller, campaign)
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
        check_same_server(caller, campaign)
        game = get_game(campaign.game)
        state = game.load(json.loads(campaign.state_json))
        if campaign.status == "paused":
            await self._resume(campaign, game, state)
        return campaign, game, state

    async def _playing(self, channel_id: str) -> tuple[Campaign, Game[Any], Any] | None:
        """The channel's campaign with its game and state while it is being played, else None."""
        campaign = await self.repo.live_in_channel(channel_id)
        if campaign is None or campaign.status != "active" or not campaign.state_json:
            return None
        game = get_game(campaign.game)
        return campaign, game, game.load(json.loads(campaign.state_json))

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
            seats = await self.repo.seats(id_of(campaign))
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
                    deadline_after=hours(settings.deadline_hours),
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
            seats = await self.repo.seats(id_of(campaign))
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
                campaign, game, state, seat.role, action, "autopilot", seats
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
        seats: list[Seat] | None = None,
    ) -> tuple[Any, list[Event]]:
        """Apply a safe action on a seat's behalf (`user_id` names who: autopilot, window or
        vote), logged like any other step."""
        seq = campaign.step + 1
        step, random_used, _ = await asyncio.to_thread(
            run_action, game, state, campaign.seed, seq, role, action
        )
        events = logged_events(user_id, role, action, step.events)
        log = action_row(campaign, seq, role, user_id, action, events, random_used)
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
        seats = await self.repo.seats(id_of(campaign))
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
            seats = await self.repo.seats(id_of(campaign))
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
        buttons = choice_buttons(game, state, prompt) + buttons
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
        mirrors = list(campaign_settings(campaign).mirrors)
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


def id_of(campaign: Campaign) -> int:
    assert campaign.id is not None
    return campaign.id


def action_row(
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
        campaign_id=id_of(campaign),
        seq=seq,
        kind="action",
        seat=seat,
        user_id=user_id,
        action_json=action.model_dump_json(include={"verb", "args"}),
        events_json=json.dumps(dump_events(events)),
        random_used=random_used,
    )


def seat_id_of(seat: Seat) -> int:
    assert seat.id is not None
    return seat.id


MAX_CHOICE_BUTTONS = 4
BOARD_VIEWS = ("full", "focus", "text")


def choice_buttons(game: Game[Any], state: Any, prompt: Prompt) -> list[Button]:
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


def check_same_server(caller: Caller, campaign: Campaign) -> None:
    """Defence in depth: a campaign answers only to commands from its own server."""
    if campaign.guild_id != caller.guild_id:
        raise UserError("This campaign belongs to another server.")


def game_named(key: str) -> Game[Any]:
    try:
        return get_game(key.lower())
    except ValueError as unknown:
        raise UserError(str(unknown)) from None


def scenario_named(game: Game[Any], key: str) -> ScenarioInfo:
    try:
        return scenario_info(game, key.lower())
    except ValueError as unknown:
        raise UserError(str(unknown)) from None


def busy_message(existing: Campaign) -> str:
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


def by_prefix(choices: list[Suggestion], typed: str) -> list[Suggestion]:
    typed = typed.lower()
    starts = [c for c in choices if c.value.lower().startswith(typed)]
    contains = [c for c in choices if typed in c.name.lower() and c not in starts]
    return (starts + contains)[:MAX_AUTOCOMPLETE]
