"""Taps per turn: whole missions played on a phone from the offered controls alone.

A player taps only what the bot shows them: the buttons under the public post ("End turn",
"Pick an action", an answer), then in the private panel the quick actions (one tap each) or
the full picker's select menus (two taps each: open, choose), and its Back / page buttons.
After an action chosen in the panel the player's next panel follows by itself (Discord and the
playground both do it), so it costs no tap while nobody else has acted since; otherwise the
panel is opened again from the post's "Pick an action" (one tap).

The player mostly takes the first quick action (a sensible phone user trusting the ranking),
sometimes another quick action, and now and then walks the full picker to something else, so
the missions are not the advisor's games alone. Whose turn it is is read from the state (the
offered-choice test reads it from the posts); every command sent is one the bot offered.

The figure the issue asks for: the median taps of an ordinary action turn (a seat's run of
actions up to its End turn, with at least one move, attack or Action), per action of it; and
the median taps per complete action. Both at most 3.
"""

from __future__ import annotations

import json
import os
import random
import statistics
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer
from offered import NoPictures

from bot.playground.server import caller_for, create_app
from bot.storage.db import Database
from bot.table import TableService
from engine.registry import get_game
from engine.selfplay import default_seats

CHANNEL = "taps"
MAX_ACTIONS = 2500
MAX_PICKS = 12
ORDINARY = ("move", "attack", "act")
ENOUGH_TURNS = 15  # action turns measured: more missions are played until there are as many
MAX_MISSIONS = 3
# How often the player takes a quick action when the panel offers one (percent); 0 measures the
# full picker alone, as before quick actions (`TAPS_QUICK=0 pytest tests/bot/test_taps.py -s`).
QUICK_SHARE = int(os.environ.get("TAPS_QUICK", "88"))
MISSIONS = [
    pytest.param("galaxy-defenders", "m1", 2, id="galaxy-m1"),
    pytest.param("galaxy-defenders", "os1", 2, id="strikeback-os1"),
    pytest.param("forlorn-hope", "op-01", 1, id="forlorn-op-01"),
    pytest.param("reichbusters", "radio-silence", 2, id="reich-radio-silence"),
]


@dataclass
class Tapped:
    user: str
    verb: str
    taps: int


@dataclass
class Phone:
    client: TestClient[Any, Any]
    rng: random.Random
    quick_share: int
    patience: int = 0  # actions since the last End turn: a random walk ends its turn in time
    done: list[Tapped] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)
    live_panel: dict[str, Any] | None = None  # the panel shown after the last action
    live_for: tuple[str, int] | None = None  # whose it is, at which campaign version

    async def send(self, user: str, text: str) -> list[dict[str, Any]]:
        response = await self.client.post(
            "/api/command", json={"channel": CHANNEL, "user": user, "text": text}
        )
        assert response.status == 200, await response.text()
        body = await response.json()
        if not body["ok"]:
            self.refused.append(
                f"{user} {text}: " + " / ".join(r["content"] for r in body["replies"])
            )
        replies: list[dict[str, Any]] = body["replies"]
        return replies

    async def act(self, user: str, version: int) -> None:
        """One complete action of `user`, counting the taps it took."""
        taps = 0
        panel = self.live_panel if self.live_for == (user, version) else None
        if panel is None:
            taps += 1  # "Pick an action" under the post
            panel = (await self.send(user, "/pick"))[-1]
        for _ in range(MAX_PICKS):
            quick = [b["command"] for b in panel["buttons"] if not b["command"].startswith("/pick")]
            roll = self.rng.randrange(100)
            if quick and roll < self.quick_share * 75 // 88:
                await self.finish(user, quick[0], taps + 1)
                return
            if quick and roll < self.quick_share:
                await self.finish(user, self.rng.choice(quick), taps + 1)
                return
            entries = [e["command"] for m in panel["menus"] for e in m["entries"]]
            paging = [b["command"] for b in panel["buttons"] if b["command"].startswith("/pick")]
            if not entries and not quick:
                return  # nothing for this user now
            if not entries:
                await self.finish(user, self.rng.choice(quick), taps + 1)
                return
            if paging and self.rng.randrange(10) == 0:
                choice, taps = self.rng.choice(paging), taps + 1
            else:
                enders = [c for c in entries if c.startswith(("/end-turn", "/pick kind:end-turn"))]
                if not (enders and self.rng.randrange(100) < min(90, 10 + self.patience * 5)):
                    enders = entries
                choice, taps = self.rng.choice(enders), taps + 2
            if not choice.startswith("/pick"):
                await self.finish(user, choice, taps)
                return
            panel = (await self.send(user, choice))[-1]
        raise AssertionError(f"no complete action in {MAX_PICKS} picker steps")

    async def finish(self, user: str, command: str, taps: int) -> None:
        await self.send(user, command)
        verb = command.removeprefix("/").split(" ", 1)[0]
        self.done.append(Tapped(user, verb, taps))
        self.patience = 0 if verb == "end-turn" else self.patience + 1
        self.live_panel, self.live_for = None, None
        # the next panel follows an action chosen in the panel (no tap)
        self.live_panel = (await self.send(user, "/pick"))[-1]
        self.live_for = (user, -1)  # the version is filled in by the caller

    def turns(self) -> list[float]:
        """Taps per action of each ordinary action turn."""
        ratios: list[float] = []
        run: list[Tapped] = []
        for tapped in self.done:
            if run and run[-1].user != tapped.user:
                run = []
            if run or tapped.verb in ORDINARY:  # a turn starts with its first action
                run.append(tapped)
            if tapped.verb == "end-turn":
                actions = [t for t in run if t.verb in ORDINARY]
                if actions:
                    ratios.append(sum(t.taps for t in run) / len(actions))
                run = []
        return ratios


@pytest.fixture
async def api(tmp_path: Path) -> AsyncIterator[tuple[TestClient[Any, Any], TableService]]:
    db = Database(f"sqlite+aiosqlite:///{tmp_path / 'taps.db'}")
    await db.init()
    seeds = iter(range(41, 10_000))
    service = TableService(db, new_seed=lambda: next(seeds), limits=None, pictures=NoPictures())
    async with TestClient(TestServer(create_app(service))) as client:
        yield client, service
    await db.close()


async def play(
    api: tuple[TestClient[Any, Any], TableService],
    phone: Phone,
    game_key: str,
    scenario: str,
    players: int,
) -> None:
    """One whole mission, its taps added to the phone's."""
    _, service = api
    game = get_game(game_key)
    roles = default_seats(game, scenario, players)
    seats = {role: f"p{i}" for i, role in enumerate(roles)}
    phone.done.append(Tapped("", "mission", 0))  # turns never run across missions
    phone.live_panel, phone.live_for, phone.patience = None, None, 0
    await phone.send("p0", f"/campaign create game:{game_key} scenario:{scenario}")
    for role, user in seats.items():
        await phone.send(user, f"/campaign join role:{role}")
    await phone.send("p0", "/campaign begin")
    assert not phone.refused, phone.refused
    for _ in range(MAX_ACTIONS):
        campaign = await service.repo.latest_in_channel(CHANNEL)
        assert campaign is not None and campaign.state_json
        if campaign.status == "finished":
            break
        state = game.load(json.loads(campaign.state_json))
        prompt = game.waiting_on(state)
        if prompt.finished:
            break
        if phone.live_for is not None and phone.live_for[1] == -1:
            phone.live_for = (phone.live_for[0], campaign.version)
        awaited = [seats[role] for role in prompt.seats]
        last = phone.done[-1].user if phone.done else None
        # a player goes on with their turn while the table waits on them (seats of one side
        # may act in any order: they still play their turns one at a time)
        user = last if last in awaited else phone.rng.choice(awaited)
        await phone.act(user, campaign.version)
        assert not phone.refused, phone.refused
    else:
        raise AssertionError(f"{scenario} did not finish in {MAX_ACTIONS} actions")
    await service.handle(caller_for("p0", CHANNEL), "/campaign end confirm:yes")  # if open


@pytest.mark.slow
@pytest.mark.parametrize(("game_key", "scenario", "players"), MISSIONS)
async def test_a_turn_takes_three_taps(
    api: tuple[TestClient[Any, Any], TableService], game_key: str, scenario: str, players: int
) -> None:
    phone = Phone(api[0], random.Random(5), quick_share=QUICK_SHARE)
    outcomes: list[str | None] = []
    while len(outcomes) < MAX_MISSIONS and len(phone.turns()) < ENOUGH_TURNS:
        await play(api, phone, game_key, scenario, players)
        campaign = await api[1].repo.latest_in_channel(CHANNEL)
        assert campaign is not None
        outcomes.append(campaign.outcome)
    actions = [t for t in phone.done if t.verb != "mission"]
    per_turn = statistics.median(phone.turns())
    per_action = statistics.median(t.taps for t in actions)
    print(
        f"\n{game_key} {scenario} {outcomes}: {len(actions)} actions,"
        f" {len(phone.turns())} action turns, median taps per action of an action turn"
        f" {per_turn:.2f}, per action {per_action}"
    )
    if QUICK_SHARE:
        assert per_turn <= 3, per_turn
        assert per_action <= 3, per_action
