"""The Agent turn: Movement, Combat and Action (each once), their legal options and effects."""

from __future__ import annotations

from collections.abc import Iterator

from engine.core.dice import Dice
from engine.core.errors import NotSupportedYet, RuleError
from engine.core.events import Event, Moved, Note, Rolled, Turned
from engine.core.game import Action
from engine.core.hexgrid import Hex, direction_to, neighbours
from engine.core.pathfinding import Reach, reachable
from engine.galaxy import combat, drones
from engine.galaxy import dice as gdice
from engine.galaxy.attack import agent_attack, resolve_defence, targets_of, weapon_problem
from engine.galaxy.board import label
from engine.galaxy.content import content
from engine.galaxy.signals import reveal_in_sight
from engine.galaxy.state import AgentState, AlienState, GalaxyState, Pending
from engine.galaxy.world import (
    FACINGS,
    adjacent,
    agent_name,
    agent_sees,
    alien_at,
    alien_name,
    area_distance,
    area_of,
    board_of,
    co,
    engaged,
    find_agent,
    find_alien,
    free,
    hex_arg,
    hx,
    locked,
    occupant,
    on_map_agents,
    profile,
    weapon,
)

ACT_COMBAT = ("evade", "redeploy", "bash")


# -- movement -------------------------------------------------------------------------------
def reach(state: GalaxyState, agent: AgentState) -> Reach[Hex]:
    board = board_of(state)
    lock = locked(state)
    assert agent.hex is not None
    me = hx(agent.hex)

    def steps(h: Hex) -> Iterator[tuple[Hex, int]]:
        for n in neighbours(h):
            if not board.step_ok(h, n, lock, "agent"):
                continue
            who = occupant(state, n)
            if who is None or who in state.agents:  # agents may pass through friends
                yield n, 1

    return reachable(me, steps, budget=agent.mp_left, can_stop=lambda h: h == me or free(state, h))


def move_problem(state: GalaxyState, agent: AgentState) -> str | None:
    if agent.hex is None:
        return "is not on the battlefield"
    if agent.movement == "closed":
        return "has already finished his Movement this turn (it cannot resume after Combat)"
    if "immobilize" in agent.conditions:
        return "is Immobilized until the next Refresh phase"
    if agent.mp_left <= 0:
        return "has no Movement points left"
    if engaged(state, agent) and not agent.evaded:
        return "is Engaged in combat: Evade first (Action + Combat) or kill the alien"
    return None


def do_move(
    state: GalaxyState, agent: AgentState, dest: Hex, dice: Dice, events: list[Event]
) -> None:
    problem = move_problem(state, agent)
    if problem:
        raise RuleError(f"{agent_name(agent)} {problem}.")
    found = reach(state, agent)
    if dest not in found.cost or dest == hx(agent.hex or (0, 0)):
        raise RuleError(
            f"{agent_name(agent)} cannot reach {label(dest)}: it needs a free hex within "
            f"{agent.mp_left} Movement point(s) along a legal path."
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
        agent.mp_left -= 1
        walked.append(h)
        found_now: list[Event] = []
        reveal_in_sight(state, dice, found_now)
        if found_now:
            narrate()
            events.extend(found_now)
        if agent.dead:
            return
        if h != dest and engaged(state, agent):
            narrate()
            events.append(Note(text=f"{agent_name(agent)} comes into contact and is Engaged."))
            break
    # never end on a friend's hex: step back to the last free one
    while len(walked) > 1 and any(
        a.hex == co(walked[-1]) and a.id != agent.id for a in state.agents.values()
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


# -- combat ---------------------------------------------------------------------------------
def combat_problem(agent: AgentState) -> str | None:
    if agent.combat_used:
        return "has already used his Combat this turn"
    if agent.bleeding:
        return "is Bleeding and must forfeit his Combat"
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
    area = args.get("mode") == "area"
    if area and "area-for-ammo" not in w.powers:
        raise RuleError(f"The {w.name} cannot deal Area Damage.")
    agent.combat_used = True
    if agent.movement == "open":
        agent.movement = "closed"
    agent_attack(state, agent, index, target, area, dice, events)


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
    )


# -- actions --------------------------------------------------------------------------------
def action_problem(agent: AgentState, what: str) -> str | None:
    if agent.action_used:
        return "has already used his Action this turn"
    if agent.bleeding and what not in (
        "ability",
        "drone-fire",
        *content().devices,
        *content().powers,
    ):
        return "is Bleeding: his Action may only activate a power or item"
    return None


def do_act(
    state: GalaxyState, agent: AgentState, args: dict[str, str], dice: Dice, events: list[Event]
) -> None:
    what = args.get("what", "").lower()
    problem = action_problem(agent, what)
    if problem:
        raise RuleError(f"{agent_name(agent)} {problem}.")
    if what in ACT_COMBAT or what == "unjam":
        needs_combat = what in ACT_COMBAT or args.get("using", "combat") == "combat"
        if needs_combat and agent.combat_used:
            raise RuleError(f"{agent_name(agent)} needs his Combat for this, and it is used.")
    handler = ACTIONS.get(what)
    if handler is None and what in content().devices:
        handler = use_device
    if handler is None and what in content().powers:
        handler = use_power
    if handler is None:
        raise RuleError(f"Unknown action '{what}'. Try: {', '.join(sorted(ACTIONS))}.")
    handler(state, agent, args, dice, events)
    agent.action_used = True
    if agent.movement == "open" and not keeps_movement_open(what):
        # A separate Action after moving ends the Movement (rulebook examples: leap, search,
        # redeploy); only powers that feed the Movement, and Evade, leave it open.
        agent.movement = "closed"


def keeps_movement_open(what: str) -> bool:
    if what in ("evade", "stim-pack"):
        return True
    if what == "ability":
        return True  # Vanish frees the agent to move; the other abilities aim an attack
    power = content().powers.get(what)
    return power is not None and power.effect.startswith(("move+", "dice-"))


def act_ability(
    state: GalaxyState, agent: AgentState, args: dict[str, str], dice: Dice, events: list[Event]
) -> None:
    key = profile(agent).ability
    ability = content().abilities[key]
    if ability.type != "standard":
        raise RuleError(f"{ability.name} is a {ability.type} ability: it needs no Action.")
    if agent.ability_used:
        raise RuleError(f"{agent_name(agent)} has used {ability.name} this round.")
    if key == "nano-repair":
        target = find_agent(state, args.get("target", agent.id))
        if (
            target.hex is None
            or agent.hex is None
            or (target.id != agent.id and not adjacent(state, agent.hex, target.hex))
        ):
            raise RuleError(f"{ability.name} reaches only yourself or an adjacent agent.")
        if target.wounds == 0:
            raise RuleError(f"{agent_name(target)} has no Wound to remove.")
        combat.heal_agent(target, 1)
        events.append(
            Note(
                text=f"{agent_name(agent)} uses {ability.name} on "
                f"{agent_name(target)}: one Wound removed."
            )
        )
    elif key == "vanish":
        if not engaged(state, agent):
            raise RuleError(f"{agent_name(agent)} is not Engaged: nothing to vanish from.")
        agent.evaded = True
        events.append(Note(text=f"{agent_name(agent)} vanishes from the melee and may move."))
    elif key in ("steady-aim", "brute-force"):
        if agent.combat_used:
            raise RuleError(f"{agent_name(agent)} has already attacked this turn.")
        kind = "ranged" if key == "steady-aim" else "melee"
        agent.bonus_dice[kind] = agent.bonus_dice.get(kind, 0) + 1
        events.append(
            Note(
                text=f"{agent_name(agent)} uses {ability.name}: +1 Hit die on the "
                f"next {kind} attack this turn."
            )
        )
    else:
        raise NotSupportedYet(f"ability {ability.name}")
    agent.ability_used = True


def act_search(
    state: GalaxyState, agent: AgentState, args: dict[str, str], dice: Dice, events: list[Event]
) -> None:
    assert agent.hex is not None
    if area_of(state, agent.hex) not in board_of(state).search_areas:
        raise RuleError(f"{agent_name(agent)} is not inside a Search Area.")
    if engaged(state, agent):
        raise RuleError(f"{agent_name(agent)} is Engaged in combat and cannot search.")
    face = gdice.roll(dice, "blue", 1)[0]
    found = gdice.symbols("blue", face)
    events.append(
        Rolled(
            figure=agent.id,
            purpose="search",
            faces=gdice.describe("blue", [face]),
            text=f"{agent_name(agent)} searches: {'+'.join(found)}.",
        )
    )
    options: list[str] = []
    if gdice.SHIELD in found:
        if agent.wounds:
            options.append("first-aid")
        if any(ws.ammo < weapon(ws.key).ammo for ws in agent.weapons):
            options.append("ammo")
    if gdice.BOLT in found:
        if warehouse_devices(state):
            options.append("device")
        if not state.tech_from_search and state.alien_tech < 4:
            options.append("alien-tech")
    if not options:
        events.append(Note(text="Nothing useful turns up."))
        return
    options.append("nothing")
    state.pending = Pending(kind="search", seat=agent.id, options=options)
    events.append(
        Note(text=f"{agent_name(agent)} found something: /choose option:{'|'.join(options)}.")
    )


def warehouse_devices(state: GalaxyState) -> list[str]:
    """Generic devices still in the box (class devices come only from a mission's kit)."""
    held = [d for a in state.agents.values() for d in a.devices]
    out: list[str] = []
    for key, device in content().devices.items():
        if not device.classes:
            out.extend([key] * max(0, device.count - held.count(key)))
    return out


def finish_search(state: GalaxyState, option: str, dice: Dice, events: list[Event]) -> None:
    pending = state.pending
    assert pending is not None
    state.pending = None
    agent = state.agents[pending.seat]
    if option == "first-aid":
        combat.heal_agent(agent, 1)
        events.append(Note(text=f"{agent_name(agent)} uses a First Aid Kit: one Wound healed."))
    elif option == "ammo":
        ws = next(w for w in agent.weapons if w.ammo < weapon(w.key).ammo)
        ws.ammo += 1
        events.append(Note(text=f"{agent_name(agent)} finds Ammo for the {weapon(ws.key).name}."))
    elif option == "device":
        pool = warehouse_devices(state)
        device = pool[dice.randrange(len(pool))]
        agent.devices.append(device)
        events.append(Note(text=f"{agent_name(agent)} finds a {content().devices[device].name}."))
    elif option == "alien-tech":
        state.tech_from_search = True
        state.alien_tech += 1
        events.append(Note(text=f"A fragment of Alien Tech ({state.alien_tech}/4)."))


def act_evade(
    state: GalaxyState, agent: AgentState, args: dict[str, str], dice: Dice, events: list[Event]
) -> None:
    if not engaged(state, agent):
        raise RuleError(f"{agent_name(agent)} is not Engaged in combat.")
    face = gdice.roll(dice, "blue", 1)[0]
    ok = gdice.SHIELD in gdice.symbols("blue", face)
    agent.combat_used = True
    agent.evaded = ok
    events.append(
        Rolled(
            figure=agent.id,
            purpose="evade",
            faces=gdice.describe("blue", [face]),
            text=f"{agent_name(agent)} tries to Evade: "
            f"{'+'.join(gdice.symbols('blue', face))} - "
            f"{'success, he may move away' if ok else 'still Engaged'}.",
        )
    )


def act_redeploy(
    state: GalaxyState, agent: AgentState, args: dict[str, str], dice: Dice, events: list[Event]
) -> None:
    assert agent.hex is not None
    dest = hex_arg(args.get("to", ""))
    if engaged(state, agent) and not agent.evaded:
        raise RuleError(f"{agent_name(agent)} is Engaged in combat: Evade first.")
    if area_of(state, agent.hex) != board_of(state).area_of.get(dest) or not free(state, dest):
        raise RuleError("Tactical Redeployment needs an empty hex inside your current Area.")
    start = agent.hex
    agent.combat_used = True
    agent.hex = co(dest)
    events.append(
        Moved(
            figure=agent.id,
            path=[label(hx(start)), label(dest)],
            text=f"{agent_name(agent)} redeploys to {label(dest)}.",
        )
    )
    reveal_in_sight(state, dice, events)


def act_leap(
    state: GalaxyState, agent: AgentState, args: dict[str, str], dice: Dice, events: list[Event]
) -> None:
    assert agent.hex is not None
    dest = hex_arg(args.get("to", ""))
    board = board_of(state)
    if board.side_kind(hx(agent.hex), dest, locked(state)) != "window" or dest not in neighbours(
        hx(agent.hex)
    ):
        raise RuleError(f"There is no window between {label(hx(agent.hex))} and {label(dest)}.")
    if engaged(state, agent) and not agent.evaded:
        raise RuleError(f"{agent_name(agent)} is Engaged in combat: Evade first.")
    if "immobilize" in agent.conditions:
        raise RuleError(f"{agent_name(agent)} is Immobilized.")
    if not free(state, dest):
        raise RuleError(f"{label(dest)} is occupied.")
    start = agent.hex
    agent.hex = co(dest)
    events.append(
        Moved(
            figure=agent.id,
            path=[label(hx(start)), label(dest)],
            text=f"{agent_name(agent)} leaps through the window to {label(dest)}.",
        )
    )
    reveal_in_sight(state, dice, events)


def act_bash(
    state: GalaxyState, agent: AgentState, args: dict[str, str], dice: Dice, events: list[Event]
) -> None:
    assert agent.hex is not None
    for pair in list(state.locked):
        if agent.hex in (tuple(pair[0]), tuple(pair[1])):
            state.locked.remove(pair)
            agent.combat_used = True
            events.append(Note(text=f"{agent_name(agent)} bashes the locked door open."))
            return
    raise RuleError(f"{agent_name(agent)} is not next to a locked door.")


def act_unjam(
    state: GalaxyState, agent: AgentState, args: dict[str, str], dice: Dice, events: list[Event]
) -> None:
    index = weapon_index(agent, args.get("weapon"))
    ws = agent.weapons[index]
    if not ws.jammed:
        raise RuleError(f"The {weapon(ws.key).name} is not jammed.")
    using = args.get("using", "combat")
    if using == "movement":
        if agent.movement != "unused":
            raise RuleError("Unjamming with Movement needs the whole, unused Movement.")
        agent.movement = "closed"
        agent.mp_left = 0
    elif using == "combat":
        agent.combat_used = True
        if agent.movement == "open":
            agent.movement = "closed"
    else:
        raise RuleError("Unjam uses either 'movement' or 'combat'.")
    ws.jammed = False
    events.append(Note(text=f"{agent_name(agent)} clears the jam on the {weapon(ws.key).name}."))


def act_destroy_tp(
    state: GalaxyState, agent: AgentState, args: dict[str, str], dice: Dice, events: list[Event]
) -> None:
    assert agent.hex is not None
    if "destroy-tp" not in {s.split()[0] for s in content().missions[state.scenario].special}:
        raise RuleError("This mission has no Teleport Point to destroy.")
    for symbol, h in board_of(state).teleports.items():
        if symbol in state.destroyed_tps:
            continue
        if co(h) == agent.hex or adjacent(state, agent.hex, co(h)):
            state.destroyed_tps.append(symbol)
            events.append(
                Note(text=f"{agent_name(agent)} wrecks the {symbol} Teleport Point at {label(h)}.")
            )
            return
    raise RuleError(f"{agent_name(agent)} is not on or next to a working Teleport Point.")


def act_rescue(
    state: GalaxyState, agent: AgentState, args: dict[str, str], dice: Dice, events: list[Event]
) -> None:
    assert agent.hex is not None
    for h, mark in board_of(state).marks.items():
        if mark != "civilian" or co(h) in state.rescued_at:
            continue
        if co(h) == agent.hex or adjacent(state, agent.hex, co(h)):
            state.rescued_at.append(co(h))
            state.rescued += 1
            events.append(
                Note(
                    text=f"{agent_name(agent)} gets the civilian at {label(h)} to "
                    f"safety ({state.rescued} rescued)."
                )
            )
            return
    raise RuleError(f"{agent_name(agent)} is not next to a civilian waiting for rescue.")


def use_device(
    state: GalaxyState, agent: AgentState, args: dict[str, str], dice: Dice, events: list[Event]
) -> None:
    key = args.get("what", "").lower()
    if key not in agent.devices:
        raise RuleError(f"{agent_name(agent)} carries no {key}.")
    device = content().devices[key]
    assert agent.hex is not None
    if key in ("frag-grenade", "flash-bang"):
        target = find_alien(state, args.get("target", ""))
        if (
            not agent_sees(state, agent, target.hex)
            or area_distance(state, agent.hex, target.hex) > device.range
        ):
            raise RuleError(
                f"The {device.name} needs an alien in sight within {device.range} Area."
            )
        roll = combat.hit_roll(dice, device.color, device.dice)
        events.append(
            Note(
                text=f"{agent_name(agent)} throws a {device.name}: "
                f"{combat.roll_text(device.color, roll.faces)} - {roll.hits} Hit(s)."
            )
        )
        condition = "immobilize" if key == "flash-bang" and roll.hits else ""
        agent.devices.remove(key)
        resolve_defence(
            state,
            agent,
            targets_of(state, target, True, agent, device=True),
            roll.hits,
            0,
            "device",
            condition,
            dice,
            events,
            device.name,
        )
        return
    if key == "sentry-gun":
        drones.deploy(state, agent, drones.SENTRY, args.get("to", ""), events)
    elif key == "medkit":
        patient = find_agent(state, args.get("target", agent.id))
        if patient.hex is None or (
            patient.id != agent.id and not adjacent(state, agent.hex, patient.hex)
        ):
            raise RuleError("The Medkit reaches only yourself or an adjacent agent.")
        healed = combat.heal_agent(patient, 2)
        events.append(
            Note(
                text=f"{agent_name(agent)} uses a Medkit: {agent_name(patient)} heals "
                f"{healed} Wound(s)."
            )
        )
    elif key == "stim-pack":
        if agent.movement == "closed":
            raise RuleError("The Stim Pack is wasted once Movement is over.")
        agent.mp_left += 2
        events.append(Note(text=f"{agent_name(agent)} injects a Stim Pack: +2 Movement."))
    agent.devices.remove(key)


def has_guard(agent: AgentState) -> bool:
    return profile(agent).ability == "guard" or "guard" in agent.skills


def power_problem(agent: AgentState, key: str, state: GalaxyState | None = None) -> str | None:
    power = content().powers[key]
    if key not in agent.tactics and key not in agent.skills:
        return f"does not have {power.name}"
    if power.effect == "drone":
        drone = drones.deployed(state, key) if state is not None else None
        if drone is not None:
            return None if drone.ready else "must wait for his next turn to activate the drone"
        if key in agent.spent_drones:
            return f"has already deployed the {power.name} this mission"
        return None
    if power.effect == "passive":
        return f"needs no Action for {power.name}: it is always on"
    if key in agent.used_tactics:
        return f"has already used the {power.name} tactic this mission"
    if key in agent.used_skills:
        return f"has already used the {power.name} skill this round"
    word = power.effect.partition("+")[0]
    if word == "move" and agent.movement == "closed":
        return "has finished his Movement"
    if word == "heal-self" and not agent.wounds:
        return "has no Wound to heal"
    if word.startswith("dice") and (agent.combat_used or agent.bleeding):
        return "has no attack left this turn"
    if word == "ammo" and all(ws.ammo >= weapon(ws.key).ammo for ws in agent.weapons):
        return "has full Ammo"
    return None


def use_power(
    state: GalaxyState, agent: AgentState, args: dict[str, str], dice: Dice, events: list[Event]
) -> None:
    key = args.get("what", "").lower()
    problem = power_problem(agent, key, state)
    if problem:
        raise RuleError(f"{agent_name(agent)} {problem}.")
    power = content().powers[key]
    if power.effect == "drone":
        if drones.deployed(state, key) is not None:
            drones.activate_gd209(state, agent, events)
        else:
            drones.deploy(state, agent, key, args.get("to", ""), events)
            agent.spent_drones.append(key)
        return
    word, _, number = power.effect.partition("+")
    amount = int(number)
    if word == "move":
        agent.mp_left += amount
    elif word == "heal-self":
        combat.heal_agent(agent, amount)
    elif word == "heal-other":
        patient = find_agent(state, args.get("target", ""))
        if (
            patient.hex is None
            or agent.hex is None
            or not adjacent(state, agent.hex, patient.hex)
            or not patient.wounds
        ):
            raise RuleError(f"{power.name} needs a wounded agent next to you.")
        combat.heal_agent(patient, amount)
    elif word.startswith("dice"):
        kind = word.split("-")[1]
        agent.bonus_dice[kind] = agent.bonus_dice.get(kind, 0) + amount
    elif word == "ammo":
        ws = next(w for w in agent.weapons if w.ammo < weapon(w.key).ammo)
        ws.ammo = min(weapon(ws.key).ammo, ws.ammo + amount)
    (agent.used_skills if power.kind == "skill" else agent.used_tactics).append(key)
    events.append(Note(text=f"{agent_name(agent)} uses {power.name}."))


def act_drone_fire(
    state: GalaxyState, agent: AgentState, args: dict[str, str], dice: Dice, events: list[Event]
) -> None:
    drones.sentry_fire(state, agent, args.get("target", ""), dice, events)


ACTIONS = {
    "drone-fire": act_drone_fire,
    "ability": act_ability,
    "search": act_search,
    "evade": act_evade,
    "redeploy": act_redeploy,
    "leap": act_leap,
    "bash": act_bash,
    "unjam": act_unjam,
    "destroy-tp": act_destroy_tp,
    "rescue": act_rescue,
}


# -- legal options --------------------------------------------------------------------------
def legal(state: GalaxyState, agent: AgentState) -> list[Action]:
    out: list[Action] = []
    if agent.hex is None:
        return [Action(verb="end-turn", args={"unit": agent.id}, label="end the turn")]
    if "paralyze" not in agent.conditions:
        out.extend(legal_moves(state, agent))
        out.extend(legal_attacks(state, agent))
        out.extend(legal_acts(state, agent))
        if face_problem(state, agent) is None:
            for index, name in enumerate(FACINGS):
                if index != agent.facing:
                    out.append(
                        Action(
                            verb="orders",
                            args={"unit": agent.id, "order": f"face-{name.lower()}"},
                            label=f"turn to face {name}"
                            + (" (ends Movement)" if agent.movement == "unused" else ""),
                        )
                    )
        if has_guard(agent):
            order = "guard-off" if agent.guard_order else "guard-on"
            out.append(
                Action(
                    verb="orders",
                    args={"unit": agent.id, "order": order},
                    label=f"standing order: {order}",
                )
            )
    out.append(Action(verb="end-turn", args={"unit": agent.id}, label="end the turn"))
    return out


def legal_moves(state: GalaxyState, agent: AgentState) -> list[Action]:
    if move_problem(state, agent):
        return []
    found = reach(state, agent)
    me = hx(agent.hex or (0, 0))
    return [
        Action(
            verb="move", args={"unit": agent.id, "to": label(h)}, label=f"{label(h)} - {cost} MP"
        )
        for h, cost in sorted(found.cost.items(), key=lambda kv: (kv[1], kv[0].r, kv[0].q))
        if h != me
    ]


def legal_attacks(state: GalaxyState, agent: AgentState) -> list[Action]:
    if combat_problem(agent):
        return []
    out: list[Action] = []
    for index, ws in enumerate(agent.weapons):
        w = weapon(ws.key)
        targets: list[AgentState | AlienState]
        if w.kind == "healing":
            targets = [a for a in on_map_agents(state) if a.wounds]
        else:
            targets = list(state.aliens)
            if state.options.get("friendly-fire") == "on":
                targets += [a for a in on_map_agents(state) if a.id != agent.id]
        for target in targets:
            if weapon_problem(state, agent, index, target) is not None:
                continue
            name = agent_name(target) if isinstance(target, AgentState) else alien_name(target)
            args = {"unit": agent.id, "target": target.id, "weapon": ws.key}
            out.append(Action(verb="attack", args=args, label=f"{w.name} at {name}"))
            if "area-for-ammo" in w.powers and ws.ammo >= 1:
                out.append(
                    Action(
                        verb="attack",
                        args={**args, "mode": "area"},
                        label=f"{w.name} at {name}, +1 Ammo for Area Damage",
                    )
                )
    return out


def legal_acts(state: GalaxyState, agent: AgentState) -> list[Action]:
    out: list[Action] = []
    if agent.action_used:
        return out
    assert agent.hex is not None
    unit = agent.id

    def add(what: str, text: str, **extra: str) -> None:
        out.append(Action(verb="act", args={"unit": unit, "what": what, **extra}, label=text))

    key = profile(agent).ability
    if not agent.ability_used:
        if key == "nano-repair":
            for other in on_map_agents(state):
                if (
                    other.wounds
                    and other.hex is not None
                    and (other.id == unit or adjacent(state, agent.hex, other.hex))
                ):
                    add("ability", f"Nano Repair on {agent_name(other)}", target=other.id)
        elif key == "vanish" and engaged(state, agent):
            add("ability", "Vanish out of the melee")
        elif key in ("steady-aim", "brute-force") and not agent.combat_used and not agent.bleeding:
            add("ability", content().abilities[key].name)
    for key in [*agent.tactics, *agent.skills]:
        if power_problem(agent, key, state) is not None:
            continue
        name = content().powers[key].name
        if content().powers[key].effect == "drone":
            if drones.deployed(state, key) is not None:
                add(key, f"activate the {name}: it moves and fires")
            else:
                for h in drones.deploy_spots(state, agent):
                    add(key, f"deploy the {name} at {label(h)}", to=label(h))
        elif content().powers[key].effect.startswith("heal-other"):
            for other in on_map_agents(state):
                if (
                    other.id != unit
                    and other.wounds
                    and other.hex is not None
                    and adjacent(state, agent.hex, other.hex)
                ):
                    add(key, f"{name} on {agent_name(other)}", target=other.id)
        else:
            add(key, name)
    for device in sorted(set(agent.devices)):
        if device in ("frag-grenade", "flash-bang"):
            for alien in state.aliens:
                if (
                    agent_sees(state, agent, alien.hex)
                    and area_distance(state, agent.hex, alien.hex) <= 1
                ):
                    add(device, f"{device} at {alien_name(alien)}'s Area", target=alien.id)
        elif device == "medkit":
            for other in on_map_agents(state):
                if (
                    other.wounds
                    and other.hex is not None
                    and (other.id == unit or adjacent(state, agent.hex, other.hex))
                ):
                    add(device, f"Medkit on {agent_name(other)}", target=other.id)
        elif device == "stim-pack" and agent.movement != "closed":
            add(device, "Stim Pack: +2 Movement")
        elif device == "sentry-gun" and drones.deployed(state, drones.SENTRY) is None:
            for h in drones.deploy_spots(state, agent):
                add(device, f"deploy the Sentry-Gun at {label(h)}", to=label(h))
    sentry = drones.deployed(state, drones.SENTRY)
    if sentry is not None and sentry.drone_of == unit and sentry.ready:
        for target in drones.fire_targets(state, sentry):
            add(
                "drone-fire",
                f"Sentry-Gun fires at {alien_name(find_alien(state, target))}",
                target=target,
            )
    if agent.bleeding:
        return out
    is_engaged = engaged(state, agent)
    board = board_of(state)
    if area_of(state, agent.hex) in board.search_areas and not is_engaged:
        add("search", "search this Area")
    free_to_go = not is_engaged or agent.evaded
    if not agent.combat_used:
        if is_engaged and not agent.evaded:
            add("evade", "Evade (Action + Combat): roll a Shield to break off")
        if free_to_go:
            for h in board.area_hexes(area_of(state, agent.hex)):
                if free(state, h):
                    add("redeploy", f"Tactical Redeployment to {label(h)}", to=label(h))
        for pair in state.locked:
            if agent.hex in (tuple(pair[0]), tuple(pair[1])):
                add("bash", "bash the locked door (Action + Combat)")
                break
    for ws in agent.weapons:
        if ws.jammed:
            if not agent.combat_used:
                add("unjam", f"unjam {ws.key} with Combat", weapon=ws.key, using="combat")
            if agent.movement == "unused":
                add("unjam", f"unjam {ws.key} with Movement", weapon=ws.key, using="movement")
    me = hx(agent.hex)
    if free_to_go and "immobilize" not in agent.conditions:
        for n in neighbours(me):
            if (
                board.on_map(n)
                and board.side_kind(me, n, locked(state)) == "window"
                and free(state, n)
            ):
                add("leap", f"leap through the window to {label(n)}", to=label(n))
    specials = {s.split()[0] for s in content().missions[state.scenario].special}
    if "destroy-tp" in specials:
        for symbol, h in board.teleports.items():
            if symbol not in state.destroyed_tps and (h == me or adjacent(state, agent.hex, co(h))):
                add("destroy-tp", f"wreck the {symbol} Teleport Point")
                break
    if "rescue" in specials:
        for h, mark in board.marks.items():
            if (
                mark == "civilian"
                and co(h) not in state.rescued_at
                and (h == me or adjacent(state, agent.hex, co(h)))
            ):
                add("rescue", f"rescue the civilian at {label(h)}")
                break
    return out


def start_turn(state: GalaxyState, agent: AgentState) -> None:
    move = profile(agent).elite.move if agent.elite else profile(agent).move
    if state.weather == "storm":
        move = max(1, move - 1)
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
