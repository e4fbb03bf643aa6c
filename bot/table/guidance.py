"""What the table says about an action the legal actions do not list, and about an empty list.

Pure functions over the engine's legal actions (the contract) and the public view: a refusal
names the option that is missing or wrong and offers its legal values; an empty list of
suggestions says why nothing can be offered, and what the figure can still do.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.core.game import Action
from engine.core.view import View

MAX_SHOWN_VALUES = 12
# The value of the one informational suggestion when nothing can be offered: a command sent
# with it is refused with the same reason (it is never a legal value: no game uses it).
NOTHING = "-"
# Options that say who acts, not what they do: never "the missing option" of an action.
WHO = ("unit", "surge")


def _values(actions: Sequence[Action], option: str) -> list[str]:
    seen: dict[str, None] = {}
    for action in actions:
        if option in action.args:
            seen.setdefault(action.args[option], None)
    return list(seen)


def _listed(values: list[str]) -> str:
    shown = ", ".join(values[:MAX_SHOWN_VALUES])
    more = len(values) - MAX_SHOWN_VALUES
    return f"{shown} (and {more} more)" if more > 0 else shown


def _same(value: str, other: str) -> bool:
    return value.strip().lower() == other.strip().lower()


def extending(action: Action, legal: Sequence[Action]) -> list[Action]:
    """The legal actions of the same verb that agree with every option given."""
    return [
        a
        for a in legal
        if a.verb == action.verb
        and all(k in a.args and _same(a.args[k], v) for k, v in action.args.items() if v)
    ]


def missing_options(action: Action, legal: Sequence[Action]) -> list[str]:
    """Options every legal completion of `action` needs and it does not give, in the order
    the engine lists them; empty when it is complete or nothing completes it."""
    completions = extending(action, legal)
    if not completions or any(a.matches(action) for a in completions):
        return []
    given = {k for k, v in action.args.items() if v}
    needed = [k for k in completions[0].args if k not in given and k not in WHO]
    return [k for k in needed if all(k in a.args for a in completions)]


def wrong_option(action: Action, legal: Sequence[Action]) -> tuple[str, list[str]] | None:
    """The one option whose value is not legal while all the others are: (name, legal values)."""
    given = {k: v for k, v in action.args.items() if v}
    for option in given:
        others = Action(verb=action.verb, args={k: v for k, v in given.items() if k != option})
        near = extending(others, legal)
        values = _values(near, option)
        if values and not any(_same(v, given[option]) for v in values):
            return option, values
    return None


def needs_text(action: Action, legal: Sequence[Action]) -> str | None:
    """`/act what:open` needs `to`: name it and offer its values (the first missing option's
    values among the completions), or None when nothing is missing."""
    missing = missing_options(action, legal)
    if not missing:
        return None
    first = missing[0]
    values = _values(extending(action, legal), first)
    what = action.args.get("what") or action.args.get("order") or action.verb
    also = f" (then {', '.join(missing[1:])})" if len(missing) > 1 else ""
    return f"{what} needs the option {first}{also}. Possible {first}: {_listed(values)}."


def refusal_text(action: Action, legal: Sequence[Action], reason: str, view: View | None) -> str:
    """The engine refused `action` with `reason`: name what is missing or wrong, with the legal
    values; else say why nothing of its kind is possible (see `why_empty`)."""
    needs = needs_text(action, legal)
    if needs:
        return needs
    wrong = wrong_option(action, legal)
    if wrong:
        option, values = wrong
        return f"{reason} Possible {option}: {_listed(values)}."
    if not [a for a in legal if a.verb == action.verb]:
        return f"{reason} {why_empty(action.verb, action.args.get('unit'), legal, view)}"
    return reason


def _kind(action: Action) -> str:
    if action.verb == "act":
        return action.args.get("what", "act")
    return action.verb


# What a verb does, said after "cannot" (a refusal names no command syntax).
VERB_PHRASES = {"end-turn": "end the turn", "orders": "take that order", "act": "do that"}


def why_empty(verb: str, unit: str | None, legal: Sequence[Action], view: View | None) -> str:
    """Why no `/verb` can be offered now, from what the figure can still do and where it is."""
    figure = next((f for f in view.figures if f.id == unit), None) if view and unit else None
    who = figure.name if figure else (unit or "you")
    where = ""
    if figure is not None:
        where = f" at {figure.coord}" + (f" facing {figure.facing}" if figure.facing else "")
    mine = [a for a in legal if unit is None or a.args.get("unit", unit) == unit]
    if not mine:
        if who == "you":
            return "You have nothing left to do now (no action, or not your turn)."
        return f"{who}{where} has nothing left to do now (no action, or not their turn)."
    kinds = list(dict.fromkeys(_kind(a) for a in mine))
    cause = {
        "attack": "no enemy in range and sight (and front arc, where figures face)",
        "move": "no movement left or no free place to reach",
    }.get(verb, "the rules allow none at this moment")
    doing = VERB_PHRASES.get(verb, verb.replace("-", " "))
    told = f"{who}{where} cannot {doing} now: {cause}."
    possible = ", ".join(k.replace("-", " ") for k in kinds)
    return f"{told[:1].upper()}{told[1:]} Still possible: {possible}."


def figure_name(view: View | None, unit: str) -> str:
    figure = next((f for f in view.figures if f.id == unit), None) if view else None
    return f"{figure.name} at {figure.coord}" if figure else unit
