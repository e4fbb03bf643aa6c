"""Operation Strikeback's campaign through the Discord surface against the strict fake: mission
1 played to its end with typed slash commands (GD Headquarters' weapon picks and the Gold
powers on the way), then the mission its Objectives table names is set up and its briefing is
posted. Missions 2-6 not shipped yet are test-only stand-ins (`tests/strikeback_stubs.py`)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from discord_harness import Harness
from strikeback_stubs import install_stubs, remove_stubs

from engine.registry import games


async def test_the_strikeback_campaign_moves_on_through_discord(
    h: Harness, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    install_stubs(tmp_path / "content", monkeypatch)
    try:
        async with asyncio.timeout(300):
            fake, table = h.fake, h.fake.channel("table")
            ann, bob = fake.member("ann"), fake.member("bob")
            created = await h.slash(
                ann,
                table,
                "campaign create",
                game="galaxy-defenders",
                scenario="campaign",
                options="expansion:strikeback",
            )
            assert "set up here" in h.said(created), h.said(created, ann)
            seat_of = {"marine": ann, "sniper": bob}
            for role, user in seat_of.items():
                await h.slash(user, table, "campaign join", role=role)
            await h.slash(ann, table, "campaign begin")
            game = games()["galaxy-defenders"]
            asked: set[str] = set()
            assert h.service is not None
            for _ in range(1500):
                campaign = await h.service.repo.latest_in_channel(str(table))
                assert campaign is not None and campaign.state_json
                state = game.load(json.loads(campaign.state_json))
                if state.campaign.results:
                    break
                if state.pending is not None:
                    asked.add(state.pending.kind)
                seat = game.waiting_on(state).seats[0]
                action = game.advise(state, seat, game.legal_actions(state, seat))  # type: ignore[attr-defined]
                record = await h.slash(seat_of[seat], table, action.verb, **action.args)
                assert not any(
                    "Something went wrong" in m.content for m in fake.messages_of(record)
                ), h.said(record, seat_of[seat])
            else:
                raise AssertionError("mission 1 did not end through Discord")
            assert {"promote", "sb-armory"} <= asked
            first = state.campaign.results[0].outcome
            assert state.mission == ("os1" if first == "failed" else "os2")
            briefings = [m.content for m in fake.feed(table) if "**Briefing" in m.content]
            assert len(briefings) == 2 and "(mission 1 of 6)" in briefings[0]
            assert f"(mission {state.mission[-1]} of 6)" in briefings[-1]
            assert fake.violations == []
    finally:
        remove_stubs(monkeypatch)
