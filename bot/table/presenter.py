"""The presenter: a committed step becomes the replies the channel and the actor see.

Narration from the public events, the picture (an automatic phase's animation, else the
close-up), the turn buttons, the mentions the step runner chose, copies for mirror channels,
and a private line for what only the actor may see.
"""

from __future__ import annotations

from bot.disclosure import private_texts, public_buttons, public_events, public_texts
from bot.pacing import campaign_settings
from bot.replies import Attachment, Reply, ephemeral, split_message
from bot.table.context import waiting_line
from bot.table.pictures import Pictures
from bot.table.steps import StepOutcome


class Presenter:
    def __init__(self, pictures: Pictures) -> None:
        self.pictures = pictures

    async def present(self, outcome: StepOutcome) -> list[Reply]:
        table, prompt, events = outcome.table, outcome.prompt, outcome.events
        campaign = table.campaign
        # Everything below that the channel sees comes from public events and the public view.
        public = public_events(events)
        lines = [outcome.headline] if outcome.headline else []
        lines += public_texts(events)
        view = table.game.view(table.state, None)
        # The enemy or Event phase: one animation of every activation, then the board.
        shown_automatic = public_events(outcome.automatic)
        images: list[Attachment] | None = await self.pictures.phase(view, shown_automatic)
        if images is None:
            images = [await self.pictures.step(view, public)]
        if prompt.finished:
            lines.append(f"**Mission over: {prompt.outcome or 'ended'}.**")
        else:
            lines.append(waiting_line(prompt, outcome.seats, campaign_settings(campaign)))
        chunks = split_message("\n".join(lines))
        replies = [Reply(chunk) for chunk in chunks[:-1]]
        replies.append(
            Reply(
                chunks[-1],
                images=images,
                mentions=list(outcome.mentions),
                buttons=public_buttons(table.game, table.state, prompt),
                version=campaign.version,
                game=campaign.game,
            )
        )
        mirrors = list(campaign_settings(campaign).mirrors)
        for reply in replies:
            reply.mirror_to = list(mirrors)
        my_roles = {s.role for s in outcome.seats if s.user_id == outcome.caller.user_id}
        secret = private_texts(events, my_roles)
        if secret:
            replies.extend(ephemeral("Only you see this:\n" + "\n".join(secret)))
        return replies
