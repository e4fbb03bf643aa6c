"""The rulebook's worked examples, replayed with scripted dice.

Die faces (see engine/reich/dice.py): black 1-2 blank, 3-4 one, 5 two, 6 star;
green 1 blank, 2-3 one, 4 two, 5 three, 6 star; red 1 Overload, 2 blank, 3 one, 4-5 two, 6 star.
"""

from __future__ import annotations

import pytest
from reich_helpers import GAME as GAME_R
from reich_helpers import act, bare, give_card, put, run_upkeep, texts

from engine.core.dice import ScriptedDice
from engine.core.errors import RuleError
from engine.core.events import Attacked, Event
from engine.reich import enemies as enemy_ai
from engine.reich import rules
from engine.reich.game import ReichGame
from engine.reich.state import EnemyToken


def last_attack(events: list[Event]) -> Attacked:
    return [e for e in events if isinstance(e, Attacked)][-1]


# ---------------------------------------------------------------- Noise examples


def test_noise_examples_revolver_then_machine_gun() -> None:
    state = bare(["sarge"], area="1C")
    state.tracker, state.discretion = 2, 6
    put(state, "soldier", "1D", "s1")
    put(state, "soldier", "1D", "s2")
    dice = ScriptedDice([5, 5])
    state, _ = act(state, "sarge", "attack", dice, unit="sarge", target="s1", weapon="revolver")
    state, _ = act(state, "sarge", "choose", dice, option="roll")
    state, ev = act(state, "sarge", "choose", dice, option="done")
    assert last_attack(ev).result == "success"
    assert state.discretion == 5 and not state.alarm  # one Noise icon
    state.heroes["sarge"].used_attack = False
    dice = ScriptedDice([3, 1, 2])
    state, _ = act(state, "sarge", "attack", dice, unit="sarge", target="s2", weapon="mg")
    state, _ = act(state, "sarge", "choose", dice, option="roll")
    state, ev = act(state, "sarge", "choose", dice, option="done")
    assert last_attack(ev).result == "fail"
    assert state.discretion == 2 and state.alarm  # three Noise icons reach the tracker
    assert state.heroes["sarge"].weapons["mg"].jammed  # Shoddy Kit: two blanks


def test_noise_example_grenade_explosion() -> None:
    state = bare(["claudine"], area="1C")
    put(state, "soldier", "1D", "s1")
    put(state, "soldier", "1D", "s2")
    give_card(state, "claudine", "grenade-claudine1")
    dice = ScriptedDice([])
    state, _ev = act(
        state, "claudine", "act", dice, unit="claudine", what="play", target="grenade-claudine1"
    )
    assert state.alarm  # the Explosion icon sets off the alarm at once
    state, _ = act(state, "claudine", "act", dice, unit="claudine", what="grenade", to="1D")
    assert not [e for e in state.enemies if e.area == "1D"]
    assert "grenade-claudine1" in state.heroes["claudine"].removed  # Consumable


# ---------------------------------------------------------------- Test examples


def test_claudine_knife_with_sallys_support() -> None:
    state = bare(["claudine", "sally"], area="1C")
    put(state, "soldier", "1C", "s1")
    give_card(state, "sally", "deadly-sally1")
    dice = ScriptedDice([5, 1])
    state, _ = act(state, "claudine", "attack", dice, unit="claudine", target="s1", weapon="knife")
    state, _ = act(state, "claudine", "choose", dice, option="roll")
    assert state.pending is not None and state.pending.bonus == 1  # Precise
    state, ev = act(state, "claudine", "choose", dice, option="done")
    attack = last_attack(ev)
    assert attack.hits == 6 and attack.result == "success"  # 2 + 1 + 3 from Sally's Deadly
    assert not state.enemies
    assert "deadly-sally1" in state.heroes["sally"].deck.discard_pile


def test_irena_crack_shot_with_vicious() -> None:
    state = bare(["irena"], area="1C")
    put(state, "zombie", "1D", "z1")
    give_card(state, "irena", "crack_shot-irena1")
    give_card(state, "irena", "vicious-irena3")
    dice = ScriptedDice([5, 5, 3, 1, 5])
    state, _ = act(
        state, "irena", "act", dice, unit="irena", what="play", target="crack_shot-irena1"
    )
    state, _ = act(state, "irena", "attack", dice, unit="irena", target="z1", weapon="silenced")
    state, _ = act(state, "irena", "choose", dice, option="card:vicious-irena3")
    assert state.pending is not None and state.pending.black == 4
    state, _ = act(state, "irena", "choose", dice, option="roll")  # Lethal re-rolls the blank
    state, ev = act(state, "irena", "choose", dice, option="done")
    attack = last_attack(ev)
    assert attack.hits == 7 and attack.result == "success"
    assert not state.enemies


def test_doc_defends_with_helmet_and_fails() -> None:
    state = bare(["doc"], area="1C")
    doc = state.heroes["doc"]
    doc.loot = ["helmet"]
    z1, z2 = put(state, "zombie", "1C", "z1"), put(state, "zombie", "1C", "z2")
    state.wound_deck.draw_pile.append("cracked_rib")
    dice = ScriptedDice([5, 4, 2])
    ev: list[Event] = []
    enemy_ai.resolve_attacks(state, [(z1, "doc", "melee"), (z2, "doc", "melee")], dice, ev)
    assert "Attack Value 9" in texts(ev)
    assert "6 Successes against 9" in texts(ev)
    assert doc.wounds == ["cracked_rib"]  # 3 damage against threshold 2: permanent


def test_remmy_too_danish_with_vril_injection() -> None:
    state = bare(["remmy"], area="1C")
    put(state, "dog", "1D", "d1")
    put(state, "dog", "1D", "d2")
    remmy = state.heroes["remmy"]
    remmy.loot = ["vril_injection"]
    give_card(state, "remmy", "too_danish-remmy1")
    dice = ScriptedDice([5, 5, 1, 3, 5, 3, 1, 1])
    state, _ = act(state, "remmy", "act", dice, unit="remmy", what="loot", target="vril_injection")
    state, _ = act(
        state, "remmy", "act", dice, unit="remmy", what="play", target="too_danish-remmy1"
    )
    state, _ = act(state, "remmy", "attack", dice, unit="remmy", target="d1", weapon="colt")
    assert state.pending is not None and state.pending.black == 3  # Vril Injection die
    state, _ = act(state, "remmy", "choose", dice, option="roll")
    state, ev = act(state, "remmy", "choose", dice, option="done")
    assert last_attack(ev).hits == 5 and last_attack(ev).result == "success"
    # The second Attack must pick a different Dog; Vril Injection still lasts.
    state, _ = act(state, "remmy", "attack", dice, unit="remmy", target="d2", weapon="colt")
    state, _ = act(state, "remmy", "choose", dice, option="roll")
    state, ev = act(state, "remmy", "choose", dice, option="done")
    assert last_attack(ev).hits == 3 and last_attack(ev).result == "fail"
    assert [e.id for e in state.enemies] == ["d2"]


# ---------------------------------------------------------------- Special Results


def test_tane_vril_machete_loot_and_quick_attack() -> None:
    state = bare(["tane"], area="1C")
    tane = state.heroes["tane"]
    tane.weapons["machete"].vril = True
    put(state, "soldier", "1C", "s1")
    put(state, "dog", "1C", "d1")
    dice = ScriptedDice([6, 5, 6])
    state, _ = act(state, "tane", "attack", dice, unit="tane", target="s1", weapon="machete")
    state, _ = act(state, "tane", "choose", dice, option="roll")
    state, _ = act(state, "tane", "choose", dice, option="loot")
    state, _ = act(state, "tane", "choose", dice, option="quick_attack")
    state, ev = act(state, "tane", "choose", dice, option="done")
    assert last_attack(ev).hits == 6 and last_attack(ev).result == "success"
    assert [e.id for e in state.enemies] == ["d1"]
    assert any(g.card and g.area == "1C" for g in state.ground)  # the Soldier dropped Loot
    assert state.heroes["tane"].grants == ["quick:machete"]
    dice = ScriptedDice([5, 5, 3])
    state, _ = act(state, "tane", "attack", dice, unit="tane", target="d1", weapon="machete")
    state, _ = act(state, "tane", "choose", dice, option="roll")
    state, ev = act(state, "tane", "choose", dice, option="done")
    assert last_attack(ev).result == "success" and not state.enemies


def test_doc_double_dodge_special_results() -> None:
    state = bare(["doc"], area="1C")
    give_card(state, "doc", "double_dodge-doc3")
    z1, z2 = put(state, "zombie", "1C", "z1"), put(state, "zombie", "1C", "z2")
    dice = ScriptedDice([6, 4, 2, 6, 1, 5])
    ev: list[Event] = []
    enemy_ai.resolve_attacks(state, [(z1, "doc", "melee"), (z2, "doc", "melee")], dice, ev)
    assert "10 Successes against 9: defended" in texts(ev)
    assert state.heroes["doc"].wounds == []
    assert dice.remaining == 0


def test_quentin_vril_bow_cancels_overload() -> None:
    state = bare(["quentin"], area="1C")
    state.heroes["quentin"].weapons["bow"].vril = True
    uber = put(state, "ubersoldat", "1D", "u1")
    dice = ScriptedDice([6, 6, 1, 3])
    state, _ = act(state, "quentin", "attack", dice, unit="quentin", target="u1", weapon="bow")
    state, _ = act(state, "quentin", "choose", dice, option="roll")
    state, _ = act(state, "quentin", "choose", dice, option="extra")
    state, _ = act(state, "quentin", "choose", dice, option="cancel")
    state, ev = act(state, "quentin", "choose", dice, option="done")
    assert last_attack(ev).hits == 6 and last_attack(ev).result == "success"
    assert state.enemies[0].wounds == 1 and uber.id == "u1"  # Armored: one Wound only
    assert state.heroes["quentin"].wounds == []  # the Overload was cancelled


# ---------------------------------------------------------------- combined attacks


def test_three_zombies_combine_to_thirteen() -> None:
    state = bare(["doc"], area="1C")
    zs = [put(state, "zombie", "1C", f"z{i}") for i in range(3)]
    ev: list[Event] = []
    state.wound_deck.draw_pile.append("flesh_wound")
    enemy_ai.resolve_attacks(state, [(z, "doc", "melee") for z in zs], ScriptedDice([1, 1]), ev)
    assert "Attack Value 13" in texts(ev)


def test_four_soldiers_combine_to_ten_in_enemy_turn() -> None:
    state = bare(["tane"], area="1C")
    state.alarm = True
    for hero in state.heroes.values():
        if hero.key != "tane":
            hero.area = None
    for i, area in enumerate(["1A", "1A", "1D", "1D"]):
        put(state, "soldier", area, f"s{i}")
    state.reinforcement_deck.draw_pile.append("r03")
    state.wound_deck.draw_pile.append("flesh_wound")
    ev: list[Event] = []
    enemy_ai.enemy_turn(state, ScriptedDice([5, 5, 6, 5]), ev)
    assert (
        "Ranged Attack on Tane by Soldier s0, Soldier s1, Soldier s2 and Soldier s3: "
        "Attack Value 10" in texts(ev)
    )
    assert all(e.area in ("1A", "1D") for e in state.enemies if len(e.id) == 2)


def test_hans_melee_then_ranged_attacks() -> None:
    state = bare(["hans"], area="1C")
    s1, s2, s3 = (
        put(state, "soldier", "1C"),
        put(state, "soldier", "1D"),
        put(state, "soldier", "1D"),
    )
    ev: list[Event] = []
    plans = [(s1, "hans", "melee"), (s2, "hans", "ranged"), (s3, "hans", "ranged")]
    enemy_ai.resolve_attacks(state, plans, ScriptedDice([5, 5, 5, 5]), ev)
    assert "Melee Attack on Hans" in texts(ev) and "Attack Value 4." in texts(ev)
    assert "Attack Value 6." in texts(ev)


# ---------------------------------------------------------------- Target Hero


def _solo(hero: str, area: str) -> tuple[ReichGame, object]:
    state = bare([hero], area=area)
    for h in state.heroes.values():
        if h.key != hero:
            h.area = None
    state.alarm = True
    state.reinforcement_deck.draw_pile.append("r03")
    return ReichGame(), state


def test_zombie_targets() -> None:
    _, state = _solo("doc", "1C")
    z = put(state, "zombie", "1C", "z1")  # type: ignore[arg-type]
    assert enemy_ai.plan_and_move(state, z, ScriptedDice([]), []) == "doc"  # type: ignore[arg-type]
    assert z.area == "1C"
    z.area = "1D"
    assert enemy_ai.plan_and_move(state, z, ScriptedDice([]), []) == "doc"  # type: ignore[arg-type]
    assert z.area == "1C"
    z.area = "1B"  # two Areas away: moves one (Move 1) and cannot attack
    enemy_ai.plan_and_move(state, z, ScriptedDice([]), [])  # type: ignore[arg-type]
    assert z.area in ("1A", "1D")
    assert enemy_ai.attack_choice(state, z, "doc") is None  # type: ignore[arg-type]


def test_soldier_targets() -> None:
    _, st = _solo("irena", "1A")
    state = st
    s = put(state, "soldier", "1A", "s1")  # type: ignore[arg-type]
    enemy_ai.plan_and_move(state, s, ScriptedDice([]), [])  # type: ignore[arg-type]
    assert s.area != "1A"  # steps into a free adjacent Area
    assert enemy_ai.attack_choice(state, s, "irena") == ("irena", "ranged")  # type: ignore[arg-type]
    # Heroes in both adjacent Areas: it stays and fights in Melee.
    s.area = "1A"
    state.heroes["sarge"].area, state.heroes["hans"].area = "1B", "1C"  # type: ignore[attr-defined]
    enemy_ai.plan_and_move(state, s, ScriptedDice([]), [])  # type: ignore[arg-type]
    assert s.area == "1A"
    assert enemy_ai.attack_choice(state, s, "irena") == ("irena", "melee")  # type: ignore[arg-type]


def test_soldier_adjacent_and_far() -> None:
    _, state = _solo("irena", "EN")
    s = put(state, "soldier", "1C", "s1")  # type: ignore[arg-type]
    assert enemy_ai.plan_and_move(state, s, ScriptedDice([]), []) == "irena"  # type: ignore[arg-type]
    assert s.area == "1C"  # already in sight and Range: no move
    s.area = "2C"  # three Areas away: moves two, then shoots at Range 1
    enemy_ai.plan_and_move(state, s, ScriptedDice([]), [])  # type: ignore[arg-type]
    assert s.area == "1C"
    assert enemy_ai.attack_choice(state, s, "irena") == ("irena", "ranged")  # type: ignore[arg-type]


# ---------------------------------------------------------------- spawning


def test_spawn_example_level_one_token() -> None:
    from engine.reich.state import EnemyToken

    state = bare(["sarge"], area="EN")
    state.enemy_tokens = [EnemyToken(id="T9", area="1D", level=1, letters="BBD")]
    state, ev = act(state, "sarge", "move", ScriptedDice([]), unit="sarge", to="1C")
    assert sorted(e.type for e in state.enemies) == ["dog", "dog", "soldier"]
    assert all(e.area == "1D" for e in state.enemies) and not state.enemy_tokens
    assert not any("reacts at once" in e.text for e in ev)  # new Dogs act next Enemies' Turn


def test_reinforcement_example() -> None:
    state = bare(["sarge"], area="EN")
    state.alarm = True
    state.reinforcement_deck.draw_pile.append("r01")
    ev: list[Event] = []
    enemy_ai.reinforcements(state, ScriptedDice([]), ev)
    by_area: dict[str, list[str]] = {}
    for e in state.enemies:
        by_area.setdefault(e.area, []).append(e.type)
    assert sorted(by_area["5B"]) == ["dog", "soldier", "soldier", "soldier"]
    assert by_area["3B"] == ["soldier"] * 4
    assert sorted(by_area["7D"]) == ["exp6xx", "soldier", "zombie", "zombie", "zombie"]
    assert "r01" in state.reinforcement_deck.discard_pile


# ---------------------------------------------------------------- Upkeep


def test_upkeep_example() -> None:
    state = bare(["claudine", "sarge", "quentin", "redhawk"], area="1C")
    for key, size in (("claudine", 5), ("sarge", 4), ("quentin", 6), ("redhawk", 6)):
        h = state.heroes[key]
        h.hand = h.deck.draw_pile[:size]
        h.deck.draw_pile = h.deck.draw_pile[size:]
        h.tokens = 0
    state.heroes["claudine"].in_play = ["sprint-claudine4"]
    state.heroes["sarge"].area = "1D"
    state.heroes["redhawk"].area = "1A"
    from engine.reich.state import GroundItem

    state.ground = [
        GroundItem(id="L1", area="1D", card="helmet"),
        GroundItem(id="L2", area="1A", card="medkit", face_up=False),
    ]
    ev: list[Event] = []
    run_upkeep(state, ScriptedDice([]), ev)
    sizes = {k: len(h.hand) for k, h in state.heroes.items()}
    assert sizes == {"claudine": 5, "sarge": 5, "quentin": 6, "redhawk": 6}
    assert state.heroes["claudine"].in_play == []
    assert "sprint-claudine4" in state.heroes["claudine"].deck.discard_pile
    assert all(h.tokens == 2 for h in state.heroes.values())
    assert state.heroes["sarge"].loot == ["helmet"]
    assert state.heroes["redhawk"].loot == []  # face down: cannot be picked up
    assert state.tracker == 2 and state.round == 2


# ---------------------------------------------------------------- Attack, Action and Enemy examples


def test_claudine_melee_example_kills_a_soldier() -> None:
    """Melee Attacks: Claudine's Knife (Precise) scores 5 against a Soldier's Defense 4."""
    state = bare(["claudine"], area="1C")
    put(state, "soldier", "1C", "s1")
    dice = ScriptedDice([5, 5])
    state, _ = act(state, "claudine", "attack", dice, unit="claudine", target="s1", weapon="knife")
    state, _ = act(state, "claudine", "choose", dice, option="roll")
    state, ev = act(state, "claudine", "choose", dice, option="done")
    assert last_attack(ev).hits == 5 and not state.enemies  # Life 1: removed


def test_sarge_ranged_example_at_range_two() -> None:
    """Ranged Attacks: the submachine gun (Range 2) scores 4 (1+1+2); the Revolver cannot reach."""
    state = bare(["sarge"], area="EN")
    put(state, "soldier", "1D", "s1")  # two borders away in a straight line
    with pytest.raises(RuleError, match="beyond"):
        act(
            state, "sarge", "attack", ScriptedDice([]), unit="sarge", target="s1", weapon="revolver"
        )
    before = state.discretion
    dice = ScriptedDice([3, 4, 5])
    state, _ = act(state, "sarge", "attack", dice, unit="sarge", target="s1", weapon="mg")
    state, _ = act(state, "sarge", "choose", dice, option="roll")
    state, ev = act(state, "sarge", "choose", dice, option="done")
    assert last_attack(ev).hits == 4 and not state.enemies
    assert state.discretion == before - 3  # three Noise icons, whatever the result


def test_brick_hard_as_a_brick_skips_the_move_and_rerolls_with_focused() -> None:
    """Action/Modifier sections: Brick applies only the Melee Attack, then a re-roll Modifier."""
    state = bare(["brick"], area="1C")
    put(state, "officer", "1C", "o1")
    give_card(state, "brick", "hard_brick-brick1")
    give_card(state, "brick", "hard_brick-brick2")
    dice = ScriptedDice([1, 3, 1, 5, 1])
    state, _ = act(
        state, "brick", "act", dice, unit="brick", what="play", target="hard_brick-brick1"
    )
    state, _ = act(state, "brick", "act", dice, unit="brick", what="skip")  # no need to Move
    state, _ = act(state, "brick", "attack", dice, unit="brick", target="o1", weapon="hands")
    assert state.pending is not None and state.pending.black == 3  # Bare Hands + 2
    state, _ = act(state, "brick", "choose", dice, option="roll")
    state, _ = act(state, "brick", "choose", dice, option="card:hard_brick-brick2")
    state, ev = act(state, "brick", "choose", dice, option="done")
    assert last_attack(ev).hits == 3 and not state.enemies  # Officer Defense 3
    assert {"hard_brick-brick1", "hard_brick-brick2"} <= set(
        state.heroes["brick"].deck.discard_pile
    )


def test_surveillance_example_sets_off_the_alarm() -> None:
    """Surveillance: an Active Experiment 6XX sees a Hero before the alarm: every token flips."""
    state = bare(["sarge"], area="1C")
    put(state, "exp6xx", "1D", "x1")
    state.enemy_tokens = [EnemyToken(id="T1", area="5B", level=1, letters="D")]
    ev: list[Event] = []
    enemy_ai._move_step(state, "exp6xx", ScriptedDice([]), ev)
    assert state.alarm and not state.enemy_tokens
    assert any(e.area == "5B" for e in state.enemies)


def test_three_zombies_at_a_closed_door_split_into_two_groups() -> None:
    """Enemy Move: Zombie A spends its Move Point opening the door; B and C walk through."""
    state = bare(["sarge"], area="2A")
    door = next(d for d in rules.board(state).doors.values() if set(d.areas) == {"1B", "2A"})
    for zid in ("za", "zb", "zc"):
        put(state, "zombie", "1B", zid)
    state.phase = "enemies"
    ev: list[Event] = []
    enemy_ai._move_step(state, "zombie", ScriptedDice([]), ev)
    assert door.id in state.open_doors
    assert sorted(e.area for e in state.enemies) == ["1B", "2A", "2A"]


def test_experiment_601_needs_two_successful_attacks() -> None:
    """Enemy Wounds: Life 2 keeps a Wound token after the first Success."""
    state = bare(["bochka"], area="1C")
    put(state, "exp601", "1C", "e1")
    for expected in (1, None):
        state.heroes["bochka"].used_attack = False
        dice = ScriptedDice([5, 5, 5])
        state, _ = act(state, "bochka", "attack", dice, unit="bochka", target="e1", weapon="hammer")
        state, _ = act(state, "bochka", "choose", dice, option="roll")
        state, _ = act(state, "bochka", "choose", dice, option="done")
        found = rules.find_enemy(state, "e1")
        assert (found.wounds if found else None) == expected


def test_activation_order_lists_each_type_once() -> None:
    """Activation Order: a type named twice on the Mission card activates once, first place."""
    state = bare(["sarge"])
    order = enemy_ai.activation_order(state)
    assert order == ["officer", "dog", "soldier", "zombie", "exp6xx"]


# ---------------------------------------------------------------- Board, Range and Door examples


def test_line_of_sight_eight_cases() -> None:
    """Line of Sight: the rulebook's eight cases, on the Radio Silence board.

    Row 5 runs 1A 1A 1B 1B |D2| 2A; row 7 runs 1C 1D 2C over an open border; column 5 runs
    3C |D1| 1B 1D; 2B and 7A share a wall.
    """
    state = bare(["sarge"], area="EN")
    state.open_doors = ["D1", "D2"]
    assert rules.hero_sight(state, "1A", "2A")  # 1: horizontal through an Open Door
    assert rules.hero_sight(state, "1C", "2C")  # 2: horizontal across an Area border
    assert rules.hero_sight(state, "3C", "1D")  # 3: vertical through an Open Door
    assert not rules.hero_sight(state, "1A", "1D")  # 4: diagonal only
    assert not rules.hero_sight(state, "2B", "7A")  # 5: a wall
    state.open_doors = ["D1"]
    assert not rules.hero_sight(state, "1B", "2A")  # 6: a Closed Door
    assert not rules.hero_sight(state, "EN", "1B")  # 7: diagonal only
    put(state, "soldier", "1D", "s1")  # 8: an Area with an opposing miniature blocks
    assert not rules.hero_sight(state, "1C", "2C")
    assert rules.enemy_sight(state, "1D", "1C")  # adjacent Areas always see each other
    state.heroes["sarge"].area = "1D"
    state.enemies = []
    put(state, "soldier", "2C", "s2")
    assert not rules.enemy_sight(state, "2C", "1C")  # the Hero in 1D blocks the Enemies
    state.heroes["sarge"].area = "1C"
    assert rules.enemy_sight(state, "2C", "1C")


def test_range_example_brick_claudine_and_the_officer() -> None:
    """Range: Soldier, Zombie and Officer at 0, 1 and 2 borders; Knife 0, Sten 2, Officer 1."""
    from engine.reich.attack import can_target, weapon_stats, weapons_of
    from engine.reich.content import load_content

    state = bare(["brick", "claudine"], area="1C")
    put(state, "soldier", "1C", "s1")
    put(state, "zombie", "1A", "z1")
    officer = put(state, "officer", "2C", "o1")
    ranges = [rules.sight_range(state, "1C", a, True) for a in ("1C", "1A", "2C")]
    assert ranges == [0, 1, 2]
    claudine = state.heroes["claudine"]
    knife, sten = (w for w in weapons_of(claudine) if w.id in ("knife", "sten"))
    assert (knife.range, sten.range) == (0, 2)
    ranged = load_content().enemies["officer"].ranged
    assert ranged is not None and ranged[1] == 1  # Ranged Attack Range 1
    assert load_content().enemies["officer"].main == "ranged"  # main Attack (yellow) is Ranged
    assert load_content().enemies["zombie"].main == "melee"
    assert load_content().enemies["officer"].move == 2  # the Enemy Move example
    state.enemies = [officer]
    assert can_target(state, claudine, officer, sten, weapon_stats(claudine, sten)[2]) is None
    assert "Melee" in (can_target(state, claudine, officer, knife, []) or "")


def test_doors_in_sarges_area_open_closed_and_locked() -> None:
    """Open/Unlock: in 7A the border to 2C is open, D9 is Closed, D8 is Locked (key)."""
    state = bare(["sarge"], area="7A")
    doors = {
        a.args.get("target")
        for a in GAME_R.legal_actions(state, "sarge")
        if a.args.get("what") == "open"
    }
    assert doors == {"D9"}  # the Closed Door opens with one Action; no keys for D8
    dice = ScriptedDice([])
    state, _ = act(state, "sarge", "act", dice, unit="sarge", what="open", target="D9")
    assert "D9" in state.open_doors and state.heroes["sarge"].tokens == 1
    state.heroes["sarge"].carried = ["keys"]
    state, _ = act(state, "sarge", "act", dice, unit="sarge", what="open", target="D8")
    assert "D8" in state.unlocked and "D8" not in state.open_doors  # unlocked: now Closed
    assert state.heroes["sarge"].tokens == 0  # two successive Actions for a Locked Door
    with pytest.raises(RuleError):
        act(state, "sarge", "act", dice, unit="sarge", what="open", target="D9")  # stays open


def test_weapon_token_functioning_and_jammed() -> None:
    """Weapon Token: a Jammed weapon cannot be chosen for an Attack, a Functioning one can."""
    state = bare(["sarge"], area="EN")
    put(state, "soldier", "1C", "s1")
    state.heroes["sarge"].weapons["mg"].jammed = True
    weapons = {
        a.args.get("weapon") for a in GAME_R.legal_actions(state, "sarge") if a.verb == "attack"
    }
    assert "revolver" in weapons and "mg" not in weapons
    with pytest.raises(RuleError):
        act(state, "sarge", "attack", ScriptedDice([]), unit="sarge", target="s1", weapon="mg")


def test_heroes_act_in_any_order_and_interleave() -> None:
    """The Heroes' Turn: one Hero acts, another takes over, then the first acts again."""
    state = bare(["sarge", "hans"], area="EN")
    dice = ScriptedDice([])
    state, _ = act(state, "sarge", "move", dice, unit="sarge", to="1C")
    state, _ = act(state, "hans", "move", dice, unit="hans", to="1C")
    state, _ = act(state, "sarge", "act", dice, unit="sarge", what="draw")
    assert state.heroes["sarge"].tokens == 0 and state.heroes["hans"].tokens == 1
    assert len(state.heroes["sarge"].hand) == 2 and state.phase == "heroes"


# ---------------------------------------------------------- Wound card and Enemy Wound examples


def test_wound_card_examples_threshold_and_no_cards() -> None:
    """Wound cards: below the Damage threshold the card is discarded; at it, it is permanent.

    "Knocked About" (our card in the place of the rulebook's threshold-4 example): 3 Damage
    Points discard it, 4 keep it and the Hero plays no more cards. "Ugly Hit" (the "discard a
    card or drop Loot, no more cards" example) asks for the discard first.
    """
    from engine.reich.rules import can_play_cards, wound_hero

    state = bare(["sarge"], area="1C")
    sarge = state.heroes["sarge"]
    give_card(state, "sarge", "sprint-sarge1")
    for damage, kept in ((3, False), (4, True)):
        state.wound_deck.draw_pile.append("roughed_up")
        ev: list[Event] = []
        sarge.tokens = 2
        wound_hero(state, sarge, damage, ScriptedDice([]), ev)
        assert ("roughed_up" in sarge.wounds) is kept
        assert sarge.tokens == 1  # the top effect applies either way: a Basic Action token
    assert not can_play_cards(sarge)
    sarge.wounds = []
    state.wound_deck.draw_pile.append("nasty_hit")
    wound_hero(state, sarge, 3, ScriptedDice([]), [])
    assert sarge.wounds == ["nasty_hit"] and sarge.grants == ["lose"]  # discard or drop
    d = ScriptedDice([])
    state, _ = act(state, "sarge", "act", d, unit="sarge", what="discard", target="sprint-sarge1")
    assert state.heroes["sarge"].hand == [] and not can_play_cards(state.heroes["sarge"])


def test_bjorn_wounds_wolff_who_turns_to_his_last_behaviour() -> None:
    """Enemy Wounds: Björn's first Success flips Wolff's card; a second Attack Test kills him."""
    state = bare(["bjorn"], mission="wolffs-lair", area="6C")
    state.heroes["bjorn"].weapons["axe"].vril = True  # the Vril Axe pierces Armor
    put(state, "wolff", "6C", "w1")
    for black_red, alive in (([5, 5, 3, 3], True), ([5, 5, 3, 2], False)):
        state.heroes["bjorn"].used_attack = False
        dice = ScriptedDice(black_red)
        state, _ = act(state, "bjorn", "attack", dice, unit="bjorn", target="w1", weapon="axe")
        state, _ = act(state, "bjorn", "choose", dice, option="roll")
        state, ev = act(state, "bjorn", "choose", dice, option="done")
        assert last_attack(ev).result == "success"  # 6 against 6, then 5 against 5
        found = rules.find_enemy(state, "w1")
        assert (found is not None) is alive
        if found is not None:
            assert found.behavior == 1 and not found.wounds  # a fresh card, Life 1


def test_tiles_rooms_and_areas_examples() -> None:
    """Tiles and Areas: a Room of one Area, a Room of two Areas; an Open Door joins two Areas."""
    b = rules.board(bare(["sarge"]))
    rooms_of = {a: {b.room_of[c] for c in b.cells_of[a]} for a in b.areas}
    assert {a for c, a in b.area_of.items() if b.tile_of[c] == "EN"} == {"EN"}  # one Area
    assert rooms_of["3A"] != rooms_of["3B"] != rooms_of["3C"]  # tile 3: three one-Area Rooms
    assert rooms_of["2A"] == rooms_of["2B"] != rooms_of["2C"]  # tile 2: a Room of two Areas
    assert b.graph([]).are_adjacent("1A", "1B")  # an Area border inside tile 1's Room
    assert not b.graph([]).are_adjacent("1B", "2A")  # a Closed Door is a wall to movement
    assert b.graph(["D2"]).are_adjacent("1B", "2A")  # open, it creates an Area border
