"""The expansion's devices (9.7.4): 16 tokens, ours except what the rulebook describes.

An agent uses one with his Action (`/act what:<device>`); it is discarded after use unless its
token says "do not discard after use" (`keep`). The tokens (`content/devices.json`):

- Harpoon (2 RED dice, Immobilizes on a Hit) and 2 Jet Boots (fly 3 hexes), as mission 1
  hands them out;
- Hologram (9.7.4.1): a decoy on an empty hex within 1 Area; aliens take it for an agent; it
  never moves or attacks and is destroyed as soon as it is attacked;
- Vigil (9.7.4.2) and GD-5 (9.7.4.3, Biotech only): battle drones deployed next to the agent;
  from his next turn his Action makes one move and fire (the core GD-209's prompts). Vigil
  flies over Barrier sides; every GD-5 attack deals Area Damage (no Ammo paid for it). Both
  never jam, never regain Ammo, are not healed by healing powers, see all around and do not
  count as agents for Events (as the core drones);
- three grenades (Graviton: Immobilize, Cryo: Paralyze, Acid: Poison 1 on a Hit) and eight
  devices over the core effect kinds (healing, shields, Movement, Hit dice, Ammo).

The devices an agent holds are `StrikebackState.devices[agent]`. A Special Event effect
`{"sb": "device", "key": ...}` queues a choice for the Alpha Agent: who receives it.
Hand-outs at a mission's setup are `handouts.py`.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from pydantic import Field

from engine.core.content import ContentFile, ContentModel, load_file
from engine.core.dice import Dice
from engine.core.errors import ContentError, RuleError
from engine.core.events import Event, Moved, Note, Spawned
from engine.core.game import Action
from engine.core.hexgrid import Hex, neighbours
from engine.core.words import counted
from engine.galaxy import combat, drones, effects, notation
from engine.galaxy.agent import pinned
from engine.galaxy.attack import resolve_defence, targets_of
from engine.galaxy.board import label
from engine.galaxy.content import AgentProfile, Weapon, content
from engine.galaxy.signals import reveal_in_sight
from engine.galaxy.state import AgentState, GalaxyState, Pending, WeaponState
from engine.galaxy.strikeback import marks
from engine.galaxy.strikeback.alientech import reached
from engine.galaxy.strikeback.burrowing import exposed
from engine.galaxy.strikeback.lookups import status
from engine.galaxy.strikeback.mission_rules import rules_for
from engine.galaxy.strikeback.poses import stand
from engine.galaxy.strikeback.status import StrikebackState, sb_state, sb_state_or_none
from engine.galaxy.world import (
    adjacent,
    agent_name,
    agent_sees,
    alien_name,
    area_distance,
    board_of,
    co,
    find_alien,
    free,
    hex_arg,
    hx,
    locked,
    mission_key,
    operative,
    sees,
    weapon,
)

CONTENT = Path(__file__).parent / "content" / "devices.json"
HARPOON_DICE, HARPOON_RANGE, JET_BOOTS_HEXES = 2, 2, 3
ASK = "device:"
SPECIAL = ("harpoon", "flight", "hologram", "drone")
GRENADES = ("grenade-immobilize", "grenade-paralyze", "grenade-poison")
HOLOGRAM = "hologram"


class SbDevice(ContentModel):
    key: str
    name: str
    count: int
    classes: list[str] = Field(default_factory=list)
    effect: str
    keep: bool = False  # "do not discard after use"
    color: str
    dice: int
    range: int
    text: str

    def fits(self, agent_id: str) -> bool:
        return not self.classes or agent_id in self.classes


class DevicesFile(ContentFile):
    devices: list[SbDevice]
    drones: list[AgentProfile]
    weapons: list[Weapon]


@cache
def _load() -> tuple[dict[str, SbDevice], dict[str, AgentProfile], dict[str, Weapon]]:
    data = load_file(CONTENT, DevicesFile)
    found = {d.key: d for d in data.devices}
    drones = {d.key: d for d in data.drones}
    weapons = {w.key: w for w in data.weapons}
    for d in found.values():
        known = d.effect in SPECIAL or d.effect in GRENADES
        if not known and not d.effect.startswith(notation.ACTIVE_EFFECTS):
            raise ContentError(f"device {d.key}: unknown effect {d.effect}")
        if d.effect == "drone" and d.key not in drones:
            raise ContentError(f"device {d.key}: no drone profile")
    return found, drones, weapons


def catalogue() -> dict[str, SbDevice]:
    """The expansion's device tokens by key (16 tokens in all, counting copies)."""
    return _load()[0]


def is_device(what: str) -> bool:
    return what in catalogue()


def drone_profile(key: str) -> AgentProfile | None:
    """The profile printed on a device tile (Vigil, GD-5) or the Hologram's."""
    return _load()[1].get(key)


def drone_weapon(key: str) -> Weapon | None:
    return _load()[2].get(key)


def name_of(key: str) -> str:
    """A device's name, core or expansion."""

    core = content().devices.get(key)
    return core.name if core is not None else catalogue()[key].name


def effect_of(key: str) -> str:
    core = content().devices.get(key)
    return core.effect if core is not None else catalogue()[key].effect


def hand(state: GalaxyState, agent: AgentState, key: str) -> None:
    """Give a device from the Warehouse: a core one to the agent's sheet, an expansion one to
    the layer's list."""

    if key in content().devices:
        agent.devices.append(key)
    else:
        sb(state).devices.setdefault(agent.id, []).append(key)


def generic_in_warehouse(state: GalaxyState) -> list[str]:
    """2.2: the expansion's Generic devices join the core box's (search, Reinforcements)."""
    return [k for k in in_warehouse(state) if not catalogue()[k].classes]


def sb(state: GalaxyState) -> StrikebackState:
    return sb_state(state)


def held(state: GalaxyState, agent_id: str) -> list[str]:
    return sb(state).devices.get(agent_id, []) if sb_state_or_none(state) is not None else []


def in_warehouse(state: GalaxyState) -> list[str]:
    """Device tokens still in the box: every copy not held by an agent or deployed."""
    taken = [k for keys in sb(state).devices.values() for k in keys]
    taken += [k for k in (HOLOGRAM, "vigil", "gd-5") if k in state.agents]
    out: list[str] = []
    for key, d in catalogue().items():
        out.extend([key] * max(0, d.count - taken.count(key)))
    return out


def open_ask(state: GalaxyState, ask: str) -> Pending | None:
    """Who receives the device: one of the agents on the map, the Alpha Agent's choice. The
    question names the device (two hand-outs in a row must not read alike)."""
    on_map = [a.id for a in operative(state) if a.hex is not None]
    if not on_map or not state.alpha:
        return None
    question = f"Alpha Agent: who receives the {name_of(ask.removeprefix(ASK))}"
    return Pending(
        kind="sb-device", seat=state.alpha, options=on_map, data={"ask": ask, "question": question}
    )


def give(state: GalaxyState, ask: str, option: str, events: list[Event]) -> None:
    key = ask.removeprefix(ASK)
    sb(state).devices.setdefault(option, []).append(key)
    events.append(Note(text=f"{agent_name(state.agents[option])} receives the {name_of(key)}."))


# -- when a device can be used -----------------------------------------------------------------


def problem(state: GalaxyState, agent: AgentState, what: str, args: dict[str, str]) -> str | None:
    assert agent.hex is not None
    d = catalogue().get(what)
    if d is not None and d.effect == "drone" and what in state.agents:  # activate it
        drone = state.agents[what]
        if drone.drone_of != agent.id:
            return f"does not control the {d.name}"
        return None if drone.ready else f"must wait for his next turn to activate the {d.name}"
    if d is None or what not in held(state, agent.id):
        return f"has no {what.replace('-', ' ')}"
    if d.effect == "harpoon":
        target = next((a for a in state.aliens if a.id == args.get("target", "")), None)
        if target is None:
            return "must name an alien (target:x1 ...)"
        if not exposed(state, target):
            return "cannot target a Burrowing alien underground (7.2.1)"
        if not sees(state, agent.hex, target.hex):
            return "has no line of sight to it"
        if area_distance(state, agent.hex, target.hex) > HARPOON_RANGE:
            return f"can reach {HARPOON_RANGE} Areas with the harpoon"
        return None
    if d.effect in GRENADES:
        target = next((a for a in state.aliens if a.id == args.get("target", "")), None)
        if target is None:
            return "must name an alien whose Area the grenade hits (target:x1 ...)"
        if not agent_sees(state, agent, target.hex) or (
            area_distance(state, agent.hex, target.hex) > d.range
        ):
            return f"needs an alien in sight within {d.range} Area"
        return None
    if d.effect == "drone":
        return (
            None if _spot(args, deploy_spots(state, agent)) else "must name a free hex next to him"
        )
    if d.effect == HOLOGRAM:
        spots = hologram_spots(state, agent)
        return None if _spot(args, spots) else "must name an empty hex within 1 Area"
    if d.effect == "flight":
        if pinned(state, agent):
            return "is Engaged in combat: Evade first"
        reach = f"a free hex within {JET_BOOTS_HEXES} hexes (Barrier sides do not stop him)"
        return None if _spot(args, flight(state, agent)) else f"can fly to {reach}"
    why = effects.effect_problem(state, agent, d.effect)
    if why is None and d.effect.startswith(notation.TARGETED):
        patients = effects.heal_targets(state, agent, d.effect)
        wanted = args.get("target", agent.id)
        if not any(p.id == wanted for p in patients):
            return "must name a wounded agent: himself or an adjacent one"
    return why


def _spot(args: dict[str, str], spots: list[Hex] | set[Hex]) -> bool:
    try:
        return hex_arg(args.get("to", "")) in spots
    except RuleError:
        return False


def flight(state: GalaxyState, agent: AgentState) -> set[Hex]:
    """Hexes the Jet Boots reach: up to 3 steps, over Barrier sides, not through walls."""
    assert agent.hex is not None
    board, lock = board_of(state), locked(state)
    start = hx(agent.hex)
    seen, frontier = {start}, [start]
    for _ in range(JET_BOOTS_HEXES):
        nxt = []
        for h in frontier:
            for n in neighbours(h):
                if n not in seen and board.step_ok(h, n, lock, "flyer"):
                    seen.add(n)
                    nxt.append(n)
        frontier = nxt
    return {h for h in seen if h != start and free(state, h)}


def deploy_spots(state: GalaxyState, agent: AgentState) -> list[Hex]:
    assert agent.hex is not None
    return [
        n for n in neighbours(hx(agent.hex)) if free(state, n) and adjacent(state, agent.hex, co(n))
    ]


def hologram_spots(state: GalaxyState, agent: AgentState) -> list[Hex]:
    """Empty hexes within 1 Area of the agent (9.7.4.1)."""
    assert agent.hex is not None
    board = board_of(state)
    return sorted(
        (
            h
            for h in board.area_of
            if free(state, h) and area_distance(state, agent.hex, co(h)) <= 1
        ),
        key=lambda h: (h.r, h.q),
    )


# -- using a device ----------------------------------------------------------------------------


def use(
    state: GalaxyState,
    agent: AgentState,
    what: str,
    args: dict[str, str],
    dice: Dice,
    events: list[Event],
) -> None:
    """Apply a device already checked by `problem` (the caller spends the Action)."""

    assert agent.hex is not None
    d = catalogue()[what]
    who = agent_name(agent)
    deployed = d.effect == "drone" and what in state.agents
    kept = what in rules_for(mission_key(state)).kept_devices
    if not d.keep and not deployed and not kept:
        sb(state).devices[agent.id].remove(what)
    if d.effect == "harpoon":
        target = find_alien(state, args["target"])
        roll = combat.hit_roll(dice, "red", HARPOON_DICE)
        events.append(
            Note(
                text=f"{who} fires the harpoon at {alien_name(target)}: "
                f"{combat.roll_text('red', roll.faces)} - {counted(roll.hits, 'Hit')}."
            )
        )
        condition = "immobilize" if roll.hits else ""
        resolve_defence(
            state, agent, [target.id], roll.hits, 0, "ranged", condition, dice, events, "harpoon"
        )
    elif d.effect in GRENADES:
        _grenade(state, agent, d, args["target"], dice, events)
    elif d.effect == "drone" and deployed:
        drones.activate_mover(state, agent, what, events)
    elif d.effect in ("drone", HOLOGRAM):
        _deploy(state, agent, d, hex_arg(args["to"]), events)
    elif d.effect == "flight":
        dest = hex_arg(args["to"])
        start = hx(agent.hex)
        stand(state, agent, events, "moved outside his Movement")
        agent.hex = co(dest)
        events.append(
            Moved(
                figure=agent.id,
                path=[label(start), label(dest)],
                text=f"{who} flies {label(start)} -> {label(dest)} (Jet Boots).",
            )
        )
        reached(state, agent, events)
        reveal_in_sight(state, dice, events)
    else:
        effects.apply_effect(state, agent, d.effect, args.get("target", ""), d.name, events)
    if d.keep:
        events.append(Note(text=f"The {d.name} is kept (not discarded after use)."))


def _grenade(
    state: GalaxyState,
    agent: AgentState,
    d: SbDevice,
    target_id: str,
    dice: Dice,
    events: list[Event],
) -> None:
    """Its dice against every alien in the target's Area; on any Hit rolled, its condition on
    them all (an On Hit Effect; Poison only on those still standing)."""

    target = find_alien(state, target_id)
    roll = combat.hit_roll(dice, d.color, d.dice)
    events.append(
        Note(
            text=f"{agent_name(agent)} throws the {d.name}: "
            f"{combat.roll_text(d.color, roll.faces)} - {counted(roll.hits, 'Hit')}."
        )
    )
    ids = targets_of(state, target, True, agent, device=True)
    condition = d.effect.removeprefix("grenade-")
    lasting = condition if condition in ("immobilize", "paralyze") and roll.hits else ""
    resolve_defence(state, agent, ids, roll.hits, 0, "device", lasting, dice, events, d.name)
    if condition == "poison" and roll.hits:
        for alien in state.aliens:
            if alien.id in ids:
                result = marks.apply_poison(status(state, alien.id), 1)
                events.append(Note(text=f"{alien_name(alien)} is Poisoned ({result.level})."))
                if result.wounds:
                    alien.wounds += result.wounds


def _deploy(
    state: GalaxyState, agent: AgentState, d: SbDevice, spot: Hex, events: list[Event]
) -> None:
    profile = drone_profile(d.key)
    assert profile is not None
    state.agents[d.key] = AgentState(
        id=d.key,
        hex=co(spot),
        drone_of=agent.id,
        elite=True,
        weapons=[WeaponState(key=k, ammo=weapon(k).ammo) for k in profile.weapons],
    )
    verb = "projects" if d.effect == HOLOGRAM else "deploys"
    events.append(
        Spawned(
            figure=d.key,
            at=label(spot),
            text=f"{agent_name(agent)} {verb} the {d.name} at {label(spot)}.",
        )
    )


def attacked(state: GalaxyState, figure: AgentState, events: list[Event]) -> bool:
    """9.7.4.1: a Hologram is destroyed as soon as it is attacked (True: nothing more to do)."""
    if figure.id != HOLOGRAM or figure.drone_of is None:
        return False
    state.agents.pop(HOLOGRAM)
    events.append(Note(text="The Hologram is attacked and flickers out: discarded."))
    return True


def legal_actions(state: GalaxyState, agent: AgentState) -> list[Action]:
    out: list[Action] = []

    def offer(what: str, label_text: str, **args: str) -> None:
        if problem(state, agent, what, args) is None:
            out.append(
                Action(verb="act", args={"unit": agent.id, "what": what, **args}, label=label_text)
            )

    mine = [k for k in catalogue() if k in state.agents and state.agents[k].drone_of == agent.id]
    for key in sorted(set(held(state, agent.id)) | set(mine)):
        d = catalogue()[key]
        if d.effect in ("harpoon", *GRENADES):
            for alien in state.aliens:
                offer(key, f"{d.name} at {alien_name(alien)}", target=alien.id)
        elif d.effect == "flight":
            if problem(state, agent, key, {"to": "A1"}) != "is Engaged in combat: Evade first":
                for h in sorted(flight(state, agent), key=lambda x: (x.r, x.q)):
                    offer(key, f"fly to {label(h)}", to=label(h))
        elif d.effect == HOLOGRAM:
            for h in hologram_spots(state, agent):
                offer(key, f"project the Hologram at {label(h)}", to=label(h))
        elif d.effect == "drone" and key in state.agents:
            offer(key, f"activate the {d.name}: it moves and fires")
        elif d.effect == "drone":
            for h in deploy_spots(state, agent):
                offer(key, f"deploy the {d.name} at {label(h)}", to=label(h))
        elif d.effect.startswith(notation.TARGETED):
            for other in effects.heal_targets(state, agent, d.effect):
                offer(key, f"{d.name} on {agent_name(other)}", target=other.id)
        else:
            offer(key, d.name)
    return out
