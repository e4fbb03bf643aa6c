"""Who picks the next command in the bot's whole-mission tests: the self-play policies
(`engine.selfplay`) as callables over a seat's legal actions. `advisor` follows the game's own
advice; `Wanderer` picks uniformly with a growing wish to end the turn."""

from __future__ import annotations

from typing import Any, Protocol

from engine.core.dice import SeededDice
from engine.core.game import Action, Game, advisor_of
from engine.selfplay import END_VERBS, choose_action


class Chooser(Protocol):
    def __call__(self, state: Any, seat: str, actions: list[Action]) -> Action: ...


def advisor(game: Game[Any]) -> Chooser:
    """The game's own advice, as `--policy advisor` plays."""
    advice = advisor_of(game)
    assert advice is not None, f"{game.key} has no advisor"

    def choose(state: Any, seat: str, actions: list[Action]) -> Action:
        action = advice.advise(state, seat, actions)
        assert action is not None, (seat, [a.command() for a in actions])
        return action

    return choose


class Wanderer:
    """`--policy random`: uniform over the legal actions, ending the turn more and more often
    the longer a seat has acted; `eager` starts that wish higher (short test missions)."""

    def __init__(self, seed: int, eager: int = 0) -> None:
        self.dice, self.eager, self.patience = SeededDice(seed), eager, 0

    def __call__(self, state: Any, seat: str, actions: list[Action]) -> Action:
        action = choose_action(actions, self.dice, self.patience + self.eager)
        self.patience = 0 if action.verb in END_VERBS else self.patience + 1
        return action
