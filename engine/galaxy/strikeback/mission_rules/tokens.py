"""Mission tokens agents carry (storybook 7: mission 2's Underground Probes, mission 3's
Remote Control): the tokens (kept in the mission's `CarriedState`), who carries what, dropping
them where a carrier dies, picking them up by walking over them, and the advisor's step toward
a goal hex."""

from __future__ import annotations

from typing import ClassVar

from pydantic import BaseModel, Field

from engine.core.events import Event, Note
from engine.core.game import Action
from engine.core.hexgrid import distance
from engine.galaxy.board import label
from engine.galaxy.state import AgentState, Coord, GalaxyState
from engine.galaxy.strikeback.status import MissionState, sb_state
from engine.galaxy.strikeback.travel import nearer
from engine.galaxy.world import adjacent, agent_name, area_of, board_of, hex_arg, hx, locked

NAMES = {"probe": "Underground Probe", "remote": "Remote Control", "bomb": "EMP-Nuke Bomb"}


class MissionToken(BaseModel):
    """A mission's token (storybook 7): carried by an agent, lying on a hex, or deployed on a
    Waypoint; some can be attacked (Health points)."""

    kind: str  # probe, bomb, remote ...
    holder: str = ""  # the agent carrying it ("" when it lies on the map or is gone)
    hex: tuple[int, int] | None = None  # where it lies, when not carried
    waypoint: int = 0  # the Waypoint it is deployed on (0: not deployed)
    hp: int = 0
    wounds: int = 0
    gone: bool = False  # destroyed or spent: back to the Warehouse


class CarriedState(MissionState):
    """The state of a mission whose agents carry its tokens, and the mission's own counters."""

    pieces: dict[str, MissionToken] = Field(default_factory=dict)  # by name: probe1, remote ...
    flags: dict[str, int] = Field(default_factory=dict)  # the mission's own counters
    legacy_fields: ClassVar[tuple[str, ...]] = ("pieces", "flags")


def pieces(state: GalaxyState) -> dict[str, MissionToken]:
    """The carried tokens of the mission being played."""
    part = sb_state(state).mission_state
    assert isinstance(part, CarriedState)
    return part.pieces


def carried(state: GalaxyState, agent: str, kind: str) -> list[str]:
    """The tokens of this kind the agent carries, by name."""
    return sorted(
        k for k, t in pieces(state).items() if t.kind == kind and t.holder == agent and not t.gone
    )


def lying(state: GalaxyState, kind: str) -> list[Coord]:
    """Hexes where a dropped token of this kind lies (not planted on a Waypoint)."""
    return sorted(
        t.hex
        for t in pieces(state).values()
        if t.kind == kind and not t.gone and not t.holder and not t.waypoint and t.hex is not None
    )


def drop_all(state: GalaxyState, agent: AgentState, events: list[Event]) -> None:
    """A carrier dies: what he carried lies on the hex his figure held."""
    if agent.hex is None:
        return
    for key, token in pieces(state).items():
        if token.holder == agent.id and not token.gone:
            token.holder, token.hex = "", agent.hex
            events.append(
                Note(text=f"The {NAMES.get(token.kind, key)} falls at {label(hx(agent.hex))}.")
            )


def pick_up(
    state: GalaxyState, agent: AgentState, walked: list[Coord], events: list[Event]
) -> None:
    """Walking over a dropped token picks it up."""
    for key, token in pieces(state).items():
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
    enough): fewest Areas to walk, then fewest hexes; when no walk gets closer, a Jet Boots
    flight or a Phase Step that does; None when nothing gets closer."""
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

    here = gap(agent.hex)
    if here == (0, 0):
        return None

    def where(a: Action) -> Coord:
        h = hex_arg(a.args["to"])
        return (h.q, h.r)

    moves = [a for a in actions if a.verb == "move"]
    best = min(moves, key=lambda a: (gap(where(a)), a.args["to"])) if moves else None
    if best is not None and gap(where(best)) < here:
        return best
    return nearer(actions, lambda a: gap(where(a)), here)  # Jet Boots or Phase Step
