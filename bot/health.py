"""`python -m bot health`: is this process fit to serve? (The compose healthcheck.)

Healthy means the database answers, and the shell is up: with a Discord token, the running
bot has written a fresh heartbeat saying its gateway is connected (it rewrites it every
`HEARTBEAT_EVERY` seconds, see `bot.discord.client`); without one, the playground answers
`/healthz`. Each check prints one line; the exit code is 0 only when all pass.
"""

from __future__ import annotations

import asyncio
import json
import os
import time
from pathlib import Path

import aiohttp
from sqlalchemy import text

from bot.config import LOOPBACK_HOSTS, Settings
from bot.storage.db import Database

HEARTBEAT_EVERY = 15.0  # seconds between the running bot's heartbeats
STALE_AFTER = 90.0  # a heartbeat older than this: the process is stuck or gone
TIMEOUT = 5.0
HEARTBEAT_FILE = "heartbeat.json"


def write_heartbeat(state_dir: Path, connected: bool, latency: float | None) -> None:
    """Atomically record the gateway's state for `python -m bot health`."""
    state_dir.mkdir(parents=True, exist_ok=True)
    scratch = state_dir / f".{HEARTBEAT_FILE}.{os.getpid()}"
    payload = {"at": time.time(), "connected": connected, "latency": latency}
    scratch.write_text(json.dumps(payload), encoding="utf-8")
    scratch.replace(state_dir / HEARTBEAT_FILE)


def gateway_state(state_dir: Path, now: float | None = None) -> tuple[bool, str]:
    path = state_dir / HEARTBEAT_FILE
    try:
        beat = json.loads(path.read_text(encoding="utf-8"))
        age = (now if now is not None else time.time()) - float(beat["at"])
        connected = bool(beat["connected"])
    except (OSError, ValueError, KeyError, TypeError):
        return False, f"gateway: no heartbeat in {path} (is the bot running?)"
    if age > STALE_AFTER:
        return False, f"gateway: last heartbeat {age:.0f} s ago (stuck or stopped)"
    if not connected:
        return False, f"gateway: not connected (heartbeat {age:.0f} s ago)"
    return True, f"gateway: connected (heartbeat {age:.0f} s ago)"


async def database_state(db: Database) -> tuple[bool, str]:
    try:
        async with asyncio.timeout(TIMEOUT), db.engine.connect() as conn:
            await conn.execute(text("SELECT 1"))
    except Exception as error:  # any failure to answer is the finding, reported in a line
        return False, f"database: unreachable ({type(error).__name__}: {error})"[:300]
    return True, "database: reachable"


async def playground_state(host: str, port: int) -> tuple[bool, str]:
    target = "127.0.0.1" if host in ("0.0.0.0", "::", "") or host in LOOPBACK_HOSTS else host
    url = f"http://{target}:{port}/healthz"
    try:
        timeout = aiohttp.ClientTimeout(total=TIMEOUT)
        async with aiohttp.ClientSession(timeout=timeout) as session, session.get(url) as got:
            if got.status == 200:
                return True, f"playground: serving at {url}"
            return False, f"playground: {url} answered {got.status}"
    except (aiohttp.ClientError, TimeoutError) as error:
        return False, f"playground: {url} unreachable ({type(error).__name__})"


async def check(settings: Settings, state_dir: Path = Path("data")) -> tuple[bool, list[str]]:
    """Every check's verdict and line."""
    db = Database(settings.database_url_with_password())
    try:
        results = [await database_state(db)]
    finally:
        await db.close()
    if settings.discord_token is not None:
        results.append(gateway_state(state_dir))
    else:
        results.append(await playground_state(settings.playground_host, settings.playground_port))
    return all(ok for ok, _ in results), [line for _, line in results]
