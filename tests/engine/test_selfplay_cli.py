"""The engine's command line and self-play loop, exercised on the test-only Dash game."""

from __future__ import annotations

import json

import pytest

from engine.__main__ import main, parse_seeds
from engine.registry import get_game
from engine.selfplay import play_one


def test_parse_seeds() -> None:
    assert parse_seeds("1-3") == [1, 2, 3]
    assert parse_seeds("4,9") == [4, 9]


def test_scenarios_lists_registered_games(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["scenarios"]) == 0
    out = capsys.readouterr().out
    assert "dash: Dash (test fixture)" in out and "sprint" in out


def test_selfplay_prints_one_line_per_game_and_a_summary(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["selfplay", "--game", "dash", "--scenario", "sprint", "--seeds", "1-5"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(lines) == 6
    summary = lines[-1]["summary"]
    assert summary["games"] == 5 and summary["finished"] == 5 and summary["errors"] == 0
    assert sum(summary["outcomes"].values()) == 5


def test_selfplay_is_reproducible() -> None:
    game = get_game("dash")
    a, b = play_one(game, "sprint", 7, players=2), play_one(game, "sprint", 7, players=2)
    assert (a.outcome, a.steps, a.rounds) == (b.outcome, b.steps, b.rounds)


def test_unknown_game_is_a_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["selfplay", "--game", "chess", "--scenario", "x"]) == 2
    assert "Unknown game 'chess'" in capsys.readouterr().err
