"""The table loop end to end through the service, with the Dash fixture game."""

from __future__ import annotations

import json
from typing import Any

import pytest
from support import caller, text

from bot.storage.db import Database
from bot.table import TableService
from engine.core.game import Action

ANN, BOB, EVE = caller("ann"), caller("bob"), caller("eve")


async def start(table: TableService, pace: str = "2") -> None:
    await table.handle(ANN, f"/campaign create game:dash scenario:sprint pace:{pace}")
    await table.handle(ANN, "/campaign join role:red")
    await table.handle(BOB, "/campaign join role:blue")
    replies = await table.handle(ANN, "/campaign begin")
    assert replies[-1].images and replies[-1].images[0].data.startswith(b"\x89PNG")


async def test_create_join_begin_act_and_persist(table: TableService, db: Database) -> None:
    await start(table)
    campaign = await table.repo.live_in_channel("chan-1")
    assert campaign is not None and campaign.status == "active" and campaign.step == 1
    state = json.loads(campaign.state_json or "{}")
    here = state["positions"]["red"]
    moves = [s.value for s in await table.autocomplete(ANN, "/move to:")]
    assert moves and all(len(m) == 2 for m in moves)
    replies = await table.handle(ANN, f"/move to:{moves[0]}")
    assert "red runs to" in text(replies)
    # Bob was already being waited on and Ann just acted: nobody is pinged again.
    assert replies[-1].mentions == []
    reloaded = await TableService(db).repo.live_in_channel("chan-1")
    assert reloaded is not None and reloaded.step == 2
    assert json.loads(reloaded.state_json or "{}")["positions"]["red"] == moves[0] != here


async def test_rule_errors_are_ephemeral_and_change_nothing(table: TableService) -> None:
    await start(table)
    before = await table.repo.live_in_channel("chan-1")
    for bad in ("/move to:Z9", "/move to:F6", "/move", "/fly to:A1", "/move to"):
        replies = await table.handle(ANN, bad)
        assert all(r.ephemeral for r in replies), bad
    replies = await table.handle(EVE, "/move to:A2")
    assert "no seat" in text(replies)
    after = await table.repo.live_in_channel("chan-1")
    assert before is not None and after is not None and after.version == before.version


async def test_turn_order_and_automatic_phase(table: TableService) -> None:
    await start(table)
    await table.handle(ANN, "/end-turn")
    assert "not your turn" in text(await table.handle(ANN, "/end-turn"))
    replies = await table.handle(BOB, "/end-turn")
    assert "Round 2" in text(replies) and "drone" in text(replies)
    campaign = await table.repo.live_in_channel("chan-1")
    assert campaign is not None and campaign.id is not None
    log = await table.repo.log(campaign.id)
    assert [row.kind for row in log] == ["begin", "action", "action"]
    assert log[-1].random_used  # the drone rolled


async def test_one_live_campaign_per_channel_and_owner_rules(table: TableService) -> None:
    await table.handle(ANN, "/campaign create game:dash scenario:sprint")
    assert "already has a campaign" in text(
        await table.handle(BOB, "/campaign create game:dash scenario:sprint")
    )
    assert "Only the campaign owner" in text(await table.handle(BOB, "/campaign begin"))
    assert "Seats still empty" in text(await table.handle(ANN, "/campaign begin"))
    assert "confirm" in text(await table.handle(ANN, "/campaign end"))
    assert "Only the campaign owner or a server admin" in text(
        await table.handle(BOB, "/campaign end confirm:yes")
    )
    assert "ended" in text(
        await table.handle(caller("mod", admin=True), "/campaign end confirm:yes")
    )
    assert "set up here" in text(
        await table.handle(BOB, "/campaign create game:dash scenario:sprint")
    )


async def test_bad_create_options_name_the_problem(table: TableService) -> None:
    assert "Unknown game" in text(await table.handle(ANN, "/campaign create game:chess scenario:x"))
    assert "Unknown scenario" in text(
        await table.handle(ANN, "/campaign create game:dash scenario:marathon")
    )
    assert "pace' must be one of" in text(
        await table.handle(ANN, "/campaign create game:dash scenario:sprint pace:9")
    )
    assert "Unknown option" in text(
        await table.handle(ANN, "/campaign create game:dash scenario:sprint speed:2")
    )


async def test_join_rules(table: TableService) -> None:
    await table.handle(ANN, "/campaign create game:dash scenario:sprint")
    assert "no seat 'green'" in text(await table.handle(ANN, "/campaign join role:green"))
    assert "takes the seat **Red runner**" in text(await table.handle(ANN, "/campaign join"))
    assert "taken by ann" in text(await table.handle(BOB, "/campaign join role:red"))
    assert "leaves red" in text(await table.handle(ANN, "/campaign leave"))


async def test_undo_only_own_and_only_without_randomness(table: TableService) -> None:
    await start(table)
    campaign = await table.repo.live_in_channel("chan-1")
    assert campaign is not None
    start_pos = json.loads(campaign.state_json or "{}")["positions"]["red"]
    target = (await table.autocomplete(ANN, "/move to:"))[0].value
    await table.handle(ANN, f"/move to:{target}")
    assert "only undo your own" in text(await table.handle(BOB, "/undo"))
    assert "takes back" in text(await table.handle(ANN, "/undo"))
    campaign = await table.repo.live_in_channel("chan-1")
    assert json.loads(campaign.state_json or "{}")["positions"]["red"] == start_pos  # type: ignore[union-attr]
    replies = await table.handle(ANN, "/act what:peek")
    assert any(r.ephemeral and "peeks" in r.content for r in replies)
    assert not any("peeks" in r.content for r in replies if not r.ephemeral)
    assert "cannot be undone" in text(await table.handle(ANN, "/undo"))


async def test_verify_replays_every_campaign(table: TableService) -> None:
    await start(table)
    for _ in range(4):
        for who in (ANN, BOB):
            moves = await table.autocomplete(who, "/move to:")
            if moves:
                await table.handle(who, f"/move to:{moves[-1].value}")
            await table.handle(who, "/act what:peek")
            await table.handle(who, "/end-turn")
    results = await table.verify()
    assert results and all(ok for _, ok, _ in results), results


async def test_autocomplete_is_bounded_and_filtered(table: TableService) -> None:
    games = await table.autocomplete(ANN, "/campaign create game:")
    assert any(s.value == "dash" for s in games) and len(games) <= 25
    assert [
        s.value for s in await table.autocomplete(ANN, "/campaign create game:dash scenario:")
    ] == ["sprint"]
    assert [
        s.value
        for s in await table.autocomplete(ANN, "/campaign create game:dash scenario:sprint pace:")
    ] == ["2", "3"]
    assert await table.autocomplete(ANN, "/move to:") == []  # no campaign yet
    commands = await table.autocomplete(ANN, "/mo")
    assert [s.value for s in commands] == ["/move"]


async def test_keystrokes_share_one_list_of_legal_actions_per_step(
    table: TableService, monkeypatch: pytest.MonkeyPatch
) -> None:
    from engine.registry import get_game

    game = get_game("dash")
    asked: list[str] = []
    enumerate_actions = game.legal_actions

    def counting(state: Any, seat: str) -> list[Action]:
        asked.append(seat)
        return enumerate_actions(state, seat)

    monkeypatch.setattr(game, "legal_actions", counting)
    await table.handle(ANN, "/campaign create game:dash scenario:sprint")
    await table.handle(ANN, "/campaign join role:red")
    await table.handle(BOB, "/campaign join role:blue")
    await table.handle(ANN, "/campaign begin")
    asked.clear()
    who = ANN if (await table.autocomplete(ANN, "/move to:")) else BOB
    first = await table.autocomplete(who, "/move to:")
    for typed in ("/move to:", "/move to:A", "/move to:"):
        await table.autocomplete(who, typed)
    assert first and len(asked) == 1  # one enumeration for every keystroke of this step
    await table.handle(who, f"/move to:{first[0].value}")
    asked.clear()
    await table.autocomplete(who, "/move to:")
    assert len(asked) == 1  # the step made a new version: enumerated afresh


async def test_settings_validate(table: TableService) -> None:
    await table.handle(ANN, "/campaign create game:dash scenario:sprint")
    assert "a reminder after 24 hours" in text(await table.handle(BOB, "/campaign settings"))
    assert "Only the campaign owner" in text(
        await table.handle(BOB, "/campaign settings nudge_hours:12")
    )
    assert "must be one of" in text(await table.handle(ANN, "/campaign settings nudge_hours:5"))
    refused = text(await table.handle(ANN, "/campaign settings colour:red"))
    assert "has no option 'colour'" in refused
    changed = await table.handle(ANN, "/campaign settings nudge_hours:12 deadline_policy:vote")
    assert not changed[0].error and "a reminder after 12 hours" in changed[0].content
    assert "the other players may vote" in changed[0].content


async def test_finished_mission_is_over_but_its_board_remains(table: TableService) -> None:
    await start(table)
    campaign = await table.repo.live_in_channel("chan-1")
    assert campaign is not None
    state = json.loads(campaign.state_json or "{}")
    state["positions"]["red"] = "E5"
    campaign.state_json = json.dumps(state)
    await table.repo.save_settings(campaign)  # a plain version bump carrying no state change
    async with table.db.session() as session:
        session.add(campaign)
        await session.commit()
    replies = await table.handle(ANN, "/move to:F6")
    assert "Mission over: victory" in text(replies)
    assert "is over (victory)" in text(await table.handle(ANN, "/end-turn"))
    board = await table.handle(BOB, "/board share:yes")
    assert board[0].images and not board[0].ephemeral
    assert "set up here" in text(
        await table.handle(ANN, "/campaign create game:dash scenario:sprint")
    )


async def test_role_autocomplete_offers_free_seats_to_join_and_your_own_to_leave(
    table: TableService,
) -> None:
    await table.handle(ANN, "/campaign create game:dash scenario:sprint")
    await table.handle(ANN, "/campaign join role:red")
    assert [s.value for s in await table.autocomplete(BOB, "/campaign join role:")] == ["blue"]
    assert [s.value for s in await table.autocomplete(BOB, "/campaign leave role:")] == []
    assert [s.value for s in await table.autocomplete(ANN, "/campaign leave role:")] == ["red"]


async def test_a_button_from_an_earlier_board_is_refused(table: TableService) -> None:
    await start(table)
    campaign = await table.repo.live_in_channel("chan-1")
    assert campaign is not None
    posted = campaign.version
    fresh = await table.handle(ANN, "/act what:peek", expect_version=posted)
    assert not fresh[0].error and fresh[0].version == posted + 1 and fresh[0].game == "dash"
    stale = await table.handle(BOB, "/end-turn", expect_version=posted)
    assert stale[0].error and "earlier board" in stale[0].content
    after = await table.repo.live_in_channel("chan-1")
    assert after is not None and after.version == posted + 1


async def test_hand_is_private_and_per_seat(table: TableService) -> None:
    await start(table)
    await table.handle(ANN, "/act what:peek")
    mine = await table.handle(ANN, "/hand")
    assert mine[0].ephemeral and "secret" in mine[0].content
    theirs = await table.handle(BOB, "/hand")
    assert theirs[0].ephemeral and "secret" not in theirs[0].content
    assert "no seat" in text(await table.handle(EVE, "/hand"))


async def test_seat_handover_and_taking_a_free_seat(table: TableService) -> None:
    await start(table)
    for who in (EVE, ANN):  # a stranger, and the owner (who holds red): neither hands blue over
        assert "Only blue's player or a server admin" in text(
            await table.handle(who, "/campaign seat role:blue to:<@id-eve>")
        )
    handed = await table.handle(BOB, "/campaign seat role:blue to:<@id-eve>")
    assert "hands **blue** to <@id-eve>" in text(handed) and handed[0].mentions == ["id-eve"]
    assert "no seat" in text(await table.handle(BOB, "/end-turn"))
    assert not (await table.handle(EVE, "/end-turn"))[0].error
    await table.handle(EVE, "/campaign leave")
    assert "takes the free seat **blue**" in text(
        await table.handle(BOB, "/campaign seat role:blue")
    )
    assert "is taken" in text(await table.handle(EVE, "/campaign seat role:red"))
    assert "Name a seat" in text(await table.handle(EVE, "/campaign seat role:green"))


async def test_rules_reference_follows_the_channel_game(table: TableService) -> None:
    assert "Which game?" in text(await table.handle(ANN, "/rules topic:los"))
    los = await table.handle(ANN, "/rules game:forlorn-hope topic:line-of-sight")
    assert los[0].ephemeral and "**" in los[0].content
    fuzzy = await table.handle(ANN, "/rules game:galaxy-defenders topic:sight")
    assert not fuzzy[0].error and "See also" in fuzzy[0].content
    assert "No rules reference" in text(await table.handle(ANN, "/rules game:chess topic:x"))
    found = await table.autocomplete(ANN, "/rules game:reichbusters topic:nois")
    assert found and len(found) <= 25 and "noise" in found[0].value
