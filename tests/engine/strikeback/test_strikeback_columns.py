"""Storybook 2.4 / 2.5 data: the Objectives table's next-mission column (`branches`) and the
Special Event columns read by the previous campaign mission's result (`if_previous`)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from engine.core.dice import SeededDice
from engine.core.errors import ContentError
from engine.galaxy import GAME
from engine.galaxy.content import EventCard
from engine.galaxy.phases import event_phase
from engine.galaxy.strikeback import missions as mission_files
from engine.galaxy.strikeback.play import event_effects, previous_result
from engine.galaxy.strikeback.status import sb_state

CARD = EventCard(
    id="t-a",
    name="Columns",
    type="special",
    effects=[{"teleport": True}],
    if_previous={"partial": [{"weather": "fog"}], "accomplished": [{"act-of-valor": True}]},
)


def test_the_column_follows_the_previous_result_and_a_failure_reads_the_standalone_one() -> None:
    state = GAME.new("os1", ["marine", "sniper"], {}, SeededDice(1))
    assert previous_result(state) is None  # standalone
    assert event_effects(state, CARD) == [{"teleport": True}]
    assert state.expansion is not None
    for previous, column in (
        ("partial", [{"weather": "fog"}]),
        ("accomplished", [{"act-of-valor": True}]),
        ("failed", [{"teleport": True}]),
    ):
        sb_state(state).previous = previous
        assert event_effects(state, CARD) == column


def test_the_event_phase_applies_the_accomplished_column(monkeypatch: pytest.MonkeyPatch) -> None:
    from engine.galaxy import phases

    state = GAME.new("os1", ["marine", "sniper"], {}, SeededDice(1))
    assert state.expansion is not None
    sb_state(state).previous = "accomplished"
    state.agents["marine"].used_tactics = ["anything"]
    state.event_deck.draw_pile.append("t-a")
    monkeypatch.setattr(phases, "event_card", lambda mission, card_id: CARD)
    event_phase(state, SeededDice(2), [])
    assert state.agents["marine"].used_tactics == []  # Act of Valor, not the Signals
    assert state.weather is None


def _reload_with(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, change: Callable[[dict[str, Any]], None]
) -> None:
    source = mission_files.CONTENT
    (tmp_path / "missions").mkdir()
    os1 = json.loads((source / "missions" / "os1.json").read_text())
    change(os1)
    (tmp_path / "missions" / "os1.json").write_text(json.dumps(os1))
    (tmp_path / "close_encounters").mkdir()
    for cards in (source / "close_encounters").glob("*.json"):
        (tmp_path / "close_encounters" / cards.name).write_text(cards.read_text())
    monkeypatch.setattr(mission_files, "CONTENT", tmp_path)
    mission_files._load.cache_clear()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda m: m["special_events"][0].update(if_previous={"won": []}), "previous result"),
        (
            lambda m: m["special_events"][0].update(
                if_previous={"partial": [{"sb": "summon-a-dragon"}]}
            ),
            "summon-a-dragon",
        ),
        (lambda m: m["branches"].pop("failed"), "no next mission after failed"),
        (lambda m: m["branches"].update(partial="m2"), "bad branch"),
        (lambda m: m.update(weapon_limits={"green": 1}), "weapon_limits"),
    ],
)
def test_bad_columns_are_refused_when_the_content_loads(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    change: Callable[[dict[str, Any]], None],
    message: str,
) -> None:
    _reload_with(tmp_path, monkeypatch, change)
    try:
        with pytest.raises(ContentError, match=message):
            mission_files.missions()
    finally:
        monkeypatch.undo()
        mission_files._load.cache_clear()
    assert "os1" in mission_files.missions()


def test_mission_1_branches_as_its_table_says() -> None:
    os1 = mission_files.missions()["os1"]
    assert os1.branches == {"accomplished": "os2", "partial": "os2", "failed": "os1"}
    assert os1.weapon_limits == {"improved": 4, "alien": 1}
