"""Quick actions: the awaited seat's most useful complete actions, one tap away.

The first panel of the picker opens with a few buttons, each a complete legal action ("Attack:
Service Pistol at Green Xeno-Beta 1", "Move to E3 - 1 MP", "End turn"), above the full picker for
everything else. They are chosen by a pure ranking over the seat's legal actions: the game's
advisor (the policy self-play uses) is asked for its best action, then asked again without that
action's kind for the same figure, so the buttons cover different things to do (one attack, one
move, one Action) rather than five squares of one move. Every button is one of the engine's
legal actions as listed: the ranking only orders them, it never builds a command.

Hints say where a rule hides an option: turning is a free order in Galaxy Defenders that can
bring an alien into the front hexes, so the panel says which turn would allow which attack. A
hint comes from trying the order on a copy of the state with no dice at all (an order that
would roll gives no hint), so it is never a guess.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.replies import Button
from bot.table.picker import kind_of
from engine.core.dice import DiceExhausted, ScriptedDice
from engine.core.errors import RuleError
from engine.core.game import Action, Advisor, Game
from engine.core.view import View

QUICK = 4  # ranked buttons, End turn comes on top of them
MAX_LABEL = 80  # Discord: a button's label
# Discord: a button's custom id (100 characters) is `sortie:<channel>:<version>:~<command>`;
# with a channel id of 20 digits and a version below 100000, 66 are left for the command.
MAX_COMMAND = 66
# The advisors are written for whole lists of legal actions; a narrowed list they cannot rank
# (an answer they insist on and that is gone) ends the ranking there.
ADVISOR_GAVE_UP = (ValueError, KeyError, IndexError, StopIteration)


def family(action: Action) -> tuple[str, str]:
    """What makes two actions "the same thing to do": the figure and the picker's kind. Each
    answer to a question is its own family (they are the choices themselves)."""
    if action.verb == "choose":
        return ("", action.command())
    return (action.args.get("unit", ""), kind_of(action))


def ranked(advisor: Advisor, state: Any, seat: str, actions: Sequence[Action]) -> list[Action]:
    """Up to `QUICK` legal actions of `seat`, best first, one per family, and End turn: where
    the advisor ranks it (nothing else it would do is worth a button after it), else last."""
    left = [a for a in actions if len(a.command()) <= MAX_COMMAND]
    chosen: list[Action] = []
    while left and len(chosen) < QUICK:
        try:
            advice = advisor.advise(state, seat, left)
        except ADVISOR_GAVE_UP:
            break
        if advice is None:
            break
        match = next((a for a in left if a.command() == advice.command()), None)
        if match is None:  # the advisor answered outside the list: no opinion on it
            break
        chosen.append(match)
        if match.verb == "end-turn":
            return chosen
        left = [a for a in left if family(a) != family(match)]
    enders = [a for a in left if a.verb == "end-turn"]
    return chosen + enders[:1]


def quick_label(action: Action, view: View) -> str:
    """A button's words: the verb a player would say, then the engine's label of the action."""
    label = action.label or ""
    if action.verb == "end-turn":
        text = "End turn"
        unit = action.args.get("unit")
        if unit:
            text = f"End turn: {figure_name(view, unit)}"
    elif action.verb == "move":
        text = f"Move: {label}" if label else "Move"
    elif action.verb == "attack":
        text = f"Attack: {label}" if label else "Attack"
    else:
        text = label or kind_of(action).partition(":")[2].replace("-", " ").capitalize()
    return text if len(text) <= MAX_LABEL else text[: MAX_LABEL - 1] + "…"


def figure_name(view: View, unit: str) -> str:
    found = next((f for f in view.figures if f.id == unit), None)
    return found.name if found else unit


def quick_buttons(
    actions: Sequence[Action], view: View, room: int, hints: Sequence[Hint] = ()
) -> list[Button]:
    """The ranked actions as buttons, as many as there is room for (End turn kept last); an
    action a hint explains says what it opens ("Turn to face NW to attack x3")."""
    if room <= 0:
        return []
    shown = list(actions)
    if len(shown) > room:
        enders = [a for a in shown if a.verb == "end-turn"][:1]
        shown = [a for a in shown if a.verb != "end-turn"][: room - len(enders)] + enders
    why = {h.action.command(): h.button for h in hints}
    return [
        Button(
            why.get(a.command()) or quick_label(a, view),
            a.command(),
            "primary" if a.verb == "end-turn" else "success",
        )
        for a in shown
    ]


# ---------------------------------------------------------------------- hints


@dataclass(frozen=True)
class Hint:
    text: str  # the panel's line: what is hidden and how to open it
    button: str  # the label of the action's button when it is a quick action
    action: Action  # the legal action that opens the hidden option


def facing_hints(game: Game[Any], state: Any, seat: str, actions: Sequence[Action]) -> list[Hint]:
    """Attacks a turn would allow: for each legal `face-…` order, the attacks the seat would
    have after it and has not now (tried on a copy, with no dice)."""
    now = {(a.args.get("unit"), a.args.get("target")) for a in actions if a.verb == "attack"}
    turns = [
        a for a in actions if a.verb == "orders" and a.args.get("order", "").startswith("face-")
    ]
    if not turns:
        return []
    view = game.view(state, None)
    hints: list[Hint] = []
    told: set[tuple[str | None, str | None]] = set()
    for turn in turns:
        try:
            copy = game.load(game.dump(state))
            after = game.apply(copy, seat, turn, ScriptedDice()).state
        except (RuleError, DiceExhausted):
            continue
        for attack in game.legal_actions(after, seat):
            key = (attack.args.get("unit"), attack.args.get("target"))
            if attack.verb != "attack" or key in now or key in told:
                continue
            if attack.args.get("unit") != turn.args.get("unit"):
                continue
            told.add(key)
            target = figure_name(view, attack.args.get("target", ""))
            who = figure_name(view, turn.args.get("unit", ""))
            way = turn.label or turn.args.get("order", "")
            text = f"{target} is outside {who}'s front: {way} to attack it."
            button = f"{way[:1].upper()}{way[1:]} to attack {target}"
            hints.append(Hint(text, button[:MAX_LABEL], turn))
    return hints
