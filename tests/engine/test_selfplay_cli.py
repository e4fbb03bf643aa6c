"""The engine's command line and self-play loop, exercised on the test-only Dash game."""

from __future__ import annotations

import json
from typing import Any

import pytest

from engine.__main__ import main, parse_seeds
from engine.core.game import Action
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


def test_advisor_policy_needs_a_game_that_advises(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["selfplay", "--game", "dash", "--scenario", "sprint", "--policy", "advisor"]
    assert main(argv) == 2
    assert "dash offers no advisor" in capsys.readouterr().err


def test_advisor_policy_follows_the_advice_and_falls_back_when_it_has_none() -> None:
    from fixture_game import DashGame, DashState

    asked: list[int] = []

    class AdvisedDash(DashGame):
        def advise(self, state: DashState, seat: str, actions: list[Action]) -> Action | None:
            asked.append(len(actions))
            moves = [a for a in actions if a.verb == "move"]
            return moves[-1] if moves and len(asked) % 2 else None

    result = play_one(AdvisedDash(), "sprint", 3, players=2, policy_name="advisor")
    assert result.error is None and result.finished
    assert len(asked) == result.steps


def test_selfplay_passes_scenario_options(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["selfplay", "--game", "dash", "--scenario", "sprint", "--seeds", "1-2"]
    assert main([*argv, "--option", "pace=3"]) == 0
    summary = json.loads(capsys.readouterr().out.splitlines()[-1])["summary"]
    assert summary["options"] == {"pace": "3"} and summary["errors"] == 0
    seen: list[dict[str, str]] = []
    dash = type(get_game("dash"))

    class Recording(dash):  # type: ignore[valid-type,misc]
        def new(self, scenario: str, seats: list[str], options: dict[str, str], dice: Any) -> Any:
            seen.append(dict(options))
            return super().new(scenario, seats, options, dice)

    assert play_one(Recording(), "sprint", 7, players=1, options={"pace": "3"}).error is None
    assert play_one(Recording(), "sprint", 7, players=1).error is None
    assert seen == [{"pace": "3"}, {"pace": "2"}]


def test_bad_selfplay_options_are_clear_errors(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["selfplay", "--game", "dash", "--scenario", "sprint"]
    assert main([*argv, "--option", "pace=9"]) == 2
    assert "Option 'pace' must be one of: 2, 3" in capsys.readouterr().err
    assert main([*argv, "--option", "pace"]) == 2
    assert "Options are KEY=VALUE" in capsys.readouterr().err


def test_a_game_may_add_extra_data_and_campaign_missions_are_tallied(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    dash = get_game("dash")
    assert play_one(dash, "sprint", 1, players=1).extra == {}

    def extra(state: Any) -> dict[str, Any]:
        return {"missions": ["m1:failed", "m1:accomplished", "m2:partial"]}

    monkeypatch.setattr(type(dash), "selfplay_extra", staticmethod(extra), raising=False)
    assert play_one(dash, "sprint", 1, players=1).extra["missions"][0] == "m1:failed"
    assert main(["selfplay", "--game", "dash", "--scenario", "sprint", "--seeds", "1-2"]) == 0
    summary = json.loads(capsys.readouterr().out.splitlines()[-1])["summary"]
    assert summary["missions"] == {"m1": {"failed": 2, "accomplished": 2}, "m2": {"partial": 2}}
