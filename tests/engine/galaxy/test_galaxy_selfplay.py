"""Every mission self-plays to an outcome from several seeds and table sizes."""

from __future__ import annotations

import pytest

from engine.galaxy import GAME
from engine.selfplay import play_one

# The campaign (six missions in one game) has its own, shorter checks in test_galaxy_campaign.py.
MISSIONS = [s.key for s in GAME.scenarios() if s.key != "campaign"]


@pytest.mark.parametrize("scenario", MISSIONS)
@pytest.mark.parametrize("players", [1, 3, 5])
def test_selfplay_finishes(scenario: str, players: int) -> None:
    for seed in range(1, 5):
        result = play_one(GAME, scenario, seed, players=players)
        assert result.error is None, result.error
        assert result.finished
        assert result.outcome in ("accomplished", "partial", "failed")


@pytest.mark.parametrize("scenario", MISSIONS)
def test_selfplay_with_every_option_switched(scenario: str) -> None:
    from engine.core.dice import SeededDice, derive_seed, pick

    options = {
        "human-view": "on",
        "friendly-fire": "on",
        "close-fight": "on",
        "permanent-death": "on",
        "start-rank": "gold",
        "rank-limit": "campaign",
    }
    seats = ["marine", "biotech", "infiltrator", "sniper", "hulk"]
    state = GAME.new(scenario, seats, options, SeededDice(derive_seed(9, "setup")))
    policy = SeededDice(derive_seed(9, "policy"))
    for step in range(3000):
        dice = SeededDice(derive_seed(9, step))
        state = GAME.advance(state, dice).state
        prompt = GAME.waiting_on(state)
        if prompt.finished:
            break
        actions = GAME.legal_actions(state, prompt.seats[0])
        others = [a for a in actions if a.verb != "end-turn"]
        chosen = pick(policy, others) if others and policy.randrange(3) else actions[-1]
        state = GAME.apply(state, prompt.seats[0], chosen, dice).state
    assert GAME.waiting_on(state).finished
