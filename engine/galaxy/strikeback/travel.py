"""Travel by the expansion's means, for the advisor: the Jet Boots (an Action: fly up to 3
hexes, over Barrier sides) and Phase Step (a Movement: reappear up to 3 hexes away). When
walking brings an agent no nearer his goal (his Movement spent, or a wall, rift or crater rim
in the way), one of these may."""

from __future__ import annotations

from collections.abc import Callable

from engine.core.game import Action
from engine.galaxy.strikeback.devices import catalogue
from engine.galaxy.strikeback.powers import psionics

TRAVEL_EFFECTS = ("flight", "blink+")
Gap = tuple[int, ...]  # how far a hex is from the goal, smaller is nearer


def travel_acts(actions: list[Action]) -> list[Action]:
    """The offered Jet Boots flights and Phase Steps (each names the hex it lands on)."""
    out = []
    for a in actions:
        what = a.args.get("what", "")
        if a.verb != "act" or "to" not in a.args:
            continue
        effect = catalogue()[what].effect if what in catalogue() else ""
        effect = psionics()[what].effect if what in psionics() else effect
        if effect.startswith(TRAVEL_EFFECTS):
            out.append(a)
    return out


def nearer(actions: list[Action], gap: Callable[[Action], Gap], here: Gap) -> Action | None:
    """The flight or Phase Step that lands nearest the goal (by `gap`, smaller is nearer),
    when it lands nearer than `here`; None otherwise."""
    offered = travel_acts(actions)
    if not offered:
        return None
    best = min(offered, key=lambda a: (gap(a), a.args["to"]))
    return best if gap(best) < here else None
