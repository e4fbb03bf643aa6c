"""Asynchronous pacing: preferences, away mode, votes, answer windows that close, pausing,
resuming, and the "since your last turn" catch-up."""

from __future__ import annotations

import json

from bot.pacing import (
    REMINDER_CHOICES,
    campaign_settings,
    check_timezone,
    parse_away,
    parse_quiet,
    safe_action,
)
from bot.pictures import board_image
from bot.replies import Reply, ephemeral
from bot.storage.models import ActionLog
from bot.storage.repo import StepWrite, TableChanged, WaitingUpdate
from bot.table.core import (
    Caller,
    TableCore,
    UserError,
    id_of,
    log,
    seat_id_of,
)
from engine.core.events import parse_events
from engine.registry import get_game


class PaceCommands(TableCore):
    """Pacing for play by post: preferences, absences, windows, pauses."""

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
        mine = [s for s in await self.repo.seats(id_of(campaign)) if s.user_id == caller.user_id]
        if not mine:
            raise UserError("You have no seat in this campaign.")
        span_text = options.get("for", "")
        if span_text.lower() == "off":
            for seat in mine:
                await self.repo.seat_update(seat_id_of(seat), away_until=None, autopilot=False)
            return [Reply(f"{caller.user_name} is back.")]
        try:
            until = self.clock.now() + parse_away(span_text)
        except ValueError as bad:
            raise UserError(str(bad)) from None
        for seat in mine:
            await self.repo.seat_update(seat_id_of(seat), away_until=until)
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
            return [Reply(f"{caller.user_name} votes to skip {role} ({len(votes)}/{needed}).")]
        action = safe_action(game, state, role)
        if action is None or role not in game.waiting_on(state).seats:
            return [Reply(f"The vote passes, but {role} has nothing to decide right now.")]
        state, events = await self._play_for(campaign, game, state, role, action, "vote")
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
        async with self._serialised(campaign.channel_id):
            playing = await self._playing(campaign.channel_id)
            if playing is None:
                return []
            campaign, game, state = playing
            prompt = game.waiting_on(state)
            if prompt.default is None or not prompt.seats:
                return []  # answered meanwhile
            role = prompt.seats[0]
            state, events = await self._play_for(
                campaign, game, state, role, prompt.default, "window"
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
        async with self._serialised(channel_id):
            playing = await self._playing(channel_id)
            if playing is None:
                return []
            campaign, game, state = playing
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
        async with self._serialised(channel_id):
            campaign = await self.repo.live_in_channel(channel_id)
            if campaign is None or campaign.status != "active" or campaign.state_json is None:
                return False
            row = ActionLog(
                campaign_id=id_of(campaign),
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
        await self.repo.mark_seen(id_of(campaign), caller.user_id, campaign.step)
        if seen == 0:
            return []
        rows = [
            r
            for r in await self.repo.log(id_of(campaign), after_seq=seen)
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
