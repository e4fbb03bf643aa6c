"""Campaign commands: the set-up post's options as a player reads them."""

from __future__ import annotations

from support import caller, text

from bot.table import TableService
from bot.table.campaigns import option_words

ANN = caller("ann")


def test_option_words_keep_acronyms_in_capitals() -> None:
    assert option_words("npc-signals", "off") == "NPC signals: off"
    assert option_words("friendly-fire", "on") == "Friendly fire: on"
    assert option_words("start-rank", "gold-2") == "Start rank: gold 2"


async def test_the_set_up_post_names_npc_signals_in_capitals(table: TableService) -> None:
    said = text(await table.handle(ANN, "/campaign create game:galaxy-defenders scenario:m1"))
    assert "NPC signals: off" in said and "Npc" not in said, said
