"""The presenter: a committed step becomes the replies the channel and the actor see.

Narration from the public events, the picture (an automatic phase's animation, else the
close-up), the turn buttons, the mentions the step runner chose, copies for mirror channels,
and a private line for what only the actor may see.
"""

from __future__ import annotations

from typing import Any

from bot.pacing import campaign_settings
from bot.replies import Attachment, Button, Reply, ephemeral, split_message
from bot.table.context import waiting_line
from bot.table.pictures import Pictures
from bot.table.steps import StepOutcome
from engine.core.game import Game, Prompt

MAX_CHOICE_BUTTONS = 4


class Presenter:
    def __init__(self, pictures: Pictures) -> None:
        self.pictures = pictures

    async def present(self, outcome: StepOutcome) -> list[Reply]:
        table, prompt, events = outcome.table, outcome.prompt, outcome.events
        campaign = table.campaign
        public = [e for e in events if e.visible_for(None)]
        lines = [outcome.headline] if outcome.headline else []
        lines += [e.text for e in public if e.text]
        view = table.game.view(table.state, None)
        # The enemy or Event phase: one animation of every activation, then the board.
        shown_automatic = [e for e in outcome.automatic if e.visible_for(None)]
        images: list[Attachment] | None = await self.pictures.phase(view, shown_automatic)
        if images is None:
            images = [await self.pictures.step(view, public)]
        if prompt.finished:
            lines.append(f"**Mission over: {prompt.outcome or 'ended'}.**")
        else:
            lines.append(waiting_line(prompt, outcome.seats))
        chunks = split_message("\n".join(lines))
        replies = [Reply(chunk) for chunk in chunks[:-1]]
        replies.append(
            Reply(
                chunks[-1],
                images=images,
                mentions=list(outcome.mentions),
                buttons=turn_buttons(table.game, table.state, prompt),
                version=campaign.version,
                game=campaign.game,
            )
        )
        mirrors = list(campaign_settings(campaign).mirrors)
        for reply in replies:
            reply.mirror_to = list(mirrors)
        my_roles = {s.role for s in outcome.seats if s.user_id == outcome.caller.user_id}
        secret = [
            e.text
            for e in events
            if not e.visible_for(None) and e.text and any(e.visible_for(r) for r in my_roles)
        ]
        if secret:
            replies.extend(ephemeral("Only you see this:\n" + "\n".join(secret)))
        return replies


def turn_buttons(game: Game[Any], state: Any, prompt: Prompt) -> list[Button]:
    """A question's first answers, then End turn, Undo and Board (all stay typeable)."""
    if prompt.finished:
        return []
    return [
        *choice_buttons(game, state, prompt),
        Button("End turn", "/end-turn", "primary"),
        Button("Undo", "/undo"),
        Button("Board", "/board"),
    ]


def choice_buttons(game: Game[Any], state: Any, prompt: Prompt) -> list[Button]:
    """When the game asks a question, its first answers as buttons."""
    if prompt.kind != "choice" or prompt.finished:
        return []
    options = [
        a for seat in prompt.seats for a in game.legal_actions(state, seat) if a.verb == "choose"
    ]
    return [
        Button((a.label or a.args.get("option", "?"))[:80], a.command(), "success")
        for a in options[:MAX_CHOICE_BUTTONS]
    ]
