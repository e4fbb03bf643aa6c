"""GD-Wings ranks: what each rank brings, and what a death takes back.

The rank table (Copper .. Platinum) gives one enhancement per rank: Bronze a basic tactic,
Silver a skill, Gold an improved tactic, Palladium the Elite side (improved profile and an
Energy Shield), Platinum a second skill. A dead agent loses one rank (rulebook, Death) and
with it the enhancement that rank gave: the power chosen for it, or the Elite side.
"""

from __future__ import annotations

from engine.core.events import Event, Note
from engine.galaxy.content import content
from engine.galaxy.state import AgentState, GalaxyState
from engine.galaxy.world import RANKS, agent_name

ELITE_RANK = 4  # Palladium flips the Agent Profile Sheet
PROMOTION_KIND = {1: "basic-tactic", 2: "skill", 3: "improved-tactic", 5: "skill"}


def rank_up(state: GalaxyState, agent: AgentState, events: list[Event]) -> None:
    """One rank up: Palladium flips to the Elite side at once; the other ranks owe a tactic or
    skill that the player picks (queued in `state.promotions`)."""
    agent.rank += 1
    if agent.rank == ELITE_RANK:
        agent.elite = True
        agent.energy = content().agents[agent.id].elite.energy
        gain = "Elite Agent: improved profile and Energy Shield"
    else:
        gain = PROMOTION_KIND[agent.rank].replace("-", " ")
        state.promotions.append(f"{agent.id}:{agent.rank}")
    events.append(Note(text=f"GD-Wings: {agent_name(agent)} reaches {RANKS[agent.rank]} ({gain})."))


def promotion_options(agent: AgentState, rank: int) -> list[str]:
    kind = PROMOTION_KIND[rank]
    owned = set(agent.tactics) | set(agent.skills)
    return [
        p.key
        for p in content().powers.values()
        if p.kind == kind and p.key not in owned and (not p.classes or agent.id in p.classes)
    ]


def grant_power(agent: AgentState, key: str, rank: int) -> None:
    """Give the power picked for a rank, remembering which rank gave it."""
    power = content().powers[key]
    (agent.skills if power.kind == "skill" else agent.tactics).append(key)
    agent.rank_powers[str(rank)] = key


def lose_rank(state: GalaxyState, agent: AgentState, events: list[Event]) -> None:
    """Death: one rank down (if possible) and the enhancement of the lost rank goes with it."""
    if agent.rank == 0:
        return
    lost = agent.rank
    agent.rank -= 1
    state.promotions = [p for p in state.promotions if p != f"{agent.id}:{lost}"]
    if lost == ELITE_RANK:
        agent.elite = False
        agent.energy = 0
        what = "the Elite side and its Energy Shield"
    else:
        key = agent.rank_powers.pop(str(lost), None) or _fallback_power(agent, lost)
        if key is None:
            what = "no power (none was chosen for that rank)"
        else:
            _drop_power(state, agent, key)
            what = content().powers[key].name
    events.append(Note(text=f"{agent_name(agent)} drops to {RANKS[agent.rank]} and loses {what}."))


def _fallback_power(agent: AgentState, rank: int) -> str | None:
    """Saves made before ranks were recorded: the last power of the lost rank's kind."""
    kind = PROMOTION_KIND[rank]
    owned = agent.skills if kind == "skill" else agent.tactics
    powers = content().powers
    return next((k for k in reversed(owned) if powers[k].kind == kind), None)


def _drop_power(state: GalaxyState, agent: AgentState, key: str) -> None:
    for pool in (agent.tactics, agent.skills, agent.used_tactics, agent.used_skills):
        while key in pool:
            pool.remove(key)
    drone = state.agents.get(key)
    if drone is not None and drone.drone_of == agent.id:
        state.agents.pop(key)  # a drone skill's figure leaves with the skill
