"""The Biotech's battle drones: the Sentry-Gun (a device) and the GD-209 (a skill).

A deployed drone is kept among the agents (with `drone_of` set) so aliens target it and it
reveals Signals like an agent, but it has no turn of its own, never counts for Events, never
jams, never regains Ammo and cannot be healed. It acts from its owner's next turn on, when the
owner spends his Action: the Sentry-Gun fires; the GD-209 moves (a `/choose` of its hex) and
then fires (a `/choose` of its target).
"""

from __future__ import annotations

from collections.abc import Iterator

from engine.core.dice import Dice
from engine.core.errors import RuleError
from engine.core.events import Event, Moved, Note, Spawned
from engine.core.hexgrid import Hex, neighbours
from engine.core.pathfinding import reachable
from engine.galaxy.attack import agent_attack, weapon_problem
from engine.galaxy.board import label
from engine.galaxy.content import content
from engine.galaxy.expansion import expanded, own
from engine.galaxy.signals import reveal_in_sight
from engine.galaxy.state import AgentState, GalaxyState, Pending, WeaponState
from engine.galaxy.world import (
    adjacent,
    agent_name,
    alien_name,
    board_of,
    co,
    engaged,
    find_alien,
    free,
    hex_arg,
    hx,
    locked,
    occupant,
    profile,
    weapon,
)

SENTRY, GD209 = "sentry-gun", "gd-209"
FLYING = ("vigil",)  # Operation Strikeback's Vigil flies over Barrier sides (9.7.4.2)


def deployed(state: GalaxyState, key: str) -> AgentState | None:
    drone = state.agents.get(key)
    return drone if drone is not None and drone.drone_of is not None else None


def deploy_spots(state: GalaxyState, agent: AgentState) -> list[Hex]:
    assert agent.hex is not None
    return [
        n for n in neighbours(hx(agent.hex)) if free(state, n) and adjacent(state, agent.hex, co(n))
    ]


def deploy(
    state: GalaxyState, agent: AgentState, key: str, where: str, events: list[Event]
) -> None:
    if deployed(state, key) is not None:
        raise RuleError(f"The {content().drones[key].codename} is already deployed.")
    spot = hex_arg(where)
    if spot not in deploy_spots(state, agent):
        raise RuleError(f"The drone must go on a free hex next to {agent_name(agent)}.")
    profile = content().drones[key]
    state.agents[key] = AgentState(
        id=key,
        hex=co(spot),
        drone_of=agent.id,
        elite=True,
        energy=profile.elite.energy,
        weapons=[WeaponState(key=k, ammo=weapon(k).ammo) for k in profile.weapons],
    )
    events.append(
        Spawned(
            figure=key,
            at=label(spot),
            text=f"{agent_name(agent)} deploys the {profile.codename} at {label(spot)}.",
        )
    )


def fire_targets(state: GalaxyState, drone: AgentState) -> list[str]:
    return [a.id for a in state.aliens if weapon_problem(state, drone, 0, a) is None]


def sentry_fire(
    state: GalaxyState, agent: AgentState, target: str, dice: Dice, events: list[Event]
) -> None:
    drone = deployed(state, SENTRY)
    if drone is None or drone.drone_of != agent.id:
        raise RuleError(f"{agent_name(agent)} has no Sentry-Gun deployed.")
    if not drone.ready:
        raise RuleError("The Sentry-Gun can fire from your next turn on.")
    alien = find_alien(state, target)
    problem = weapon_problem(state, drone, 0, alien)
    if problem:
        raise RuleError(f"The Sentry-Gun {problem}.")
    agent_attack(state, drone, 0, alien, False, dice, events, reaction=True)


def drone_moves(state: GalaxyState, drone: AgentState) -> list[Hex]:
    if engaged(state, drone) or drone.hex is None:
        return []
    board = board_of(state)
    lock = locked(state)
    me = hx(drone.hex)
    walker = "flyer" if drone.id in FLYING else "agent"

    def steps(h: Hex) -> Iterator[tuple[Hex, int]]:
        for n in neighbours(h):
            if board.step_ok(h, n, lock, walker):
                who = occupant(state, n)
                suits = own(state).suits if expanded(state) else {}
                if who is None or who in state.agents or who in suits:
                    yield n, 1

    move = profile(drone).move
    found = reachable(me, steps, budget=move, can_stop=lambda h: h == me or free(state, h))
    return sorted((h for h in found.cost if h != me), key=lambda h: (found.cost[h], h.r, h.q))


def activate_gd209(state: GalaxyState, agent: AgentState, events: list[Event]) -> None:
    activate_mover(state, agent, GD209, events)


def activate_mover(state: GalaxyState, agent: AgentState, key: str, events: list[Event]) -> None:
    """A drone that moves and fires (the GD-209; Operation Strikeback's Vigil and GD-5): a
    `/choose` of its hex, then of its target."""
    drone = deployed(state, key)
    name = profile(drone).codename if drone is not None else key
    if drone is None or drone.drone_of != agent.id:
        raise RuleError(f"{agent_name(agent)} has no {name} deployed.")
    if not drone.ready:
        raise RuleError(f"The {name} acts from your next turn on.")
    options = [label(h) for h in drone_moves(state, drone)] + ["stay"]
    data: dict[str, str | int | list[str]] = {} if key == GD209 else {"drone": key}
    state.pending = Pending(kind="drone-move", seat=agent.id, options=options, data=data)
    events.append(Note(text=f"{agent_name(agent)} activates the {name}: choose its hex (or stay)."))


def finish_drone_move(state: GalaxyState, option: str, dice: Dice, events: list[Event]) -> None:
    pending = state.pending
    assert pending is not None
    state.pending = None
    key = str(pending.data.get("drone", GD209))
    drone = deployed(state, key)
    if drone is None:
        return
    name = profile(drone).codename
    if option != "stay":
        start = drone.hex
        assert start is not None
        drone.hex = co(hex_arg(option))
        events.append(
            Moved(
                figure=drone.id,
                path=[label(hx(start)), option],
                text=f"The {name} moves {label(hx(start))} -> {option}.",
            )
        )
        reveal_in_sight(state, dice, events)
    if deployed(state, key) is None:
        return
    targets = fire_targets(state, drone)
    if targets:
        state.pending = Pending(
            kind="drone-attack", seat=pending.seat, options=[*targets, "none"], data=pending.data
        )
        names = ", ".join(alien_name(find_alien(state, t)) for t in targets)
        events.append(Note(text=f"The {name} may fire at {names}, or hold its fire."))


def finish_drone_attack(state: GalaxyState, option: str, dice: Dice, events: list[Event]) -> None:
    pending = state.pending
    assert pending is not None
    state.pending = None
    drone = deployed(state, str(pending.data.get("drone", GD209)))
    if drone is None or option == "none":
        return
    area = "area-always" in weapon(drone.weapons[0].key).powers  # Strikeback GD-5
    agent_attack(state, drone, 0, find_alien(state, option), area, dice, events, reaction=True)
