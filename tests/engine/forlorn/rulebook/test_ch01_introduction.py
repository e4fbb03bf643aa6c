"""Chapter 1 (Introduction): the d3, the counters' printed values quoted in 1.3 and 5.1, and
which units carry a facing."""

from __future__ import annotations

import pytest
from forlorn_probe import (
    GAME,
    act,
    clear_xenos,
    do,
    dump,
    legal,
    marine_phase,
    op01,
    squad,
    view,
    waiting,
    xeno_phase,
)

from engine.core.dice import ScriptedDice
from engine.core.dice import SeededDice as Seeded


@pytest.mark.parametrize(("face", "d3"), [(1, 1), (2, 1), (3, 2), (4, 2), (5, 3), (6, 3)])
def test_d3(face: int, d3: int) -> None:
    """1.2: a d3 is a d6 read as 1-2 -> 1, 3-4 -> 2, 5-6 -> 3 (Op 03 spawns 1 Warrior and
    1d3 Drones)."""
    state = clear_xenos(marine_phase("op-03", ("marines", "xeno"), opts={"reactions": "off"}))
    state = act(xeno_phase(state), "end-turn", seat="xeno").state
    dice = ScriptedDice([face, 3, 5], [0] * 10)
    before = {f.id for f in view(state).figures}
    for _ in range(20):
        prompt = waiting(state)
        if prompt.seats == ["marines"] and view(state).phase == "marine":
            break
        if not prompt.seats:
            state = GAME.advance(state, dice).state
            continue
        auto = [a for a in legal(state, "xeno") if a.args.get("option") == "auto"]
        state = do(state, auto[0] if auto else legal(state, "xeno")[0], seat="xeno").state
    new = [f.kind for f in view(state).figures if f.id not in before]
    assert new.count("drone") == d3


def test_only_marines_have_a_facing() -> None:
    """1.3: Marine counters carry a facing arrow; Xenos do not."""
    state = marine_phase("op-02", ("marines", "xeno"), opts={"reactions": "off"})
    for f in view(state).figures:
        if f.side == "player":
            assert f.facing in ("N", "E", "S", "W")
        else:
            assert f.facing is None


def test_warrior_has_eight_mp_and_two_wounds() -> None:
    """1.3 example: a Warrior moves 8 MP and is Tough (two Hits)."""
    state = xeno_phase(squad(op01(), ["fox"], fox="C3:E", w1="H7"))
    moved = act(state, "move", seat="xeno", unit="w1", to="I7").state
    assert dump(moved)["xeno_mp"] == 8 - 1
    assert next(f for f in view(state).figures if f.id == "w1").max_health == 2


def test_gunner_has_four_mp_private_six() -> None:
    """1.3 / 5.1 examples: the Gunner gets 4 MP per AP, a Private 6."""
    state = squad(marine_phase(), ["zac", "bates"], zac="H9:E", bates="H7:E")
    assert dump(act(state, "move", unit="zac", to="I9").state)["mp_left"] == 4 - 1
    assert dump(act(state, "move", unit="bates", to="I7").state)["mp_left"] == 6 - 1


def test_gunner_consecutive_ap_example() -> None:
    """5.1 example: a Gunner with 1 MP left who gets another consecutive AP has 5 MP."""
    state = squad(marine_phase(), ["zac"], zac="G9:E")
    three = act(state, "move", unit="zac", to="J9").state
    assert dump(three)["mp_left"] == 1
    more = act(three, "move", unit="zac", to="L9").state  # 2 more squares: needs the new AP
    assert dump(more)["mp_left"] == 1 + 4 - 2


SCENARIOS = ("solo-a", "solo-b", "op-01", "op-02", "op-03", "op-04")


def test_forty_unit_counters_and_twenty_mutation_cards() -> None:
    """1.1 / 1.3: the game holds 40 unit counters (Marines and Xenos together) and 20 Mutation
    cards. Every operation has the same 30 Xeno counters (on the map, as Eggs, or in the pool);
    the Marine counters the operations field are ten named Marines in all (Op 04's turn-4
    reinforcements, a SGT and the Flamethrower, are the two it does not start with)."""
    marines: set[str] = set()
    for scenario in SCENARIOS:
        for difficulty in ("trainee", "standard", "veteran"):
            units = dump(GAME.new(scenario, ["marines"], {"difficulty": difficulty}, Seeded(7)))[
                "units"
            ]
            xenos = [u for u in units if u["side"] == "xenos"]
            assert len(xenos) == 30, (scenario, difficulty)
            marines |= {u["id"] for u in units if u["side"] != "xenos"}
    assert len(marines) + 30 == 40
    cards = dump(GAME.new("op-04", ["marines", "xeno"], {}, Seeded(7)))["mutation"]
    deck = [*cards["hand"], *cards["draw_pile"]]
    assert len(deck) == len(set(deck)) == 20


def test_the_rulebooks_named_marines() -> None:
    """Marine units (rulebook, page 8): the Lieutenant is Smith, the Sergeants Fox and Krauss,
    the Corporals Berns (Flamethrower) and Zac (Gunner); the rest are Privates."""
    names = {f.id: f.name for f in view(GAME.new("solo-a", ["marines"], {}, Seeded(7))).figures}
    assert "Smith" in names["lt"]
    assert "Fox" in names["fox"] and "Krauss" in names["krauss"]
    assert "Berns" in names["berns"] and "Zac" in names["zac"]
    assert all(names[k].startswith("Pvt.") for k in ("bates", "ortiz"))
