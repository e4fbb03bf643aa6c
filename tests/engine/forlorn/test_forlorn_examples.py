"""The rulebook's worked examples, reproduced with scripted dice (the acceptance suite)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from conftest import put, unit

from engine.core.dice import ScriptedDice
from engine.core.errors import RuleError
from engine.core.events import Attacked, Event
from engine.core.game import Action
from engine.forlorn import GAME
from engine.forlorn.combat import xeno_attack
from engine.forlorn.spawn import solo_spawn
from engine.forlorn.state import ForlornState, Order
from engine.forlorn.turn import action_points, ap_phase
from engine.forlorn.world import board_of
from engine.forlorn.xenos import run_ai_phase

Fresh = Callable[..., ForlornState]


def test_ap_example_higher_die(fresh: Fresh) -> None:
    """4.0: rolls of 2 and 4 give 4 Action Points."""
    state = fresh()
    put(state, "bates", "B6", "N")
    put(state, "ortiz", "C6", "N")
    state.phase = "start"
    events: list[Event] = []
    ap_phase(state, ScriptedDice([2, 4]), events)
    assert state.ap == 4
    assert state.phase == "marine"


def test_ap_example_minimum_is_one_per_marine(fresh: Fresh) -> None:
    """4.1/4.2: a SGT and four other Marines roll 1 and 1: 1 +1 doubles +1 SGT = 3, raised to 5."""
    state = fresh()
    for uid, at in (
        ("fox", "G5"),
        ("zac", "H5"),
        ("berns", "I5"),
        ("bates", "J5"),
        ("ortiz", "K5"),
    ):
        put(state, uid, at, "N")
    total, parts = action_points(state, [1, 1])
    assert total == 5
    assert "+1 doubles" in parts and "+1 Sgt. Fox" in parts


def test_ap_doubles_leadership_and_bio_scanner(fresh: Fresh) -> None:
    state = fresh()
    put(state, "lt", "G5", "N").items.append("bio-scanner")
    put(state, "bates", "H5", "N")
    total, _ = action_points(state, [3, 3])
    assert total == 3 + 1 + 2 + 2  # die, doubles, LT leadership 2, Bio-Scanner


def combat_example(fresh: Fresh) -> ForlornState:
    """8.3's picture as squares in the command room: Fox faces north with a Drone straight
    ahead (range 1), a Warrior diagonally ahead (range 2) and a Blaster behind the Drone;
    Bates faces north just beyond the Blaster, with all three Xenos behind him."""
    state = fresh()
    put(state, "fox", "H9", "N")
    put(state, "bates", "H6", "N")
    put(state, "d1", "H8")
    put(state, "w1", "I8")
    put(state, "b1", "H7")
    return state


def test_combat_example_lines_of_sight(fresh: Fresh) -> None:
    state = combat_example(fresh)
    labels = {
        (a.verb, a.args.get("unit"), a.args.get("target"))
        for a in GAME.legal_actions(state, "marines")
    }
    assert ("attack", "fox", "d1") in labels
    assert ("attack", "fox", "w1") in labels
    assert ("attack", "fox", "b1") not in labels  # the Drone blocks the line
    assert not any(v == "attack" and u == "bates" for v, u, _ in labels)  # all behind Bates
    with pytest.raises(RuleError, match="line of sight"):
        GAME.apply(
            state,
            "marines",
            Action(verb="attack", args={"unit": "fox", "target": "b1"}),
            ScriptedDice(),
        )


def test_combat_example_fox_wounds_the_warrior(fresh: Fresh) -> None:
    """Fox rolls 1 2 3 against the Warrior's Defence Value 2: one Hit, a Wound."""
    state = combat_example(fresh)
    step = GAME.apply(
        state,
        "marines",
        Action(verb="attack", args={"unit": "fox", "target": "w1"}),
        ScriptedDice([1, 2, 3]),
    )
    warrior = step.state.unit("w1")
    assert warrior is not None and warrior.hits == 1 and warrior.status == "active"
    assert step.state.ap == state.ap - 1
    attack = next(e for e in step.events if isinstance(e, Attacked))
    assert attack.faces == ["1", "2", "3"] and attack.hits == 1
    assert "needs 3+" in attack.text


def test_combat_example_bates_spin_attack(fresh: Fresh) -> None:
    """Bates spins at the Blaster: one die (2 - 1) needing 3+ (range 1 + 1 for the spin)."""
    state = combat_example(fresh)
    step = GAME.apply(
        state,
        "marines",
        Action(verb="act", args={"unit": "bates", "what": "spin", "target": "b1"}),
        ScriptedDice([3]),
    )
    attack = next(e for e in step.events if isinstance(e, Attacked))
    assert len(attack.faces) == 1 and "needs 3+" in attack.text
    assert unit(step.state, "b1").status == "pool"
    assert unit(step.state, "bates").facing == "S"


def test_combat_example_xenos_strike_back(fresh: Fresh) -> None:
    """The Warrior needs a 6 against Fox (range 2 + Defence 3); the Drone needs 5+."""
    state = combat_example(fresh)
    fox, warrior, drone = state.unit("fox"), state.unit("w1"), state.unit("d1")
    assert fox and warrior and drone
    events: list[Event] = []
    xeno_attack(state, warrior, fox, ScriptedDice([5, 5]), events)
    assert "needs 6+" in events[0].text and fox.status == "active"
    events = []
    xeno_attack(state, drone, fox, ScriptedDice([4, 4]), events)
    assert "needs 5+" in events[0].text and fox.status == "active"
    events = []
    xeno_attack(state, drone, fox, ScriptedDice([5, 2, 4]), events)  # 4: the grenade check
    assert unit(state, "fox").status == "dead"
    assert state.grenades == 3


def test_interrupt_example(fresh: Fresh) -> None:
    """5.7: a Drone bounds at a Marine; he interrupts at range 2 and misses, once more when it
    moves again, and not a third time when it attacks without moving."""
    state = fresh()
    put(state, "bates", "J9", "N")
    put(state, "d1", "J5")
    state.orders = [Order(unit="bates", aps=3, range=2)]
    state.ap = 3
    events: list[Event] = []
    # Interrupts roll one die each (2 dice - 1); the Drone then rolls 2 dice.
    dice = ScriptedDice([1, 1, 2, 2])
    run_ai_phase(state, dice, events)
    shots = [e for e in events if isinstance(e, Attacked) and e.attacker == "bates"]
    assert len(shots) == 2
    assert all(len(s.faces) == 1 for s in shots)
    assert "range 2" in shots[0].text and "range 1" in shots[1].text
    assert state.ap == 1 and state.orders[0].spent == 2
    claws = [e for e in events if isinstance(e, Attacked) and e.attacker == "d1"]
    assert len(claws) == 1
    assert dice.remaining == 0


def test_spawn_example_6d_drones(fresh: Fresh) -> None:
    """13.3: 6d Drones rolling 1 1 3 4 5 5 stack two on vents 1 and 5, one on 3 and 4."""
    state = fresh()
    events: list[Event] = []
    solo_spawn(state, {"drone": 6}, ScriptedDice([1, 1, 3, 4, 5, 5]), events)
    board = board_of(state)
    from engine.forlorn.board import label

    counts = {n: len(state.at(label(v))) for n, v in board.vents.items()}
    assert counts == {1: 2, 2: 0, 3: 1, 4: 1, 5: 2, 6: 0}


def test_standing_grenade_order_lobs_at_a_moving_xeno(fresh: Fresh) -> None:
    """5.7: a Throw Grenade interrupt from a standing order; the blast dice are not reduced."""
    state = fresh()
    put(state, "bates", "J9", "N")
    put(state, "d1", "J5")
    state.ap = 2
    step = GAME.apply(
        state,
        "marines",
        Action(
            verb="orders",
            args={
                "unit": "bates",
                "order": "interrupt",
                "aps": "1",
                "range": "6",
                "weapon": "grenade",
            },
        ),
        ScriptedDice(),
    )
    state = step.state
    assert state.orders[0].grenade
    events: list[Event] = []
    dice = ScriptedDice([3, 1])
    run_ai_phase(state, dice, events)
    assert state.grenades == 2 and state.ap == 1
    assert unit(state, "d1").status == "pool"
    assert dice.remaining == 0


def test_movement_example_gunner_carries_one_mp_into_the_next_ap(fresh: Fresh) -> None:
    """5.1: a Private gets 6 MP per AP, the Gunner 4; the Gunner with 1 MP left after opening
    a door spends another AP in a row and has 5 MP to move."""
    state = fresh()
    put(state, "zac", "H4", "E")  # in the corridor west of the command room's north door
    put(state, "bates", "C7", "S")

    def do(s: ForlornState, verb: str, **args: str) -> ForlornState:
        return GAME.apply(s, "marines", Action(verb=verb, args=args), ScriptedDice()).state

    s1 = do(state, "move", unit="zac", to="I4")  # 1 AP: 4 MP, 3 left
    s1 = do(s1, "move", unit="zac", to="S")  # 2 left
    s1 = do(s1, "act", unit="zac", what="open", to="I5")  # 1 left
    assert s1.mp_left == 1 and s1.ap == state.ap - 1
    s2 = do(s1, "move", unit="zac", to="I9")  # five squares: 1 + 4 MP from a second AP
    assert s2.ap == s1.ap - 1 and s2.mp_left == 0
    assert s2.unit("zac").at == "I9"  # type: ignore[union-attr]
    s3 = do(state, "move", unit="bates", to="C8")
    assert s3.mp_left == 5  # a Private's AP buys 6 MP
