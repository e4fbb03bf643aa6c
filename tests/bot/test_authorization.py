"""Who may do what: every command against every kind of caller, on a fresh table each time."""

from __future__ import annotations

import json

import pytest
from support import caller

from bot.storage.db import Database
from bot.table import Caller, TableService

OWNER = caller("ann")  # created the campaign, holds red
PLAYER = caller("bob")  # holds blue
STRANGER = caller("eve")  # a member of the server with no seat: a spectator
ADMIN = caller("mod", admin=True)  # Manage Server (or the bot's owner), no seat
FOREIGN = Caller("id-zed", "zed", "chan-1", guild_id="other-guild")
CALLERS = {
    "owner": OWNER,
    "player": PLAYER,
    "stranger": STRANGER,
    "admin": ADMIN,
    "foreign": FOREIGN,
}

# command -> the callers allowed to run it (everyone else gets an ephemeral refusal)
MATRIX: dict[str, set[str]] = {
    "/campaign status": {"owner", "player", "stranger", "admin"},
    "/campaign list": {"owner", "player", "stranger", "admin", "foreign"},
    "/campaign settings nudge_hours:12": {"owner"},
    "/campaign export": {"owner", "admin"},
    "/campaign end confirm:yes": {"owner", "admin"},
    "/campaign rollback to:1 confirm:yes": {"owner"},
    "/act what:peek": {"owner", "player"},
    "/end-turn": {"owner", "player"},
    "/board": {"owner", "player", "stranger", "admin"},
    "/log": {"owner", "player", "stranger", "admin"},
    "/away for:1d": {"owner", "player"},
    "/prefs": {"owner", "player", "stranger", "admin", "foreign"},
    "/help": {"owner", "player", "stranger", "admin", "foreign"},
}


async def fresh_table(db: Database) -> TableService:
    table = TableService(db, new_seed=lambda: 99, limits=None)
    await table.handle(OWNER, "/campaign create game:dash scenario:sprint")
    await table.handle(OWNER, "/campaign join role:red")
    await table.handle(PLAYER, "/campaign join role:blue")
    await table.handle(OWNER, "/campaign begin")
    await table.handle(OWNER, "/act what:peek")  # a step to roll back to and undo
    return table


@pytest.mark.parametrize("command", sorted(MATRIX))
async def test_authorization_matrix(db: Database, command: str) -> None:
    from sqlmodel import SQLModel

    for name, who in CALLERS.items():
        async with db.engine.begin() as conn:  # a fresh table for every caller
            await conn.run_sync(SQLModel.metadata.drop_all)
            await conn.run_sync(SQLModel.metadata.create_all)
        table = await fresh_table(db)
        campaign = await table.repo.live_in_channel("chan-1")
        assert campaign is not None
        replies = await table.handle(who, command)
        refused = any(r.error for r in replies)
        after = await table.repo.live_in_channel("chan-1")
        if name in MATRIX[command]:
            assert not refused, (command, name, replies[0].content)
        else:
            assert refused and all(r.ephemeral for r in replies), (command, name)
            assert after is not None and after.version == campaign.version, (command, name)


async def test_undo_is_only_for_your_own_last_action(db: Database) -> None:
    table = await fresh_table(db)
    for who in (PLAYER, STRANGER, ADMIN, FOREIGN):
        assert (await table.handle(who, "/undo"))[0].error
    assert not (await table.handle(OWNER, "/end-turn"))[0].error
    assert not (await table.handle(OWNER, "/undo"))[0].error


async def test_a_player_cannot_move_another_players_figure(db: Database) -> None:
    from engine.registry import get_game

    table = TableService(db, new_seed=lambda: 3, limits=None)
    await table.handle(OWNER, "/campaign create game:galaxy-defenders scenario:m1")
    await table.handle(OWNER, "/campaign join role:marine")
    await table.handle(PLAYER, "/campaign join role:sniper")
    await table.handle(OWNER, "/campaign begin")
    game = get_game("galaxy-defenders")
    for _ in range(10):  # answer set-up questions until an agent may move
        campaign = await table.repo.live_in_channel("chan-1")
        assert campaign is not None and campaign.state_json
        state = game.load(json.loads(campaign.state_json))
        prompt = game.waiting_on(state)
        seat = prompt.seats[0]
        actions = game.legal_actions(state, seat)
        moves = [a for a in actions if a.verb == "move"]
        if moves:
            break
        who = OWNER if seat == "marine" else PLAYER
        await table.handle(who, actions[0].command())
    assert moves, "no agent got to move"
    mover, other = (OWNER, "sniper") if seat == "marine" else (PLAYER, "marine")
    target = moves[0].args["to"]
    refused = await table.handle(mover, f"/move unit:{other} to:{target}")
    assert refused[0].error and refused[0].ephemeral, refused[0].content
    after = await table.repo.live_in_channel("chan-1")
    assert campaign is not None and after is not None and after.version == campaign.version
