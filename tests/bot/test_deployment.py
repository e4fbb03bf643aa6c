"""Deployment (issue #33, item 8): `python -m bot health`, the compose healthcheck, the
database password outside the URL, the build context, the base image by digest."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web
from aiohttp.test_utils import unused_port
from pydantic import SecretStr

from bot.config import DatabasePasswordError, Settings
from bot.health import STALE_AFTER, check, gateway_state, write_heartbeat
from bot.playground.server import create_app
from bot.storage.db import Database
from bot.table import TableService

ROOT = Path(__file__).resolve().parents[2]
PG = "postgresql+asyncpg://sortie@db:5432/sortie"


def settings(**values: Any) -> Settings:
    return Settings(_env_file=None, **values)


def test_the_password_comes_from_its_own_variable_or_file(tmp_path: Path) -> None:
    assert settings(database_url=PG).database_url_with_password() == PG
    given = settings(database_url=PG, database_password=SecretStr("p@ss:/w"))
    assert (
        given.database_url_with_password()
        == "postgresql+asyncpg://sortie:p%40ss%3A%2Fw@db:5432/sortie"
    )
    secret = tmp_path / "pw"
    secret.write_text("from-file\n")
    filed = settings(database_url=PG, database_password_file=str(secret))
    assert filed.database_url_with_password().endswith("sortie:from-file@db:5432/sortie")
    with pytest.raises(DatabasePasswordError, match="cannot be read"):
        settings(
            database_url=PG, database_password_file=str(tmp_path / "no")
        ).database_url_with_password()


def test_a_fresh_connected_heartbeat_is_healthy(tmp_path: Path) -> None:
    assert gateway_state(tmp_path)[0] is False  # none yet
    write_heartbeat(tmp_path, connected=True, latency=0.05)
    assert gateway_state(tmp_path)[0] is True
    assert gateway_state(tmp_path, now=time.time() + STALE_AFTER + 1)[0] is False
    write_heartbeat(tmp_path, connected=False, latency=None)
    ok, line = gateway_state(tmp_path)
    assert not ok and "not connected" in line


async def test_health_checks_the_database_and_the_playground(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'sortie.db'}"
    db = Database(url)
    await db.init()
    port = unused_port()
    runner = web.AppRunner(create_app(TableService(db)))
    await runner.setup()
    try:
        up = settings(database_url=url, playground_port=port)
        ok, lines = await check(up, tmp_path)
        assert not ok and "unreachable" in lines[1]  # not serving yet
        await web.TCPSite(runner, "127.0.0.1", port).start()
        ok, lines = await check(up, tmp_path)
        assert ok, lines
        bad = settings(
            database_url="postgresql+asyncpg://nobody@127.0.0.1:9/none", playground_port=port
        )
        ok, lines = await check(bad, tmp_path)
        assert not ok and lines[0].startswith("database: unreachable")
        discord = settings(database_url=url, discord_token=SecretStr("t"))
        assert not (await check(discord, tmp_path))[0]  # no heartbeat
        write_heartbeat(tmp_path, connected=True, latency=0.1)
        assert (await check(discord, tmp_path))[0]
    finally:
        await runner.cleanup()
        await db.close()


def test_the_health_command_exits_non_zero_when_unhealthy(tmp_path: Path) -> None:
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path / 'sortie.db'}",
        "DISCORD_TOKEN": "token",
    }
    done = subprocess.run(
        [sys.executable, "-m", "bot", "health"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 1
    assert "database: reachable" in done.stdout and "gateway: no heartbeat" in done.stdout
    (tmp_path / "data").mkdir()
    write_heartbeat(tmp_path / "data", connected=True, latency=0.1)
    again = subprocess.run(
        [sys.executable, "-m", "bot", "health"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert again.returncode == 0, again.stdout + again.stderr


def compose_services() -> dict[str, str]:
    """Each block of compose.yaml that a top-level key (`x-bot`) or a service opens (the file
    is plain enough to read without a YAML library)."""
    blocks: dict[str, list[str]] = {}
    current: list[str] = []
    for line in (ROOT / "compose.yaml").read_text().splitlines():
        opened = re.fullmatch(r"(x-bot|  [a-z0-9-]+):.*", line)
        if opened and (line.startswith("x-") or "services" in blocks):
            current = blocks.setdefault(opened.group(1).strip(), [])
        elif re.match(r"[a-z]", line):
            current = blocks.setdefault(line.split(":")[0], [])
        else:
            current.append(line)
    return {name: "\n".join(lines) for name, lines in blocks.items()}


def test_compose_checks_each_bots_health_and_keeps_the_password_out_of_the_url() -> None:
    text = (ROOT / "compose.yaml").read_text()
    blocks = compose_services()
    assert '["CMD", "python", "-m", "bot", "health"]' in blocks["x-bot"]
    bots = [name for name in blocks if re.fullmatch(r"bot-\d+", name)]
    assert len(bots) >= 2
    for name in bots:
        assert "<<: *bot" in blocks[name]
        assert "DATABASE_PASSWORD_FILE: /run/secrets/postgres_password" in blocks[name]
    urls = re.findall(r"DATABASE_URL: (\S+)", text)
    assert urls and all(":" not in url.split("//", 1)[1].split("@")[0] for url in urls)
    assert "POSTGRES_PASSWORD:" not in text and "${POSTGRES_PASSWORD" not in text
    assert "POSTGRES_PASSWORD_FILE: /run/secrets/postgres_password" in text


def test_the_build_context_leaves_out_secrets_and_data() -> None:
    ignored = (ROOT / ".dockerignore").read_text().split()
    for entry in (".env", "secrets/", "data/", ".git", ".venv", "*.db"):
        assert entry in ignored, entry


def test_the_base_image_is_pinned_by_digest() -> None:
    dockerfile = (ROOT / "Dockerfile").read_text()
    bases = re.findall(r"^FROM (\S+)", dockerfile, re.M)
    assert bases and all(re.fullmatch(r"[\w./:-]+@sha256:[0-9a-f]{64}", b) for b in bases)
    assert 'CMD ["python", "-m", "bot", "health"]' in dockerfile


def test_compose_pins_every_image_by_tag_and_digest() -> None:
    images = re.findall(r"^\s+image: (\S+)", (ROOT / "compose.yaml").read_text(), re.M)
    assert images and all(re.fullmatch(r"[\w./-]+:[\w.-]+@sha256:[0-9a-f]{64}", i) for i in images)


def test_heartbeat_file_is_json(tmp_path: Path) -> None:
    write_heartbeat(tmp_path, connected=True, latency=None)
    assert json.loads((tmp_path / "heartbeat.json").read_text())["connected"] is True
