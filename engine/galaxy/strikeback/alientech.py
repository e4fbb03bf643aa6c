"""Alien Tech (9.9) and the storybook's Special Tokens that feed it (storybook 3).

A mission places tokens on hexes with `place(state, hex, kind)`; the first agent who reaches
one (steps onto its hex, however he moves) discards it and the team gains at once:

- `alien-tech`: one Alien Tech fragment, unless the team already has four;
- `alien-tech-2`: two fragments, up to four (what would go past four is ignored);
- `blue-armory`: a new Improved Weapon (an Alien Weapon once every Improved Weapon is
  researched), sent at the Reinforcements of the next Strategy phase;
- `red-armory`: a new Alien Weapon (nothing once every Alien Weapon is researched), sent the
  same way.

These fragments come on top of the core ways (the first kill of a round, a Search), whose
once-per-round limits they do not touch. An Armory weapon is drawn at random from the weapons
not yet researched (in use or at Headquarters) that fit the classes in play, as storybook 5.3
randomizes a new weapon, and handed, with full Ammo, to an agent on the map: the Alpha Agent
chooses who when there is a choice, and the receiving agent chooses which weapon it replaces
or refuses it (the core Reinforcements prompts).
"""

from __future__ import annotations

from engine.core.dice import Dice
from engine.core.events import Event, Note
from engine.core.game import Action
from engine.core.hexgrid import Hex
from engine.core.words import counted
from engine.galaxy.board import label
from engine.galaxy.state import AgentState, GalaxyState, Pending
from engine.galaxy.strikeback import headquarters
from engine.galaxy.strikeback.status import GearState, sb_state, sb_state_or_none
from engine.galaxy.supply import deliver, delivery_takers, weapon_pool
from engine.galaxy.world import agent_name, hx, weapon

KINDS = {
    "alien-tech": "Alien Tech fragment",
    "alien-tech-2": "2x Alien Tech fragment",
    "blue-armory": "Blue Armory",
    "red-armory": "Red Armory",
}
SHORT = {"alien-tech": "AT", "alien-tech-2": "AT2", "blue-armory": "BA", "red-armory": "RA"}
MAX_FRAGMENTS = 4


def gear(state: GalaxyState) -> GearState:
    assert sb_state_or_none(state) is not None
    return sb_state(state).gear


def place(state: GalaxyState, h: Hex, kind: str) -> None:
    """A mission puts a Special Token on the map."""
    if kind not in KINDS:
        raise ValueError(f"unknown Alien Tech token {kind}")
    gear(state).tokens[label(h)] = kind


def gain(state: GalaxyState, count: int, events: list[Event]) -> int:
    """The team gains up to `count` fragments without going past four; returns how many."""
    got = max(0, min(count, MAX_FRAGMENTS - state.alien_tech))
    state.alien_tech += got
    if got:
        events.append(Note(text=f"Alien Tech: +{counted(got, 'fragment')} ({state.alien_tech}/4)."))
    else:
        events.append(Note(text="Alien Tech: the team already holds four fragments."))
    return got


def reached(state: GalaxyState, agent: AgentState, events: list[Event]) -> None:
    """An agent (not a drone) steps onto a hex: a token there is taken and discarded."""
    if sb_state_or_none(state) is None or agent.hex is None or agent.drone_of is not None:
        return
    kind = gear(state).tokens.pop(label(hx(agent.hex)), None)
    if kind is None:
        return
    events.append(Note(text=f"{agent_name(agent)} reaches the {KINDS[kind]} token."))
    if kind == "alien-tech":
        gain(state, 1, events)
    elif kind == "alien-tech-2":
        gain(state, 2, events)
    else:
        tier = "improved" if kind == "blue-armory" else "alien"
        gear(state).armory.append(tier)
        events.append(
            Note(
                text=f"The Armory researches a new {tier.title()} Weapon: it arrives at the "
                "next Reinforcements."
            )
        )


def owed_weapon(state: GalaxyState, tier: str) -> str | None:
    """Which tier an Armory trigger delivers now (None: nothing is left to research)."""

    if tier == "improved" and weapon_pool(state, "improved"):
        return "improved"
    if weapon_pool(state, "alien"):
        return "alien"
    return None


def deliver_armory(state: GalaxyState, dice: Dice, events: list[Event]) -> bool:
    """Reinforcements: send the next weapon an Armory token triggered (True when a prompt
    opened or a weapon went out; False when none is owed)."""

    queue = gear(state).armory
    while queue:
        asked = queue.pop(0)
        tier = owed_weapon(state, asked)
        if headquarters.active(state):  # storybook 5.3's draw: any class, the core's and ours
            tier = asked if headquarters.weapon_pool(state, asked) else None
        if tier is None:
            events.append(Note(text="Armory: every weapon is researched already; nothing comes."))
            continue
        pool = weapon_pool(state, tier)
        if headquarters.active(state):
            pool = headquarters.weapon_pool(state, tier)
        key = pool[dice.randrange(len(pool))]
        takers = delivery_takers(state, key)
        if not takers and headquarters.active(state):
            headquarters.keep_at_headquarters(state, key, events)
            continue
        if not takers:
            continue
        events.append(
            Note(
                text=f"Armory delivery: a new {weapon(key).tier.title()} Weapon, the "
                f"{weapon(key).name}."
            )
        )
        if len(takers) == 1:
            deliver(state, takers[0], key, events)
        else:
            state.pending = Pending(
                kind="deliver", seat=state.alpha, options=takers, data={"item": key}
            )
            events.append(Note(text="The Alpha Agent chooses who gets it."))
        return True
    return False


def tokens(state: GalaxyState) -> list[tuple[str, str]]:
    """(hex label, kind) of the tokens on the map, for the view."""
    if sb_state_or_none(state) is None:
        return []
    return sorted(gear(state).tokens.items())


def advice(state: GalaxyState, agent: AgentState, actions: list[Action]) -> Action | None:
    """The advisor walks onto a token it can reach this Movement."""
    spots = {h for h, _ in tokens(state)}
    for action in actions:
        if action.verb == "move" and action.args.get("to", "").upper() in spots:
            return action
    return None
