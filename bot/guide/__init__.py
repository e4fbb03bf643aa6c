"""What players need to understand the table: mission briefings, objective progress,
short descriptions of every term they meet, and the table's settings in words.

Everything here reads the engine's content data or its public view, so the words cannot
drift from what the engine enforces; the prose is our own.
"""

from __future__ import annotations

from typing import Any

from bot.guide.briefing import Briefing, briefing, figures_by_seat
from bot.guide.glossary import Term, describe, glossary, terms_in_view

__all__ = [
    "Briefing",
    "Term",
    "briefing",
    "describe",
    "figures_by_seat",
    "glossary",
    "progress",
    "terms_in_view",
    "topic_of",
]


def progress(game_key: str, state: Any) -> list[str]:
    """Round, phase and objective progress lines for `/campaign status` (public facts)."""
    from bot.guide import forlorn, galaxy, reich

    builders = {
        "galaxy-defenders": galaxy.progress,
        "forlorn-hope": forlorn.progress,
        "reichbusters": reich.progress,
    }
    builder = builders.get(game_key)
    return builder(state) if builder is not None else []


def topic_of(game_key: str, scenario: str, state: Any = None) -> str:
    """The `/rules` topic with the briefing of what is being played: in the Galaxy campaign,
    the current mission's."""
    mission = getattr(state, "mission", "") if game_key == "galaxy-defenders" else ""
    return mission if scenario == "campaign" and isinstance(mission, str) and mission else scenario
