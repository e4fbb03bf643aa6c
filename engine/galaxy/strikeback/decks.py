"""The expansion's Close Encounter (24, `content/close_encounters/expansion.json`, loaded with
the missions by `missions.py`) and Event (15, `content/events.json`) cards, ours, and what a
Close Encounter card activates under the expansion (11.5).

Missions name the cards by id: a Close Encounter card `os-NN` carries the number the storybook
gives it (`os-11a`/`os-11b`, `os-28a`/`os-28b` and `os-29a`/`os-29b` are the two copies of
#11, #28 and #29); the Event cards are `os-f1` .. `os-t1`. A card's `match` is one of:

- `all`, `rank` (green/blue/red/purple), `species`, `power`, `wounded`, `healthy` (no wound),
  `position` (`engaged`: adjacent to an agent, drone or NPC; `lurking`: adjacent to none):
  every alien that fits is activated, as in the core game;
- `alpha`: the aliens assigned to the Alpha Agent;
- `count` (1, 2, 3 or `agents`, the number of agents in play, drones and NPCs not counted):
  "activate X aliens", chosen by `activation.select_x`.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from engine.core.content import ContentFile, load_file
from engine.core.errors import ContentError
from engine.galaxy.content import CloseEncounter, EventCard, content
from engine.galaxy.strikeback.burrowing import Activation

CONTENT = Path(__file__).parent / "content" / "events.json"  # the Close Encounters: missions.py
BOX_ENCOUNTERS = 24  # component list: Close Encounters Cards (24)
BOX_EVENTS = 15  # component list: Event Cards (15)
MATCHES = {"all", "rank", "species", "power", "wounded", "healthy", "position", "alpha", "count"}
POSITIONS = ("engaged", "lurking")


class ExpansionEncounter(CloseEncounter):
    number: int  # the number the storybook and rulebook call the card by


class EventsFile(ContentFile):
    events: list[EventCard]


@cache
def _events() -> dict[str, EventCard]:
    evs = {c.id: c for c in load_file(CONTENT, EventsFile).events}
    if len(evs) != BOX_EVENTS:
        raise ContentError(f"Operation Strikeback: the box holds {BOX_EVENTS} Event cards")
    core = content()
    for ev in evs.values():
        if ev.id in core.events or ev.type == "special":
            raise ContentError(f"Event {ev.id}: a clash with the core box or a Special Event")
        if ev.teleport is not None and len(ev.teleport) != 5:
            raise ContentError(f"Event {ev.id}: the Signal Teleport Table needs 5 entries")
    return evs


def check_encounters(ces: dict[str, ExpansionEncounter]) -> None:
    """The box's Close Encounter cards, checked when `missions.py` loads them."""
    if len(ces) != BOX_ENCOUNTERS:
        raise ContentError(f"Operation Strikeback: the box holds {BOX_ENCOUNTERS} Close Encounters")
    core = content()
    for ce in ces.values():
        if ce.id in core.close_encounters or len(ce.match) != 1 or not set(ce.match) <= MATCHES:
            raise ContentError(f"Close Encounter {ce.id}: a clash with the core box or a bad match")
        _check_match(ce.id, ce.match)


def _check_match(card_id: str, match: dict[str, Any]) -> None:
    value = next(iter(match.values()))
    if "count" in match and value not in (1, 2, 3, "agents"):
        raise ContentError(f"Close Encounter {card_id}: count is 1, 2, 3 or 'agents'")
    if "position" in match and value not in POSITIONS:
        raise ContentError(f"Close Encounter {card_id}: unknown position {value}")
    if "rank" in match and value not in ("green", "blue", "red", "purple"):
        raise ContentError(f"Close Encounter {card_id}: unknown rank {value}")


def encounters() -> dict[str, ExpansionEncounter]:
    from engine.galaxy.strikeback.missions import expansion_encounters

    return expansion_encounters()


def events() -> dict[str, EventCard]:
    return _events()


def is_count(match: dict[str, Any]) -> bool:
    """An "activate X aliens" or "the Alpha Agent's aliens" card (chosen, not matched)."""
    return "count" in match or "alpha" in match


def activation(card: CloseEncounter) -> Activation:
    """The card in the terms of the Burrowing check (7.2.1): what kind of activation it is."""
    match = card.match
    if match.get("all"):
        return Activation("all")
    if "alpha" in match:
        return Activation("alpha")
    if "count" in match:
        value = match["count"]
        return Activation("count-agents" if value == "agents" else "count", str(value))
    if "rank" in match and "species" not in match:
        return Activation("color", str(match["rank"]))
    if "species" in match:
        return Activation("species", str(match["species"]))
    if "power" in match:
        return Activation("power", str(match["power"]))
    if "position" in match:
        return Activation("position", str(match["position"]))
    if match.get("wounded"):
        return Activation("health", "wounded")
    if match.get("healthy"):
        return Activation("health", "healthy")
    raise ContentError(f"Close Encounter {card.id}: no activation kind for {match}")
