"""The open turn post is remembered in the database (issue #33, item 1): a step served by
another process, or after a restart, still edits the post the table opened, instead of
opening a new one."""

from __future__ import annotations

from support import caller

from bot.storage.db import Database
from bot.table import TableService

ANN, BOB = caller("ann"), caller("bob")


def turn_key(replies: list) -> str:  # type: ignore[type-arg]
    keys = [r.post_key for r in replies if r.post_key]
    assert len(keys) == 1, [(r.post_key, r.content[:40]) for r in replies]
    return str(keys[0])


async def test_another_process_edits_the_open_turn_post(db: Database) -> None:
    first, other = TableService(db), TableService(db)  # two processes, one database
    for who, line in (
        (ANN, "/campaign create game:dash scenario:sprint"),
        (ANN, "/campaign join role:red"),
        (BOB, "/campaign join role:blue"),
    ):
        assert not (await first.handle(who, line))[0].error
    opened = turn_key(await first.handle(ANN, "/campaign begin"))
    assert turn_key(await other.handle(BOB, "/act what:peek")) == opened
    restarted = TableService(db)
    assert turn_key(await restarted.handle(BOB, "/end-turn")) == opened
