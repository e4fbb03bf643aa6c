"""The Galaxy Alpha Agent is chosen by the players (issue #32, item 6), through the playground
API: any player proposes an agent, the others agree; the answers edit one post in place and
ping nobody; when the answer window closes without agreement the class ranking decides."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from offered import NoPictures
from playground_table import Playground, playground, sqlite_table

from engine.core.game import advisor_of
from engine.registry import get_game

CHANNEL = "vote"
PLAYERS = {"marine": "p0", "biotech": "p1", "sniper": "p2"}
GAME = get_game("galaxy-defenders")


@pytest.fixture
async def api(tmp_path: Path) -> AsyncIterator[Playground]:
    async with (
        sqlite_table(tmp_path / "vote.db", new_seed=lambda: 20261205, pictures=NoPictures()) as t,
        playground(t, CHANNEL) as channel,
    ):
        yield channel


class Table(Playground):
    """The channel, with this test's own set-up."""

    async def to_the_vote(self) -> Any:
        """Play with the advisor until the first Alpha Agent vote of round 2."""
        await self.replies("p0", "/campaign create game:galaxy-defenders scenario:m1")
        for role, user in PLAYERS.items():
            await self.replies(user, f"/campaign join role:{role}")
        await self.replies("p0", "/campaign settings window_minutes:60")
        await self.replies("p0", "/campaign begin")
        advisor = advisor_of(GAME)
        assert advisor is not None
        seen_turn = False
        for _ in range(400):
            state = await self.state(GAME)
            prompt = GAME.waiting_on(state)
            seen_turn = seen_turn or prompt.kind == "turn"
            if prompt.kind == "vote" and seen_turn:
                return state
            assert not prompt.finished
            seat = prompt.seats[0]
            action = advisor.advise(state, seat, GAME.legal_actions(state, seat))
            assert action is not None
            await self.replies(PLAYERS[seat], action.command())
        raise AssertionError("no Alpha Agent vote reached")


async def test_any_player_proposes_the_others_agree_in_one_edited_post(
    api: Playground,
) -> None:
    table = Table(api.client, api.service, CHANNEL)
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

    proposed = await table.replies("p2", "/choose option:biotech")  # Iridium proposes Thorium
    shown = [r for r in proposed if not r["ephemeral"]]
    assert len(shown) == 1 and shown[0]["mentions"] == [], shown
    assert "Iridium (Sniper) proposes Thorium (Biotech) as Alpha Agent." in shown[0]["content"]
    assert "Thorium (Biotech) is proposed (agreed: Iridium (Sniper))" in shown[0]["content"]
    agree = [b for b in shown[0]["buttons"] if b["command"] == "/choose option:biotech"]
    assert agree and agree[0]["label"].startswith("Agree: Thorium (Biotech) leads · "), agree
    vote_post = [m for m in await table.feed(after=last) if m["content"] == shown[0]["content"]]
    assert len(vote_post) == 1

    agreed = await table.replies("p0", "/choose option:biotech")
    edit = [r for r in agreed if not r["ephemeral"]]
    assert (
        len(edit) == 1 and edit[0]["mentions"] == [] and edit[0]["post_key"] == shown[0]["post_key"]
    )
    assert "Chromium (Marine) agrees" in edit[0]["content"]
    after = [m for m in await table.feed(after=last) if m["id"] > last]  # new posts, not edits
    assert len({m["id"] for m in after}) == 1, [m["content"][:50] for m in after]  # one post
    assert any(m.get("edited") for m in after), after
    assert (await table.state(GAME)).pending.data["agreed"] == ["sniper", "marine"]

    await table.replies("p1", "/choose option:biotech")  # the last agreement makes the choice
    state = await table.state(GAME)
    assert (state.alpha == "biotech" and state.pending is None) or state.pending.kind != "alpha"


async def test_no_agreement_in_the_answer_window_falls_back_to_the_ranking(
    api: Playground,
) -> None:
    table = Table(api.client, api.service, CHANNEL)
    await table.to_the_vote()
    await table.replies("p1", "/choose option:sniper")  # Thorium proposes Iridium; no one agrees
    campaign = await table.service.repo.latest_in_channel(CHANNEL)
    assert campaign is not None and campaign.id is not None
    replies = await table.service.pacing.close_window(campaign.id)
    state = await table.state(GAME)
    assert state.alpha == "marine"  # the ranking: Marine first
    assert replies  # the step is posted
    log = await table.replies("p2", "/log")
    assert "by the class ranking, Chromium (Marine) is the Alpha Agent" in log[-1]["content"]
