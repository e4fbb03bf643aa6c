"""Time for the application layer, injectable so tests and the playground can move it."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Protocol


class Clock(Protocol):
    def now(self) -> datetime:
        """The current time, timezone-aware UTC."""
        ...


class SystemClock:
    def now(self) -> datetime:
        return datetime.now(UTC)


class ManualClock:
    """A clock that only moves when told to (tests, the playground's development control)."""

    def __init__(self, start: datetime | None = None) -> None:
        self._now = start or datetime(2026, 1, 5, 12, 0, tzinfo=UTC)

    def now(self) -> datetime:
        return self._now

    def advance(self, delta: timedelta) -> datetime:
        if delta < timedelta(0):
            raise ValueError("the clock only moves forward")
        self._now += delta
        return self._now


class OffsetClock:
    """System time plus a development offset the playground can advance."""

    def __init__(self) -> None:
        self.offset = timedelta(0)

    def now(self) -> datetime:
        return datetime.now(UTC) + self.offset

    def advance(self, delta: timedelta) -> datetime:
        if delta < timedelta(0):
            raise ValueError("the clock only moves forward")
        self.offset += delta
        return self.now()


def aware(moment: datetime) -> datetime:
    """Read-back datetimes from SQLite are naive UTC; make them aware."""
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)
