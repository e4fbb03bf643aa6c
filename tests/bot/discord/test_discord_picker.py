"""The action picker on Discord: a whole mission played from its private panel alone.

The player presses "Pick an action" once; from then on every step is a choice in a select
menu (the panel is edited in place while narrowing down, and the next panel follows each
action) or one of the panel's buttons. Nothing is typed. The strict fake checks every select
menu against Discord's limits (25 options, 100-character labels, values and descriptions).
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from discord_harness import Harness
from fake_discord import FakeDiscord, FakeMessage, FakeUser
from offered import NoPictures

from bot.replies import Reply
from bot.storage.db import Database
from bot.table import Caller

MAX_CHOICES = 1500


@pytest.fixture
async def quick(fake: FakeDiscord, sqlite: Database, tmp_path: Path) -> AsyncIterator[Harness]:
    """The bot against the fake, drawing no pixels (the choices are under test here)."""
    h = Harness(fake, sqlite, tmp_path / "state", pictures=NoPictures())
    await h.start()
    yield h
    await h.stop()
    assert [str(v) for v in fake.violations] == []


def latest_panel(h: Harness, channel: int, user: FakeUser) -> FakeMessage | None:
    private = [m for m in h.fake.feed(channel, user) if m.ephemeral and m.owner_id == user.id]
    return private[-1] if private and private[-1].menus() else None


@pytest.mark.parametrize(
    ("game_key", "scenario", "role"),
    [
        ("galaxy-defenders", "m1", "marine"),
        ("forlorn-hope", "solo-a", "marines"),
        ("reichbusters", "hive-breach", "sarge"),
    ],
)
async def test_a_whole_mission_from_the_picker_alone(
    quick: Harness, monkeypatch: pytest.MonkeyPatch, game_key: str, scenario: str, role: str
) -> None:
    h, fake = quick, quick.fake
    table, ann = fake.channel("table"), fake.member("ann")
    rng = random.Random(3)
    async with asyncio.timeout(240):
        await h.slash(ann, table, "campaign create", game=game_key, scenario=scenario)
        await h.slash(ann, table, "campaign join", role=role)
        begun = await h.slash(ann, table, "campaign begin")
        opened = await h.press(ann, h.prompt(begun), "Pick an action")
        assert h.private(opened) and h.private(opened)[-1].menus(), h.said(opened, ann)
        assert not h.public(opened)  # the panel is for the player alone
        actions = edits = patience = 0
        assert h.service is not None
        refused: list[str] = []
        handle = h.service.handle

        async def watched(
            caller: Caller, text: str, version: int | None = None, request: str | None = None
        ) -> list[Reply]:
            replies = await handle(caller, text, version, request)
            refused.extend(f"{text}: {r.content}" for r in replies if r.error)
            return replies

        monkeypatch.setattr(h.service, "handle", watched)
        for _ in range(MAX_CHOICES):
            campaign = await h.service.repo.latest_in_channel(str(table))
            assert campaign is not None
            if campaign.status == "finished":
                break
            panel = latest_panel(h, table, ann)
            if panel is None:  # nothing to do for a moment: the post's button opens it again
                posts = [m for m in fake.feed(table) if m.buttons()]
                await h.press(ann, posts[-1], "Pick an action")
                continue
            options = [
                (index, option["value"])
                for index, menu in enumerate(panel.menus())
                for option in menu["options"]
            ]
            enders = [o for o in options if "end-turn" in o[1]]
            wants_end = enders and rng.randrange(100) < min(90, 10 + patience * 5)
            index, value = rng.choice(enders if wants_end else options)
            before = panel.edits
            record = await h.select(ann, panel, index, value)
            said = h.said(record, ann)
            assert "Something went wrong" not in said and "moved on" not in said, said
            if value.startswith("~pick"):
                assert panel.edits == before + 1, said  # narrowed down in place
                edits += 1
            else:
                actions += 1
                patience = 0 if "end-turn" in value else patience + 1
                assert not any(m.content.startswith("Unknown") for m in h.private(record))
        else:
            raise AssertionError("the mission did not end from the picker")
        assert refused == []
        assert campaign.outcome and actions > 10 and edits > 0, (actions, edits)
        assert any("Mission over" in m.content for m in fake.feed(table))


async def test_a_quick_action_is_one_tap_in_the_panel(quick: Harness) -> None:
    """The first panel's quick actions are buttons under its menus: pressing one plays it, and
    the player's next panel (with its own quick actions) follows without another tap."""
    h, fake = quick, quick.fake
    table, ann = fake.channel("table"), fake.member("ann")
    async with asyncio.timeout(120):
        await h.slash(ann, table, "campaign create", game="galaxy-defenders", scenario="m1")
        await h.slash(ann, table, "campaign join", role="marine")
        begun = await h.slash(ann, table, "campaign begin")
        opened = await h.press(ann, h.prompt(begun), "Pick an action")
        panel = h.private(opened)[-1]
        labels = [b["label"] for b in panel.buttons()]
        assert labels and panel.menus(), labels  # quick buttons above the full picker
        assert h.service is not None
        campaign = await h.service.repo.latest_in_channel(str(table))
        assert campaign is not None
        before = campaign.version
        pressed = await h.press(ann, panel, labels[0])
        said = h.said(pressed, ann)
        assert "Something went wrong" not in said and "moved on" not in said, said
        campaign = await h.service.repo.latest_in_channel(str(table))
        assert campaign is not None and campaign.version > before  # the action was played
        follows = latest_panel(h, table, ann)
        assert follows is not None and follows.buttons(), said
