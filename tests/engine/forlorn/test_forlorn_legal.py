"""Every action `legal_actions` lists must be accepted by `apply` (it feeds autocomplete)."""

from __future__ import annotations

import pytest

from engine.core.dice import SeededDice, derive_seed
from engine.forlorn import GAME
from engine.selfplay import choose_action


@pytest.mark.parametrize(
    ("scenario", "seats", "seed"),
    [
        ("solo-a", ["marines"], 1),
        ("solo-b", ["marines", "marines-2"], 2),
        ("op-01", ["marines", "xeno"], 3),
        ("op-03", ["marines", "xeno"], 4),
    ],
)
def test_every_listed_action_is_accepted(scenario: str, seats: list[str], seed: int) -> None:
    state = GAME.new(scenario, seats, {"difficulty": "standard"}, SeededDice(seed))
    policy = SeededDice(derive_seed(seed, "policy"))
    checked = 0
    for n in range(60):
        dice = SeededDice(derive_seed(seed, n))
        state = GAME.advance(state, dice).state
        prompt = GAME.waiting_on(state)
        if prompt.finished:
            break
        seat = prompt.seats[0]
        actions = GAME.legal_actions(state, seat)
        assert actions, f"{seat} has nothing to do"
        if n % 6 == 0:
            for action in actions:
                GAME.apply(state, seat, action, SeededDice(derive_seed(seed, n, action.command())))
                checked += 1
        state = GAME.apply(state, seat, choose_action(actions, policy, n % 9), dice).state
    assert checked > 0
