"""A mission's Objectives table: its conditions, read top-down at every Mission Status check.

Conditions are data (`missions.json`): `all-dead`, `extracted`, `always`, `round>N`, and the
counters `kills>=N`, `destroyed>=N`, `rescued>=N`. A counter's number may grow with the team:
`kills>=1+1.5/agent` needs 1 kill plus 1.5 (rounded down in total) for every agent the mission
began with, so a mission asks about as much of 2 agents as of 5 (our content: the Storybook's
missions are not reproduced).
"""

from __future__ import annotations

from engine.core.events import Event, MissionEnded
from engine.galaxy.content import Objective
from engine.galaxy.expansion import expanded, hooks
from engine.galaxy.notation import parse_count
from engine.galaxy.state import GalaxyState
from engine.galaxy.world import area_of, board_of, mission_of, operative

COUNTERS = ("kills", "destroyed", "rescued")


def threshold(state: GalaxyState, text: str) -> int:
    """The number a counter must reach: N plus M per agent, rounded down."""
    base, per = parse_count(text)
    return base + int(per * len(state.seats))


def counter(state: GalaxyState, name: str) -> int:
    if name == "kills":
        return state.kills
    if name == "destroyed":
        return len(state.destroyed_tps)
    return state.rescued


def needs(state: GalaxyState, objective: Objective) -> dict[str, int]:
    """The counters an objective row asks for, with their numbers for this team."""
    out: dict[str, int] = {}
    for cond in objective.when:
        name, sep, value = cond.partition(">=")
        if sep and name in COUNTERS:
            out[name] = threshold(state, value)
    return out


COUNTER_NAMES = {"kills": "kills", "destroyed": "teleports destroyed", "rescued": "rescued"}


def progress(state: GalaxyState) -> list[tuple[str, str]]:
    """Every counter the mission's objectives judge, as (name, count in words): the core
    counters against the accomplished row's number for this team, then the expansion
    mission's own (fires, bombs, ...). For the header and `/campaign status`."""
    shown: dict[str, int] = {}
    for row in mission_of(state).objectives:
        if row.result == "accomplished":
            shown.update(needs(state, row))
    counts = [(COUNTER_NAMES[n], f"{counter(state, n)} of {need}") for n, need in shown.items()]
    if expanded(state):
        counts += hooks().objective_counts(state)
    return counts


def condition_met(state: GalaxyState, cond: str) -> bool:
    if cond == "always":
        return True
    if cond == "all-dead":
        return not operative(state)
    if cond == "extracted":
        exits = board_of(state).exit_areas
        alive = [a for a in operative(state) if a.hex is not None]
        return bool(alive) and all(area_of(state, a.hex) in exits for a in alive if a.hex)
    name, sep, value = cond.partition(">=")
    if sep and name in COUNTERS:
        return counter(state, name) >= threshold(state, value)
    if cond.startswith("round>"):
        return state.round > int(cond[len("round>") :])
    if expanded(state):  # an Operation Strikeback mission's own conditions
        return hooks().condition(state, cond)
    return False


def mission_status(state: GalaxyState, events: list[Event]) -> bool:
    """Check the Objectives table top-down; the first matching row ends the mission."""
    for objective in mission_of(state).objectives:
        if all(condition_met(state, c) for c in objective.when):
            state.outcome = objective.result
            state.outcome_text = objective.text
            state.phase = "ended"
            events.append(
                MissionEnded(
                    outcome=objective.result, text=f"Mission {objective.result}: {objective.text}"
                )
            )
            return True
    return False
