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


def play(
    game_key: str, scenario: str, seed: int, limit: int, setup: bool = False
) -> tuple[View, list[tuple[View, list[Event]]]]:
    """A short seeded self-play: the first view, then (spectator view, public events) for
    each step that told something, at most `limit` of them. With `setup`, the first view is
    taken after the game's setup step."""
    game: Any = games()[game_key]
    info = scenario_info(game, scenario)
    seats = default_seats(game, scenario, None)
    state = game.new(scenario, seats, info.resolve_options({}), SeededDice(derive_seed(seed, "s")))
    if setup:
        state = game.advance(state, SeededDice(derive_seed(seed, "a"))).state
    first = game.view(state, None)
    policy = SeededDice(seed + 6)
    frames: list[tuple[View, list[Event]]] = []
    for step in range(STEPS * 5):
        prompt = game.waiting_on(state)
        if prompt.finished or len(frames) >= limit:
            break
        if prompt.seats:
            seat = prompt.seats[0]
            action = choose_action(game.legal_actions(state, seat), policy, 10)
            result = game.apply(state, seat, action, SeededDice(derive_seed(seed, step)))
        else:
            result = game.advance(state, SeededDice(derive_seed(seed + 1, step)))
        state = result.state
        events = [e for e in result.events if e.visible_for(None)]
        if events:
            frames.append((game.view(state, None), events))
    return first, frames


def _busy(game_key: str, scenario: str) -> tuple[View, Sample]:
    opening, frames = play(game_key, scenario, 5, STEPS, setup=True)
    name = f"{game_key}/{scenario}/busy"
    if not frames:
        return opening, Sample(name, opening, [], [(opening, [])])
    scores = [len(v.figures) * 3 + len(v.tokens) + len(e) for v, e in frames]
    best = scores.index(max(scores)) + 1
    view, events = frames[best - 1]
    return opening, Sample(name, view, events, frames[:best][-4:])


@cache
def samples() -> tuple[Sample, ...]:
    """Opening and busy board of every scenario of every game."""
    out: list[Sample] = []
    for game in games().values():
        for info in game.scenarios():
            opening, busy = _busy(game.key, info.key)
            out.append(Sample(f"{game.key}/{info.key}/opening", opening, [], [(opening, [])]))
            out.append(busy)
    return tuple(out)
