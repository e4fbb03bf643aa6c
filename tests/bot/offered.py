"""Helpers for the offered-choice tests: play using only what the bot offers."""

from __future__ import annotations

from datetime import datetime

from bot.replies import Attachment, Reply
from engine.core.events import Event
from engine.core.view import View

BLANK = Attachment("board.png", b"", "")


class NoPictures:
    """No pixels: these tests are about the choices, and whole missions must stay quick."""

    async def step(
        self, view: View, events: list[Event], deadline: datetime | None = None
    ) -> Attachment:
        return BLANK

    async def phase(self, view: View, events: list[Event]) -> list[Attachment] | None:
        return None

    async def board(self, view: View, mode: str) -> list[Attachment]:
        return [BLANK]

    async def sheet(self, view: View, figure_id: str) -> Attachment:
        return BLANK

    async def summary(self, view: View) -> Attachment:
        return BLANK


def offered_commands(reply: Reply) -> list[str]:
    """Every command a reply offers: its menu entries and its buttons."""
    return [e.command for m in reply.menus for e in m.entries] + [b.command for b in reply.buttons]
