"""Fighting Poses (9.2.2): the rulebook's two examples and the pose rules, through the
engine's own commands (`/orders order:pose-...`, `/move`, `/act`)."""

from __future__ import annotations

import pytest

from engine.core.dice import ScriptedDice, SeededDice
from engine.core.errors import RuleError
from engine.core.game import Action
from engine.core.hexgrid import Hex, distance, neighbours
from engine.galaxy import GAME, attack, lifecycle
from engine.galaxy.agent import reach, start_turn
from engine.galaxy.board import label
from engine.galaxy.state import GalaxyState
from engine.galaxy.strikeback.status import sb_state
from engine.galaxy.world import area_of, board_of, co, free, hx


def posed(seat: str, options: dict[str, str] | None = None) -> GalaxyState:
    state = GAME.new(
        "m1",
        [seat],
        {"human-view": "off", "fighting-poses": "on", **(options or {})},
        SeededDice(7),
    )
    state.signals, state.aliens, state.pending = [], [], None
    state.phase, state.alpha = "agent", seat
    state.turn_order, state.turn_index = [seat], 0
    start_turn(state, state.agents[seat])
    return state


def order(state: GalaxyState, seat: str, what: str) -> GalaxyState:
    action = Action(verb="orders", args={"unit": seat, "order": what})
    assert any(a.matches(action) for a in GAME.legal_actions(state, seat)), what
    return do(state, seat, action)


def do(state: GalaxyState, seat: str, action: Action) -> GalaxyState:
    """Apply through the game contract (which returns a new state)."""
    new = GAME.apply(state, seat, action, SeededDice(1)).state
    assert isinstance(new, GalaxyState)
    return new


def hexes_away(state: GalaxyState, seat: str, steps: int) -> Hex:
    """A free hex exactly `steps` hexes away along legal moves (standing cost)."""
    agent = state.agents[seat]
    assert agent.hex is not None
    found = reach(state, agent)
    return next(h for h, c in sorted(found.cost.items()) if c == steps and free(state, h))


def act(seat: str, verb: str, **args: str) -> Action:
    return Action(verb=verb, args={"unit": seat, **args})


def test_pose_example_1_infiltrator_stands_by_moving_outside_movement_then_walks_prone() -> None:
    state = posed("infiltrator")
    assert state.expansion is not None
    sb_state(state).poses["infiltrator"] = "prone"  # how she ended her previous turn
    with pytest.raises(RuleError, match="Prone"):
        do(state, "infiltrator", act("infiltrator", "move", to="A1"))
    # Moving outside the Movement activity stands her up (the example's tactic; here a
    # Tactical Redeployment inside her Area).
    here = state.agents["infiltrator"].hex
    assert here is not None
    area = board_of(state).area_hexes(area_of(state, here))
    spot = next(h for h in area if co(h) != here and free(state, h))
    state = do(state, "infiltrator", act("infiltrator", "act", what="redeploy", to=label(spot)))
    assert state.expansion is not None
    assert sb_state(state).poses.get("infiltrator") is None
    assert state.agents["infiltrator"].mp_left == 5
    dest = hexes_away(state, "infiltrator", 3)
    state = do(state, "infiltrator", act("infiltrator", "move", to=label(dest)))
    assert state.agents["infiltrator"].mp_left == 2
    state = order(state, "infiltrator", "pose-prone")  # the last two Movement points
    assert state.expansion is not None
    assert sb_state(state).poses["infiltrator"] == "prone"
    assert state.agents["infiltrator"].mp_left == 0


def test_pose_example_2_crouched_marine_moves_two_hexes_for_four_points() -> None:
    state = posed("marine")
    assert state.expansion is not None
    sb_state(state).poses["marine"] = "crouching"
    marine = state.agents["marine"]
    start_turn(state, marine)
    found = reach(state, marine)
    assert marine.mp_left == 4 and max(found.cost.values()) == 4
    assert marine.hex is not None
    start = hx(marine.hex)
    two = next(h for h, c in found.cost.items() if c == 4 and distance(h, start) == 2)
    assert all(distance(h, start) <= 2 for h in found.cost)
    state = do(state, "marine", act("marine", "move", to=label(two)))
    assert state.agents["marine"].mp_left == 0 and state.agents["marine"].hex == co(two)


def test_engaged_agent_may_only_stand_up_with_his_whole_movement() -> None:
    state = posed("marine")
    marine = state.agents["marine"]
    assert state.expansion is not None and marine.hex is not None
    sb_state(state).poses["marine"] = "prone"
    spot = next(h for h in neighbours(hx(marine.hex)) if free(state, h))
    lifecycle.place_alien(state, "xeno-beta-green-1", spot, [], "is placed")
    start_turn(state, marine)
    orders = [a.args["order"] for a in GAME.legal_actions(state, "marine") if a.verb == "orders"]
    assert "pose-standing" in orders and "pose-crouching" not in orders
    state = order(state, "marine", "pose-standing")
    assert state.agents["marine"].movement == "closed" and state.agents["marine"].mp_left == 0


def test_pose_changes_cost_points_and_are_refused_without_them() -> None:
    state = posed("hulk")  # 3 Movement points
    state = order(state, "hulk", "pose-prone")  # 2 points
    assert state.agents["hulk"].mp_left == 1
    state = order(state, "hulk", "pose-crouching")  # 1 point
    assert state.agents["hulk"].mp_left == 0
    with pytest.raises(RuleError, match="Movement point"):
        do(state, "hulk", act("hulk", "orders", order="pose-standing"))


def test_poses_change_attack_and_defend_dice() -> None:
    state = posed("marine")
    marine = state.agents["marine"]
    assert state.expansion is not None and marine.hex is not None
    spot = next(h for h in neighbours(hx(marine.hex)) if free(state, h))
    beta = lifecycle.place_alien(state, "xeno-beta-blue-1", spot, [], "is placed")
    sb_state(state).poses["marine"] = "prone"
    # Blaster 2 RED: hit+jam, hit+jam = 2 Hits; prone: 2 + 2 = 4 Defend dice against ranged.
    dice = ScriptedDice([4, 4, 1, 1, 1, 1])
    attack.alien_attack(state, beta, marine, "ranged", dice, [], "test")
    assert dice.remaining == 0 and marine.wounds == 2
    # Rifle Butt 2 BLUE melee: hit+shield twice = 2 Hits; prone: 2 - 2 = no Defend die.
    marine.wounds = 0
    dice = ScriptedDice([6, 6])
    attack.alien_attack(state, beta, marine, "melee", dice, [], "test")
    assert dice.remaining == 0 and marine.wounds == 2


def test_poses_are_refused_when_the_option_is_off() -> None:
    state = GAME.new("m1", ["marine"], {}, SeededDice(1))
    assert state.expansion is None
    state.phase, state.alpha, state.turn_order, state.turn_index = "agent", "marine", ["marine"], 0
    state.pending = None
    start_turn(state, state.agents["marine"])
    listed = GAME.legal_actions(state, "marine")
    assert not [a for a in listed if a.args.get("order", "").startswith("pose-")]
    with pytest.raises(RuleError, match="option is off"):
        do(state, "marine", act("marine", "orders", order="pose-prone"))


@pytest.mark.parametrize(
    ("preset", "expected"),
    [
        ("easy", {"high-impact": "on", "human-view": "off", "close-fight": "off"}),
        ("normal", {"high-impact": "on", "fighting-poses": "on", "friendly-fire": "off"}),
        ("hard", {"fighting-poses": "on", "friendly-fire": "on", "close-fight": "on"}),
    ],
)
def test_difficulty_presets_set_the_storybook_table(preset: str, expected: dict[str, str]) -> None:
    state = GAME.new("m1", ["marine"], {"difficulty": preset, "human-view": "on"}, SeededDice(1))
    got = {k: state.options.get(k, "off") for k in expected}
    assert got == expected
    assert state.options["difficulty"] == preset
    assert state.expansion is not None and sb_state(state).high_impact


def test_no_preset_leaves_a_core_game_as_it_was() -> None:
    state = GAME.new("m1", ["marine"], {"difficulty": "custom"}, SeededDice(1))
    assert "difficulty" not in state.options and state.expansion is None
