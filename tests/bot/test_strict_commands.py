"""Strict commands through the table: typos, stray options and other players' figures refused.

Each refusal is private, names the option to fix and changes nothing.
"""

from __future__ import annotations

from support import caller, text

from bot.table import TableService

ANN, BOB = caller("ann"), caller("bob")


async def two_heroes(table: TableService) -> None:
    for who, command in [
        (ANN, "/campaign create game:reichbusters scenario:lab-rats"),
        (ANN, "/campaign join role:sarge"),
        (BOB, "/campaign join role:hans"),
        (ANN, "/campaign begin"),
    ]:
        replies = await table.handle(who, command)
        assert not any(r.error for r in replies), (command, text(replies))


async def test_a_typo_in_an_option_is_refused_privately(table: TableService) -> None:
    await two_heroes(table)
    refused = await table.handle(ANN, "/board viwe:text")
    assert [r.error and r.ephemeral for r in refused] == [True]
    assert "Did you mean view?" in text(refused)
    stray = await table.handle(ANN, "/board view:text extra:@everyone")
    assert stray[0].error and "@everyone" not in text(stray)
    assert "has no option 'extra'" in text(stray)


async def test_a_figure_the_caller_does_not_control_is_refused(table: TableService) -> None:
    await two_heroes(table)
    before = (await table.handle(ANN, "/log"))[0].content
    refused = await table.handle(ANN, "/end-turn unit:hans")
    assert refused[0].error and refused[0].ephemeral
    wanted = "'hans' is not one of your figures that can act now. Yours: claudine, sarge"
    assert wanted in text(refused)
    assert (await table.handle(ANN, "/log"))[0].content == before  # nothing changed
    ended = await table.handle(ANN, "/end-turn unit:sarge")
    assert not any(r.error for r in ended), text(ended)
