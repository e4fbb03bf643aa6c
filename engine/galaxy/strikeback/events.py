"""The ordered Event deck (storybook 2.2) and the new Event balancers (6.3).

A mission's Event deck is built from small stacks: each stack is shuffled on its own, then
stack 1 goes on top of stack 2, that pile on top of stack 3, and so on. Special Events marked
"set aside" stay out of the deck until a mission rule brings them in.
"""

from __future__ import annotations

from engine.core.dice import Dice, shuffle


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
