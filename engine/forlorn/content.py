"""Loading and validating the authored unit profiles, operations and Mutation cards."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from engine.core.content import (
    ContentFile,
    ContentModel,
    load_file,
    read_json,
    source_name,
    validate,
)
from engine.core.errors import ContentError
from engine.forlorn.board import load_board


class MarineProfile(ContentModel):
    name: str
    rank: str
    role: str
    mp: int
    attack: int
    defence: int
    leadership: int
    ability: str


class XenoProfile(ContentModel):
    name: str
    mp: int
    attack: int
    ranged: int
    hits: int
    ability: str
    pool: int


class Units(ContentFile):
    marines: dict[str, MarineProfile]
    xenos: dict[str, XenoProfile]
    roles: dict[str, list[str]]


class Card(ContentModel):
    id: str
    title: str
    text: str
    effect: str
    value: int = 0
    when: list[str]  # the moments it may be played (TIMINGS)
    # 10.0: discarding one more card adds `boost` to `value` (0: the card has no such option)
    boost: int = 0


class MutationsFile(ContentFile):
    cards: list[Card]


CONTENT = Path(__file__).parent / "content"
MUTATIONS = CONTENT / "mutations.json"
ITEMS = {
    "body-armor": "Body Armor",
    "bio-scanner": "Bio-Scanner",
    "medkit": "Medical Kit",
    "maintenance-bot": "Maintenance Bot",
    "mcgfn": "MCGFN",
}
EFFECTS = ("frenzy", "shield", "drain", "sap", "swarm", "ambush", "hatch")
BOOSTABLE = ("frenzy", "drain", "sap", "swarm", "ambush")  # effects measured by `value`
# When a Mutation card may be played (10.0 "unless the timing is stated on the card"):
TIMINGS = (
    "xeno-phase",  # during the Xeno player's own phase
    "marine-phase",  # any time in the Marine phase (in a reaction window or outside one)
    "marine-sighted",  # right after a Marine moves into the line of sight of a Xeno
    "marine-attack",  # right after a Marine attack (shot, spin, grenade, flame)
)


@cache
def units() -> Units:
    loaded = load_file(CONTENT / "units.json", Units)
    for role, ids in loaded.roles.items():
        for uid in ids:
            if uid not in loaded.marines:
                raise ContentError(f"units.json: role {role} names unknown Marine {uid}")
    return loaded


@cache
def scenarios() -> dict[str, dict[str, Any]]:
    data: dict[str, Any] = read_json(CONTENT / "scenarios.json")
    data.pop("_note", None)
    profiles = units()
    for key, sc in data.items():
        for need in ("title", "map", "turns", "marines", "spawn", "goal", "equipment"):
            if need not in sc:
                raise ContentError(f"scenarios.json: {key} lacks {need!r}")
        load_board(sc["map"])
        for uid in sc["marines"]:
            if uid not in profiles.marines:
                raise ContentError(f"scenarios.json: {key} names unknown Marine {uid}")
        for item in sc["equipment"]:
            if item not in ITEMS:
                raise ContentError(f"scenarios.json: {key} names unknown item {item}")
        if len(sc["equipment"]) > len(load_board(sc["map"]).caches):
            raise ContentError(f"scenarios.json: {key} has more equipment than caches")
    return data


@cache
def cards() -> dict[str, Card]:
    return check_cards(load_file(MUTATIONS, MutationsFile))


def parse_cards(data: Any) -> dict[str, Card]:
    """The Mutation deck from raw data, validated as if read from mutations.json."""
    return check_cards(validate(data, MutationsFile, source_name(MUTATIONS)))


def check_cards(deck: MutationsFile) -> dict[str, Card]:
    """Validate the Mutation deck: known effects and timings, unique ids, 20 cards."""
    out: dict[str, Card] = {}
    for card in deck.cards:
        if card.effect not in EFFECTS:
            raise ContentError(f"mutations.json: card {card.id} has unknown effect {card.effect}")
        if not card.when:
            raise ContentError(f"mutations.json: card {card.id} has an empty 'when'")
        for moment in card.when:
            if moment not in TIMINGS:
                raise ContentError(
                    f"mutations.json: card {card.id} has unknown timing {moment!r} "
                    f"(one of {', '.join(TIMINGS)})"
                )
        if card.boost and card.effect not in BOOSTABLE:
            raise ContentError(
                f"mutations.json: card {card.id} has a boost but its effect {card.effect} "
                f"cannot be strengthened (one of {', '.join(BOOSTABLE)})"
            )
        if card.boost < 0:
            raise ContentError(f"mutations.json: card {card.id} has a negative boost")
        if card.id in out:
            raise ContentError(f"mutations.json: card id {card.id} repeated")
        out[card.id] = card
    if len(out) != 20:
        raise ContentError("mutations.json: the Mutation deck must hold 20 cards")
    return out
