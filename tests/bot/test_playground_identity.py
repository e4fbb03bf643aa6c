"""The playground opens the channel and user a link names: `/?channel=war-room&user=bob`
(issue #32). The choice is made by `static/identity.js`, run here under Node (no browser
needed); the browser test of the page (`test_playground_browser.py`) opens such a link too."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.playground.server import create_app
from bot.table import TableService

IDENTITY = Path(__file__).parents[2] / "bot" / "playground" / "static" / "identity.js"

RUN = """
const { initialIdentity } = require(process.argv[1]);
const cases = JSON.parse(process.argv[2]);
const out = cases.map(([search, stored]) =>
  initialIdentity(search, (key) => stored[key] || null, "player-123"));
console.log(JSON.stringify(out));
"""


def identities(cases: list[tuple[str, dict[str, str]]]) -> list[dict[str, str]]:
    node = shutil.which("node")
    if node is None:
        pytest.skip("Node is not installed")
    done = subprocess.run(
        [node, "-e", RUN, str(IDENTITY), json.dumps(cases)],
        capture_output=True,
        text=True,
        check=True,
        timeout=30,
    )
    found: list[dict[str, str]] = json.loads(done.stdout)
    return found


def test_a_link_names_the_channel_and_the_user() -> None:
    stored = {"sortie.user": "ann", "sortie.channel": "ops"}
    found = identities(
        [
            ("?channel=war-room&user=bob", stored),
            ("?channel=%23war-room", stored),
            ("?user=bob", {}),
            ("", stored),
            ("", {}),
            ("?channel=no%20spaces&user=" + "x" * 33, stored),
        ]
    )
    assert found == [
        {"user": "bob", "channel": "war-room"},
        {"user": "ann", "channel": "war-room"},  # a leading '#' is how channels are written
        {"user": "bob", "channel": "general"},
        {"user": "ann", "channel": "ops"},  # no link: what this browser used last
        {"user": "player-123", "channel": "general"},
        {"user": "ann", "channel": "ops"},  # not valid names: ignored
    ]


async def test_the_page_loads_the_identity_script_first(table: TableService) -> None:
    async with TestClient(TestServer(create_app(table))) as client:
        page = await (await client.get("/", params={"channel": "war-room", "user": "bob"})).text()
        assert page.index("/static/identity.js") < page.index("/static/app.js")
        script: Any = await client.get("/static/identity.js")
        assert script.status == 200
        assert "initialIdentity" in await script.text()
