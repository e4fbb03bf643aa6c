"""How the table names a seat to people: the role's name from the scenario ("Chromium
(Marine)", "Marines (2)", "Sarge"), never its key. Keys stay in commands and custom ids."""

from __future__ import annotations

from collections.abc import Mapping

from engine.core.game import Action, scenario_info
from engine.registry import get_game

SeatNames = Mapping[str, str]

# A verb as a player says it (the web view's and `/log`'s line when a step has no narration).
VERB_WORDS = {
    "move": "moves",
    "attack": "attacks",
    "act": "acts",
    "orders": "sets a standing order",
    "choose": "answers",
    "end-turn": "ends the turn",
}


def role_names(game_key: str, scenario: str) -> dict[str, str]:
    """Every seat of a scenario by its name (empty for an unknown game or scenario)."""
    try:
        info = scenario_info(get_game(game_key), scenario)
    except ValueError:
        return {}
    return {role.key: role.name for role in info.roles}


def seat_name(names: SeatNames | None, role: str) -> str:
    """A seat's name; a key the scenario does not list is shown as words ("marines-2" ->
    "Marines 2")."""
    if names and role in names:
        return names[role]
    return " ".join(word.capitalize() for word in role.replace("_", "-").split("-"))


def action_words(action: Action) -> str:
    """What an action is, in words: its label, else its verb as a player says it."""
    return action.label or VERB_WORDS.get(action.verb, action.verb.replace("-", " "))
