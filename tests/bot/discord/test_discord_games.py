"""Each real game, played a few steps through the Discord surface against the strict fake.

Not whole missions (those are self-played in the engine tests): this checks that real boards,
real legal-action lists and real narration stay within Discord's limits when they go through
slash commands, autocomplete and buttons.
"""

from __future__ import annotations

import asyncio

import pytest
from choosers import Wanderer
from discord_harness import Harness
from fake_discord import FakeUser

from bot.discord.adapter import GAME_COLOURS
from engine.registry import games

STEPS = 10
PRIMARY = {"move": "to", "attack": "target", "act": "what", "choose": "option", "orders": "order"}
REAL_GAMES = ["galaxy-defenders", "forlorn-hope", "reichbusters"]


async def act_once(h: Harness, user: FakeUser, channel: int) -> bool:
    """The user takes one legal action offered by autocomplete; False if none was offered."""
    for verb, key in PRIMARY.items():
        values = await h.choices(user, channel, verb, key, **{key: ""})
        assert len(values) <= 25 and all(0 < len(v) <= 100 for v in values), (verb, values)
        if not values:
            continue
        options = {key: values[0]}
        units = (
            []
            if verb == "choose"
            else await h.choices(user, channel, verb, "unit", **options, unit="")
        )
        if units:
            options["unit"] = units[0]
        record = await h.slash(user, channel, verb, **options)
        assert record.ack_delay is not None and record.ack_delay < 3.0
        return True
    return False


@pytest.mark.parametrize("game_key", REAL_GAMES)
async def test_a_real_game_through_discord(h: Harness, game_key: str) -> None:
    if game_key not in games():
        pytest.skip(f"{game_key} is not registered")
    async with asyncio.timeout(60):
        fake, table = h.fake, h.fake.channel("table")
        ann, bob = fake.member("ann"), fake.member("bob")
        info = games()[game_key].scenarios()[0]
        scenarios = await h.choices(ann, table, "campaign create", "scenario", game=game_key)
        assert info.key in scenarios
        created = await h.slash(ann, table, "campaign create", game=game_key, scenario=info.key)
        assert "set up here" in h.said(created), h.said(created, ann)
        roles = await h.choices(ann, table, "campaign join", "role", role="")
        players = [ann, bob][: min(2, info.max_seats)]
        for user, role in zip(players, roles, strict=False):
            joined = await h.slash(user, table, "campaign join", role=role)
            assert "takes the seat" in h.said(joined), h.said(joined, user)
        begun = await h.slash(ann, table, "campaign begin")
        assert h.public(begun) and h.public(begun)[-1].attachments, h.said(begun, ann)
        steps = 0
        for _ in range(STEPS):
            moved = False
            for user in players:
                if await act_once(h, user, table):
                    moved, steps = True, steps + 1
                    break
            if not moved:
                for user in players:
                    await h.slash(user, table, "end-turn")
        assert steps > 0, "autocomplete offered no action in a whole turn"
        assert fake.violations == []


WHOLE = [
    ("galaxy-defenders", "m1", 2),
    ("forlorn-hope", "solo-a", 1),
    ("reichbusters", "wolffs-lair", 2),  # radio-silence (3x longer) is played whole elsewhere
]


@pytest.mark.parametrize(("game_key", "scenario", "players"), WHOLE)
async def test_a_whole_mission_through_discord(
    h: Harness, game_key: str, scenario: str, players: int
) -> None:
    """Every step a typed slash command from the player whose turn it is, to the end."""
    async with asyncio.timeout(300):
        fake, table = h.fake, h.fake.channel("table")
        users = [fake.member("ann"), fake.member("bob")][:players]
        seat_of = await h.seat(table, game_key, scenario, users)
        await h.slash(users[0], table, "campaign begin")
        await h.play(table, games()[game_key], seat_of, Wanderer(5), 1500)
        assert h.service is not None
        campaign = await h.service.repo.latest_in_channel(str(table))
        assert campaign is not None
        assert campaign.status == "finished"
        assert any("Mission over" in m.content for m in fake.feed(table))
        # Boards sit in an embed striped with the game's colour.
        boards = [m for m in fake.feed(table) if m.attachments and m.embeds]
        assert boards and all(m.embeds[0].get("color") == GAME_COLOURS[game_key] for m in boards)
        assert fake.violations == []
