"""One set of live controls in the playground (issue #32, item 5): a public post superseded
by a newer one with buttons loses its buttons and menus (an edit the page polls), as on
Discord (tests/bot/discord/test_live_controls.py)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
from choosers import Wanderer
from playground_table import Playground, playground

from bot.storage.db import Database
from bot.table import TableService
from engine.registry import games
from engine.selfplay import default_seats


@pytest.fixture
async def table(db: Database) -> AsyncIterator[Playground]:
    async with playground(TableService(db, new_seed=lambda: 77, limits=None), "general") as t:
        yield t


@pytest.mark.parametrize(
    ("game_key", "scenario"), [("galaxy-defenders", "m1"), ("forlorn-hope", "op-01")]
)
async def test_only_the_latest_post_keeps_its_buttons(
    table: Playground, game_key: str, scenario: str
) -> None:
    game = games()[game_key]
    roles = default_seats(game, scenario, 2)
    seat_of = dict(zip(roles, ["ann", "bob"], strict=False))
    await table.open(game_key, scenario, seat_of)
    had_controls: set[int] = set()

    async def one_set_of_controls(_: dict[str, Any]) -> None:
        page = await (await table.client.get("/api/channels/general/messages")).json()
        live = [m for m in page["messages"] if m["buttons"] or m["menus"]]
        assert len(live) <= 1, [(m["id"], m["content"][:60]) for m in live]
        had_controls.update(m["id"] for m in live)
        if live:
            assert live[0]["id"] == max(had_controls)

    chooser = Wanderer(5, eager=8)
    await table.play(game, seat_of, chooser, 40, after=one_set_of_controls, must_end=False)
    assert len(had_controls) >= 3, had_controls
