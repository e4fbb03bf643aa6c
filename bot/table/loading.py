"""Finding a channel's campaign and loading it for a command, with the refusals that go with
each way of not finding one."""

from __future__ import annotations

import json

from bot.storage.models import Campaign
from bot.storage.repo import CampaignRepo
from bot.table.context import Caller, Loaded, UserError, check_same_server
from bot.table.steps import StepRunner
from engine.registry import get_game

NO_CAMPAIGN = "No campaign in this channel. Start one with /campaign create."


class Loader:
    def __init__(self, repo: CampaignRepo, steps: StepRunner) -> None:
        self.repo = repo
        self.steps = steps

    async def live(self, caller: Caller) -> Campaign:
        """The channel's live campaign (open, active or paused); refused when there is none."""
        campaign = await self.live_or_none(caller)
        if campaign is None:
            raise UserError(NO_CAMPAIGN)
        return campaign

    async def live_or_none(self, caller: Caller) -> Campaign | None:
        campaign = await self.repo.live_in_channel(caller.channel_id)
        if campaign is not None:
            check_same_server(caller, campaign)
        return campaign

    async def live_or_latest(self, caller: Caller) -> Campaign | None:
        """The live campaign, else the channel's last one (for looks at a finished mission)."""
        return await self.repo.live_in_channel(
            caller.channel_id
        ) or await self.repo.latest_in_channel(caller.channel_id)

    async def active(self, caller: Caller, finished_ok: bool = False) -> Loaded:
        """The campaign being played here, loaded; a paused one resumes."""
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
                raise UserError(NO_CAMPAIGN)
        if campaign.state_json is None:
            raise UserError(
                "The mission has not begun yet: the owner starts it with /campaign begin."
            )
        check_same_server(caller, campaign)
        game = get_game(campaign.game)
        table = Loaded(campaign, game, game.load(json.loads(campaign.state_json)))
        if campaign.status == "paused":
            await self.steps.resume(table)
        return table

    async def playing(self, channel_id: str) -> Loaded | None:
        """The channel's campaign while it is being played, else None."""
        campaign = await self.repo.live_in_channel(channel_id)
        if campaign is None or campaign.status != "active" or not campaign.state_json:
            return None
        game = get_game(campaign.game)
        return Loaded(campaign, game, game.load(json.loads(campaign.state_json)))

    async def channel_game(self, caller: Caller) -> str:
        campaign = await self.live_or_latest(caller)
        return campaign.game if campaign else ""
