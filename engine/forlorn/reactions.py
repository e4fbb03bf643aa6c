"""Reaction windows (10.0): the Xeno player may answer a Marine action with a Mutation card.

Issue 14: whether a window opens may not tell the Marines anything about the hidden hand. So,
in an operation with a human Xeno seat and `reactions: on`, a window opens after EVERY Marine
move, attack or act while the Xeno hand is not empty (its size is public), whatever the cards
are, with a public text built only from the public action. The table waits on the `xeno` seat
with a default of `choose option:pass`, applied when the campaign's answer window closes (a
zero timeout is the seat's standing rule "never react": the table maps it onto
`reactions: off`, and no window opens). Only the seat's own legal actions name its cards (the
cards whose stated timing fits the moment, with targets). Playing a card keeps the window open
while the hand is not empty (again the same for every hand); passing closes it.
"""

from __future__ import annotations

from engine.core.dice import Dice
from engine.core.errors import RuleError
from engine.core.events import Event, Note
from engine.core.game import Action
from engine.forlorn.state import ForlornState, Reaction, Unit
from engine.forlorn.world import has_los, sq
from engine.forlorn.xenoseat import card_actions, play_card

PASS = Action(verb="choose", args={"option": "pass"}, label="Pass: let the Marines go on")
ATTACKS = ("spin", "grenade")
MARINE_ACTIONS = ("move", "attack", "act")  # orders and end-turn never open a window


def enabled(state: ForlornState) -> bool:
    """Windows exist only against a human Xeno seat, and a table may switch them off."""
    return state.xeno_human and state.options.get("reactions", "on") == "on"


def in_sight_of(state: ForlornState, marine: Unit | None) -> set[str]:
    """The Xenos (not Eggs) that have the Marine in their line of sight."""
    if marine is None or marine.at is None or marine.status != "active":
        return set()
    here = sq(marine.at)
    return {
        x.id
        for x in state.active("xenos")
        if x.at is not None and x.kind != "egg" and has_los(state, sq(x.at), here, "xenos")
    }


def before(state: ForlornState, action: Action) -> set[str]:
    """What a move must be compared with: the Xenos that saw the moving Marine beforehand."""
    if action.verb != "move" or not enabled(state):
        return set()
    return in_sight_of(state, state.unit(action.args.get("unit", "")))


def moments_of(state: ForlornState, action: Action, seen: set[str]) -> tuple[list[str], str]:
    """The card timings the Marine action just performed fits, and a public line saying it."""
    uid = action.args.get("unit", "")
    marine = state.unit(uid)
    name = marine.name if marine else "The Marines"
    moments = ["marine-phase"]
    what = (action.args.get("what") or "").lower()
    if action.verb == "attack" or (action.verb == "act" and what in ATTACKS):
        moments.append("marine-attack")
        text = f"{name} attacked"
    elif action.verb == "move":
        new = sorted(in_sight_of(state, marine) - seen)
        where = marine.at if marine and marine.at else "?"
        text = f"{name} moved to {where}"
        if new:
            moments.append("marine-sighted")
            names = ", ".join(u.name for u in (state.unit(i) for i in new) if u)
            text += f", into sight of {names}"
    else:
        did = action.label or action.args.get("what", action.verb).replace("-", " ")
        text = f"{name} acted ({did})"
    return moments, text


def after_marine_action(
    state: ForlornState, seat: str, action: Action, seen: set[str]
) -> list[Event]:
    """Open a window after the action whenever the hand is not empty (never by its content)."""
    if not enabled(state) or state.phase != "marine" or action.verb not in MARINE_ACTIONS:
        return []
    if not state.mutation.hand:
        return []
    moments, text = moments_of(state, action, seen)
    state.reaction = Reaction(moments=moments, text=text, seat=seat)
    return [Note(text=f"{text}. The Xeno player may react with a Mutation card.")]


def legal(state: ForlornState) -> list[Action]:
    if state.reaction is None:
        return []
    return [*card_actions(state, state.reaction.moments), PASS]


def apply(state: ForlornState, action: Action, dice: Dice) -> list[Event]:
    window = state.reaction
    assert window is not None
    if action.verb == "choose" and action.args.get("option", "").strip().lower() == "pass":
        state.reaction = None
        return [Note(text="The Xeno player lets the Marines go on.")]
    if action.verb == "act" and (action.args.get("what") or "").strip().lower() == "card":
        card = (action.args.get("card") or "").strip().lower()
        events = play_card(
            state, card, action.args.get("target"), dice, window.moments, action.args.get("discard")
        )
        if state.phase != "marine" or not state.mutation.hand:
            state.reaction = None
        return events
    raise RuleError(
        "The Marines wait on your reaction: play a Mutation card (act what:card card:<id>) "
        "or pass (choose option:pass)."
    )
