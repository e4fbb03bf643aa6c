"""Hero Skills and Keywords the other files leave untested, one small scene each.

Green Defense faces: 1 blank, 2-3 one, 4 two, 5 three, 6 star. Black: 1-2 blank, 3-4 one,
5 two, 6 star.
"""

from __future__ import annotations

from reich_helpers import GAME, act, bare, give_card, put, run_upkeep, texts

from engine.core.dice import ScriptedDice
from engine.core.events import Event, Rolled
from engine.reich import enemies as enemy_ai
from engine.reich import rules
from engine.reich.defense import defend


def test_heavy_infantry_turns_a_star_into_two_successes() -> None:
    state = bare(["hans", "sarge"], area="1C")
    assert defend(state, state.heroes["hans"], 6, ScriptedDice([6, 4]), [], "x") == (True, 6)
    ok, score = defend(state, state.heroes["sarge"], 6, ScriptedDice([6, 4, 1]), [], "x")
    assert (ok, score) == (False, 4)  # a plain star buys a die (blank here)


def test_steel_skin_adds_a_success_to_defense() -> None:
    state = bare(["remmy", "sarge"], area="1C")
    state.heroes["sarge"].orders["defend"] = "no-cards"
    assert defend(state, state.heroes["remmy"], 4, ScriptedDice([4, 2]), [], "x") == (True, 4)
    assert defend(state, state.heroes["sarge"], 4, ScriptedDice([4, 2]), [], "x") == (False, 3)


def test_guardian_plays_a_card_for_a_friend() -> None:
    state = bare(["hans", "doc"], area="1C")
    state.heroes["hans"].orders["defend"] = "no-cards"
    give_card(state, "doc", "take_cover-doc8")
    ev: list[Event] = []
    assert defend(state, state.heroes["hans"], 5, ScriptedDice([4, 2]), ev, "x") == (True, 5)
    assert "take_cover-doc8" in state.heroes["doc"].deck.discard_pile


def test_elusive_tane_slips_away_after_an_attack() -> None:
    state = bare(["tane"], area="1D")
    soldier = put(state, "soldier", "1C", "s1")
    enemy_ai.strike(
        state, soldier, state.heroes["tane"], "ranged", 4, "s1", ScriptedDice([5, 5]), []
    )
    assert state.heroes["tane"].area in ("1B", "2C")  # away from 1C, no Enemies there
    state.heroes["tane"].area = "1D"
    state.heroes["tane"].orders["elusive"] = "off"
    enemy_ai.strike(
        state, soldier, state.heroes["tane"], "ranged", 4, "s1", ScriptedDice([5, 5]), []
    )
    assert state.heroes["tane"].area == "1D"


def test_ubersoldat_knocks_back_and_is_brutal() -> None:
    state = bare(["sarge"], area="1D")
    uber = put(state, "ubersoldat", "1D", "u1")
    state.heroes["sarge"].orders["defend"] = "no-cards"
    state.wound_deck.draw_pile.append("flesh_wound")
    ev: list[Event] = []
    enemy_ai.strike(state, uber, state.heroes["sarge"], "melee", 6, "u1", ScriptedDice([1, 1]), ev)
    sarge = state.heroes["sarge"]
    assert sarge.area != "1D" and "knocked back" in texts(ev) and sarge.brutal
    run_upkeep(state, ScriptedDice([1] * 10), [])
    assert state.heroes["sarge"].tokens == 1  # Brutal: one token back


def test_area_attack_makes_everyone_in_the_area_defend() -> None:
    state = bare(["sarge", "hans"], area="3A", mission="wolffs-lair")
    for key in set(state.heroes) - {"sarge", "hans"}:
        state.heroes[key].area = "EN"
    wolff = put(state, "wolff", "3A", "w1")
    ev: list[Event] = []
    enemy_ai.strike(
        state, wolff, state.heroes["sarge"], "melee", 5, "w1", ScriptedDice([5] * 4), ev
    )
    defended = {e.figure for e in ev if isinstance(e, Rolled) and e.purpose == "defense"}
    assert defended == {"sarge", "hans"}


def test_armless_dogs_cannot_open_doors() -> None:
    state = bare(["sarge"], area="2A")
    put(state, "dog", "1B", "d1")
    state.alarm = True
    enemy_ai._move_step(state, "dog", ScriptedDice([]), [])
    assert rules.find_enemy(state, "d1").area == "1B" and not state.open_doors  # type: ignore[union-attr]


def test_accurate_shoots_through_an_enemy_area() -> None:
    state = bare(["sally", "claudine"], area="EN")
    put(state, "soldier", "1C", "s1")
    put(state, "soldier", "1D", "s2")
    targets = {
        (a.args["unit"], a.args["target"])
        for a in GAME.legal_actions(state, "sally")
        if a.verb == "attack"
    }
    assert ("sally", "s2") in targets  # Accurate rifle: Line of Sight through 1C
    claudine = {
        a.args["target"] for a in GAME.legal_actions(state, "claudine") if a.verb == "attack"
    }
    assert "s2" not in claudine


def test_crowd_control_pushes_the_enemies_away() -> None:
    state = bare(["joe"], area="1D")
    put(state, "soldier", "1D", "s1")
    put(state, "dog", "1D", "d1")
    dice = ScriptedDice([6, 5])
    state, _ = act(state, "joe", "attack", dice, unit="joe", target="s1", weapon="wrench")
    state, _ = act(state, "joe", "choose", dice, option="roll")
    state, _ = act(state, "joe", "choose", dice, option="crowd_control")
    state, _ = act(state, "joe", "choose", dice, option="done")
    assert not rules.enemies_in(state, "1D")  # s1 is killed, the dog is driven off


def test_rage_rolls_one_more_die() -> None:
    state = bare(["bjorn"], area="1D")
    put(state, "exp6xx", "1D", "x1")
    dice = ScriptedDice([6, 1, 1, 6, 5])
    state, _ = act(state, "bjorn", "attack", dice, unit="bjorn", target="x1", weapon="axe")
    state, _ = act(state, "bjorn", "choose", dice, option="roll")
    state, _ = act(state, "bjorn", "choose", dice, option="rage")
    assert state.pending is not None and len(state.pending.dice) == 4
    state, _ = act(state, "bjorn", "choose", dice, option="extra")  # Rage's star: standard
    state, _ = act(state, "bjorn", "choose", dice, option="done")
    assert not state.enemies  # 2 + 2 + 2 = 6 against Defense 6


def test_vengeance_adds_a_success_beside_a_down_hero() -> None:
    state = bare(["claudine", "sarge"], area="1D")
    put(state, "soldier", "1D", "s1")
    state.heroes["sarge"].down = True
    state, _ = act(
        state, "claudine", "attack", ScriptedDice([]), unit="claudine", target="s1", weapon="knife"
    )
    assert state.pending is not None and state.pending.bonus == 2  # Precise + Vengeance


def test_resourceful_picks_up_once_for_free() -> None:
    state = bare(["quentin"], area="EN")
    state.ground = []
    rules.drop_loot(state, "EN", "schnapps", [])
    rules.drop_loot(state, "EN", "ammo", [])
    d = ScriptedDice([])
    first, second = [g.id for g in state.ground]
    state, _ = act(state, "quentin", "act", d, unit="quentin", what="pickup", target=first)
    assert state.heroes["quentin"].tokens == 2
    state, _ = act(state, "quentin", "act", d, unit="quentin", what="pickup", target=second)
    assert state.heroes["quentin"].tokens == 1


def test_unjam_spends_a_token() -> None:
    state = bare(["sarge"], area="EN")
    state.heroes["sarge"].weapons["mg"].jammed = True
    assert not any(
        a.args.get("weapon") == "mg"
        for a in GAME.legal_actions(state, "sarge")
        if a.verb == "attack"
    )
    state, _ = act(state, "sarge", "act", ScriptedDice([]), unit="sarge", what="unjam", target="mg")
    assert not state.heroes["sarge"].weapons["mg"].jammed and state.heroes["sarge"].tokens == 1


def test_dog_kennels_and_dog_biscuits() -> None:
    state = bare(["sarge"], area="EN")
    rules_events: list[Event] = []
    state.accessories = {"1C": "kennels"}
    rules.reveal_accessory(state, "1C", ScriptedDice([]), rules_events)
    assert sum(1 for e in state.enemies if e.type == "dog") == 2
    state = bare(["sarge"], area="EN")
    state.heroes["sarge"].loot = ["dog_biscuits"]
    state.accessories = {"1C": "kennels"}
    rules.reveal_accessory(state, "1C", ScriptedDice([]), rules_events)
    assert not state.enemies and not state.heroes["sarge"].loot
