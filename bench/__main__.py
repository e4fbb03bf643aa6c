"""`python -m bench`: benchmark figures as JSON (these report; they never fail a build).

Measures, for every shipped game and scenario: the engine's `apply` per action verb and
`advance`, `legal_actions`, rendering the full board, and one player action end to end through
the table service with SQLite (command to reply-with-image ready); plus the floors we compare
against: encoding the final PNG alone and a bare SQLite insert-and-commit of the same bytes.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import json
import os
import platform
import sqlite3
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PIL import Image

from engine.core.dice import SeededDice, derive_seed
from engine.core.game import Game, scenario_info
from engine.registry import games
from engine.selfplay import choose_action, default_seats
from renders import render_board


def summary(samples_ms: list[float]) -> dict[str, float]:
    if not samples_ms:
        return {"n": 0}
    ordered = sorted(samples_ms)

    def pct(p: float) -> float:
        return round(ordered[min(len(ordered) - 1, int(p * len(ordered)))], 3)

    return {
        "n": len(ordered),
        "p50": pct(0.5),
        "p95": pct(0.95),
        "max": round(ordered[-1], 3),
        "mean": round(statistics.fmean(ordered), 3),
    }


def timed(fn: Callable[[], Any]) -> tuple[Any, float]:
    start = time.perf_counter()
    result = fn()
    return result, (time.perf_counter() - start) * 1000


def bench_engine(game: Game[Any], scenario: str, seeds: int, max_steps: int) -> dict[str, Any]:
    apply_ms: dict[str, list[float]] = defaultdict(list)
    advance_ms: list[float] = []
    legal_ms: list[float] = []
    render_ms: list[float] = []
    for seed in range(1, seeds + 1):
        seats = default_seats(game, scenario, None)
        options = scenario_info(game, scenario).resolve_options({})
        state = game.new(scenario, seats, options, SeededDice(derive_seed(seed, "setup")))
        policy = SeededDice(derive_seed(seed, "policy"))
        patience = 0
        for step in range(max_steps):
            dice = SeededDice(derive_seed(seed, step))
            advanced, ms = timed(lambda: game.advance(state, dice))  # noqa: B023
            advance_ms.append(ms)
            state = advanced.state
            prompt = game.waiting_on(state)
            if prompt.finished or not prompt.seats:
                break
            seat = prompt.seats[0]
            actions, ms = timed(lambda: game.legal_actions(state, seat))  # noqa: B023
            legal_ms.append(ms)
            action = choose_action(actions, policy, patience)
            patience = 0 if action.verb == "end-turn" else patience + 1
            applied, ms = timed(lambda: game.apply(state, seat, action, dice))  # noqa: B023
            apply_ms[action.verb].append(ms)
            state = applied.state
            if step % 10 == 0:
                _, ms = timed(lambda: render_board(game.view(state, None), applied.events))  # noqa: B023
                render_ms.append(ms)
    return {
        "apply": {verb: summary(v) for verb, v in sorted(apply_ms.items())},
        "advance": summary(advance_ms),
        "legal_actions": summary(legal_ms),
        "render_full": summary(render_ms),
    }


async def bench_end_to_end(game_key: str, scenario: str, actions: int) -> dict[str, Any]:
    from bot.storage.db import Database
    from bot.table import Caller, TableService

    with tempfile.TemporaryDirectory() as tmp:
        db = Database(f"sqlite+aiosqlite:///{Path(tmp) / 'bench.db'}")
        await db.init()
        service = TableService(db, new_seed=lambda: 1)
        game = games()[game_key]
        seats = default_seats(game, scenario, None)
        user = Caller("u1", "bench", "bench-channel", "bench-guild")
        await service.handle(user, f"/campaign create game:{game_key} scenario:{scenario}")
        for role in seats:
            await service.handle(user, f"/campaign join role:{role}")
        await service.handle(user, "/campaign begin")
        policy = SeededDice(99)
        samples: list[float] = []
        png_floor: list[float] = []
        sqlite_floor: list[float] = []
        last_png = b""
        for _ in range(actions):
            campaign = await service.repo.live_in_channel("bench-channel")
            if campaign is None or not campaign.state_json:
                break
            state = game.load(json.loads(campaign.state_json))
            prompt = game.waiting_on(state)
            if prompt.finished or not prompt.seats:
                break
            action = choose_action(game.legal_actions(state, prompt.seats[0]), policy, 0)
            start = time.perf_counter()
            replies = await service.handle(user, action.command())
            samples.append((time.perf_counter() - start) * 1000)
            images = [i.data for r in replies for i in r.images]
            if images:
                last_png = images[-1]
        await db.close()
        if last_png:
            decoded = Image.open(io.BytesIO(last_png))
            decoded.load()
            conn = sqlite3.connect(Path(tmp) / "floor.db")
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("CREATE TABLE blob (id INTEGER PRIMARY KEY, data BLOB)")
            for _ in range(max(10, len(samples))):
                buffer = io.BytesIO()
                start = time.perf_counter()
                decoded.save(buffer, format="PNG", compress_level=6)
                png_floor.append((time.perf_counter() - start) * 1000)
                start = time.perf_counter()
                conn.execute("INSERT INTO blob (data) VALUES (?)", (buffer.getvalue(),))
                conn.commit()
                sqlite_floor.append((time.perf_counter() - start) * 1000)
            conn.close()
    result: dict[str, Any] = {
        "action_to_reply": summary(samples),
        "floor_png_encode": summary(png_floor),
        "floor_sqlite_commit": summary(sqlite_floor),
    }
    floor = result["floor_png_encode"].get("p50", 0) + result["floor_sqlite_commit"].get("p50", 0)
    if floor and samples:
        result["ratio_to_floors_p50"] = round(result["action_to_reply"]["p50"] / floor, 2)
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench")
    parser.add_argument("--game", default=None, help="only this game key")
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--actions", type=int, default=40)
    args = parser.parse_args(argv)
    report: dict[str, Any] = {
        "machine": {
            "python": platform.python_version(),
            "cpus": os.cpu_count(),
            "platform": platform.platform(),
        },
        "games": {},
    }
    for key, game in games().items():
        if args.game and key != args.game:
            continue
        for info in game.scenarios():
            entry = bench_engine(game, info.key, args.seeds, args.steps)
            entry["end_to_end_sqlite"] = asyncio.run(bench_end_to_end(key, info.key, args.actions))
            report["games"].setdefault(key, {})[info.key] = entry
    json.dump(report, sys.stdout, indent=2)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
