"""Chapter 5 (Marine Actions): AP spending, the movement cost chart, doors, attacks, spin,
refuel, jams and Adrenaline Surge, probed on Solo Operation A with the Xenos cleared away.

Private Bates has 6 MP per AP and the Gunner (Cpl. Zac) 4, as the rulebook's 5.1 example says.
The remaining MP is read from the dumped state (`mp_left`): the view only narrates it.
"""

from __future__ import annotations

from typing import Any

from forlorn_probe import (
    act,
    ap,
    bench,
    can,
    clear_xenos,
    do,
    dump,
    fig,
    find,
    header,
    legal,
    marine_phase,
    next_turn,
    put,
    set_ap,
    view,
)

OTHERS = ("lt", "fox", "krauss", "zac", "berns", "ortiz")


def alone(spot: str = "H9:E") -> Any:
    """Bates alone in the middle of room A (the rest of the squad is off the board)."""
    return put(bench(clear_xenos(marine_phase()), *OTHERS), bates=spot)


def mp_left(state: Any) -> int:
    return int(dump(state)["mp_left"])


def test_moving_costs_one_ap() -> None:
    """5.1: each move order costs one AP and grants the unit its printed MP."""
    state = alone()
    after = act(state, "move", unit="bates", to="I9").state
    assert ap(after) == ap(state) - 1
    assert mp_left(after) == 6 - 1


def test_turning_costs_one_mp_per_quarter() -> None:
    """5.1 chart: a 90-degree turn costs 1 MP; a half turn is two of them."""
    state = alone()
    assert mp_left(act(state, "move", unit="bates", to="N").state) == 5
    assert mp_left(act(state, "move", unit="bates", to="W").state) == 4


def test_backward_costs_two_and_keeps_facing() -> None:
    """5.1 chart: one square straight back costs 2 MP and does not rotate the unit."""
    after = act(alone(), "move", unit="bates", to="G9").state
    assert mp_left(after) == 4
    assert fig(after, "bates").facing == "E"  # type: ignore[union-attr]


def test_sidestep_costs_two() -> None:
    """5.1 chart: a sidestep (sideways, same facing) costs 2 MP."""
    after = act(alone(), "move", unit="bates", to="H8").state
    assert mp_left(after) == 4


def test_sidestep_keeps_facing() -> None:
    """5.1 chart: a sidestep leaves the Marine facing the way it faced, for 2 MP in all."""
    after = act(alone(), "move", unit="bates", to="H8").state
    if fig(after, "bates").facing != "E":  # type: ignore[union-attr]
        after = act(after, "move", unit="bates", to="E").state
    assert mp_left(after) == 4


def test_sideslip_forward_diagonal_costs_two() -> None:
    """5.1 chart: a forward diagonal (sideslip) costs 2 MP, facing unchanged."""
    after = act(alone(), "move", unit="bates", to="I8").state
    assert mp_left(after) == 4
    assert fig(after, "bates").facing == "E"  # type: ignore[union-attr]


def test_no_backward_diagonal_step() -> None:
    """5.1 chart: sideslips go forward only, so a backward diagonal costs more than 2 MP."""
    after = act(alone(), "move", unit="bates", to="G8").state
    # Cheapest legal way: turn N (1) then sideslip forward-left (2) = 3 MP.
    assert mp_left(after) == 3


def test_consecutive_ap_adds_a_fresh_allowance() -> None:
    """5.1: a second, consecutive AP on the same unit adds its full MP to what is left."""
    state = alone("G9:E")
    first = act(state, "move", unit="bates", to="H9").state  # 1 MP, 5 left
    assert mp_left(first) == 5
    far = act(first, "move", unit="bates", to="L9").state  # 4 more squares: within the 5 left
    assert ap(far) == ap(first)
    assert mp_left(far) == 1
    farther = act(far, "move", unit="bates", to="L10").state  # needs 2: one more AP, 1 + 6 MP
    assert ap(farther) == ap(far) - 1
    assert mp_left(farther) == 1 + 6 - 2  # turn S and step, or sidestep: 2 MP


def test_unspent_mp_lost_when_another_unit_acts() -> None:
    """5.1: leftover MP is lost once an AP goes to another unit."""
    state = put(clear_xenos(marine_phase()), bates="G9:E")
    first = act(state, "move", unit="bates", to="H9").state
    other = act(first, "move", unit="lt", to="E").state
    again = act(other, "move", unit="bates", to="I9").state
    assert ap(again) == ap(other) - 1
    assert mp_left(again) == 6 - 1


def test_normal_door_costs_one_mp() -> None:
    """5.1 chart: opening a Normal door costs 1 MP, not an extra AP beyond the move order."""
    state = alone("G7:W")
    opened = act(state, "act", unit="bates", what="open", to="F7").state
    assert mp_left(opened) == 5
    assert any(e.kind == "door-open" and {e.a, e.b} == {"F7", "G7"} for e in view(opened).edges)


def test_security_door_costs_one_ap() -> None:
    """5.2: a Security Door is opened with 1 AP, not with MP."""
    state = alone("L8:E")
    assert can(state, "act", unit="bates", what="open", to="M8")
    opened = act(state, "act", unit="bates", what="open", to="M8").state
    assert ap(opened) == ap(state) - 1
    assert any("M8" in d and "L8" in d for d in dump(opened)["open_doors"])


def test_security_door_can_be_closed_for_one_ap() -> None:
    """5.2: closing a Security Door also costs 1 AP."""
    state = alone("L8:E")
    opened = act(state, "act", unit="bates", what="open", to="M8").state
    closers = [a for a in find(opened, unit="bates") if a.args.get("what") == "close"]
    assert closers, "no close action offered for the open Security Door"
    closed = do(opened, closers[0]).state
    assert ap(closed) == ap(opened) - 1
    assert not dump(closed)["open_doors"]


def test_attack_costs_one_ap_and_may_repeat() -> None:
    """5.3: an attack costs 1 AP, and the same Marine may attack again while AP remain."""
    state = put(alone("H9:E"), w1="K9")
    first = act(state, "attack", [1, 1], unit="bates", target="w1").state
    assert ap(first) == ap(state) - 1
    assert can(first, "attack", unit="bates", target="w1")


def test_no_orders_without_ap() -> None:
    """5.0: with no AP left, no Marine can be activated (only ending the phase remains)."""
    state = set_ap(put(alone("H9:E"), d1="K9"), 0)
    assert {a.verb for a in legal(state)} <= {"end-turn", "orders"}
    assert not any(a.verb in ("move", "attack", "act") for a in legal(state))


def test_spin_attack_costs_one_ap_and_turns() -> None:
    """5.4: a Spin Attack costs 1 AP and turns the Marine (up to 180 degrees) to its target."""
    state = put(alone("H9:E"), d1="F9")  # behind Bates, in LOS through the open room
    state = put(state, d1="G9")
    assert not can(state, "attack", unit="bates", target="d1")
    assert can(state, "act", unit="bates", what="spin", target="d1")
    spun = act(state, "act", [1], unit="bates", what="spin", target="d1").state
    assert ap(spun) == ap(state) - 1
    assert fig(spun, "bates").facing == "W"  # type: ignore[union-attr]


def flamer() -> Any:
    """Berns alone at H9 facing N with a Drone ahead."""
    state = bench(clear_xenos(marine_phase()), "lt", "fox", "krauss", "zac", "bates", "ortiz")
    return put(state, berns="H9:N")


def test_refuel_costs_one_ap_and_restores_flames() -> None:
    """5.5: refuelling costs 1 AP and returns every used Flame marker."""
    state = flamer()
    burnt = act(state, "attack", [], unit="berns", target="H8+H7+H6", weapon="flame").state
    later = next_turn(burnt)  # housekeeping removes the three burning markers
    assert header(later)["flames"].startswith("2 ready")
    refuel = [a for a in find(later, unit="berns") if a.args.get("what") == "refuel"]
    assert refuel, "no refuel action offered with used Flame markers"
    done = do(later, refuel[0]).state
    assert ap(done) == ap(later) - 1
    assert header(done)["flames"].startswith("5 ready")


def test_refuel_only_once_per_operation() -> None:
    """5.5: the Flamethrower may be refuelled only once in an operation."""
    state = flamer()
    burnt = act(state, "attack", [], unit="berns", target="H8+H7+H6", weapon="flame").state
    later = next_turn(burnt)
    refuel = next(a for a in find(later, unit="berns") if a.args.get("what") == "refuel")
    done = do(later, refuel).state
    burnt2 = act(done, "attack", [], unit="berns", target="H8+H7+H6", weapon="flame").state
    again = next_turn(burnt2)
    assert not [a for a in find(again, unit="berns") if a.args.get("what") == "refuel"]


def gunner() -> Any:
    """Zac alone at H9 facing E, a Warrior (two Hits to kill) at K9."""
    state = bench(clear_xenos(marine_phase()), "lt", "fox", "krauss", "berns", "bates", "ortiz")
    return put(state, zac="H9:E", w1="K9")


def test_clear_jam_costs_one_ap() -> None:
    """5.6 / 8.6: a jammed minigun is cleared for 1 AP and can then fire again."""
    jammed = act(gunner(), "attack", [2, 2, 2, 1], unit="zac", target="w1").state
    assert not can(jammed, "attack", unit="zac", target="w1")
    clear = [a for a in find(jammed, unit="zac") if a.args.get("what") == "clear-jam"]
    assert clear, "no clear-jam action offered"
    cleared = do(jammed, clear[0]).state
    assert ap(cleared) == ap(jammed) - 1
    assert can(cleared, "attack", unit="zac", target="w1")


def surged() -> Any:
    """Fox alone at H9 facing E with a Surge marker (from a killing 6) and a Warrior ahead."""
    state = bench(clear_xenos(marine_phase()), "lt", "krauss", "zac", "berns", "bates", "ortiz")
    state = put(state, fox="H9:E", d1="I9", w1="K9")
    return act(state, "attack", [6, 1, 1], unit="fox", target="d1").state


def test_surge_pays_for_one_action() -> None:
    """5.8: a Marine with a Surge marker discards it to take a 1-AP action without AP."""
    state = surged()
    assert "surge" in fig(state, "fox").conditions  # type: ignore[union-attr]
    used = act(state, "attack", [1, 1, 1], unit="fox", target="w1", surge="yes").state
    assert ap(used) == ap(state)
    assert "surge" not in fig(used, "fox").conditions  # type: ignore[union-attr]


def test_surge_is_not_transferable() -> None:
    """5.8: the Surge marker pays only for its own Marine's action."""
    state = put(surged(), krauss="H10:E")
    assert can(state, "attack", unit="fox", target="w1", surge="yes")
    assert not find(state, unit="krauss", surge="yes")


def test_without_surge_attacks_cost_ap() -> None:
    """5.8: without a Surge marker there is no free action on offer."""
    state = put(alone("H9:E"), w1="K9")
    assert not find(state, surge="yes")


def test_surge_pays_for_a_move() -> None:
    """5.8: a move order costs 1 AP, so a Surge marker may pay for it."""
    state = surged()
    move = find(state, unit="fox", surge="yes", to="I9")
    assert move
    moved = do(state, move[0]).state
    assert ap(moved) == ap(state)


def test_order_one_marine_then_another_then_the_first_again() -> None:
    """5.0 (and its example): APs go to any Marine in any order: Bates, then the Gunner, then
    Bates again, one AP for each order."""
    squad = bench(clear_xenos(marine_phase()), "lt", "fox", "krauss", "berns", "ortiz")
    state = put(squad, bates="H9:E", zac="H7:E")
    start = ap(state)
    state = act(state, "move", unit="bates", to="I9").state
    state = act(state, "move", unit="zac", to="I7").state
    state = act(state, "move", unit="bates", to="J9").state
    assert ap(state) == start - 3
    assert fig(state, "bates").coord == "J9"  # type: ignore[union-attr]
    assert fig(state, "zac").coord == "I7"  # type: ignore[union-attr]
