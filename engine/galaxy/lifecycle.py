"""Aliens entering and leaving the battlefield: assignment, teleport, death, Alien Tech."""

from __future__ import annotations

from engine.core.dice import Dice
from engine.core.events import Event, MissionEnded, Note, Spawned
from engine.core.hexgrid import Hex, distance
from engine.galaxy import dice as gdice
from engine.galaxy.board import label
from engine.galaxy.content import alien_card
from engine.galaxy.expansion import expanded, hooks
from engine.galaxy.state import AlienState, GalaxyState
from engine.galaxy.world import alien_name, board_of, card, co, free, operative, seat_label

MAX_ALIEN_TECH = 4  # tokens in the box


def clockwise_from_alpha(state: GalaxyState) -> list[str]:
    seats = state.seats
    start = seats.index(state.alpha) if state.alpha in seats else 0
    return seats[start:] + seats[:start]


def assign_controller(state: GalaxyState, card_id: str) -> tuple[str, str]:
    """Alien Assignment: a second copy of a card goes to whoever holds the first; otherwise the
    first player clockwise from the Alpha Agent holding the fewest Alien cards (Inoperative
    players included), so a full tie lands on the Alpha Agent."""
    new = card_of(card_id)
    for alien in state.aliens:
        c = card(alien)
        if c.species == new[0] and c.rank == new[1]:
            return alien.controller, "holds the same Alien card"
    order = clockwise_from_alpha(state)
    cards_held = state.aliens
    if expanded(state):  # a Prime Swarm's two figures are one card (11.6)
        cards_held = hooks().units(state, state.aliens)
    held = {seat: sum(1 for a in cards_held if a.controller == seat) for seat in order}
    fewest = min(held.values())
    seat = next(seat for seat in order if held[seat] == fewest)
    return seat, f"fewest Alien cards ({fewest}), first clockwise from the Alpha Agent"


def card_of(card_id: str) -> tuple[str, str]:
    c = alien_card(card_id)
    return c.species, c.rank


def nearest_free(state: GalaxyState, h: Hex) -> Hex | None:
    """The hex itself when free, else the closest free hex (ties by board order)."""
    options = closest_free(state, h)
    return options[0] if options else None


def closest_free(state: GalaxyState, h: Hex) -> list[Hex]:
    """The hex itself when free, else every free hex at the least distance from it, in board
    order (the first is `nearest_free`): the Teleport System lets the Alpha Agent pick one."""
    board = board_of(state)
    options = [x for x in board.hexes() if free(state, x)]
    if not options:
        return []
    least = min(distance(h, x) for x in options)
    return sorted((x for x in options if distance(h, x) == least), key=lambda x: (x.r, x.q))


def place_alien(
    state: GalaxyState, card_id: str, h: Hex, events: list[Event], how: str
) -> AlienState:
    if expanded(state):
        hooks().enters_play(state, card_id)
    controller, reason = assign_controller(state, card_id)
    if expanded(state):
        master_to = hooks().controller_for(state, card_id)
        if master_to is not None:  # a Master Alien's card goes to the Alpha Agent (11.3)
            controller, reason = master_to, "a Master Alien goes to the Alpha Agent"

    alien = AlienState(
        id=f"x{state.next_alien}",
        card=card_id,
        hex=co(h),
        controller=controller,
        energy=alien_card(card_id).energy,
    )
    state.next_alien += 1
    state.aliens.append(alien)
    if expanded(state):
        hooks().arrived(state, alien, events)  # a multi-hex base, the Menace token
    events.append(
        Spawned(
            figure=alien.id,
            at=label(h),
            text=f"{alien_name(alien)} {how} at {label(h)}; its card goes to "
            f"{seat_label(state, controller)} ({reason}).",
        )
    )
    if expanded(state):
        hooks().swarm_arrive(state, alien, events)  # a Prime Swarm's second figure (11.6)
    return alien


def roll_teleport_point(state: GalaxyState, dice: Dice, events: list[Event]) -> Hex | None:
    """Roll BLUE until the symbol matches a Teleport Point still on the map (the rulebook rolls
    again, however long it takes; every Point symbol is on a face, so a match always comes)."""
    points = {
        sym: h
        for sym, h in board_of(state).teleports.items()
        if sym not in state.destroyed_tps and gdice.teleport_faces(sym)
    }
    if not points:
        return None
    while True:
        face = gdice.roll(dice, "blue", 1)[0]
        symbol = gdice.teleport_symbol(face)
        if symbol in points:
            events.append(
                Note(
                    text=f"Teleport roll: {gdice.symbol_word(symbol)} - "
                    f"Teleport Point at {label(points[symbol])}."
                )
            )
            return points[symbol]


def kill_alien(state: GalaxyState, alien: AlienState, events: list[Event]) -> None:
    """Remove a dead alien: card to the discard pile, kill counted, Alien Tech for the first."""
    if alien not in state.aliens:
        return
    state.aliens.remove(alien)
    if expanded(state):
        hooks().lift(state, alien)
        hooks().left_play(state, events)

        if hooks().falls(state, alien, events):  # a Prime Swarm lives on while a figure does (11.6)
            return
    state.alien_deck.discard(alien.card)
    if expanded(state):  # a mission may put the card back in the Warehouse
        hooks().alien_killed(state, alien, events)
    state.kills += 1
    state.kills_this_round += 1
    if not state.tech_from_kills:
        state.tech_from_kills = True
        if state.alien_tech < MAX_ALIEN_TECH:
            state.alien_tech += 1
            events.append(
                Note(
                    text=f"First kill of the round: the Alpha Agent takes a fragment "
                    f"of Alien Tech ({state.alien_tech}/4)."
                )
            )


def check_all_dead(state: GalaxyState, events: list[Event]) -> bool:
    if state.outcome is None and not operative(state):
        state.outcome = "failed"
        state.outcome_text = "Every agent is Inoperative: the mission fails."
        state.phase = "ended"
        events.append(MissionEnded(outcome="failed", text=state.outcome_text))
    return state.outcome is not None


def free_hex_in_area(state: GalaxyState, area: str, prefer: Hex | None = None) -> Hex | None:
    board = board_of(state)
    centre = board.centres[area]
    options = [h for h in board.area_hexes(area) if free(state, h)]
    if not options:
        return None
    target = prefer or centre
    return min(options, key=lambda h: (h != centre, distance(h, target), h.r, h.q))
