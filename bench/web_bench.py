"""The web view (issue #34) on a long campaign: page and step-image latency, cold and cached.

A campaign of `steps` steps is played by the engine with the table's own step functions
(`bot.replay`), stored as an import would store it, then read over HTTP through the web view's
app: the first request after a restart (the timeline built by one full replay), pages and
images of steps spread over the campaign (cold: never drawn; cached: asked again), and a
spectator stepping through consecutive steps.
"""

from __future__ import annotations

import json
import random
import time
from pathlib import Path
from typing import Any

from aiohttp.test_utils import TestClient, TestServer

from bench.common import summary
from bot.replay import logged_events, run_action, run_begin
from bot.storage.db import Database
from bot.storage.models import ActionLog, Campaign, Seat
from bot.table import TableService
from bot.web.server import WebView, create_app
from engine.core.dice import SeededDice
from engine.core.events import dump_events
from engine.registry import get_game
from engine.selfplay import choose_action, default_seats

# Reichbusters' longer missions run past 500 steps when the players rarely end a turn early.
GAME, SCENARIOS = "reichbusters", ("hive-breach", "wolffs-lair")


def long_log(steps: int, tries: int = 12) -> tuple[Campaign, list[str], list[ActionLog]]:
    """The longest random campaign found (up to `steps` steps): its row and log."""
    game = get_game(GAME)
    best: tuple[Campaign, list[str], list[ActionLog]] | None = None
    for attempt in range(tries):
        scenario = SCENARIOS[attempt % len(SCENARIOS)]
        seats = default_seats(game, scenario, None)
        campaign = Campaign(
            channel_id=f"bench-web-{attempt}",
            game=GAME,
            scenario=scenario,
            seed=1000 + attempt,
            owner_id="bench",
            status="active",
        )
        step, _ = run_begin(game, campaign, seats, 1)
        rows = [
            ActionLog(
                campaign_id=0,  # set when stored
                seq=1,
                kind="begin",
                user_id="bench",
                action_json=json.dumps({"seats": seats}),
                events_json=json.dumps(dump_events(step.events)),
                random_used=True,
            )
        ]
        state, policy = step.state, SeededDice(attempt)
        while len(rows) < steps:
            prompt = game.waiting_on(state)
            if prompt.finished:
                break
            seat = prompt.seats[0]
            action = choose_action(game.legal_actions(state, seat), policy, 0)
            seq = len(rows) + 1
            ran = run_action(game, state, campaign.seed, seq, seat, action)
            events = logged_events(game, state, "bench", seat, action, ran.step.events)
            rows.append(
                ActionLog(
                    campaign_id=0,
                    seq=seq,
                    kind="action",
                    seat=seat,
                    user_id="bench",
                    action_json=action.model_dump_json(include={"verb", "args"}),
                    events_json=json.dumps(dump_events(events)),
                    random_used=ran.random_used,
                )
            )
            state = ran.step.state
        campaign.step = len(rows)
        campaign.version = len(rows)
        campaign.state_json = json.dumps(game.dump(state))
        if best is None or len(rows) > len(best[2]):
            best = (campaign, seats, rows)
        if len(rows) >= steps:
            break
    assert best is not None
    return best


async def _timed_get(client: TestClient[Any, Any], path: str) -> float:
    start = time.perf_counter()
    response = await client.get(path)
    await response.read()
    assert response.status == 200, (path, response.status)
    return (time.perf_counter() - start) * 1000


async def bench_web(tmp: Path, steps: int = 500, samples: int = 20) -> dict[str, Any]:
    campaign, seats, rows = long_log(steps)
    db = Database(f"sqlite+aiosqlite:///{tmp / 'web-bench.db'}")
    await db.init()
    service = TableService(db, limits=None)
    stored = await service.repo.import_campaign(
        campaign,
        [Seat(campaign_id=0, role=role, user_id="bench", user_name="bench") for role in seats],
        rows,
    )
    service.web.set_base("http://bench.test")
    token = await service.web.links.token(stored.id or 0)
    result: dict[str, Any] = {"game": GAME, "scenario": campaign.scenario, "steps": len(rows)}
    picks = random.Random(5).sample(range(1, len(rows) + 1), min(samples, len(rows)))
    async with TestClient(TestServer(create_app(WebView(service, limit=None)))) as client:
        # The first request after a start: the whole log replayed once, snapshots kept.
        result["first_request_ms"] = round(await _timed_get(client, f"/t/{token}/steps.json"), 1)
        result["steps_json"] = summary([await _timed_get(client, f"/t/{token}/steps.json")])
        cold_pages = [await _timed_get(client, f"/t/{token}?step={n}") for n in picks]
        cached_pages = [await _timed_get(client, f"/t/{token}?step={n}") for n in picks]
        cold_images = [await _timed_get(client, f"/t/{token}/steps/{n}.png") for n in picks]
        cached_images = [await _timed_get(client, f"/t/{token}/steps/{n}.png") for n in picks]
        start = max(1, len(rows) // 2)
        stepping = [
            await _timed_get(client, f"/t/{token}?step={n}")
            + await _timed_get(client, f"/t/{token}/steps/{n}.png")
            for n in range(start, min(len(rows), start + samples) + 1)
        ]
    await db.close()
    result.update(
        {
            "page_cold": summary(cold_pages),
            "page_cached": summary(cached_pages),
            "image_cold": summary(cold_images),
            "image_cached": summary(cached_images),
            "next_step_page_and_image": summary(stepping),
        }
    )
    return result
