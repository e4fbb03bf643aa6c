"""Mission tokens agents carry (storybook 7: mission 2's Underground Probes, mission 3's
Remote Control): who carries what, dropping them where a carrier dies, picking them up by
walking over them, and the advisor's step toward a goal hex."""

from __future__ import annotations

from engine.core.events import Event, Note
from engine.core.game import Action
from engine.core.hexgrid import distance
from engine.galaxy.board import label
from engine.galaxy.state import AgentState, Coord, GalaxyState
from engine.galaxy.strikeback.play import sb
from engine.galaxy.world import adjacent, agent_name, area_of, board_of, hex_arg, hx, locked

NAMES = {"probe": "Underground Probe", "remote": "Remote Control", "bomb": "EMP-Nuke Bomb"}


def carried(state: GalaxyState, agent: str, kind: str) -> list[str]:
    """The tokens of this kind the agent carries, by name."""
    return sorted(
        k
        for k, t in sb(state).pieces.items()
        if t.kind == kind and t.holder == agent and not t.gone
    )


def lying(state: GalaxyState, kind: str) -> list[Coord]:
    """Hexes where a dropped token of this kind lies (not planted on a Waypoint)."""
    return sorted(
        t.hex
        for t in sb(state).pieces.values()
        if t.kind == kind and not t.gone and not t.holder and not t.waypoint and t.hex is not None
    )


def drop_all(state: GalaxyState, agent: AgentState, events: list[Event]) -> None:
    """A carrier dies: what he carried lies on the hex his figure held."""
    if agent.hex is None:
        return
    for key, token in sb(state).pieces.items():
        if token.holder == agent.id and not token.gone:
            token.holder, token.hex = "", agent.hex
            events.append(
                Note(text=f"The {NAMES.get(token.kind, key)} falls at {label(hx(agent.hex))}.")
            )


def pick_up(
    state: GalaxyState, agent: AgentState, walked: list[Coord], events: list[Event]
) -> None:
    """Walking over a dropped token picks it up."""
    for key, token in sb(state).pieces.items():
        if token.gone or token.holder or token.waypoint or token.hex not in walked:
            continue
        if token.kind not in ("probe", "remote"):
            continue
        token.holder, token.hex = agent.id, None
        events.append(Note(text=f"{agent_name(agent)} picks up the {NAMES.get(token.kind, key)}."))


def advisor_step_toward(
    state: GalaxyState,
    agent: AgentState,
    actions: list[Action],
    goals: list[Coord],
    adjacent_ok: bool,
) -> Action | None:
    """The move that brings the agent nearest a goal (onto it, or next to it when that is
    enough): fewest Areas to walk, then fewest hexes; None when no move gets closer."""
    assert agent.hex is not None
    graph = board_of(state).walk_graph(locked(state), "alien")

    def gap(spot: Coord) -> tuple[int, int]:
        best = (99, 99)
        for goal in goals:
            if spot == goal or (adjacent_ok and adjacent(state, spot, goal)):
                return (0, 0)
            areas = graph.distance(area_of(state, spot), area_of(state, goal))
            best = min(best, (99 if areas is None else areas, distance(hx(spot), hx(goal))))
        return best

    moves = [a for a in actions if a.verb == "move"]
    if not moves:
        return None
    here = gap(agent.hex)
    if here == (0, 0):
        return None

    def where(a: Action) -> Coord:
        h = hex_arg(a.args["to"])
        return (h.q, h.r)

    best = min(moves, key=lambda a: (gap(where(a)), a.args["to"]))
    return best if gap(where(best)) < here else None
