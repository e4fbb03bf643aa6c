"""Targeting a Burrowing alien (7.2.1): it can be attacked only while the top card of the
Close Encounter discard pile clearly matches an activation of it.

A card clearly matches when its activation names something about the alien itself: all
aliens, its colour rank, its place on the battlefield, its power, its health state or its
species. Cards that pick aliens indirectly (the Alpha Agent's aliens, "activate 1/2/3/X
aliens") never clearly match. The check is made once, at target selection before the Hit
roll, for every targeted alien at the same time; what happens to the discard pile during the
attack does not change it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from engine.galaxy.content import close_encounter
from engine.galaxy.phases import matches
from engine.galaxy.state import AlienState, GalaxyState
from engine.galaxy.world import card

CLEAR = frozenset({"all", "color", "position", "power", "health", "species"})
INDIRECT = frozenset({"alpha", "count", "count-agents"})


@dataclass(frozen=True)
class Activation:
    """What a Close Encounter card activates: `kind` and its value (colour, power, ...)."""

    kind: str
    value: str = ""


@dataclass(frozen=True)
class AlienFacts:
    species: str
    color: str
    powers: frozenset[str]
    wounded: bool
    areas: frozenset[str]  # the Areas or positions it stands in, for position cards


def clearly_matches(card: Activation, alien: AlienFacts) -> bool:
    if card.kind in INDIRECT:
        return False
    if card.kind not in CLEAR:
        raise ValueError(f"unknown Close Encounter activation kind {card.kind}")
    if card.kind == "all":
        return True
    if card.kind == "color":
        return alien.color == card.value
    if card.kind == "position":
        return card.value in alien.areas
    if card.kind == "power":
        return card.value in alien.powers
    if card.kind == "health":
        return alien.wounded == (card.value == "wounded")
    return alien.species == card.value


def vulnerable(top_discard: Activation | None, alien: AlienFacts) -> bool:
    """Whether the alien may be targeted now; non-burrowers always may."""
    if "burrowing" not in alien.powers:
        return True
    return top_discard is not None and clearly_matches(top_discard, alien)


def lock_targets(
    top_discard: Activation | None, targets: Iterable[tuple[str, AlienFacts]]
) -> list[str]:
    """The targets (by id) an attack may damage, decided once before the Hit roll."""
    return [key for key, facts in targets if vulnerable(top_discard, facts)]


# -- in play -----------------------------------------------------------------------------------

INDIRECT_KEYS = frozenset({"alpha", "count", "count-agents"})


def is_burrower(alien: AlienState) -> bool:
    """An alien whose card has the Burrowing power (expansion cards only)."""

    return "burrowing" in getattr(card(alien), "sb_powers", [])


def exposed(state: GalaxyState, alien: AlienState) -> bool:
    """7.2.1 in play: the alien can be targeted now. A non-burrower always can; a burrower only
    while the top card of the Close Encounter discard pile clearly matches an activation of it
    (a card naming the aliens directly: all, rank, species, power, position, health) - the
    "activate X" and "the Alpha Agent's aliens" cards never do."""

    if not is_burrower(alien):
        return True
    pile = state.ce_deck.discard_pile
    if not pile:
        return False
    match = close_encounter(pile[-1]).match
    if INDIRECT_KEYS & set(match):
        return False
    return matches(state, alien, match)
