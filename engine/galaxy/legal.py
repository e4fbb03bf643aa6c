"""Every concrete action an agent may take now: the list behind autocomplete and self-play."""

from __future__ import annotations

from engine.core.game import Action
from engine.core.hexgrid import neighbours
from engine.galaxy import dice as gdice
from engine.galaxy import drones, effects, notation
from engine.galaxy.actions import power_problem
from engine.galaxy.agent import (
    combat_problem,
    face_problem,
    guard_extra_now,
    guard_extra_orders,
    guard_order_now,
    guard_orders,
    move_problem,
    reach,
)
from engine.galaxy.aliens import FIRST, first_orders
from engine.galaxy.attack import weapon_problem
from engine.galaxy.board import label
from engine.galaxy.content import content, power, power_card
from engine.galaxy.expansion import expanded, hooks, loaded, own
from engine.galaxy.state import AgentState, AlienState, GalaxyState
from engine.galaxy.world import (
    FACINGS,
    adjacent,
    agent_name,
    agent_sees,
    alien_name,
    area_distance,
    area_of,
    board_of,
    co,
    engaged,
    figures_on_map,
    find_alien,
    free,
    hx,
    immobilized,
    locked,
    mission_of,
    on_map_agents,
    profile,
    weapon,
)


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
        if expanded(state):  # what the expansion adds to his turn
            out.extend(hooks().agent_actions(state, agent))
        for alien in first_orders(state, agent):
            out.append(
                Action(
                    verb="orders",
                    args={"unit": agent.id, "order": f"{FIRST}{alien.id}"},
                    label=f"standing order: {alien_name(alien)} acts first of your aliens",
                )
            )
        now = [guard_order_now(agent), *guard_extra_now(agent)]
        for order in [*guard_orders(agent), *guard_extra_orders(agent)]:
            if order not in now:
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
            if state.options.get("friendly-fire") == "on":  # battle drones count as agents
                targets += [a for a in figures_on_map(state) if a.id != agent.id]
        for target in targets:
            if weapon_problem(state, agent, index, target) is not None:
                continue
            name = agent_name(target) if isinstance(target, AgentState) else alien_name(target)
            args = {"unit": agent.id, "target": target.id, "weapon": ws.key}
            out.append(Action(verb="attack", args=args, label=f"{w.name} at {name}"))
            # 9.2: added dice may be BLUE
            if expanded(state) and hooks().blue_choice_open(state, agent, w):
                out.append(
                    Action(
                        verb="attack",
                        args={**args, "mode": hooks().BLUE_DICE},
                        label=f"{w.name} at {name}, added dice BLUE",
                    )
                )
            if "area-for-ammo" in w.powers and ws.ammo >= 1:
                out.append(
                    Action(
                        verb="attack",
                        args={**args, "mode": "area"},
                        label=f"{w.name} at {name}, +1 Ammo for Area Damage",
                    )
                )
    if expanded(state) and own(state).objects:
        out.extend(hooks().legal_attacks(state, agent))  # Operation Strikeback mission objects
    return out


def search_open(state: GalaxyState) -> bool:
    """Search Areas are open, unless an Operation Strikeback mission opens them later."""
    return not expanded(state) or hooks().rules(state).search_open(state)


def legal_acts(state: GalaxyState, agent: AgentState) -> list[Action]:
    out: list[Action] = []
    if agent.action_used and not expanded(state):
        return out
    assert agent.hex is not None
    unit = agent.id
    # Operation Strikeback: after his Action only Free Actions (6.2.1.1) are left
    only_free = agent.action_used

    def add(what: str, text: str, **extra: str) -> None:
        if only_free and not hooks().becomes_free(state, agent, what):
            return
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
        pcard = power_card(key)
        name = pcard.name
        if pcard.effect == "drone":
            if drones.deployed(state, key) is not None:
                add(key, f"activate the {name}: it moves and fires")
            else:
                for h in drones.deploy_spots(state, agent):
                    add(key, f"deploy the {name} at {label(h)}", to=label(h))
        elif pcard.effect.startswith(notation.TARGETED):
            for other in effects.heal_targets(state, agent, pcard.effect):
                add(key, f"{name} on {agent_name(other)}", target=other.id)
        else:
            add(key, name)
    for device in sorted(set(agent.devices)):
        card = content().devices[device]
        if card.effect.startswith("grenade"):
            for alien in state.aliens:
                if (
                    agent_sees(state, agent, alien.hex)
                    and area_distance(state, agent.hex, alien.hex) <= card.range
                ):
                    add(device, f"{card.name} at {alien_name(alien)}'s Area", target=alien.id)
        elif card.effect == "drone":
            if drones.deployed(state, drones.SENTRY) is None:
                for h in drones.deploy_spots(state, agent):
                    add(device, f"deploy the {card.name} at {label(h)}", to=label(h))
        elif effects.effect_problem(state, agent, card.effect) is not None:
            continue
        elif card.effect.startswith(notation.TARGETED):
            for other in effects.heal_targets(state, agent, card.effect):
                add(device, f"{card.name} on {agent_name(other)}", target=other.id)
        else:
            add(device, card.name)
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
    if area_of(state, agent.hex) in board.search_areas and not is_engaged and search_open(state):
        add("search", "search this Area")
    free_to_go = not is_engaged or agent.evaded
    if not agent.combat_used:
        if is_engaged and not agent.evaded:
            add("evade", "Evade (Action + Combat): roll a Shield to break off")
        if free_to_go and not immobilized(agent):  # redeploying moves him: it needs Movement
            for h in board.area_hexes(area_of(state, agent.hex)):
                if free(state, h):
                    add("redeploy", f"Tactical Redeployment to {label(h)}", to=label(h))
        for pair in state.locked:
            if agent.hex in (tuple(pair[0]), tuple(pair[1])) and not (
                expanded(state) and hooks().blocked(state, pair)
            ):
                add("bash", "bash the locked door (Action + Combat)")
                break
    for ws in agent.weapons:
        if ws.jammed:
            if not agent.combat_used:
                add(
                    "unjam",
                    f"unjam the {weapon(ws.key).name} with Combat",
                    weapon=ws.key,
                    using="combat",
                )
            if agent.movement == "unused" and not immobilized(agent):
                add(
                    "unjam",
                    f"unjam the {weapon(ws.key).name} with Movement",
                    weapon=ws.key,
                    using="movement",
                )
    me = hx(agent.hex)
    if free_to_go and not immobilized(agent):
        for n in neighbours(me):
            if (
                board.on_map(n)
                and board.side_kind(me, n, locked(state)) == "window"
                and free(state, n)
            ):
                add("leap", f"leap through the window to {label(n)}", to=label(n))
    specials = {s.split()[0] for s in mission_of(state).special}
    if "destroy-tp" in specials:
        for symbol, h in board.teleports.items():
            if symbol not in state.destroyed_tps and (h == me or adjacent(state, agent.hex, co(h))):
                add(
                    "destroy-tp",
                    f"wreck the {gdice.symbol_word(symbol)} Teleport Point",
                )
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


MAX_LABEL = 100
"""Autocomplete and select menus show at most 100 characters of a label."""


def choice_label(option: str) -> str:
    """A `/choose` answer in words: a tactic or skill with what it does, a weapon or device
    by name, an agent by codename; anything else (a hex, `nothing`) as it is typed."""
    c = content()
    if power(option) is not None:
        card = power_card(option)
        text = f"{card.name} — {card.text}"
    elif option in c.weapons:
        w = c.weapons[option]
        reach = "melee" if w.range == 0 else f"range {w.range}"
        text = f"{w.name} ({w.dice} {w.color.upper()} dice, {reach})"
    elif option in c.devices:
        text = f"{c.devices[option].name} — {c.devices[option].text}"
    elif option in c.agents:
        agent = c.agents[option]
        text = f"{agent.codename} ({agent.class_})"
    elif (found := expansion_item(option)) is not None:
        text = f"{found[0]} — {found[1]}"
    else:
        return option.replace("-", " ")  # a hex as it is labelled, `stay-out` as words
    if len(text) > MAX_LABEL:
        text = text[: MAX_LABEL - 1].rsplit(" ", 1)[0] + "…"
    return text


PENDING_WORDS = {
    "alpha": "Vote for the Alpha Agent (acts first this round)",
    "search": "Your search turned something up; take",
    "promote": "GD-Wings rank up, pick one",
    "drone-move": "Move your battle drone to",
    "drone-attack": "Your battle drone fires at",
    "revive": "Come back into the mission at",
    "reinforce": "Reinforcements, pick one",
    "deliver": "Who receives the Reinforcement",
    "boost": "Spend Ammo to boost the attack",
    "teleport": "Alpha Agent: the Teleport Point is taken; the newcomer lands on",
    "grenadier": "Grenadier: re-roll which grenade dice",
    "sb-device": "Who receives the device",
    "sb-activate": "Alpha Agent: which alien activates (a tie of equal rank)",
    "sb-pick": "Select a device",
    "sb-mission": "The mission asks",
}


def pending_text(kind: str, options: list[str], question: str = "") -> str:
    """The question a pending choice asks, in words, with its answers (a mission's own prompt,
    kind `sb-mission`, carries its question in `Pending.data["question"]`)."""
    named = [choice_name(o) or o.replace("-", " ") for o in options]
    return f"{question or PENDING_WORDS.get(kind, kind)}: {', '.join(named)}"


def choice_name(option: str) -> str | None:
    """The name of what a `/choose` answer names (a power, weapon, device or agent)."""
    c = content()
    if (found := power(option)) is not None:
        return found.name
    if option in c.weapons:
        return c.weapons[option].name
    if option in c.devices:
        return c.devices[option].name
    if option in c.agents:
        return c.agents[option].codename
    if (item := expansion_item(option)) is not None:
        return item[0]
    return None


def expansion_item(option: str) -> tuple[str, str] | None:
    """An Operation Strikeback device or the `psionic` promotion answer: (name, text)."""

    for ex in loaded():
        if ex.is_device(option):
            d = ex.catalogue()[option]
            return d.name, d.text
        if option == ex.PSIONIC:
            return "Psionic Power", "a randomly selected Psionic Power instead of a skill"
    return None
