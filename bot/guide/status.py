"""The table in words for `/campaign status` and `/campaign join`: progress, every figure's
health, and which seat (which player) controls which figures. Public view only."""

from __future__ import annotations

import json
from typing import Any

from bot.guide import progress
from bot.guide.briefing import figures_by_seat
from bot.names import role_names, seat_name
from bot.storage.models import Campaign, Seat
from engine.core.dice import SeededDice
from engine.core.game import Game, scenario_info
from engine.core.view import FigureView

ROSTER_SEED = 0
"""Set-up dice for the roster a join shows; which seat commands which figure never depends
on them."""


def _health(fig: FigureView) -> str:
    shown = f"{fig.name}"
    if fig.health is not None and fig.max_health is not None:
        shown += f" {fig.health}/{fig.max_health}"
    states = [c.split(":")[0] for c in fig.conditions if not c.startswith(("item:", "order:"))]
    if states:
        shown += f" ({', '.join(states)})"
    return shown


def holders_of(seats: list[Seat]) -> dict[str, str]:
    return {s.role: s.user_name or "free" for s in seats}


def status_lines(game: Game[Any], state: Any, seats: list[Seat]) -> list[str]:
    """Progress, then each seat's figures with health, then the enemies on the board."""
    view = game.view(state, None)
    lines = [*progress(game.key, state)]
    holders = holders_of(seats)
    lines.append("**Figures**")
    by_seat: dict[str, list[str]] = {}
    others: list[str] = []
    for fig in view.figures:
        if fig.seat:
            by_seat.setdefault(fig.seat, []).append(_health(fig))
        elif fig.side != "player":
            others.append(_health(fig))
    names = role_names(game.key, getattr(state, "scenario", ""))
    for seat, figures in by_seat.items():
        who = holders.get(seat, "the bot")
        lines.append(f"- {seat_name(names, seat)} ({who}): {', '.join(figures)}")
    if others:
        lines.append(f"- on the other side: {', '.join(others)}")
    free = [seat_name(names, s.role) for s in seats if not s.user_id]
    if free:
        lines.append(f"Free seats: {', '.join(free)} (Join from the campaign's post).")
    return lines


def roster_line(game: Game[Any], campaign: Campaign, seats: list[Seat]) -> str:
    """Before the start: who would command which figures if the mission began now."""
    info = scenario_info(game, campaign.scenario)
    held = {s.role for s in seats}
    missing = [r.name for r in info.roles if r.required and r.key not in held]
    if missing:
        return f"\nStill needed before the start: {', '.join(missing)}."
    roles = [r.key for r in info.roles if r.key in held]
    options = json.loads(campaign.options_json)
    state = game.new(campaign.scenario, roles, options, SeededDice(ROSTER_SEED))
    lines = figures_by_seat(game.view(state, None), holders_of(seats))
    if not lines:
        return ""
    return "\nIf the mission began now: " + "; ".join(lines) + "."
