"""Chapter 6 (Xeno Activations): one activation per Xeno, move then attack, corpse bursting,
Xeno movement costs, corpse eating, melee reach and the end-of-phase Egg burst. Staged on
Operation 01's map A with a human Xeno seat; Drones have 6 MP there (read from the moves
offered)."""

from __future__ import annotations

from typing import Any

from forlorn_probe import (
    act,
    do,
    dump,
    edit,
    egg,
    fig,
    find,
    legal,
    op01,
    run_automatic,
    squad,
    view,
    xeno_phase,
)


def phase(keep: tuple[str, ...] = ("fox",), corpse: str | None = None, **where: str) -> Any:
    state = squad(op01(), keep, **where)
    if corpse:
        state = edit(state, lambda d: d.update(corpses=[{"at": corpse, "unit": "ortiz"}]))
    return xeno_phase(state)


def moves(state: Any, uid: str) -> set[str]:
    return {a.args["to"] for a in find(state, seat="xeno", unit=uid) if a.verb == "move"}


def xeno_mp(state: Any) -> int:
    return int(dump(state)["xeno_mp"])


def test_one_xeno_at_a_time() -> None:
    """6.0: a Xeno finishes its activation before another starts: once a second Xeno acts,
    the first cannot resume with the MP it had left."""
    state = phase(fox="C3:E", d1="H7", d2="K9")
    moved = act(state, "move", seat="xeno", unit="d1", to="I7").state
    assert moves(moved, "d1")
    other = act(moved, "move", seat="xeno", unit="d2", to="K8").state
    assert not moves(other, "d1")


def test_each_xeno_activates_once() -> None:
    """6.0: once its activation ends, a Xeno cannot be activated again this phase."""
    state = phase(fox="C3:E", d1="H7", d2="K9")
    moved = act(state, "move", seat="xeno", unit="d1", to="I7").state
    ended = act(moved, "end-turn", seat="xeno", unit="d1").state
    assert not moves(ended, "d1")
    assert moves(ended, "d2")


def test_attack_ends_the_activation() -> None:
    """6.0: a Xeno moves, then attacks; after the attack its turn is over."""
    state = phase(fox="H7:W", w1="I7")
    after = act(state, "attack", [4, 4], seat="xeno", unit="w1", target="fox").state
    assert not moves(after, "w1")
    assert not [a for a in find(after, seat="xeno", unit="w1") if a.verb == "attack"]


def test_orthogonal_step_costs_one_mp() -> None:
    """6.2: a Xeno pays 1 MP for an orthogonal step."""
    state = phase(fox="C3:E", d1="H7")
    assert xeno_mp(act(state, "move", seat="xeno", unit="d1", to="I7").state) == 6 - 1


def test_diagonal_step_costs_two_mp() -> None:
    """6.2: a Xeno pays 2 MP for a diagonal step."""
    state = phase(fox="C3:E", d1="H7")
    assert xeno_mp(act(state, "move", seat="xeno", unit="d1", to="I8").state) == 6 - 2


def test_normal_door_costs_a_xeno_two_mp() -> None:
    """6.2: opening a Normal door costs a Xeno 2 MP (G7-F7: open 2 + step 1)."""
    state = phase(fox="C3:E", d1="G7")
    assert xeno_mp(act(state, "move", seat="xeno", unit="d1", to="F7").state) == 6 - 3


def test_melee_only_when_adjacent() -> None:
    """6.4: Drones and Warriors attack only adjacent Marines."""
    near = phase(fox="H7:W", d1="I8")
    far = phase(fox="H7:W", d1="J7")
    assert [a for a in find(near, seat="xeno", unit="d1") if a.verb == "attack"]
    assert not [a for a in find(far, seat="xeno", unit="d1") if a.verb == "attack"]


def test_melee_not_through_a_wall() -> None:
    """1.6 / 6.4: across a wall the Marine is not adjacent, so there is no melee."""
    state = phase(fox="G9:E", d1="F9")
    assert not [a for a in find(state, seat="xeno", unit="d1") if a.verb == "attack"]


def test_corpse_bursts_into_a_hatchling_that_waits() -> None:
    """6.1: a corpse may be replaced by a Hatchling from the pool, which cannot act this turn."""
    state = phase(fox="C3:E", corpse="I7", d1="L9")
    burst = [a for a in legal(state, "xeno") if a.args.get("what") == "burst"]
    assert burst
    after = do(state, burst[0], seat="xeno").state
    hatch = [f for f in view(after).figures if f.kind == "hatchling" and f.coord == "I7"]
    assert hatch
    assert not dump(after)["corpses"]
    assert not moves(after, hatch[0].id)


def test_corpse_eating_grows_a_special_that_waits() -> None:
    """6.3: a Drone moving onto a corpse may become a Warrior or Blaster, which cannot act
    again this turn."""
    state = phase(fox="C3:E", corpse="I7", d1="J7")
    on = act(state, "move", seat="xeno", unit="d1", to="I7").state
    grow = [a for a in find(on, seat="xeno") if a.args.get("what") == "grow"]
    assert {a.args["to"] for a in grow} == {"warrior", "blaster"}
    grown = act(on, "act", seat="xeno", unit="d1", what="grow", to="warrior").state
    new = [f for f in view(grown).figures if f.kind == "warrior" and f.coord == "I7"]
    assert new
    assert not dump(grown)["corpses"]
    assert fig(grown, "d1") is None
    assert not moves(grown, new[0].id)


def test_only_drones_and_hatchlings_eat_corpses() -> None:
    """6.3: corpse eating is for Drones and Hatchlings; a Warrior cannot grow."""
    state = phase(fox="C3:E", corpse="I7", w1="J7")
    on = act(state, "move", seat="xeno", unit="w1", to="I7").state
    assert not [a for a in find(on, seat="xeno") if a.args.get("what") == "grow"]


def test_eggs_in_sight_of_a_marine_hatch_at_phase_end() -> None:
    """6.6: at the end of the Xeno phase every Egg with a line of sight to a Marine hatches;
    an Egg out of sight stays an Egg."""
    state = squad(op01(), ("fox",), fox="G9:E")
    state = egg(state, "h1", "K9")  # in the open room, in sight
    state = egg(state, "h2", "C12")  # far away, behind walls
    phase_state = xeno_phase(state)
    ended = act(phase_state, "end-turn", seat="xeno").state
    ended = run_automatic(ended, [1] * 4 + [3, 5])
    assert fig(ended, "h1").kind == "hatchling"  # type: ignore[union-attr]
    assert fig(ended, "h2").kind == "egg"  # type: ignore[union-attr]


def test_xeno_closes_a_normal_door_for_two_mp() -> None:
    """6.2: closing a Normal door also costs a Xeno 2 MP."""
    state = squad(op01(), ("fox",), fox="C3:E", d1="G7")
    state = edit(state, lambda d: d.update(open_doors=["F7-G7"]))
    phase_state = xeno_phase(state)
    closes = [a for a in find(phase_state, seat="xeno", unit="d1") if a.args.get("what") == "close"]
    assert closes
    closed = do(phase_state, closes[0], seat="xeno").state
    assert xeno_mp(closed) == 6 - 2
    assert not dump(closed)["open_doors"]
