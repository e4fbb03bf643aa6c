"""The Galaxy Alpha Agent is chosen by the players (issue #32, item 6), through the playground
API: any player proposes an agent, the others agree; the answers edit one post in place and
ping nobody; when the answer window closes without agreement the class ranking decides."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer
from offered import NoPictures

from bot.playground.server import create_app
from bot.storage.db import Database
from bot.table import TableService
from engine.core.game import advisor_of
from engine.registry import get_game

CHANNEL = "vote"
PLAYERS = {"marine": "p0", "biotech": "p1", "sniper": "p2"}
GAME = get_game("galaxy-defenders")


@pytest.fixture
async def api(tmp_path: Path) -> AsyncIterator[tuple[TestClient[Any, Any], TableService]]:
    db = Database(f"sqlite+aiosqlite:///{tmp_path / 'vote.db'}")
    await db.init()
    service = TableService(db, new_seed=lambda: 20261205, limits=None, pictures=NoPictures())
    async with TestClient(TestServer(create_app(service))) as client:
        yield client, service
    await db.close()


class Table:
    def __init__(self, client: TestClient[Any, Any], service: TableService) -> None:
        self.client, self.service = client, service

    async def send(self, user: str, text: str) -> list[dict[str, Any]]:
        response = await self.client.post(
            "/api/command", json={"channel": CHANNEL, "user": user, "text": text}
        )
        body = await response.json()
        assert body["ok"], (text, body)
        replies: list[dict[str, Any]] = body["replies"]
        return replies

    async def state(self) -> Any:
        campaign = await self.service.repo.latest_in_channel(CHANNEL)
        assert campaign is not None and campaign.state_json
        return GAME.load(json.loads(campaign.state_json))

    async def feed(self, after: int = 0) -> list[dict[str, Any]]:
        page = await (
            await self.client.get(f"/api/channels/{CHANNEL}/messages?after={after}")
        ).json()
        messages: list[dict[str, Any]] = page["messages"]
        return messages

    async def to_the_vote(self) -> Any:
        """Play with the advisor until the first Alpha Agent vote of round 2."""
        await self.send("p0", "/campaign create game:galaxy-defenders scenario:m1")
        for role, user in PLAYERS.items():
            await self.send(user, f"/campaign join role:{role}")
        await self.send("p0", "/campaign settings window_minutes:60")
        await self.send("p0", "/campaign begin")
        advisor = advisor_of(GAME)
        assert advisor is not None
        seen_turn = False
        for _ in range(400):
            state = await self.state()
            prompt = GAME.waiting_on(state)
            seen_turn = seen_turn or prompt.kind == "turn"
            if prompt.kind == "vote" and seen_turn:
                return state
            assert not prompt.finished
            seat = prompt.seats[0]
            action = advisor.advise(state, seat, GAME.legal_actions(state, seat))
            assert action is not None
            await self.send(PLAYERS[seat], action.command())
        raise AssertionError("no Alpha Agent vote reached")


async def test_any_player_proposes_the_others_agree_in_one_edited_post(
    api: tuple[TestClient[Any, Any], TableService],
) -> None:
    table = Table(*api)
    state = await table.to_the_vote()
    opened = await table.feed()
    post = [m for m in opened if m["buttons"]][-1]
    # the question's answers once each, for every player it waits on, in words
    labels = [b["label"] for b in post["buttons"]]
    commands = [b["command"] for b in post["buttons"]]
    assert len(commands) == len(set(commands))
    assert labels[0].startswith("Propose Chromium (Marine) · "), labels
    assert "/choose" not in post["content"] and "option:" not in post["content"]
    assert "choose this round's Alpha Agent" in post["content"]
    last = max(m["id"] for m in opened)

    proposed = await table.send("p2", "/choose option:biotech")  # Iridium proposes Thorium
    shown = [r for r in proposed if not r["ephemeral"]]
    assert len(shown) == 1 and shown[0]["mentions"] == [], shown
    assert "Iridium (Sniper) proposes Thorium (Biotech) as Alpha Agent." in shown[0]["content"]
    assert "Thorium (Biotech) is proposed (agreed: Iridium (Sniper))" in shown[0]["content"]
    agree = [b for b in shown[0]["buttons"] if b["command"] == "/choose option:biotech"]
    assert agree and agree[0]["label"].startswith("Agree: Thorium (Biotech) leads · "), agree
    vote_post = [m for m in await table.feed(last) if m["content"] == shown[0]["content"]]
    assert len(vote_post) == 1

    agreed = await table.send("p0", "/choose option:biotech")
    edit = [r for r in agreed if not r["ephemeral"]]
    assert (
        len(edit) == 1 and edit[0]["mentions"] == [] and edit[0]["post_key"] == shown[0]["post_key"]
    )
    assert "Chromium (Marine) agrees" in edit[0]["content"]
    after = [m for m in await table.feed(last) if m["id"] > last]  # new posts, not edits
    assert len({m["id"] for m in after}) == 1, [m["content"][:50] for m in after]  # one post
    assert any(m.get("edited") for m in after), after
    assert (await table.state()).pending.data["agreed"] == ["sniper", "marine"]

    await table.send("p1", "/choose option:biotech")  # the last agreement makes the choice
    state = await table.state()
    assert (state.alpha == "biotech" and state.pending is None) or state.pending.kind != "alpha"


async def test_no_agreement_in_the_answer_window_falls_back_to_the_ranking(
    api: tuple[TestClient[Any, Any], TableService],
) -> None:
    table = Table(*api)
    await table.to_the_vote()
    await table.send("p1", "/choose option:sniper")  # Thorium proposes Iridium; no one agrees
    campaign = await table.service.repo.latest_in_channel(CHANNEL)
    assert campaign is not None and campaign.id is not None
    replies = await table.service.pacing.close_window(campaign.id)
    state = await table.state()
    assert state.alpha == "marine"  # the ranking: Marine first
    assert replies  # the step is posted
    log = await table.send("p2", "/log")
    assert "by the class ranking, Chromium (Marine) is the Alpha Agent" in log[-1]["content"]
