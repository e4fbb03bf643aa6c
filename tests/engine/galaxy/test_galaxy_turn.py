"""Agent turn rules: one Movement, Combat and Action each, never Movement after Combat."""

from __future__ import annotations

import pytest
from galaxy_helpers import at, blank, put_agent, put_alien

from engine.core.dice import ScriptedDice
from engine.core.errors import RuleError
from engine.core.game import Action
from engine.galaxy import GAME
from engine.galaxy.state import GalaxyState


def act(
    state: GalaxyState, seat: str, verb: str, rolls: list[int] | None = None, **args: str
) -> GalaxyState:
    action = Action(verb=verb, args={"unit": seat, **args})
    return GAME.apply(state, seat, action, ScriptedDice(rolls or [])).state


def test_movement_may_resume_after_action_but_not_after_combat() -> None:
    state = blank(["marine"])
    put_agent(state, "marine", "C4")
    beta = put_alien(state, "xeno-beta-green-1", "I6")
    state = act(state, "marine", "move", to="D5")
    assert state.agents["marine"].mp_left == 3
    state = act(state, "marine", "move", to="D6")  # Movement still open: resume
    assert state.agents["marine"].mp_left == 2
    assert beta.id
    put_agent(state, "marine", "D4")
    with pytest.raises(RuleError):
        act(state, "marine", "move", to="Z99")


def test_no_move_after_attacking() -> None:
    state = blank(["sniper"])
    put_agent(state, "sniper", "D4")
    beta = put_alien(state, "xeno-beta-green-1", "B3")
    state = act(state, "sniper", "move", to="D5")
    state = act(state, "sniper", "attack", [1, 1, 1], target=beta.id, weapon="long-rifle")
    with pytest.raises(RuleError, match="Movement"):
        act(state, "sniper", "move", to="D6")
    with pytest.raises(RuleError, match="Combat"):
        act(state, "sniper", "attack", [1, 1, 1], target=beta.id, weapon="long-rifle")


def test_engaged_agent_cannot_move_until_evaded() -> None:
    state = blank(["marine"])
    put_agent(state, "marine", "C4")
    put_alien(state, "aracnos-green-1", "B4")
    with pytest.raises(RuleError, match="Engaged"):
        act(state, "marine", "move", to="D6")
    failed = act(state, "marine", "act", [6], what="evade")  # Hit+Shield: success
    assert failed.agents["marine"].evaded and failed.agents["marine"].combat_used
    moved = act(failed, "marine", "move", to="D6")
    assert moved.agents["marine"].hex == at("D6")
    stuck = act(state, "marine", "act", [4], what="evade")  # no Shield
    assert not stuck.agents["marine"].evaded


def test_walking_past_an_alien_does_not_stop_the_move() -> None:
    # Engaged only when the turn starts or the Movement ends next to an alien: the path
    # C4 -> D4 -> E5 passes D4, next to the Xeno-Beta at E3, and goes on.
    state = blank(["marine"])
    put_agent(state, "marine", "C4")
    put_alien(state, "xeno-beta-green-1", "E3")
    targets = {a.args["to"] for a in GAME.legal_actions(state, "marine") if a.verb == "move"}
    assert "E5" in targets
    moved = act(state, "marine", "move", to="E5")
    assert moved.agents["marine"].hex == at("E5") and moved.agents["marine"].mp_left == 2


def test_a_move_may_go_on_from_a_hex_next_to_an_alien_while_movement_lasts() -> None:
    state = blank(["marine"])
    put_agent(state, "marine", "C4")
    put_alien(state, "xeno-beta-green-1", "E3")
    state = act(state, "marine", "move", to="D4")  # stops next to the alien, 3 MP left
    state = act(state, "marine", "move", to="E5")  # the same Movement goes on
    assert state.agents["marine"].hex == at("E5")


def test_evade_is_combat_so_a_movement_under_way_does_not_resume() -> None:
    state = blank(["marine"])
    put_agent(state, "marine", "C4")
    put_alien(state, "xeno-beta-green-1", "E3")
    state = act(state, "marine", "move", to="D4")
    evaded = act(state, "marine", "act", [6], what="evade")  # a Shield: success
    from engine.galaxy.agent import move_problem

    marine = evaded.agents["marine"]
    assert marine.movement == "closed"
    assert "finished his Movement" in (move_problem(evaded, marine) or "")
    assert evaded.phase == "aliens"  # Movement, Combat and Action all spent: the turn is over


def test_agents_cannot_cross_aliens_or_windows() -> None:
    state = blank(["marine"])
    put_agent(state, "marine", "H5")
    targets = {a.args["to"] for a in GAME.legal_actions(state, "marine") if a.verb == "move"}
    assert "I5" not in targets  # only through the window with an Action
    assert "leap" in {a.args.get("what") for a in GAME.legal_actions(state, "marine")}
    leapt = act(state, "marine", "act", what="leap", to="I5")
    assert leapt.agents["marine"].hex == at("I5")


def test_jam_then_unjam_with_action_and_movement() -> None:
    state = blank(["sniper"])
    put_agent(state, "sniper", "D4")
    beta = put_alien(state, "xeno-beta-green-1", "B3")
    state = act(state, "sniper", "attack", [4, 1, 1, 1], target=beta.id, weapon="long-rifle")
    assert state.agents["sniper"].weapons[0].jammed
    with pytest.raises(RuleError, match="whole, unused Movement"):
        moved = act(state, "sniper", "move", to="D5")
        act(moved, "sniper", "act", what="unjam", weapon="long-rifle", using="movement")
    fixed = act(state, "sniper", "act", what="unjam", weapon="long-rifle", using="movement")
    assert not fixed.agents["sniper"].weapons[0].jammed
    assert fixed.agents["sniper"].movement == "closed"


def test_bleeding_agent_forfeits_combat_and_moves_one_hex() -> None:
    from engine.galaxy.agent import start_turn

    state = blank(["marine"])
    put_agent(state, "marine", "D4")
    marine = state.agents["marine"]
    marine.wounds, marine.bleeding = 6, True
    start_turn(state, marine)
    assert marine.mp_left == 1 and marine.combat_used
    assert not [a for a in GAME.legal_actions(state, "marine") if a.verb == "attack"]


def test_out_of_turn_and_illegal_actions_change_nothing() -> None:
    state = blank(["marine", "sniper"])
    put_agent(state, "marine", "D4")
    put_agent(state, "sniper", "C4")
    before = GAME.dump(state)
    with pytest.raises(RuleError, match="not your turn"):
        act(state, "sniper", "move", to="C3")
    with pytest.raises(RuleError):
        act(state, "marine", "attack", target="x99", weapon="assault-rifle")
    assert GAME.dump(state) == before


def test_unknown_options_are_refused() -> None:
    from engine.core.dice import SeededDice

    with pytest.raises(ValueError):
        GAME.new("m1", ["marine"], {"no-such-option": "on"}, SeededDice(1))


def test_human_view_only_front_hexes_count() -> None:
    state = blank(["sniper"], human_view="on")
    put_agent(state, "sniper", "D4")
    beta = put_alien(state, "xeno-beta-green-1", "B3")  # to the west
    state.agents["sniper"].facing = 0  # facing east
    attack = Action(
        verb="attack", args={"unit": "sniper", "target": beta.id, "weapon": "long-rifle"}
    )
    assert not any(a.matches(attack) for a in GAME.legal_actions(state, "sniper"))
    with pytest.raises(RuleError, match="face"):
        GAME.apply(state, "sniper", attack, ScriptedDice([]))
    turned = act(state, "sniper", "orders", order="face-w")
    assert turned.agents["sniper"].facing == 3
    assert turned.agents["sniper"].movement == "closed"  # turning in place was his Movement
    assert any(a.matches(attack) for a in GAME.legal_actions(turned, "sniper"))


def test_human_view_turn_after_moving_keeps_movement_open() -> None:
    state = blank(["marine"], human_view="on")
    put_agent(state, "marine", "D4")
    moved = act(state, "marine", "move", to="D5")
    assert moved.agents["marine"].movement == "open"
    turned = act(moved, "marine", "orders", order="face-nw")
    assert turned.agents["marine"].movement == "open" and turned.agents["marine"].mp_left == 3


def test_revealing_ignores_facing() -> None:
    from engine.galaxy.signals import reveal_in_sight
    from engine.galaxy.state import SignalState

    state = blank(["sniper"], human_view="on")
    put_agent(state, "sniper", "D4")
    state.agents["sniper"].facing = 0
    state.signals = [SignalState(id="s1", token="human-1", hex=at("B3"))]
    reveal_in_sight(state, ScriptedDice([]), [])
    assert not state.signals


def test_guard_fires_at_a_revealed_alien_once_per_round() -> None:
    from engine.core.events import Attacked, Event
    from engine.galaxy.signals import teleport_signal

    state = blank(["marine"])
    put_agent(state, "marine", "D4")
    state.phase = "event"  # a Reaction: outside the marine's own turn
    state.signal_reserve = ["alien-1", "alien-2"]
    state.alien_deck.draw_pile = ["xeno-beta-green-2", "aracnos-green-1"]
    events: list[Event] = []
    # teleport at B3 (roll 2), revealed: Guard fires 3 RED (all Alien: miss), no defence dice
    teleport_signal(state, ScriptedDice([2, 1, 1, 1]), events)
    assert [e.attacker for e in events if isinstance(e, Attacked)] == ["marine"]
    assert not state.agents["marine"].guard
    events = []
    teleport_signal(state, ScriptedDice([2]), events)  # token used: no second shot
    assert not [e for e in events if isinstance(e, Attacked)]


def test_guard_standing_order_can_hold_fire() -> None:
    state = blank(["marine"])
    put_agent(state, "marine", "D4")
    held = act(state, "marine", "orders", order="guard-off")
    assert not held.agents["marine"].guard_order
    with pytest.raises(RuleError, match="already stands"):
        act(held, "marine", "orders", order="guard-off")
    with pytest.raises(RuleError, match="guard-with-assault-rifle"):
        act(held, "marine", "orders", order="guard-with-plasma-cannon")


def test_guard_never_fires_in_the_agents_own_turn() -> None:
    from engine.core.events import Attacked, Event
    from engine.galaxy.signals import teleport_signal

    state = blank(["marine"])
    put_agent(state, "marine", "D4")
    state.signal_reserve = ["alien-1"]
    state.alien_deck.draw_pile = ["xeno-beta-green-2"]
    events: list[Event] = []
    teleport_signal(state, ScriptedDice([2]), events)  # revealed in sight during his turn
    assert state.aliens and not [e for e in events if isinstance(e, Attacked)]
    assert state.agents["marine"].guard  # the token is still ready for the Aliens turn


def test_guard_fires_the_weapon_the_player_ordered_with_area_damage() -> None:
    from engine.core.events import Attacked, Event
    from engine.galaxy.signals import teleport_signal

    state = blank(["marine"])
    put_agent(state, "marine", "D4")
    weapons = [w.key for w in state.agents["marine"].weapons]
    orders = {a.args["order"] for a in GAME.legal_actions(state, "marine") if a.verb == "orders"}
    assert {"guard-off", *(f"guard-with-{k}" for k in weapons)} <= orders
    state = act(state, "marine", "orders", order="guard-with-assault-rifle-area")
    marine = state.agents["marine"]
    assert marine.guard_weapon == "assault-rifle" and marine.guard_area
    ammo = marine.weapons[0].ammo
    state.phase = "event"
    state.signal_reserve = ["alien-1"]
    state.alien_deck.draw_pile = ["xeno-beta-green-2"]
    events: list[Event] = []
    teleport_signal(state, ScriptedDice([2, 1, 1, 1]), events)  # B3; Guard misses
    shots = [e for e in events if isinstance(e, Attacked)]
    assert [e.weapon for e in shots] == ["Assault Rifle"]
    assert state.agents["marine"].weapons[0].ammo == ammo - 1  # paid for Area Damage


def test_friendly_fire_area_damage_hits_the_biotech_but_not_the_firer() -> None:
    state = blank(["marine", "biotech"])
    state.options["friendly-fire"] = "on"
    put_agent(state, "marine", "D4")
    put_agent(state, "biotech", "B4")  # in Area a with the alien
    beta = put_alien(state, "xeno-beta-green-1", "B3")
    # RED 2, 2, 2: 6 Hits (Bolt: -1 Def die); the Xeno-Beta rolls 5 BLUE, the Biotech 5 BLUE
    rolls = [2, 2, 2] + [1] * 5 + [1] * 5
    state = act(
        state, "marine", "attack", rolls, target=beta.id, weapon="assault-rifle", mode="area"
    )
    assert not state.aliens
    biotech = state.agents["biotech"]
    assert biotech.bleeding and biotech.wounds == 5
    assert state.agents["marine"].wounds == 0
    off = blank(["marine", "biotech"])
    put_agent(off, "marine", "D4")
    put_agent(off, "biotech", "C4")
    with pytest.raises(RuleError, match="Friendly Fire is off"):
        act(off, "marine", "attack", target="biotech", weapon="assault-rifle")


def test_a_separate_action_after_moving_ends_the_movement() -> None:
    state = blank(["infiltrator"], "m1")
    put_agent(state, "infiltrator", "G4")
    moved = act(state, "infiltrator", "move", to="G5")  # inside the shuttle: a Search Area
    searched = act(moved, "infiltrator", "act", [1], what="search")  # Alien: nothing found
    assert searched.agents["infiltrator"].movement == "closed"
    assert not [a for a in GAME.legal_actions(searched, "infiltrator") if a.verb == "move"]


def test_search_finds_a_first_aid_kit() -> None:
    state = blank(["infiltrator"], "m1")
    put_agent(state, "infiltrator", "G5", wounds=2)
    found = act(state, "infiltrator", "act", [6], what="search")  # Hit+Shield
    assert found.pending is not None and "first-aid" in found.pending.options
    healed = GAME.apply(
        found, "infiltrator", Action(verb="choose", args={"option": "first-aid"}), ScriptedDice([])
    ).state
    assert healed.agents["infiltrator"].wounds == 1
