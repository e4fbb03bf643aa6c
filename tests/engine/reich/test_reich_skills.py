"""Hero Skills, Enemy Keywords and other mechanics, one small scene each."""

from __future__ import annotations

import pytest
from reich_helpers import GAME, act, bare, give_card, put, run_upkeep, texts

from engine.core.dice import ScriptedDice
from engine.core.errors import RuleError
from engine.core.events import Event
from engine.reich import enemies as enemy_ai
from engine.reich.rules import wound_hero
from engine.reich.state import EnemyToken, GroundItem


def test_basic_move_and_attack_once_per_turn() -> None:
    state = bare(["sarge"], area="EN")
    state, _ = act(state, "sarge", "move", ScriptedDice([]), unit="sarge", to="1C")
    with pytest.raises(RuleError, match="already made a Basic Move"):
        act(state, "sarge", "move", ScriptedDice([]), unit="sarge", to="1D")


def test_illegal_actions_change_nothing() -> None:
    state = bare(["sarge", "hans"], area="EN")
    before = state.model_dump()
    with pytest.raises(RuleError):
        act(state, "sarge", "move", ScriptedDice([]), unit="sarge", to="7D")
    with pytest.raises(RuleError, match="not yours"):
        act(state, "sarge", "move", ScriptedDice([]), unit="hans", to="1C")
    assert state.model_dump() == before


def test_card_move_cannot_enter_and_leave_enemy_area() -> None:
    state = bare(["sarge"], area="EN")
    put(state, "soldier", "1C", "s1")
    give_card(state, "sarge", "sprint-sarge1")
    d = ScriptedDice([])
    state, _ = act(state, "sarge", "act", d, unit="sarge", what="play", target="sprint-sarge1")
    state, _ = act(state, "sarge", "move", d, unit="sarge", to="1C")
    moves = [
        a
        for a in GAME.legal_actions(state, "sarge")
        if a.verb == "move" and a.args["unit"] == "sarge"
    ]
    assert moves == []  # only skipping the second Move is possible


def test_cover_me_adds_a_success() -> None:
    state = bare(["claudine", "brad"], area="1C")
    put(state, "soldier", "1C", "s1")
    d = ScriptedDice([5, 1])
    state, _ = act(state, "claudine", "attack", d, unit="claudine", target="s1", weapon="knife")
    state, _ = act(state, "claudine", "choose", d, option="roll")
    state, ev = act(state, "claudine", "choose", d, option="done")
    assert "Cover Me" in texts(ev) and not state.enemies  # 2 + 1 Precise + 1 = 4


def test_genius_draws_three_and_discards_one() -> None:
    state = bare(["prof"], area="EN")
    d = ScriptedDice([])
    state, _ = act(state, "prof", "act", d, unit="prof", what="draw")
    prof = state.heroes["prof"]
    assert len(prof.hand) == 3 and prof.grants == ["discard"]
    state, _ = act(state, "prof", "act", d, unit="prof", what="discard", target=prof.hand[0])
    assert len(state.heroes["prof"].hand) == 2


def test_mech_implants_keeps_the_milder_wound() -> None:
    state = bare(["bochka"], area="1C")
    state.wound_deck.draw_pile += ["cracked_rib", "scratch"]  # scratch is drawn first
    ev: list[Event] = []
    kept = wound_hero(state, state.heroes["bochka"], 3, ScriptedDice([]), ev)
    assert not kept and "Mech Implants" in texts(ev)


def test_mech_implants_order_picks_which_wound_bochka_keeps() -> None:
    """The player's choice is a standing order: spare-wounds (default) keeps the card that will
    not stay, spare-hand keeps the one that costs nothing now, even if it stays."""
    # (the narration names the Wound cards: Knocked About, Cracked Rib)
    for order, kept_card in (("spare-wounds", "Knocked About"), ("spare-hand", "Cracked Rib")):
        state = bare(["bochka", "sarge"], area="1C")
        if order != "spare-wounds":
            state, _ = act(
                state,
                "bochka",
                "orders",
                ScriptedDice([]),
                unit="bochka",
                order=f"implants:{order}",
            )
        state.wound_deck.draw_pile += ["cracked_rib", "roughed_up"]
        ev: list[Event] = []
        wound_hero(state, state.heroes["bochka"], 3, ScriptedDice([]), ev)
        assert f"keeps {kept_card}" in texts(ev), order
    offered = {a.args["order"] for a in GAME.legal_actions(state, "sarge") if a.verb == "orders"}
    assert not any(o.startswith("implants:") for o in offered)  # Bochka's skill only
    with pytest.raises(RuleError, match="no skill"):
        act(state, "sarge", "orders", ScriptedDice([]), unit="sarge", order="implants:spare-hand")


def test_focused_opens_a_door_with_a_move_effect() -> None:
    state = bare(["redhawk"], area="1B")
    give_card(state, "redhawk", "sprint-redhawk1")
    d = ScriptedDice([])
    state, _ = act(
        state, "redhawk", "act", d, unit="redhawk", what="play", target="sprint-redhawk1"
    )
    state, _ = act(state, "redhawk", "act", d, unit="redhawk", what="open", target="D2")
    assert "D2" in state.open_doors and state.heroes["redhawk"].grants == ["move"]


def test_dual_wielding_sums_defenses() -> None:
    state = bare(["irena"], area="1C")
    put(state, "soldier", "1D", "s1")
    put(state, "officer", "1D", "o1")  # a Bodyguard covers the Officer: not a legal target
    put(state, "dog", "1D", "d1")
    attacks = [
        a
        for a in GAME.legal_actions(state, "irena")
        if "target2" in a.args and a.args["weapon"] == "undercover"
    ]
    assert attacks and all("o1" not in a.args.values() for a in attacks)
    d = ScriptedDice([6, 6, 5, 6, 3])
    state, _ = act(
        state, "irena", "attack", d, unit="irena", target="s1", target2="d1", weapon="silenced"
    )
    assert state.pending is not None and state.pending.threshold == 9
    state, _ = act(state, "irena", "choose", d, option="roll")
    for _ in range(3):
        state, _ = act(state, "irena", "choose", d, option="extra")
    state, _ = act(state, "irena", "choose", d, option="done")
    assert [e.id for e in state.enemies] == ["o1"]


def test_meatshield_and_armored() -> None:
    state = bare(["sarge"], area="1C")
    put(state, "zombie", "1D", "z1")
    put(state, "soldier", "1D", "s1")
    assert not [a for a in GAME.legal_actions(state, "sarge") if a.args.get("target") == "s1"]


def test_suppressing_fire_pins_enemies() -> None:
    state = bare(["doc"], area="1C")
    z = put(state, "zombie", "1D", "z1")
    state.suppress = ["1D"]
    s = put(state, "soldier", "1D", "s1")
    assert enemy_ai.plan_and_move(state, s, ScriptedDice([]), []) is None
    assert enemy_ai.attack_choice(state, s, None) is None
    assert enemy_ai.plan_and_move(state, z, ScriptedDice([]), []) == "doc"  # Relentless


def test_smoke_blocks_line_of_sight() -> None:
    state = bare(["sarge"], area="EN")
    state.enemy_tokens = [EnemyToken(id="T1", area="2C", level=1, letters="D")]
    state.smoke = ["1D"]
    state, _ = act(state, "sarge", "move", ScriptedDice([]), unit="sarge", to="1C")
    assert state.enemy_tokens  # the token in 2C cannot see through the Smoke in 1D


def test_locked_door_needs_keys() -> None:
    state = bare(["sarge"], area="7A")
    doors = [
        a.args.get("target")
        for a in GAME.legal_actions(state, "sarge")
        if a.args.get("what") == "open"
    ]
    assert "D8" not in doors  # the key-locked door to 7C
    state.heroes["sarge"].carried = ["keys"]
    d = ScriptedDice([])
    state, _ = act(state, "sarge", "act", d, unit="sarge", what="open", target="D8")
    assert "D8" in state.unlocked and "D8" not in state.open_doors
    state, _ = act(state, "sarge", "act", d, unit="sarge", what="open", target="D8")
    assert "D8" in state.open_doors


def test_vrilmeister_wolff_changes_behaviour() -> None:
    state = bare(["quentin"], mission="wolffs-lair", area="6B")
    wolff = put(state, "wolff", "6C", "w1")
    d = ScriptedDice([6, 5, 5])
    state, _ = act(state, "quentin", "attack", d, unit="quentin", target="w1", weapon="bow")
    state, _ = act(state, "quentin", "choose", d, option="roll")
    state, _ = act(state, "quentin", "choose", d, option="extra")
    state, ev = act(state, "quentin", "choose", d, option="done")
    assert "next Behaviour" in texts(ev)
    w = state.enemies[0]
    assert w.behavior == 1 and "ruthless" in __import__("engine.reich.rules").reich.rules.keywords(
        w
    )
    assert wolff.id == "w1"


def test_area_accessory_storeroom_reveals_loot() -> None:
    state = bare(["sarge"], area="EN")
    state.accessories = {"1D": "storeroom"}
    state, _ = act(state, "sarge", "move", ScriptedDice([]), unit="sarge", to="1C")
    assert not state.accessories
    assert len([g for g in state.ground if g.area == "1D" and g.card]) == 2


def test_sabotage_wins_the_cadet_objective() -> None:
    state = bare(["sarge"], area="7B")
    state.ground = [GroundItem(id="M2", area="7B", kind="objective")]
    state, _ev = act(
        state, "sarge", "act", ScriptedDice([]), unit="sarge", what="sabotage", target="M2"
    )
    prompt = GAME.waiting_on(state)
    assert prompt.finished and prompt.outcome == "victory"


def test_alarm_spawns_every_token() -> None:
    state = bare(["sarge"], area="EN")
    state.enemy_tokens = [
        EnemyToken(id="T1", area="5B", level=1, letters="D"),
        EnemyToken(id="T2", area="7C", level=2, letters="DE"),
    ]
    s = put(state, "soldier", "1D", "s1")
    ev: list[Event] = []
    state.heroes["sarge"].area = "1C"
    enemy_ai.enemy_turn(state, ScriptedDice([1, 1, 1, 1, 1, 1]), ev)
    assert state.alarm and not state.enemy_tokens and s.id == "s1"
    assert "Surveillance" in texts(ev)


def test_advance_is_idempotent_while_heroes_decide() -> None:
    state = bare(["sarge"], area="EN")
    step = GAME.advance(state, ScriptedDice([]))
    assert step.state is state and step.events == []


def test_pickup_swaps_when_slots_are_full() -> None:
    state = bare(["sarge"], area="1C")
    state.heroes["sarge"].loot = ["helmet", "medkit", "ammo"]
    state.ground = [GroundItem(id="L9", area="1C", card="scope")]
    state, _ = act(
        state,
        "sarge",
        "act",
        ScriptedDice([]),
        unit="sarge",
        what="pickup",
        target="L9",
        drop="medkit",
    )
    assert sorted(state.heroes["sarge"].loot) == ["ammo", "helmet", "scope"]
    assert any(g.card == "medkit" and g.area == "1C" for g in state.ground)


def test_arguments_match_case_insensitively() -> None:
    state = bare(["sarge"], area="EN")
    state, _ = act(state, "sarge", "move", ScriptedDice([]), unit="SARGE", to="1c")
    assert state.heroes["sarge"].area == "1C"


def test_ablative_shield_ignores_vril_weapons() -> None:
    state = bare(["quentin"], area="1C")
    state.heroes["quentin"].weapons["bow"].vril = True
    put(state, "acolyte", "1D", "a1")
    d = ScriptedDice([5, 5, 5])
    state, _ = act(state, "quentin", "attack", d, unit="quentin", target="a1", weapon="bow")
    state, _ = act(state, "quentin", "choose", d, option="roll")
    state, ev = act(state, "quentin", "choose", d, option="done")
    assert "Ablative Shield" in texts(ev) and state.enemies


def test_augen_handler_brings_an_augen() -> None:
    from engine.reich.rules import spawn_letters

    state = bare(["sarge"], mission="lab-rats", area="EN")
    ev: list[Event] = []
    spawn_letters(state, "E", "4C", ev, "test")
    assert sorted(e.type for e in state.enemies) == ["augen", "keeper"]


def test_relentless_zombie_sees_through_smoke() -> None:
    state = bare(["doc"], area="1C")
    state.smoke = ["1C"]
    z = put(state, "zombie", "1D", "z1")
    s = put(state, "soldier", "1D", "s1")
    assert enemy_ai.in_fire(state, z, "1D", "1C", 1)
    assert not enemy_ai.in_fire(state, s, "1D", "1C", 1)


def test_prof_opens_door_and_reveals_storeroom() -> None:
    state = bare(["prof"], area="1B")
    state.accessories = {"2A": "storeroom"}
    state, ev = act(state, "prof", "act", ScriptedDice([]), unit="prof", what="open", target="D2")
    assert "Provisions Storeroom" in texts(ev)
    assert len([g for g in state.ground if g.area == "2A" and g.card and g.face_up]) == 2
    assert "2A" not in state.accessories_up  # Consumable


def test_claudine_vrils_her_sten() -> None:
    state = bare(["claudine"], area="1D")
    state.accessories_up = {"1D": "blueprints"}
    state.heroes["claudine"].weapons["sten"].jammed = True
    state, _ = act(
        state, "claudine", "act", ScriptedDice([]), unit="claudine", what="vril", target="sten"
    )
    sten = state.heroes["claudine"].weapons["sten"]
    assert sten.vril and not sten.jammed
    from engine.reich.attack import weapon_stats, weapons_of

    weapon = next(w for w in weapons_of(state.heroes["claudine"]) if w.id == "sten")
    black, red, kws = weapon_stats(state.heroes["claudine"], weapon)
    assert (black, red) == (3, 1) and "shoddy" not in kws


def test_fourth_permanent_wound_puts_a_hero_down_and_recover() -> None:
    state = bare(["sarge"], area="1C")
    sarge = state.heroes["sarge"]
    sarge.hand = ["sprint-sarge1", "snapshot-sarge2"]
    sarge.wounds = ["scratch", "winded", "flesh_wound"]
    ev: list[Event] = []
    wound_hero(state, sarge, None, ScriptedDice([]), ev, permanent=True)
    assert sarge.down and len(sarge.hand) == 4 and sarge.grants == ["remove", "remove"]

    def mine(st: object) -> list[str]:
        legal = GAME.legal_actions(st, "sarge")  # type: ignore[arg-type]
        acts = [a for a in legal if a.args.get("unit") == "sarge" and a.verb != "orders"]
        return [f"{a.args.get('what')}:{a.args.get('target')}" for a in acts]

    assert all(x.startswith("remove:") for x in mine(state))
    assert not any(a.verb == "end-turn" for a in GAME.legal_actions(state, "sarge"))
    d = ScriptedDice([])
    state, _ = act(state, "sarge", "act", d, unit="sarge", what="remove", target="sprint-sarge1")
    state, _ = act(state, "sarge", "act", d, unit="sarge", what="remove", target="snapshot-sarge2")
    assert len(state.heroes["sarge"].removed) == 2
    assert all(x.startswith("recover:") for x in mine(state))
    wounds = sorted(state.heroes["sarge"].wounds)
    pair = f"{wounds[0]}+{wounds[1]}"
    state, _ = act(state, "sarge", "act", d, unit="sarge", what="recover", target=pair)
    assert not state.heroes["sarge"].down and len(state.heroes["sarge"].wounds) == 2


def test_all_heroes_down_fails_the_mission() -> None:
    state = bare(["sarge"], area="1C")
    for hero in state.heroes.values():
        hero.wounds = ["scratch", "winded", "flesh_wound"]
    ev: list[Event] = []
    for hero in state.heroes.values():
        wound_hero(state, hero, None, ScriptedDice([]), ev, permanent=True)
    from engine.reich.rules import check_end

    check_end(state, ev)
    assert GAME.waiting_on(state).outcome == "defeat"


def test_time_runs_out_with_partial_objectives() -> None:
    state = bare(["sarge"], area="EN")
    state.options["difficulty"] = "veteran"
    state.sabotaged = 1
    state.tracker = state.endgame
    ev: list[Event] = []
    run_upkeep(state, ScriptedDice([]), ev)
    assert GAME.waiting_on(state).outcome == "partial"


def test_awareness_dog_reacts_once() -> None:
    state = bare(["sarge"], area="3B")
    state.heroes["sarge"].area = "1A"
    dog = put(state, "dog", "7A", "d1")
    d = ScriptedDice([1, 1])
    state, ev = act(state, "sarge", "move", d, unit="sarge", to="1C")
    assert "reacts at once" in texts(ev)
    assert dog.id in state.awareness_used and "d1:sarge" in state.awareness_seen
    moved = next(e for e in state.enemies if e.id == "d1")
    assert moved.area == "1C"  # three Move points: 2C, 1D, 1C; then it bites
    assert dice_left(d) == 0


def dice_left(d: ScriptedDice) -> int:
    return d.remaining


def test_cautious_wolff_steps_away_when_a_hero_arrives() -> None:
    state = bare(["sarge"], mission="wolffs-lair", area="6B")
    put(state, "wolff", "6C", "w1")
    state, ev = act(state, "sarge", "move", ScriptedDice([]), unit="sarge", to="6C")
    assert "Cautious" in texts(ev)
    assert state.enemies[0].area != "6C"


def test_scientist_heats_experiments_and_engineer_reinforces_techno() -> None:
    from engine.reich.rules import defense_in

    state = bare(["doc"], area="1C")
    z1 = put(state, "zombie", "1C", "z1")
    put(state, "scientist", "1D", "sc1")
    state.wound_deck.draw_pile.append("flesh_wound")
    ev: list[Event] = []
    enemy_ai.resolve_attacks(state, [(z1, "doc", "melee")], ScriptedDice([1, 1]), ev)
    assert "Attack Value 7" in texts(ev)  # 5 + 2 Turn Up the Heat!
    u = put(state, "ubersoldat", "1A", "u1")
    assert defense_in(state, u) == 6
    put(state, "engineer", "1A", "e1")
    assert defense_in(state, u) == 7


def test_down_hero_attacked_keeps_a_wound_without_a_test() -> None:
    state = bare(["doc"], area="1C")
    doc = state.heroes["doc"]
    doc.down = True
    doc.wounds = ["scratch", "winded", "flesh_wound", "winded"]
    z1 = put(state, "zombie", "1C", "z1")
    hand = list(doc.hand)
    ev: list[Event] = []
    enemy_ai.resolve_attacks(state, [(z1, "doc", "melee")], ScriptedDice([]), ev)
    assert len(doc.wounds) == 5 and doc.hand == hand


def test_delayed_wound_strikes_at_the_next_heroes_turn() -> None:
    state = bare(["sarge"], area="EN")
    sarge = state.heroes["sarge"]
    state.wound_deck.draw_pile.append("only_scratch")
    ev: list[Event] = []
    assert not wound_hero(state, sarge, 1, ScriptedDice([]), ev)
    assert sarge.delayed == 1
    state.wound_deck.draw_pile.append("winded")
    run_upkeep(state, ScriptedDice([]), ev)
    assert sarge.delayed == 0 and sarge.tokens == 1  # Winded: lose a Basic Action token
    assert "winded" in state.wound_deck.discard_pile


def test_repeatable_barrage_fires_until_it_misses() -> None:
    state = bare(["hans"], area="1C")
    put(state, "soldier", "1D", "s1")
    put(state, "soldier", "1D", "s2")
    give_card(state, "hans", "barrage-hans2")
    d = ScriptedDice([5, 5, 1, 1, 1, 1, 1, 1])
    state, _ = act(state, "hans", "act", d, unit="hans", what="play", target="barrage-hans2")
    state, _ = act(state, "hans", "attack", d, unit="hans", target="s1", weapon="hmg")
    state, _ = act(state, "hans", "choose", d, option="roll")
    state, ev = act(state, "hans", "choose", d, option="done")
    assert "Repeatable" in texts(ev) and state.heroes["hans"].grants == ["ranged:+0:repeat"]
    state, _ = act(state, "hans", "attack", d, unit="hans", target="s2", weapon="hmg")
    state, _ = act(state, "hans", "choose", d, option="roll")
    state, ev = act(state, "hans", "choose", d, option="done")
    assert "Repeatable" not in texts(ev) and state.heroes["hans"].grants == []


def test_lookout_reaction_fires_in_the_enemies_turn() -> None:
    from engine.reich.reactions import reactions

    state = bare(["irena"], area="1C")
    put(state, "soldier", "1D", "s1")
    give_card(state, "irena", "lookout-irena9")
    playable = [a for a in GAME.legal_actions(state, "irena") if a.args.get("what") == "play"]
    assert not [a for a in playable if a.args.get("target") == "lookout-irena9"]
    ev: list[Event] = []
    reactions(state, ScriptedDice([5, 5, 1]), ev)
    assert "reacts with Lookout" in texts(ev)
    assert not state.enemies and state.reacted == ["irena"]
    assert state.pending is None
