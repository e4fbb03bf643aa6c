"""The state of one Galaxy Defenders mission: plain pydantic data that round-trips JSON."""

from __future__ import annotations

from typing import Literal, get_args

from pydantic import BaseModel, Field, SerializeAsAny, ValidationInfo, field_validator

from engine.core.deck import Deck
from engine.core.errors import NotSupportedYet

Coord = tuple[int, int]
Activity = Literal["unused", "open", "closed"]


class WeaponState(BaseModel):
    key: str
    ammo: int
    jammed: bool = False


class AgentState(BaseModel):
    id: str  # the class key, which is also the seat
    hex: Coord | None
    facing: int = 0  # index into hexgrid.DIRECTIONS (Human View)
    drone_of: str | None = None  # a deployed battle drone belongs to this agent
    ready: bool = False  # a drone acts from its owner's next turn on
    wounds: int = 0
    bleeding: bool = False
    dead: bool = False
    rank: int = 0  # index into RANKS: Copper .. Platinum
    ranks_gained: int = 0  # by GD-Wings rolls during this mission
    elite: bool = False
    rank_powers: dict[str, str] = Field(default_factory=dict)  # rank -> power it brought
    energy: int = 0
    weapons: list[WeaponState]
    tactics: list[str] = Field(default_factory=list)
    used_tactics: list[str] = Field(default_factory=list)
    skills: list[str] = Field(default_factory=list)
    used_skills: list[str] = Field(default_factory=list)
    spent_drones: list[str] = Field(default_factory=list)  # deployed once per mission
    devices: list[str] = Field(default_factory=list)
    ability_used: bool = False
    conditions: list[str] = Field(default_factory=list)  # immobilized, paralyzed
    guard: bool = True  # the Guard token is ready (Marine ability)
    guard_order: bool = True  # standing order: fire the Guard reaction when it can
    guard_weapon: str = ""  # standing order: the weapon Guard fires ("" = first that reaches)
    guard_area: bool = False  # standing order: pay the Ammo for Area Damage with it
    guard_boost: int = 0  # standing order: extra Ammo a Guard shot spends for +1 Hit each
    guard_rank: str = ""  # standing order: Guard fires only at aliens of this rank or above
    alien_order: list[str] = Field(default_factory=list)  # standing order: his aliens put first
    # per-turn bookkeeping
    movement: Activity = "unused"
    mp_left: int = 0
    combat_used: bool = False
    action_used: bool = False
    evaded: bool = False
    bonus_dice: dict[str, int] = Field(default_factory=dict)


class AlienState(BaseModel):
    id: str  # "x1", "x2" ... in order of arrival
    card: str
    hex: Coord
    wounds: int = 0
    controller: str
    energy: int = 0
    came_from: str | None = None  # Area it last moved from (for "move back")
    conditions: list[str] = Field(default_factory=list)  # immobilized, paralyzed


class SignalState(BaseModel):
    id: str  # "s1" ...
    token: str  # "alien-3", "human-1": hidden from every view until revealed
    hex: Coord
    came_from: str | None = None


PendingKind = Literal[
    "boost",
    "search",
    "alpha",
    "promote",
    "reinforce",
    "accept",
    "drone-move",
    "drone-attack",
    "revive",
    "deliver",
    "teleport",  # the Alpha Agent picks among equally close hexes for a teleported newcomer
    "grenadier",  # a Grenadier picks the grenade dice he re-rolls
    "sb-device",  # Operation Strikeback: the Alpha Agent hands out a device
    "sb-activate",  # Operation Strikeback: the Alpha Agent breaks an "activate X" tie
    "sb-pick",  # Operation Strikeback: an agent selects a device at a mission's setup
    "sb-recall",  # Operation Strikeback: the Alpha Agent agrees to a Power Suit Recall
    "sb-mission",  # Operation Strikeback: a mission's own prompt (its question in data)
    "sb-armory",  # Operation Strikeback campaign: a weapon from GD Headquarters
]


class Pending(BaseModel):
    """A decision a seat must take in the middle of a resolution."""

    kind: PendingKind
    seat: str
    options: list[str]
    data: dict[str, str | int | list[str]] = Field(default_factory=dict)

    @field_validator("kind", mode="before")
    @classmethod
    def _older_kind(cls, value: object) -> object:
        """An expansion prompt of an older save whose kind this version folded into the
        mission's own prompts is asked as one (its `data["ask"]` still routes the answer)."""
        if (
            isinstance(value, str)
            and value.startswith("sb-")
            and value not in get_args(PendingKind)
        ):
            return "sb-mission"
        return value


class MissionResult(BaseModel):
    """One played mission of a campaign, as the Objectives table judged it."""

    mission: str
    attempt: int
    outcome: str  # accomplished / partial / failed
    text: str
    rounds: int
    kills: int


class CampaignState(BaseModel):
    """The chain of missions played in one game state, and what carries between them."""

    missions: list[str]  # m1 .. m6, from the missions' `next` links
    index: int = 0  # the mission being played
    attempt: int = 1  # a failed mission is replayed once
    results: list[MissionResult] = Field(default_factory=list)
    hq: list[str] = Field(default_factory=list)  # refused weapons kept at GD Headquarters
    offers: list[str] = Field(default_factory=list)  # HQ weapons still to offer this briefing
    over: bool = False  # the final outcome is decided


class ExpansionState(BaseModel):
    """An expansion's own part of a game state. The core carries it without knowing its
    fields; the expansion registers its type (`register_expansion_state`) so a saved game
    loads back into it, and the part is saved with all its fields."""


_EXPANSION_STATES: list[type[ExpansionState]] = []


def register_expansion_state(kind: type[ExpansionState]) -> None:
    """The type a saved game's expansion part loads into (the loaded expansion's)."""
    if kind not in _EXPANSION_STATES:
        _EXPANSION_STATES.append(kind)


class GalaxyState(BaseModel):
    scenario: str
    mission: str = ""  # the mission being played ("" in old saves: the scenario itself)
    campaign: CampaignState | None = None
    seats: list[str]  # clockwise table order
    options: dict[str, str] = Field(default_factory=dict)
    round: int = 0
    phase: Literal["setup", "refresh", "strategy", "agent", "aliens", "event", "ended"] = "setup"
    alpha: str = ""
    turn_order: list[str] = Field(default_factory=list)
    turn_index: int = 0
    agents: dict[str, AgentState] = Field(default_factory=dict)
    aliens: list[AlienState] = Field(default_factory=list)
    signals: list[SignalState] = Field(default_factory=list)
    signal_reserve: list[str] = Field(default_factory=list)
    signal_discard: list[str] = Field(default_factory=list)
    alien_deck: Deck = Field(default_factory=lambda: Deck(name="Alien"))
    ce_deck: Deck = Field(default_factory=lambda: Deck(name="Close Encounter"))
    event_deck: Deck = Field(default_factory=lambda: Deck(name="Event"))
    weather: str | None = None
    alien_tech: int = 0
    tech_from_kills: bool = False
    tech_from_search: bool = False
    kills: int = 0
    kills_this_round: int = 0
    kills_last_round: int = 0
    destroyed_tps: list[str] = Field(default_factory=list)
    rescued: int = 0
    rescued_at: list[Coord] = Field(default_factory=list)
    locked: list[list[Coord]] = Field(default_factory=list)
    next_alien: int = 1
    next_signal: int = 1
    pending: Pending | None = None
    strategy_step: int = 0  # 0 GD-Wings, 1 promotions, 2 revivals, 3 reinforcements
    revivals: list[str] = Field(default_factory=list)  # Inoperative seats still to ask
    promotions: list[str] = Field(default_factory=list)  # seats owed a tactic/skill choice
    outcome: str | None = None
    outcome_text: str = ""
    # the expansion's own part; None in a core game (and then left out of the dump)
    expansion: SerializeAsAny[ExpansionState] | None = None

    @field_validator("expansion", mode="before")
    @classmethod
    def _expansion_part(cls, value: object, info: ValidationInfo) -> object:
        """A saved expansion part loads into the registered expansion's own type; it is told
        the mission being played (an older save may need it to place its fields)."""
        if value is None or isinstance(value, ExpansionState):
            return value
        if not _EXPANSION_STATES:
            raise NotSupportedYet("This saved game needs an expansion that is not loaded.")
        played = info.data.get("mission") or info.data.get("scenario", "")
        return _EXPANSION_STATES[0].model_validate(value, context={"mission": played})
