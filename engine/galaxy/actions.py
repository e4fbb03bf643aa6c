"""The Action activity: powers, items, special actions and mission actions."""

from __future__ import annotations

from engine.core.dice import Dice
from engine.core.errors import NotSupportedYet, RuleError
from engine.core.events import Event, Moved, Note, Rolled
from engine.core.hexgrid import Hex, neighbours
from engine.core.words import counted
from engine.galaxy import combat, drones, effects
from engine.galaxy import dice as gdice
from engine.galaxy.agent import ACT_COMBAT, weapon_index
from engine.galaxy.attack import resolve_defence, targets_of
from engine.galaxy.board import label
from engine.galaxy.content import content, power, power_card
from engine.galaxy.expansion import expanded, hooks
from engine.galaxy.signals import reveal_in_sight
from engine.galaxy.state import AgentState, GalaxyState, Pending
from engine.galaxy.world import (
    adjacent,
    agent_name,
    agent_sees,
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
    immobilized,
    locked,
    mission_of,
    profile,
    weapon,
)


def action_problem(agent: AgentState, what: str, free: bool = False) -> str | None:
    """`free`: a Free Action (Operation Strikeback 6.2.1.1) needs no unused Action."""
    if agent.action_used and not free:
        return "has already used his Action this turn"
    if (
        agent.bleeding
        and what not in ("ability", "drone-fire", *content().devices)
        and power(what) is None
    ):
        return "is Bleeding: his Action may only activate a power or item"
    return None


def do_act(
    state: GalaxyState, agent: AgentState, args: dict[str, str], dice: Dice, events: list[Event]
) -> None:
    what = args.get("what", "").lower()
    free = expanded(state) and hooks().becomes_free(state, agent, what)
    problem = action_problem(agent, what, free)
    if problem:
        raise RuleError(f"{agent_name(agent)} {problem}.")
    if what in ACT_COMBAT or what == "unjam":
        needs_combat = what in ACT_COMBAT or args.get("using", "combat").lower() == "combat"
        if needs_combat and agent.combat_used:
            raise RuleError(f"{agent_name(agent)} needs his Combat for this, and it is used.")
    handler = ACTIONS.get(what)
    if handler is None and what in content().devices:
        handler = use_device
    if handler is None and power(what) is not None:
        handler = use_power
    if handler is None:
        raise RuleError(f"Unknown action '{what}'. Try: {', '.join(sorted(ACTIONS))}.")
    handler(state, agent, args, dice, events)
    if free:  # a Free Action (Operation Strikeback 6.2.1.1): no activity spent
        return
    agent.action_used = True
    if agent.movement == "open" and not keeps_movement_open(what):
        # A separate Action after moving ends the Movement (rulebook examples: leap, search,
        # redeploy); only powers that feed the Movement, and Evade, leave it open.
        agent.movement = "closed"


def keeps_movement_open(what: str) -> bool:
    """Evade spends the Combat, and Movement never resumes after Combat: a successful Evade
    frees a Movement not yet begun, never the rest of one already under way."""
    if what == "ability":
        return True  # Vanish frees the agent to move; the other abilities aim an attack
    card = power(what) or content().devices.get(what)
    return card is not None and effects.keeps_movement_open(card.effect)


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
        if target.drone_of is not None:
            raise RuleError(f"{ability.name} cannot repair a battle drone.")
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
    if expanded(state) and not hooks().rules(state).search_open(state):
        raise RuleError("The mission does not open Search yet.")
    if engaged(state, agent):
        raise RuleError(f"{agent_name(agent)} is Engaged in combat and cannot search.")
    face = gdice.roll(dice, "blue", 1)[0]
    found = gdice.symbols("blue", face)
    events.append(
        Rolled(
            figure=agent.id,
            purpose="search",
            faces=gdice.describe("blue", [face]),
            text=f"{agent_name(agent)} searches: {combat.roll_text('blue', [face])}.",
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
    events.append(Note(text=f"{agent_name(agent)} found something: choose what to take."))


def warehouse_devices(state: GalaxyState) -> list[str]:
    """Generic devices still in the box (class devices come only from a mission's kit)."""
    held = [d for a in state.agents.values() for d in a.devices]
    out: list[str] = []
    for key, device in content().devices.items():
        if not device.classes:
            out.extend([key] * max(0, device.count - held.count(key)))
    if expanded(state):  # Operation Strikeback 2.2: its devices join the box
        out.extend(hooks().generic_in_warehouse(state))
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
        if device in content().devices:
            agent.devices.append(device)
            name = content().devices[device].name
        else:  # an Operation Strikeback device
            hooks().hand(state, agent, device)
            name = hooks().name_of(device)
        events.append(Note(text=f"{agent_name(agent)} finds a {name}."))
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
            f"{combat.roll_text('blue', [face])} - "
            f"{'success, he may move away' if ok else 'still Engaged'}.",
        )
    )


def act_redeploy(
    state: GalaxyState, agent: AgentState, args: dict[str, str], dice: Dice, events: list[Event]
) -> None:
    assert agent.hex is not None
    dest = hex_arg(args.get("to", ""))
    if immobilized(agent):
        raise RuleError(
            f"{agent_name(agent)} is Immobilized until the next Refresh phase: Tactical "
            "Redeployment moves him, and he may use no action that needs Movement."
        )
    if engaged(state, agent) and not agent.evaded:
        raise RuleError(f"{agent_name(agent)} is Engaged in combat: Evade first.")
    if area_of(state, agent.hex) != board_of(state).area_of.get(dest) or not free(state, dest):
        raise RuleError("Tactical Redeployment needs an empty hex inside your current Area.")
    agent.combat_used = True
    _hop(state, agent, dest, f"{agent_name(agent)} redeploys to {label(dest)}.", dice, events)


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
    if immobilized(agent):
        raise RuleError(
            f"{agent_name(agent)} is Immobilized until the next Refresh phase: he cannot move."
        )
    if not free(state, dest):
        raise RuleError(f"{label(dest)} is occupied.")
    text = f"{agent_name(agent)} leaps through the window to {label(dest)}."
    _hop(state, agent, dest, text, dice, events)


def _hop(
    state: GalaxyState, agent: AgentState, dest: Hex, text: str, dice: Dice, events: list[Event]
) -> None:
    """Place the agent on a neighbouring or same-Area hex outside normal Movement, then let
    anything now in his line of sight be revealed."""
    assert agent.hex is not None
    if expanded(state):  # Fighting Poses (9.2.2)
        hooks().stand(state, agent, events, "moved outside his Movement")
    start = agent.hex
    agent.hex = co(dest)
    events.append(Moved(figure=agent.id, path=[label(hx(start)), label(dest)], text=text))
    if expanded(state):  # Operation Strikeback 9.9 tokens
        hooks().reached(state, agent, events)
    reveal_in_sight(state, dice, events)


def act_bash(
    state: GalaxyState, agent: AgentState, args: dict[str, str], dice: Dice, events: list[Event]
) -> None:
    assert agent.hex is not None

    for pair in list(state.locked):
        if agent.hex in (tuple(pair[0]), tuple(pair[1])) and not (
            expanded(state) and hooks().blocked(state, pair)
        ):
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
    using = args.get("using", "combat").lower()
    if using == "movement":
        if immobilized(agent):
            raise RuleError(
                f"{agent_name(agent)} is Immobilized: his Movement is forfeited, so he can "
                "unjam only with his Combat."
            )
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
    if "destroy-tp" not in {s.split()[0] for s in mission_of(state).special}:
        raise RuleError("This mission has no Teleport Point to destroy.")
    for symbol, h in board_of(state).teleports.items():
        if symbol in state.destroyed_tps:
            continue
        if co(h) == agent.hex or adjacent(state, agent.hex, co(h)):
            state.destroyed_tps.append(symbol)
            events.append(
                Note(
                    text=f"{agent_name(agent)} wrecks the "
                    f"{gdice.symbol_word(symbol)} Teleport Point at {label(h)}."
                )
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
    if device.effect.startswith("grenade"):
        throw_grenade(state, agent, key, args.get("target", ""), dice, events)
        return
    if device.effect == "drone":
        drones.deploy(state, agent, drones.SENTRY, args.get("to", ""), events)
    else:
        problem = effects.effect_problem(state, agent, device.effect)
        if problem:
            raise RuleError(f"{agent_name(agent)} {problem}: the {device.name} is wasted.")
        effects.apply_effect(
            state, agent, device.effect, args.get("target", ""), device.name, events
        )
    agent.devices.remove(key)


def throw_grenade(
    state: GalaxyState, agent: AgentState, key: str, target_id: str, dice: Dice, events: list[Event]
) -> None:
    """A grenade: its dice against every alien in the target's Area; `grenade-<condition>`
    applies that condition to them when any Hit is rolled (an On Hit Effect). A Grenadier "may
    re-roll any die result" (once each): he picks which dice (a `grenadier` prompt)."""
    device = content().devices[key]
    assert agent.hex is not None
    target = find_alien(state, target_id)
    if (
        not agent_sees(state, agent, target.hex)
        or area_distance(state, agent.hex, target.hex) > device.range
    ):
        raise RuleError(f"The {device.name} needs an alien in sight within {device.range} Area.")
    grenadier = any(power_card(k).effect == "grenadier" for k in agent.skills)
    faces = gdice.roll(dice, device.color, device.dice)
    agent.devices.remove(key)
    options = reroll_options(device.color, faces) if grenadier else []
    if options:
        rolled = combat.roll_text(device.color, faces)
        state.pending = Pending(
            kind="grenadier",
            seat=agent.id,
            options=options,
            data={
                "device": key,
                "target": target.id,
                "faces": [str(f) for f in faces],
                "question": f"Grenadier: the {device.name} rolled {numbered(device.color, faces)}."
                " Re-roll which dice (each at most once)",
            },
        )
        events.append(
            Note(
                text=f"{agent_name(agent)} throws a {device.name}: {rolled}; as a Grenadier he "
                "may re-roll any of the dice."
            )
        )
        return
    grenade_lands(state, agent, key, target.id, faces, [], dice, events)


def numbered(color: str, faces: list[int]) -> str:
    """The dice of a roll by number, as a Grenadier's re-roll names them ("1: Hit, Hit")."""
    return "; ".join(
        f"{i}: {combat.roll_text(color, [face])}" for i, face in enumerate(faces, start=1)
    )


def reroll_options(color: str, faces: list[int]) -> list[str]:
    """Every set of dice a Grenadier may re-roll, as `/choose` answers ("dice-1-3", `none`); the
    first is every die without a Hit (the timeout default and the advisor's pick). None when no
    die can improve (each already shows the most Hits a face of its colour holds)."""
    most = max(gdice.symbols(color, f).count(gdice.HIT) for f in range(1, 7))
    if all(gdice.symbols(color, f).count(gdice.HIT) == most for f in faces):
        return []
    sets: list[list[int]] = [[]]
    for i in range(1, len(faces) + 1):
        sets += [[*s, i] for s in sets]
    names = ["dice-" + "-".join(str(i) for i in s) if s else "none" for s in sets]
    misses = [i for i, f in enumerate(faces, 1) if gdice.HIT not in gdice.symbols(color, f)]
    first = "dice-" + "-".join(str(i) for i in misses) if misses else "none"
    return [first, *(n for n in names if n != first)]


def finish_grenade(state: GalaxyState, option: str, dice: Dice, events: list[Event]) -> None:
    """The Grenadier's answer: the dice he named are rolled again, then the grenade lands."""
    pending = state.pending
    assert pending is not None and pending.kind == "grenadier"
    state.pending = None
    agent = state.agents[pending.seat]
    raw = pending.data.get("faces", [])
    faces = [int(f) for f in (raw if isinstance(raw, list) else [])]
    picked = [] if option == "none" else [int(i) - 1 for i in option.split("-")[1:]]
    key = str(pending.data["device"])
    color = content().devices[key].color
    for i in picked:
        faces[i] = gdice.roll(dice, color, 1)[0]
    grenade_lands(state, agent, key, str(pending.data["target"]), faces, picked, dice, events)


def grenade_lands(
    state: GalaxyState,
    agent: AgentState,
    key: str,
    target_id: str,
    faces: list[int],
    rerolled: list[int],
    dice: Dice,
    events: list[Event],
) -> None:
    device = content().devices[key]
    hits = gdice.tally(device.color, faces)[gdice.HIT]
    again = f" (Grenadier re-rolled {', '.join(str(i + 1) for i in rerolled)})" if rerolled else ""
    thrown = f"'s {device.name}" if rerolled else f" throws a {device.name}"
    events.append(
        Note(
            text=f"{agent_name(agent)}{thrown}: "
            f"{combat.roll_text(device.color, faces)} - {counted(hits, 'Hit')}{again}."
        )
    )
    _, _, condition = device.effect.partition("-")
    target = find_alien(state, target_id)
    resolve_defence(
        state,
        agent,
        targets_of(state, target, True, agent, device=True),
        hits,
        0,
        "device",
        condition if hits else "",
        dice,
        events,
        device.name,
    )


def power_problem(agent: AgentState, key: str, state: GalaxyState | None = None) -> str | None:
    power = power_card(key)
    if key not in agent.tactics and key not in agent.skills:
        return f"does not have {power.name}"
    if power.effect == "drone":
        drone = drones.deployed(state, key) if state is not None else None
        if drone is not None:
            return None if drone.ready else "must wait for his next turn to activate the drone"
        if key in agent.spent_drones:
            return f"has already deployed the {power.name} this mission"
        return None
    if power.effect in ("passive", "grenadier"):
        return f"needs no Action for {power.name}: it is always on"
    if key in agent.used_tactics:
        return f"has already used the {power.name} tactic this mission"
    if key in agent.used_skills:
        return f"has already used the {power.name} skill this round"
    if state is None:
        return None
    return effects.effect_problem(state, agent, power.effect)


def use_power(
    state: GalaxyState, agent: AgentState, args: dict[str, str], dice: Dice, events: list[Event]
) -> None:
    key = args.get("what", "").lower()
    problem = power_problem(agent, key, state)
    if problem:
        raise RuleError(f"{agent_name(agent)} {problem}.")
    power = power_card(key)
    if power.effect == "drone":
        if drones.deployed(state, key) is not None:
            drones.activate_gd209(state, agent, events)
        else:
            drones.deploy(state, agent, key, args.get("to", ""), events)
            agent.spent_drones.append(key)
        return
    effects.apply_effect(state, agent, power.effect, args.get("target", ""), power.name, events)
    (agent.used_skills if power.kind == "skill" else agent.used_tactics).append(key)


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
