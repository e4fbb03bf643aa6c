"""The Strikeback mission plumbing: one content file and one rules module per mission, every
Special Event effect and objective condition known to the generic play or the mission."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.core.dice import SeededDice
from engine.core.errors import ContentError
from engine.galaxy import GAME
from engine.galaxy.strikeback import missions as mission_files
from engine.galaxy.strikeback.mission_rules import (
    GENERIC_EFFECTS,
    NO_RULES,
    MissionRules,
    all_rules,
    rules_for,
)


def test_every_mission_file_is_named_by_its_key_and_has_its_rules() -> None:
    found = mission_files.missions()
    assert "os1" in found
    for key in found:
        assert (mission_files.CONTENT / "missions" / f"{key}.json").is_file()
    assert rules_for("os1").key == "os1"
    assert rules_for("m1") is NO_RULES  # a core mission has none
    assert all(isinstance(r, MissionRules) and r.key for r in all_rules())


def test_every_effect_kind_is_generic_or_the_missions_own() -> None:
    for mission in mission_files.missions().values():
        own = rules_for(mission.key).effects
        for special in mission.special_events:
            for effect in special.effects:
                kind = effect.get("sb")
                assert kind is None or kind in GENERIC_EFFECTS or kind in own


def test_an_unknown_effect_kind_is_refused_when_the_content_loads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = mission_files.CONTENT
    (tmp_path / "missions").mkdir()
    os1 = json.loads((source / "missions" / "os1.json").read_text())
    os1["special_events"][0]["effects"].append({"sb": "summon-a-dragon"})
    (tmp_path / "missions" / "os1.json").write_text(json.dumps(os1))
    (tmp_path / "close_encounters").mkdir()
    for cards in (source / "close_encounters").glob("*.json"):
        (tmp_path / "close_encounters" / cards.name).write_text(cards.read_text())
    monkeypatch.setattr(mission_files, "CONTENT", tmp_path)
    mission_files._load.cache_clear()
    try:
        with pytest.raises(ContentError, match="summon-a-dragon"):
            mission_files.missions()
    finally:
        monkeypatch.undo()
        mission_files._load.cache_clear()
    assert "os1" in mission_files.missions()


def test_every_mission_deals_its_event_deck_stack_by_stack() -> None:
    """Storybook 2.2 in play: each mission's deck is its stacks in order, each stack shuffled
    on its own, so a Special Event alone in its stack always comes at the same draw."""
    for key, mission in mission_files.missions().items():
        for seed in (1, 2):
            state = GAME.new(key, ["marine", "biotech"], {}, SeededDice(seed))
            top_first = list(reversed(state.event_deck.draw_pile))
            at = 0
            for stack in mission.stacks:
                assert sorted(top_first[at : at + len(stack)]) == sorted(stack), (key, stack)
                at += len(stack)
            assert at == len(top_first), key
