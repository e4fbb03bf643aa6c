"""Helpers to lay out hand-made Galaxy Defenders positions for rule tests."""

from __future__ import annotations

from engine.core.dice import SeededDice
from engine.galaxy import GAME
from engine.galaxy.agent import start_turn
from engine.galaxy.board import parse_label
from engine.galaxy.state import AlienState, GalaxyState
from engine.galaxy.world import co


def blank(seats: list[str], scenario: str = "m1", human_view: str = "off") -> GalaxyState:
    """A mission in the first agent's turn with an empty battlefield and agents off the map."""
    state = GAME.new(scenario, seats, {"human-view": human_view}, SeededDice(7))
    state.signals = []
    state.aliens = []
    state.pending = None
    state.phase = "agent"
    state.alpha = seats[0]
    state.turn_order = list(seats)
    state.turn_index = 0
    for agent in state.agents.values():
        agent.hex = None
    start_turn(state, state.agents[seats[0]])
    return state


def at(label: str) -> tuple[int, int]:
    h = parse_label(label)
    assert h is not None
    return co(h)


def put_agent(state: GalaxyState, agent: str, label: str, wounds: int = 0) -> None:
    state.agents[agent].hex = at(label)
    state.agents[agent].wounds = wounds


def put_alien(
    state: GalaxyState, card: str, label: str, controller: str | None = None, wounds: int = 0
) -> AlienState:
    from engine.galaxy.content import content

    alien = AlienState(
        id=f"x{state.next_alien}",
        card=card,
        hex=at(label),
        controller=controller or state.seats[0],
        energy=content().aliens[card].energy,
        wounds=wounds,
    )
    state.next_alien += 1
    state.aliens.append(alien)
    if card in state.alien_deck.draw_pile:
        state.alien_deck.draw_pile.remove(card)
    return alien
