"""Prime Swarm units (11.6): one Alien card, two figures, each with its own Health points.

In play a Prime Swarm card enters as two `AlienState` figures (consecutive ids) that share the
card and its controller; `StrikebackState.swarms` links each living figure to its partner.
The unit counts as one alien: a Close Encounter card activates it once (the first figure in
arrival order stands for it), an "activate X" card counts it once, and Alien Assignment counts
its card once. When it activates, the A.I. is read from the figure closest to each agent; the
figure closest to the chosen target acts, and after each of its movements the other figure
follows to a free hex next to it (or as close as it can get). It attacks with clear sight when
either figure sees the target (range and melee reach from the acting figure, else from the
other). Agents attack one figure at a time, Area Damage every figure in the Area. The card is
discarded, and the kill counted, only when the last figure dies.
"""

from __future__ import annotations

from engine.core.events import Event, Moved, Note, Spawned
from engine.core.hexgrid import Hex, distance, neighbours
from engine.galaxy.aliens import walker
from engine.galaxy.board import label
from engine.galaxy.content import alien_card
from engine.galaxy.lifecycle import nearest_free
from engine.galaxy.state import AlienState, GalaxyState
from engine.galaxy.strikeback import criticals
from engine.galaxy.strikeback.status import sb_state, sb_state_or_none
from engine.galaxy.world import (
    adjacent,
    alien_name,
    board_of,
    co,
    free,
    hex_distance,
    hx,
    walk_distance,
)


def is_prime_swarm(card_id: str) -> bool:
    return "prime-swarm" in getattr(alien_card(card_id), "sb_powers", [])


def partner(state: GalaxyState, alien: AlienState) -> AlienState | None:
    """The other living figure of the alien's Prime Swarm unit (None: none or dead)."""
    if sb_state_or_none(state) is None:
        return None
    other = sb_state(state).swarms.get(alien.id)
    return next((a for a in state.aliens if a.id == other), None)


def figures(state: GalaxyState, alien: AlienState) -> list[AlienState]:
    """The unit's living figures, this one first."""
    other = partner(state, alien)
    return [alien] if other is None else [alien, other]


def units(state: GalaxyState, aliens: list[AlienState]) -> list[AlienState]:
    """One figure per unit (the earliest in the list stands for its Prime Swarm)."""
    seen: set[str] = set()
    out: list[AlienState] = []
    for alien in aliens:
        if alien.id in seen:
            continue
        seen.add(alien.id)
        other = partner(state, alien)
        if other is not None:
            seen.add(other.id)
        out.append(alien)
    return out


def closest(state: GalaxyState, alien: AlienState, spot: tuple[int, int]) -> AlienState:
    """The unit's figure closest to `spot` (walking Areas, then hexes, then arrival)."""

    def key(a: AlienState) -> tuple[int, int, int]:
        walk = walk_distance(state, a.hex, spot, walker(a))
        return (99 if walk is None else walk, hex_distance(a.hex, spot), int(a.id[1:]))

    return min(figures(state, alien), key=key)


def arrive(state: GalaxyState, alien: AlienState, events: list[Event]) -> None:
    """A Prime Swarm card entering play brings its second figure next to the first."""

    if sb_state_or_none(state) is None or not is_prime_swarm(alien.card):
        return
    spot = _next_to(state, alien) or nearest_free(state, hx(alien.hex))
    if spot is None:
        events.append(Note(text="No free hex for the second figure of the Prime Swarm."))
        return
    second = AlienState(
        id=f"x{state.next_alien}",
        card=alien.card,
        hex=co(spot),
        controller=alien.controller,
        energy=alien.energy,
    )
    state.next_alien += 1
    state.aliens.append(second)
    sb_state(state).swarms[alien.id] = second.id
    sb_state(state).swarms[second.id] = alien.id
    events.append(
        Spawned(
            figure=second.id,
            at=label(spot),
            text=f"The second figure of the Prime Swarm, {alien_name(second)}, arrives at "
            f"{label(spot)}.",
        )
    )


def _next_to(state: GalaxyState, alien: AlienState) -> Hex | None:
    options = [
        n for n in neighbours(hx(alien.hex)) if free(state, n) and adjacent(state, alien.hex, co(n))
    ]
    return min(options, key=lambda h: (h.r, h.q)) if options else None


def follow(state: GalaxyState, actor: AlienState, events: list[Event]) -> None:
    """After the acting figure moved, the other figure moves next to it, or as close as it
    can get when no hex next to it is free (placed, not walked: the rule moves it there)."""

    other = partner(state, actor)
    if other is None or "immobilize" in other.conditions:
        return
    goal = hx(actor.hex)
    start = hx(other.hex)
    if adjacent(state, other.hex, actor.hex):
        return
    options = [h for h in board_of(state).hexes() if free(state, h)]

    def key(h: Hex) -> tuple[bool, int, int, int, int]:
        return (
            not adjacent(state, co(h), actor.hex),
            distance(h, goal),
            distance(h, start),
            h.r,
            h.q,
        )

    if not options:
        return
    dest = min(options, key=key)
    if key(dest) >= key(start):
        return
    other.hex = co(dest)
    events.append(
        Moved(
            figure=other.id,
            path=[label(start), label(dest)],
            text=f"{alien_name(other)} follows its Prime Swarm: {label(start)} -> {label(dest)}.",
        )
    )


def falls(state: GalaxyState, alien: AlienState, events: list[Event]) -> bool:
    """A figure died (already off the map); the Critical tokens it held go to their discard
    piles. True when its partner lives on: the card stays in play and no kill is counted yet;
    the link is dropped either way."""
    if sb_state_or_none(state) is None:
        return False
    mine = sb_state(state).figures.get(alien.id)
    if mine is not None:  # its Critical tokens are discarded with it (11.1)
        criticals.release(mine, sb_state(state).piles)
    other_id = sb_state(state).swarms.pop(alien.id, None)
    if other_id is None:
        return False
    sb_state(state).swarms.pop(other_id, None)
    if any(a.id == other_id for a in state.aliens):
        events.append(
            Note(
                text="One figure of the Prime Swarm falls; "
                f"{alien_name(next(a for a in state.aliens if a.id == other_id))} fights on "
                "with the card."
            )
        )
        return True
    return False
