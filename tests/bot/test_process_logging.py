"""Logging as configured by `python -m bot`, and stopping with SIGTERM in both modes.

The processes are real: the playground and the Discord bot (behind the fake Discord) run as
subprocesses started by the test, exactly as an operator or `docker stop` would treat them.
"""

from __future__ import annotations

import asyncio
import io
import json
import logging
import re
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import aiohttp
import pytest
from processes import Bot, bot_command, clean_env

from bot.logs import configure_logging, new_request_id

sys.path.insert(0, str(Path(__file__).parent / "discord"))
from fake_discord import FakeDiscord

FORGED = "/x\nFAKE 2026-01-01 INFO sortie [-] forged\x00\x1b[2J"
TIMEOUT = aiohttp.ClientTimeout(total=30)


async def test_log_json_gives_one_json_object_per_line_with_request_ids(
    tmp_path: Path, bots: list[Bot]
) -> None:
    env = clean_env(DATABASE_URL=f"sqlite+aiosqlite:///{tmp_path / 'log.db'}", LOG_JSON="true")
    bot = Bot(tmp_path, env=env)
    bots.append(bot)
    async with aiohttp.ClientSession(timeout=TIMEOUT) as session:
        bot.start()
        await bot.wait_ready(session)
        answer = await bot.send(session, "ann", FORGED)
        assert not answer["ok"]
        assert (await bot.send(session, "ann", "/campaign list"))["ok"]
    code, logged = bot.stop()
    assert code == 0
    lines = [json.loads(line) for line in logged.splitlines()]  # every line is JSON
    assert all(entry["request_id"] for entry in lines)
    commands = [e for e in lines if e["message"].startswith("command ")]
    assert len(commands) == 2
    assert all(re.fullmatch(r"[0-9a-f]{10}", e["request_id"]) for e in commands)
    assert commands[0]["request_id"] != commands[1]["request_id"]
    assert "\nFAKE" in commands[0]["message"]  # kept inside its own JSON string
    assert any(e["message"] == "stopped" for e in lines)


@pytest.fixture
def root_logging() -> Iterator[None]:
    """Put the root logger back as pytest had it."""
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    yield
    root.handlers[:] = handlers
    root.setLevel(level)


def test_text_logs_keep_user_text_on_one_line(root_logging: None) -> None:
    stream = io.StringIO()
    configure_logging("INFO", False)
    handler = logging.getLogger().handlers[0]
    assert isinstance(handler, logging.StreamHandler)
    handler.setStream(stream)
    rid = new_request_id()
    logging.getLogger("sortie.table").info("command %s by %s", FORGED, "ann\r\n")
    logging.getLogger("sortie.table").info("second")
    lines = stream.getvalue().splitlines()
    assert len(lines) == 2
    assert all(f"[{rid}]" in line for line in lines)
    assert "\\nFAKE" in lines[0] and "\\x00\\x1b[2J" in lines[0] and "ann\\r\\n" in lines[0]


async def test_sigterm_stops_the_discord_bot_cleanly(tmp_path: Path) -> None:
    fake = FakeDiscord()
    ann = fake.add_member("ann")
    table = fake.add_channel("table")
    await fake.start()
    env = clean_env(
        DATABASE_URL=f"sqlite+aiosqlite:///{tmp_path / 'discord.db'}",
        DISCORD_TOKEN=fake.token,
        FAKE_DISCORD_URL=fake.url,
    )
    process = subprocess.Popen(
        bot_command("run"), env=env, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    try:
        for _ in range(600):
            if fake.gateway_connects and fake.commands:
                break
            assert process.poll() is None, process.communicate()[1].decode()
            await asyncio.sleep(0.05)
        record = await fake.slash(ann, table, "campaign list")
        await asyncio.wait_for(record.acked.wait(), 20)
        process.send_signal(signal.SIGTERM)
        _, err = await asyncio.to_thread(process.communicate, timeout=20)
    finally:
        if process.poll() is None:
            process.kill()
        await fake.close()
    logged = err.decode()
    assert process.returncode == 0, logged
    assert "Traceback" not in logged and "leaked" not in logged, logged
    assert "stop signal: disconnecting from Discord" in logged
    assert fake.violations == []
