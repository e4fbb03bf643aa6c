"""Legal actions by (campaign, version, seat), remembered for a while.

Every autocomplete keystroke and the command that follows ask for the same list, and some
games take milliseconds to enumerate it. A new version (any step) is a new key, so entries
never go stale; the oldest are forgotten past a fixed size.
"""

from __future__ import annotations

from collections import OrderedDict

from bot.table.context import Loaded, id_of
from engine.core.game import Action

LEGAL_CACHE_SIZE = 256


class LegalActions:
    def __init__(self, size: int = LEGAL_CACHE_SIZE) -> None:
        self._size = size
        self._known: OrderedDict[tuple[int, int, str], list[Action]] = OrderedDict()

    def of(self, table: Loaded, seat: str) -> list[Action]:
        key = (id_of(table.campaign), table.campaign.version, seat)
        known = self._known.get(key)
        if known is not None:
            self._known.move_to_end(key)
            return known
        actions = table.game.legal_actions(table.state, seat)
        self._known[key] = actions
        while len(self._known) > self._size:
            self._known.popitem(last=False)
        return actions
