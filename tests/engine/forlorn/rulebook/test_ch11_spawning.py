"""Chapter 11 (Spawning Xenos), on Operation 01 (spawn rate 1d3+1 Drones) with a human Xeno:
free vents first, one Xeno each, then squares next to the vents, and a short pool loses the
rest. Map A's vents: 1 H4, 2 R1, 3 Q6, 4 R14, 5 F8, 6 A14."""

from __future__ import annotations

from typing import Any

from forlorn_probe import GAME, act, do, legal, marine_phase, op01, put, view, waiting, xeno_phase

from engine.core.dice import ScriptedDice

VENTS = {"H4", "R1", "Q6", "R14", "F8", "A14"}


def to_spawn(state: Any, roll: int) -> Any:
    """End the Xeno phase and roll `roll` on the spawn die; stop at the first placement."""
    state = act(xeno_phase(state), "end-turn", seat="xeno").state
    dice = ScriptedDice([roll])
    while not waiting(state).seats:
        state = GAME.advance(state, dice).state
    return state


def finish(state: Any) -> Any:
    """Place every pending spawn with the first option offered, then run to the next turn."""
    dice = ScriptedDice([3, 5])
    for _ in range(20):
        prompt = waiting(state)
        if prompt.seats == ["marines"] and view(state).phase == "marine":
            return state
        if not prompt.seats:
            state = GAME.advance(state, dice).state
            continue
        seat = prompt.seats[0]
        choice = next(a for a in legal(state, seat) if a.args.get("option") != "auto")
        state = do(state, choice, seat=seat).state
    raise AssertionError("never reached the next Marine phase")


def drones(state: Any) -> list[str]:
    return [f.coord for f in view(state).figures if f.kind == "drone"]


def test_spawns_go_on_free_vents_one_each() -> None:
    """11.0: new Xenos are placed on unblocked Access Vents, one per vent, as the Xeno player
    chooses (roll 5: d3 = 3, +1 = 4 Drones)."""
    state = to_spawn(op01(), 5)
    options = {a.args["option"] for a in legal(state, "xeno")} - {"auto"}
    assert options == VENTS
    done = finish(state)
    placed = drones(done)
    assert len(placed) == 4
    assert set(placed) <= VENTS
    assert len(set(placed)) == 4


def test_occupied_vents_are_not_offered() -> None:
    """11.0: a vent with a Xeno on it is blocked for spawning."""
    state = to_spawn(put(op01(), w1="H4", w2="R1"), 3)
    options = {a.args["option"] for a in legal(state, "xeno")} - {"auto"}
    assert options == VENTS - {"H4", "R1"}


def full_vents() -> Any:
    return put(op01(), d1="H4", d2="R1", d3="Q6", d4="R14", d5="F8")


def test_overflow_goes_next_to_the_vents() -> None:
    """11.0: with every vent taken, the rest go to empty squares next to Access Vents."""
    done = finish(to_spawn(full_vents(), 5))
    placed = drones(done)
    assert len(placed) == 5 + 4
    cols = "ABCDEFGHIJKLMNOPQR"

    def near_vent(coord: str) -> bool:
        c, r = cols.index(coord[0]), int(coord[1:])
        return any(abs(cols.index(v[0]) - c) <= 1 and abs(int(v[1:]) - r) <= 1 for v in VENTS)

    assert all(near_vent(c) for c in placed)


def test_marine_player_places_the_overflow() -> None:
    """11.0: the overflow squares are the Marine player's choice."""
    state = to_spawn(full_vents(), 5)
    first = next(a for a in legal(state, "xeno") if a.args.get("option") == "A14")
    state = do(state, first, seat="xeno").state
    asked = False
    for _ in range(6):
        prompt = waiting(state)
        if prompt.seats == ["marines"] and view(state).phase != "marine":
            asked = True
            break
        if prompt.seats:
            break
        state = GAME.advance(state, ScriptedDice([3, 5])).state
    assert asked


def test_short_pool_loses_the_rest() -> None:
    """11.0: when the pool runs short, the spawns it cannot supply are lost."""
    state = put(
        full_vents(),
        d6="G5",
        d7="G6",
        d8="G8",
        d9="G9",
        d10="G10",
        d11="H10",
    )
    done = finish(to_spawn(state, 5))
    assert len(drones(done)) == 12


def test_xeno_rush_adds_a_special_spawn() -> None:
    """8.3.3 / 11.0: after a Rush the Xeno player spawns one extra Warrior or Blaster."""
    state = put(op01(), w1="I7", fox="H7:E")
    phase = xeno_phase(state)
    killed = act(phase, "attack", [6, 1, 1], seat="xeno", unit="w1", target="fox").state
    ended = act(killed, "end-turn", seat="xeno").state
    dice = ScriptedDice([5])
    while not waiting(ended).seats:
        ended = GAME.advance(ended, dice).state
    before = {f.id for f in view(ended).figures if f.kind in ("warrior", "blaster")}
    done = finish(ended)
    after = {f.id for f in view(done).figures if f.kind in ("warrior", "blaster")}
    assert len(after - before) == 1


def test_only_one_rush_per_turn() -> None:
    """8.3.3: however many natural-6 kills, the Xeno player gets one Rush unit a turn."""
    state = put(op01(), w1="I7", fox="H7:E", w2="C4", novak="B4:E")
    phase = xeno_phase(state)
    one = act(phase, "attack", [6, 1, 1], seat="xeno", unit="w1", target="fox").state
    two = act(one, "attack", [6, 1, 1], seat="xeno", unit="w2", target="novak").state
    ended = act(two, "end-turn", seat="xeno").state
    dice = ScriptedDice([5])
    while not waiting(ended).seats:
        ended = GAME.advance(ended, dice).state
    before = {f.id for f in view(ended).figures if f.kind in ("warrior", "blaster")}
    done = finish(ended)
    after = {f.id for f in view(done).figures if f.kind in ("warrior", "blaster")}
    assert len(after - before) == 1


def test_op02_rush_cannot_be_a_warrior() -> None:
    """Op 02 rule 4: no Warriors by any method, the Rush bonus included: the Rush unit is a
    Blaster."""
    state = marine_phase("op-02", ("marines", "xeno"), opts={"reactions": "off"})
    state = put(state, fox="O12:E", w1="P12")
    phase = xeno_phase(state)
    killed = act(phase, "attack", [6, 2, 1], seat="xeno", unit="w1", target="fox").state
    ended = act(killed, "end-turn", seat="xeno").state
    before = {f.id: f.kind for f in view(ended).figures if f.side == "enemy"}
    dice = ScriptedDice([5] + [3] * 12, [0] * 20)
    offered: set[str] = set()
    for _ in range(20):
        prompt = waiting(ended)
        if prompt.seats == ["marines"] and view(ended).phase == "marine":
            break
        if prompt.seats:
            actions = legal(ended, prompt.seats[0])
            offered |= {a.args.get("option", "") for a in actions}
            pick = next(a for a in actions if a.args.get("option") not in ("reroll", "warrior"))
            ended = do(ended, pick, seat=prompt.seats[0]).state
            continue
        ended = GAME.advance(ended, dice).state
    new = [f.kind for f in view(ended).figures if f.side == "enemy" and f.id not in before]
    assert "warrior" not in offered
    assert "warrior" not in new
    assert new.count("blaster") == 1


def test_marine_choice_places_the_overflow_spawn() -> None:
    """11.0: the Marine seat's chosen square next to a vent gets the Drone; meanwhile the Xeno
    seat has nothing to do, and the default lets the game place it as before."""
    state = to_spawn(full_vents(), 5)
    state = do(
        state, next(a for a in legal(state, "xeno") if a.args["option"] == "A14"), seat="xeno"
    ).state
    assert waiting(state).seats == ["marines"] and legal(state, "xeno") == []
    assert waiting(state).default is not None
    pick = [a for a in legal(state, "marines") if a.args.get("option") != "auto"][-1]
    after = do(state, pick, seat="marines").state
    assert pick.args["option"] in drones(after)
