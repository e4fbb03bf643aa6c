"""Reactions without a stall (issue #32 item 7), through the playground API.

A human Xeno seat in Forlorn op-01: a Marine phase of six actions, with the Xeno player asked
(in private) after every Marine action and passing each time, makes at most one public post
(the Marine's turn post, edited in place) and pings nobody; her standing rules are set in
private and never appear in the channel.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.clock import ManualClock
from bot.playground.server import create_app
from bot.replies import Reply
from bot.scheduler import Scheduler
from bot.storage.db import Database
from bot.table import Caller, TableService
from engine.core.game import Action
from engine.registry import get_game

CHANNEL = "ops"
GAME = get_game("forlorn-hope")
PLAYERS = {"marines": "ann", "xeno": "bob"}


@pytest.fixture
async def api(tmp_path: Path) -> AsyncIterator[tuple[TestClient[Any, Any], TableService]]:
    db = Database(f"sqlite+aiosqlite:///{tmp_path / 'xeno.db'}")
    await db.init()
    service = TableService(db, new_seed=lambda: 20261205, limits=None)
    async with TestClient(TestServer(create_app(service))) as client:
        yield client, service
    await db.close()


class Channel:
    """A channel (or a player's direct messages) as its members see it: new bot posts,
    their pings, and every text."""

    def __init__(self, client: TestClient[Any, Any], name: str = CHANNEL) -> None:
        self.client = client
        self.name = name
        self.after = 0
        self.known: set[int] = set()
        self.texts: list[str] = []

    async def seen(self) -> tuple[int, int]:
        """New public posts and pings since the last call (edits are not posts)."""
        posts = pings = 0
        more = True
        while more:
            response = await self.client.get(
                f"/api/channels/{self.name}/messages", params={"after": self.after}
            )
            page = await response.json()
            self.after, more = page["last"], page["more"]
            for message in page["messages"]:
                self.texts.append(json.dumps(message))
                if message["author"] != "Sortie" or message["id"] in self.known:
                    continue
                self.known.add(message["id"])
                posts += 1
                pings += len(message["mentions"])
        return posts, pings


async def say(client: TestClient[Any, Any], user: str, text: str) -> dict[str, Any]:
    response = await client.post(
        "/api/command", json={"channel": CHANNEL, "user": user, "text": text}
    )
    body: dict[str, Any] = await response.json()
    assert response.status == 200 and body["ok"], (text, body)
    return body


async def state_now(service: TableService) -> Any:
    campaign = await service.repo.latest_in_channel(CHANNEL)
    assert campaign is not None
    return GAME.load(json.loads(campaign.state_json or "{}"))


async def to_the_marine_phase(client: TestClient[Any, Any], service: TableService) -> None:
    """Create, join, begin, and play the set-up (keep, defaults, end the set-up)."""
    await say(client, "ann", "/campaign create game:forlorn-hope scenario:op-01 xeno:human")
    for role, user in PLAYERS.items():
        await say(client, user, f"/campaign join role:{role}")
    await say(client, "ann", "/campaign begin")
    for _ in range(60):
        state = await state_now(service)
        prompt = GAME.waiting_on(state)
        if state.phase == "marine" and prompt.seats == ["marines"]:
            return
        seat = prompt.seats[0]
        legal = GAME.legal_actions(state, seat)
        action = prompt.default or next(
            (a for a in legal if a.verb == "end-turn" and not a.args), legal[0]
        )
        await say(client, PLAYERS[seat], action.command())
    raise AssertionError("the set-up did not end")


def marine_action(state: Any) -> Action:
    """A Marine action that opens a window under every rule: an attack, else a move."""
    legal = [a for a in GAME.legal_actions(state, "marines") if a.verb in ("attack", "move")]
    return next((a for a in legal if a.verb == "attack"), legal[0])


async def six_marine_actions(
    client: TestClient[Any, Any], service: TableService, channel: Channel
) -> tuple[int, int, int]:
    """Six Marine actions, each window passed by the Xeno player; (posts, pings, windows)."""
    await channel.seen()  # forget the set-up
    windows = 0
    for _ in range(6):
        state = await state_now(service)
        await say(client, "ann", marine_action(state).command())
        prompt = GAME.waiting_on(await state_now(service))
        if prompt.seats == ["xeno"]:
            windows += 1
            panel = await say(client, "bob", "/hand")  # her private panel answers it
            assert any("Pass" in json.dumps(r) for r in panel["replies"]), panel
            await say(client, "bob", "/choose option:pass")
    posts, pings = await channel.seen()
    return posts, pings, windows


@pytest.mark.slow
async def test_six_marine_actions_with_private_windows_make_one_post_and_no_ping(
    api: tuple[TestClient[Any, Any], TableService],
) -> None:
    client, service = api
    await to_the_marine_phase(client, service)
    channel = Channel(client)
    await channel.seen()
    # She asks to be asked after every Marine action, in private: nothing public comes of it.
    for kind in ("move", "other"):
        await say(client, "bob", f"/orders order:react-ask target:{kind}")
    assert (await channel.seen()) == (0, 0)
    letters = Channel(client, "dm-bob")  # her direct messages
    await letters.seen()
    posts, pings, windows = await six_marine_actions(client, service, channel)
    print(f"\nsix Marine actions: {windows} windows asked, {posts} public posts, {pings} pings")
    assert windows == 6
    assert posts <= 1 and pings == 0
    # Nothing pings her, so each window is told to her alone, once: what she may react to
    # (the question's public text) and where to answer; nothing of her hand.
    told, _ = await letters.seen()
    assert told == windows, letters.texts
    secret = GAME.view(await state_now(service), "xeno").private
    cards = [line.split(" - ", 1)[0] for line in secret if " - " in line]  # her hand's names
    assert cards
    for letter in letters.texts:
        assert "the Xeno player may react" in letter and "under the turn post" in letter
        assert not any(card in letter for card in cards), letter
    assert not any("Answer with" in text for text in channel.texts)


@pytest.mark.slow
async def test_standing_rules_never_reach_the_channel(
    api: tuple[TestClient[Any, Any], TableService],
) -> None:
    client, service = api
    await to_the_marine_phase(client, service)
    channel = Channel(client)
    state = await state_now(service)
    rules = [a for a in GAME.legal_actions(state, "xeno") if a.verb == "orders"]
    assert rules
    for rule in rules:  # every rule she may set, in words, through her private panel
        body = await say(client, "bob", rule.command())
        assert all(r.get("ephemeral") for r in body["replies"]), body
    await six_marine_actions(client, service, channel)
    public = "\n".join(channel.texts)
    secret = GAME.view(await state_now(service), "xeno").private
    assert any(line.startswith("Standing reactions") for line in secret)
    for words in ("Standing reactions", "at once after", "ask me", "react-"):
        assert words not in public, words
    for rule in rules:
        assert rule.label not in public and rule.label.split(": ", 1)[1] not in public


class Outbox:
    """The scheduler's posts, kept for checking."""

    def __init__(self) -> None:
        self.posts: list[Reply] = []

    async def post(self, channel_id: str, reply: Reply) -> None:
        self.posts.append(reply)

    async def dm(self, user_id: str, reply: Reply) -> bool:
        self.posts.append(reply)
        return True


@pytest.mark.slow
async def test_a_private_window_closing_edits_the_turn_post_and_pings_nobody(
    tmp_path: Path,
) -> None:
    """Unanswered, the window passes when it closes: the Marine's turn post is edited in
    place (the same post key), with nobody pinged, and the Marines go on."""
    db = Database(f"sqlite+aiosqlite:///{tmp_path / 'window.db'}")
    await db.init()
    clock = ManualClock()
    service = TableService(db, new_seed=lambda: 20261205, clock=clock, limits=None)

    async def table_say(user: str, text: str) -> list[Reply]:
        replies = await service.handle(Caller(f"id-{user}", user, CHANNEL, "guild"), text)
        assert not any(r.error for r in replies), (text, [r.content for r in replies])
        return replies

    await table_say("ann", "/campaign create game:forlorn-hope scenario:op-01 xeno:human")
    for role, user in PLAYERS.items():
        await table_say(user, f"/campaign join role:{role}")
    await table_say("ann", "/campaign settings window_minutes:5 nudge_hours:0")
    await table_say("ann", "/campaign begin")
    for _ in range(60):
        state = await state_now(service)
        prompt = GAME.waiting_on(state)
        if state.phase == "marine" and prompt.seats == ["marines"]:
            break
        seat = prompt.seats[0]
        legal = GAME.legal_actions(state, seat)
        action = prompt.default or next(
            (a for a in legal if a.verb == "end-turn" and not a.args), legal[0]
        )
        await table_say(PLAYERS[seat], action.command())
    for kind in ("move", "other"):
        await table_say("bob", f"/orders order:react-ask target:{kind}")
    asked = await table_say("ann", marine_action(await state_now(service)).command())
    turn_post = next(r.post_key for r in asked if r.post_key)
    assert not any(r.mentions for r in asked)
    assert GAME.waiting_on(await state_now(service)).private
    outbox = Outbox()
    clock.advance(timedelta(minutes=6))
    assert await Scheduler(service, outbox, clock).scan() >= 1
    shown = [r for r in outbox.posts if r.post_key]
    assert shown and all(r.post_key == turn_post and not r.mentions for r in outbox.posts)
    assert "No answer" not in "\n".join(r.content for r in outbox.posts)
    assert GAME.waiting_on(await state_now(service)).seats == ["marines"]
    again = await table_say("ann", marine_action(await state_now(service)).command())
    assert [r.post_key for r in again if r.post_key] == [turn_post]
    await db.close()


async def test_her_standing_reactions_are_offered_in_a_private_menu_in_words(
    tmp_path: Path,
) -> None:
    """From her private panel (`/hand`), one button opens her reaction rules as a private
    select: each entry names the rule and the card in words, with a glossary description;
    engine keys stay in the commands the entries carry."""
    db = Database(f"sqlite+aiosqlite:///{tmp_path / 'menu.db'}")
    await db.init()
    service = TableService(db, new_seed=lambda: 20261205, limits=None)

    async def table_say(user: str, text: str) -> list[Reply]:
        replies = await service.handle(Caller(f"id-{user}", user, CHANNEL, "guild"), text)
        assert not any(r.error for r in replies), (text, [r.content for r in replies])
        return replies

    await table_say("ann", "/campaign create game:forlorn-hope scenario:op-01 xeno:human")
    for role, user in PLAYERS.items():
        await table_say(user, f"/campaign join role:{role}")
    await table_say("ann", "/campaign begin")
    panel = await table_say("bob", "/hand")  # the mulligan: her hand and her rules so far
    assert all(r.ephemeral for r in panel)
    assert "Standing reactions: you are asked in private after" in panel[-1].content
    opener = [b for b in panel[-1].buttons if b.label.startswith("Standing orders")]
    assert len(opener) == 1
    menu = await table_say("bob", opener[0].command)
    assert all(r.ephemeral for r in menu)
    entries = [e for r in menu for m in r.menus for e in m.entries]
    assert entries and all(e.command.startswith("/orders order:react-") for e in entries)
    for entry in entries:
        assert "react-" not in entry.label and "react-" not in entry.description
        assert entry.label.startswith("Reactions: ") and entry.description
    assert not [b for b in (await table_say("ann", "/hand"))[-1].buttons if "Standing" in b.label]
    await db.close()
