"""Reichbusters seats through the table: one Hero from each team (rulebook, Hero Set Up).

Joining with a Hero of a team that already has a seat is refused in Hero and team names, and
the join autocomplete offers only Heroes of the teams still free.
"""

from __future__ import annotations

from support import caller, text

from bot.table import TableService

ANN, BOB = caller("ann"), caller("bob")


async def test_a_second_hero_of_a_team_is_refused_by_name(table: TableService) -> None:
    for who, command in [
        (ANN, "/campaign create game:reichbusters scenario:radio-silence"),
        (ANN, "/campaign join role:claudine"),
    ]:
        replies = await table.handle(who, command)
        assert not any(r.error for r in replies), text(replies)
    refused = await table.handle(BOB, "/campaign join role:irena")
    assert refused[0].error
    said = text(refused)
    assert "Irena is in Team Charlie, like Claudine" in said
    assert "Team Alpha: Sarge" in said  # what is still free, by name
    joined = await table.handle(BOB, "/campaign join role:hans")
    assert not any(r.error for r in joined), text(joined)


async def test_join_autocomplete_offers_only_free_teams(table: TableService) -> None:
    await table.handle(ANN, "/campaign create game:reichbusters scenario:radio-silence")
    await table.handle(ANN, "/campaign join role:claudine")
    offered = {s.value for s in await table.autocomplete(BOB, "/campaign join role:")}
    assert "irena" not in offered and "claudine" not in offered
    assert {"sarge", "hans", "tane"} <= offered


async def test_a_join_without_a_role_takes_a_free_team(table: TableService) -> None:
    await table.handle(ANN, "/campaign create game:reichbusters scenario:radio-silence")
    for name in ("ann", "bob", "cat", "dan"):
        replies = await table.handle(caller(name), "/campaign join")
        assert not any(r.error for r in replies), text(replies)
    begun = await table.handle(ANN, "/campaign begin")
    assert not any(r.error for r in begun), text(begun)
