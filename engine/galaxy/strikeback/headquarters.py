"""GD Headquarters in an Operation Strikeback campaign (storybook 5.3): the weapons still to
research and the ones that wait there. Below the campaign and the Alien Tech tokens, which
both hand weapons out."""

from __future__ import annotations

from engine.core.events import Event, Note
from engine.galaxy.content import content
from engine.galaxy.state import GalaxyState
from engine.galaxy.strikeback.arsenal import weapons as expansion_weapons
from engine.galaxy.strikeback.layer import EXPANSION
from engine.galaxy.world import weapon


def active(state: GalaxyState) -> bool:
    """A Strikeback campaign is being played."""
    return state.campaign is not None and state.options.get("expansion") == EXPANSION


def weapon_pool(state: GalaxyState, tier: str = "improved") -> list[str]:
    """5.3: every Improved weapon not carried and not at GD Headquarters, whatever the classes
    in play; the Alien weapons when no Improved one is left (`tier="alien"`: Alien ones only,
    for a Red Armory or a mission's new Alien weapon)."""

    camp = state.campaign
    assert camp is not None
    held = {w.key for a in state.agents.values() for w in a.weapons} | set(camp.hq)
    every = [*content().weapons.values(), *expansion_weapons().values()]
    tiers = ("improved", "alien") if tier == "improved" else ("alien",)
    for one in tiers:
        pool = sorted(w.key for w in every if w.tier == one and w.key not in held)
        if pool:
            return pool
    return []


def keep_at_headquarters(state: GalaxyState, key: str, events: list[Event]) -> None:
    camp = state.campaign
    assert camp is not None
    camp.hq.append(key)
    events.append(
        Note(text=f"No agent on the map takes the {weapon(key).name}: it waits at GD Headquarters.")
    )
