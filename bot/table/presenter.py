"""The presenter: a committed step becomes the replies the channel and the actor see.

Narration from the public events, the picture (an automatic phase's animation, else the
close-up; the summary card when the mission ends), the turn buttons, the mentions the step
runner chose, copies for mirror channels, and a private line for what only the actor may see.

The post budget (`turnposts`): a player's steps edit one turn post in place, its running log
growing; a step that needs someone new, or an automatic phase, opens a new post. A step that
shows nothing public (a standing order, a private draw) and continues nothing posts nothing,
unless it changes the seats awaited: then a post with their buttons replaces the stale ones.
"""

from __future__ import annotations

import json

from bot.disclosure import (
    holds_secrets,
    private_texts,
    public_buttons,
    public_events,
    public_texts,
)
from bot.markup import channel_link
from bot.names import role_names
from bot.pacing import campaign_settings
from bot.pictures import has_activity
from bot.replies import Attachment, Reply, ephemeral, split_message
from bot.table.brief import brief
from bot.table.context import id_of, waiting_line
from bot.table.headline import headline
from bot.table.missionend import end_text, ended, everyone, summary_view
from bot.table.pictures import Pictures
from bot.table.steps import StepOutcome
from bot.table.turnposts import StepShape, TurnPosts
from bot.table.weblinks import WebAddress
from engine.core.events import MissionEnded, SeatTold
from engine.core.view import View


class Presenter:
    def __init__(self, pictures: Pictures, posts: TurnPosts, web: WebAddress | None = None) -> None:
        self.pictures = pictures
        self.posts = posts
        self.web = web

    async def present(self, outcome: StepOutcome) -> list[Reply]:
        table, prompt, events = outcome.table, outcome.prompt, outcome.events
        campaign = table.campaign
        # Everything below that the channel sees comes from public events and the public view.
        lines = [outcome.headline] if outcome.headline else []
        lines += public_texts(events)
        shown_automatic = public_events(outcome.automatic)
        phase = has_activity(shown_automatic)
        quiet = not lines and not phase and outcome.quiet()
        shape = StepShape(
            seat=outcome.seat,
            version_before=outcome.version_before,
            version_after=campaign.version,
            waiting=frozenset(prompt.seats),
            continues=not outcome.mentions and not phase,
            closes=phase or prompt.finished,
            private_answer=outcome.private_answer,
            shared=prompt.kind == "vote",
            ballot=outcome.ballot,
            quiet=quiet,
        )
        replies: list[Reply] = []
        if not (quiet and not await self.posts.continues(id_of(campaign), shape)):
            replies = await self._public(outcome, shape, lines, phase)
        end = ended(events)
        if end is not None and not prompt.finished:
            # A campaign goes on: the mission's end, then the next briefing (as at /campaign
            # begin), then the new mission's first post; everyone was pinged once already.
            for reply in replies:
                reply.mentions = []
            replies = [
                *await self._mission_end(outcome, end),
                *self._next_briefing(outcome),
                *replies,
            ]
        elif end is not None:
            replies = [*replies, *await self._mission_end(outcome, end)]
        replies += self._letters(outcome)
        replies += self._asked(outcome)
        my_roles = {s.role for s in outcome.seats if s.user_id == outcome.caller.user_id}
        secret = private_texts(events, my_roles)
        if secret:
            replies.extend(ephemeral("Only you see this:\n" + "\n".join(secret)))
        elif not replies:
            replies = ephemeral("Done: nothing of it is public.")
        return replies

    def _letters(self, outcome: StepOutcome) -> list[Reply]:
        """A word to one seat's player alone (`SeatTold`: their last figure is gone, another
        seat asks them something), sent as a direct message; the post says it in public."""
        holders = {s.role: s.user_id for s in outcome.seats if s.user_id}
        where = channel_link(outcome.table.campaign.channel_id)
        return [
            Reply(f"{where}: {event.message}", dm_to=holders[event.seat])
            for event in outcome.events
            if isinstance(event, SeatTold) and event.seat in holders
        ]

    def _asked(self, outcome: StepOutcome) -> list[Reply]:
        """A question asked in private inside another seat's turn (a Forlorn reaction window)
        edits the open post and pings nobody: its player is told by a direct message, once
        per window (when a step other than an answer to it opens it), what she may react to
        and where her answer is. Nothing of her hand: only the question's public text."""
        prompt, table = outcome.prompt, outcome.table
        if not prompt.private or prompt.finished or outcome.private_answer:
            return []
        campaign = table.campaign
        holders = {s.role: s.user_id for s in outcome.seats if s.user_id}
        where = channel_link(campaign.channel_id)
        letters: list[Reply] = []
        for seat in prompt.seats:
            user = holders.get(seat)
            if user is None or user == outcome.caller.user_id:
                continue  # nobody to tell, or they asked themselves and see the reply
            secret = holds_secrets(table.game, table.state, seat)
            control = "**Answer in private**" if secret else "the answer buttons"
            passes = " Unanswered, it passes when the window closes." if prompt.default else ""
            letters.append(
                Reply(
                    f"{where}: {prompt.text} Answer with {control} under the turn post "
                    f"there.{passes}",
                    dm_to=user,
                )
            )
        return letters

    async def _mission_end(self, outcome: StepOutcome, end: MissionEnded) -> list[Reply]:
        """The mission's end in a post of its own (`bot/table/missionend.py`)."""
        table = outcome.table
        campaign = table.campaign
        view = table.game.view(table.state, None)
        card = summary_view(table.game, table.state, view, end)
        text = end_text(view, outcome.events, end, outcome.seats)
        return [
            Reply(
                text,
                images=[await self.pictures.summary(card)],
                # everyone is named; those inside their quiet hours are not woken for it
                mentions=[u for u in everyone(outcome.seats) if u in outcome.awake],
                version=campaign.version,
                game=campaign.game,
                mirror_to=list(campaign_settings(campaign).mirrors),
            )
        ]

    def _next_briefing(self, outcome: StepOutcome) -> list[Reply]:
        """A mission ended and the game goes on: a campaign set up its next mission, whose
        briefing is posted before the step's post, as at `/campaign begin`."""
        from bot.guide import briefing

        ended = any(isinstance(e, MissionEnded) for e in outcome.events)
        if not ended or outcome.prompt.finished:
            return []
        table = outcome.table
        campaign = table.campaign
        holders = {s.role: s.user_name or "free" for s in outcome.seats}
        options = json.loads(campaign.options_json) if campaign.options_json else {}
        told = briefing(table.game, campaign.scenario, options, table.state, holders)
        mirrors = list(campaign_settings(campaign).mirrors)
        return [Reply(chunk, mirror_to=mirrors) for chunk in split_message(told.text())]

    async def _public(
        self, outcome: StepOutcome, shape: StepShape, lines: list[str], phase: bool
    ) -> list[Reply]:
        """The step's public post: a new one, or the open turn post edited."""
        table, prompt = outcome.table, outcome.prompt
        campaign = table.campaign
        placed = await self.posts.place(id_of(campaign), shape, lines)
        view = table.game.view(table.state, None)
        images = await self._images(outcome, view, phase)
        names = role_names(campaign.game, campaign.scenario)
        # First whose turn and what matters now, then the newest narration (short: the picture
        # is what a phone shows), then who is awaited.
        top = headline(view, prompt, names)
        shown = [top] if top else []
        shown += brief(list(placed.lines), pinned=outcome.headline)
        if prompt.finished and ended(outcome.events) is None:  # else the end's own post says it
            shown.append(f"**Mission over: {prompt.outcome or 'ended'}.**")
        else:
            # A turn's own text ("Iridium (Sniper)'s Agent turn") is what the headline said.
            settings = campaign_settings(campaign)
            told = bool(top) and prompt.kind == "turn"
            shown.append(waiting_line(prompt, outcome.seats, settings, names, with_text=not told))
        link = await self.web.post_line(id_of(campaign)) if self.web is not None else None
        if link:
            shown.append(link)  # the whole table on the web, when WEB_BASE_URL is set
        chunks = split_message("\n".join(shown))
        if placed.edit:
            chunks = chunks[-1:]  # an edited post stays one message: its latest lines
        replies = [Reply(chunk) for chunk in chunks[:-1]]
        replies.append(
            Reply(
                chunks[-1],
                images=images,
                mentions=[] if placed.edit else list(outcome.mentions),
                buttons=public_buttons(table.game, table.state, prompt, outcome.undo_seat, names),
                version=campaign.version,
                game=campaign.game,
                post_key=placed.key,
            )
        )
        mirrors = list(campaign_settings(campaign).mirrors)
        for reply in replies:
            reply.mirror_to = list(mirrors)
        return replies

    async def _images(self, outcome: StepOutcome, view: View, phase: bool) -> list[Attachment]:
        """An automatic phase's animation (it ends on the final board), else the close-up
        around what changed; at the mission's end the summary card follows."""
        public = public_events(outcome.events)
        images: list[Attachment] | None = None
        if phase:
            images = await self.pictures.phase(view, public_events(outcome.automatic))
        if images is None:
            images = [await self.pictures.step(view, public, outcome.deadline)]
        if outcome.prompt.finished and ended(outcome.events) is None:
            images.append(await self.pictures.summary(view))
        return images
