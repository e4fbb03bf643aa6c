"""NPC assignment (10.1.2): who controls a newly arrived NPC.

The card goes to the first player, clockwise from the Alpha Agent, with the fewest NPC cards;
a tie among all lands on the Alpha Agent (who comes first in that order anyway). Never more
than five NPCs in play: a revealed NPC Signal then only discards its token.
"""

from __future__ import annotations

MAX_NPCS = 5


def assign(table_from_alpha: list[str], npcs_held: dict[str, int], in_play: int) -> str | None:
    """The seat that receives the new NPC, or None when no NPC may enter play."""
    if in_play >= MAX_NPCS or not table_from_alpha:
        return None
    fewest = min(npcs_held.get(seat, 0) for seat in table_from_alpha)
    return next(seat for seat in table_from_alpha if npcs_held.get(seat, 0) == fewest)
