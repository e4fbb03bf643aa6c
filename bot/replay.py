"""Rebuild a campaign's state from its action log, step by step.

The dice of each step derive from the campaign seed and the step's sequence number, so the same
log always yields the same states. `verify` compares the replayed state with the stored snapshot.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from bot.disclosure import stand_in_events
from bot.names import role_names
from bot.storage.models import ActionLog, Campaign
from engine.core.dice import SeededDice, derive_seed
from engine.core.events import Event
from engine.core.game import Action, Game, Step
from engine.registry import get_game

# Who a log row names when the table, not a player, made the move; the step's events begin
# with a note saying so.
AUTOMATIC_ACTORS = {
    "autopilot": "Autopilot",
    "window": "The default answer",
    "vote": "The table's vote",
}


def logged_events(
    game: Game[Any],
    before: Any,
    actor: str | None,
    seat: str | None,
    action: Action,
    events: list[Event],
) -> list[Event]:
    """The events an action's log row keeps: the engine's, after the note of a move the table
    made for a seat (which names the command only when it cannot carry a secret)."""
    if actor in AUTOMATIC_ACTORS:
        who = AUTOMATIC_ACTORS[actor]
        names = role_names(game.key, getattr(before, "scenario", ""))
        return [*stand_in_events(game, before, who, seat or "", action, names), *events]
    return list(events)


def step_dice(seed: int, seq: int) -> SeededDice:
    return SeededDice(derive_seed(seed, seq))


def setup_dice(seed: int) -> SeededDice:
    return SeededDice(derive_seed(seed, "setup"))


def run_begin(
    game: Game[Any], campaign: Campaign, seats: list[str], seq: int
) -> tuple[Step[Any], bool]:
    options = json.loads(campaign.options_json)
    state = game.new(campaign.scenario, seats, options, setup_dice(campaign.seed))
    dice = step_dice(campaign.seed, seq)
    step = game.advance(state, dice)
    return step, True


class Ran(NamedTuple):
    """One logged step: the result, whether dice were rolled, and which events the automatic
    phases (enemy activations, events, upkeep) produced after the player's action."""

    step: Step[Any]
    random_used: bool
    automatic: list[Event]


def run_action(game: Game[Any], state: Any, seed: int, seq: int, seat: str, action: Action) -> Ran:
    """Apply one player action then everything automatic after it, with the step's dice."""
    dice = step_dice(seed, seq)
    applied = game.apply(state, seat, action, dice)
    advanced = game.advance(applied.state, dice)
    events: list[Event] = [*applied.events, *advanced.events]
    return Ran(Step(state=advanced.state, events=events), dice.rolled > 0, advanced.events)


@dataclass
class Replayed:
    states: dict[int, Any]  # seq -> state after that log row
    final: Any
    events: dict[int, list[Event]]  # seq -> the events that log row produced


def replay_row(
    game: Game[Any],
    campaign: Campaign,
    row: ActionLog,
    state: Any,
    state_at: Callable[[int], Any],
) -> tuple[Any, list[Event]]:
    """One log row replayed on `state`: the state after it and the events it produced.
    `state_at(seq)` gives the state after an earlier row (an undo or rollback returns there)."""
    payload = json.loads(row.action_json)
    if row.kind == "begin":
        step = run_begin(game, campaign, list(payload["seats"]), row.seq)[0]
        return step.state, list(step.events)
    if row.kind == "action":
        action = Action.model_validate(payload)
        ran = run_action(game, state, campaign.seed, row.seq, row.seat or "", action).step
        return ran.state, logged_events(game, state, row.user_id, row.seat, action, ran.events)
    if row.kind in ("undo", "rollback"):
        return state_at(int(payload["to_seq"])), []
    return state, []


def replay(campaign: Campaign, rows: Sequence[ActionLog]) -> Replayed:
    game = get_game(campaign.game)
    states: dict[int, Any] = {}
    events: dict[int, list[Event]] = {}
    state: Any = None
    for row in rows:
        state, events[row.seq] = replay_row(game, campaign, row, state, states.__getitem__)
        states[row.seq] = state
    return Replayed(states=states, final=state, events=events)


def canonical(game: Game[Any], state: Any) -> str:
    return json.dumps(game.dump(state), sort_keys=True, separators=(",", ":"))
