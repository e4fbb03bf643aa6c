"""The scheduler keeps time: every interval it asks the table's pacing service to handle
whatever is due (reminders, deadlines, answer windows, digests) and deliver it through the
outbox of the shell it runs in (Discord or the playground).

APScheduler only fires `scan()` (in-memory job store, started by the shell); all state lives
in the database (see `bot.table.pacer`), so a restart neither forgets nor repeats a nudge.
"""

from __future__ import annotations

from datetime import timedelta

from apscheduler.schedulers.asyncio import AsyncIOScheduler

from bot.clock import Clock
from bot.delivery import ChannelUnavailable, Outbox
from bot.logs import new_request_id
from bot.table import TableService

__all__ = ["ChannelUnavailable", "Outbox", "Scheduler"]

# How long a command's request id is remembered (a retry comes within seconds).
REMEMBER_REQUESTS = timedelta(days=1)


class Scheduler:
    def __init__(self, service: TableService, outbox: Outbox, clock: Clock) -> None:
        self.pacing = service.pacing
        self.service = service
        self.outbox = outbox
        self.clock = clock  # the service's clock decides what is due; kept for the shells
        self._apscheduler: AsyncIOScheduler | None = None

    def start(self, interval_seconds: int = 60) -> None:
        """Fire `scan` periodically on the running event loop."""
        self._apscheduler = AsyncIOScheduler()
        self._apscheduler.add_job(
            self.scan, "interval", seconds=interval_seconds, max_instances=1, coalesce=True
        )
        self._apscheduler.start()

    def shutdown(self) -> None:
        if self._apscheduler is not None:
            self._apscheduler.shutdown(wait=False)
            self._apscheduler = None

    async def scan(self) -> int:
        """Handle every due row once; return how many messages were sent."""
        new_request_id()
        await self.service.forget_requests(self.clock.now() - REMEMBER_REQUESTS)
        return await self.pacing.run_due(self.outbox)
