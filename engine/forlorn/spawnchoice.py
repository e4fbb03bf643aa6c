"""The Xeno player's own choices about a rolled spawn (Op 02): keep it, spend the one re-roll
of the game, or (Veteran) take a Blaster instead of two Drones. Offered as a prompt with
`keep` as its default; the automatic Xenos use the policy in `spawn.spawn_phase`."""

from __future__ import annotations

from engine.core.dice import Dice
from engine.core.errors import RuleError
from engine.core.events import Event, Note
from engine.core.game import Action
from engine.core.words import counted
from engine.forlorn.setup import sc_of
from engine.forlorn.spawn import finish_spawn, reroll, spawn_choices
from engine.forlorn.state import ForlornState
from engine.forlorn.turn import after_spawn

LABELS = {
    "keep": "Keep the spawn roll",
    "reroll": "Re-roll the spawn dice (once per game)",
    "blaster": "Spawn a Blaster instead of two Drones",
}
KEEP = Action(verb="choose", args={"option": "keep"}, label=LABELS["keep"])


def legal(state: ForlornState) -> list[Action]:
    if state.phase != "xeno-spawn" or state.spawn_roll is None:
        return []
    return [
        Action(verb="choose", args={"option": o}, label=LABELS[o])
        for o in spawn_choices(state, sc_of(state))
    ]


def prompt_text(state: ForlornState) -> str:
    drones = (state.spawn_roll or {}).get("drone", 0)
    return f"The spawn roll gives {counted(drones, 'Drone')}: keep it or use your option."


def apply(state: ForlornState, action: Action, dice: Dice) -> list[Event]:
    sc = sc_of(state)
    options = spawn_choices(state, sc)
    option = (action.args.get("option") or "").strip().lower()
    if action.verb != "choose" or option not in options:
        raise RuleError(f"Decide on the spawn roll: choose option:{'|'.join(options)}.")
    events: list[Event] = []
    if option == "reroll":
        events.append(Note(text="The Xeno player spends the one re-roll of the spawn dice."))
        reroll(state, sc, dice, events)
        if spawn_choices(state, sc):
            return events  # still her call: keep the new roll or swap for a Blaster
    finish_spawn(state, sc, dice, events, swap=option == "blaster")
    state.phase = "end"
    after_spawn(state, dice, events)
    return events
