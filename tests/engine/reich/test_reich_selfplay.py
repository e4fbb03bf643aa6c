"""Every mission self-plays to an end, and states round-trip through JSON."""

from __future__ import annotations

import pytest

from engine.core.dice import SeededDice
from engine.core.events import PhaseChanged
from engine.registry import get_game
from engine.selfplay import play_one

MISSIONS = ["radio-silence", "jailbreak", "lab-rats", "wolffs-lair", "hive-breach"]


@pytest.mark.parametrize("mission", MISSIONS)
def test_selfplay_finishes(mission: str) -> None:
    game = get_game("reichbusters")
    for seed in range(1, 4):
        result = play_one(game, mission, seed)
        assert result.error is None, result.error
        assert result.finished


@pytest.mark.parametrize("players", [2, 4])
def test_selfplay_more_players(players: int) -> None:
    game = get_game("reichbusters")
    result = play_one(game, "radio-silence", 7, players)
    assert result.error is None, result.error
    assert result.finished


def test_json_round_trip_and_views() -> None:
    game = get_game("reichbusters")
    state = game.new("radio-silence", ["sarge", "irena"], {"difficulty": "cadet"}, SeededDice(3))
    again = game.load(game.dump(state))
    assert again == state
    spectator = game.view(state, None)
    assert spectator.private == []
    assert len(spectator.figures) == 4
    mine = game.view(state, "sarge")
    assert any("hand" in line for line in mine.private)


def test_a_whole_round_when_everyone_ends_the_turn() -> None:
    from engine.core.game import Action
    from engine.reich.game import ReichGame

    game = ReichGame()
    state = game.new("radio-silence", ["sarge", "irena"], {}, SeededDice(2))
    assert game.waiting_on(state).seats == ["sarge", "irena"]
    state = game.apply(state, "sarge", Action(verb="end-turn"), SeededDice(3)).state
    assert game.advance(state, SeededDice(4)).events == []  # Irena still has to end
    state = game.apply(state, "irena", Action(verb="end-turn"), SeededDice(5)).state
    step = game.advance(state, SeededDice(6))
    phases = [e.phase for e in step.events if isinstance(e, PhaseChanged)]
    assert phases == ["enemies", "upkeep", "heroes"]
    assert step.state.round == 2 and step.state.tracker == 2
    assert game.waiting_on(step.state).seats == ["sarge", "irena"]
