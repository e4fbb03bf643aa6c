"""The campaign: missions m1 .. m6 played in one game state, with what carries between them.

When a mission ends, its result is recorded and the team is carried into the next mission
(our rule for a failed mission: it is replayed once; see docs/games/galaxy.md). What carries:
each agent's GD-Wings rank with the tactics and skills it brought, every weapon he owns (full
Ammo, unjammed), refused weapons kept at GD Headquarters, and the battle drones restored.
Devices are mission kit and go back to the Warehouse. With Permanent Death on, an agent dead
when the mission ends comes back at Copper, without his tactics and skills, keeping his
weapons (rulebook).
"""

from __future__ import annotations

from engine.core.dice import Dice
from engine.core.events import Event, MissionEnded, Note
from engine.galaxy.content import content
from engine.galaxy.expansion import expanded, hooks
from engine.galaxy.state import AgentState, CampaignState, GalaxyState, MissionResult, WeaponState
from engine.galaxy.supply import own_weapons
from engine.galaxy.world import agent_name, mission_key, rank_name, weapon

CAMPAIGN = "campaign"
ACCOMPLISHED_BONUS = 1  # Alien Tech fragments the team brings into the next mission
WIN_ACCOMPLISHED = 4  # missions accomplished (the last among them) to win the campaign


def chain() -> list[str]:
    """The campaign's missions: from the first mission along the `next` links."""
    missions = content().missions
    pointed = {m.next for m in missions.values() if m.next}
    first = next(k for k, m in missions.items() if m.next and k not in pointed)
    keys = [first]
    while (nxt := missions[keys[-1]].next) is not None and nxt not in keys:
        keys.append(nxt)
    return keys


def new_campaign(options: dict[str, str] | None = None) -> CampaignState:
    if (options or {}).get("expansion") == "strikeback":  # Operation Strikeback, storybook 5
        return hooks().new_campaign()
    return CampaignState(missions=chain())


def in_campaign(state: GalaxyState) -> bool:
    return state.campaign is not None


def campaign_going_on(state: GalaxyState) -> bool:
    """A mission of the campaign has ended and the next one is still to be set up."""
    return state.campaign is not None and not state.campaign.over and state.outcome is not None


def debrief(state: GalaxyState, events: list[Event], dice: Dice) -> tuple[str, int] | None:
    """Record the ended mission and carry the team over. Returns the next mission to set up
    and the Alien Tech it starts with, or None when the campaign is over (outcome set)."""

    if expanded(state) and hooks().active(state):
        return hooks().debrief(state, dice, events)
    camp = state.campaign
    assert camp is not None and state.outcome is not None
    key = mission_key(state)
    result = MissionResult(
        mission=key,
        attempt=camp.attempt,
        outcome=state.outcome,
        text=state.outcome_text,
        rounds=state.round,
        kills=state.kills,
    )
    camp.results.append(result)
    title = content().missions[key].title
    events.append(
        Note(
            text=f"Campaign: mission {camp.index + 1} of {len(camp.missions)}, {title}, "
            f"{result.outcome} ({result.text})."
        )
    )
    if result.outcome == "failed" and camp.attempt == 1:
        camp.attempt = 2
        events.append(Note(text=f"Campaign: {title} failed; GD Headquarters sends the team back."))
        nxt = key
    elif camp.index + 1 < len(camp.missions):
        camp.index += 1
        camp.attempt = 1
        nxt = camp.missions[camp.index]
    else:
        finish(state, events)
        return None
    carry_over(state, events)
    camp.offers = list(camp.hq)
    state.outcome = None
    state.outcome_text = ""
    return nxt, ACCOMPLISHED_BONUS if result.outcome == "accomplished" else 0


def final_results(camp: CampaignState) -> dict[str, str]:
    """Each mission's last result (a replay replaces the first attempt)."""
    return {r.mission: r.outcome for r in camp.results}


def finish(state: GalaxyState, events: list[Event]) -> None:
    """The final outcome: won when the last mission and at least four in all are
    accomplished; lost when the last mission is failed; otherwise partial."""
    camp = state.campaign
    assert camp is not None
    results = final_results(camp)
    won = sum(1 for o in results.values() if o == "accomplished")
    last = results.get(camp.missions[-1], "failed")
    if last == "failed":
        outcome = "failed"
    elif last == "accomplished" and won >= WIN_ACCOMPLISHED:
        outcome = "accomplished"
    else:
        outcome = "partial"
    camp.over = True
    state.outcome = outcome
    state.outcome_text = (
        f"Campaign {outcome}: {won} of {len(camp.missions)} missions accomplished, "
        f"the last one {last}."
    )
    state.phase = "ended"
    events.append(MissionEnded(outcome=outcome, text=state.outcome_text))


def carry_over(state: GalaxyState, events: list[Event]) -> None:
    """Set the agents up for the next mission; drones go back to their owners."""
    permanent = state.options.get("permanent-death") == "on"
    state.agents = {k: a for k, a in state.agents.items() if a.drone_of is None}
    for seat in state.seats:
        old = state.agents[seat]
        fresh = carried(old)
        if permanent and old.dead:
            fresh.rank, fresh.elite, fresh.tactics, fresh.skills = 0, False, [], []
            fresh.rank_powers = {}
            events.append(
                Note(
                    text=f"Permanent Death: {agent_name(old)} returns to the campaign at "
                    "Copper, keeping his weapons."
                )
            )
        state.agents[seat] = fresh
        events.append(
            Note(
                text=f"{agent_name(fresh)} carries over: rank "
                f"{rank_name(state, fresh.rank)}, weapons "
                + ", ".join(weapon(w.key).name for w in fresh.weapons)
                + "."
            )
        )


def carried(agent: AgentState) -> AgentState:
    """What an agent keeps from one mission to the next: rank, tactics, skills, weapons."""

    elite = agent.rank >= 4
    return AgentState(
        id=agent.id,
        hex=None,
        rank=agent.rank,
        elite=elite,
        energy=content().agents[agent.id].elite.energy if elite else 0,
        weapons=[WeaponState(key=w.key, ammo=weapon(w.key).ammo) for w in own_weapons(agent)],
        tactics=list(agent.tactics),
        skills=list(agent.skills),
        rank_powers=dict(agent.rank_powers),
        guard_order=agent.guard_order,
        guard_weapon=agent.guard_weapon,
        guard_area=agent.guard_area,
    )


def progress_lines(state: GalaxyState) -> list[str]:
    """The campaign panel: where the team is and what it has done so far."""
    camp = state.campaign
    if camp is None:
        return []

    if expanded(state) and hooks().active(state):
        return hooks().progress_lines(state)
    missions = content().missions
    key = mission_key(state)
    lines = [
        f"Mission {camp.index + 1} of {len(camp.missions)}: {missions[key].title}"
        + (" (second attempt)" if camp.attempt > 1 else "")
    ]
    for r in camp.results:
        again = " (attempt 2)" if r.attempt > 1 else ""
        lines.append(f"{missions[r.mission].title}{again}: {r.outcome}, {r.kills} kills")
    if camp.hq:
        lines.append("GD Headquarters: " + ", ".join(weapon(k).name for k in camp.hq))
    if camp.over:
        lines.append(state.outcome_text)
    return lines
