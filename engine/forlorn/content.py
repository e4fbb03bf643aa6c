"""Loading and validating the authored unit profiles, operations and Mutation cards."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any, Literal

from pydantic import ConfigDict, Field, model_validator

from engine.core.content import (
    ContentFile,
    ContentModel,
    load_file,
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


class Spawn(ContentModel):
    """A turn's spawn: solitaire dice per kind (13.3), or a count expression per kind (11.0,
    `d3+1`, `1`; kind `special` is a Warrior or a Blaster)."""

    dice: dict[str, int] = Field(default_factory=dict)
    count: dict[str, str] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _one_way(self) -> Spawn:
        if bool(self.dice) == bool(self.count):
            raise ValueError("a spawn gives either 'dice' or 'count'")
        return self


class LateSpawn(ContentModel):
    """Solo B: the stronger spawn dice from a given turn on."""

    from_turn: int
    dice: dict[str, int]


class XenoForce(ContentModel):
    """Starting Xenos (2.0): `where` is each-vent, random-vent, room:<room> or far (at least
    4 squares from the Marines; `near`/`within`: and that close to a lettered square)."""

    kind: str
    where: str
    count: int = 0
    near: str | None = None
    within: int = 4


GOAL_NEEDS: dict[str, tuple[str, ...]] = {
    "vp": ("target",),
    "mcgfn-exit": (),
    "clear-rooms": ("rooms",),
    "mcgfn-activate": ("square", "aps"),
    "exit": ("airlock", "count"),
}


class Goal(ContentModel):
    kind: Literal["vp", "mcgfn-exit", "clear-rooms", "mcgfn-activate", "exit"]
    target: int = 0  # vp: Victory Points to bank
    rooms: list[str] = Field(default_factory=list)  # clear-rooms
    square: str = ""  # mcgfn-activate: the lettered square
    aps: int = 0  # mcgfn-activate: Action Points to feed the MCGFN
    airlock: str = ""  # exit: the airlock's letter
    count: int = 0  # exit: Marines to get out

    @model_validator(mode="after")
    def _complete(self) -> Goal:
        missing = [k for k in GOAL_NEEDS[self.kind] if k not in self.model_fields_set]
        if missing:
            raise ValueError(f"a {self.kind} goal needs {', '.join(missing)}")
        return self


class Reinforcements(ContentModel):
    turn: int
    units: list[str]


class Difficulty(ContentModel):
    """An operation's Trainee or Veteran changes. `remove`/`add` change the roster, `heroic`
    adds Heroic Marines, `spawn_late_turn` moves the late spawn; every other field replaces the
    operation's own."""

    remove: list[str] = Field(default_factory=list)
    add: list[str] = Field(default_factory=list)
    heroic: list[str] = Field(default_factory=list)
    spawn_late_turn: int | None = None
    turns: int | None = None
    grenades: int | None = None
    spawn: Spawn | None = None
    cut_one_of: list[str] | None = None
    warrior_if_two: bool | None = None
    turn4_blasters: bool | None = None
    blaster_swap: bool | None = None
    specials_even_turns: bool | None = None
    extra_specials: bool | None = None


class Scenario(ContentModel):
    """One operation (rulebook 12.0 and 13.0) as the engine sets it up and runs it."""

    model_config = ConfigDict(frozen=True)  # cached and shared: nobody may change it

    title: str
    summary: str = ""
    map: str
    turns: int
    solo: bool = False
    equipment: list[str]  # items on the caches, in map order
    eggs: int = 0
    cards: int = 0  # Mutation cards dealt to a human Xeno player
    marines: list[str]
    trapped: dict[str, list[str]] = Field(default_factory=dict)  # room -> Marines sealed in
    setup: Literal["setup-squares", "around-A"]
    heroic: list[str] = Field(default_factory=list)
    xeno_forces: list[XenoForce] = Field(default_factory=list)
    spawn: Spawn
    spawn_late: LateSpawn | None = None
    goal: Goal
    grenades: int = 3
    no_respawn: list[str] = Field(default_factory=list)  # kinds that stay dead
    mcgfn: str | None = None  # the lettered square the MCGFN is plugged in
    carry_mcgfn: str | None = None  # the Marine who starts carrying it
    sealed_vents: list[int] = Field(default_factory=list)
    reinforcements: Reinforcements | None = None
    cut_one_of: list[str] = Field(default_factory=list)  # the Marine player sends one home
    random_bot: bool = False
    bot_on_vent: bool = False
    warrior_if_two: bool = False
    no_warriors: bool = False
    rerolls: bool = False
    turn4_blasters: bool = False
    first_turn_flood: bool = False
    blaster_swap: bool = False
    specials_even_turns: bool = False
    extra_specials: bool = False
    trainee: Difficulty = Field(default_factory=Difficulty)
    veteran: Difficulty = Field(default_factory=Difficulty)


class ScenariosFile(ContentFile):
    operations: dict[str, Scenario]  # by the operation's key


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
def scenarios() -> dict[str, Scenario]:
    data = load_file(CONTENT / "scenarios.json", ScenariosFile).operations
    profiles = units()
    for key, sc in data.items():
        load_board(sc.map)
        for uid in sc.marines:
            if uid not in profiles.marines:
                raise ContentError(f"scenarios.json: {key} names unknown Marine {uid}")
        for item in sc.equipment:
            if item not in ITEMS:
                raise ContentError(f"scenarios.json: {key} names unknown item {item}")
        if len(sc.equipment) > len(load_board(sc.map).caches):
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


def xeno_word(kind: str) -> str:
    """A Xeno kind as players read it: "drone" -> "Drone", "special" -> "Special" (never the
    content key)."""
    found = units().xenos.get(kind)
    return found.name if found is not None else kind.capitalize()
