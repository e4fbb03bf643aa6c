"""The Operation Strikeback campaign (storybook 5): scenario `campaign` with `expansion:strikeback`.

The six storybook missions are played in one game state, like the core campaign
(`engine/galaxy/campaign.py`), but the next mission is the one the Objectives table's last
column names for the result (`branches` in the mission's file, storybook 2.4): a failed
mission may send the team back or repeat itself, and the campaign is won when mission 6 is
accomplished. What differs from the core campaign:

- 5.1 Starting equipment: GD Headquarters holds every core Improved weapon and five core Alien
  weapons drawn at random (the injected dice). At the start of each mission the team takes
  weapons from GD Headquarters up to the briefing's limits (`weapon_limits`, storybook 2.1):
  each agent, clockwise from the Alpha Agent, picks weapons one by one (`/choose
  option:<weapon>|done`), each then taken in place of a weapon of his or refused as usual.
  When the mission ends every Improved and Alien weapon goes back to GD Headquarters and the
  agents take up their standard weapons again.
- 5.2 Starting GD-Wings rank: the agents start mission 1 at Gold, choosing one Basic Tactic,
  one Skill and one Improved Tactic (the core rank table's Bronze, Silver and Gold picks).
- 5.3 Reinforcements: four Alien Tech buy a chosen Generic device from the Warehouse or a new
  Improved weapon drawn at random among all the Improved weapons (the core box's and the
  expansion's) not carried and not at GD Headquarters, whatever the classes in play; an Alien
  weapon when none is left. A weapon no
  agent on the map can (or wants to) take is kept at GD Headquarters.
- 5.4 GD-Wings: one rank per mission at most; an agent who gained none rolls once more when
  the mission ends.
- 5.5 Death: an agent dead when the mission ends returns at Gold, keeping the tactics and the
  skill of his first three ranks and his weapons. The agent the Wormoon swallowed (mission 6)
  is Inoperative, not dead: he keeps his ranks.
- What carries (storybook 5: ranks and what the labs research): each agent's rank with its
  tactics, skills, Psionic Powers and Elite side; every Improved and Alien weapon researched
  (carried, refused, kept, or triggered by an Armory token whose Reinforcements never came)
  at GD Headquarters; the mission's result, which picks the next Special Event columns. Fresh
  each mission: wounds, Ammo, used tactics and powers, devices (the briefing's kit), Critical
  tokens, Power Suits. Alien Tech fragments do not carry: the rules spend fragments "gathered
  during the mission" and the storybook names no carry-over (a decision in the doc).
- Our limit for a campaign that keeps failing: a mission failed `MAX_ATTEMPTS` times in a row
  ends the campaign, failed (the storybook sends a team that fails mission 6 to the
  Extinction Protocol expansion, which is not ours; it names no limit).
"""

from __future__ import annotations

from engine.core.dice import Dice, shuffle
from engine.core.errors import NotSupportedYet, RuleError
from engine.core.events import Event, MissionEnded, Note
from engine.galaxy.campaign import carried
from engine.galaxy.content import content, mission
from engine.galaxy.lifecycle import clockwise_from_alpha
from engine.galaxy.phases import gd_wings
from engine.galaxy.state import (
    AgentState,
    CampaignState,
    GalaxyState,
    MissionResult,
    Pending,
    WeaponState,
)
from engine.galaxy.strikeback import powers
from engine.galaxy.strikeback.headquarters import weapon_pool
from engine.galaxy.strikeback.mission_rules import rules_for
from engine.galaxy.strikeback.missions import STORYBOOK, missions
from engine.galaxy.strikeback.status import sb_state, sb_state_or_none
from engine.galaxy.strikeback.wings import rank_name, top_rank
from engine.galaxy.supply import offer_weapon, replaceable
from engine.galaxy.supply import own_weapons as without_suit
from engine.galaxy.world import RANKS, agent_name, mission_key, weapon


def own_weapons(agent: AgentState) -> list[WeaponState]:
    return without_suit(agent)


EXPANSION = "strikeback"
GOLD = 3  # index of Gold in RANKS
START_ALIEN_WEAPONS = 5  # 5.1: core Alien weapons researched before the campaign
MAX_ATTEMPTS = 3  # ours: the third failure in a row of one mission ends the campaign
ARMORY_KIND = "sb-armory"  # the Pending kind of the GD Headquarters pick
DONE = "done"


def storybook() -> tuple[str, ...]:
    return STORYBOOK


def registered() -> set[str]:
    return set(missions())


def new_campaign() -> CampaignState:
    return CampaignState(missions=list(storybook()))


def require_mission(key: str) -> None:
    """A branch may only lead to a mission that exists: otherwise refuse it by name."""
    if key not in registered():
        number = storybook().index(key) + 1
        raise NotSupportedYet(
            f"Operation Strikeback Storybook 7 Mission {number} ({key}), where the "
            "campaign goes next"
        )


def start(state: GalaxyState, dice: Dice) -> None:
    """5.1 and 5.2 at the campaign's start: GD Headquarters' weapons; Gold for everyone."""
    camp = state.campaign
    assert camp is not None
    improved = sorted(k for k, w in content().weapons.items() if w.tier == "improved")
    aliens = sorted(k for k, w in content().weapons.items() if w.tier == "alien")
    drawn = shuffle(dice, aliens)[:START_ALIEN_WEAPONS]
    camp.hq = [*improved, *sorted(drawn)]
    state.options["start-rank"] = RANKS[GOLD].lower()


# -- the end of a mission -----------------------------------------------------------------------


def debrief(state: GalaxyState, dice: Dice, events: list[Event]) -> tuple[str, int] | None:
    """Record the ended mission, roll 5.4's last GD-Wings, carry the team over and name the
    next mission from the Objectives table's column (None: the campaign is over)."""

    camp = state.campaign
    assert camp is not None and state.outcome is not None
    key = mission_key(state)
    played = missions()[key]
    outcome = state.outcome
    nxt = played.branches.get(outcome)
    if nxt is not None:
        require_mission(nxt)
    camp.results.append(
        MissionResult(
            mission=key,
            attempt=camp.attempt,
            outcome=outcome,
            text=state.outcome_text,
            rounds=state.round,
            kills=state.kills,
        )
    )
    number = storybook().index(key) + 1
    events.append(
        Note(text=f"Campaign: mission {number}, {played.title}, {outcome} ({state.outcome_text}).")
    )

    for seat in clockwise_from_alpha(state):
        agent = state.agents[seat]
        if not agent.dead and agent.ranks_gained == 0 and agent.rank < top_rank(state):
            events.append(Note(text=f"GD-Wings: {agent_name(agent)}'s last roll of the mission."))
            gd_wings(state, agent, dice, events)
    if nxt is None:
        finish(state, "accomplished", events)
        return None
    if nxt == key and camp.attempt >= MAX_ATTEMPTS:
        finish(state, "failed", events)
        return None
    camp.attempt = camp.attempt + 1 if nxt == key else 1
    camp.index = storybook().index(nxt)
    researched(state, dice, events)
    carry_over(state, events)
    camp.offers = []
    state.outcome = None
    state.outcome_text = ""
    title = missions()[nxt].title
    again = " again" if nxt == key else ""
    events.append(Note(text=f"Campaign: GD Headquarters sends the team{again} to {title}."))
    return nxt, 0


def finish(state: GalaxyState, outcome: str, events: list[Event]) -> None:
    camp = state.campaign
    assert camp is not None
    last = camp.results[-1]
    if outcome == "accomplished":
        text = f"Campaign won: {mission(last.mission).title} accomplished, the Moon is clear."
    else:
        text = (
            f"Campaign failed: {mission(last.mission).title} failed {MAX_ATTEMPTS} times in a "
            "row; GD Headquarters calls the operation off."
        )
    camp.over = True
    state.outcome = outcome
    state.outcome_text = text
    state.phase = "ended"
    events.append(MissionEnded(outcome=outcome, text=text))


def researched(state: GalaxyState, dice: Dice, events: list[Event]) -> None:
    """An Armory token reached too late for a Reinforcements step: the weapon it triggered is
    researched all the same, so it waits at GD Headquarters for the next missions (storybook
    5: what the labs research stays available)."""

    camp = state.campaign
    assert camp is not None
    owed = sb_state(state).gear.armory
    while owed:
        pool = weapon_pool(state, owed.pop(0))
        if pool:
            key = pool[dice.randrange(len(pool))]
            camp.hq.append(key)
            events.append(
                Note(
                    text=f"The Armory's research, the {weapon(key).name}, waits at GD Headquarters."
                )
            )


def carry_over(state: GalaxyState, events: list[Event]) -> None:
    """Ranks and powers carry (5.5: a dead agent comes back at Gold); every Improved and Alien
    weapon goes back to GD Headquarters; drones go back to their owners."""

    camp = state.campaign
    assert camp is not None
    state.agents = {k: a for k, a in state.agents.items() if a.drone_of is None}
    held_out = kept_out(state)
    for seat in state.seats:
        old = state.agents[seat]
        fresh = carried(old)
        for held in own_weapons(old):  # a worn Power Suit's weapon stays with the suit
            if weapon(held.key).tier != "standard" and held.key not in camp.hq:
                camp.hq.append(held.key)
        fresh.weapons = [
            WeaponState(key=k, ammo=weapon(k).ammo) for k in content().agents[seat].weapons
        ]
        if old.dead and seat in held_out:  # inoperative, not dead: he keeps his ranks
            events.append(
                Note(text=f"{agent_name(fresh)} is freed from the Wormoon and keeps his rank.")
            )
        elif old.dead and fresh.rank > GOLD:
            back_to_gold(fresh, state)
            events.append(
                Note(
                    text=f"{agent_name(fresh)} died in the mission and returns to the "
                    "campaign at Gold, with his weapons."
                )
            )
        state.agents[seat] = fresh
        rank = rank_name(fresh.rank, expansion=True)
        events.append(Note(text=f"{agent_name(fresh)} carries over: rank {rank}."))
    if camp.hq:
        events.append(
            Note(text="GD Headquarters holds " + ", ".join(weapon(k).name for k in camp.hq) + ".")
        )


def kept_out(state: GalaxyState) -> tuple[str, ...]:
    """Agents the mission holds out of play (mission 6: inside the Wormoon): Inoperative,
    yet not dead."""
    if sb_state_or_none(state) is None:
        return ()
    return rules_for(mission_key(state)).kept_out(state)


def back_to_gold(agent: AgentState, state: GalaxyState | None = None) -> None:
    """5.5: the ranks above Gold are lost, with the powers (and the Elite side) they gave; a
    Psionic Power among them goes back to the box."""

    lost = [p for r, p in agent.rank_powers.items() if int(r) > GOLD]
    if state is not None and sb_state_or_none(state) is not None:
        for key in lost:
            powers.drop(state, agent, key)
    agent.tactics = [t for t in agent.tactics if t not in lost]
    agent.skills = [s for s in agent.skills if s not in lost]
    agent.rank_powers = {r: p for r, p in agent.rank_powers.items() if int(r) <= GOLD}
    agent.rank = GOLD
    agent.elite = False
    agent.energy = 0


# -- GD Headquarters: the mission's weapons (2.1, 5.1) ------------------------------------------


def limits(state: GalaxyState) -> dict[str, int]:
    return dict(getattr(mission(mission_key(state)), "weapon_limits", {}))


def carried_count(state: GalaxyState, tier: str) -> int:
    return sum(
        1
        for seat in state.seats
        for held in own_weapons(state.agents[seat])
        if weapon(held.key).tier == tier
    )


def armory_options(state: GalaxyState, seat: str) -> list[str]:
    """The GD Headquarters weapons an agent may still take this briefing."""
    camp = state.campaign
    assert camp is not None
    caps = limits(state)
    room = {tier: caps.get(tier, 0) - carried_count(state, tier) for tier in ("improved", "alien")}
    return sorted(
        {
            k
            for k in camp.hq
            if room.get(weapon(k).tier, 0) > 0
            and (not weapon(k).classes or seat in weapon(k).classes)
            and replaceable(state, state.agents[seat], k)  # 9.2.1
        }
    )


def offer_armory(state: GalaxyState, events: list[Event]) -> bool:
    """At a campaign mission's first Strategy phase: each agent, clockwise from the Alpha
    Agent, picks GD Headquarters weapons within the briefing's limits (one prompt per pick)."""
    assert sb_state_or_none(state) is not None
    layer = sb_state(state)
    if not layer.armory_open and state.round == 1 and not layer.armory:
        layer.armory_open = True
        layer.armory = [s for s in clockwise_from_alpha(state) if not state.agents[s].dead]
        caps = limits(state)
        events.append(
            Note(
                text=f"GD Headquarters: the team may take up to {caps.get('improved', 0)} "
                f"Improved and {caps.get('alien', 0)} Alien weapons for this mission."
            )
        )
    while layer.armory:
        seat = layer.armory[0]
        agent = state.agents[seat]
        picks = layer.armory_picks.get(seat, 0)
        options = armory_options(state, seat) if picks < len(own_weapons(agent)) else []
        if not options:
            layer.armory.pop(0)
            continue
        question = f"GD Headquarters, {agent_name(agent)} takes a weapon, or {DONE}"
        state.pending = Pending(
            kind=ARMORY_KIND, seat=seat, options=[*options, DONE], data={"question": question}
        )
        events.append(Note(text=f"{question}."))
        return True
    return False


def finish_armory(state: GalaxyState, option: str, events: list[Event]) -> None:
    pending = state.pending
    assert pending is not None and sb_state_or_none(state) is not None
    state.pending = None
    layer = sb_state(state)
    seat = pending.seat
    if option == DONE:
        if layer.armory and layer.armory[0] == seat:
            layer.armory.pop(0)
        events.append(Note(text=f"{agent_name(state.agents[seat])} is ready."))
        return
    if option not in armory_options(state, seat):
        raise RuleError(f"GD Headquarters cannot issue {option} now.")
    layer.armory_picks[seat] = layer.armory_picks.get(seat, 0) + 1
    offer_weapon(state, state.agents[seat], option, "hq", events, "GD Headquarters")


def default_armory(state: GalaxyState) -> str:
    """Timeout policy (and the advisor's pick): the weapon with the most dice among those that
    would take the place of a standard weapon of the same kind (a weapon is taken in place of
    the first one of its kind), else `done`."""
    pending = state.pending
    assert pending is not None
    agent = state.agents[pending.seat]

    def first_of_kind(kind: str) -> str | None:
        return next((w.key for w in own_weapons(agent) if weapon(w.key).kind == kind), None)

    upgrades = [
        o
        for o in pending.options
        if o != DONE
        and (slot := first_of_kind(weapon(o).kind)) is not None
        and weapon(slot).tier == "standard"
    ]
    if not upgrades:
        return DONE
    return max(upgrades, key=lambda o: (weapon(o).dice, agent.id in weapon(o).classes, o))


# -- 5.3 Reinforcements -------------------------------------------------------------------------


def random_weapon(state: GalaxyState, dice: Dice, tier: str = "alien") -> str | None:
    """A new weapon by 5.3's random procedure, for a mission or an Armory that delivers one
    (`tier` "improved": an Alien one once every Improved one is researched)."""
    pool = weapon_pool(state, tier)
    return pool[dice.randrange(len(pool))] if pool else None


def progress_lines(state: GalaxyState) -> list[str]:
    """The campaign panel for a Strikeback campaign."""
    camp = state.campaign
    assert camp is not None
    key = mission_key(state)
    lines = [
        f"Mission {storybook().index(key) + 1} of 6: {mission(key).title}"
        + (f" (attempt {camp.attempt})" if camp.attempt > 1 else "")
    ]
    for r in camp.results:
        number = storybook().index(r.mission) + 1
        again = f" (attempt {r.attempt})" if r.attempt > 1 else ""
        lines.append(f"{number}. {mission(r.mission).title}{again}: {r.outcome}, {r.kills} kills")
    if camp.hq:
        lines.append("GD Headquarters: " + ", ".join(weapon(k).name for k in camp.hq))
    if camp.over:
        lines.append(state.outcome_text)
    return lines
