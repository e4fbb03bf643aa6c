"""Multi-hex aliens (11.8): a figure on a base of several hexes.

The alien's `hex` is the hex the rules move (its head: the one placed on an Area's centre when
it moves); the other hexes of its base are kept in `StrikebackState.bodies`. Sight, adjacency,
range and Area Damage count from any hex of the base (`world.alien_hexes`, `world.facing_hex`);
the A.I. measures from the base hex closest to the agent.

Placement: after every move or arrival the rest of the base goes on a free hex next to the
head, a hex of the same Area first, else one of a neighbouring Area (board order breaks
ties). A destination hex with no free hex next to it is not used: the figure shifts to another
hex of the Area, or stops an Area earlier (`aliens.final_hex`), which is how the rule's "shift
the whole base until a suitable position is found" is played.
"""

from __future__ import annotations

from engine.core.hexgrid import Hex, neighbours
from engine.galaxy.state import AlienState, GalaxyState
from engine.galaxy.strikeback.status import sb_state, sb_state_or_none
from engine.galaxy.world import board_of, card, co, hx, locked, occupant


def size(alien: AlienState) -> int:
    return int(getattr(card(alien), "size", 1))


def multi(state: GalaxyState, alien: AlienState) -> bool:
    return sb_state_or_none(state) is not None and size(alien) > 1


def free_for(state: GalaxyState, alien: AlienState, h: Hex) -> bool:
    """Free, or already under this alien's own base."""
    if not board_of(state).on_map(h):
        return False
    who = occupant(state, h)
    return who is None or who == alien.id


def tail_for(state: GalaxyState, alien: AlienState, head: Hex) -> list[Hex]:
    """Where the rest of the base goes when the head stands on `head` ([] when it cannot)."""
    need = size(alien) - 1
    if need <= 0:
        return []
    board, lock = board_of(state), locked(state)
    area = board.area_of.get(head)
    options = [
        n
        for n in neighbours(head)
        if n != head and free_for(state, alien, n) and board.adjacent(head, n, lock)
    ]
    options.sort(key=lambda n: (board.area_of.get(n) != area, n.r, n.q))
    return options[:need] if len(options) >= need else []


def fits(state: GalaxyState, alien: AlienState, head: Hex) -> bool:
    """The whole base can stand with its head on `head`."""
    if not free_for(state, alien, head):
        return False
    return size(alien) <= 1 or bool(tail_for(state, alien, head))


def settle(state: GalaxyState, alien: AlienState) -> None:
    """Lay the rest of the base next to the head (after a move or an arrival)."""
    if not multi(state, alien):
        return
    assert sb_state_or_none(state) is not None
    sb_state(state).bodies.pop(alien.id, None)
    sb_state(state).bodies[alien.id] = [co(h) for h in tail_for(state, alien, hx(alien.hex))]


def lift(state: GalaxyState, alien: AlienState) -> None:
    """The figure leaves the battlefield: its base goes with it."""
    if sb_state_or_none(state) is not None:
        sb_state(state).bodies.pop(alien.id, None)
