"""Chapter 13 (Solitaire Operations): no cards, the automatic Xenos, dice-per-vent spawning,
and Solo Operations A and B."""

from __future__ import annotations

from typing import Any

import pytest
from forlorn_probe import (
    GAME,
    act,
    bench,
    clear_xenos,
    dump,
    edit,
    egg,
    fig,
    find,
    header,
    legal,
    marine_phase,
    next_turn,
    put,
    run_automatic,
    squad,
    view,
    waiting,
)

from engine.core.dice import ScriptedDice, SeededDice


def fresh(scenario: str, **options: str) -> Any:
    return GAME.new(scenario, ["marines"], dict(options), SeededDice(7))


def test_solo_has_no_cards_and_no_xeno_seat() -> None:
    """13.1: solitaire operations use no Mutation cards (and no Xeno player)."""
    for scenario in ("solo-a", "solo-b"):
        info = next(s for s in GAME.scenarios() if s.key == scenario)
        assert info.role("xeno") is None
        state = marine_phase(scenario)
        assert not [a for a in legal(state) if a.args.get("what") == "card"]
        assert dump(state)["mutation"] is None or not dump(state)["mutation"].get("hand")


def xeno_turn(state: Any, rolls: list[int]) -> Any:
    """End the Marine phase and run the automatic Xeno phase only (stop before spawning by
    keeping the dice short: the script covers the Xeno phase)."""
    state = act(state, "end-turn").state
    return GAME.advance(state, ScriptedDice(rolls, [0] * 10)).state


def manhattan(a: str, b: str) -> int:
    cols = "ABCDEFGHIJKLMNOPQR"
    return abs(cols.index(a[0]) - cols.index(b[0])) + abs(int(a[1:]) - int(b[1:]))


def test_automatic_xeno_closes_on_the_nearest_marine() -> None:
    """13.2: each Drone moves toward the closest Marine by movement cost."""
    state = squad(marine_phase(), ["fox"], fox="H9:E", d1="L5")
    after = act(state, "end-turn").state
    step = GAME.advance(after, ScriptedDice([1] * 20, [0] * 10))
    moved = next(e for e in step.events if getattr(e, "figure", "") == "d1" and e.kind == "moved")
    end = moved.path[-1]  # type: ignore[attr-defined]
    assert manhattan(end, "H9") < manhattan("L5", "H9")


def test_automatic_xeno_attacks_when_adjacent() -> None:
    """13.2: a Drone that ends adjacent to a Marine makes a melee attack."""
    state = squad(marine_phase(), ["fox"], fox="H9:E", w1="J9")
    after = act(state, "end-turn").state
    step = GAME.advance(after, ScriptedDice([1] * 20, [0] * 10))
    text = "\n".join(e.text for e in step.events)
    assert "Warrior W1" in text and "Sgt. Fox" in text and "needs" in text


def test_automatic_xeno_avoids_flames() -> None:
    """13.2: automatic Xenos never enter a burning square."""
    state = squad(marine_phase(), ["berns"], berns="H9:E", d1="L9")
    state = act(state, "attack", [], unit="berns", target="I9+J9+K9", weapon="flame").state
    step = GAME.advance(act(state, "end-turn").state, ScriptedDice([1] * 20, [0] * 10))
    for e in step.events:
        if e.kind == "moved" and getattr(e, "figure", "") == "d1":
            assert not {"I9", "J9", "K9"} & set(e.path[1:])  # type: ignore[attr-defined]


def test_automatic_blaster_shoots_on_sight() -> None:
    """13.2: a Blaster fires its ranged attack once it has a line of sight to the Marine."""
    state = squad(marine_phase(), ["fox"], fox="H9:E", b1="L9")
    step = GAME.advance(act(state, "end-turn").state, ScriptedDice([1] * 20, [0] * 10))
    text = "\n".join(e.text for e in step.events)
    assert "Blaster B1" in text and "Sgt. Fox" in text


@pytest.mark.parametrize("faces", [(1, 1, 3, 5, 2, 2)])
def test_spawn_dice_pick_vents_and_stack(faces: tuple[int, ...]) -> None:
    """13.3: each spawn die puts one Xeno on the vent with that number; repeats stack
    (Solo A: 4 Drone dice then 2 Warrior dice; vents 1 H4, 2 R1, 3 Q6, 5 F8)."""
    state = next_turn(clear_xenos(marine_phase()), spawn=faces)
    where = sorted((f.kind, f.coord) for f in view(state).figures if f.side == "enemy")
    assert where == sorted(
        [
            ("drone", "H4"),
            ("drone", "H4"),
            ("drone", "Q6"),
            ("drone", "F8"),
            ("warrior", "R1"),
            ("warrior", "R1"),
        ]
    )


# Solo A ----------------------------------------------------------------------------------


def test_solo_a_marines_start_next_to_a() -> None:
    """Solo A rule 1: the Marines start adjacent to A (J7)."""
    for f in view(fresh("solo-a")).figures:
        if f.side == "player":
            assert manhattan(f.coord, "J7") <= 2 and f.coord != "J7"
            assert max(abs(ord(f.coord[0]) - ord("J")), abs(int(f.coord[1:]) - 7)) == 1


def test_solo_a_victory_points() -> None:
    """Solo A rule 2: 1 VP a turn the LT survives, plus 1 VP per Marine on or next to A."""
    state = clear_xenos(marine_phase())
    assert header(next_turn(state))["vp"].startswith("8/")
    far = put(state, bates="C3:E")
    assert header(next_turn(far))["vp"].startswith("7/")
    no_lt = bench(state, "lt")
    assert header(next_turn(no_lt))["vp"].startswith("6/")


def test_solo_a_warriors_do_not_respawn() -> None:
    """Solo A rule 3: slain Warriors are not returned to the pool."""
    state = squad(marine_phase(), ["fox"], fox="H9:E", w1="I9")

    def pool(s: Any) -> str:
        return next(line for p in view(s).panels if p.seat == "xeno" for line in p.lines)

    killed = act(state, "attack", [5, 5, 1], unit="fox", target="w1").state
    assert pool(killed) == pool(state)


def test_solo_a_trainee_spawn() -> None:
    """Solo A Trainee: 3 Drone dice and 1 Warrior die."""
    state = clear_xenos(marine_phase(opts={"difficulty": "trainee"}))
    later = next_turn(state, spawn=(1, 3, 4, 2), ap_roll=(3, 5))
    kinds = sorted(f.kind for f in view(later).figures if f.side == "enemy")
    assert kinds == ["drone", "drone", "drone", "warrior"]


def test_solo_a_veteran() -> None:
    """Solo A Veteran: one Private and the Flamethrower or the Gunner leave; one grenade."""
    state = fresh("solo-a", difficulty="veteran")
    options = {a.args.get("option") for a in legal(state) if a.verb == "choose"}
    assert options == {"cut:berns", "cut:zac"}
    cut = GAME.apply(
        state,
        "marines",
        next(a for a in legal(state) if a.args.get("option") == "cut:zac"),
        ScriptedDice([]),
    ).state
    marines = {f.id for f in view(cut).figures if f.side == "player"}
    assert len(marines) == 7 - 2
    assert "zac" not in marines and "berns" in marines
    assert header(state)["grenades"] == "1"


# Solo B ----------------------------------------------------------------------------------


def vp(state: Any) -> int:
    """Solo B's score after this turn's Victory phase (spawn dice avoid the blocked vent)."""
    if waiting(state).seats == ["marines"]:
        later = next_turn(state, spawn=(1, 1, 1, 1, 2, 2))
    else:  # no Marine left on the board: the phase ends on its own
        later = run_automatic(state, [1, 1, 1, 1, 2, 2, 3, 5])
    return int(header(later)["vp"].split("/")[0])


def test_solo_b_sealed_doors() -> None:
    """Solo B rule 1: the Security Doors of rooms A and B start sealed."""
    kinds = {e.kind for e in view(fresh("solo-b")).edges if e.kind.startswith("security")}
    assert kinds == {"security-door-sealed"}


def test_solo_b_unseal_from_outside_for_one_ap() -> None:
    """Solo B rule 1: a Marine outside, next to the sealed door, removes the seal for 1 AP,
    which also opens the door (C9-C10 is room A's door; C10 is outside)."""
    state = squad(marine_phase("solo-b"), ["fox"], fox="C10:N")
    unseal = [a for a in find(state, unit="fox") if a.args.get("what") == "unseal"]
    assert unseal
    done = GAME.apply(state, "marines", unseal[0], ScriptedDice([])).state
    assert int(header(done)["ap"]) == int(header(state)["ap"]) - 1
    assert any({e.a, e.b} == {"C9", "C10"} and "open" in e.kind for e in view(done).edges)


def test_solo_b_no_unseal_from_inside() -> None:
    """Solo B rule 1: the seal is removed from outside the room only."""
    state = squad(marine_phase("solo-b"), ["lt"], lt="C9:S")
    assert not [a for a in find(state, unit="lt") if a.args.get("what") == "unseal"]


def test_solo_b_exit_vp() -> None:
    """Solo B rule 2: 4 VP for a SGT or Private out through C, 8 for the LT/Gunner/Flamer."""
    state = squad(marine_phase("solo-b"), ["fox", "lt"], fox="H12:N", lt="H13:N")
    c_cell = next(c.coord for c in view(state).cells if "letter:C" in c.marks)
    facing = "W" if c_cell.startswith("A") else "E"
    state = put(state, fox=f"{c_cell}:{facing}")
    out = GAME.apply(
        state,
        "marines",
        next(a for a in find(state, unit="fox") if a.args.get("what") == "exit"),
        ScriptedDice([]),
    ).state
    assert vp(out) == 4
    state = put(out, lt=f"{c_cell}:{facing}")
    out = GAME.apply(
        state,
        "marines",
        next(a for a in find(state, unit="lt") if a.args.get("what") == "exit"),
        ScriptedDice([]),
    ).state
    assert vp(out) == 4 + 8


def test_solo_b_kill_vp() -> None:
    """Solo B rule 2: 1 VP per Warrior, Blaster or Egg killed; Drones score nothing."""
    state = squad(marine_phase("solo-b"), ["fox"], fox="H12:E", d1="I13", b1="K12")
    drone = act(state, "attack", [5, 1, 1], unit="fox", target="d1").state
    assert vp(drone) == 0
    blaster = act(drone, "attack", [5, 5, 5], unit="fox", target="b1").state
    assert vp(blaster) == 1
    eggy = egg(squad(marine_phase("solo-b"), ["fox"], fox="H12:E"), "h1", "J12")
    cracked = act(eggy, "attack", [5, 5, 1], unit="fox", target="h1").state
    assert vp(cracked) == 1


def test_solo_b_bot_on_a_random_vent_blocks_it() -> None:
    """Solo B rule 3: the Maintenance Bot starts on a random vent; spawns there are rerolled."""
    state = clear_xenos(marine_phase("solo-b"))
    blocked = [c for c in view(state).cells if "blocked" in c.marks]
    assert len(blocked) == 1
    vent = next(m for m in blocked[0].marks if m.startswith("vent:"))
    face = int(vent.split(":")[1])
    other = 1 if face != 1 else 2
    # Solo B turn 1 spawns 4 Drone, 1 Warrior, 1 Blaster dice; the blocked face is rerolled.
    state = act(state, "end-turn").state
    state = run_automatic(state, [face, other, other, other, other, other, other, 3, 5])
    assert not [f for f in view(state).figures if f.coord == blocked[0].coord]


def test_solo_b_sergeants_are_heroic() -> None:
    """Solo B rule 4: both SGTs take two Hits to kill; Trainee adds the LT, Gunner, Flamer."""
    for f in view(fresh("solo-b")).figures:
        if f.side == "player":
            assert f.max_health == (2 if f.rank == "SGT" else 1)
    for f in view(fresh("solo-b", difficulty="trainee")).figures:
        if f.side == "player":
            assert f.max_health == (1 if f.rank == "PVT" else 2)


def test_solo_b_veteran() -> None:
    """Solo B Veteran: one grenade."""
    assert header(fresh("solo-b", difficulty="veteran"))["grenades"] == "1"


def test_solo_b_hero_survives_the_first_hit() -> None:
    """Solo B rule 4 / 8.11: a Heroic SGT lives through its first Hit."""
    state = squad(marine_phase("solo-b"), ["fox"], fox="H12:E", w1="I12")
    state = act(state, "end-turn").state
    state = run_automatic(state, [5, 1, *([1] * 6), 3, 5])
    fox = fig(state, "fox")
    assert fox is not None and fox.health == 1


@pytest.mark.parametrize(("turn", "dice"), [(3, 4 + 1 + 1), (4, 6 + 2 + 2)])
def test_solo_b_spawn_rate_rises_on_turn_four(turn: int, dice: int) -> None:
    """Solo B rule 5: from turn 4 the spawn dice are 6 Drone, 2 Warrior and 2 Blaster dice
    (4, 1 and 1 before)."""
    state = clear_xenos(marine_phase("solo-b"))
    state = edit(state, lambda d: d.update(turn=turn))
    state = act(state, "end-turn").state
    script = ScriptedDice([1] * dice + [3, 5], [0] * 10)
    for _ in range(10):
        if waiting(state).seats:
            break
        state = GAME.advance(state, script).state
    assert script.remaining == 0
    assert view(state).phase == "marine"
