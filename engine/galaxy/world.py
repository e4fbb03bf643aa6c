"""Read-only questions about a state on its board: who stands where, who sees whom."""

from __future__ import annotations

from engine.core.errors import RuleError
from engine.core.hexgrid import DIRECTIONS, Hex, distance, line
from engine.core.words import counted
from engine.galaxy.board import Board, Side, label, load_map, parse_label, side
from engine.galaxy.content import (
    AgentProfile,
    AlienCard,
    Mission,
    Weapon,
    alien_card,
    content,
    mission,
    species_name,
)
from engine.galaxy.expansion import expanded, hooks, loaded, own
from engine.galaxy.state import AgentState, AlienState, Coord, GalaxyState, SignalState

RANKS = ("Copper", "Bronze", "Silver", "Gold", "Palladium", "Platinum")
ALPHA_RANKING = ("marine", "biotech", "infiltrator", "sniper", "hulk")


def rank_name(state: GalaxyState, rank: int) -> str:
    """A GD-Wings rank's name: the core table's, or Operation Strikeback's (9.8)."""
    if expanded(state):
        return hooks().rank_name(rank, hooks().uses_table(state))
    return RANKS[rank]


def mission_key(state: GalaxyState) -> str:
    """The mission on the table: the scenario itself, or the campaign's current one."""
    return state.mission or state.scenario


def mission_of(state: GalaxyState) -> Mission:
    return mission(mission_key(state))


def board_of(state: GalaxyState) -> Board:
    return load_map(mission_of(state).map)


def hx(coord: Coord) -> Hex:
    return Hex(coord[0], coord[1])


def co(h: Hex) -> Coord:
    return (h.q, h.r)


def locked(state: GalaxyState) -> set[Side]:
    return {side(hx(a), hx(b)) for a, b in state.locked}


def profile(agent: AgentState) -> AgentProfile:
    if agent.drone_of is not None:
        drone = content().drones.get(agent.id)
        if drone is None:  # an Operation Strikeback device's drone (Vigil, GD-5, Hologram)
            drone = hooks().drone_profile(agent.id)
        if drone is None:  # an Operation Strikeback NPC
            return hooks().npc_profile(agent.id)
        return drone
    return content().agents[agent.id]


def card(alien: AlienState) -> AlienCard:
    return alien_card(alien.card)


def weapon(key: str) -> Weapon:
    found = content().weapons.get(key)
    if found is None:  # an Operation Strikeback device drone's weapon (Vigil, GD-5)
        found = hooks().drone_weapon(key)
    if found is None:  # an Operation Strikeback weapon (Warehouse, Power Suit or NPC)
        return hooks().expansion_weapon(key)
    return found


def knows_alien_tech(agent: AgentState) -> bool:
    """He has Alien Knowledge: the core skill, or one an expansion adds."""
    return "alien-knowledge" in agent.skills or any(ex.knows_alien_tech(agent) for ex in loaded())


def max_hp(agent: AgentState) -> int:
    p = profile(agent)
    return p.elite.hp if agent.elite else p.hp


def agent_name(agent: AgentState) -> str:
    p = profile(agent)
    return f"{p.codename} ({p.class_})"


def seat_label(state: GalaxyState, seat: str | None) -> str:
    """A seat as players read it: its agent's name ("Thorium (Biotech)")."""
    agent = state.agents.get(seat or "")
    return agent_name(agent) if agent is not None else (seat or "none")


def alien_name(alien: AlienState) -> str:
    """An alien as the table says it: "Green Xeno-Beta 7" (its rank, species and the number of
    its board token "x7"; never "GREEN ... x7", which reads as a count)."""
    c = card(alien)
    return f"{c.rank.capitalize()} {species_name(c.species)} {alien_number(alien.id)}"


def reach_words(when: int | str) -> str:
    """An A.I. rule's reach as players read it: "adjacent", "in sight within 2 Areas"."""
    if when == "adjacent":
        return "adjacent"
    if when == "any":
        return "any distance, by a legal path"
    return f"in sight within {counted(int(when), 'Area')}"


def alien_number(alien_id: str) -> str:
    """The number of an alien's token ("x7" -> "7"); an id of another shape as it is."""
    number = alien_id.removeprefix("x")
    return number if number.isdigit() else alien_id


def operative(state: GalaxyState) -> list[AgentState]:
    """Living agents in table order."""
    return [state.agents[s] for s in state.seats if not state.agents[s].dead]


def on_map_agents(state: GalaxyState) -> list[AgentState]:
    return [a for a in operative(state) if a.hex is not None]


def drones(state: GalaxyState) -> list[AgentState]:
    return [a for a in state.agents.values() if a.drone_of is not None and a.hex is not None]


def figures_on_map(state: GalaxyState) -> list[AgentState]:
    """Agents and their deployed drones: what aliens target and what reveals Signals."""
    return on_map_agents(state) + drones(state)


def occupant(state: GalaxyState, h: Hex) -> str | None:
    c = co(h)
    for agent in state.agents.values():
        if agent.hex == c:
            return agent.id
    for alien in state.aliens:
        if alien.hex == c:
            return alien.id
    if expanded(state):  # the rest of a multi-hex alien's base (11.8)
        for alien_id, body in own(state).bodies.items():
            if c in body:
                return alien_id
        found = hooks().rules(state).occupant(state, c)  # a mission's own (a rift ...)
        if found is not None:
            return found
    for signal in state.signals:
        if signal.hex == c:
            return signal.id
    if expanded(state):  # an empty Power Suit occupies its hex (9.5)
        for suit in own(state).suits.values():
            if suit.hex == c:
                return suit.id
    return None


def free(state: GalaxyState, h: Hex) -> bool:
    if expanded(state) and hooks().rules(state).closed(state, co(h)):  # a mission's token
        return False
    return board_of(state).on_map(h) and occupant(state, h) is None


def alien_at(state: GalaxyState, h: Hex) -> AlienState | None:
    found = next((a for a in state.aliens if a.hex == co(h)), None)
    if found is None and expanded(state):
        return next((a for a in state.aliens if co(h) in alien_hexes(state, a)), None)
    return found


def alien_hexes(state: GalaxyState, alien: AlienState) -> list[Coord]:
    """Every hex of the alien's base (one, unless an Operation Strikeback multi-hex alien)."""
    if not expanded(state):
        return [alien.hex]
    return [alien.hex, *own(state).bodies.get(alien.id, [])]


def facing_hex(state: GalaxyState, alien: AlienState, other: Coord) -> Coord:
    """The hex of the alien's base that counts toward `other` (11.8: sight, adjacency and
    range from any hex of the base; the A.I. uses the one closest to the agent)."""
    spots = alien_hexes(state, alien)
    if len(spots) == 1:
        return spots[0]
    return min(
        spots,
        key=lambda c: (
            not adjacent(state, c, other),
            not sees(state, c, other),
            area_distance(state, c, other),
            hex_distance(c, other),
        ),
    )


def alien_adjacent(state: GalaxyState, alien: AlienState, other: Coord) -> bool:
    return any(adjacent(state, c, other) for c in alien_hexes(state, alien))


def find_alien(state: GalaxyState, alien_id: str) -> AlienState:
    if not alien_id.strip():
        raise RuleError("No alien was named: say which alien is the target.")
    for alien in state.aliens:
        if alien.id.lower() == alien_id.lower():
            return alien
    raise RuleError(f"There is no alien '{alien_id}' on the battlefield.")


def find_agent(state: GalaxyState, unit: str) -> AgentState:
    agent = state.agents.get(unit.lower())
    if agent is None:
        names = ", ".join(state.agents)
        raise RuleError(f"There is no agent '{unit}' in this mission (agents: {names}).")
    return agent


def find_signal(state: GalaxyState, signal_id: str) -> SignalState | None:
    return next((s for s in state.signals if s.id == signal_id), None)


def hex_arg(text: str) -> Hex:
    h = parse_label(text)
    if h is None:
        raise RuleError(f"'{text}' is not a hex label such as C4.")
    return h


def sees(state: GalaxyState, a: Coord, b: Coord) -> bool:
    return board_of(state).los(hx(a), hx(b), locked(state))


FACINGS = ("E", "NE", "NW", "W", "SW", "SE")  # hexgrid.DIRECTIONS order


def in_front(agent: AgentState, target: Coord) -> bool:
    """Human View: the line must leave through one of the 3 front hexes (a step along a side
    counts when either of its hexes is in front)."""

    assert agent.hex is not None
    me = hx(agent.hex)
    front = {me + DIRECTIONS[(agent.facing + d) % 6] for d in (-1, 0, 1)}
    steps = line(me, hx(target))
    if len(steps) < 2:
        return True
    return any(h in front for h in steps[1])


def agent_sees(state: GalaxyState, agent: AgentState, target: Coord) -> bool:
    """An agent's sight for attacks, items and powers (Human View applies when on)."""
    assert agent.hex is not None
    if not sees(state, agent.hex, target):
        return False
    if agent.drone_of is not None:
        return True  # drones always see all around
    return state.options.get("human-view", "on") != "on" or in_front(agent, target)


def adjacent(state: GalaxyState, a: Coord, b: Coord) -> bool:
    return board_of(state).adjacent(hx(a), hx(b), locked(state))


def area_distance(state: GalaxyState, a: Coord, b: Coord) -> int:
    """Range in Areas; adjacent hexes are always at distance 0."""
    if adjacent(state, a, b):
        return 0
    return board_of(state).area_distance(hx(a), hx(b))


def area_of(state: GalaxyState, c: Coord) -> str:
    return board_of(state).area_of[hx(c)]


def walk_distance(state: GalaxyState, a: Coord, b: Coord, walker: str = "alien") -> int | None:
    """Areas an alien must cross to reach b's Area from a (None: no legal path)."""
    graph = board_of(state).walk_graph(locked(state), walker)
    return graph.distance(area_of(state, a), area_of(state, b))


def immobilized(agent: AgentState) -> bool:
    """Immobilized (or Paralyzed, which counts as Immobilized): Movement is forfeited until the
    next Refresh, and with it every action that needs Movement."""
    return "immobilize" in agent.conditions or "paralyze" in agent.conditions


def engaged(state: GalaxyState, agent: AgentState) -> bool:
    if agent.hex is None:
        return False
    return any(alien_adjacent(state, alien, agent.hex) for alien in engaging(state))


def engaging(state: GalaxyState) -> list[AlienState]:
    """The aliens that engage figures next to them: all but Burrowing ones (7.2)."""
    if not expanded(state):
        return state.aliens

    return [a for a in state.aliens if not hooks().is_burrower(a)]


def hex_distance(a: Coord, b: Coord) -> int:
    return distance(hx(a), hx(b))


def where(c: Coord | None) -> str:
    return "-" if c is None else label(hx(c))
