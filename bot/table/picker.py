"""The action picker: a private panel of select menus, figure → action → target or square.

Built only from the caller's legal actions, so every entry is either a complete command the
engine accepts or the next step of the picker (`/pick unit:... kind:...`). A whole mission can
be played from it without typing, on a phone. Discord's limits shape it: at most 25 entries a
menu, four menus and one row of buttons a message, 100 characters a label or description;
longer lists are paged.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bot.guide.glossary import describe, is_coordinate, lookup
from bot.names import action_words
from bot.replies import Button, Menu, MenuEntry
from engine.core.game import Action
from engine.core.view import View

PER_MENU = 25  # Discord: options in one select menu
MENUS_PER_PAGE = 4  # Discord: five rows a message, the last one for the buttons
PER_PAGE = PER_MENU * MENUS_PER_PAGE
MAX_TEXT = 100  # Discord: a select option's label and description
PICK = "/pick"

# A short explanation of an action for its menu entry (≤ 100 characters): by default the
# glossary's words for the term it names (`bot.guide.describe`), else nothing (never a command);
# another describer plugs in through `PickCommands(describe=...)`.
Describe = Callable[[str, Action], str]


def command_of(action: Action) -> str:
    return action.command()


# The options that name what an action is about, most specific first.
TERM_OPTIONS = ("option", "card", "order", "what", "weapon", "target", "mode", "using")


def term_description(game_key: str, action: Action) -> str | None:
    """The glossary's words for the most specific term the action names (not a square)."""
    for key in TERM_OPTIONS:
        value = action.args.get(key)
        if value and not is_coordinate(value):
            found = describe(game_key, value)
            if found:
                return found
    return None


def default_describe(game_key: str, action: Action) -> str:
    """The glossary's words for what the action names, else nothing (the label says it: a
    command is never what a player reads)."""
    return term_description(game_key, action) or ""


def fit(text: str, limit: int = MAX_TEXT) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def kind_of(action: Action) -> str:
    """The picker's second level: the verb, and for `/act` and `/orders` what is done."""
    if action.verb == "act":
        return f"act:{action.args.get('what', '')}"
    if action.verb == "orders":
        # `support:never`, `face-e`, `guard-with-assault-rifle`: grouped by their first word
        return f"orders:{re.split('[:-]', action.args.get('order', ''))[0]}"
    return action.verb


VERB_NAMES = {
    "move": "Move",
    "attack": "Attack",
    "choose": "Answer",
    "end-turn": "End turn",
    "orders": "Standing order",
    "act": "Act",
}


def kind_name(kind: str, game_key: str = "") -> str:
    """A group of actions by the name a player reads: an order group by its glossary name
    ("Turn to face", "Support order"), not its key ("Orders: face")."""
    verb, _, what = kind.partition(":")
    if verb == "act" and what:
        return what.replace("-", " ").replace("_", " ").capitalize()
    if verb == "orders" and what:
        term = lookup(game_key, what) if game_key else None
        return term.name if term is not None else f"Orders: {what}"
    return VERB_NAMES.get(verb, verb)


def pick_command(unit: str | None = None, kind: str | None = None, page: int = 1) -> str:
    parts = [PICK]
    if unit:
        parts.append(f"unit:{shlex.quote(unit)}")
    if kind:
        parts.append(f"kind:{shlex.quote(kind)}")
    if page > 1:
        parts.append(f"page:{page}")
    return " ".join(parts)


@dataclass
class Panel:
    text: str
    menus: list[Menu]
    buttons: list[Button]


def unique(actions: Sequence[Action]) -> list[Action]:
    """The actions of all the caller's seats, each command once, in the engine's order."""
    seen: dict[str, Action] = {}
    for action in actions:
        seen.setdefault(command_of(action), action)
    return list(seen.values())


class PanelBuilder:
    """One panel of the picker from the caller's legal actions and the public view."""

    def __init__(self, game_key: str, view: View, describe: Describe = default_describe) -> None:
        self.game_key = game_key
        self.view = view
        self.describe = describe

    def figure(self, unit: str) -> str:
        found = next((f for f in self.view.figures if f.id == unit), None)
        return f"{found.name} ({found.coord})" if found else unit

    def leaf(self, action: Action) -> MenuEntry:
        label = action_words(action)
        return MenuEntry(fit(label), command_of(action), fit(self.describe(self.game_key, action)))

    def kinds(self, actions: list[Action], unit: str | None) -> list[MenuEntry]:
        groups: dict[str, list[Action]] = {}
        for action in actions:
            groups.setdefault(kind_of(action), []).append(action)
        entries = []
        for kind, members in groups.items():
            if len(members) == 1:
                entries.append(self.leaf(members[0]))
                continue
            label = f"{kind_name(kind, self.game_key)} — {len(members)} choices"
            sample = ", ".join(action_words(a) for a in members[:3])
            entries.append(MenuEntry(fit(label), pick_command(unit, kind), fit(sample)))
        return entries

    def units(self, actions: list[Action]) -> list[MenuEntry]:
        groups: dict[str, list[Action]] = {}
        loose: list[Action] = []
        for action in actions:
            unit = action.args.get("unit")
            if unit:
                groups.setdefault(unit, []).append(action)
            else:
                loose.append(action)
        entries = []
        for unit, members in groups.items():
            if len(members) == 1:
                entries.append(self.leaf(members[0]))
                continue
            what = ", ".join(dict.fromkeys(kind_name(kind_of(a), self.game_key) for a in members))
            label = f"{self.figure(unit)} — {len(members)} actions"
            entries.append(MenuEntry(fit(label), pick_command(unit), fit(what)))
        return entries + self.kinds(loose, None)

    def build(self, actions: list[Action], unit: str | None, kind: str | None, page: int) -> Panel:
        """`actions` are already narrowed to `unit` and `kind` (see `narrow`)."""
        units = {a.args.get("unit") for a in actions}
        trail: list[str] = []
        if unit:
            trail.append(self.figure(unit))
        if kind:
            trail.append(kind_name(kind, self.game_key))
        if kind or (len({kind_of(a) for a in actions}) == 1 and len(actions) > 1):
            entries, question = [self.leaf(a) for a in actions], "Which one?"
        elif unit or len(units) <= 1:
            entries, question = self.kinds(actions, unit), "Which action?"
        else:
            entries, question = self.units(actions), "Which figure, or what?"
        pages = max(1, -(-len(entries) // PER_PAGE))
        page = min(max(1, page), pages)
        shown = entries[(page - 1) * PER_PAGE : page * PER_PAGE]
        menus = [
            Menu(
                fit(f"{question} ({i + 1}-{i + len(chunk)} of {len(entries)})", 150)
                if len(entries) > PER_MENU
                else question,
                tuple(chunk),
            )
            for i, chunk in (
                (start, shown[start : start + PER_MENU]) for start in range(0, len(shown), PER_MENU)
            )
        ]
        buttons = []
        if kind:
            buttons.append(Button("Back", pick_command(unit), "secondary"))
        elif unit:
            buttons.append(Button("Back", pick_command(), "secondary"))
        if page > 1:
            buttons.append(Button("Previous page", pick_command(unit, kind, page - 1)))
        if page < pages:
            buttons.append(Button("Next page", pick_command(unit, kind, page + 1)))
        where = " > ".join(trail) if trail else "Pick an action"
        paging = f" (page {page} of {pages})" if pages > 1 else ""
        return Panel(f"**{where}**{paging} — {question}", menus, buttons)


@dataclass
class Narrowed:
    actions: list[Action]
    unit: str | None
    kind: str | None


def narrow(actions: list[Action], unit: str | None, kind: str | None) -> Narrowed:
    """The actions of `unit` and `kind` (as the engine spells them); a `ValueError` naming
    the values that exist when either is not possible now."""
    if unit:
        units = list(dict.fromkeys(a.args["unit"] for a in actions if a.args.get("unit")))
        matched = [u for u in units if u.lower() == unit.lower()]
        if not matched:
            raise ValueError(
                f"unit '{unit}' has nothing to do now. Possible unit: {', '.join(units) or 'none'}."
            )
        unit = matched[0]
        actions = [a for a in actions if a.args.get("unit") == unit]
    if kind:
        kinds = list(dict.fromkeys(kind_of(a) for a in actions))
        if kind.lower() not in kinds:
            raise ValueError(
                f"kind '{kind}' is not possible now. Possible kind: {', '.join(kinds)}."
            )
        kind = kind.lower()
        actions = [a for a in actions if kind_of(a) == kind]
    return Narrowed(actions, unit or None, kind or None)
