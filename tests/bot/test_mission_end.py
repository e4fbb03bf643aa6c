"""A mission's end in every game, through the playground's API: a post of its own with the
banner's word, the summary card and one ping for every seated player; between the missions of
a campaign it comes before the next briefing and carries the campaign card."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer
from offered import NoPictures

from bot.clock import ManualClock
from bot.playground.server import create_app
from bot.replies import Attachment
from bot.storage.db import Database
from bot.table import TableService
from engine.core.game import advisor_of
from engine.core.view import View
from engine.registry import get_game

CHANNEL = "ends"
MAX_STEPS = 3000


class SummaryPictures(NoPictures):
    """No pixels, but the summary card is told apart (and its View kept) to be checked."""

    def __init__(self) -> None:
        self.cards: list[View] = []

    async def summary(self, view: View) -> Attachment:
        self.cards.append(view)
        return Attachment("summary.png", b"", "Mission summary")


@pytest.fixture
async def api(
    tmp_path: Path,
) -> AsyncIterator[tuple[TestClient[Any, Any], TableService, SummaryPictures]]:
    db = Database(f"sqlite+aiosqlite:///{tmp_path / 'ends.db'}")
    await db.init()
    pictures = SummaryPictures()
    service = TableService(db, new_seed=lambda: 20261205, limits=None, pictures=pictures)
    async with TestClient(TestServer(create_app(service))) as client:
        yield client, service, pictures
    await db.close()


async def send(client: TestClient[Any, Any], user: str, text: str) -> dict[str, Any]:
    response = await client.post(
        "/api/command", json={"channel": CHANNEL, "user": user, "text": text}
    )
    assert response.status == 200, await response.text()
    body: dict[str, Any] = await response.json()
    assert body["ok"], (text, body)
    return body


async def feed(client: TestClient[Any, Any]) -> list[dict[str, Any]]:
    messages: list[dict[str, Any]] = []
    after, more = 0, True
    while more:
        response = await client.get(f"/api/channels/{CHANNEL}/messages", params={"after": after})
        page = await response.json()
        messages += page["messages"]
        after, more = page["last"], page["more"]
    return messages


async def play_until(
    client: TestClient[Any, Any],
    service: TableService,
    game_key: str,
    scenario: str,
    players: dict[str, str],
    options: str = "",
    first_mission_only: bool = False,
) -> None:
    """The advisor's choices, typed by the seat's player, until the mission (or a campaign's
    first mission) is over."""
    await send(client, "p0", f"/campaign create game:{game_key} scenario:{scenario} {options}")
    for role, user in players.items():
        await send(client, user, f"/campaign join role:{role}")
    await send(client, "p0", "/campaign begin")
    game = get_game(game_key)
    advisor = advisor_of(game)
    assert advisor is not None
    for _ in range(MAX_STEPS):
        campaign = await service.repo.latest_in_channel(CHANNEL)
        assert campaign is not None and campaign.state_json
        state = game.load(json.loads(campaign.state_json))
        prompt = game.waiting_on(state)
        if prompt.finished:
            return
        if first_mission_only and state.campaign.results:
            return
        seat = prompt.seats[0]
        action = advisor.advise(state, seat, game.legal_actions(state, seat))
        assert action is not None
        await send(client, players[seat], action.command())
    raise AssertionError(f"{scenario} did not end in {MAX_STEPS} steps")


@pytest.mark.parametrize(
    ("game_key", "scenario", "players", "options"),
    [
        ("forlorn-hope", "op-01", {"marines": "p0", "xeno": "p1"}, "xeno:human"),
        ("galaxy-defenders", "m1", {"marine": "p0", "sniper": "p1"}, ""),
        ("galaxy-defenders", "os1", {"marine": "p0", "sniper": "p1"}, ""),
        ("reichbusters", "radio-silence", {"sarge": "p0", "hans": "p1"}, ""),
    ],
)
async def test_a_mission_ends_in_a_post_that_pings_everyone(
    api: tuple[TestClient[Any, Any], TableService, SummaryPictures],
    game_key: str,
    scenario: str,
    players: dict[str, str],
    options: str,
) -> None:
    client, service, pictures = api
    await play_until(client, service, game_key, scenario, players, options)
    messages = await feed(client)
    ends = [m for m in messages if m["content"].startswith("🏁")]
    assert len(ends) == 1, [m["content"] for m in messages[-4:]]
    end = ends[0]
    assert messages.index(end) == len(messages) - 1  # after the step that ended it
    campaign = await service.repo.latest_in_channel(CHANNEL)
    assert campaign is not None and campaign.outcome
    assert f"Mission over: {campaign.outcome}." in end["content"]
    assert any(w in end["content"] for w in ("VICTORY", "DEFEAT", "PARTIAL", "MISSION OVER"))
    users = sorted({f"pg:{u}" for u in players.values()})
    assert sorted(end["mentions"]) == users  # every seat's player, once
    assert all(end["content"].count(f"<@{u}>") == 1 for u in users), end["content"]
    assert end["image_alts"] == ["Mission summary"]  # the summary card, alone
    assert pictures.cards and pictures.cards[-1].finished
    # the step before it no longer repeats the verdict
    assert "Mission over" not in messages[-2]["content"]


async def test_a_campaign_mission_ends_before_the_next_briefing(
    api: tuple[TestClient[Any, Any], TableService, SummaryPictures],
) -> None:
    client, service, pictures = api
    players = {"marine": "p0", "sniper": "p1"}
    await play_until(
        client, service, "galaxy-defenders", "campaign", players, first_mission_only=True
    )
    messages = await feed(client)
    texts = [m["content"] for m in messages]
    ends = [i for i, t in enumerate(texts) if t.startswith("🏁")]
    briefings = [i for i, t in enumerate(texts) if "**Briefing" in t]
    assert len(ends) == 1 and len(briefings) == 2, texts[-5:]
    end = messages[ends[0]]
    assert briefings[0] < ends[0] < briefings[1]  # the end comes before the next briefing
    card = end["content"]
    assert "**Campaign card**" in card
    assert "Results so far: Crash Site:" in card
    assert "Carries over:" in card and "carries over: rank" in card
    assert "Next: Mission 2 of 6" in card
    assert sorted(end["mentions"]) == ["pg:p0", "pg:p1"]
    assert end["image_alts"] == ["Mission summary"]  # the summary card, alone
    summary = pictures.cards[-1]
    assert summary.finished and summary.summary is not None
    assert summary.summary.rounds and summary.summary.kills is not None
    # after the briefing, the new mission's post pings nobody again
    after = messages[briefings[1] :]
    assert all(not m["mentions"] for m in after), [m["mentions"] for m in after]
    # and nothing of the ended mission comes after it but the edit that takes an older post's
    # buttons away (marked edited, its place in the channel kept; the page replaces it there)
    briefing_id = messages[briefings[1]]["id"]
    older = [m for m in after if m["id"] < briefing_id]
    assert all(m["edited"] and not m["buttons"] and not m["menus"] for m in older), older


async def test_the_mission_end_names_everyone_but_wakes_nobody_in_quiet_hours(
    tmp_path: Path,
) -> None:
    """The nudge scheduler's quiet hours hold for the end's ping too: a player inside them is
    named in the post (they read it when they look) but not pinged."""
    db = Database(f"sqlite+aiosqlite:///{tmp_path / 'quiet.db'}")
    await db.init()
    clock = ManualClock(datetime(2026, 1, 5, 12, 0, tzinfo=UTC))  # noon, UTC
    service = TableService(
        db, new_seed=lambda: 20261205, limits=None, pictures=SummaryPictures(), clock=clock
    )
    try:
        async with TestClient(TestServer(create_app(service))) as client:
            await send(client, "p1", "/prefs timezone:UTC quiet:10-14")  # asleep at noon
            players = {"marine": "p0", "sniper": "p1"}
            await play_until(client, service, "galaxy-defenders", "m1", players)
            messages = await feed(client)
    finally:
        await db.close()
    end = next(m for m in messages if m["content"].startswith("🏁"))
    assert "<@pg:p0>" in end["content"] and "<@pg:p1>" in end["content"]  # both named
    assert end["mentions"] == ["pg:p0"]  # only the player awake is pinged
