"""Pacing commands a player types: reminder preferences, away mode, and votes to skip."""

from __future__ import annotations

import json

from bot.markup import escape
from bot.pacing import (
    REMINDER_CHOICES,
    campaign_settings,
    check_timezone,
    parse_away,
    parse_quiet,
    safe_action,
)
from bot.replies import Reply, ephemeral
from bot.storage.repo import TableChanged
from bot.table.context import Caller, UserError, id_of, seat_id_of
from bot.table.parts import TableParts
from bot.table.steps import TABLE_VOTE


class PaceCommands:
    """Pacing for play by post: preferences, absences, votes."""

    def __init__(self, parts: TableParts) -> None:
        self.parts = parts
        self.repo = parts.repo
        self.loader = parts.loader

    async def prefs(self, caller: Caller, options: dict[str, str]) -> list[Reply]:
        """A player's own reminder settings, shared by all their campaigns."""
        prefs = await self.repo.prefs(caller.user_id)
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
        table = await self.loader.active(caller)
        mine = [
            s for s in await self.repo.seats(id_of(table.campaign)) if s.user_id == caller.user_id
        ]
        if not mine:
            raise UserError("You have no seat in this campaign.")
        span_text = options.get("for", "")
        if span_text.lower() == "off":
            # Handed back at once: the seat the table waits on now waits on its player.
            for seat in mine:
                await self.repo.seat_update(seat_id_of(seat), away_until=None, autopilot=False)
            awaited = [s.role for s in mine if s.role in table.prompt().seats]
            if awaited:
                return [
                    Reply(
                        f"{escape(caller.user_name)} is back, and the table waits on them "
                        f"({', '.join(awaited)}): autopilot no longer plays for them."
                    )
                ]
            return [Reply(f"{escape(caller.user_name)} is back.")]
        try:
            until = self.parts.clock.now() + parse_away(span_text)
        except ValueError as bad:
            raise UserError(str(bad)) from None
        for seat in mine:
            await self.repo.seat_update(seat_id_of(seat), away_until=until)
        roles = ", ".join(s.role for s in mine)
        headline = (
            f"{escape(caller.user_name)} is away until {until:%Y-%m-%d %H:%M} UTC; the safe "
            f"policy plays {roles} meanwhile (end the turn, keep standing orders)."
        )
        events = await self.parts.steps.run_autopilot(table)
        if not events:
            return [Reply(headline)]
        outcome = await self.parts.steps.settled(caller, table, events, headline)
        return await self.parts.presenter.present(outcome)

    async def vote(self, caller: Caller, options: dict[str, str]) -> list[Reply]:
        """Vote to skip a seat whose deadline has passed (deadline policy 'vote')."""
        table = await self.loader.active(caller)
        campaign = table.campaign
        if campaign_settings(campaign).deadline_policy != "vote":
            raise UserError("This campaign does not skip by vote (deadline_policy is not vote).")
        role = options.get("skip", "").lower()
        seats = await self.repo.seats(id_of(campaign))
        target = next((s for s in seats if s.role == role), None)
        if target is None:
            raise UserError("Name the seat to skip: /vote skip:<seat>.")
        voters = {s.user_id for s in seats if s.user_id and s.user_id != target.user_id}
        if caller.user_id not in voters:
            raise UserError("Only the other players at this table can vote to skip a seat.")
        nudge = next(
            (
                n
                for n in await self.repo.nudges(id_of(campaign))
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
            return [
                Reply(f"{escape(caller.user_name)} votes to skip {role} ({len(votes)}/{needed}).")
            ]
        action = safe_action(table.game, table.state, role)
        if action is None or role not in table.prompt().seats:
            return [Reply(f"The vote passes, but {role} has nothing to decide right now.")]
        events = await self.parts.steps.play_for(table, role, action, TABLE_VOTE)
        headline = f"The vote passes: {role} is skipped this time."
        outcome = await self.parts.steps.settled(caller, table, events, headline)
        return await self.parts.presenter.present(outcome)
