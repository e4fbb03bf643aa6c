"""Forlorn: Hope briefings and objective progress, from the engine's operation data."""

from __future__ import annotations

from typing import Any

from bot.guide.briefing import Briefing, situation
from engine.core.words import counted, many
from engine.forlorn.content import ITEMS, Scenario, Spawn, units
from engine.forlorn.handover import pool_words, seat_lines
from engine.forlorn.setup import scenario_data
from engine.forlorn.turn import VP_EXIT


def _names(keys: list[str]) -> str:
    marines = units().marines
    return ", ".join(marines[k].name if k in marines else k.title() for k in keys)


def goal_lines(scenario: str, sc: Scenario) -> list[str]:
    goal = sc.goal
    kind = goal.kind
    turns = sc.turns
    if kind == "vp" and scenario == "solo-a":
        main = (
            f"Bank {goal.target} Victory Points. Each Victory phase scores 1 VP while the "
            "Lieutenant lives, plus 1 VP for every Marine on square A or next to it with A in "
            "sight."
        )
    elif kind == "vp":
        squad = [*sc.marines, *(k for keys in sc.trapped.values() for k in keys)]
        by_worth: dict[int, list[str]] = {}
        for key in squad:
            by_worth.setdefault(VP_EXIT.get(key, 8), []).append(key)
        worth = "; ".join(
            f"{vp} VP each for {_names(keys)}" for vp, keys in sorted(by_worth.items())
        )
        main = (
            f"Bank {goal.target} Victory Points: Marines out through airlock C score "
            f"({worth}), and each warrior, blaster or egg destroyed scores 1 VP."
        )
    elif kind == "mcgfn-exit":
        main = f"Unplug the MCGFN at {sc.mcgfn or 'A'} and carry it out through any airlock."
    elif kind == "clear-rooms":
        main = f"Leave no Xeno in rooms {' and '.join(goal.rooms)} at a Victory phase."
    elif kind == "mcgfn-activate":
        main = (
            f"Bring the MCGFN to square {goal.square} and feed it {goal.aps} Action "
            "Points, at most one per turn."
        )
    elif kind == "exit":
        main = f"Get {goal.count} Marines out through airlock {goal.airlock}."
    else:
        main = str(kind)
    return [
        f"**Victory:** {main}",
        f"**Defeat:** the goal is not met when turn {turns} ends, or no Marine is left.",
    ]


def _spawn_words(spawn: Spawn) -> str:
    if spawn.dice:
        units = ", ".join(counted(n, kind.capitalize()) for kind, n in spawn.dice.items())
        return f"{units}, each out of the vent its die names"
    return ", ".join(spawn_count(expr, kind) for kind, expr in spawn.count.items())


SPAWN_NOUNS = {"special": ("Special Trooper", " (a Warrior or a Blaster each)")}


def spawn_count(expr: str, kind: str) -> str:
    """A spawn count in words, so no dice key shows: `d3+1` Drones -> "2 to 4 Drones (a roll
    of 1 to 3, plus 1)", `1` Warrior -> "1 Warrior"."""
    noun, note = SPAWN_NOUNS.get(kind, (kind.capitalize(), ""))
    die, _, plus = expr.partition("+")
    if not die.startswith("d") or not die[1:].isdigit():
        return (counted(int(expr), noun) if expr.isdigit() else f"{expr} {many(noun)}") + note
    sides, extra = int(die[1:]), int(plus) if plus.isdigit() else 0
    rolled = f"a roll of 1 to {sides}" + (f", plus {extra}" if extra else "")
    return f"{1 + extra} to {sides + extra} {many(noun)}{note} ({rolled})"


FLAG_WORDS = {
    "random_bot": "A Maintenance Bot blocks one random vent from the start.",
    "bot_on_vent": "During set-up the Marines park a Maintenance Bot on a vent.",
    "warrior_if_two": "When exactly two Drones are rolled, a Warrior joins them.",
    "turn4_blasters": "On turn 4 two Blasters come out of random vents.",
    "first_turn_flood": "Turn 1 ends with a flood of Xenos instead of the normal spawn.",
    "extra_specials": "Every spawn also brings a Warrior and a Blaster.",
    "specials_even_turns": "Special Troopers spawn on even turns only.",
    "blaster_swap": "The Xenos may take a Blaster in place of two rolled Drones.",
    "rerolls": "Once per game the Marines may re-roll their Action Point dice and the Xenos "
    "their spawn die.",
}
"""Operation flags (scenarios.json, difficulty folded in) and what each means at the table."""


def _spawn_lines(sc: Scenario) -> list[str]:
    """When and how the Xenos come, in the operation's own numbers."""
    out = [f"Spawn each turn: {_spawn_words(sc.spawn)}."]
    late = sc.spawn_late
    if late:
        out.append(f"From turn {late.from_turn}: {_spawn_words(Spawn(dice=late.dice))}.")
    if sc.no_respawn:
        out.append(f"Killed {', '.join(sc.no_respawn)}s do not come back.")
    if sc.sealed_vents:
        out.append(f"Sealed vents: {', '.join(map(str, sc.sealed_vents))}.")
    out += [sentence for flag, sentence in FLAG_WORDS.items() if getattr(sc, flag)]
    return out


def briefing(scenario: str, options: dict[str, str], state: Any) -> Briefing:
    difficulty = options.get("difficulty", "standard")
    sc = scenario_data(scenario, difficulty)
    special = []
    if sc.equipment:
        special.append(f"Equipment: {', '.join(ITEMS.get(i, i) for i in sc.equipment)}.")
    special.append(f"Plasma grenades for the squad: {sc.grenades}.")
    if sc.eggs:
        special.append(f"Eggs on the map: {sc.eggs}.")
    if sc.trapped:
        trapped = "; ".join(f"room {room}: {_names(keys)}" for room, keys in sc.trapped.items())
        special.append(f"Trapped Marines ({trapped}) join the squad once freed.")
    if sc.heroic:
        special.append(f"Heroic Marines: {_names(sc.heroic)}.")
    if sc.carry_mcgfn:
        special.append(f"{_names([sc.carry_mcgfn])} starts carrying the MCGFN.")
    reinforcements = sc.reinforcements
    if reinforcements:
        special.append(
            f"Reinforcements on turn {reinforcements.turn}: {_names(reinforcements.units)}."
        )
    special += _spawn_lines(sc)
    if sc.no_warriors:
        special.append("No warriors spawn in this operation.")
    if sc.cards:
        special.append(f"A human Xeno player holds {sc.cards} Mutation cards.")
    if difficulty != "standard":
        special.append(f"Difficulty {difficulty}: its changes are folded into these numbers.")
    seats = ["Marines", "Marines (2)", "Marines (3)"]
    figures = [f"Marines: {_names(sc.marines)}."]
    notes = [
        f"With several Marine seats ({', '.join(seats)}) the Marines are dealt out in turn; "
        "every Marine seat spends the same pool of Action Points, rolled each turn (at least "
        "one per Marine)."
    ]
    if not sc.solo:
        notes.append(
            "The Xeno seat: a human plays the Xenos and their hidden Mutation cards (with the "
            "Xeno option set to automatic, or no Xeno seat, the bot runs them)."
        )
    return Briefing(
        title=str(sc.title),
        situation=situation("forlorn-hope", scenario) or str(sc.summary),
        objectives=goal_lines(scenario, sc),
        limit=f"{sc.turns} turns.",
        special=special,
        figures=figures,
        notes=notes,
    )


def progress(state: Any) -> list[str]:
    from engine.forlorn.viewer import _goal_text

    lines = [
        f"Turn {state.turn} of {state.turns_total} ({state.phase.replace('-', ' ').capitalize()}); "
        f"{pool_words(state)}",
        f"Goal: {_goal_text(state)}",
        *seat_lines(state),
    ]
    sc = scenario_data(state.scenario, state.options.get("difficulty", "standard"))
    if sc.goal.kind == "vp":
        lines.append(f"Victory Points: {state.vp} of {sc.goal.target}")
    return lines
