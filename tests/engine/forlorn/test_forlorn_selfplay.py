"""Self-play smoke test: every scenario finishes from several seeds with no error."""

from __future__ import annotations

import pytest

from engine.forlorn import GAME
from engine.selfplay import play_one

SCENARIOS = [info.key for info in GAME.scenarios()]


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_scenario_selfplays(scenario: str) -> None:
    for seed in (1, 2):
        result = play_one(GAME, scenario, seed)
        assert result.error is None, result.error
        assert result.finished and result.outcome in ("victory", "defeat")


@pytest.mark.parametrize("scenario", [s for s in SCENARIOS if s.startswith("op-")])
def test_two_player_operations_selfplay(scenario: str) -> None:
    result = play_one(GAME, scenario, 3, players=2)
    assert result.error is None, result.error
    assert result.finished


def test_three_marine_seats_share_the_squad() -> None:
    result = play_one(GAME, "solo-a", 4, players=3)
    assert result.error is None, result.error
    assert result.finished
