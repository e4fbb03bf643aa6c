"""The Agent turn: Movement (hex by hex, revealing as it goes), Combat and their limits."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from engine.core.dice import Dice
from engine.core.errors import RuleError
from engine.core.events import Event, Moved, Note, Turned
from engine.core.hexgrid import Hex, direction_to, neighbours
from engine.core.pathfinding import Reach, reachable
from engine.core.words import counted
from engine.galaxy.attack import agent_attack, resolve_defence, weapon_problem
from engine.galaxy.board import label
from engine.galaxy.expansion import expanded, hooks, own
from engine.galaxy.signals import reveal_in_sight
from engine.galaxy.state import AgentState, AlienState, GalaxyState
from engine.galaxy.world import (
    FACINGS,
    agent_name,
    alien_at,
    board_of,
    co,
    engaged,
    find_agent,
    find_alien,
    free,
    hx,
    immobilized,
    locked,
    occupant,
    profile,
    weapon,
)

ACT_COMBAT = ("evade", "redeploy", "bash")


def step_cost(state: GalaxyState, agent: AgentState) -> int | None:
    """Movement points one step costs him (None: he cannot step); an expansion's Fighting
    Poses change it, the core's is 1."""
    return hooks().step_cost(state, agent) if expanded(state) else 1


def reach(
    state: GalaxyState, agent: AgentState, can_stop: Callable[[Hex], bool] | None = None
) -> Reach[Hex]:
    """Hexes the agent can walk to with his Movement points left; `can_stop` replaces "a free
    hex" as where he may stop (Operation Strikeback: the hex of a Power Suit he equips)."""
    board = board_of(state)
    lock = locked(state)
    assert agent.hex is not None
    me = hx(agent.hex)
    cost = step_cost(state, agent)
    flyer = False
    suit_ids: set[str] = set()
    if expanded(state):
        flyer = hooks().flies(state, agent)  # a Flying Power Suit, Levitation (7.1.1, 9.7.2)
        suit_ids = set(own(state).suits)

    def steps(h: Hex) -> Iterator[tuple[Hex, int]]:
        for n in neighbours(h):
            if cost is None:
                continue
            if not board.step_ok(h, n, lock, "agent") and not (
                flyer and board.side_kind(h, n, lock) == "barrier"
            ):
                continue
            who = occupant(state, n)
            # agents may pass through friends (and through an empty Power Suit)
            if who is None or who in state.agents or who in suit_ids:
                yield n, cost

    stop = can_stop if can_stop is not None else (lambda h: h == me or free(state, h))
    return reachable(me, steps, budget=agent.mp_left, can_stop=stop)


def move_problem(state: GalaxyState, agent: AgentState) -> str | None:
    if agent.hex is None:
        return "is not on the battlefield"
    if immobilized(agent):
        return "is Immobilized until the next Refresh phase: he cannot move"
    if agent.movement == "closed":
        return "has already finished his Movement this turn" + movement_closed_by(agent)
    if agent.mp_left <= 0:
        return "has no Movement points left"
    if pinned(state, agent):
        return "is Engaged in combat: Evade first (Action + Combat) or kill the alien"
    if step_cost(state, agent) is None:
        return "is Prone: he must change his Fighting Pose before moving"
    return None


def movement_closed_by(agent: AgentState) -> str:
    """Why a closed Movement cannot go on, in words (the rulebook: an agent may not interrupt
    his Movement for another activity and then resume it)."""
    if agent.combat_used and not agent.bleeding:
        return " (it cannot resume after Combat)"
    if agent.action_used:
        return " (it cannot resume after his Action)"
    return ""


def pinned(state: GalaxyState, agent: AgentState) -> bool:
    """Engaged so that he may not move: next to an alien before his Movement has begun (he
    started his turn there, or an alien came to him), and no Evade or Vanish freed him. Walking
    past an alien during the Movement does not stop it: an agent becomes Engaged where he
    ends his Movement, which is then over anyway."""
    return agent.movement == "unused" and engaged(state, agent) and not agent.evaded


def do_move(
    state: GalaxyState,
    agent: AgentState,
    dest: Hex,
    dice: Dice,
    events: list[Event],
    can_stop: Callable[[Hex], bool] | None = None,
) -> None:
    problem = move_problem(state, agent)
    if problem:
        raise RuleError(f"{agent_name(agent)} {problem}.")
    found = reach(state, agent, can_stop)
    if dest not in found.cost or dest == hx(agent.hex or (0, 0)):
        raise RuleError(
            f"{agent_name(agent)} cannot reach {label(dest)}: it needs a free hex within "
            f"{counted(agent.mp_left, 'Movement point')} along a legal path."
        )
    path = found.path(dest)
    walked = [path[0]]
    shown = 0  # walked[:shown + 1] has been narrated already
    agent.movement = "open"

    def narrate() -> None:
        nonlocal shown
        if len(walked) - 1 > shown:
            segment = walked[shown:]
            events.append(
                Moved(
                    figure=agent.id,
                    path=[label(h) for h in segment],
                    text=f"{agent_name(agent)} moves {' -> '.join(label(h) for h in segment)} "
                    f"({agent.mp_left} MP left).",
                )
            )
            shown = len(walked) - 1

    for h in path[1:]:
        if alien_at(state, h) is not None:
            events.append(Note(text=f"{agent_name(agent)} stops: an alien now stands in the way."))
            break
        agent.hex = co(h)
        agent.mp_left -= step_cost(state, agent) or 1
        walked.append(h)
        found_now: list[Event] = []
        if expanded(state):  # a mission token under the step (Waypoints, items)
            hooks().entered(state, agent, h, dice, found_now)
        if expanded(state):  # an Alien Tech or Armory token on the hex (9.9)
            hooks().reached(state, agent, found_now)
        reveal_in_sight(state, dice, found_now)
        if found_now:
            narrate()
            events.extend(found_now)
        if agent.dead:
            return
    # never end on a friend's hex (or a hex he may not stop on): step back to the last free one
    while len(walked) > 1 and (
        any(a.hex == co(walked[-1]) and a.id != agent.id for a in state.agents.values())
        or (can_stop is not None and not can_stop(walked[-1]) and not free(state, walked[-1]))
    ):
        walked.pop()
        shown = min(shown, len(walked) - 1)
    agent.hex = co(walked[-1])
    if len(walked) > 1:
        step = direction_to(walked[-2], walked[-1])
        agent.facing = agent.facing if step is None else step
    narrate()


def face_problem(state: GalaxyState, agent: AgentState) -> str | None:
    if state.options.get("human-view", "on") != "on":
        return "needs no facing: Human View is off"
    if agent.movement == "closed":
        return "can only turn at the end of his Movement, which is over"
    return None


def do_face(state: GalaxyState, agent: AgentState, name: str, events: list[Event]) -> None:
    problem = face_problem(state, agent)
    if problem:
        raise RuleError(f"{agent_name(agent)} {problem}.")
    if name.upper() not in FACINGS:
        raise RuleError(f"Facing must be one of {', '.join(FACINGS)}.")
    if FACINGS.index(name.upper()) == agent.facing:
        raise RuleError(f"{agent_name(agent)} already faces {name.upper()}.")
    agent.facing = FACINGS.index(name.upper())
    if agent.movement == "unused":
        agent.movement = "closed"  # turning in place is his whole Movement
        agent.mp_left = 0
    events.append(
        Turned(
            figure=agent.id,
            facing=FACINGS[agent.facing],
            text=f"{agent_name(agent)} turns to face {FACINGS[agent.facing]}.",
        )
    )


def combat_problem(agent: AgentState) -> str | None:
    if agent.bleeding:  # checked first: a Bleeding agent's Combat is forfeited, not spent
        return "is Bleeding and must forfeit his Combat"
    if agent.combat_used:
        return "has already used his Combat this turn"
    return None


def weapon_index(agent: AgentState, key: str | None) -> int:
    if key is None:
        return 0
    for i, ws in enumerate(agent.weapons):
        if ws.key == key.lower():
            return i
    names = ", ".join(w.key for w in agent.weapons)
    raise RuleError(f"{agent_name(agent)} carries no weapon '{key}' (weapons: {names}).")


def do_attack(
    state: GalaxyState, agent: AgentState, args: dict[str, str], dice: Dice, events: list[Event]
) -> None:
    problem = combat_problem(agent)
    if problem:
        raise RuleError(f"{agent_name(agent)} {problem}.")
    index = weapon_index(agent, args.get("weapon"))
    w = weapon(agent.weapons[index].key)
    target_id = args.get("target", "")
    mode = args.get("mode", "").lower()
    if not target_id.strip():
        aim = " (an Area attack aims at one alien and strikes its whole Area)" if mode else ""
        raise RuleError(f"{agent_name(agent)} must name the alien he attacks{aim}.")
    if expanded(state) and target_id.lower() in own(state).objects:
        hooks().attack(state, agent, index, target_id.lower(), dice, events)
        return
    target: AgentState | AlienState
    if target_id.lower() in state.agents:
        target = find_agent(state, target_id)
        if target.dead:
            raise RuleError(f"{agent_name(target)} is dead.")
    else:
        target = find_alien(state, target_id)
    problem = weapon_problem(state, agent, index, target)
    if problem:
        raise RuleError(f"{agent_name(agent)} {problem}.")
    area = mode == "area"
    if area and "area-for-ammo" not in w.powers:
        raise RuleError(f"The {w.name} cannot deal Area Damage.")
    extra_blue = expanded(state) and mode == "blue-dice"
    if extra_blue and not hooks().blue_choice_open(state, agent, w):
        raise RuleError(f"The {w.name} has no added Hit dice to roll BLUE.")
    agent.combat_used = True
    if agent.movement == "open":
        agent.movement = "closed"
    agent_attack(state, agent, index, target, area, dice, events, extra_blue=extra_blue)


def finish_boost(state: GalaxyState, extra: int, dice: Dice, events: list[Event]) -> None:
    pending = state.pending
    assert pending is not None and pending.kind == "boost"
    state.pending = None
    agent = state.agents[pending.seat]
    index = int(str(pending.data["weapon"]))
    ws = agent.weapons[index]
    ws.ammo -= extra
    hits = int(str(pending.data["hits"])) + extra
    if extra:
        events.append(Note(text=f"{agent_name(agent)} spends {extra} more Ammo: {hits} Hits."))
    targets = pending.data["targets"]
    assert isinstance(targets, list)
    effects = pending.data.get("effects", [])
    assert isinstance(effects, list)
    resolve_defence(
        state,
        agent,
        targets,
        hits,
        int(str(pending.data["def_minus"])),
        str(pending.data["kind"]),
        str(pending.data["condition"]),
        dice,
        events,
        weapon(ws.key).name,
        tuple(effects),
    )


def has_guard(agent: AgentState) -> bool:
    return profile(agent).ability == "guard" or "guard" in agent.skills


def guard_orders(agent: AgentState) -> list[str]:
    """Every Guard standing order the agent may give: hold fire, fire with the first weapon
    that reaches, or with a chosen weapon (with Area Damage where the weapon can pay for it)."""
    if not has_guard(agent):
        return []
    out = ["guard-off", "guard-on"]
    for ws in agent.weapons:
        w = weapon(ws.key)
        if w.kind == "healing":
            continue
        out.append(f"guard-with-{ws.key}")
        if "area-for-ammo" in w.powers:
            out.append(f"guard-with-{ws.key}-area")
    return out


def guard_order_now(agent: AgentState) -> str:
    """The standing order in force, as `guard_orders` names it."""
    if not agent.guard_order:
        return "guard-off"
    if agent.guard_weapon not in [ws.key for ws in agent.weapons]:
        return "guard-on"
    return f"guard-with-{agent.guard_weapon}" + ("-area" if agent.guard_area else "")


GUARD_RANKS = ("green", "blue", "red")
"""Alien ranks from the weakest: `guard-at-blue` fires at BLUE and RED aliens only."""


def guard_extra_orders(agent: AgentState) -> list[str]:
    """The Guard's other standing orders: which aliens it fires at (`guard-at-<rank>`, the
    rulebook lets him choose whether to react; `guard-at-green` is any alien) and, with a
    weapon that spends extra Ammo for Hits, how much a Guard shot spends (`guard-boost-<n>`)."""
    if not has_guard(agent):
        return []
    out = [f"guard-at-{rank}" for rank in GUARD_RANKS]
    boosters = [weapon(ws.key) for ws in agent.weapons if "boost-ammo" in weapon(ws.key).powers]
    most = max((w.ammo for w in boosters), default=-1)  # what a full weapon holds
    out += [f"guard-boost-{n}" for n in range(most + 1)]
    return out


def guard_extra_now(agent: AgentState) -> list[str]:
    """The `guard_extra_orders` in force."""
    return [f"guard-at-{agent.guard_rank or GUARD_RANKS[0]}", f"guard-boost-{agent.guard_boost}"]


def do_guard_order(agent: AgentState, order: str, events: list[Event]) -> None:
    if order.startswith(("guard-at-", "guard-boost-")):
        do_guard_extra(agent, order, events)
        return
    options = guard_orders(agent)
    if options and order == guard_order_now(agent):
        raise RuleError(f"{agent_name(agent)} already stands under the order '{order}'.")
    if order not in options:
        raise RuleError(
            f"{agent_name(agent)} has no standing order '{order}'"
            + (f" (orders: {', '.join(options)})." if options else " (he has no Guard).")
        )
    agent.guard_order = order != "guard-off"
    agent.guard_weapon, agent.guard_area = "", False
    if order.startswith("guard-with-"):
        key = order[len("guard-with-") :]
        agent.guard_area = key.endswith("-area") and key not in [w.key for w in agent.weapons]
        agent.guard_weapon = key[: -len("-area")] if agent.guard_area else key
    text = {
        "guard-off": "Guard held: no reaction fire",
        "guard-on": "Guard on: the first weapon that reaches fires",
    }.get(order)
    if text is None:
        text = f"Guard on with the {weapon(agent.guard_weapon).name}" + (
            ", paying 1 Ammo for Area Damage" if agent.guard_area else ""
        )
    events.append(Note(text=f"{agent_name(agent)}: standing order - {text}."))


def do_guard_extra(agent: AgentState, order: str, events: list[Event]) -> None:
    options = guard_extra_orders(agent)
    if order in guard_extra_now(agent) and options:
        raise RuleError(f"{agent_name(agent)} already stands under the order '{order}'.")
    if order not in options:
        raise RuleError(
            f"{agent_name(agent)} has no standing order '{order}'"
            + (f" (orders: {', '.join(options)})." if options else " (he has no Guard).")
        )
    if order.startswith("guard-at-"):
        rank = order[len("guard-at-") :]
        agent.guard_rank = "" if rank == GUARD_RANKS[0] else rank
        ranks = " and ".join(GUARD_RANKS[GUARD_RANKS.index(rank) :])
        text = "Guard fires at any alien"
        if agent.guard_rank:
            text = f"Guard fires only at {ranks} aliens"
    else:
        agent.guard_boost = int(order[len("guard-boost-") :])
        text = (
            f"a Guard shot spends up to {agent.guard_boost} extra Ammo for +1 Hit each"
            if agent.guard_boost
            else "a Guard shot spends no extra Ammo"
        )
    events.append(Note(text=f"{agent_name(agent)}: standing order - {text}."))


def start_turn(state: GalaxyState, agent: AgentState) -> None:
    move = profile(agent).elite.move if agent.elite else profile(agent).move
    if state.weather == "storm":
        move = max(1, move - 1)
    if expanded(state):
        move = max(0, move - hooks().penalty(state, agent.id, "move"))  # a Critical -X Movement
        move += hooks().move_bonus(state, agent)  # a worn Power Suit (9.5.2.1)
        hooks().start_turn(state, agent)
    agent.movement = "unused"
    agent.mp_left = 1 if agent.bleeding else move
    agent.combat_used = agent.bleeding
    agent.action_used = False
    agent.evaded = False
    agent.bonus_dice = {}
    for drone in state.agents.values():
        if drone.drone_of == agent.id:
            drone.ready = True
    if "immobilize" in agent.conditions:
        agent.movement = "closed"
        agent.mp_left = 0


def turn_over(agent: AgentState) -> bool:
    moved_out = agent.movement == "closed" or (agent.movement == "open" and agent.mp_left == 0)
    return moved_out and agent.combat_used and agent.action_used
