"""Unit tests for movement, doors, items, grenades, flames, jams, surges and counterattacks."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from conftest import put

from engine.core.dice import ScriptedDice
from engine.core.errors import RuleError
from engine.core.events import Event
from engine.core.game import Action
from engine.forlorn import GAME
from engine.forlorn.combat import xeno_attack
from engine.forlorn.state import ForlornState
from engine.forlorn.xenos import egg_burst

Fresh = Callable[..., ForlornState]
NO_DICE = ScriptedDice()


def act(
    state: ForlornState, verb: str, dice: ScriptedDice | None = None, **args: str
) -> ForlornState:
    return GAME.apply(state, "marines", Action(verb=verb, args=args), dice or ScriptedDice()).state


@pytest.mark.parametrize(
    ("to", "cost"),
    [("H6", 1), ("H8", 2), ("G7", 2), ("I7", 2), ("G6", 2), ("I6", 2), ("E", 1), ("S", 2)],
)
def test_movement_point_chart(fresh: Fresh, to: str, cost: int) -> None:
    """5.1: forward 1, back 2, sidestep 2, sideslip 2, turn 90 degrees 1."""
    state = fresh()
    put(state, "bates", "H7", "N")
    after = act(state, "move", unit="bates", to=to)
    assert after.ap == state.ap - 1
    assert after.mp_left == 6 - cost
    assert after.unit("bates").facing == ("N" if len(to) > 1 else to)  # type: ignore[union-attr]


def test_unspent_mp_carry_only_while_the_same_unit_keeps_moving(fresh: Fresh) -> None:
    state = fresh()
    put(state, "bates", "H7", "N")
    put(state, "ortiz", "K7", "N")
    s1 = act(state, "move", unit="bates", to="H6")  # 1 AP, 5 MP left
    s2 = act(s1, "move", unit="bates", to="H5")  # paid from the leftover MP
    assert s2.ap == state.ap - 1 and s2.mp_left == 4
    s3 = act(s2, "move", unit="ortiz", to="K6")
    s4 = act(s3, "move", unit="bates", to="H6")  # a new AP: bates's MP were lost
    assert s4.ap == state.ap - 3


def test_normal_door_costs_mp_and_security_door_costs_ap(fresh: Fresh) -> None:
    state = fresh()
    put(state, "bates", "I4", "S")  # north door of the command room: I4-I5
    s1 = act(state, "act", unit="bates", what="open", to="I5")
    assert s1.ap == state.ap - 1 and s1.mp_left == 5 and "I4-I5" in s1.open_doors
    s2 = act(s1, "move", unit="bates", to="I5")
    assert s2.ap == s1.ap and s2.unit("bates").at == "I5"  # type: ignore[union-attr]
    state = fresh()
    put(state, "bates", "M8", "W")  # east security door L8-M8
    s3 = act(state, "act", unit="bates", what="open", to="L8")
    assert s3.ap == state.ap - 1 and s3.mp_left == 0 and "L8-M8" in s3.open_doors


def test_closed_doors_block_movement_and_sight(fresh: Fresh) -> None:
    state = fresh()
    put(state, "bates", "I4", "S")
    with pytest.raises(RuleError):
        act(state, "move", unit="bates", to="I5")
    put(state, "d1", "I6")
    assert not any(a.verb == "attack" for a in GAME.legal_actions(state, "marines"))


def test_grappled_marine_may_only_turn_or_fight(fresh: Fresh) -> None:
    """7.3: next to a Drone a Marine cannot leave its square or work a door."""
    state = fresh()
    put(state, "bates", "I4", "S")
    put(state, "d1", "H4")
    with pytest.raises(RuleError, match="grappled"):
        act(state, "move", unit="bates", to="J4")
    with pytest.raises(RuleError, match="grappled"):
        act(state, "act", unit="bates", what="open", to="I5")
    turned = act(state, "move", unit="bates", to="W")
    assert turned.unit("bates").facing == "W"  # type: ignore[union-attr]


def test_eggs_do_not_grapple_but_block(fresh: Fresh) -> None:
    state = fresh()
    put(state, "bates", "H7", "N")
    put(state, "h1", "H6", kind="egg")
    moves = {a.args["to"] for a in GAME.legal_actions(state, "marines") if a.verb == "move"}
    assert "H6" not in moves and "I7" in moves


def test_grenade_blast_table_and_no_defence(fresh: Fresh) -> None:
    """8.5: 3+ in the square, 4+ orthogonally next to it, 5+ diagonally; eggs just burn."""
    state = fresh()
    put(state, "bates", "H9", "N")
    put(state, "d1", "I6")  # centre
    put(state, "d2", "I5")  # orthogonal
    put(state, "d3", "J5")  # diagonal
    put(state, "h1", "H6", kind="egg")
    dice = ScriptedDice([3, 1, 4, 1, 4, 4])
    after = act(state, "act", dice, unit="bates", what="grenade", to="I6")
    assert after.grenades == 2
    assert after.unit("d1").status == "pool"  # type: ignore[union-attr]
    assert after.unit("d2").status == "pool"  # type: ignore[union-attr]
    assert after.unit("d3").status == "active"  # type: ignore[union-attr]
    assert after.unit("h1").status == "pool"  # type: ignore[union-attr]
    assert dice.remaining == 0


def test_grenade_does_not_pass_walls(fresh: Fresh) -> None:
    state = fresh()
    put(state, "bates", "I9", "N")
    put(state, "d1", "I5")
    put(state, "d2", "I4")  # the other side of the closed north door
    dice = ScriptedDice([1, 1])
    after = act(state, "act", dice, unit="bates", what="grenade", to="I5")
    assert after.unit("d2").status == "active"  # type: ignore[union-attr]
    assert dice.remaining == 0


def test_flamethrower_sprays_three_squares_and_lingers(fresh: Fresh) -> None:
    state = fresh()
    put(state, "berns", "H9", "N")
    put(state, "d1", "H8")
    put(state, "d2", "H6")
    dice = ScriptedDice([2, 1])
    after = act(state, "attack", dice, unit="berns", target="H8+H7+H6", weapon="flame")
    assert after.flames == ["H8", "H7", "H6"] and after.flame_supply == 2
    assert after.unit("d1").status == "pool"  # type: ignore[union-attr]
    assert after.unit("d2").status == "active"  # type: ignore[union-attr]
    with pytest.raises(RuleError):
        act(state, "attack", unit="berns", target="H6", weapon="flame")


def test_minigun_jams_on_three_of_a_kind(fresh: Fresh) -> None:
    state = fresh()
    put(state, "zac", "H9", "N")
    put(state, "w1", "H5")
    after = act(state, "attack", ScriptedDice([2, 2, 2, 5]), unit="zac", target="w1")
    assert after.unit("zac").jammed  # type: ignore[union-attr]
    with pytest.raises(RuleError, match="jammed"):
        act(after, "attack", unit="zac", target="w1")
    cleared = act(after, "act", unit="zac", what="clear-jam")
    assert not cleared.unit("zac").jammed  # type: ignore[union-attr]


def test_surge_from_a_killing_six_pays_for_an_action(fresh: Fresh) -> None:
    state = fresh()
    put(state, "bates", "H9", "N")
    put(state, "d1", "H8")
    after = act(state, "attack", ScriptedDice([6, 1]), unit="bates", target="d1")
    assert after.unit("bates").surge  # type: ignore[union-attr]
    ap = after.ap
    kept = act(after, "move", unit="bates", to="H8")  # 5.8: the pool pays unless told
    assert kept.ap == ap - 1 and kept.unit("bates").surge  # type: ignore[union-attr]
    moved = act(after, "move", unit="bates", to="H8", surge="yes")
    assert moved.ap == ap and not moved.unit("bates").surge  # type: ignore[union-attr]
    after.ap = 0  # with the pool empty the marker is the only way to pay
    moved = act(after, "move", unit="bates", to="H8")
    assert moved.ap == 0 and not moved.unit("bates").surge  # type: ignore[union-attr]


def test_counterattack_on_a_front_one_and_no_counter_from_behind(fresh: Fresh) -> None:
    state = fresh()
    bates = put(state, "bates", "H9", "N")
    drone = put(state, "d1", "H8")
    events: list[Event] = []
    xeno_attack(state, drone, bates, ScriptedDice([1, 2]), events)
    assert drone.status == "pool"
    drone = put(state, "d2", "H10")
    events = []
    xeno_attack(state, drone, bates, ScriptedDice([1, 1]), events)
    assert drone.status == "active" and bates.status == "active"


def test_medkit_and_heroic_marines_absorb_hits(fresh: Fresh) -> None:
    state = fresh()
    bates = put(state, "bates", "H9", "N")
    bates.items.append("medkit")
    drone = put(state, "d1", "H8")
    events: list[Event] = []
    xeno_attack(state, drone, bates, ScriptedDice([6, 2]), events)
    assert bates.status == "active" and bates.items == []
    fox = put(state, "fox", "J9", "N")
    fox.heroic = True
    d2 = put(state, "d2", "J8")
    xeno_attack(state, d2, fox, ScriptedDice([6, 2]), events)
    assert fox.status == "active" and fox.hits == 1


def test_eggs_need_two_hits_in_one_attack(fresh: Fresh) -> None:
    state = fresh()
    put(state, "fox", "H9", "N")
    put(state, "h1", "H8", kind="egg")
    one = act(state, "attack", ScriptedDice([6, 1, 1]), unit="fox", target="h1")
    assert one.unit("h1").status == "active"  # type: ignore[union-attr]
    two = act(state, "attack", ScriptedDice([6, 6, 1]), unit="fox", target="h1")
    assert two.unit("h1").status == "pool"  # type: ignore[union-attr]


def test_eggs_burst_when_they_see_a_marine(fresh: Fresh) -> None:
    state = fresh()
    put(state, "bates", "H9", "N")
    put(state, "h1", "H6", kind="egg")
    put(state, "h2", "C2", kind="egg")
    egg_burst(state, [])
    assert state.unit("h1").kind == "hatchling" and state.unit("h1").fresh  # type: ignore[union-attr]
    assert state.unit("h2").kind == "egg"  # type: ignore[union-attr]


def test_illegal_actions_change_nothing(fresh: Fresh) -> None:
    state = fresh()
    put(state, "bates", "H9", "N")
    before = state.model_dump()
    for bad in (
        Action(verb="move", args={"unit": "bates", "to": "A1"}),
        Action(verb="move", args={"unit": "nobody", "to": "H8"}),
        Action(verb="attack", args={"unit": "bates", "target": "d1"}),
        Action(verb="act", args={"unit": "bates", "what": "dance"}),
    ):
        with pytest.raises(RuleError):
            GAME.apply(state, "marines", bad, NO_DICE)
    assert state.model_dump() == before


def test_end_turn_with_a_unit_only_stops_that_marine(fresh: Fresh) -> None:
    state = fresh()
    put(state, "bates", "H7", "N")
    moved = act(state, "move", unit="bates", to="H6")
    stopped = act(moved, "end-turn", unit="bates")
    assert stopped.phase == "marine" and stopped.mp_left == 0 and stopped.ended == []
