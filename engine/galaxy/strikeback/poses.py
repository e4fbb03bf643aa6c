"""Fighting Poses (9.2.2, an optional rule, default off): Standing, Crouching and Prone.

An agent spends Movement points to change pose (several times if he likes): the cost is the
number of steps between the poses (Standing - Crouching - Prone), so Standing to Prone costs 2
as in the rulebook's first example. Crouching, each hex costs 2 points; Prone, he cannot move
except to change pose. An Engaged agent who has not moved may spend his whole Movement to
stand up. Moving outside the Movement activity (Tactical Redeployment, Leap Through Window)
stands him up. The pose tokens' numbers are ours: Crouching +1 Hit die on ranged attacks, +1
Defend die against ranged attacks, -1 Defend die against melee; Prone +2, +2 and -2.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.core.errors import RuleError
from engine.core.events import Event, Note
from engine.core.words import counted
from engine.galaxy.state import AgentState, GalaxyState
from engine.galaxy.strikeback.lookups import worn
from engine.galaxy.strikeback.status import sb_state, sb_state_or_none
from engine.galaxy.world import agent_name, engaged

POSES = ("standing", "crouching", "prone")
OPTION = "fighting-poses"


@dataclass(frozen=True)
class PoseToken:
    ranged_attack: int  # extra Hit dice on each ranged attack
    ranged_defence: int  # extra Defend dice against ranged attacks
    melee_penalty: int  # Defend dice fewer against melee attacks
    step_cost: int | None  # Movement points per hex (None: no movement)


TOKENS = {
    "standing": PoseToken(0, 0, 0, 1),
    "crouching": PoseToken(1, 1, 1, 2),
    "prone": PoseToken(2, 2, 2, None),
}


def enabled(state: GalaxyState) -> bool:
    return sb_state_or_none(state) is not None and state.options.get(OPTION) == "on"


def pose(state: GalaxyState, agent: AgentState) -> str:
    if sb_state_or_none(state) is None:
        return "standing"
    return sb_state(state).poses.get(agent.id, "standing")


def token(state: GalaxyState, agent: AgentState) -> PoseToken:
    return TOKENS[pose(state, agent)]


def change_cost(old: str, new: str) -> int:
    return abs(POSES.index(new) - POSES.index(old))


def step_cost(state: GalaxyState, agent: AgentState) -> int | None:
    """Movement points per hex in his pose (1 without the option)."""
    return token(state, agent).step_cost if enabled(state) else 1


def pose_problem(state: GalaxyState, agent: AgentState, new: str) -> str | None:
    """Why he cannot take this pose now (None when he can)."""
    if not enabled(state):
        return "cannot take a Fighting Pose: the option is off"
    if new not in POSES:
        return f"knows no pose {new!r} (standing, crouching, prone)"
    if agent.drone_of is not None or agent.hex is None:
        return "cannot take a Fighting Pose"

    if worn(state, agent.id) is not None:
        return "wears a Power Suit: Standing is the only pose (9.2.2)"
    old = pose(state, agent)
    if new == old:
        return f"is already {new}"
    if agent.movement == "closed":
        return "has finished his Movement: poses are changed with Movement points"
    if "immobilize" in agent.conditions:
        return "is Immobilized until the next Refresh phase"
    if agent.movement == "unused" and engaged(state, agent) and not agent.evaded:
        if new != "standing":
            return "is Engaged: he may only stand up, with his whole Movement"
        return None
    if change_cost(old, new) > agent.mp_left:
        return f"needs {counted(change_cost(old, new), 'Movement point')} to go {new}"
    return None


def do_pose(state: GalaxyState, agent: AgentState, new: str, events: list[Event]) -> None:
    problem = pose_problem(state, agent, new)
    if problem:
        raise RuleError(f"{agent_name(agent)} {problem}.")
    assert sb_state_or_none(state) is not None
    old = pose(state, agent)
    if agent.movement == "unused" and engaged(state, agent) and not agent.evaded:
        agent.movement, agent.mp_left = "closed", 0
        spent = "his whole Movement (Engaged)"
    else:
        cost = change_cost(old, new)
        agent.mp_left -= cost
        agent.movement = "open"
        spent = f"{counted(cost, 'Movement point')}, {agent.mp_left} left"
    sb_state(state).poses[agent.id] = new
    events.append(Note(text=f"{agent_name(agent)} goes from {old} to {new} ({spent})."))


def stand(state: GalaxyState, agent: AgentState, events: list[Event], why: str) -> None:
    """Moved outside his Movement activity: back to Standing."""
    if sb_state_or_none(state) is not None and pose(state, agent) != "standing":
        sb_state(state).poses.pop(agent.id, None)
        events.append(Note(text=f"{agent_name(agent)} is Standing again ({why})."))


def attack_dice(state: GalaxyState, agent: AgentState, kind: str) -> int:
    return token(state, agent).ranged_attack if enabled(state) and kind == "ranged" else 0


def defence_dice(state: GalaxyState, agent: AgentState, kind: str) -> int:
    """Extra (or, negative, fewer) Defend dice his pose gives against this attack."""
    if not enabled(state) or agent.drone_of is not None:
        return 0
    t = token(state, agent)
    if kind == "melee":
        return -t.melee_penalty
    return t.ranged_defence if kind == "ranged" else 0


def orders(state: GalaxyState, agent: AgentState) -> list[str]:
    """The pose orders open to him now (`pose-<name>`)."""
    if not enabled(state):
        return []
    return [f"pose-{p}" for p in POSES if pose_problem(state, agent, p) is None]
