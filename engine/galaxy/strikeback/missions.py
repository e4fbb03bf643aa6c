"""The Operation Strikeback missions (storybook 7) in the core mission format, plus what the
storybook adds: an ordered Event deck built from stacks (2.2), the NPC deck's order, and
Teleport Points that only an event puts on the map. Loaded and checked once.

One file per mission in `content/missions/` (its name is the mission's key); the mission's
own rules (Special Event effects, special actions, objective conditions) live in
`mission_rules/<key>.py`. The expansion's Close Encounter cards are in
`content/close_encounters/*.json` (several files, one id each at most)."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Literal

from pydantic import Field

from engine.core.content import ContentFile, load_file
from engine.core.errors import ContentError
from engine.galaxy.board import load_map
from engine.galaxy.content import CloseEncounter, Mission, alien_card, content
from engine.galaxy.strikeback.decks import ExpansionEncounter, check_encounters, events
from engine.galaxy.strikeback.mission_rules import GENERIC_EFFECTS, NO_RULES, rules_for
from engine.galaxy.strikeback.npc import cards as npc_cards

CONTENT = Path(__file__).parent / "content"
CONDITIONS = ("dead>=half", "round>", "all-dead")  # every mission's; the rest are its rules'
# the storybook's missions, in order: one content file each, named by its key
STORYBOOK = tuple(sorted(path.stem for path in (CONTENT / "missions").glob("*.json")))
RESULTS = ("accomplished", "partial", "failed")


class ExpansionMission(Mission):
    stacks: list[list[str]] = Field(default_factory=list)  # the Event deck, top stack first
    npc_deck: list[str] = Field(default_factory=list)  # top first
    hidden_tps: list[str] = Field(default_factory=list)  # Teleport Points an event places
    # the Objectives table's last column (storybook 2.4): result -> the next mission of the
    # campaign (None: the campaign ends after it)
    branches: dict[str, str | None] = Field(default_factory=dict)
    # the briefing's weapons (storybook 2.1): at most this many Improved / Alien weapons from
    # GD Headquarters at the start of a campaign mission
    weapon_limits: dict[str, int] = Field(default_factory=dict)
    # Briefing (storybook 2.1): the standalone GD-Wings rank (9.8; a campaign carries its own)
    rank: Literal["gold", "earth", "moon"] | None = None
    # Briefing "Devices: N per agent" when the agents select them at setup (handouts.py);
    # 0 when a kit or an event hands them out
    device_picks: int = 0
    # how the mission's own rules play, in our words, for the briefing (one line each)
    guide: list[str] = Field(default_factory=list)


class EncountersFile(ContentFile):
    close_encounters: list[ExpansionEncounter]


@cache
def _load() -> tuple[dict[str, ExpansionMission], dict[str, ExpansionEncounter]]:
    missions: dict[str, ExpansionMission] = {}
    for path in sorted((CONTENT / "missions").glob("*.json")):
        mission = load_file(path, ExpansionMission)
        if mission.key != path.stem:
            raise ContentError(f"{path.name} holds mission {mission.key}")
        missions[mission.key] = mission
    cards: dict[str, ExpansionEncounter] = {}
    for path in sorted((CONTENT / "close_encounters").glob("*.json")):
        for card in load_file(path, EncountersFile).close_encounters:
            if card.id in cards:
                raise ContentError(f"Close Encounter {card.id} is defined twice")
            cards[card.id] = card
    check_encounters(cards)
    for mission in missions.values():
        _check(mission)
    return missions, cards


def _check(mission: ExpansionMission) -> None:
    rules = rules_for(mission.key)

    board = load_map(mission.map)
    specials = {s.id for s in mission.special_events}
    for stack in mission.stacks:
        for card_id in stack:
            known = card_id in content().events or card_id in events()
            if card_id not in specials and not known:
                raise ContentError(f"mission {mission.key}: unknown Event card {card_id}")
    for card_id in mission.alien_deck:
        alien_card(card_id)
    if any(n not in npc_cards() for n in mission.npc_deck):
        raise ContentError(f"mission {mission.key}: unknown NPC card")
    if any(s not in board.teleports for s in mission.hidden_tps):
        raise ContentError(f"mission {mission.key}: hidden Teleport Point not on the map")
    for special in mission.special_events:
        if any(result not in RESULTS for result in special.if_previous):
            raise ContentError(f"mission {mission.key}: {special.id}: unknown previous result")
        for effect in [special.effects, *special.if_previous.values()]:
            for one in effect:
                kind = one.get("sb")
                if kind is not None and kind not in GENERIC_EFFECTS and kind not in rules.effects:
                    raise ContentError(
                        f"mission {mission.key}: unknown Special Event effect {kind}"
                    )
    for objective in mission.objectives:
        if any(not c.startswith(CONDITIONS + rules.conditions) for c in objective.when):
            raise ContentError(f"mission {mission.key}: unknown condition {objective.when}")
    if not any(o.when == [f"round>{mission.rounds}"] for o in mission.objectives):
        raise ContentError(f"mission {mission.key}: no row ends it after round {mission.rounds}")
    if rules is NO_RULES:
        raise ContentError(f"mission {mission.key}: no mission module registers its rules")
    for judged in {o.result for o in mission.objectives}:
        if judged not in mission.branches:
            raise ContentError(f"mission {mission.key}: no next mission after {judged}")
    for result, nxt in mission.branches.items():
        if result not in RESULTS or (nxt is not None and nxt not in STORYBOOK):
            raise ContentError(f"mission {mission.key}: bad branch {result} -> {nxt}")
    if set(mission.weapon_limits) - {"improved", "alien"}:
        raise ContentError(f"mission {mission.key}: weapon_limits takes improved and alien")


def missions() -> dict[str, ExpansionMission]:
    return _load()[0]


def expansion_encounters() -> dict[str, ExpansionEncounter]:
    return _load()[1]


def close_encounters() -> dict[str, CloseEncounter]:
    """Every Close Encounter card of the expansion (the box's 24: `decks.encounters`)."""
    return dict(_load()[1])
