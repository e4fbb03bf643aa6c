"""Every objective counted: each condition a mission's Objectives table judges has its counter
in the board's header, and `/campaign status` shows the same counters (os1's fires too)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer
from offered import NoPictures

from bot.playground.server import create_app
from bot.storage.db import Database
from bot.table import TableService
from engine.core.dice import SeededDice
from engine.core.game import scenario_info
from engine.galaxy.strikeback.mission_rules.os1 import set_fire
from engine.galaxy.world import mission_of
from engine.registry import get_game

# The header's counter for each kind of objective condition (the rest are the round, which
# the header always shows, and "everyone down / out", which the figures show).
COUNTED_BY = {
    "kills>=": "kills",
    "destroyed>=": "teleports destroyed",
    "rescued>=": "rescued",
    "flames": "fires",
    "dead>=": "agents lost",
    "events-out": "Event cards left",
    "probes-armed": "probes",
    "bombs>=": "bombs detonated",
    "base-all": "inside the base",
    "e-drawn": "Special Event E",
    "event-drawn:": "Special Event E",
    "alive>=": "agents standing",
    "virus-both": "virus",
    "grey-dead": "Grey Xeno",
    "wormoon-dead": "Wormoon",
}
SHOWN_ANYWAY = ("round>", "all-dead", "extracted", "always")
GALAXY = [f"m{n}" for n in range(1, 7)] + [f"os{n}" for n in range(1, 7)]


@pytest.mark.parametrize("scenario", GALAXY)
def test_every_objective_condition_has_a_counter_in_the_header(scenario: str) -> None:
    game = get_game("galaxy-defenders")
    options = scenario_info(game, scenario).resolve_options({})
    state = game.new(scenario, ["marine", "sniper"], options, SeededDice(1))
    header = game.view(state, None).header
    for row in mission_of(state).objectives:
        for cond in row.when:
            if cond.startswith(SHOWN_ANYWAY):
                continue
            counted = [name for prefix, name in COUNTED_BY.items() if cond.startswith(prefix)]
            assert counted, f"{scenario}: no counter known for {cond}"
            assert counted[0] in header, (scenario, cond, header)


def test_os1_counts_its_fires_as_they_start() -> None:
    game = get_game("galaxy-defenders")
    options = scenario_info(game, "os1").resolve_options({})
    state = game.new("os1", ["marine", "sniper"], options, SeededDice(1))
    assert game.view(state, None).header["fires"].startswith("0 burning")
    set_fire(state, 2, [])
    set_fire(state, 3, [])
    fires = game.view(state, None).header["fires"]
    assert fires.startswith("2 burning") and "at most 2" in fires and "4 fail" in fires


@pytest.fixture
async def api(tmp_path: Path) -> AsyncIterator[TestClient[Any, Any]]:
    db = Database(f"sqlite+aiosqlite:///{tmp_path / 'counts.db'}")
    await db.init()
    service = TableService(db, new_seed=lambda: 5, limits=None, pictures=NoPictures())
    async with TestClient(TestServer(create_app(service))) as client:
        yield client
    await db.close()


async def status_of(client: TestClient[Any, Any], game_key: str, scenario: str) -> str:
    async def send(text: str) -> dict[str, Any]:
        response = await client.post(
            "/api/command", json={"channel": scenario, "user": "p0", "text": text}
        )
        body: dict[str, Any] = await response.json()
        assert body["ok"], (text, body)
        return body

    await send(f"/campaign create game:{game_key} scenario:{scenario}")
    role = {"galaxy-defenders": "marine", "reichbusters": "sarge", "forlorn-hope": "marines"}
    await send(f"/campaign join role:{role[game_key]}")
    await send("/campaign begin")
    body = await send("/campaign status")
    return "\n".join(r["content"] for r in body["replies"])


@pytest.mark.parametrize(
    ("game_key", "scenario", "wanted"),
    [
        ("galaxy-defenders", "os1", ["fires: 0 burning", "agents lost: 0"]),
        ("galaxy-defenders", "os3", ["bombs detonated: 0 of 4", "Event cards left:"]),
        ("galaxy-defenders", "m2", ["aliens killed: 0 of", "Teleport Points wrecked: 0 of 3"]),
        ("forlorn-hope", "op-01", ["carry it out through an airlock (on the floor at"]),
        ("reichbusters", "radio-silence", ["sabotage the objective token (0/1)"]),
    ],
)
async def test_campaign_status_counts_every_objective(
    api: TestClient[Any, Any], game_key: str, scenario: str, wanted: list[str]
) -> None:
    status = await status_of(api, game_key, scenario)
    for text in wanted:
        assert text in status, status


def test_forlorn_and_reich_headers_count_their_objectives() -> None:
    reich = get_game("reichbusters")
    options = scenario_info(reich, "radio-silence").resolve_options({})
    state = reich.new("radio-silence", ["sarge", "hans"], options, SeededDice(1))
    assert reich.view(state, None).header["objective progress"] == "sabotaged 0/1"
    forlorn = get_game("forlorn-hope")
    options = scenario_info(forlorn, "op-02").resolve_options({})
    state = forlorn.new("op-02", ["marines"], options, SeededDice(1))
    assert "there now)" in forlorn.view(state, None).header["goal"]
