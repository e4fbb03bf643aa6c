"""Live campaigns per player and per server are capped, with a refusal that says why."""

from __future__ import annotations

import asyncio
import itertools

from support import text

from bot.ratelimit import Limit, RateLimits
from bot.storage.db import Database
from bot.table import Caller, TableService

CAPS = RateLimits(
    user=Limit(burst=1000, per_seconds=1.0),
    channel=Limit(burst=1000, per_seconds=1.0),
    live_per_user=3,
    live_per_server=20,
)


def player(n: int, channel: str, guild: str = "guild-1") -> Caller:
    return Caller(f"id-{n}", f"p{n}", channel, guild)


async def test_a_burst_of_creates_stops_at_the_caps(db: Database) -> None:
    # Issue #22: 15 users created 180 campaigns in 0.6 s.
    table = TableService(db, limits=CAPS)
    channels = itertools.count()
    tries = [player(n % 15, f"c-{next(channels)}") for n in range(180)]
    answers = await asyncio.gather(
        *(table.handle(who, "/campaign create game:dash scenario:sprint") for who in tries)
    )
    made = [a for a in answers if not a[0].error]
    assert len(made) == 20
    live = [c for c in await table.repo.all() if c.live_channel]
    assert len(live) == 20
    owners = [c.owner_id for c in live]
    assert max(owners.count(o) for o in set(owners)) <= 3
    refusals = {text(a) for a in answers if a[0].error}
    assert any("the most it may (20)" in r for r in refusals)
    # Another server has its own room; ending a campaign frees a place.
    other = await table.handle(
        player(99, "x-1", "guild-2"), "/campaign create game:dash scenario:sprint"
    )
    assert not other[0].error


async def test_a_player_at_the_cap_is_told_how_to_free_a_place(db: Database) -> None:
    table = TableService(db, limits=CAPS)
    for n in range(3):
        assert not (
            await table.handle(player(1, f"c-{n}"), "/campaign create game:dash scenario:sprint")
        )[0].error
    refused = text(
        await table.handle(player(1, "c-9"), "/campaign create game:dash scenario:sprint")
    )
    assert "You already run 3 live campaigns, the most one player may (3)" in refused
    await table.handle(player(1, "c-0"), "/campaign end confirm:yes")
    again = await table.handle(player(1, "c-9"), "/campaign create game:dash scenario:sprint")
    assert not again[0].error
