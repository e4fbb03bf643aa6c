"""Chapter 7 (Movement) with the 1.6 map rules (vents, doors, adjacency): blocking, stacking,
grappling and doors. Marine probes stage Solo Operation A's room A (G5-L10) with one Marine;
Xeno probes use Operation 01 with a human Xeno seat.
"""

from __future__ import annotations

from typing import Any

from forlorn_probe import (
    act,
    bench,
    can,
    clear_xenos,
    dump,
    edit,
    find,
    legal,
    marine_phase,
    next_turn,
    op01,
    put,
    unit,
    view,
    xeno_phase,
)

OTHERS = ("lt", "fox", "krauss", "zac", "berns", "ortiz")


def alone(spot: str = "H9:E", **xenos: str) -> Any:
    state = put(bench(clear_xenos(marine_phase()), *OTHERS), bates=spot)
    return put(state, **xenos) if xenos else state


def destinations(state: Any, uid: str, seat: str = "marines") -> set[str]:
    return {
        a.args["to"] for a in legal(state, seat) if a.verb == "move" and a.args.get("unit") == uid
    }


def as_egg(state: Any, uid: str, coord: str) -> Any:
    def change(data: dict[str, Any]) -> None:
        u = unit(data, uid)
        u.update(kind="egg", at=coord, status="active")

    return edit(state, change)


def test_marine_cannot_enter_a_xeno_square() -> None:
    """7.1: a Marine may not move into a square an enemy occupies."""
    state = alone(d1="K9")
    assert "K9" not in destinations(state, "bates")
    assert "J9" in destinations(state, "bates")


def test_moving_next_to_a_xeno_ends_the_move() -> None:
    """7.3: once a Marine stands next to a non-Egg Xeno it cannot leave that square, so a
    path may not run past a Xeno (L9 lies beyond the Drone on K9)."""
    state = alone(d1="K9")
    assert "L9" not in destinations(state, "bates")
    assert "L9" in destinations(alone(), "bates")


def test_marine_cannot_enter_an_egg_square() -> None:
    """7.1: Marines may not enter a square holding a Xeno Egg."""
    state = as_egg(alone(), "h1", "K9")
    assert "K9" not in destinations(state, "bates")


def test_marines_move_through_friends_but_do_not_stop_there() -> None:
    """7.1 / 7.2: a Marine passes a friend's square at no extra cost but may not end there."""
    state = put(alone(), ortiz="I9:E")
    moves = destinations(state, "bates")
    assert "I9" not in moves
    assert "J9" in moves
    after = act(state, "move", unit="bates", to="J9").state
    assert dump(after)["mp_left"] == 6 - 2


def test_egg_does_not_grapple() -> None:
    """7.3: an Egg next to a Marine does not stop it leaving its square."""
    state = as_egg(alone(), "h1", "I9")
    assert "H10" in destinations(state, "bates")


def test_grappled_marine_cannot_leave_its_square() -> None:
    """7.3: a Marine next to a non-Egg Xeno may not step out of its square."""
    state = alone(d1="I8")  # diagonal, in the open room
    moves = destinations(state, "bates")
    assert not moves - {"N", "S", "W", "E"}


def test_grappled_marine_may_turn_and_spin() -> None:
    """7.3: a grappled Marine may still turn in place or Spin Attack."""
    state = alone(d1="H8")
    assert {"N", "S"} <= destinations(state, "bates")
    assert can(state, "act", unit="bates", what="spin", target="d1")


def test_grappled_marine_cannot_open_a_security_door() -> None:
    """5.2 / 7.3: a Marine next to a non-Egg Xeno cannot open a Security Door."""
    state = alone("L8:E")
    assert can(state, "act", unit="bates", what="open", to="M8")
    assert not can(put(state, d1="L7"), "act", unit="bates", what="open", to="M8")


def test_grappled_marine_cannot_open_a_normal_door() -> None:
    """5.1 chart (asterisk): opening a Normal door is not allowed next to a non-Egg Xeno."""
    state = alone("G7:W")
    assert can(state, "act", unit="bates", what="open", to="F7")
    assert not can(put(state, d1="G6"), "act", unit="bates", what="open", to="F7")


def test_adjacency_needs_line_of_sight() -> None:
    """1.6: a Xeno on the far side of a wall is not adjacent, so it does not grapple."""
    state = alone("G9:E", d1="F9")  # F9 is in the corridor behind room A's west wall
    assert "H9" in destinations(state, "bates")


def test_marines_never_enter_vents() -> None:
    """1.6: no unit may move into an Access Vent square (H4 is vent 1)."""
    state = alone("G4:E")
    assert "H4" not in destinations(state, "bates")
    assert any(c.coord == "H4" and c.terrain == "vent" for c in view(state).cells)


def test_open_door_stays_open_until_housekeeping() -> None:
    """7.4: opened doors stay open (with a marker) through the turn and shut in Housekeeping."""
    state = alone("G7:W")
    opened = act(state, "act", unit="bates", what="open", to="F7").state
    assert any(t.kind == "open-door" for t in view(opened).tokens)
    moved = act(opened, "move", unit="bates", to="H7").state
    assert any(e.kind == "door-open" and {e.a, e.b} == {"F7", "G7"} for e in view(moved).edges)
    later = next_turn(moved)
    assert not dump(later)["open_doors"]
    assert not any(t.kind == "open-door" for t in view(later).tokens)


def test_several_doors_open_at_once() -> None:
    """7.4: there is no limit on how many doors are open at the same time."""
    state = alone("G7:W")
    one = act(state, "act", unit="bates", what="open", to="F7").state
    one = put(one, ortiz="L8:E")
    two = act(one, "act", unit="ortiz", what="open", to="M8").state
    assert len(dump(two)["open_doors"]) == 2


def test_open_normal_door_can_be_closed() -> None:
    """7.4: an open door stays open unless a Marine deliberately closes it."""
    state = alone("G7:W")
    opened = act(state, "act", unit="bates", what="open", to="F7").state
    closers = [a for a in find(opened, unit="bates") if a.args.get("what") == "close"]
    assert closers


def xenos(**where: str) -> Any:
    return xeno_phase(put(op01(), **where))


def test_xeno_cannot_enter_a_marine_square() -> None:
    """7.1: a Xeno may not move into a Marine's square (Pvt. Novak is on B3)."""
    state = xenos(d1="A5")
    assert "B3" not in destinations(state, "d1", "xeno")


def test_xenos_pass_through_friends_but_do_not_stack() -> None:
    """7.1 / 7.2: a Xeno moves through a friendly Xeno but may not end its move there."""
    state = xenos(d1="H7", d2="I7")
    moves = destinations(state, "d1", "xeno")
    assert "I7" not in moves
    assert "J7" in moves
    after = act(state, "move", seat="xeno", unit="d1", to="J7").state
    assert dump(after)["xeno_mp"] == 6 - 2


def test_xenos_never_enter_vents() -> None:
    """1.6: Xenos may not move into an Access Vent square either."""
    state = xenos(d1="G4")
    assert "H4" not in destinations(state, "d1", "xeno")


def test_xenos_cannot_open_security_doors() -> None:
    """1.6: Xenos open only Normal doors; the Security Door L8-M8 bars them."""
    state = xenos(d1="L8")
    assert "M8" not in destinations(state, "d1", "xeno")


def test_marines_do_not_grapple_xenos() -> None:
    """7.3: a Xeno next to a Marine may still move away (Marines do not grapple Xenos)."""
    state = xenos(d1="G6")
    state = put(state, novak="G5:S")
    assert destinations(state, "d1", "xeno") - {"G5"}
