"""Reichbusters briefings and objective progress, from the engine's mission data."""

from __future__ import annotations

from typing import Any

from bot.guide.briefing import Briefing, situation
from engine.reich.content import Condition, MissionDef, load_content

LEVELS = ("cadet", "veteran", "legend")
TOKEN_WORDS = {
    "documents": "the documents",
    "prisoner": "prisoner",
    "keys": "the keys",
    "code": "the code",
    "objective": "objective",
}


def _enemy_name(key: str | None) -> str:
    enemies = load_content().enemies
    return enemies[key].name if key and key in enemies else str(key)


def condition_words(cond: Condition, mission: MissionDef) -> str:
    """One objective condition in words, with the counts the engine checks."""
    if cond.kind == "sabotage":
        what = "the objective token" if cond.count == 1 else f"{cond.count} objective tokens"
        return f"sabotage {what} (one Basic Action token, no Enemy in the Area)"
    if cond.kind == "kill":
        times = "" if cond.count == 1 else f" {cond.count} times"
        return f"kill {_enemy_name(cond.enemy)}{times}"
    if cond.kind == "collect":
        token = TOKEN_WORDS.get(cond.token or "", cond.token or "token")
        if cond.count == 1:
            return f"carry {token} token" if token == cond.token else f"carry {token}"
        return f"carry {cond.count} {token} tokens"
    if cond.kind == "exit":
        exits = ", ".join(mission.exits) or "the exit"
        return f"every Hero still standing leaves through {exits}"
    return cond.kind


def objective_lines(mission: MissionDef, wanted: str) -> list[str]:
    lines = []
    for level in LEVELS:
        conds = mission.objectives.get(level, [])
        words = " and ".join(condition_words(c, mission) for c in conds) or "nothing more"
        below = "" if level == "cadet" else " (and everything below)"
        mark = " ← you play for this" if level == wanted else ""
        lines.append(f"**{level.title()}**{below}: {words}.{mark}")
    lines.append(
        "Done while the Mission Tracker is on or before Endgame: victory. When the Tracker "
        "passes Endgame with a lower level done: partial; with none: defeat. All Heroes "
        "Down: defeat."
    )
    return lines


def briefing(scenario: str, options: dict[str, str], state: Any) -> Briefing:
    mission = load_content().missions[scenario]
    tracker = mission.tracker
    wanted = options.get("difficulty", "cadet")
    special = list(mission.rules)
    if mission.needs:
        special.append("This mission needs Heroes with Armor-Piercing weapons.")
    letters: dict[str, list[str]] = {}
    for line in mission.card:
        if line.letter:
            letters.setdefault(_enemy_name(line.enemy), []).append(line.letter)
    if letters:
        key = ", ".join(f"{'/'.join(ls)} {name}" for name, ls in letters.items())
        special.append(f"Enemy letters on the Mission card (a revealed token spawns them): {key}.")
    special.append(
        f"Quiet at first: the alarm sounds when the Tracker reaches the Discretion space "
        f"({tracker.discretion}); noise moves Discretion back toward the Tracker."
    )
    notes = [
        "Every seat names a Hero of a different team; four Heroes always play, one per team. "
        "Missing teams are filled with a free Hero, shared among the seats in turn (a lone "
        "player runs all four)."
    ]
    return Briefing(
        title=f"Mission {mission.number}: {mission.title}",
        situation=situation("reichbusters", scenario) or mission.summary,
        objectives=objective_lines(mission, wanted),
        limit=(
            f"The Mission Tracker starts on 1 and moves one space each Upkeep; Endgame is "
            f"space {tracker.endgame} (about {tracker.endgame} rounds)."
        ),
        special=special,
        notes=notes,
    )


def progress(state: Any) -> list[str]:
    from engine.reich.rules import conditions_met, mission

    wanted = state.options.get("difficulty", "cadet")
    mdef = mission(state)
    lines = [
        f"Round {state.round}; Mission Tracker {state.tracker}, Endgame {state.endgame}; "
        + ("alarm ON" if state.alarm else f"Discretion {state.discretion} (alarm off)")
    ]
    for level in LEVELS:
        done = conditions_met(state, level)
        conds = mdef.objectives.get(level, [])
        words = " and ".join(_condition_progress(state, c, mdef) for c in conds)
        mark = " (played for)" if level == wanted else ""
        lines.append(f"{'✓' if done else '○'} {level.title()}{mark}: {words}")
    return lines


def _condition_progress(state: Any, cond: Condition, mdef: MissionDef) -> str:
    text = condition_words(cond, mdef).split(" (")[0]
    if cond.kind == "sabotage":
        return f"{text} ({state.sabotaged}/{cond.count})"
    if cond.kind == "kill":
        return f"{text} ({state.kills.get(cond.enemy or '', 0)}/{cond.count})"
    if cond.kind == "collect":
        held = sum(h.carried.count(cond.token or "") for h in state.heroes.values())
        return f"{text} ({held}/{cond.count})"
    if cond.kind == "exit":
        out = sum(1 for h in state.heroes.values() if h.exited)
        return f"{text} ({out} out)"
    return text
