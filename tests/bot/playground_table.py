"""A playground channel under test, spoken to through its HTTP API as the page would: the one
whole-mission driver the bot's tests share (open a campaign, read the table's state and the
feed, play until the mission or a condition ends it) with a chooser of `choosers`."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from aiohttp.test_utils import TestClient, TestServer
from choosers import Chooser

from bot.playground.server import create_app
from bot.storage.db import Database
from bot.storage.models import Campaign
from bot.table import TableService
from engine.core.game import Game


class Playground:
    """One channel of the playground: commands typed by named users, the table read back."""

    def __init__(self, client: TestClient[Any, Any], service: TableService, channel: str) -> None:
        self.client, self.service, self.channel = client, service, channel

    async def send(self, user: str, text: str, *, ok: bool = True) -> dict[str, Any]:
        """`text` typed by `user`; the API's answer (asserted accepted unless `ok=False`)."""
        body = {"channel": self.channel, "user": user, "text": text}
        response = await self.client.post("/api/command", json=body)
        assert response.status == 200, await response.text()
        answer: dict[str, Any] = await response.json()
        assert answer["ok"] or not ok, (text, answer)
        return answer

    async def replies(self, user: str, text: str) -> list[dict[str, Any]]:
        """The replies to an accepted command."""
        replies: list[dict[str, Any]] = (await self.send(user, text))["replies"]
        return replies

    async def say(self, user: str, text: str) -> str:
        """The replies' text to an accepted command."""
        answer = await self.send(user, text)
        return "\n".join(r["content"] for r in answer["replies"])

    async def feed(self, channel: str = "", after: int = 0) -> list[dict[str, Any]]:
        """Every message of the channel (or of another, such as a player's `dm-<user>`) after
        message `after`, page after page (a page says when more follow)."""
        messages: list[dict[str, Any]] = []
        more = True
        while more:
            response = await self.client.get(
                f"/api/channels/{channel or self.channel}/messages", params={"after": after}
            )
            page = await response.json()
            messages += page["messages"]
            after, more = page["last"], page["more"]
        return messages

    async def campaign(self) -> Campaign:
        campaign = await self.service.repo.latest_in_channel(self.channel)
        assert campaign is not None and campaign.state_json
        return campaign

    async def state(self, game: Game[Any]) -> Any:
        return game.load(json.loads((await self.campaign()).state_json or "{}"))

    async def open(
        self, game_key: str, scenario: str, players: Mapping[str, str], options: str = ""
    ) -> dict[str, Any]:
        """Create (by the first player), join every seat, begin; the begin's answer."""
        first = next(iter(players.values()))
        await self.send(first, f"/campaign create game:{game_key} scenario:{scenario} {options}")
        for role, user in players.items():
            await self.send(user, f"/campaign join role:{role}")
        return await self.send(first, "/campaign begin")

    async def play(
        self,
        game: Game[Any],
        players: Mapping[str, str],
        choose: Chooser,
        max_steps: int,
        *,
        until: Callable[[Any], bool] | None = None,
        after: Callable[[dict[str, Any]], Awaitable[None]] | None = None,
        must_end: bool = True,
    ) -> Any:
        """Each awaited seat's choice typed by its player until the mission is over (or `until`
        holds); `after` sees every answer. The last state; after `max_steps` commands, an
        AssertionError (or, with `must_end=False`, the state reached)."""
        for _ in range(max_steps):
            state = await self.state(game)
            prompt = game.waiting_on(state)
            if prompt.finished or (until is not None and until(state)):
                return state
            seat = prompt.seats[0]
            action = choose(state, seat, game.legal_actions(state, seat))
            answer = await self.send(players[seat], action.command())
            if after is not None:
                await after(answer)
        if must_end:
            raise AssertionError(f"{game.key} did not end in {max_steps} steps")
        return await self.state(game)


@asynccontextmanager
async def playground(service: TableService, channel: str = "ops") -> AsyncIterator[Playground]:
    """The playground's server over `service`, one channel of it."""
    async with TestClient(TestServer(create_app(service))) as client:
        yield Playground(client, service, channel)


@asynccontextmanager
async def sqlite_table(path: Path, **service: Any) -> AsyncIterator[TableService]:
    """A table on its own SQLite file (whole missions: the storage suites cover PostgreSQL)."""
    db = Database(f"sqlite+aiosqlite:///{path}")
    await db.init()
    try:
        yield TableService(db, limits=None, **service)
    finally:
        await db.close()
