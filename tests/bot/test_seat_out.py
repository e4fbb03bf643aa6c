"""Nobody drops out silently (issue #32, item 8), through the playground API: a Forlorn Marine
seat that loses its last Marine is told in the channel and by direct message, asks another
seat for one of its Marines (that seat's player agrees) or watches; the shared AP pool says
who spent what in the turn post and in /campaign status."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from offered import NoPictures
from playground_table import Playground, playground, sqlite_table

from engine.registry import get_game

CHANNEL = "hope"
GAME = get_game("forlorn-hope")


@pytest.fixture
async def api(tmp_path: Path) -> AsyncIterator[Playground]:
    async with (
        sqlite_table(tmp_path / "hope.db", new_seed=lambda: 32, pictures=NoPictures()) as t,
        playground(t, CHANNEL) as channel,
    ):
        yield channel


class Table(Playground):
    """The channel, with this test's own set-up."""

    async def stage(self) -> None:
        """Op 01 with two Marine seats, in the Marine phase: the first seat commands Fox and
        Zac, the second only Bates, who stands by an airlock."""
        await self.replies("p0", "/campaign create game:forlorn-hope scenario:op-01")
        await self.replies("p0", "/campaign join role:marines")
        await self.replies("p1", "/campaign join role:marines-2")
        await self.replies("p0", "/campaign begin")
        campaign = await self.service.repo.latest_in_channel(CHANNEL)
        assert campaign is not None
        state = await self.state(GAME)
        places = {"fox": ("H9", "marines"), "zac": ("H7", "marines"), "bates": ("A2", "marines-2")}
        for unit in state.units:
            if unit.side == "xenos" and unit.status == "active":
                unit.status, unit.at = "pool", None
            elif unit.side == "marines":
                where, seat = places.get(unit.id, (None, None))
                unit.status = "active" if where else "dead"
                unit.at, unit.seat = where, seat
                unit.facing = "W" if unit.id == "bates" else "N"
        state.phase, state.ap, state.ended, state.floor_items = "marine", 6, [], {}
        campaign.state_json = json.dumps(GAME.dump(state))
        await self.service.repo.save_settings(campaign)
        async with self.service.db.session() as session:
            session.add(campaign)
            await session.commit()


async def test_a_seat_with_no_marine_left_is_told_and_takes_over_one_that_is_handed_over(
    api: Playground,
) -> None:
    table = Table(api.client, api.service, CHANNEL)
    await table.stage()
    out = await table.replies("p1", "/act unit:bates what:exit")
    post = next(r for r in out if not r["ephemeral"] and r["content"])
    assert "Marines (2) has no Marine left" in post["content"]
    assert "2 AP spent" not in post["content"]  # said in words below
    assert "4 AP shared (spent: Marines (2) 2)" in post["content"]  # the headline's pool
    letters = await table.feed("dm-p1")
    assert len(letters) == 1 and "Your last Marine is gone (Marines (2))" in letters[0]["content"]
    assert "/choose" not in letters[0]["content"]

    panel = await table.replies("p1", "/pick")
    offered = json.dumps(panel)
    assert "Ask Marines to hand you" in offered and "Watch the rest of the operation" in offered

    zac = next(u for u in (await table.state(GAME)).units if u.id == "zac")
    asked = await table.replies("p1", "/choose option:ask:zac")
    shown = "\n".join(r["content"] for r in asked if not r["ephemeral"])
    assert f"Marines (2) has no Marine left and asks Marines for {zac.name}." in shown
    to_p0 = await table.feed("dm-p0")
    assert len(to_p0) == 1 and f"asks you to hand over {zac.name}" in to_p0[0]["content"]

    await table.replies("p0", "/choose option:hand:zac")
    state = await table.state(GAME)
    assert next(u for u in state.units if u.id == "zac").seat == "marines-2"
    assert "marines-2" in GAME.waiting_on(state).seats
    told = await table.feed("dm-p1")
    assert len(told) == 2 and f"{zac.name} is yours to command now" in told[1]["content"]
    moved = await table.replies("p1", "/move unit:zac to:H6")
    assert any("H6" in r["content"] for r in moved if not r["ephemeral"])

    status = "\n".join(r["content"] for r in await table.replies("p0", "/campaign status"))
    assert "AP left in the shared pool; spent this turn: Marines (2) 3" in status


async def test_a_seat_with_no_marine_left_may_watch_and_is_listed_in_status(
    api: Playground,
) -> None:
    table = Table(api.client, api.service, CHANNEL)
    await table.stage()
    await table.replies("p1", "/act unit:bates what:exit")
    status = "\n".join(r["content"] for r in await table.replies("p0", "/campaign status"))
    assert "Marines (2): no Marine left (may ask another seat for a Marine)" in status
    watched = await table.replies("p1", "/choose option:watch")
    assert any("watches the rest of the operation" in r["content"] for r in watched)
    status = "\n".join(r["content"] for r in await table.replies("p0", "/campaign status"))
    assert "Marines (2): no Marine left (watching)" in status
