"""Operation Strikeback mission 4 (`os4`, The Elysium): the ordered Event deck of the
storybook's own example, Shield Generators and Reinforced Doors attacked with the normal attack
(no Defend roll, scripted dice), BLOCK tokens, the Knight handed out in the first Strategy
phase, the Archon's free shot, the Nexus removed from play, Sally, the Power Suits the events
drop, and the Objectives table."""

from __future__ import annotations

import pytest

from engine.core.dice import DiceExhausted, ScriptedDice, SeededDice
from engine.core.errors import RuleError
from engine.core.events import Event
from engine.core.game import Action
from engine.galaxy import GAME, objectives, phases
from engine.galaxy.agent import start_turn
from engine.galaxy.board import label
from engine.galaxy.lifecycle import kill_alien, place_alien
from engine.galaxy.state import AgentState, GalaxyState
from engine.galaxy.strikeback import objects, play
from engine.galaxy.strikeback.mission_rules import os4
from engine.galaxy.strikeback.status import sb_state, sb_state_or_none
from engine.galaxy.world import adjacent, co, hex_arg, hx


def mission(seats: list[str], seed: int = 1) -> GalaxyState:
    return GAME.new("os4", seats, {"human-view": "off"}, SeededDice(seed))


def run_event(state: GalaxyState, card_id: str, dice: object = None) -> list[Event]:
    state.event_deck.draw_pile.append(card_id)
    events: list[Event] = []
    phases.event_phase(state, dice or SeededDice(5), events)  # type: ignore[arg-type]
    return events


def my_turn(state: GalaxyState, seat: str, at: str) -> AgentState:
    state.phase, state.alpha, state.turn_order, state.turn_index = "agent", seat, [seat], 0
    state.pending, state.signals, state.aliens = None, [], []
    assert state.expansion is not None
    sb_state(state).asks = []  # the setup's device picks are not this test's business
    agent = state.agents[seat]
    agent.hex = co(hex_arg(at))
    start_turn(state, agent)
    return agent


def test_os4_deck_follows_the_storybook_example_and_setup_places_generators_and_blocks() -> None:
    assert "os4" in [s.key for s in GAME.scenarios()]
    for seed in (1, 2, 3):
        top = list(reversed(mission(["marine"], seed).event_deck.draw_pile))
        assert len(top) == 10 and "os4-b" not in top  # Special Event B is set aside
        assert set(top[:2]) == {"os-p1", "os-f1"} and top[2] == "os4-e"
        assert set(top[3:5]) == {"os4-c", "os-k1"}
        assert set(top[5:8]) == {"os-m1", "os-i1", "os-q1"} and set(top[8:]) == {"os-t1", "os-j1"}
    state = mission(["marine", "biotech"])
    layer = sb_state_or_none(state)
    assert layer is not None
    assert {k: (o.hp, o.mark) for k, o in layer.objects.items()} == {
        "gen1": (5, "wp1"),
        "gen2": (5, "wp2"),
    }
    assert layer.npc_deck == ["knight-2"]  # one Knight and one Archon aside, one Archon out
    assert os4.mine(state).sally == 3
    sides = [sorted([hex_arg(a), hex_arg(b)]) for a, b in os4.DOOR_SIDES]
    held = [sorted(hx(c) for c in pair) for pair in state.locked]
    assert all(s in held for s in sides)
    # A BLOCK side cannot be bashed open.
    marine = my_turn(state, "marine", "Q4")
    assert not any(a.args.get("what") == "bash" for a in GAME.legal_actions(state, "marine"))
    assert marine.hex is not None


def test_generator_takes_every_hit_as_a_wound_without_a_defend_roll() -> None:
    state = mission(["marine"])
    my_turn(state, "marine", "L4")  # two Areas from Waypoint 1 (N4), in sight
    attack = next(
        a
        for a in GAME.legal_actions(state, "marine")
        if a.verb == "attack" and a.args["target"] == "gen1"
    )
    assert attack.args["weapon"] in ("improved-rifle", "service-pistol")
    shot = Action(
        verb="attack", args={"unit": "marine", "target": "gen1", "weapon": "improved-rifle"}
    )
    # Improved Rifle: 4 RED dice; faces 2 (Hit, Hit, Bolt) x2, 4 (Hit, Jam), 1 (Alien): 5 Hits.
    # No Defend roll follows: a fifth die would exhaust the script.
    state = GAME.apply(state, "marine", shot, ScriptedDice([2, 2, 4, 1])).state
    assert state.expansion is not None
    gen = sb_state(state).objects["gen1"]
    assert gen.wounds == 5 and gen.destroyed
    assert play.lit_marks(state) == {"wp1": "flame"}
    assert "gen1" not in objects.standing(state)


def test_an_alien_over_the_waypoint_shields_the_generator() -> None:
    state = mission(["marine"])
    marine = my_turn(state, "marine", "L4")
    place_alien(state, "xeno-beta-green-1", play.mark_hex(state, "wp1"), [], "lands")
    assert objects.attack_problem(state, marine, 0, "gen1") == (
        "cannot attack the Shield Generator 1: an alien stands over it"
    )
    with pytest.raises(RuleError):
        GAME.apply(
            state,
            "marine",
            Action(
                verb="attack", args={"unit": "marine", "target": "gen1", "weapon": "improved-rifle"}
            ),
            SeededDice(1),
        )


def test_both_generators_bring_special_event_b_and_both_doors_lift_the_blocks() -> None:
    state = mission(["marine", "biotech"])
    assert state.expansion is not None
    events: list[Event] = []
    sb_state(state).objects["gen1"].destroyed = True
    sb_state(state).objects["gen2"].wounds = 5
    sb_state(state).objects["gen2"].destroyed = True
    play.rules(state).object_destroyed(state, "gen2", SeededDice(1), events)
    assert state.event_deck.draw_pile[-1] == "os4-b"
    state.alpha = "marine"
    state.agents["marine"].hex = co(hex_arg("L6"))
    run_event(state, "os4-b", SeededDice(3))
    layer = sb_state(state)
    assert {k: o.hp for k, o in objects.standing(state).items()} == {"door3": 10, "door4": 10}
    assert any(a.card == "xeno-beast-red-1" for a in state.aliens)
    assert state.ce_deck.draw_pile[-1] == "os-11b" and "os-11a" in state.ce_deck.draw_pile
    suit = next(iter(layer.suits.values()))
    assert suit.mark == 1 and suit.batteries == 4
    assert suit.hex is not None and adjacent(state, suit.hex, co(hex_arg("L6")))
    for key in ("door3", "door4"):
        layer.objects[key].wounds, layer.objects[key].destroyed = 10, True
        play.rules(state).object_destroyed(state, key, SeededDice(1), events)
    assert os4.BLOCK not in layer.blocks
    sides = [sorted([hex_arg(a), hex_arg(b)]) for a, b in os4.DOOR_SIDES]
    assert not any(sorted(hx(c) for c in pair) in sides for pair in state.locked)


def test_the_alpha_agent_hands_the_knight_out_in_the_first_strategy_phase() -> None:
    state = mission(["marine", "biotech", "sniper"], seed=4)
    dice = SeededDice(9)
    asked = None
    for _ in range(40):  # the Alpha Agent, device picks, then the mission's Reinforcements
        state = GAME.advance(state, dice).state
        pending = state.pending
        assert pending is not None
        if pending.kind == "sb-mission":
            asked = pending
            break
        answer = "marine" if "marine" in pending.options else pending.options[0]
        state = GAME.apply(
            state, pending.seat, Action(verb="choose", args={"option": answer}), dice
        ).state
    assert asked is not None and asked.seat == state.alpha
    assert asked.data["question"] == "Which agent receives the Knight NPC?"
    assert sorted(asked.options) == ["biotech", "marine", "sniper"]
    state = GAME.apply(
        state, asked.seat, Action(verb="choose", args={"option": "biotech"}), dice
    ).state
    state = GAME.advance(state, dice).state
    assert state.expansion is not None
    assert sb_state(state).npcs["knight-1"].controller == "biotech"
    knight, biotech = state.agents["knight-1"], state.agents["biotech"]
    assert knight.hex is not None and biotech.hex is not None
    assert adjacent(state, knight.hex, biotech.hex)


def test_guardians_wake_archon_nexus_guards_and_the_free_shot_at_the_closest_alien() -> None:
    state = mission(["marine", "biotech"])
    state.signals, state.alpha = [], "marine"
    far = place_alien(state, "xeno-beta-green-1", hex_arg("E6"), [], "lands")
    # Special Event C (our letter for the first printed effect): the Archon lands on #1 (L6),
    # the Nexus in the Barrier Hexes, Close Encounter #9 into the deck, then the free shot: both
    # Nexus stand 4 hexes from L6, the Xeno-Beta 7; the tie goes by the controller's standing
    # order for the NPC (default: the weakest), the Green Nexus. Proton Rifle: 3 RED dice.
    # Six Hits (three faces 2) against the Nexus: High Impact lets it roll 5 BLUE dice, all
    # Alien faces, so 6 wounds kill it (5 HP) and it leaves play for the Warehouse.
    events = run_event(state, "os4-c", ScriptedDice([2, 2, 2, 1, 1, 1, 1, 1], picks=[0] * 9))
    archon = state.agents["archon-1"]
    assert archon.hex == co(play.mark_hex(state, "m1"))
    assert state.expansion is not None and "archon-1" in sb_state(state).npcs
    nexus = {a.card: label(hx(a.hex)) for a in state.aliens if a.card.startswith("nexus")}
    assert nexus == {"nexus-blue-1": "P7"}  # the green one stood in O3 until the shot
    assert "os-09" in state.ce_deck.draw_pile
    shot = next(e.text for e in events if e.text.startswith("The Archon fires"))
    assert "Nexus" in shot and "- 6 Hits" in shot
    assert os4.mine(state).warehouse == ["nexus-green-1"]
    assert far.wounds == 0


def test_a_dead_nexus_leaves_play_for_the_warehouse() -> None:
    state = mission(["marine"])
    events: list[Event] = []
    nexus = place_alien(state, "nexus-blue-1", hex_arg("P7"), events, "lands")
    beta = place_alien(state, "xeno-beta-green-1", hex_arg("L2"), events, "lands")
    kill_alien(state, nexus, events)
    kill_alien(state, beta, events)
    assert state.expansion is not None
    assert os4.mine(state).warehouse == ["nexus-blue-1"]
    assert "nexus-blue-1" not in state.alien_deck.all_cards()
    assert "xeno-beta-green-1" in state.alien_deck.discard_pile


def test_sally_fires_three_times_from_its_hex() -> None:
    state = mission(["marine"])
    my_turn(state, "marine", "N6")  # on Sally
    target = place_alien(state, "xeno-beta-green-1", hex_arg("N4"), [], "lands")
    listed = [a for a in GAME.legal_actions(state, "marine") if a.args.get("what") == "sally"]
    assert [a.args["target"] for a in listed] == [target.id]
    # 4 RED dice, all Alien faces: no Hit, so no Defend roll either.
    state = GAME.apply(state, "marine", listed[0], ScriptedDice([1, 1, 1, 1])).state
    assert state.expansion is not None and os4.mine(state).sally == 2
    os4.mine(state).sally = 0
    state.agents["marine"].action_used = False
    assert not [a for a in GAME.legal_actions(state, "marine") if a.args.get("what") == "sally"]
    with pytest.raises(DiceExhausted):  # a Hit is defended: Sally's attack is a normal one
        os4.mine(state).sally = 1
        GAME.apply(state, "marine", listed[0], ScriptedDice([2, 1, 1, 1]))


def test_armour_drop_puts_a_mark_one_suit_with_three_batteries_on_mark_two() -> None:
    state = mission(["marine"])
    state.signals = []
    run_event(state, "os4-e")
    assert state.expansion is not None
    suit = next(iter(sb_state(state).suits.values()))
    assert (suit.mark, suit.batteries, suit.hex) == (1, 3, co(play.mark_hex(state, "m2")))


def test_objectives_every_agent_inside_the_base_or_the_deck_spent() -> None:
    state = mission(["marine", "biotech"])
    state.agents["marine"].hex = co(hex_arg("S3"))
    state.agents["biotech"].hex = co(hex_arg("L6"))
    objectives.mission_status(state, [])
    assert state.outcome is None
    state.agents["biotech"].hex = co(hex_arg("T6"))
    objectives.mission_status(state, [])
    assert state.outcome == "accomplished"
    state.outcome = None
    state.agents["biotech"].hex = co(hex_arg("L6"))
    state.event_deck.draw_pile = []
    objectives.mission_status(state, [])
    assert state.outcome == "failed"
