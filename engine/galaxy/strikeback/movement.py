"""Barrier Hex Sides (5.1), Flying (7.1), Burrowing (7.2) and Seize (7.3).

A Barrier side stops movement unless the mover Flies or Burrows; it never blocks line of
sight and the hexes on either side stay adjacent (so range is counted as usual). A seized
agent moves with the figure dragging him and so inherits its movement powers; when the move
ends he is put on a free hex next to it, or the closest free hex.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Hashable, Iterable
from typing import TypeVar

from engine.core.errors import RuleError

N = TypeVar("N", bound=Hashable)  # a hex in any coordinate type

BARRIER = "barrier"
CROSSING_POWERS = frozenset({"flying", "burrowing"})
SEIZABLE = frozenset({"immobilize", "paralyze", "bleeding"})  # the engine's condition names


def crosses(side: str, powers: Iterable[str]) -> bool:
    """Whether a figure with these movement powers may cross a side of this kind."""
    if side != BARRIER:
        raise ValueError(f"only Barrier sides are an expansion terrain, not {side}")
    return bool(CROSSING_POWERS & set(powers))


def blocks_sight(side: str) -> bool:
    return side != BARRIER


def can_seize(
    target_conditions: Iterable[str], seized_this_turn: int, is_agent: bool
) -> str | None:
    """Why this target cannot be seized (None when it can). Agents seize at most one agent a
    turn; aliens have no such limit."""
    if not SEIZABLE & set(target_conditions):
        return "can only seize an Immobilized, Paralyzed or Bleeding agent"
    if is_agent and seized_this_turn >= 1:
        return "has already seized an agent this turn"
    return None


def drop_hex(
    end: N,
    neighbours: Callable[[N], Iterable[N]],
    free: Callable[[N], bool],
) -> N:
    """Where the seized agent is put when the drag ends: a free hex next to the dragger, else
    the free hex closest to it (breadth first; ties by the neighbour order given)."""
    seen = {end}
    queue: deque[N] = deque([end])
    while queue:
        here = queue.popleft()
        for nxt in neighbours(here):
            if nxt in seen:
                continue
            seen.add(nxt)
            if free(nxt):
                return nxt
            queue.append(nxt)
    raise RuleError("no free hex is left to put the seized agent on")


def seized_powers(dragger_powers: Iterable[str], own_powers: Iterable[str]) -> set[str]:
    """While seized, the agent has the dragger's movement powers besides his own."""
    return set(dragger_powers) | set(own_powers)
