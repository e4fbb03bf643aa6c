"""Attackable mission objects that do not defend (storybook 7, mission 4: the Shield Generators
on Waypoints 1-2, 5 HP, and the Reinforced Doors on Waypoints 3-4, 10 HP), and the BLOCK
tokens that close door sides until a mission rule removes them.

An object stands on a map mark. Agents attack it with the normal attack
(`/attack target:<object> weapon:<key>`), with the weapon's range, sight and Ammo/Jam rules;
it may be attacked only while no alien stands on its hex. It does not defend: every Hit is a
wound, and at 0 HP it is destroyed (a FLAME token marks it). The mission's rules hear of it
through `MissionRules.object_destroyed`.

BLOCK tokens (`StrikebackState.blocks`, token -> door sides) are closed door sides listed in
the engine's `state.locked` (so walking, sight and the aliens' paths treat them as shut) that
an agent cannot bash open.
"""

from __future__ import annotations

from engine.core.dice import Dice
from engine.core.errors import RuleError
from engine.core.events import Attacked, Event, Note
from engine.core.game import Action
from engine.core.hexgrid import Hex
from engine.core.words import counted
from engine.galaxy import combat
from engine.galaxy import dice as gdice
from engine.galaxy.board import label
from engine.galaxy.state import AgentState, GalaxyState
from engine.galaxy.strikeback import combat as expansion
from engine.galaxy.strikeback import play, poses
from engine.galaxy.strikeback.lookups import penalty
from engine.galaxy.strikeback.status import ObjectState, StrikebackState, sb_state, sb_state_or_none
from engine.galaxy.world import (
    adjacent,
    agent_name,
    agent_sees,
    alien_at,
    area_distance,
    board_of,
    co,
    sees,
    weapon,
)


def sb(state: GalaxyState) -> StrikebackState:
    return sb_state(state)


def where(state: GalaxyState, obj: ObjectState) -> Hex:
    for h, mark in board_of(state).marks.items():
        if mark == obj.mark:
            return h
    raise RuleError(f"The map has no mark {obj.mark}.")


def add(
    state: GalaxyState, key: str, name: str, mark: str, hp: int, group: str, events: list[Event]
) -> None:
    obj = ObjectState(name=name, mark=mark, hp=hp, group=group)
    sb(state).objects[key] = obj
    events.append(Note(text=f"{name} ({hp} HP) stands at {label(where(state, obj))}."))


def standing(state: GalaxyState) -> dict[str, ObjectState]:
    if sb_state_or_none(state) is None:
        return {}
    return {k: o for k, o in sb_state(state).objects.items() if not o.destroyed}


def is_object(state: GalaxyState, target: str) -> bool:
    return target.lower() in standing(state)


def attack_problem(state: GalaxyState, agent: AgentState, index: int, key: str) -> str | None:
    """Why this weapon cannot be fired at this object now (None when it can)."""
    obj = standing(state).get(key)
    if obj is None:
        return "must name a standing mission object"
    ws = agent.weapons[index]
    w = weapon(ws.key)
    if agent.hex is None:
        return "is not on the battlefield"
    if w.kind == "healing":
        return f"cannot attack an object with the {w.name}"
    if ws.jammed:
        return f"cannot fire the {w.name}: it is Jammed (Unjam it first)"
    if w.kind != "melee" and w.tier != "alien" and w.ammo > 0 and ws.ammo < 1:
        return f"has no Ammo left for the {w.name}"
    spot = where(state, obj)
    if alien_at(state, spot) is not None:
        return f"cannot attack the {obj.name}: an alien stands over it"
    if state.options.get("close-fight") == "on" and any(
        adjacent(state, agent.hex, a.hex) for a in state.aliens
    ):
        return "is Engaged: with Close Fight on he may only attack the aliens he is Engaged with"
    if co(spot) != agent.hex and not sees(state, agent.hex, co(spot)):
        return "has no line of sight to the target"
    if co(spot) != agent.hex and not agent_sees(state, agent, co(spot)):
        return "must face the target: with Human View only the 3 front hexes count"
    if w.kind == "melee":
        if co(spot) != agent.hex and not adjacent(state, agent.hex, co(spot)):
            return f"must be adjacent to strike with the {w.name}"
    elif area_distance(state, agent.hex, co(spot)) > w.range:
        return f"is out of range: the {w.name} reaches {counted(w.range, 'Area')}"
    return None


def legal_attacks(state: GalaxyState, agent: AgentState) -> list[Action]:
    out: list[Action] = []
    for key, obj in standing(state).items():
        for index, ws in enumerate(agent.weapons):
            if attack_problem(state, agent, index, key) is None:
                out.append(
                    Action(
                        verb="attack",
                        args={"unit": agent.id, "target": key, "weapon": ws.key},
                        label=f"{weapon(ws.key).name} at the {obj.name}",
                    )
                )
    return out


def attack(
    state: GalaxyState, agent: AgentState, index: int, key: str, dice: Dice, events: list[Event]
) -> None:
    """The agent's normal attack on an object: the Hit roll as usual, no Defend roll."""

    problem = attack_problem(state, agent, index, key)
    if problem:
        raise RuleError(f"{agent_name(agent)} {problem}.")
    obj = standing(state)[key]
    ws = agent.weapons[index]
    w = weapon(ws.key)
    assert agent.hex is not None
    count = w.dice + agent.bonus_dice.pop("melee" if w.kind == "melee" else "ranged", 0)
    count += agent.bonus_dice.pop("any", 0)
    far = area_distance(state, agent.hex, co(where(state, obj))) >= 2
    if state.weather == "darkness" and w.kind == "ranged" and far:
        count = max(1, count - 1)
    count = max(0, count - penalty(state, agent.id, "atk"))
    count += poses.attack_dice(state, agent, w.kind)
    alien_tech = w.tier == "alien" and "alien-knowledge" not in agent.skills
    roll = combat.hit_roll(dice, w.color, count, alien_tech=alien_tech)
    if expansion.bolts_blocked(state, agent.id):
        roll.bolt = False
    notes: list[str] = []
    if w.kind != "melee" and w.tier != "alien" and w.ammo > 0:
        if "auto-ammo" in w.powers:
            ws.ammo = max(0, ws.ammo - 1)
            notes.append("1 Ammo spent automatically")
        elif roll.ammo and ws.ammo > 0:
            ws.ammo -= 1
            notes.append("Ammo result: 1 Ammo discarded")
        if roll.jam and "no-jam" not in w.powers:
            ws.jammed = True
            notes.append(f"Jam result: the {w.name} jams after this attack")
    hits = roll.hits + (1 if roll.bolt and w.bolt in ("hit+1", "heal+1") else 0)
    if roll.fail:
        hits = 0
        notes.append("Alien Weapon without Alien Knowledge: the attack fails")
    agent.combat_used = True
    if agent.movement == "open":
        agent.movement = "closed"
    obj.wounds += hits
    left = max(0, obj.hp - obj.wounds)
    events.append(
        Attacked(
            attacker=agent.id,
            target=key,
            weapon=w.name,
            faces=gdice.describe(w.color, roll.faces),
            hits=hits,
            result="; ".join(notes),
            text=f"{agent_name(agent)} attacks the {obj.name} with the {w.name}: "
            f"{combat.roll_text(w.color, roll.faces)} - {counted(hits, 'Hit')}, it does not defend "
            f"({left}/{obj.hp} HP left)" + (f" ({'; '.join(notes)})" if notes else "") + ".",
        )
    )
    if obj.wounds >= obj.hp:
        obj.destroyed = True
        events.append(
            Note(text=f"The {obj.name} is destroyed: a FLAME token marks {obj.mark.upper()}.")
        )
        play.rules(state).object_destroyed(state, key, dice, events)


def group_down(state: GalaxyState, group: str) -> bool:
    found = [o for o in sb(state).objects.values() if o.group == group]
    return bool(found) and all(o.destroyed for o in found)


# -- BLOCK tokens --------------------------------------------------------------------------------


def close(state: GalaxyState, token: str, sides: list[tuple[Hex, Hex]]) -> None:
    """Put a BLOCK (or overlay) on door sides: shut until `open_block`."""
    pairs = [[co(a), co(b)] for a, b in sides]
    sb(state).blocks[token] = pairs
    for pair in pairs:
        if pair not in state.locked and pair[::-1] not in state.locked:
            state.locked.append(pair)


def open_block(state: GalaxyState, token: str) -> None:
    for pair in sb(state).blocks.pop(token, []):
        for held in (pair, pair[::-1]):
            if held in state.locked:
                state.locked.remove(held)


def blocked(state: GalaxyState, pair: list[tuple[int, int]]) -> bool:
    """Whether this locked side is held by a BLOCK token (no Bash opens it)."""
    if sb_state_or_none(state) is None:
        return False
    sides = [p for pairs in sb_state(state).blocks.values() for p in pairs]
    return [tuple(x) for x in pair] in [[tuple(x) for x in p] for p in sides] or [
        tuple(x) for x in pair[::-1]
    ] in [[tuple(x) for x in p] for p in sides]
