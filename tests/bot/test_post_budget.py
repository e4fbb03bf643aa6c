"""The post budget, measured through the playground API: one full round of each game with
three seats stays within one public post per player turn plus one per automatic phase, looks
post nothing public, and nobody is pinged twice in a step (see `round_budget`)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer
from round_budget import ROUNDS, Round, Seen, check_budget, play_round

from bot.playground.server import create_app
from bot.storage.db import Database
from bot.storage.models import Campaign
from bot.table import TableService

CHANNEL = "ops"


@pytest.fixture
async def api(tmp_path: Path) -> AsyncIterator[tuple[TestClient[Any, Any], TableService]]:
    db = Database(f"sqlite+aiosqlite:///{tmp_path / 'budget.db'}")
    await db.init()
    service = TableService(db, new_seed=lambda: 20261201, limits=None)
    async with TestClient(TestServer(create_app(service))) as client:
        yield client, service
    await db.close()


class Feed:
    """The channel as a spectator polls it: new messages, and edits of ones already seen."""

    def __init__(self, client: TestClient[Any, Any]) -> None:
        self.client = client
        self.after = 0
        self.known: set[int] = set()

    async def watch(self) -> Seen:
        seen = Seen()
        more = True
        while more:
            response = await self.client.get(
                f"/api/channels/{CHANNEL}/messages", params={"after": self.after}
            )
            page = await response.json()
            self.after, more = page["last"], page["more"]
            for message in page["messages"]:
                if message["author"] != "Sortie":
                    continue
                if message["id"] in self.known:
                    seen.edits += 1
                    seen.images += len(message["images"])
                    seen.edit_pings += len(message["mentions"])
                    continue
                self.known.add(message["id"])
                seen.posts += 1
                seen.images += len(message["images"])
                seen.pings += [m.removeprefix("pg:") for m in message["mentions"]]
        return seen


@pytest.mark.slow
@pytest.mark.parametrize("case", ROUNDS, ids=[case[0] for case in ROUNDS])
async def test_a_round_stays_within_the_post_budget(
    api: tuple[TestClient[Any, Any], TableService], case: Round
) -> None:
    client, service = api
    game_key, scenario, roles, options = case
    players = {role: f"p{i}" for i, role in enumerate(roles)}

    async def send(user: str, text: str) -> None:
        response = await client.post(
            "/api/command", json={"channel": CHANNEL, "user": user, "text": text}
        )
        body = await response.json()
        assert response.status == 200 and body["ok"], (text, body)

    async def latest() -> Campaign:
        campaign = await service.repo.latest_in_channel(CHANNEL)
        assert campaign is not None
        return campaign

    extra = " ".join(f"{k}:{v}" for k, v in options.items())
    await send("p0", f"/campaign create game:{game_key} scenario:{scenario} {extra}".strip())
    for role, user in players.items():
        await send(user, f"/campaign join role:{role}")
    await send("p0", "/campaign begin")
    tally = await play_round(game_key, roles, players, send, latest, Feed(client).watch)
    print("\nplayground", tally.line())
    check_budget(tally)
