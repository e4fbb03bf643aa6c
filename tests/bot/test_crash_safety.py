"""Kill the real process with SIGKILL in the middle of a burst: nothing acknowledged is lost.

The bot runs as a subprocess (the playground, with the test-only Dash game registered by a
small launcher), a burst of commands goes in over HTTP, and the process is killed once some
of them have been acknowledged. After a restart every acknowledged step is in the log, no step
is half-written, and `verify` reproduces the campaign from its log.
"""

from __future__ import annotations

import asyncio
import sqlite3
import subprocess
from collections.abc import Iterator
from pathlib import Path

import aiohttp
import pytest
from processes import Bot


@pytest.fixture
def bot(tmp_path: Path) -> Iterator[Bot]:
    instance = Bot(tmp_path)
    yield instance
    instance.kill()


def logged_actions(db_path: Path) -> list[tuple[int, str]]:
    with sqlite3.connect(db_path) as conn:
        return list(conn.execute("SELECT seq, kind FROM action_log ORDER BY seq"))


async def test_sigkill_during_a_burst_loses_nothing_acknowledged(bot: Bot) -> None:
    timeout = aiohttp.ClientTimeout(total=15)
    async with aiohttp.ClientSession(timeout=timeout) as session:
        bot.start()
        await bot.wait_ready(session)
        for user, text in (
            ("ann", "/campaign create game:dash scenario:sprint"),
            ("ann", "/campaign join role:red"),
            ("bob", "/campaign join role:blue"),
            ("ann", "/campaign begin"),
        ):
            assert (await bot.send(session, user, text))["ok"], text
        acknowledged = 0

        async def one(i: int) -> None:
            nonlocal acknowledged
            user = "ann" if i % 2 else "bob"
            try:
                reply = await bot.send(session, user, "/act what:peek")
            except (TimeoutError, aiohttp.ClientError):
                return  # cut off by the kill: not acknowledged
            if reply.get("ok"):
                acknowledged += 1
                if acknowledged == 6:
                    bot.kill()

        await asyncio.gather(*(one(i) for i in range(40)))
        bot.kill()
    assert acknowledged >= 6
    rows = logged_actions(bot.db_path)
    actions = [seq for seq, kind in rows if kind == "action"]
    assert len(actions) >= acknowledged
    assert [seq for seq, _ in rows] == list(range(1, len(rows) + 1))  # no gap, no half step
    verify = subprocess.run(bot.command("verify"), env=bot.env, capture_output=True, timeout=60)
    assert verify.returncode == 0, verify.stdout.decode() + verify.stderr.decode()
    assert b"1 reproducible" in verify.stdout
    # And the restarted bot carries on from where it stopped.
    async with aiohttp.ClientSession(timeout=timeout) as session:
        bot.start()
        await bot.wait_ready(session)
        status = await bot.send(session, "ann", "/campaign status")
        assert status["ok"] and "active" in status["replies"][0]["content"]
        assert (await bot.send(session, "ann", "/act what:peek"))["ok"]
    bot.kill()
    assert len([k for _, k in logged_actions(bot.db_path) if k == "action"]) == len(actions) + 1
