"""The one picture interface the table service draws through.

Every image a reply carries (the close-up after a step, an automatic phase's animation, the
board and its side panel, a figure's sheet, the end-of-mission summary) is asked of a
`Pictures`, injected into the service, so tests can count or slow down renders and the worker
pool stays the production detail it is.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Any, Protocol

from bot import pictures as workers
from bot.replies import Attachment
from engine.core.events import Event
from engine.core.view import View

# The close-up under a step; the one picture tests most often replace.
Renderer = Callable[[Any, list[Event]], Awaitable[Attachment]]
default_renderer: Renderer = workers.step_image


class Pictures(Protocol):
    async def step(
        self, view: View, events: list[Event], deadline: datetime | None = None
    ) -> Attachment:
        """The close-up around what a step changed (the deadline, if any, in its header)."""
        ...

    async def phase(self, view: View, events: list[Event]) -> list[Attachment] | None:
        """An automatic phase as one animation ending on the final board; None for a single
        activation (the close-up says it all)."""
        ...

    async def board(self, view: View, mode: str) -> list[Attachment]:
        """`/board`: the map (full: followed by the side panel as a second image)."""
        ...

    async def sheet(self, view: View, figure_id: str) -> Attachment: ...

    async def summary(self, view: View) -> Attachment:
        """The end-of-mission card: result, rounds, kills, losses, objectives."""
        ...


class WorkerPictures:
    """Pictures rendered in the render workers (`bot.pictures`)."""

    def __init__(self, step_renderer: Renderer = default_renderer) -> None:
        self._step = step_renderer

    async def step(
        self, view: View, events: list[Event], deadline: datetime | None = None
    ) -> Attachment:
        if deadline is not None and self._step is default_renderer:
            return await workers.step_image(view, events, deadline)
        return await self._step(view, events)

    async def phase(self, view: View, events: list[Event]) -> list[Attachment] | None:
        if not workers.has_activity(events):
            return None
        return await workers.phase_images(view, events)

    async def board(self, view: View, mode: str) -> list[Attachment]:
        if mode == "focus":
            return [await workers.board_image(view, "focus")]
        return await workers.full_board_images(view)

    async def sheet(self, view: View, figure_id: str) -> Attachment:
        return await workers.sheet_image(view, figure_id)

    async def summary(self, view: View) -> Attachment:
        return await workers.summary_image(view)
