"""The step runner: apply or advance with the step's dice, play seats on autopilot, commit.

A step is committed (state, log row and the scheduler's bookkeeping in one transaction)
before anything about it is replied; what it produced comes back as a `StepOutcome` for the
presenter.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from bot.clock import Clock
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
from bot.replay import logged_events, run_action
from bot.storage.models import ActionLog, Seat
from bot.storage.repo import CampaignRepo, StepWrite, WaitingUpdate
from bot.table.context import Caller, Loaded, id_of
from engine.core.events import Event, MissionEnded, PhaseChanged, dump_events
from engine.core.game import Action, Prompt


@dataclass(frozen=True)
class StandIn:
    """Who plays a seat's action when its player does not: autopilot, a window's default.

    The log records `user_id` as the actor; the note that opens the step names it
    (`bot.replay.logged_events`, which an import's replay uses too)."""

    user_id: str  # "autopilot", "window" or "vote"


AUTOPILOT = StandIn("autopilot")
DEFAULT_ANSWER = StandIn("window")
TABLE_VOTE = StandIn("vote")


@dataclass
class NewStep:
    """What a command did, before it is committed."""

    events: list[Event]
    log: ActionLog
    headline: str = ""
    # Players the game already waited on before the step: they are not pinged again.
    waiting_before: set[str] = field(default_factory=set)
    # The seats it waited on before the step (None: not known, a table command): a step that
    # shows nothing public but changes them still refreshes the post's buttons.
    seats_before: frozenset[str] | None = None
    automatic: list[Event] = field(default_factory=list)  # enemy or Event phase, autopilot
    # The step answered a question asked in private (`Prompt.private`, a Forlorn reaction
    # window): it goes on editing the open turn post and pings nobody back.
    private_answer: bool = False
    # The step answered a vote (a group choice every waited-on seat answers, the Galaxy Alpha
    # Agent): while the vote stays open its answers edit one post and ping nobody.
    ballot: bool = False


@dataclass
class StepOutcome:
    """One committed step, ready to be presented."""

    caller: Caller
    table: Loaded  # the campaign as committed, its game and its new state
    prompt: Prompt
    events: list[Event]
    seats: list[Seat]
    headline: str = ""
    automatic: list[Event] = field(default_factory=list)
    mentions: list[str] = field(default_factory=list)  # players whose input is newly needed
    seat: str | None = None  # the seat that acted (None: the table itself)
    version_before: int | None = None  # the campaign's version before the step
    deadline: datetime | None = None  # when the waited-on players' deadline falls, if set
    undo_seat: str | None = None  # whose action `/undo` can take back right after this step
    # Seated players outside their quiet hours: the mission end's post pings these, and names
    # the others without waking them.
    awake: list[str] = field(default_factory=list)
    private_answer: bool = False  # the step answered a question asked in private
    ballot: bool = False  # an answer to a vote (see `NewStep.ballot`)
    seats_before: frozenset[str] | None = None  # see `NewStep.seats_before`

    def quiet(self) -> bool:
        """Nothing to post: no public line, nobody newly needed, no phase, the mission goes
        on, and the game waits on the seats it waited on before (else the buttons a post
        offers would be stale: an older post's End turn for a seat no longer awaited)."""
        same_seats = self.seats_before is None or self.seats_before == frozenset(self.prompt.seats)
        return not self.mentions and not self.prompt.finished and same_seats


def final_step(log: ActionLog, events: list[Event]) -> bool:
    """A step `/undo` can never take back: it rolled dice or revealed something to someone."""
    return log.random_used or any(e.visible_to is not None for e in events)


def undoable_by(step: NewStep, after: list[Event]) -> str | None:
    """The seat whose action `/undo` would take back now: the step was its action, it is not
    final (`final_step`), and no stand-in acted after it."""
    log = step.log
    if log.kind != "action" or after or final_step(log, step.events):
        return None
    return log.seat


def log_row(
    table: Loaded,
    seat: str,
    user_id: str,
    action: Action,
    events: list[Event],
    random_used: bool,
) -> ActionLog:
    """The log row of the table's next step, a seat's action: enough to replay it exactly."""
    return ActionLog(
        campaign_id=id_of(table.campaign),
        seq=table.campaign.step + 1,
        kind="action",
        seat=seat,
        user_id=user_id,
        action_json=action.model_dump_json(include={"verb", "args"}),
        events_json=json.dumps(dump_events(events)),
        random_used=random_used,
    )


class StepRunner:
    def __init__(self, repo: CampaignRepo, clock: Clock) -> None:
        self.repo = repo
        self.clock = clock

    async def persist(
        self, table: Loaded, log: ActionLog, actor: str | None, seats: list[Seat] | None = None
    ) -> Prompt:
        """Commit the table's state with the scheduler's bookkeeping in one transaction."""
        campaign, game, state = table.campaign, table.game, table.state
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

    async def resume(self, table: Loaded) -> None:
        """A paused campaign plays again (logged, so replay knows it)."""
        campaign = table.campaign
        row = ActionLog(campaign_id=id_of(campaign), seq=campaign.step + 1, kind="resume")
        await self.persist(table, row, actor=None)

    async def play_for(
        self,
        table: Loaded,
        role: str,
        action: Action,
        stand_in: StandIn,
        seats: list[Seat] | None = None,
    ) -> list[Event]:
        """Apply an action on a seat's behalf, logged like any other step."""
        campaign = table.campaign
        step, random_used, _ = await asyncio.to_thread(
            run_action, table.game, table.state, campaign.seed, campaign.step + 1, role, action
        )
        events = logged_events(table.game, table.state, stand_in.user_id, role, action, step.events)
        log = log_row(table, role, stand_in.user_id, action, events, random_used)
        table.state = step.state
        await self.persist(table, log, actor=None, seats=seats)
        return events

    async def run_autopilot(self, table: Loaded, seats: list[Seat] | None = None) -> list[Event]:
        """Play seats on autopilot while the game waits on them and a human still plays."""
        events: list[Event] = []
        if seats is None:
            seats = await self.repo.seats(id_of(table.campaign))
        for _ in range(MAX_AUTOPILOT_STEPS):
            prompt = table.prompt()
            if prompt.finished:
                break
            now = self.clock.now()
            if (
                prompt.default is not None
                and prompt.seats
                and not answer_window(campaign_settings(table.campaign))
            ):
                # Questions are answered by their default at once on this table.
                events += await self.play_for(
                    table, prompt.seats[0], prompt.default, DEFAULT_ANSWER, seats
                )
                continue
            humans = [s for s in seats if s.user_id and not seat_on_autopilot(s, now)]
            auto = [s for s in seats if s.role in prompt.seats and seat_on_autopilot(s, now)]
            if not auto or not humans:
                break
            seat = auto[0]
            action = safe_action(table.game, table.state, seat.role)
            if action is None:
                break
            events += await self.play_for(table, seat.role, action, AUTOPILOT, seats)
        return events

    async def commit(self, caller: Caller, table: Loaded, step: NewStep) -> StepOutcome:
        """Commit a command's step, let autopilot seats answer, and say what happened."""
        actor = caller.user_id if step.log.kind == "action" else None
        version_before = table.campaign.version
        seats = await self.repo.seats(id_of(table.campaign))
        await self.persist(table, step.log, actor, seats)
        auto_events = await self.run_autopilot(table, seats)
        outcome = StepOutcome(
            caller=caller,
            table=table,
            prompt=table.prompt(),
            events=[*step.events, *auto_events],
            seats=seats,
            headline=step.headline,
            automatic=[*step.automatic, *auto_events],
            seat=step.log.seat if step.log.kind in ("action", "undo") else None,
            version_before=version_before,
            deadline=self.deadline(table),
            undo_seat=undoable_by(step, auto_events),
            private_answer=step.private_answer,
            ballot=step.ballot,
            seats_before=step.seats_before,
        )
        # Whoever acted (or took their action back) is not pinged about their own step.
        acted = caller.user_id if step.log.kind in ("action", "undo") else None
        outcome.mentions = await self.mentions(outcome, acted, step.waiting_before)
        outcome.awake = await self.awake(outcome)
        return outcome

    async def settled(
        self,
        caller: Caller,
        table: Loaded,
        events: list[Event],
        headline: str,
        private_for: str | None = None,
    ) -> StepOutcome:
        """The outcome of steps already committed (autopilot, a vote, a closed window);
        `private_for`: the seat whose question asked in private was answered by its default."""
        seats = await self.repo.seats(id_of(table.campaign))
        outcome = StepOutcome(caller, table, table.prompt(), events, seats, headline)
        if private_for is not None:
            outcome.seat, outcome.private_answer = private_for, True
        outcome.deadline = self.deadline(table)
        outcome.mentions = await self.mentions(outcome, None, set())
        outcome.awake = await self.awake(outcome)
        return outcome

    async def awake(self, outcome: StepOutcome) -> list[str]:
        """When the step ended a mission: every seated player not inside their quiet hours
        now, in seat order (else nobody is asked about)."""
        if not any(isinstance(e, MissionEnded) for e in outcome.events):
            return []
        now = self.clock.now()
        users = list(dict.fromkeys(s.user_id for s in outcome.seats if s.user_id))
        prefs = await self.repo.prefs_many(set(users))
        return [u for u in users if quiet_until(prefs[u], now) is None]

    def deadline(self, table: Loaded) -> datetime | None:
        """When the players the game now waits on must have acted (the board's header): the
        clock of the actor and of newly waited-on players starts again with each step."""
        after = hours(campaign_settings(table.campaign).deadline_hours)
        if after is None or table.prompt().finished:
            return None
        return self.clock.now() + after

    async def mentions(
        self, outcome: StepOutcome, actor: str | None, waiting_before: set[str]
    ) -> list[str]:
        """Ping only players whose input is newly needed, never the one who just acted, and
        nobody inside their quiet hours (their reminder comes when those end)."""
        prompt = outcome.prompt
        if prompt.finished or prompt.private:
            return []  # a question asked in private pings nobody: it is in the open post
        if outcome.ballot and prompt.kind == "vote":
            # One answer among several to a vote still open: its post is edited in place, and
            # those it still waits on were pinged when it opened (their reminders go on).
            return []
        now = self.clock.now()
        waiting = {
            s.user_id
            for s in outcome.seats
            if s.role in prompt.seats and s.user_id and not seat_on_autopilot(s, now)
        }
        # A new phase or a question (a choice, a vote) needs fresh input even from players the
        # game was already waiting on.
        renewed = prompt.kind in ("choice", "vote") or any(
            isinstance(e, PhaseChanged) for e in outcome.events
        )
        if outcome.private_answer:
            # Once a question asked in private is answered, the interrupted turn goes on.
            waiting_before = waiting_before | {s.user_id for s in outcome.seats if s.user_id}
        fresh = waiting - {actor} - (set() if renewed else waiting_before)
        prefs = await self.repo.prefs_many(fresh)
        return [user_id for user_id in sorted(fresh) if quiet_until(prefs[user_id], now) is None]
