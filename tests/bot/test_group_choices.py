"""Group choices as the rules make them: a long question (a GD-Wings rank-up's tactics and
skills) is one private select with each answer's name and effect, not a wall of public
buttons; a short one (the Alpha Agent vote) keeps its public buttons."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer
from offered import NoPictures

from bot import disclosure
from bot.disclosure import CHOOSE_PANEL, MAX_INLINE_ANSWERS, public_buttons
from bot.playground.server import create_app
from bot.storage.db import Database
from bot.table import TableService
from engine.core.dice import SeededDice, derive_seed
from engine.core.game import advisor_of, scenario_info
from engine.registry import get_game

CHANNEL = "group"
MAX_STEPS = 600


@pytest.fixture
async def api(tmp_path: Path) -> AsyncIterator[tuple[TestClient[Any, Any], TableService]]:
    db = Database(f"sqlite+aiosqlite:///{tmp_path / 'group.db'}")
    await db.init()
    service = TableService(db, new_seed=lambda: 20261205, limits=None, pictures=NoPictures())
    async with TestClient(TestServer(create_app(service))) as client:
        yield client, service
    await db.close()


async def test_a_rank_up_is_one_private_select_with_names_and_effects(
    api: tuple[TestClient[Any, Any], TableService],
) -> None:
    client, service = api

    async def send(user: str, text: str) -> list[dict[str, Any]]:
        response = await client.post(
            "/api/command", json={"channel": CHANNEL, "user": user, "text": text}
        )
        body = await response.json()
        assert body["ok"], (text, body)
        replies: list[dict[str, Any]] = body["replies"]
        return replies

    players = {"marine": "p0", "biotech": "p1"}
    await send("p0", "/campaign create game:galaxy-defenders scenario:m1")
    for role, user in players.items():
        await send(user, f"/campaign join role:{role}")
    posts = await send("p0", "/campaign begin")
    game = get_game("galaxy-defenders")
    advisor = advisor_of(game)
    assert advisor is not None
    votes = long_questions = 0
    for _ in range(MAX_STEPS):
        campaign = await service.repo.latest_in_channel(CHANNEL)
        assert campaign is not None and campaign.state_json
        state = game.load(json.loads(campaign.state_json))
        prompt = game.waiting_on(state)
        if prompt.finished or long_questions >= 2:
            break
        seat = prompt.seats[0]
        legal = game.legal_actions(state, seat)
        public = [r for r in posts if not r["ephemeral"] and r["buttons"]]
        buttons = public[-1]["buttons"] if public else []
        answers = [a for a in legal if a.verb == "choose"]
        if prompt.kind == "vote":
            votes += 1  # the Alpha Agent: a few answers, public buttons, one tap
            shown = {b["command"] for b in buttons}
            assert {a.command() for a in answers} <= shown, buttons
        elif (len(answers) > MAX_INLINE_ANSWERS or prompt.personal) and buttons:
            long_questions += 1
            assert not [b for b in buttons if b["command"].startswith("/choose")], buttons
            opener = [b for b in buttons if b["command"] == CHOOSE_PANEL]
            assert len(opener) == 1 and opener[0]["label"].startswith("Choose"), buttons
            panel = (await send(players[seat], CHOOSE_PANEL))[-1]
            assert panel["ephemeral"] and len(panel["menus"]) == 1, panel
            entries = panel["menus"][0]["entries"]
            assert sorted(e["command"] for e in entries) == sorted(a.command() for a in answers)
            # each answer says what it is and what it does
            assert all(e["label"] and e["description"] for e in entries), entries
            assert all(e["description"] != e["command"] for e in entries), entries
        action = advisor.advise(state, seat, legal)
        assert action is not None
        posts = await send(players[seat], action.command())
    assert votes >= 1 and long_questions >= 1, (votes, long_questions)


def test_a_rank_up_is_a_private_select_however_few_its_answers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A rank-up is the seat's own build choice (`Prompt.personal`): one private select even
    when its answers would fit as public buttons."""
    game = get_game("galaxy-defenders")
    options = scenario_info(game, "m1").resolve_options({})
    state = game.new("m1", ["marine", "biotech"], options, SeededDice(derive_seed(5, "setup")))
    advisor = advisor_of(game)
    assert advisor is not None
    for step in range(MAX_STEPS):
        dice = SeededDice(derive_seed(5, step))
        state = game.advance(state, dice).state
        prompt = game.waiting_on(state)
        assert not prompt.finished, "no rank-up came up"
        if prompt.personal:
            break
        seat = prompt.seats[0]
        action = advisor.advise(state, seat, game.legal_actions(state, seat))
        assert action is not None
        state = game.apply(state, seat, action, dice).state
    assert "rank up" in prompt.text
    monkeypatch.setattr(disclosure, "MAX_INLINE_ANSWERS", 99)  # every list counts as short
    buttons = public_buttons(game, state, prompt)
    assert not [b for b in buttons if b.command.startswith("/choose")], buttons
    assert [b.command for b in buttons].count(CHOOSE_PANEL) == 1
    # the same question, were it not personal, would be public buttons now
    shared = public_buttons(game, state, prompt.model_copy(update={"personal": False}))
    assert [b for b in shared if b.command.startswith("/choose")]
