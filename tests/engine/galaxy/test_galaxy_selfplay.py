"""Every mission self-plays to an outcome from several seeds and table sizes."""

from __future__ import annotations

import pytest

from engine.galaxy import GAME
from engine.selfplay import play_one

MISSIONS = [s.key for s in GAME.scenarios()]


@pytest.mark.parametrize("scenario", MISSIONS)
@pytest.mark.parametrize("players", [1, 3, 5])
def test_selfplay_finishes(scenario: str, players: int) -> None:
    for seed in range(1, 5):
        result = play_one(GAME, scenario, seed, players=players)
        assert result.error is None, result.error
        assert result.finished
        assert result.outcome in ("accomplished", "partial", "failed")
