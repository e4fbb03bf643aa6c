"""Galaxy Defenders briefings and objective progress, from the engine's mission data."""

from __future__ import annotations

from typing import Any

from bot.guide.briefing import Briefing
from engine.galaxy import campaign, notation, objectives
from engine.galaxy.content import Mission, Objective, content
from engine.galaxy.content import mission as mission_of_key

RESULTS = {"accomplished": "Accomplished", "partial": "Partial", "failed": "Failed"}
COUNTER_WORDS = {
    "kills": "aliens killed",
    "destroyed": "Teleport Points wrecked",
    "rescued": "civilians reached",
}
SPECIAL_WORDS = {
    "destroy-tp": "Wreck a Teleport Point: an Action standing on or next to it.",
    "rescue": "Reach a civilian or crew member: an Action on or next to their hex.",
    "alien-armory": "Alien weapons join the Supply: an agent may pick one up instead of an "
    "Earth weapon.",
}
MAX_AGENTS = 5


def agent_class(key: str) -> str:
    """An agent's class as players read it ("Chromium (Marine)")."""
    agent = content().agents.get(key)
    return f"{agent.codename} ({agent.class_})" if agent is not None else key


def _needs_line(objective: Objective, agents: int | None) -> str:
    """The counters an objective row needs, as numbers for this team (or by team size)."""
    parts = []
    for cond in objective.when:
        name, sep, value = cond.partition(">=")
        if not (sep and name in objectives.COUNTERS):
            continue
        base, per = notation.parse_count(value)
        if agents is not None or not per:
            need = base + int(per * (agents or 0))
            parts.append(f"{need} {COUNTER_WORDS[name]}")
        else:
            sizes = "/".join(str(base + int(per * n)) for n in range(1, MAX_AGENTS + 1))
            parts.append(f"{sizes} {COUNTER_WORDS[name]} for 1/2/3/4/5 agents")
    return "; ".join(parts)


def _out_of_reach(objective: Objective, agents: int | None) -> str:
    """A row that needs more agents alive than the team has (Strikeback mission 5 wants three
    survivors for Accomplished): said plainly for this team size."""
    for cond in objective.when:
        name, sep, value = cond.partition(">=")
        short = sep and value.isdigit() and agents is not None and agents < int(value)
        if name == "alive" and short:
            return (
                f" — out of reach for a team of {agents}: it needs {value} agents alive at the end"
            )
    return ""


def objective_lines(mission: Mission, agents: int | None) -> list[str]:
    """Every row of the Objectives table, top-down as the engine reads it; a row that reads
    exactly as one above it (a round-limit row repeating the Event deck's, as in Strikeback
    missions 4 and 5) is said once."""
    lines: list[str] = []
    for row in mission.objectives:
        needs = _needs_line(row, agents)
        extra = f" (needs {needs})" if needs else ""
        extra += _out_of_reach(row, agents)
        line = f"**{RESULTS[row.result]}:** {row.text}{extra}"
        if line not in lines:
            lines.append(line)
    return lines


def _special(mission: Mission, in_campaign: bool = False) -> list[str]:
    out = [SPECIAL_WORDS[key] for key in mission.special if key in SPECIAL_WORDS]
    stacks: list[list[str]] = list(getattr(mission, "stacks", []))
    if mission.special_events and stacks:  # Operation Strikeback: an ordered deck (2.2)
        out.append(_ordered_deck(mission, stacks))
    elif mission.special_events:
        names = ", ".join(e.name for e in mission.special_events)
        out.append(f"This mission's own Event cards are shuffled into the Event deck: {names}.")
    out.extend(getattr(mission, "guide", []))
    devices = content().devices
    if mission.kit:
        kit = "; ".join(
            f"{agent_class(cls)}: {', '.join(devices[d].name if d in devices else d for d in keys)}"
            for cls, keys in mission.kit.items()
        )
        out.append(f"Starting devices: {kit}.")
    if mission.issued and not in_campaign:  # a campaign's weapons are the ones researched
        weapons = content().weapons
        issued = "; ".join(
            f"{agent_class(cls)}: {', '.join(weapons[w].name if w in weapons else w for w in keys)}"
            for cls, keys in mission.issued.items()
        )
        out.append(f"Weapons issued at the briefing: {issued}.")
    return out


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def _ordered_deck(mission: Mission, stacks: list[list[str]]) -> str:
    """Where each Special Event sits in a deck built from ordered stacks: a card alone in its
    stack has a fixed place; one in a larger stack may be any card of that stack."""
    where: dict[str, str] = {}
    first = 1
    for stack in stacks:
        last = first + len(stack) - 1
        for card in stack:
            if first == last:
                where[card] = f"the {_ordinal(first)} Event card"
            else:
                where[card] = f"one of Event cards {first}-{last}"
        first = last + 1
    parts = [
        f"{e.name} is {where[e.id]}" if e.id in where else f"{e.name} waits aside for its trigger"
        for e in mission.special_events
    ]
    return (
        "The Event deck is stacked in order, not shuffled: " + "; ".join(parts) + ". The "
        "other cards in a stack are shuffled with it."
    )


def briefing(scenario: str, options: dict[str, str], state: Any) -> Briefing:
    missions = content().missions
    agents = len(state.seats) if state is not None else None
    if scenario == campaign.CAMPAIGN and options.get("expansion") == "strikeback":
        return _strikeback_briefing(state, agents)
    if scenario == campaign.CAMPAIGN:
        key = state.mission if state is not None and state.mission else campaign.chain()[0]
        chain = " → ".join(missions[k].title for k in campaign.chain())
        mission = missions[key]
        return Briefing(
            title=f"Campaign: {mission.title} (mission {campaign.chain().index(key) + 1})",
            situation=mission.briefing,
            objectives=[
                *objective_lines(mission, agents),
                f"The campaign: {chain}. Accomplish {campaign.WIN_ACCOMPLISHED} missions, "
                "the last among them, to win it; a failed mission is replayed once.",
            ],
            limit=f"{mission.rounds} rounds for this mission.",
            special=_special(mission, in_campaign=True),
            figures=_figures(),
            notes=NOTES,
        )
    mission = mission_of_key(scenario)  # a core or an Operation Strikeback mission
    return Briefing(
        title=mission.title,
        situation=mission.briefing,
        objectives=objective_lines(mission, agents),
        limit=f"{mission.rounds} rounds; the table above is read top-down at every Mission "
        "Status check, and the first row that holds ends the mission.",
        special=_special(mission),
        figures=_figures(),
        notes=NOTES,
    )


def _strikeback_briefing(state: Any, agents: int | None) -> Briefing:
    """Operation Strikeback's campaign: the mission on the table, its table with the next
    mission each result leads to, and GD Headquarters' weapons for it."""
    from engine.galaxy.strikeback import campaign as strikeback
    from engine.galaxy.strikeback.missions import STORYBOOK

    key = state.mission if state is not None and state.mission else STORYBOOK[0]
    mission = mission_of_key(key)
    branches: dict[str, str | None] = dict(getattr(mission, "branches", {}))
    lines = objective_lines(mission, agents)
    nexts = []
    for result, nxt in branches.items():
        where = "the campaign is won" if nxt is None else f"mission {STORYBOOK.index(nxt) + 1}"
        nexts.append(f"{RESULTS[result].lower()} → {where}")
    if nexts:
        lines.append("Next mission: " + "; ".join(nexts) + ".")
    lines.append(
        "Operation Strikeback: each result sends the team to the mission the table names; "
        f"mission 6 accomplished wins the campaign, a mission failed {strikeback.MAX_ATTEMPTS} "
        "times in a row ends it."
    )
    special = _special(mission, in_campaign=True)
    limits: dict[str, int] = dict(getattr(mission, "weapon_limits", {}))
    special.append(
        f"GD Headquarters: the team takes up to {limits.get('improved', 0)} Improved and "
        f"{limits.get('alien', 0)} Alien weapons for this mission (`/choose`, each agent in "
        "turn from the Alpha Agent)."
    )
    number = STORYBOOK.index(key) + 1
    return Briefing(
        title=f"Operation Strikeback campaign: {mission.title} (mission {number} of 6)",
        situation=mission.briefing,
        objectives=lines,
        limit=f"{mission.rounds} rounds for this mission.",
        special=special,
        figures=_figures(),
        notes=NOTES,
    )


def _figures() -> list[str]:
    agents = content().agents
    each = ", ".join(f"{key} {agent.codename}" for key, agent in agents.items())
    return [f"Each seat plays one agent: {each}."]


NOTES = ["A drone or sentry gun an agent deploys is his to command."]


def progress(state: Any) -> list[str]:
    """Every counter the objectives judge, with this team's targets (the engine's words, as
    in the board's header: kills, Teleport Points, civilians, an expansion mission's fires)."""
    from engine.galaxy.world import mission_of

    mission = mission_of(state)
    lines = [f"Round {state.round} of {mission.rounds}"]
    words = {objectives.COUNTER_NAMES[k]: w for k, w in COUNTER_WORDS.items()}
    lines += [f"{words.get(name, name)}: {count}" for name, count in objectives.progress(state)]
    return lines
