"""The collaborators every command handler works with, handed over as one bundle."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from bot.clock import Clock
from bot.ratelimit import RateLimits
from bot.replies import Reply
from bot.storage.repo import CampaignRepo
from bot.table.context import AnyChannel, Caller, ChannelAccess, Loaded
from bot.table.legal import LegalActions
from bot.table.loading import Loader
from bot.table.pictures import Pictures
from bot.table.presenter import Presenter
from bot.table.steps import NewStep, StepRunner


@dataclass
class TableParts:
    repo: CampaignRepo
    clock: Clock
    loader: Loader
    steps: StepRunner
    presenter: Presenter
    pictures: Pictures
    legal: LegalActions
    new_seed: Callable[[], int]
    limits: RateLimits | None = None  # the caps on live campaigns (None: no caps)
    # Who may post where (mirrors); the Discord client sets its own.
    access: ChannelAccess = field(default_factory=AnyChannel)

    async def run(self, caller: Caller, table: Loaded, step: NewStep) -> list[Reply]:
        """Commit a command's step, then present it: nothing is replied before the commit."""
        return await self.presenter.present(await self.steps.commit(caller, table, step))
