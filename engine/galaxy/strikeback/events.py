"""The ordered Event deck (storybook 2.2) and the new Event balancers (6.3).

A mission's Event deck is built from small stacks: each stack is shuffled on its own, then
stack 1 goes on top of stack 2, that pile on top of stack 3, and so on. Special Events marked
"set aside" stay out of the deck until a mission rule brings them in.
"""

from __future__ import annotations

from engine.core.dice import Dice, shuffle
from engine.core.events import Event, Note
from engine.core.words import counted
from engine.galaxy.state import GalaxyState
from engine.galaxy.world import operative


def build_deck(
    stacks: list[list[str]], dice: Dice, set_aside: list[str] | None = None
) -> list[str]:
    """The deck top first: stack 1 shuffled, then stack 2 shuffled, ..."""
    aside = set(set_aside or [])
    deck: list[str] = []
    for stack in stacks:
        if aside & set(stack):
            raise ValueError("a set-aside Special Event cannot also be in a stack")
        deck.extend(shuffle(dice, stack))
    if len(set(deck)) != len(deck):
        raise ValueError("an Event card appears in two stacks")
    return deck


def teleports_fewer_aliens(agents: int, aliens: int) -> int:
    """6.3, first balancer: agents in play minus aliens in play, never below 0."""
    return max(0, agents - aliens)


def teleports_fewer_threats(agents: int, aliens: int, signals: int) -> int:
    """6.3, second balancer: agents minus aliens and Signals in play, never below 0."""
    return max(0, agents - aliens - signals)


def balanced_teleports(state: GalaxyState, balance: str, events: list[Event]) -> int:
    """How many Signals an Event card with a 6.3 balancer teleports: real agents in play
    (operative players: drones and NPCs do not count) minus aliens (and Signals) in play."""

    agents = len([a for a in operative(state) if a.hex is not None])
    aliens, signals = len(state.aliens), len(state.signals)
    if balance == "sb-minus-aliens":
        count = teleports_fewer_aliens(agents, aliens)
        why = f"{counted(agents, 'agent')} - {counted(aliens, 'alien')}"
    else:
        count = teleports_fewer_threats(agents, aliens, signals)
        why = (
            f"{counted(agents, 'agent')} - {counted(aliens, 'alien')} - "
            f"{counted(signals, 'Signal')}"
        )
    events.append(Note(text=f"Event balancer: {why} = {counted(count, 'Signal')} to teleport."))
    return count
