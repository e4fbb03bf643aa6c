"""The table's pictures: thin async wrappers that run the renderers in worker threads.

Rendering is CPU work in Pillow; running it in a thread keeps the event loop answering other
channels (Discord needs an acknowledgement within 3 seconds).
"""

from __future__ import annotations

import asyncio
from typing import Literal

from bot.replies import Attachment
from engine.core.events import Event, Note, PhaseChanged
from engine.core.view import View
from renders import RenderedImage, render_board, render_phase, render_sheet, split_step

BoardMode = Literal["full", "focus"]


def attachment(image: RenderedImage) -> Attachment:
    return Attachment(image.filename, image.png, image.alt_text)


async def step_image(view: View, events: list[Event]) -> Attachment:
    """The picture under a player's step: the phone-sized close-up around the action."""
    return attachment(await asyncio.to_thread(render_board, view, events, "focus"))


async def board_image(view: View, mode: BoardMode = "full") -> Attachment:
    return attachment(await asyncio.to_thread(render_board, view, [], mode))


async def sheet_image(view: View, figure_id: str) -> Attachment:
    return attachment(await asyncio.to_thread(render_sheet, view, figure_id))


def has_activity(events: list[Event]) -> bool:
    """Did the automatic phase do something worth animating (not just change phase)?"""
    return any(not isinstance(e, Note | PhaseChanged) for e in events)


async def phase_images(view: View, events: list[Event]) -> list[Attachment] | None:
    """The enemy or Event phase as one animation plus the still final board, or None when
    there is a single step (a still image says it all)."""

    def build() -> list[Attachment] | None:
        frames = split_step(view, events)
        if len(frames) < 2:
            return None
        return [attachment(image) for image in render_phase(frames)]

    return await asyncio.to_thread(build)
