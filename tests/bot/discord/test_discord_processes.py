"""Three bot processes on one PostgreSQL behind the fake Discord, the shards split between them.

Each process runs one of three shards (SHARD_COUNT=3, SHARD_IDS=[n]); the fake Discord has a
guild on each shard and delivers every interaction to the process of its guild's shard, as
Discord does. Players run campaigns in six channels at once; one process is killed with
SIGKILL in the middle of a burst. The other two keep serving their guilds, every step a player
saw acknowledged is in the database, and `python -m bot verify` replays every campaign.
"""

from __future__ import annotations

import asyncio
import os
import signal
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from fleet import Fleet, cli
from sqlmodel import SQLModel, select

from bot.storage.db import Database
from bot.storage.models import ActionLog, Campaign

pytestmark = pytest.mark.skipif(
    not os.environ.get("TEST_DATABASE_URL"),
    reason="the multi-process test needs PostgreSQL: set TEST_DATABASE_URL (CI sets it)",
)
SHARDS = 3


@pytest.fixture
async def fleet(tmp_path: Path) -> AsyncIterator[Fleet]:
    url = os.environ["TEST_DATABASE_URL"]
    database = Database(url)
    async with database.engine.begin() as conn:
        await conn.run_sync(SQLModel.metadata.drop_all)
    await database.init()
    await database.close()
    # Ann owns every campaign here: more than a player's default cap.
    running = Fleet(tmp_path, url, SHARDS, env={"MAX_CAMPAIGNS_PER_USER": "10"})
    try:
        await running.start()
        yield running
    finally:
        await running.stop()


async def test_three_processes_share_the_work_and_survive_losing_one(fleet: Fleet) -> None:
    every = [c for channels in fleet.channels.values() for c in channels]

    async def set_up(channel: int) -> None:
        ann, bob = fleet.players[channel]
        for user, command, options in (
            (ann, "campaign create", {"game": "dash", "scenario": "sprint"}),
            (ann, "campaign join", {"role": "red"}),
            (bob, "campaign join", {"role": "blue"}),
            (ann, "campaign begin", {}),
        ):
            assert await fleet.run(user, channel, command, **options), fleet.unanswered

    await asyncio.gather(*(set_up(c) for c in every))
    acknowledged = {c: 0 for c in every}
    victim = fleet.processes[0]

    async def burst(channel: int, moves: int) -> None:
        ann, bob = fleet.players[channel]
        for n in range(moves):
            # A step answered in public (an /act is answered privately: its options may name
            # a hidden card), so the fake sees its acknowledgement on the interaction.
            if await fleet.run(ann if n % 2 else bob, channel, "end-turn"):
                acknowledged[channel] += 1
                if sum(acknowledged.values()) == 8 and victim.poll() is None:
                    victim.send_signal(signal.SIGKILL)  # mid-burst: other moves are in flight

    await asyncio.gather(*(burst(c, 6) for c in every))
    assert victim.poll() is not None, (
        f"only {sum(acknowledged.values())} of 36 commands were answered in time, so the "
        f"process was never killed: {fleet.unanswered}"
    )
    assert victim.wait(10) == -signal.SIGKILL
    # The surviving processes keep serving their guilds.
    survivors = [c for shard in (1, 2) for c in fleet.channels[shard]]
    before = dict(acknowledged)
    await asyncio.gather(*(burst(c, 2) for c in survivors))
    assert all(acknowledged[c] == before[c] + 2 for c in survivors), fleet.unanswered
    # Each process served only its own shard's guild: work was split, not duplicated.
    served = {
        shard: sum(acknowledged[c] for c in fleet.channels[shard]) for shard in fleet.channels
    }
    assert all(served[shard] > 0 for shard in (1, 2))
    # Nothing acknowledged is lost, and every campaign replays.
    database = Database(fleet.url)
    try:
        async with database.session() as session:
            for channel in every:
                campaign = (
                    await session.exec(select(Campaign).where(Campaign.channel_id == str(channel)))
                ).one()
                rows = (
                    await session.exec(
                        select(ActionLog).where(ActionLog.campaign_id == campaign.id)
                    )
                ).all()
                seqs = sorted(r.seq for r in rows)
                assert seqs == list(range(1, len(seqs) + 1))
                assert sum(1 for r in rows if r.kind == "action") >= acknowledged[channel]
    finally:
        await database.close()
    checked = cli("verify", env=fleet.env())
    assert checked.returncode == 0 and "6 campaigns checked, 6 reproducible" in checked.stdout
    for shard in (1, 2):
        code, log = await fleet.terminate(shard)
        assert code == 0, log
    assert [str(v) for v in fleet.fake.violations] == []
