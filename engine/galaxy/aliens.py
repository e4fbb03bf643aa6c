"""Alien activation: the A.I. section of each Alien card, read from the closest range out.

Policies (the rulebook leaves these to "the aliens, against the agents"):
- A rule applies when some agent fits its range with line of sight and a legal walking path
  (the last rule, `any`, only needs the path).
- Target: most Wounds, then fewest HPs left, then the fewest Areas to walk, then the fewest
  hexes, then table order from the Alpha Agent.
- Movement runs Area centre to Area centre along a shortest legal path; in the last Area the
  alien redeploys to a free hex adjacent to its target when it can (then to as many agents as
  possible), else to the centre or the free hex nearest it.
- "away": back to the Area it came from, else the neighbouring Area farthest from the target.
"""

from __future__ import annotations

from engine.core.dice import Dice
from engine.core.errors import RuleError
from engine.core.events import Event, Moved, Note
from engine.core.hexgrid import Hex, distance
from engine.core.words import counted
from engine.galaxy.attack import alien_attack, guard_react
from engine.galaxy.board import label
from engine.galaxy.content import AIRule
from engine.galaxy.expansion import expanded, hooks
from engine.galaxy.lifecycle import clockwise_from_alpha
from engine.galaxy.state import AgentState, AlienState, GalaxyState
from engine.galaxy.world import (
    adjacent,
    agent_name,
    alien_name,
    area_distance,
    area_of,
    board_of,
    card,
    co,
    facing_hex,
    figures_on_map,
    free,
    hx,
    locked,
    max_hp,
    reach_words,
    sees,
    walk_distance,
)


def walker(alien: AlienState) -> str:
    """`flyer` for a Flying or Burrowing alien (it crosses Barrier sides), else `alien`."""
    powers = getattr(card(alien), "sb_powers", [])
    return "flyer" if {"flying", "burrowing"} & set(powers) else "alien"


def fits(state: GalaxyState, alien: AlienState, agent: AgentState, rule: AIRule) -> bool:
    assert agent.hex is not None
    return fits_at(state, alien, agent.hex, rule)


def fits_at(state: GalaxyState, alien: AlienState, goal: tuple[int, int], rule: AIRule) -> bool:
    spot = facing_hex(state, alien, goal)  # a multi-hex alien: its closest hex (11.8)
    if rule.when == "adjacent":
        return adjacent(state, spot, goal)
    if walk_distance(state, spot, goal, walker(alien)) is None:
        return False
    if rule.when == "any":
        return True
    return sees(state, spot, goal) and area_distance(state, spot, goal) <= int(rule.when)


def unit_of(state: GalaxyState, alien: AlienState) -> list[AlienState]:
    """The figures that activate together: a Prime Swarm's two (11.6), else the alien."""
    if not expanded(state):
        return [alien]

    return hooks().figures(state, alien)


def actor_for(state: GalaxyState, alien: AlienState, spot: tuple[int, int]) -> AlienState:
    """The figure the A.I. reads toward `spot`: a Prime Swarm's closest one (11.6)."""
    if not expanded(state):
        return alien

    return hooks().closest(state, alien, spot)


def pick_target(state: GalaxyState, alien: AlienState, agents: list[AgentState]) -> AgentState:
    order = clockwise_from_alpha(state)

    def key(agent: AgentState) -> tuple[int, int, int, int, int]:
        assert agent.hex is not None
        alien_here = actor_for(state, alien, agent.hex)
        spot = facing_hex(state, alien_here, agent.hex)
        walk = walk_distance(state, spot, agent.hex, walker(alien))
        return (
            -agent.wounds,
            max_hp(agent) - agent.wounds,
            99 if walk is None else walk,
            distance(hx(spot), hx(agent.hex)),
            order.index(agent.drone_of or agent.id),
        )

    return min(agents, key=key)


def activate(state: GalaxyState, alien: AlienState, dice: Dice, events: list[Event]) -> None:
    if "paralyze" in alien.conditions:
        events.append(Note(text=f"{alien_name(alien)} is Paralyzed and does nothing."))
        return
    c = card(alien)
    agents = figures_on_map(state)
    if expanded(state):  # a Master Alien with Archenemy hunts the Menacing Agent
        agents = hooks().hunted(state, alien, agents, events)
    unit = unit_of(state, alien)
    decoys: dict[str, tuple[int, int]] = {}
    if expanded(state):  # mission tokens it takes for the weakest agent
        decoys = hooks().decoys(state, alien)
    for number, rule in enumerate(c.ai, start=1):
        spots = [t for t, at in decoys.items() if any(fits_at(state, f, at, rule) for f in unit)]
        if spots:
            decoy_rule(state, alien, number, rule, spots, decoys, dice, events)
            return
        eligible = [a for a in agents if any(fits(state, f, a, rule) for f in unit)]
        if not eligible:
            continue
        target = pick_target(state, alien, eligible)
        assert target.hex is not None
        alien = actor_for(state, alien, target.hex)  # a Prime Swarm: the closest figure acts
        reach = reach_words(rule.when)
        others = "" if len(eligible) == 1 else f" of {len(eligible)} (most wounded, fewest HP)"
        why = (
            f"A.I. rule {number}, {reach}: {agent_name(target)}{others}, "
            f"{counted(target.wounds, 'Wound')}, {max_hp(target) - target.wounds} HP left"
        )
        events.append(Note(text=f"{alien_name(alien)} activates - {why}."))
        for step in rule.do:
            if alien not in state.aliens or target.dead or state.outcome:
                return
            do_step(state, alien, target, step, dice, events, why)
        return
    events.append(Note(text=f"{alien_name(alien)} has no rule to apply and stays put."))


def decoy_rule(
    state: GalaxyState,
    alien: AlienState,
    number: int,
    rule: AIRule,
    spots: list[str],
    decoys: dict[str, tuple[int, int]],
    dice: Dice,
    events: list[Event],
) -> None:
    """An A.I. rule against a mission token an Operation Strikeback mission makes a target
    (a probe, a bomb): it counts as the most wounded and weakest agent, so it is chosen
    first; between tokens the nearest (walk, then hexes, then name)."""

    def near(token: str) -> tuple[int, int, str]:
        at = decoys[token]
        walk = walk_distance(state, alien.hex, at, walker(alien))
        return (99 if walk is None else walk, distance(hx(alien.hex), hx(at)), token)

    token = min(spots, key=near)
    goal = decoys[token]
    alien = actor_for(state, alien, goal)
    events.append(
        Note(text=f"{alien_name(alien)} activates - A.I. rule {number}: the {token} token.")
    )
    stand_in = AgentState(id=token, hex=goal, weapons=[])  # where it lies, for the A.I. steps
    for step in rule.do:
        if alien not in state.aliens or state.outcome or token not in decoys_now(state, alien):
            return
        word, _, count = step.partition(" ")
        if word in ("melee", "ranged"):
            w = card(alien).melee if word == "melee" else card(alien).ranged
            assert w is not None
            unit = unit_of(state, alien)
            seen = any(sees(state, facing_hex(state, f, goal), goal) for f in unit)
            if word == "melee":
                unit = [f for f in unit if adjacent(state, facing_hex(state, f, goal), goal)]
            else:
                unit = [
                    f
                    for f in unit
                    if area_distance(state, facing_hex(state, f, goal), goal) <= w.range
                ]
            if unit and (word == "melee" or seen):
                hooks().strike_decoy(state, unit[0], token, word, dice, events)
            else:
                events.append(Note(text=f"{alien_name(alien)} cannot reach the {token} token."))
            continue
        if "immobilize" in alien.conditions:
            events.append(Note(text=f"{alien_name(alien)} is Immobilized and cannot move."))
            return
        areas = int(count or 1)
        moved = False
        if word in ("toward", "adjacent"):
            moved = move_toward(state, alien, goal, areas, stand_in, events, f"the {token} token")
        elif word == "away":
            moved = move_away(state, alien, stand_in, areas, events)
        elif word == "tp":
            moved = move_to_teleport(state, alien, areas, events)
        if moved:
            hooks().follow(state, alien, events)
            guard_react(state, alien, dice, events)


def decoys_now(state: GalaxyState, alien: AlienState) -> dict[str, tuple[int, int]]:
    return hooks().decoys(state, alien)


def do_step(
    state: GalaxyState,
    alien: AlienState,
    target: AgentState,
    step: str,
    dice: Dice,
    events: list[Event],
    why: str,
) -> None:
    assert target.hex is not None
    word, _, number = step.partition(" ")
    if word in ("melee", "ranged"):
        c = card(alien)
        w = c.melee if word == "melee" else c.ranged
        assert w is not None
        unit = unit_of(state, alien)  # a Prime Swarm sees with either figure (11.6)
        seen = any(sees(state, facing_hex(state, f, target.hex), target.hex) for f in unit)
        if word == "melee":
            unit = [
                f for f in unit if adjacent(state, facing_hex(state, f, target.hex), target.hex)
            ]
        else:
            unit = [
                f
                for f in unit
                if area_distance(state, facing_hex(state, f, target.hex), target.hex) <= w.range
            ]
        if word == "melee" and not unit:
            events.append(Note(text=f"{alien_name(alien)} cannot reach {agent_name(target)}."))
            return
        if word == "ranged" and (not seen or not unit):
            events.append(Note(text=f"{alien_name(alien)} has no shot at {agent_name(target)}."))
            return
        alien_attack(state, unit[0], target, word, dice, events, why)
        return
    if "immobilize" in alien.conditions:
        events.append(Note(text=f"{alien_name(alien)} is Immobilized and cannot move."))
        return
    areas = int(number or 1)
    moved = False
    if word in ("toward", "adjacent"):
        moved = move_toward(state, alien, target.hex, areas, target, events)
    elif word == "away":
        moved = move_away(state, alien, target, areas, events)
    elif word == "tp":
        moved = move_to_teleport(state, alien, areas, events)
    if moved and expanded(state):
        hooks().follow(state, alien, events)  # a Prime Swarm's other figure keeps up (11.6)
    if moved:
        guard_react(state, alien, dice, events)


def final_hex(
    state: GalaxyState, alien: AlienState, area: str, target: AgentState | None
) -> Hex | None:
    board = board_of(state)
    own = hx(alien.hex)
    options = [h for h in board.area_hexes(area) if h == own or free(state, h)]
    # a multi-hex alien needs room for its whole base (11.8)
    if expanded(state) and hooks().multi(state, alien):
        options = [h for h in board.area_hexes(area) if hooks().fits(state, alien, h)]
    if not options:
        return None
    centre = board.centres[area]
    agents = [a for a in figures_on_map(state) if a.hex is not None]

    def key(h: Hex) -> tuple[int, int, int, int, int]:
        hits_target = (
            target is not None and target.hex is not None and adjacent(state, co(h), target.hex)
        )
        engaged = sum(1 for a in agents if a.hex is not None and adjacent(state, co(h), a.hex))
        return (not hits_target, -engaged, distance(h, centre), h.r, h.q)

    if target is None:
        return min(options, key=lambda h: (distance(h, centre), h.r, h.q))
    return min(options, key=key)


def relocate(
    state: GalaxyState, alien: AlienState, path: list[str], dest: Hex, events: list[Event], why: str
) -> bool:
    start = hx(alien.hex)
    if dest == start:
        return False
    if path and path[0] != area_of(state, alien.hex):
        path = [area_of(state, alien.hex), *path]
    if len(path) > 1:
        alien.came_from = path[-2]
    alien.hex = co(dest)
    if expanded(state):
        hooks().settle(state, alien)
    events.append(
        Moved(
            figure=alien.id,
            path=[label(start), label(dest)],
            text=f"{alien_name(alien)} moves {label(start)} -> {label(dest)} ({why}).",
        )
    )
    return True


def move_toward(
    state: GalaxyState,
    alien: AlienState,
    goal: tuple[int, int],
    areas: int,
    target: AgentState | None,
    events: list[Event],
    goal_name: str = "",
) -> bool:
    graph = board_of(state).walk_graph(locked(state), walker(alien))
    here = area_of(state, alien.hex)
    path = graph.shortest_path(here, area_of(state, goal))
    if path is None:
        return False
    steps = path[: areas + 1]
    # Back off along the path while the last Area has no free hex.
    while steps:
        engage = target if (len(steps) >= len(path) - 1) else None
        spot = final_hex(state, alien, steps[-1], engage)
        if (
            engage is not None
            and engage.hex is not None
            and spot is not None
            and not adjacent(state, co(spot), engage.hex)
            and len(steps) >= 2
        ):
            # No free hex next to the target in its Area: stop in the Area before it, next to
            # the target when that works.
            fallback = final_hex(state, alien, steps[-2], engage)
            if fallback is not None and adjacent(state, co(fallback), engage.hex):
                steps, spot = steps[:-1], fallback
        if spot is not None:
            name = goal_name or (agent_name(target) if target else f"{label(hx(goal))}")
            return relocate(state, alien, steps, spot, events, f"toward {name}")
        steps = steps[:-1]
    return False


def move_away(
    state: GalaxyState, alien: AlienState, target: AgentState, areas: int, events: list[Event]
) -> bool:
    graph = board_of(state).walk_graph(locked(state), walker(alien))
    sight = board_of(state).sight_graph()
    assert target.hex is not None
    their = area_of(state, target.hex)
    far = sight.distances(their)
    path = [area_of(state, alien.hex)]
    came = alien.came_from
    for _ in range(areas):
        here = path[-1]
        options = [a for a in graph.adjacent(here) if a not in path]
        if not options:
            break
        if came in options:
            nxt = came
        else:
            nxt = max(options, key=lambda a: (far.get(a, 99), a))
            if far.get(nxt, 99) < far.get(here, 99):
                break
        path.append(nxt)
        came = None
    if len(path) == 1:
        return False
    for stop in range(len(path) - 1, 0, -1):
        spot = final_hex(state, alien, path[stop], None)
        if spot is not None:
            return relocate(state, alien, path[: stop + 1], spot, events, "falls back")
    return False


def move_to_teleport(
    state: GalaxyState, alien: AlienState, areas: int, events: list[Event]
) -> bool:
    board = board_of(state)
    points = [h for s, h in board.teleports.items() if s not in state.destroyed_tps]
    if not points or hx(alien.hex) in points:
        return False
    graph = board.walk_graph(locked(state), walker(alien))
    reach = graph.distances(area_of(state, alien.hex))
    goal = min(points, key=lambda h: (reach.get(board.area_of[h], 99), h.r, h.q))
    if area_of(state, alien.hex) == board.area_of[goal]:
        return False
    return move_toward(state, alien, co(goal), areas, None, events)


def activation_order(state: GalaxyState, aliens: list[AlienState]) -> list[AlienState]:
    """Aliens of the Alpha Agent's player first, then clockwise; each player's in the order he
    chose (the rulebook lets a player with several aliens choose: a standing order, `first-`,
    puts one of his aliens ahead of the others), else by arrival (with Operation Strikeback,
    by rank first: Purple, Red, Blue, Green, 11.1 and 11.5)."""
    order = clockwise_from_alpha(state)
    if expanded(state):
        return sorted(
            aliens,
            key=lambda a: (
                order.index(a.controller),
                hooks().RANK[card(a).rank],
                priority(state, a),
                int(a.id[1:]),
            ),
        )
    return sorted(
        aliens, key=lambda a: (order.index(a.controller), priority(state, a), int(a.id[1:]))
    )


FIRST = "first-"
"""A standing order naming the alien a player activates before his others: `first-x3`."""


def priority(state: GalaxyState, alien: AlienState) -> int:
    """Where the controller's standing order puts this alien (unnamed ones after, by arrival)."""
    holder = state.agents.get(alien.controller)
    named = holder.alien_order if holder is not None else []
    return named.index(alien.id) if alien.id in named else len(named)


def own_order(state: GalaxyState, seat: str) -> list[AlienState]:
    """The seat's aliens in the order they activate when a card calls them all."""
    mine = [a for a in state.aliens if a.controller == seat]
    return sorted(mine, key=lambda a: (priority(state, a), int(a.id[1:])))


def first_orders(state: GalaxyState, agent: AgentState) -> list[AlienState]:
    """The aliens the agent's player may order to act first: with two or more aliens, every
    one that is not first already."""
    mine = own_order(state, agent.id)
    return mine[1:] if len(mine) > 1 else []


def do_first_order(state: GalaxyState, agent: AgentState, order: str, events: list[Event]) -> None:
    alien_id = order[len(FIRST) :]
    mine = own_order(state, agent.id)
    found = next((a for a in mine if a.id == alien_id), None)
    if found is None:
        raise RuleError(f"'{alien_id}' is not one of the aliens whose card you hold.")
    if len(mine) < 2:
        raise RuleError("You hold one Alien card: there is no order to set.")
    if mine[0] is found:
        raise RuleError(f"{alien_name(found)} already acts first among your aliens.")
    agent.alien_order = [found.id, *(i for i in agent.alien_order if i != found.id)]
    names = ", ".join(alien_name(a) for a in own_order(state, agent.id))
    events.append(
        Note(text=f"Standing order of {agent_name(agent)}'s player: his aliens act as {names}.")
    )
