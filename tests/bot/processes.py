"""Sortie as real processes for the tests: the playground over HTTP, and the command line.

The launcher registers the test-only Dash game before handing over to `python -m bot`.
"""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

TESTS = Path(__file__).resolve().parents[1]
# The Dash game's module is loaded by its path: putting tests/ on sys.path would let its
# `engine` test folder shadow the real package when the process runs outside the repository.
# With FAKE_DISCORD_URL set, discord.py talks to the fake Discord at that address.
LAUNCHER = """
import importlib.util, os, sys
spec = importlib.util.spec_from_file_location("fixture_game", {game!r})
game = importlib.util.module_from_spec(spec)
sys.modules["fixture_game"] = game
spec.loader.exec_module(game)
from engine.registry import register
register(game.DashGame())
fake = os.environ.get("FAKE_DISCORD_URL")
if fake:
    import discord, yarl
    discord.http.Route.BASE = fake + "/api/v10"
    gateway = yarl.URL(fake.replace("http://", "ws://") + "/gateway")
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = gateway
import signal as _signal
def dump_tasks(signum, frame):
    # A test that waits in vain asks what every task is doing (SIGUSR1): stacks to stderr.
    import asyncio
    try:
        for task in asyncio.all_tasks():
            task.print_stack(file=sys.stderr)
    except RuntimeError:
        pass
    sys.stderr.flush()
_signal.signal(_signal.SIGUSR1, dump_tasks)
stop = os.environ.get("STOP_BEFORE_OUTBOX")
if stop:
    # A fault test's kill between a step's commit and its outbox rows: once the file exists,
    # the next post this process would write to the outbox stops it with SIGKILL instead.
    import pathlib, signal
    from bot.discord.deliverer import Deliverer
    enqueue = Deliverer.enqueue
    async def enqueue_or_stop(self, *args, **kwargs):
        if pathlib.Path(stop).exists():
            os.kill(os.getpid(), signal.SIGKILL)
        return await enqueue(self, *args, **kwargs)
    Deliverer.enqueue = enqueue_or_stop
from bot.__main__ import main
sys.exit(main(sys.argv[1:]))
"""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def bot_command(*args: str) -> list[str]:
    """`python -m bot ARGS` with the Dash game registered."""
    return [sys.executable, "-c", LAUNCHER.format(game=str(TESTS / "fixture_game.py")), *args]


def clean_env(**values: str) -> dict[str, str]:
    """The test process's environment without any Sortie setting, plus `values`."""
    env = {k: v for k, v in os.environ.items() if k not in SORTIE_VARIABLES}
    # This checkout's code, whatever the virtual environment has installed (an editable
    # install may point at another worktree).
    path = os.pathsep.join(p for p in (str(TESTS.parent), env.get("PYTHONPATH", "")) if p)
    # Pictures render in threads: starting render processes only slows the tests' start-up.
    return {**env, "PYTHONPATH": path, "RENDER_WORKERS": "0", **values}


SORTIE_VARIABLES = {
    "DISCORD_TOKEN",
    "DATABASE_URL",
    "PLAYGROUND_HOST",
    "PLAYGROUND_PORT",
    "LOG_JSON",
    "LOG_LEVEL",
    "SHARD_IDS",
    "SHARD_COUNT",
    "RENDER_WORKERS",
    "FAKE_DISCORD_URL",
    "DATABASE_PASSWORD",
    "DATABASE_PASSWORD_FILE",
    "SORTIE_SIGNING_KEY",
    "SORTIE_SIGNING_KEY_FILE",
    "DELIVERY_LEASE_SECONDS",
    "STOP_BEFORE_OUTBOX",
}


def cli(
    *args: str, env: dict[str, str], cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    """Run `python -m bot ARGS` to completion."""
    return subprocess.run(
        bot_command(*args), env=env, cwd=cwd, capture_output=True, text=True, timeout=120
    )


@pytest.fixture
def bots() -> Iterator[list[Bot]]:
    """Every bot process a test starts, killed at the end whatever happened."""
    started: list[Bot] = []
    yield started
    for bot in started:
        bot.kill()


class Bot:
    """The playground as a subprocess: start, stop (SIGTERM), kill (SIGKILL), talk over HTTP."""

    def __init__(self, tmp: Path, env: dict[str, str] | None = None, cwd: Path | None = None):
        self.db_path = tmp / "crash.db"
        self.port = free_port()
        self.cwd = cwd
        self.env = env or clean_env(DATABASE_URL=f"sqlite+aiosqlite:///{self.db_path}")
        self.env = {**self.env, "PLAYGROUND_PORT": str(self.port), "PLAYGROUND_HOST": "127.0.0.1"}
        self.process: subprocess.Popen[bytes] | None = None

    def command(self, *args: str) -> list[str]:
        return bot_command(*args)

    def start(self) -> None:
        self.process = subprocess.Popen(
            self.command("run"),
            env=self.env,
            cwd=self.cwd,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )

    def kill(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=10)

    def stop(self) -> tuple[int, str]:
        """SIGTERM, as `docker stop` sends; the exit code and everything logged."""
        assert self.process is not None
        self.process.send_signal(signal.SIGTERM)
        _, err = self.process.communicate(timeout=20)
        return self.process.returncode, err.decode()

    async def wait_ready(self, session: aiohttp.ClientSession) -> None:
        for _ in range(600):
            if self.process is not None and self.process.poll() is not None:
                err = self.process.stderr.read().decode() if self.process.stderr else ""
                raise AssertionError(f"the bot exited at start-up: {err[-3000:]}")
            try:
                async with session.get(f"http://127.0.0.1:{self.port}/healthz") as response:
                    if response.status == 200:
                        return
            except aiohttp.ClientError:
                pass
            await asyncio.sleep(0.05)
        raise AssertionError("the bot did not start within 30 s")

    async def send(
        self, session: aiohttp.ClientSession, user: str, text: str, channel: str = "war-room"
    ) -> dict[str, Any]:
        url = f"http://127.0.0.1:{self.port}/api/command"
        async with session.post(
            url, json={"channel": channel, "user": user, "text": text}
        ) as response:
            result: dict[str, Any] = await response.json()
            return result

    async def fetch(self, session: aiohttp.ClientSession, path: str) -> bytes:
        async with session.get(f"http://127.0.0.1:{self.port}{path}") as response:
            assert response.status == 200, path
            return await response.read()
