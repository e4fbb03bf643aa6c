"""Enemies are named as the table says them (issue #32): per type, in the order they appear."""

from __future__ import annotations

from reich_helpers import GAME, bare

from engine.core.dice import ScriptedDice
from engine.core.events import Event, Killed
from engine.reich import rules
from engine.reich.attack import wound_enemy


def test_the_third_soldier_to_appear_is_soldier_3_whatever_its_key() -> None:
    state = bare(["sarge"], area="1C")
    ev: list[Event] = []
    for _ in range(2):
        rules.spawn_enemy(state, "soldier", "1A", ev, "test")
    rules.spawn_enemy(state, "dog", "1A", ev, "test")
    rules.spawn_enemy(state, "soldier", "1A", ev, "test")
    soldiers = [e for e in state.enemies if e.type == "soldier"]
    assert [e.name for e in soldiers] == ["Soldier 1", "Soldier 2", "Soldier 3"]
    assert soldiers[2].id != "soldier3"  # the key stays global: commands keep using it
    assert "Soldier 3 appears in" in " ".join(e.text for e in ev)
    view = GAME.view(state, None)
    assert {f.label for f in view.figures if f.side == "enemy"} == {
        "Soldier 1",
        "Soldier 2",
        "Soldier 3",
        "Dog 1",
    }
    ev = []
    wound_enemy(state, soldiers[0], 5, False, ScriptedDice([]), ev)
    killed = [e for e in ev if isinstance(e, Killed)]
    assert [k.name for k in killed] == ["Soldier 1"]
    rules.spawn_enemy(state, "soldier", "1A", ev, "test")
    assert state.enemies[-1].name == "Soldier 4"  # numbers are not reused


def test_a_one_of_a_kind_enemy_has_no_number() -> None:
    state = GAME.new("wolffs-lair", ["sarge"], {}, ScriptedDice([1] * 400))
    wolff = next(e for e in state.enemies if e.type == "wolff")
    assert wolff.name == "General Wolff"
