"""Authored content (agents, weapons, Alien cards, Close Encounter and Event cards, missions),
loaded once and validated: a bad file raises `ContentError` naming the problem."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any, Literal

from pydantic import Field, ValidationError

from engine.core.content import ContentFile, ContentModel, load_file
from engine.core.errors import ContentError
from engine.galaxy.board import Board, load_map, parse_label

CONTENT = Path(__file__).parent / "content"

WEAPON_BOLTS = {"hit+1", "def-1", "immobilize", "paralyze", "heal+1", None}
ARMOR_BOLTS = {
    "shield+1",
    "shield+1-melee",
    "shield+1-ranged",
    "bolt-as-shield",
    "regenerate",
    None,
}
WEAPON_POWERS = {"area-for-ammo", "auto-ammo", "boost-ammo", "no-jam"}
ALIEN_POWERS = {"acid-blood", "reroll-alien"}
ACTION_WORDS = (
    "ability",
    "search",
    "evade",
    "redeploy",
    "leap",
    "bash",
    "unjam",
    "destroy-tp",
    "rescue",
)
AI_STEPS = ("melee", "ranged", "toward", "away", "adjacent", "tp")
RANKS = ("green", "blue", "red")


class Weapon(ContentModel):
    key: str
    name: str
    kind: Literal["melee", "ranged", "healing"]
    tier: Literal["standard", "improved", "alien"]
    classes: list[str] = Field(default_factory=list)
    color: Literal["blue", "red"]
    dice: int
    range: int
    ammo: int
    bolt: str | None = None
    powers: list[str] = Field(default_factory=list)
    # Operation Strikeback (9.2): BLUE dice rolled besides the `color` ones (RED+BLUE
    # weapons), and a fixed number of Hits instead of a Hit roll (`dice` is then 0)
    blue: int = 0
    fixed: int | None = None


class Device(ContentModel):
    key: str
    name: str
    count: int
    range: int
    color: Literal["blue", "red"]
    dice: int
    text: str
    classes: list[str] = Field(default_factory=list)
    effect: str  # an effect kind of engine.galaxy.effects (grenade-<condition>, drone, ...)


class Power(ContentModel):
    """A tactic (once per mission) or skill (once per round) token."""

    key: str
    name: str
    kind: Literal["basic-tactic", "improved-tactic", "skill"]
    classes: list[str] = Field(default_factory=list)
    effect: str
    text: str


class Elite(ContentModel):
    hp: int
    move: int
    energy: int


class AgentProfile(ContentModel):
    key: str
    codename: str
    class_: str = Field(alias="class")
    hp: int
    move: int
    armor: str | None
    weapons: list[str]
    ability: str
    elite: Elite


class Ability(ContentModel):
    name: str
    type: Literal["standard", "passive", "reaction"]
    text: str


class AlienWeapon(ContentModel):
    name: str
    color: Literal["blue", "red"]
    dice: int
    range: int = 0
    bolt: str | None = None
    fixed: int | None = None  # Operation Strikeback 11.12: a fixed number of Hits, no roll


class AIRule(ContentModel):
    when: int | Literal["adjacent", "any"]
    do: list[str]


class AlienCard(ContentModel):
    id: str
    species: str
    rank: Literal["green", "blue", "red", "purple"]  # purple: an Operation Strikeback Master
    hp: int
    energy: int = 0
    armor: str | None = None
    ranged: AlienWeapon | None = None
    melee: AlienWeapon | None = None
    powers: list[str] = Field(default_factory=list)
    ai: list[AIRule]


class CloseEncounter(ContentModel):
    id: str
    name: str
    match: dict[str, Any]
    danger: dict[str, str] | None = None


class EventCard(ContentModel):
    id: str
    name: str
    type: Literal["standard", "weather", "special"]
    effects: list[dict[str, Any]]
    # Operation Strikeback adds the two Event balancers of rulebook 6.3 (`sb-minus-...`)
    balance: Literal["always", "fewer-aliens", "sb-minus-aliens", "sb-minus-threats"] = "always"
    teleport: list[int] | None = None
    # Operation Strikeback storybook 2.5: the other columns of a Special Event, by the previous
    # campaign mission's result ("partial", "accomplished"); each replaces `effects` (the
    # standalone column) when that result is the previous one.
    if_previous: dict[str, list[dict[str, Any]]] = Field(default_factory=dict)


class Objective(ContentModel):
    when: list[str]
    result: Literal["accomplished", "partial", "failed"]
    text: str


class Mission(ContentModel):
    key: str
    title: str
    summary: str
    briefing: str
    map: str
    rounds: int
    signals: dict[str, int]
    start_signals: int = 0
    alien_deck: list[str]
    close_encounters: list[str] | Literal["all"] = "all"
    events: list[str] | Literal["all"] = "all"
    # Special Events: this mission's own key moments, shuffled into its Event deck
    special_events: list[EventCard] = Field(default_factory=list)
    # Event cards left in the box so the Special Events fit the box's 22 Event cards
    set_aside: list[str] = Field(default_factory=list)
    objectives: list[Objective]
    special: list[str] = Field(default_factory=list)
    kit: dict[str, list[str]] = Field(default_factory=dict)  # starting devices by class
    # weapons GD Headquarters issues at the briefing (researched earlier in the campaign)
    issued: dict[str, list[str]] = Field(default_factory=dict)
    next: str | None = None

    def event_deck(self, generic: list[str]) -> list[str]:
        """The Event deck: its generic cards (minus those set aside) and its Special Events."""
        cards = generic if self.events == "all" else self.events
        return [c for c in cards if c not in self.set_aside] + [s.id for s in self.special_events]


class Content(ContentModel):
    agents: dict[str, AgentProfile]
    drones: dict[str, AgentProfile]
    abilities: dict[str, Ability]
    weapons: dict[str, Weapon]
    devices: dict[str, Device]
    powers: dict[str, Power]
    species: dict[str, str]
    aliens: dict[str, AlienCard]
    close_encounters: dict[str, CloseEncounter]
    events: dict[str, EventCard]
    missions: dict[str, Mission]

    def event(self, mission: str, card_id: str) -> EventCard:
        """An Event card: the common deck's, or one of the mission's Special Events."""
        for special in self.missions[mission].special_events:
            if special.id == card_id:
                return special
        return self.events[card_id]

    def board(self, mission: str) -> Board:
        return load_map(self.missions[mission].map)


class AgentsFile(ContentFile):
    agents: list[AgentProfile]
    drones: list[AgentProfile]
    abilities: dict[str, Ability]


class WeaponsFile(ContentFile):
    weapons: list[Weapon]


class DevicesFile(ContentFile):
    devices: list[Device]


class PowersFile(ContentFile):
    powers: list[Power]


class AliensFile(ContentFile):
    species: dict[str, str]
    cards: list[AlienCard]


class CloseEncountersFile(ContentFile):
    cards: list[CloseEncounter]


class EventsFile(ContentFile):
    cards: list[EventCard]


class MissionsFile(ContentFile):
    missions: list[Mission]


# Component counts of the core box (rulebook, Game Components)
BOX_SIGNALS = {"alien": 9, "human": 6}
BOX_EVENTS = 22


CONDITIONS = ("all-dead", "kills>=", "round>", "destroyed>=", "rescued>=", "extracted", "always")


def _count_ok(cond: str) -> bool:
    """`round>N` and counters `name>=N` or `name>=N+M/agent` need well-formed numbers."""
    from engine.galaxy.objectives import parse_count

    _, sep, value = cond.partition(">=")
    if not sep:
        _, sep, value = cond.partition(">")
        return not sep or value.isdigit()
    try:
        parse_count(value)
    except ValueError:
        return False
    return True


def _validate(content: Content) -> None:
    for agent in [*content.agents.values(), *content.drones.values()]:
        if agent.ability not in content.abilities:
            raise ContentError(f"agent {agent.key}: unknown ability {agent.ability}")
        if agent.armor not in ARMOR_BOLTS:
            raise ContentError(f"agent {agent.key}: unknown armor effect {agent.armor}")
        for weapon_key in agent.weapons:
            if weapon_key not in content.weapons:
                raise ContentError(f"agent {agent.key}: unknown weapon {weapon_key}")
    for weapon in content.weapons.values():
        if weapon.bolt not in WEAPON_BOLTS or not set(weapon.powers) <= WEAPON_POWERS:
            raise ContentError(f"weapon {weapon.key}: unknown Bolt effect or power")
        if weapon.dice < 1 or weapon.range < 0 or weapon.ammo < 0:
            raise ContentError(f"weapon {weapon.key}: dice, range and ammo must be sensible")
        if weapon.tier == "alien" and weapon.ammo:
            raise ContentError(f"weapon {weapon.key}: Alien Weapons use no Ammo")
    from engine.galaxy.effects import ACTIVE_EFFECTS, is_known

    for power in content.powers.values():
        if not is_known(power.effect) or power.effect.startswith("grenade"):
            raise ContentError(f"power {power.key}: unknown effect {power.effect}")
    for device in content.devices.values():
        grenade = device.effect in ("grenade", "grenade-immobilize", "grenade-paralyze")
        if not (grenade or device.effect == "drone" or device.effect.startswith(ACTIVE_EFFECTS)):
            raise ContentError(f"device {device.key}: unknown effect {device.effect}")
        if grenade and (device.dice < 1 or device.range < 0):
            raise ContentError(f"device {device.key}: a grenade needs dice and a range")
        if power.key in content.devices or power.key in ACTION_WORDS:
            raise ContentError(f"power {power.key}: its key clashes with a device or action")
    for card in content.aliens.values():
        if card.species not in content.species:
            raise ContentError(f"Alien card {card.id}: unknown species {card.species}")
        if card.armor not in ARMOR_BOLTS or not set(card.powers) <= ALIEN_POWERS:
            raise ContentError(f"Alien card {card.id}: unknown armor effect or power")
        if not card.ai or card.ai[-1].when != "any":
            raise ContentError(f"Alien card {card.id}: the last A.I. rule must be 'any'")
        for rule in card.ai:
            for step in rule.do:
                if step.split()[0] not in AI_STEPS:
                    raise ContentError(f"Alien card {card.id}: unknown A.I. step {step!r}")
                if step in ("melee",) and card.melee is None:
                    raise ContentError(f"Alien card {card.id}: melee step without melee weapon")
                if step in ("ranged",) and card.ranged is None:
                    raise ContentError(f"Alien card {card.id}: ranged step without ranged weapon")
    for ce in content.close_encounters.values():
        if not set(ce.match) <= {"species", "rank", "wounded", "all"}:
            raise ContentError(f"Close Encounter {ce.id}: unknown match {ce.match}")
    for event in content.events.values():
        if event.teleport is not None and len(event.teleport) != 5:
            raise ContentError(f"Event {event.id}: the Signal Teleport Table needs 5 entries")
    for mission in content.missions.values():
        board = load_map(mission.map)
        for card_id in mission.alien_deck:
            if card_id not in content.aliens:
                raise ContentError(f"mission {mission.key}: unknown Alien card {card_id}")
        for listed, known in (
            (mission.close_encounters, content.close_encounters),
            (mission.events, content.events),
        ):
            if listed != "all" and any(c not in known for c in listed):
                raise ContentError(f"mission {mission.key}: unknown card in {listed}")
        for event_card in mission.special_events:
            if event_card.type != "special" or event_card.id in content.events:
                raise ContentError(f"mission {mission.key}: bad Special Event {event_card.id}")
        if any(
            kind not in BOX_SIGNALS or n > BOX_SIGNALS[kind] for kind, n in mission.signals.items()
        ):
            raise ContentError(
                f"mission {mission.key}: the box holds {BOX_SIGNALS['alien']} Alien and "
                f"{BOX_SIGNALS['human']} Human Signals, not {mission.signals}"
            )
        if any(c not in content.events for c in mission.set_aside):
            raise ContentError(f"mission {mission.key}: unknown Event card set aside")
        if len(mission.event_deck(list(content.events))) > BOX_EVENTS:
            raise ContentError(
                f"mission {mission.key}: its Event deck holds more than the box's {BOX_EVENTS} "
                "cards (set generic Events aside for its Special Events)"
            )
        for objective in mission.objectives:
            for cond in objective.when:
                if not cond.startswith(CONDITIONS) or not _count_ok(cond):
                    raise ContentError(f"mission {mission.key}: unknown condition {cond}")
        if not any(o.when == [f"round>{mission.rounds}"] for o in mission.objectives):
            raise ContentError(
                f"mission {mission.key}: an objective must end the mission after round "
                f"{mission.rounds} (condition 'round>{mission.rounds}' alone)"
            )
        if len(board.starts) < 5:
            raise ContentError(f"mission {mission.key}: map needs 5 GD Start Hexes")
        for role, kit in mission.kit.items():
            if role not in content.agents or any(d not in content.devices for d in kit):
                raise ContentError(f"mission {mission.key}: bad starting kit {role}: {kit}")
        packed = [d for kit in mission.kit.values() for d in kit]
        for key in set(packed):
            if packed.count(key) > content.devices[key].count:
                raise ContentError(f"mission {mission.key}: the kits hand out too many {key}")
        for role, keys in mission.issued.items():
            for key in keys:
                w = content.weapons.get(key)
                if role not in content.agents or w is None or w.tier == "standard":
                    raise ContentError(f"mission {mission.key}: bad issued weapon {role}: {key}")
                if w.classes and role not in w.classes:
                    raise ContentError(f"mission {mission.key}: {key} is not for the {role}")
        for special in mission.special:
            kind, _, where = special.partition(" ")
            rule_ok = kind in ("destroy-tp", "rescue", "alien-armory")
            if not rule_ok or (where and parse_label(where) is None):
                raise ContentError(f"mission {mission.key}: unknown special rule {special}")


@cache
def content() -> Content:
    agents = load_file(CONTENT / "agents.json", AgentsFile)
    aliens = load_file(CONTENT / "aliens.json", AliensFile)
    encounters = load_file(CONTENT / "close_encounters.json", CloseEncountersFile).cards
    try:
        loaded = Content(
            agents={a.key: a for a in agents.agents},
            drones={a.key: a for a in agents.drones},
            abilities=agents.abilities,
            weapons={w.key: w for w in load_file(CONTENT / "weapons.json", WeaponsFile).weapons},
            devices={d.key: d for d in load_file(CONTENT / "devices.json", DevicesFile).devices},
            powers={p.key: p for p in load_file(CONTENT / "powers.json", PowersFile).powers},
            species=aliens.species,
            aliens={c.id: c for c in aliens.cards},
            close_encounters={c.id: c for c in encounters},
            events={c.id: c for c in load_file(CONTENT / "events.json", EventsFile).cards},
            missions={
                m.key: m for m in load_file(CONTENT / "missions.json", MissionsFile).missions
            },
        )
    except ValidationError as error:
        raise ContentError(f"content failed validation: {error}") from error
    _validate(loaded)
    return loaded


def alien_card(card_id: str) -> AlienCard:
    """An Alien card: the core box's, else an Operation Strikeback one."""
    found = content().aliens.get(card_id)
    if found is not None:
        return found
    from engine.galaxy.strikeback.cards import expansion_alien

    return expansion_alien(card_id)


def power(key: str) -> Power | None:
    """A tactic or skill: the core box's, else an Operation Strikeback skill (9.7.1)."""
    found = content().powers.get(key)
    if found is not None:
        return found
    from engine.galaxy.strikeback.powers import skills

    return skills().get(key)


def power_card(key: str) -> Power:
    found = power(key)
    if found is None:
        raise KeyError(key)
    return found


def mission(key: str) -> Mission:
    """A mission: the core Storybook's, else an Operation Strikeback one."""
    found = content().missions.get(key)
    if found is not None:
        return found
    from engine.galaxy.strikeback.missions import missions

    return missions()[key]


def close_encounter(card_id: str) -> CloseEncounter:
    found = content().close_encounters.get(card_id)
    if found is not None:
        return found
    from engine.galaxy.strikeback.missions import close_encounters

    return close_encounters()[card_id]


def event_card(mission_key: str, card_id: str) -> EventCard:
    """An Event card: the common deck's or one of the mission's Special Events."""
    for special in mission(mission_key).special_events:
        if special.id == card_id:
            return special
    found = content().events.get(card_id)
    if found is not None:
        return found
    from engine.galaxy.strikeback.decks import events

    return events()[card_id]


def species_name(key: str) -> str:
    found = content().species.get(key)
    if found is not None:
        return found
    from engine.galaxy.strikeback.cards import species

    return species()[key]
