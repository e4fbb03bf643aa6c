"""The expansion's tokens in play: Mark (8.3), Poison (9.3.2), Critical tokens and piles (8.2)
and the Energy Shield stacks of expansion aliens (11.7). Plain pydantic data, kept in
`GalaxyState.expansion` (None in a core game, and then absent from the saved state).

A storybook mission's own state (its fires, probes, bombs ...) is not a field here: each
mission module defines a `MissionState` of its own and registers it under its mission's key;
`StrikebackState.mission_state` carries it without naming it."""

from __future__ import annotations

from typing import Any, ClassVar, Self, TypeVar

from pydantic import (
    BaseModel,
    Field,
    SerializeAsAny,
    ValidationInfo,
    field_validator,
    model_validator,
)

from engine.galaxy.state import ExpansionState, GalaxyState
from engine.galaxy.strikeback.menace import Menace


class FigureStatus(BaseModel):
    mark: int = 0  # 0, Mark 1 or Mark 2
    poison: int = 0  # 0, Poison 1 or Poison 2
    criticals: list[str] = Field(default_factory=list)  # keys of Critical tokens held


class CriticalPile(BaseModel):
    level: int
    draw: list[str] = Field(default_factory=list)
    discard: list[str] = Field(default_factory=list)


class NpcState(BaseModel):
    """An NPC in play (10): its controller, Tactic token and the controller's orders."""

    controller: str
    tactic: str | None = None  # the NPC Tactic token on its card, until used
    activated: bool = False  # in the controller's current turn
    target: str = "weakest"  # standing order for ties between aliens: weakest/nearest/strongest
    use_tactic: bool = False  # standing order: spend the Tactic in the next activation


class ObjectState(BaseModel):
    """An attackable mission object that does not defend (missions 4: Shield Generators,
    Reinforced Doors): it stands on a map mark and is destroyed at 0 HP."""

    name: str
    mark: str
    hp: int
    group: str  # objects destroyed together trigger the mission's rule (e.g. "generators")
    wounds: int = 0
    destroyed: bool = False


class Activating(BaseModel):
    """An "activate X aliens" card waiting for the Alpha Agent to break a tie at the cut (11.5)."""

    card: str
    chosen: list[str] = Field(default_factory=list)
    choose_from: list[str] = Field(default_factory=list)
    picks: int = 0


class GearState(BaseModel):
    """Powers and items of 9.7-9.9 in play: Psionic Powers held and flipped (9.7.2), the
    Flying granted by a power for one Movement, the Alien Tech and Armory tokens on the map
    and the weapons they triggered (9.9), the expansion's deployed devices (9.7.4)."""

    psionics: dict[str, list[str]] = Field(default_factory=dict)  # agent -> powers held
    used: dict[str, list[str]] = Field(default_factory=dict)  # face down until the Refresh
    spent: dict[str, list[str]] = Field(default_factory=dict)  # once per mission: rotated
    flying: list[str] = Field(default_factory=list)  # agents whose Movement flies this turn
    tokens: dict[str, str] = Field(default_factory=dict)  # hex label -> Alien Tech token kind
    armory: list[str] = Field(default_factory=list)  # weapon tiers owed at Reinforcements


class SuitState(BaseModel):
    """A Power Suit (9.5) in play: empty on a hex, worn by a pilot, or waiting at Headquarters
    for a Recall. Its profile (movement bonus, Energy Shield, weapon, Seize, Flying) is the
    Mark's (`suits.PROFILES`)."""

    id: str  # "suit-1", "suit-2" in order of arrival
    mark: int  # 1 (Mark I) or 2 (Mark II)
    batteries: int  # Energy Batteries (9.4) left on its sheet
    hex: tuple[int, int] | None = None  # where it stands empty (None: worn or at Headquarters)
    pilot: str | None = None  # the agent wearing it
    shields: int = 0  # Energy Shield points left until the next Refresh
    recalled: bool = False  # worn through a Recall this round: he may leave after the Refresh


class MissionState(BaseModel):
    """A storybook mission's own part of the expansion state. Each mission module defines one
    (its `key` is the mission's) and registers it with `register_mission_state`."""

    key: str = ""  # the mission's key (each subclass sets its own)

    # the saved fields an older StrikebackState kept for this mission: at its top level, or
    # inside one of its fields (`legacy_group`)
    legacy_fields: ClassVar[tuple[str, ...]] = ()
    legacy_group: ClassVar[str] = ""

    @classmethod
    def from_legacy(cls, old: dict[str, Any]) -> Self:
        """This part rebuilt from a save made when its fields lived in StrikebackState."""
        source = (old.get(cls.legacy_group) or {}) if cls.legacy_group else old
        return cls.model_validate({k: source[k] for k in cls.legacy_fields if k in source})


_MISSION_STATES: dict[str, type[MissionState]] = {}
Part = TypeVar("Part", bound=MissionState)


def register_mission_state(key: str, kind: type[MissionState]) -> None:
    """The type a mission's saved part loads into (one line in each mission's module)."""
    known = _MISSION_STATES.get(key)
    if known is not None and known is not kind:
        raise ValueError(f"Mission {key!r} registers two state types")
    _MISSION_STATES[key] = kind


def new_mission_state(key: str) -> MissionState | None:
    """A fresh part for this mission (None: the mission keeps no state of its own)."""
    kind = _MISSION_STATES.get(key)
    return kind() if kind is not None else None


class StrikebackState(ExpansionState):
    high_impact: bool = True
    figures: dict[str, FigureStatus] = Field(default_factory=dict)  # agent or alien id
    stacks: dict[str, list[int]] = Field(default_factory=dict)  # alien id -> shields left
    piles: dict[str, CriticalPile] = Field(default_factory=dict)  # "1", "2"
    poses: dict[str, str] = Field(default_factory=dict)  # agent id -> crouching / prone
    npc_deck: list[str] = Field(default_factory=list)
    npc_discard: list[str] = Field(default_factory=list)
    npc_tactics: list[str] = Field(default_factory=list)  # NPC Tactic tokens not on a card
    npcs: dict[str, NpcState] = Field(default_factory=dict)  # NPC figure id -> its state
    # mission play (storybook 7)
    hidden_tps: list[str] = Field(default_factory=list)  # Points an event has not placed yet
    devices: dict[str, list[str]] = Field(default_factory=dict)  # agent -> expansion devices
    asks: list[str] = Field(default_factory=list)  # choices queued for the Alpha Agent
    objects: dict[str, ObjectState] = Field(default_factory=dict)  # mission objects by id
    blocks: dict[str, list[list[tuple[int, int]]]] = Field(default_factory=dict)  # token -> sides
    swarms: dict[str, str] = Field(default_factory=dict)  # Prime Swarm figure -> its partner
    # Master Aliens (11.3) and multi-hex aliens (11.8)
    menace: Menace | None = None  # the Menace token while a Master Alien is in play
    bodies: dict[str, list[tuple[int, int]]] = Field(default_factory=dict)  # alien -> other hexes
    master_down: str = ""  # a mission's Special Event that a fallen Stage I brings ("" : flip)
    held: list[str] = Field(default_factory=list)  # Masters at 0 HP that fight on this round
    activating: Activating | None = None  # an "activate X" card waiting for a tie-break
    # the previous campaign mission's result (storybook 2.5): accomplished / partial / failed;
    # None in a standalone mission and the campaign's first
    previous: str | None = None
    # the Strikeback campaign's GD Headquarters pick at a mission's start (storybook 2.1)
    armory_open: bool = False  # the pick has begun this mission
    armory: list[str] = Field(default_factory=list)  # agents still to pick, in order
    armory_picks: dict[str, int] = Field(default_factory=dict)  # agent -> weapons picked
    gear: GearState = Field(default_factory=GearState)  # 9.7-9.9 powers and items
    # Power Suits (9.5): on the battlefield and waiting at Headquarters for a Recall
    suits: dict[str, SuitState] = Field(default_factory=dict)
    headquarters: list[SuitState] = Field(default_factory=list)
    carrying: dict[str, str] = Field(default_factory=dict)  # seizing agent -> seized agent (7.3)
    seized_this_turn: list[str] = Field(default_factory=list)  # agents who seized this turn
    recall_refused: list[str] = Field(default_factory=list)  # the Alpha said no this turn
    # the mission being played: its own state, by its registered type (None: it keeps none)
    mission_state: SerializeAsAny[MissionState] | None = None

    @field_validator("mission_state", mode="before")
    @classmethod
    def _mission_part(cls, value: object) -> object:
        """A saved mission part loads into its mission's registered type."""
        if value is None or isinstance(value, MissionState):
            return value
        assert isinstance(value, dict)
        kind = _MISSION_STATES.get(str(value.get("key")))
        if kind is None:
            raise ValueError(f"No mission registers the saved state {value.get('key')!r}")
        return kind.model_validate(value)

    @model_validator(mode="before")
    @classmethod
    def _older_save(cls, data: object, info: ValidationInfo) -> object:
        """A save from before missions kept their own state: the mission's fields move from
        the top level into its part (the loader says which mission is played)."""
        if not isinstance(data, dict) or "mission_state" in data or not info.context:
            return data
        kind = _MISSION_STATES.get(str(info.context.get("mission", "")))
        if kind is None:
            return data
        kept = {k: v for k, v in data.items() if k in cls.model_fields}
        return kept | {"mission_state": kind.from_legacy(data)}


def sb_state_or_none(state: GalaxyState) -> StrikebackState | None:
    """The state's Operation Strikeback part (None in a core game)."""
    part = state.expansion
    assert part is None or isinstance(part, StrikebackState)
    return part


def sb_state(state: GalaxyState) -> StrikebackState:
    """The state's Operation Strikeback part, where the game plays the expansion's rules."""
    part = state.expansion
    assert isinstance(part, StrikebackState)
    return part


def mission_part(state: GalaxyState, kind: type[Part]) -> Part:
    """The mission's own part of the state, of its registered type (made empty if absent)."""
    layer = sb_state(state)
    part = layer.mission_state
    if part is None:
        part = layer.mission_state = kind()
    assert isinstance(part, kind), f"the state holds {part.key}'s part, not {kind.__name__}"
    return part


def tie_broken(state: GalaxyState) -> None:
    """The Alpha Agent has picked the aliens an "activate X" card activates."""
    sb_state(state).activating = None
