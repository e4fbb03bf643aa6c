"""GD-Wings ranks: what each rank brings, and what a death takes back.

The rank table (Copper .. Platinum) gives one enhancement per rank: Bronze a basic tactic,
Silver a skill, Gold an improved tactic, Palladium the Elite side (improved profile and an
Energy Shield), Platinum a second skill. A dead agent loses one rank (rulebook, Death) and
with it the enhancement that rank gave: the power chosen for it, or the Elite side.
"""

from __future__ import annotations

from engine.core.events import Event, Note
from engine.galaxy.content import content, power_card
from engine.galaxy.expansion import expanded, hooks
from engine.galaxy.state import AgentState, GalaxyState
from engine.galaxy.world import agent_name, max_hp, rank_name

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
        gain = kind_of(state, agent.rank).replace("-", " ")
        state.promotions.append(f"{agent.id}:{agent.rank}")
    if expanded(state):
        gain = hooks().gain_text(state, agent.rank, gain)
    name = rank_name(state, agent.rank)
    events.append(Note(text=f"GD-Wings: {agent_name(agent)} reaches {name} ({gain})."))


def kind_of(state: GalaxyState, rank: int) -> str:
    """What a rank owes: a basic/improved tactic or a skill (Operation Strikeback's Moon and
    Galaxy: a skill or a random Psionic Power)."""
    if not expanded(state):
        return PROMOTION_KIND[rank]

    return hooks().promotion_kind(state, rank, PROMOTION_KIND)


def promotion_options(agent: AgentState, rank: int, state: GalaxyState | None = None) -> list[str]:
    """The powers a rank lets the agent pick (on an Operation Strikeback mission also the
    expansion's skills, and at Moon and Galaxy `psionic`, a random Psionic Power).

    The box holds one token of each power, and what an agent may take is "limited by the
    availability of the tokens in the Warehouse": a power another agent holds is not offered."""
    kind = PROMOTION_KIND[rank] if state is None else kind_of(state, rank)
    cards = list(content().powers.values())
    expansion = False
    if state is not None and expanded(state):
        expansion = hooks().uses_table(state)
        if expansion:
            cards += list(hooks().skills().values())
    owned = set(agent.tactics) | set(agent.skills)
    if state is not None:
        owned |= held_powers(state)
    wanted = "skill" if expansion and kind == "skill-or-psionic" else kind
    keys = [
        p.key
        for p in cards
        if p.kind == wanted and p.key not in owned and (not p.classes or agent.id in p.classes)
    ]
    if state is not None and kind == "skill-or-psionic":
        return hooks().options(state, agent, rank, keys)
    return keys


def held_powers(state: GalaxyState) -> set[str]:
    """Every tactic and skill token an agent holds, used (flipped) or not."""
    return {
        key
        for one in state.agents.values()
        for pool in (one.tactics, one.used_tactics, one.skills, one.used_skills)
        for key in pool
    }


def grant_power(agent: AgentState, key: str, rank: int) -> None:
    """Give the power picked for a rank, remembering which rank gave it."""
    power = power_card(key)
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
        # the standard side holds fewer Wounds: a dead agent's track stays full, not over
        agent.wounds = min(agent.wounds, max_hp(agent))
        what = "the Elite side and its Energy Shield"
    else:
        key = agent.rank_powers.pop(str(lost), None) or _fallback_power(agent, lost)
        if key is None:
            what = "no power (none was chosen for that rank)"
        elif expanded(state) and _drop_psionic(state, agent, key):
            what = f"the Psionic Power {key}"
        else:
            _drop_power(state, agent, key)
            what = power_card(key).name
    name = rank_name(state, agent.rank)
    events.append(Note(text=f"{agent_name(agent)} drops to {name} and loses {what}."))


def _drop_psionic(state: GalaxyState, agent: AgentState, key: str) -> bool:
    if key not in hooks().psionics():
        return False
    hooks().drop(state, agent, key)
    return True


def _fallback_power(agent: AgentState, rank: int) -> str | None:
    """Saves made before ranks were recorded: the last power of the lost rank's kind."""
    kind = PROMOTION_KIND.get(rank, "skill")
    owned = agent.skills if kind == "skill" else agent.tactics
    return next((k for k in reversed(owned) if power_card(k).kind == kind), None)


def _drop_power(state: GalaxyState, agent: AgentState, key: str) -> None:
    for pool in (agent.tactics, agent.skills, agent.used_tactics, agent.used_skills):
        while key in pool:
            pool.remove(key)
    drone = state.agents.get(key)
    if drone is not None and drone.drone_of == agent.id:
        state.agents.pop(key)  # a drone skill's figure leaves with the skill
