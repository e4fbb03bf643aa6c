"""A client that goes away mid-request is one INFO line, not an ERROR with a traceback
(issue #33, item 7): 200 half-open connections used to leave 200 tracebacks."""

from __future__ import annotations

import asyncio
import logging

import discord
import pytest
from aiohttp import web
from aiohttp.test_utils import unused_port

from bot.discord.adapter import failure_text
from bot.playground.server import create_app
from bot.table import TableService

HALF_OPEN = 20


async def half_open(port: int) -> None:
    """Headers promising 100 bytes, 6 of them, then the connection closes."""
    _, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(
        b"POST /api/command HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b'Content-Length: 100\r\n\r\n{"chan'
    )
    await writer.drain()
    await asyncio.sleep(0.05)
    writer.close()


async def test_a_disconnect_is_one_info_line(
    table: TableService, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    runner = web.AppRunner(create_app(table))
    await runner.setup()
    port = unused_port()
    try:
        await web.TCPSite(runner, "127.0.0.1", port).start()
        await asyncio.gather(*(half_open(port) for _ in range(HALF_OPEN)))
        await asyncio.sleep(0.5)
    finally:
        await runner.cleanup()
    went = [r for r in caplog.records if "client disconnected" in r.getMessage()]
    assert len(went) == HALF_OPEN
    assert all(r.levelno == logging.INFO and r.exc_info is None for r in went)
    loud = [r for r in caplog.records if r.levelno >= logging.WARNING or r.exc_info]
    assert loud == []


class _Response:
    """Enough of an aiohttp response for discord.HTTPException."""

    def __init__(self, status: int) -> None:
        self.status = status
        self.reason = "test"


def test_discord_and_network_faults_are_one_warning(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    for error in (
        discord.DiscordServerError(_Response(502), "bad gateway"),
        TimeoutError(),
        ConnectionResetError("gone"),
    ):
        failure_text(error)
    failure_text(KeyError("ours"))
    assert [(r.levelno, bool(r.exc_info)) for r in caplog.records] == [
        (logging.WARNING, False),
        (logging.WARNING, False),
        (logging.WARNING, False),
        (logging.ERROR, True),
    ]
