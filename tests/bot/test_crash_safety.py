"""Kill the real process with SIGKILL in the middle of a burst: nothing acknowledged is lost.

The bot runs as a subprocess (the playground, with the test-only Dash game registered by a
small launcher), a burst of commands goes in over HTTP, and the process is killed once some
of them have been acknowledged. After a restart every acknowledged step is in the log, no step
is half-written, and `verify` reproduces the campaign from its log.
"""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

TESTS = Path(__file__).resolve().parents[1]
LAUNCHER = (
    "import sys; sys.path.insert(0, {tests!r});"
    "from fixture_game import DashGame; from engine.registry import register;"
    "register(DashGame()); from bot.__main__ import main; sys.exit(main(sys.argv[1:]))"
)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Bot:
    def __init__(self, tmp: Path) -> None:
        self.db_path = tmp / "crash.db"
        self.port = free_port()
        self.env = {
            **os.environ,
            "DATABASE_URL": f"sqlite+aiosqlite:///{self.db_path}",
            "PLAYGROUND_PORT": str(self.port),
            "PLAYGROUND_HOST": "127.0.0.1",
        }
        self.env.pop("DISCORD_TOKEN", None)
        self.process: subprocess.Popen[bytes] | None = None

    def command(self, *args: str) -> list[str]:
        return [sys.executable, "-c", LAUNCHER.format(tests=str(TESTS)), *args]

    def start(self) -> None:
        self.process = subprocess.Popen(
            self.command("run"), env=self.env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
        )

    def kill(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=10)

    async def wait_ready(self, session: aiohttp.ClientSession) -> None:
        for _ in range(200):
            try:
                async with session.get(f"http://127.0.0.1:{self.port}/healthz") as response:
                    if response.status == 200:
                        return
            except aiohttp.ClientError:
                pass
            await asyncio.sleep(0.05)
        raise AssertionError("the bot did not start within 10 s")

    async def send(self, session: aiohttp.ClientSession, user: str, text: str) -> dict[str, Any]:
        url = f"http://127.0.0.1:{self.port}/api/command"
        async with session.post(
            url, json={"channel": "war-room", "user": user, "text": text}
        ) as response:
            result: dict[str, Any] = await response.json()
            return result


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
