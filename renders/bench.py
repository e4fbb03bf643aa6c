"""Render benchmark: p50/p95 per game and view on the largest authored board with 30+ figures.

`python -m bench` calls `benchmark_renders()`. Opening boards have few figures, so the bench
adds enemy figures on free cells (copies of the view's own enemies) until there are 32, and a
step's worth of events (moves, attacks, a spawn, a death) so the story layer is drawn too.
"""

from __future__ import annotations

import statistics
import time
from typing import Any

from engine.core.dice import SeededDice, derive_seed
from engine.core.events import Attacked, Event, Killed, Moved, Spawned
from engine.core.game import Game
from engine.core.view import FigureView, View
from engine.registry import games
from engine.selfplay import default_seats
from renders.board import Mode, render_board
from renders.terrain import clear_cache

FIGURES = 32
MODES: tuple[Mode, ...] = ("focus", "full")


def _opening(game: Game[Any], scenario: str) -> View:
    info = next(s for s in game.scenarios() if s.key == scenario)
    seats = default_seats(game, scenario, None)
    state = game.new(scenario, seats, info.resolve_options({}), SeededDice(derive_seed(1, "setup")))
    state = game.advance(state, SeededDice(derive_seed(1, 0))).state
    return game.view(state, None)


def largest_scenario(game: Game[Any]) -> tuple[str, View]:
    views = [(s.key, _opening(game, s.key)) for s in game.scenarios()]
    return max(views, key=lambda kv: (len(kv[1].cells), len(kv[1].figures)))


def crowded(view: View, count: int = FIGURES) -> tuple[View, list[Event]]:
    """The view with enemy figures added on free cells (or Areas) up to `count` figures."""
    blocked = {"wall", "space", "void"}
    if view.board == "area":
        free = sorted({c.area for c in view.cells if c.area})
    else:
        taken = {f.coord for f in view.figures}
        free = [c.coord for c in view.cells if c.terrain not in blocked and c.coord not in taken]
    model = next((f for f in view.figures if f.side == "enemy"), None)
    figures = list(view.figures)
    i = 0
    while len(figures) < count and free:
        coord = free[(i * 7) % len(free)]
        if view.board != "area":
            free.remove(coord)
        base = model or FigureView(
            id="e", label="E", name="Enemy", side="enemy", kind="bench", coord=coord
        )
        figures.append(
            base.model_copy(
                update={"id": f"bench{i}", "label": f"b{i}", "name": f"Bench {i}", "coord": coord}
            )
        )
        i += 1
    crowd = view.model_copy(update={"figures": figures})
    events: list[Event] = []
    movers = [f for f in figures if f.side == "enemy"][:6]
    players = [f for f in figures if f.side == "player"]
    for f in movers:
        events.append(Moved(figure=f.id, path=[f.coord, f.coord], text=f"{f.name} moves."))
        if players:
            events.append(
                Attacked(attacker=f.id, target=players[0].id, hits=1, result="hit", text="hit")
            )
    if movers:
        events.append(Spawned(figure=movers[0].id, at=movers[0].coord, text="spawn"))
        events.append(Killed(figure="gone", at=movers[-1].coord, text="dies"))
    return crowd, events


def _stats(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    return {
        "n": len(ordered),
        "p50": round(statistics.median(ordered), 2),
        "p95": round(ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))], 2),
    }


def benchmark_renders(repeats: int = 20) -> dict[str, Any]:
    """Milliseconds per image (PNG encoding included) and the largest image size, per game."""
    out: dict[str, Any] = {}
    for key, game in sorted(games().items()):
        if key == "dash":
            continue
        scenario, view = largest_scenario(game)
        crowd, events = crowded(view)
        clear_cache()
        first = time.perf_counter()
        render_board(crowd, events)
        cold = (time.perf_counter() - first) * 1000
        result: dict[str, Any] = {
            "scenario": scenario,
            "cells": len(crowd.cells),
            "figures": len(crowd.figures),
            "full_cold_ms": round(cold, 2),
        }
        for mode in MODES:
            samples: list[float] = []
            render_board(crowd, events, mode=mode)  # warm: the layer at this cell size
            size = 0
            for _ in range(repeats):
                start = time.perf_counter()
                image = render_board(crowd, events, mode=mode)
                samples.append((time.perf_counter() - start) * 1000)
                size = max(size, len(image.png))
            result[mode] = {**_stats(samples), "bytes": size, "size": [image.width, image.height]}
        out[key] = result
    return out


if __name__ == "__main__":
    import json

    print(json.dumps(benchmark_renders(), indent=2))
