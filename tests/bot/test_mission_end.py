"""A mission's end in every game, through the playground's API: a post of its own with the
banner's word, the summary card and one ping for every seated player; between the missions of
a campaign it comes before the next briefing and carries the campaign card."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from choosers import advisor
from offered import NoPictures
from playground_table import Playground, playground, sqlite_table

from bot.clock import ManualClock
from bot.replies import Attachment
from engine.core.view import View
from engine.registry import get_game

MAX_STEPS = 3000


class SummaryPictures(NoPictures):
    """No pixels, but the summary card is told apart (and its View kept) to be checked."""

    def __init__(self) -> None:
        self.cards: list[View] = []

    async def summary(self, view: View) -> Attachment:
        self.cards.append(view)
        return Attachment("summary.png", b"", "Mission summary")


@pytest.fixture
async def api(tmp_path: Path) -> AsyncIterator[tuple[Playground, SummaryPictures]]:
    pictures = SummaryPictures()
    async with (
        sqlite_table(tmp_path / "ends.db", new_seed=lambda: 20261205, pictures=pictures) as service,
        playground(service, "ends") as table,
    ):
        yield table, pictures


async def play_until(
    table: Playground,
    game_key: str,
    scenario: str,
    players: dict[str, str],
    options: str = "",
    first_mission_only: bool = False,
) -> None:
    """The advisor's choices, typed by the seat's player, until the mission (or a campaign's
    first mission) is over."""
    await table.open(game_key, scenario, players, options)
    game = get_game(game_key)
    until = (lambda state: bool(state.campaign.results)) if first_mission_only else None
    await table.play(game, players, advisor(game), MAX_STEPS, until=until)


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
    api: tuple[Playground, SummaryPictures],
    game_key: str,
    scenario: str,
    players: dict[str, str],
    options: str,
) -> None:
    table, pictures = api
    await play_until(table, game_key, scenario, players, options)
    messages = await table.feed()
    ends = [m for m in messages if m["content"].startswith("🏁")]
    assert len(ends) == 1, [m["content"] for m in messages[-4:]]
    end = ends[0]
    assert messages.index(end) == len(messages) - 1  # after the step that ended it
    campaign = await table.campaign()
    assert campaign.outcome
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
    api: tuple[Playground, SummaryPictures],
) -> None:
    table, pictures = api
    players = {"marine": "p0", "sniper": "p1"}
    await play_until(table, "galaxy-defenders", "campaign", players, first_mission_only=True)
    messages = await table.feed()
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
    clock = ManualClock(datetime(2026, 1, 5, 12, 0, tzinfo=UTC))  # noon, UTC
    pictures = SummaryPictures()
    async with (
        sqlite_table(
            tmp_path / "quiet.db", new_seed=lambda: 20261205, pictures=pictures, clock=clock
        ) as service,
        playground(service, "ends") as table,
    ):
        await table.send("p1", "/prefs timezone:UTC quiet:10-14")  # asleep at noon
        players = {"marine": "p0", "sniper": "p1"}
        await play_until(table, "galaxy-defenders", "m1", players)
        messages = await table.feed()
    end = next(m for m in messages if m["content"].startswith("🏁"))
    assert "<@pg:p0>" in end["content"] and "<@pg:p1>" in end["content"]  # both named
    assert end["mentions"] == ["pg:p0"]  # only the player awake is pinged
