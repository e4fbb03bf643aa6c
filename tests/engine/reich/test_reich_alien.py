"""The Alien layer: the Alien Subtitle, Domination! and Berserk limbs."""

from __future__ import annotations

import pytest
from reich_helpers import GAME, bare, put, texts

from engine.core.dice import ScriptedDice
from engine.core.errors import ContentError
from engine.core.events import Event
from engine.reich import enemies as enemy_ai
from engine.reich import rules
from engine.reich.content import _validate, load_content

SAFE = [5] * 60  # green 5s: every Defense Test succeeds, so no Wound card is drawn


def _berserk_lines(ev: list[Event]) -> list[str]:
    return [e.text for e in ev if "goes Berserk" in e.text]


def test_domination_boosts_aliens_only_while_a_controller_is_active() -> None:
    state = bare(["doc"], area="1C")
    s1 = put(state, "skitterling", "1C", "s1")
    warden = put(state, "warden", "1A", "w1")
    warden.active = False
    ev: list[Event] = []
    enemy_ai.resolve_attacks(state, [(s1, "doc", "melee")], ScriptedDice(SAFE), ev)
    assert "Attack Value 3" in texts(ev)  # Inactive controller: no bonus
    warden.active = True
    ev = []
    enemy_ai.resolve_attacks(state, [(s1, "doc", "melee")], ScriptedDice(SAFE), ev)
    assert f"Attack Value {3 + rules.DOMINATION_BONUS}" in texts(ev)
    soldier = put(state, "soldier", "1C", "so1")
    ev = []
    enemy_ai.resolve_attacks(state, [(soldier, "doc", "melee")], ScriptedDice(SAFE), ev)
    assert "Attack Value 4" in texts(ev)  # not an Alien: Domination! does not apply
    state.enemies.remove(warden)
    ev = []
    enemy_ai.resolve_attacks(state, [(s1, "doc", "melee")], ScriptedDice(SAFE), ev)
    assert "Attack Value 3" in texts(ev)  # controller gone
    figure = next(f for f in GAME.view(state, None).figures if f.id == "s1")
    assert "dominated" not in figure.conditions


def test_the_controller_itself_is_not_dominated() -> None:
    state = bare(["doc"], area="1C")
    warden = put(state, "warden", "1C", "w1")
    assert not rules.dominated(state, warden)
    s1 = put(state, "skitterling", "1D", "s1")
    assert rules.dominated(state, s1)
    view = GAME.view(state, None)
    assert "dominated" in next(f for f in view.figures if f.id == "s1").conditions


def test_berserk_attacks_twice_with_each_active_melee_limb() -> None:
    state = bare(["doc"], area="1C")
    colossus = put(state, "colossus", "1C", "c1")
    ev: list[Event] = []
    enemy_ai.berserk_attacks(state, colossus, "doc", ScriptedDice(SAFE), ev)
    lines = _berserk_lines(ev)
    # Left Arm, Right Arm and Legs strike twice each; the Head only shoots, not in its own Area.
    assert len(lines) == 6
    assert sum("Left Arm" in line for line in lines) == 2
    assert not any("Head" in line for line in lines)
    assert "Attack Value 4" in lines[2]  # the Right Arm's own value


def test_limbs_go_inactive_as_wounds_mount() -> None:
    state = bare(["doc"], area="1C")
    colossus = put(state, "colossus", "1C", "c1")
    assert [limb.name for limb in rules.active_limbs(colossus)] == [
        "Left Arm",
        "Right Arm",
        "Head",
        "Legs",
    ]
    colossus.wounds = 1
    ev: list[Event] = []
    enemy_ai.berserk_attacks(state, colossus, "doc", ScriptedDice(SAFE), ev)
    assert len(_berserk_lines(ev)) == 4 and "Left Arm" not in texts(ev)
    colossus.wounds = 3
    ev = []
    enemy_ai.berserk_attacks(state, colossus, "doc", ScriptedDice(SAFE), ev)
    assert [line.split(" with its ")[1][:4] for line in _berserk_lines(ev)] == ["Legs", "Legs"]
    conds = next(f for f in GAME.view(state, None).figures if f.id == "c1").conditions
    assert conds == ["limb:Legs"]


def test_berserk_head_shoots_twice_from_afar() -> None:
    state = bare(["doc"], area="1C")
    colossus = put(state, "colossus", "1D", "c1")
    assert enemy_ai.in_fire(state, colossus, "1D", "1C", 2)
    ev: list[Event] = []
    enemy_ai.berserk_attacks(state, colossus, "doc", ScriptedDice(SAFE), ev)
    lines = _berserk_lines(ev)
    assert len(lines) == 2 and all("Head" in line and "ranged" in line for line in lines)


def test_berserk_in_the_enemies_turn_and_a_failed_defense_wounds() -> None:
    state = bare(["doc"], mission="hive-breach", area="8A")
    put(state, "colossus", "8A", "c1")
    state.wound_deck.draw_pile.extend(["flesh_wound"] * 6)
    ev: list[Event] = []
    # Each Defense Test rolls blanks and fails.
    enemy_ai.enemy_turn(state, ScriptedDice([1] * 200), ev)
    assert len(_berserk_lines(ev)) == 6
    assert state.heroes["doc"].wounds or state.heroes["doc"].down


def test_content_refuses_bad_alien_data() -> None:
    content = load_content()
    colossus = content.enemies["colossus"]
    broken = content.model_copy(deep=True)
    broken.enemies["colossus"] = colossus.model_copy(update={"limbs": []})
    with pytest.raises(ContentError, match="Berserk and limbs"):
        _validate(broken)
    broken = content.model_copy(deep=True)
    broken.enemies["skitterling"] = content.enemies["skitterling"].model_copy(
        update={"subtitles": ["martian"]}
    )
    with pytest.raises(ContentError, match="subtitles"):
        _validate(broken)
    broken = content.model_copy(deep=True)
    twice = [colossus.limbs[0], colossus.limbs[0]]
    broken.enemies["colossus"] = colossus.model_copy(update={"limbs": twice})
    with pytest.raises(ContentError, match="distinct"):
        _validate(broken)


def test_a_mission_fields_the_alien_layer() -> None:
    mission = load_content().missions["hive-breach"]
    kinds = {line.enemy for line in mission.card}
    assert {"warden", "skitterling", "colossus"} <= kinds


def test_awareness_activation_of_a_berserk_enemy_uses_its_limbs() -> None:
    state = bare(["doc"], area="1C")
    colossus = put(state, "colossus", "1C", "c1")
    colossus.wounds = 2  # both arms lost: Head and Legs left
    ev: list[Event] = []
    enemy_ai.activate_one(state, colossus, ScriptedDice(SAFE), ev, "test")
    lines = _berserk_lines(ev)
    assert len(lines) == 2 and all("Legs" in line for line in lines)
