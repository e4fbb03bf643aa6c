"""Mission briefings: the situation, the objectives, the limit, the special rules and who
plays which figures.

The numbers come from the engine's own content data (the same data the engine enforces), so
a briefing cannot drift from the rules; only the situation paragraph is hand-written
(`situations.json`, or the Galaxy missions' `briefing` field), in our own words.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

from bot.names import role_names, seat_name
from engine.core.game import Game, scenario_info
from engine.core.view import View

MAX_BRIEFING = 1900
"""A briefing fits one Discord message (2,000 characters) with room for a mention line."""


@dataclass(frozen=True)
class Briefing:
    """What a player needs to know before the first move."""

    title: str
    situation: str
    objectives: list[str]
    limit: str
    special: list[str] = field(default_factory=list)
    figures: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    """How seats share the figures; kept when `figures` becomes the table's own roster."""

    def text(self) -> str:
        """The briefing as Discord Markdown, at most `MAX_BRIEFING` characters."""
        parts = [f"**Briefing — {self.title}**", self.situation]
        parts.append("**Objectives**\n" + "\n".join(f"- {line}" for line in self.objectives))
        parts.append(f"**Limit:** {self.limit}")
        if self.special:
            parts.append("**Special rules**\n" + "\n".join(f"- {s}" for s in self.special))
        if self.figures or self.notes:
            lines = [*self.figures, *self.notes]
            parts.append("**Who plays what**\n" + "\n".join(f"- {f}" for f in lines))
        out = "\n".join(parts)
        if len(out) > MAX_BRIEFING:
            out = out[: MAX_BRIEFING - 1].rstrip() + "…"
        return out


@cache
def situations() -> dict[str, dict[str, str]]:
    """The hand-written situation paragraphs by game and scenario."""
    raw = json.loads(resources.files(__package__).joinpath("situations.json").read_text("utf-8"))
    return {game: dict(texts) for game, texts in raw.items() if not game.startswith("_")}


def situation(game_key: str, scenario: str) -> str:
    return situations().get(game_key, {}).get(scenario, "")


def briefing(
    game: Game[Any],
    scenario: str,
    options: dict[str, str] | None = None,
    state: Any = None,
    holders: dict[str, str] | None = None,
) -> Briefing:
    """The briefing of `scenario`: for the table that plays it when `state` is given (its
    seats, its team size, who holds each seat by `holders`: role -> player name), else the
    general one `/rules topic:<scenario>` shows."""
    from bot.guide import forlorn, galaxy, reich

    info = scenario_info(game, scenario)
    resolved = info.resolve_options(options or {})
    builders = {
        "galaxy-defenders": galaxy.briefing,
        "forlorn-hope": forlorn.briefing,
        "reichbusters": reich.briefing,
    }
    builder = builders.get(game.key)
    if builder is None:
        out = Briefing(
            title=info.title,
            situation=info.summary or info.title,
            objectives=[info.summary or "Play the scenario to its end."],
            limit="as the game says",
        )
    else:
        out = builder(scenario, resolved, state)
    if state is not None:
        view = game.view(state, None)
        out = Briefing(
            out.title,
            out.situation,
            out.objectives,
            out.limit,
            out.special,
            figures_by_seat(view, holders or {}),
            out.notes,
        )
    return out


def figures_by_seat(view: View, holders: dict[str, str]) -> list[str]:
    """One line per seat (by its name): its player and the figures it controls (from the
    public view)."""
    seats = role_names(view.game, view.scenario)
    by_seat: dict[str, list[str]] = {}
    for fig in view.figures:
        if fig.seat:
            by_seat.setdefault(fig.seat, []).append(fig.name)
    lines = []
    for seat, names in by_seat.items():
        who = f" ({holders[seat] or 'free'})" if seat in holders else ""
        named = seat_name(seats, seat)
        if names == [named]:  # a seat that is its one figure (a Galaxy agent) is named once
            lines.append(f"{named}{who}")
        else:
            lines.append(f"{named}{who}: {', '.join(names)}")
    return lines
