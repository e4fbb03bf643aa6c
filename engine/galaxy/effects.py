"""Effects shared by tactics, skills and devices: each card names one effect string in its
data (`move+2`, `heal-other+1`, `unjam`, ...) and this module checks and applies it, so a new
card is a new line of data over an effect kind that is implemented and tested here."""

from __future__ import annotations

from engine.core.errors import RuleError
from engine.core.events import Event, Note
from engine.core.words import counted
from engine.galaxy import combat
from engine.galaxy.state import AgentState, GalaxyState
from engine.galaxy.world import adjacent, agent_name, engaged, find_agent, immobilized, weapon


def amount(effect: str) -> int:
    _, _, number = effect.partition("+")
    return int(number) if number else 0


def keeps_movement_open(effect: str) -> bool:
    """Effects that feed the Movement or the coming attack leave the Movement open."""
    return effect.startswith(("move+", "dice-", "disengage"))


def effect_problem(state: GalaxyState, agent: AgentState, effect: str) -> str | None:
    """Why the effect cannot be used now (before choosing a target), or None."""
    word = effect.partition("+")[0]
    if word == "move" and immobilized(agent):
        return "is Immobilized: he has no Movement to add to"
    if word == "move" and agent.movement == "closed":
        return "has finished his Movement"
    if word == "heal-self" and not agent.wounds:
        return "has no Wound to heal"
    if word.startswith("dice") and (agent.combat_used or agent.bleeding):
        return "has no attack left this turn"
    if word in ("ammo", "reload-all") and all(
        ws.ammo >= weapon(ws.key).ammo for ws in agent.weapons
    ):
        return "has full Ammo"
    if word == "unjam" and not any(ws.jammed for ws in agent.weapons):
        return "has no jammed weapon"
    if word == "disengage" and (not engaged(state, agent) or agent.evaded):
        return "is not held in melee"
    return None


def heal_targets(state: GalaxyState, agent: AgentState, effect: str) -> list[AgentState]:
    """Wounded agents a healing effect can reach (itself too for `heal+`)."""
    if agent.hex is None:
        return []
    out = []
    for other in state.agents.values():
        if other.hex is None or other.dead or other.drone_of or not other.wounds:
            continue
        if other.id == agent.id:
            if effect.startswith("heal+"):
                out.append(other)
        elif adjacent(state, agent.hex, other.hex):
            out.append(other)
    return out


def apply_effect(
    state: GalaxyState,
    agent: AgentState,
    effect: str,
    target: str,
    name: str,
    events: list[Event],
) -> None:
    """Apply one effect (already checked by `effect_problem`); raises RuleError for a bad
    target and then changes nothing."""
    word = effect.partition("+")[0]
    n = amount(effect)
    who = agent_name(agent)
    if word == "move":
        agent.mp_left += n
        text = f"{who} uses {name}: +{n} Movement."
    elif word == "heal-self":
        healed = combat.heal_agent(agent, n)
        text = f"{who} uses {name}: {counted(healed, 'Wound')} removed."
    elif word in ("heal-other", "heal"):
        patient = find_agent(state, target or agent.id)
        if patient not in heal_targets(state, agent, effect):
            reach = "yourself or an adjacent agent" if word == "heal" else "an adjacent agent"
            raise RuleError(f"{name} needs a wounded target: {reach}.")
        healed = combat.heal_agent(patient, n)
        text = f"{who} uses {name}: {agent_name(patient)} heals {counted(healed, 'Wound')}."
    elif word.startswith("dice"):
        kind = word.split("-")[1]
        agent.bonus_dice[kind] = agent.bonus_dice.get(kind, 0) + n
        attack = "attack" if kind == "any" else f"{kind} attack"
        text = f"{who} uses {name}: +{n} Hit die on the next {attack} this turn."
    elif word == "ammo":
        ws = next(w for w in agent.weapons if w.ammo < weapon(w.key).ammo)
        ws.ammo = min(weapon(ws.key).ammo, ws.ammo + n)
        text = f"{who} uses {name}: the {weapon(ws.key).name} has {ws.ammo} Ammo."
    elif word == "reload-all":
        for ws in agent.weapons:
            ws.ammo = min(weapon(ws.key).ammo, ws.ammo + n)
        text = f"{who} uses {name}: up to {n} Ammo back on each weapon."
    elif word == "energy":
        agent.energy += n
        text = f"{who} uses {name}: +{n} Energy Shield until the next Refresh phase."
    elif word == "unjam":
        for ws in agent.weapons:
            ws.jammed = False
        text = f"{who} uses {name}: every weapon is cleared."
    elif word == "disengage":
        agent.evaded = True
        text = f"{who} uses {name}: he breaks off the melee and may move."
    else:
        raise RuleError(f"{name} is not used with an Action.")
    events.append(Note(text=text))
