"""Sample boards for the legibility tests: every scenario's opening and a busy mid-game board.

The busy board comes from a short self-play with seeded dice: of the first steps, the one
showing the most figures and events (an enemy phase with its story is the usual winner).
Built once per test session (`functools.cache`): self-play is the slow part.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from engine.core.dice import SeededDice, derive_seed
from engine.core.events import Event
from engine.core.game import scenario_info
from engine.core.view import View
from engine.registry import games
from engine.selfplay import choose_action, default_seats

STEPS = 40


@dataclass(frozen=True)
class Sample:
    name: str
    view: View
    events: list[Event]
    # The steps that led to `view` (for animations), last one included.
    frames: list[tuple[View, list[Event]]]


def _busy(game: Any, scenario: str) -> tuple[View, Sample]:
    info = scenario_info(game, scenario)
    seats = default_seats(game, scenario, None)
    state = game.new(scenario, seats, info.resolve_options({}), SeededDice(derive_seed(5, "s")))
    state = game.advance(state, SeededDice(derive_seed(5, "a"))).state
    opening = game.view(state, None)
    policy = SeededDice(11)
    frames: list[tuple[View, list[Event]]] = []
    best: tuple[int, int] = (-1, 0)
    for step in range(STEPS):
        prompt = game.waiting_on(state)
        if prompt.finished:
            break
        if prompt.seats:
            seat = prompt.seats[0]
            action = choose_action(game.legal_actions(state, seat), policy, 10)
            result = game.apply(state, seat, action, SeededDice(derive_seed(5, step)))
        else:
            result = game.advance(state, SeededDice(derive_seed(6, step)))
        state = result.state
        events = [e for e in result.events if e.visible_for(None)]
        if events:
            view = game.view(state, None)
            frames.append((view, events))
            score = len(view.figures) * 3 + len(view.tokens) + len(events)
            if score > best[0]:
                best = (score, len(frames))
    if not frames:
        return opening, Sample(f"{game.key}/{scenario}/busy", opening, [], [(opening, [])])
    view, events = frames[best[1] - 1]
    return opening, Sample(f"{game.key}/{scenario}/busy", view, events, frames[: best[1]][-4:])


@cache
def samples() -> tuple[Sample, ...]:
    """Opening and busy board of every scenario of every game."""
    out: list[Sample] = []
    for game in games().values():
        for info in game.scenarios():
            opening, busy = _busy(game, info.key)
            out.append(Sample(f"{game.key}/{info.key}/opening", opening, [], [(opening, [])]))
            out.append(busy)
    return tuple(out)
