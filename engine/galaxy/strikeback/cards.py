"""The expansion's Alien cards (ours, 12 as in the component list) and their powers.

They extend the core card with Energy Shield stacks (11.7), Bolt-triggered weapon effects
(Lethal, Mark, Poison, Critical) and expansion powers. A power the engine does not play yet
(Catcher's seize, Burrowing, Prime Swarm) refuses the card's entry into play by name.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from pydantic import Field

from engine.core.content import ContentFile, load_file
from engine.core.errors import ContentError, NotSupportedYet
from engine.galaxy.content import AlienCard

CONTENT = Path(__file__).parent / "content" / "aliens.json"
MISSION_ALIENS = Path(__file__).parent / "content" / "mission_aliens.json"
MASTER = Path(__file__).parent / "content" / "master.json"  # the Master Alien card, two stages
BOX_ALIENS = 12  # component list: Alien Cards (12), Master Alien Card (1)

WEAPON_EFFECTS = {"lethal", "mark-1", "mark-2", "poison-1", "poison-2", "critical-1", "critical-2"}
# power -> None when played, else the section that is not built yet
POWERS: dict[str, str | None] = {
    "flying": None,
    "lock-on": None,
    "archenemy": None,
    "catcher": None,
    "burrowing": None,
    "prime-swarm": None,
}


class ExpansionAlienCard(AlienCard):
    stacks: list[int] = Field(default_factory=list)  # Energy Shield stacks, left to right
    sb_powers: list[str] = Field(default_factory=list)
    effects: dict[str, list[str]] = Field(default_factory=dict)  # weapon kind -> Bolt effects
    # Master Aliens (11.3): the card's stage, the stage it turns to, and the hexes of its base
    stage: int = 0
    flip_to: str | None = None
    size: int = 1


class AliensFile(ContentFile):
    species: dict[str, str]
    cards: list[ExpansionAlienCard]


@cache
def _load() -> tuple[dict[str, str], dict[str, ExpansionAlienCard]]:
    data = load_file(CONTENT, AliensFile)
    master = load_file(MASTER, AliensFile)
    cards = {c.id: c for c in data.cards}
    stages = {c.id: c for c in master.cards}
    if len(cards) != BOX_ALIENS or any(c.rank == "purple" or c.size != 1 for c in cards.values()):
        raise ContentError("Operation Strikeback Alien cards: 12 cards, none of them a Master")
    for stage in stages.values():
        if stage.rank != "purple" or stage.stage not in (1, 2) or stage.size < 1:
            raise ContentError(f"Master Alien {stage.id}: purple, Stage I or II")
        if stage.flip_to is not None and stages.get(stage.flip_to, stage).stage != stage.stage + 1:
            raise ContentError(f"Master Alien {stage.id}: it turns to its next stage")
    species = {**data.species, **master.species}
    cards.update(stages)
    for card in cards.values():
        if card.species not in species or not set(card.sb_powers) <= set(POWERS):
            raise ContentError(f"Alien card {card.id}: unknown species or power")
        if any(not set(fx) <= WEAPON_EFFECTS for fx in card.effects.values()):
            raise ContentError(f"Alien card {card.id}: unknown weapon effect")
        if not set(card.effects) <= {"melee", "ranged"}:
            raise ContentError(f"Alien card {card.id}: effects are by weapon, melee or ranged")
        if card.energy != sum(card.stacks):
            raise ContentError(f"Alien card {card.id}: energy must be the sum of its stacks")
    return species, cards


def species() -> dict[str, str]:
    return _load()[0]


def cards() -> dict[str, ExpansionAlienCard]:
    return _load()[1]


@cache
def mission_cards() -> dict[str, ExpansionAlienCard]:
    """Cards the storybook's missions name that our core box content lacks (the Green Nexus):
    not in the expansion's box, kept apart from its 12 cards."""
    extra = load_file(MISSION_ALIENS, AliensFile)
    found = {c.id: c for c in extra.cards}
    for card in found.values():
        if card.species not in extra.species or card.energy != sum(card.stacks):
            raise ContentError(f"Alien card {card.id}: unknown species or bad stacks")
    return found


def expansion_alien(card_id: str) -> ExpansionAlienCard:
    found = cards().get(card_id) or mission_cards().get(card_id)
    if found is None:
        raise KeyError(card_id)
    return found


def check_playable(card: AlienCard) -> None:
    """Refuse, by section, an alien whose powers are not played by the engine yet."""
    if isinstance(card, ExpansionAlienCard):
        for power in card.sb_powers:
            section = POWERS[power]
            if section is not None:
                raise NotSupportedYet(f"Operation Strikeback {section}")
