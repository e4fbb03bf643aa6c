"""A step's post composed after the fact, when the process that committed the step stopped
before writing it to the outbox (its marker outlived `COMPOSE_WAIT`, see
`bot.storage.outbox`).

The post is built from what the database holds: the public events of the step's log rows,
and, when nothing happened since, the board, its buttons and a ping for the players the game
waits on (the lost post would have pinged them). A step overtaken by later ones gets its
narration only: the later step's own post shows the board.
"""

from __future__ import annotations

import json

from bot.clock import Clock
from bot.disclosure import public_buttons, public_events, public_texts
from bot.pacing import campaign_settings, seat_on_autopilot
from bot.replies import Reply
from bot.storage.repo import CampaignRepo
from bot.table.context import waiting_line
from bot.table.pictures import Pictures
from bot.table.turnposts import RUNNING_LOG
from engine.core.events import parse_events
from engine.registry import get_game

LATE = "Posted late (the bot stopped before it could post this step):"


class LatePosts:
    def __init__(self, repo: CampaignRepo, pictures: Pictures, clock: Clock) -> None:
        self.repo = repo
        self.pictures = pictures
        self.clock = clock

    async def compose(self, campaign_id: int, from_seq: int) -> list[Reply]:
        """The public post of the campaign's steps from `from_seq` on."""
        campaign = await self.repo.get(campaign_id)
        if campaign is None or campaign.state_json is None:
            return []
        rows = await self.repo.log(campaign_id, after_seq=from_seq - 1)
        events = [e for row in rows for e in parse_events(json.loads(row.events_json or "[]"))]
        lines = [LATE, *public_texts(events)[-RUNNING_LOG:]]
        settings = campaign_settings(campaign)
        mirrors = list(settings.mirrors)
        current = bool(rows) and rows[-1].version_after == campaign.version
        if not current:
            return [Reply("\n".join(lines), mirror_to=mirrors)]
        game = get_game(campaign.game)
        state = game.load(json.loads(campaign.state_json))
        prompt = game.waiting_on(state)
        seats = await self.repo.seats(campaign_id)
        lines.append(waiting_line(prompt, seats, settings))
        now = self.clock.now()
        waiting = sorted(
            {
                s.user_id
                for s in seats
                if s.role in prompt.seats and s.user_id and not seat_on_autopilot(s, now)
            }
        )
        view = game.view(state, None)
        image = await self.pictures.step(view, public_events(events), None)
        return [
            Reply(
                "\n".join(lines),
                images=[image],
                mentions=[] if prompt.finished else waiting,
                buttons=public_buttons(game, state, prompt),
                version=campaign.version,
                game=campaign.game,
                mirror_to=mirrors,
            )
        ]
