"""Operation Strikeback mission 1 (`os1`): its setup (ordered Event deck, hidden Teleport
Point, Knights on top of the NPC deck), Special Events A and B as the storybook prints them,
the fires and the Firefighters, the Flying Critter's seize and the Objectives table."""

from __future__ import annotations

import pytest

from engine.core.dice import ScriptedDice, SeededDice
from engine.core.errors import RuleError
from engine.core.events import Event
from engine.core.game import Action
from engine.core.hexgrid import neighbours
from engine.galaxy import GAME, attack, lifecycle, objectives, phases
from engine.galaxy.agent import start_turn
from engine.galaxy.board import label
from engine.galaxy.content import mission as mission_by_key
from engine.galaxy.state import GalaxyState
from engine.galaxy.strikeback import play
from engine.galaxy.strikeback.mission_rules import os1
from engine.galaxy.strikeback.status import sb_state
from engine.galaxy.world import adjacent, board_of, co, free, hx


def mission(seats: list[str], seed: int = 1) -> GalaxyState:
    return GAME.new("os1", seats, {"human-view": "off"}, SeededDice(seed))


def run_event(state: GalaxyState, card_id: str) -> list[Event]:
    """Put a card on top of the Event deck and resolve an Event phase."""
    state.event_deck.draw_pile.append(card_id)
    events: list[Event] = []
    phases.event_phase(state, SeededDice(5), events)
    return events


def test_os1_is_listed_and_sets_up_the_storybook_deck_and_tokens() -> None:
    assert "os1" in [s.key for s in GAME.scenarios()]
    for seed in (1, 2, 3, 4):
        state = mission(["marine", "biotech"], seed)
        top_first = list(reversed(state.event_deck.draw_pile))
        assert len(top_first) == 7
        assert (top_first[0], top_first[2], top_first[6]) == ("os1-a", "os1-b", "os1-c")
        assert top_first.index("os1-d") in (4, 5)  # between the 5th and the 6th Event
    assert state.expansion is not None
    assert sb_state(state).npc_deck == ["knight-1", "knight-2"]  # Archons out, Knights on top
    assert sb_state(state).hidden_tps == ["alien"] and "alien" in state.destroyed_tps
    view = GAME.view(state, None)
    assert "teleports destroyed" not in view.header


def test_special_event_a_lands_two_xeno_deltas_opens_a_point_and_stacks_sky_hunters() -> None:
    state = mission(["marine"])
    state.signals = []
    state.round = 1
    marine = state.agents["marine"]
    m1 = play.mark_hex(state, "m1")
    marine.hex = co(m1)  # standing on mark #1 when the Xeno-Delta lands
    events = run_event(state, "os1-a")
    assert marine.wounds == 1 and marine.hex != co(m1)
    cards = sorted(a.card for a in state.aliens)
    assert cards[:2] == ["xeno-delta-blue", "xeno-delta-green"]
    assert state.expansion is not None and sb_state(state).hidden_tps == []
    assert "alien" not in state.destroyed_tps
    assert state.ce_deck.draw_pile[-1] == "os-28b"
    assert "os-28a" in state.ce_deck.draw_pile
    assert any("teleports in" in e.text or "Signal" in e.text for e in events)


def test_special_event_b_brings_the_knight_firefighters_devices_and_the_first_fire() -> None:
    state = mission(["marine", "biotech", "sniper"])
    state.signals, state.round = [], 3
    state.alpha = "biotech"
    run_event(state, "os1-a")
    run_event(state, "os1-b")
    assert state.expansion is not None
    assert [n for n in sb_state(state).npcs] == ["knight-1"]
    assert sb_state(state).npcs["knight-1"].controller == "biotech"
    assert os1.fire(state).flames == [3]
    species = sorted(a.card for a in state.aliens if a.card.startswith("flying"))
    assert species == ["flying-critter-blue", "flying-critter-green"]
    # The Alpha Agent elects two Firefighters, then hands out the harpoon and the jet boots.
    asked = []
    default = GAME.waiting_on(state).default  # the answer window's default: himself
    assert default is not None and default.args["option"] == "biotech"
    while state.pending is not None:
        assert state.pending.seat == "biotech"
        pending = state.pending
        asked.append(str(pending.data["question"]))  # a mission's and a device's prompt
        state = GAME.apply(
            state,
            "biotech",
            Action(verb="choose", args={"option": state.pending.options[0]}),
            SeededDice(1),
        ).state
    firefighter = "Name a Firefighter (gets a Fire Extinguisher)"
    harpoon, boots = (f"Alpha Agent: who receives the {d}" for d in ("Harpoon", "Jet Boots"))
    assert asked == [firefighter, firefighter, harpoon, boots]
    assert state.expansion is not None and len(os1.fire(state).firefighters) == 2
    assert sorted(k for keys in sb_state(state).devices.values() for k in keys) == [
        "harpoon",
        "jet-boots",
    ]


def test_a_fire_every_event_from_the_next_round_on_the_lowest_free_waypoint() -> None:
    state = mission(["marine"])
    state.signals, state.round = [], 3
    run_event(state, "os1-b")
    state.pending = None
    assert state.expansion is not None and os1.fire(state).flames == [3]
    run_event(state, "ev02")
    assert sorted(os1.fire(state).flames) == [1, 3]
    run_event(state, "ev02")
    assert sorted(os1.fire(state).flames) == [1, 2, 3]


def test_firefighter_puts_out_a_fire_then_must_recharge() -> None:
    state = mission(["marine"])
    assert state.expansion is not None
    os1.fire(state).flames = [3]
    os1.fire(state).firefighters = {"marine": True}
    state.phase, state.alpha, state.turn_order, state.turn_index = "agent", "marine", ["marine"], 0
    state.pending, state.signals = None, []
    marine = state.agents["marine"]
    wp3 = play.mark_hex(state, "wp3")
    marine.hex = co(wp3)
    start_turn(state, marine)
    listed = GAME.legal_actions(state, "marine")
    put_out = next(a for a in listed if a.args.get("what") == "extinguish")
    state = GAME.apply(state, "marine", put_out, SeededDice(1)).state
    assert state.expansion is not None and os1.fire(state).flames == []
    assert os1.fire(state).firefighters["marine"] is False
    with pytest.raises(RuleError):
        GAME.apply(state, "marine", put_out, SeededDice(1))


def test_objectives_table_reads_fires_and_the_dead() -> None:
    state = mission(["marine", "biotech", "sniper"])
    assert state.expansion is not None
    state.round = 8
    for fires, outcome in (([1, 2], "accomplished"), ([1, 2, 3], "partial")):
        state.outcome = None
        os1.fire(state).flames = fires
        objectives.mission_status(state, [])
        assert state.outcome == outcome
    state.outcome, state.round = None, 5
    os1.fire(state).flames = [1, 2, 3, 4]
    objectives.mission_status(state, [])
    assert state.outcome == "failed"
    state.outcome = None
    os1.fire(state).flames = []
    state.agents["marine"].dead = state.agents["biotech"].dead = True  # 2 of 3 (half rounded up)
    objectives.mission_status(state, [])
    assert state.outcome == "failed"


def test_objectives_are_read_in_their_printed_order_at_the_end() -> None:
    """The printed table puts the two end-of-mission rows first: 2 of 3 agents dead in the
    last round with two fires is accomplished (the engine used to read the dead first and say
    failed); before the end the same losses fail the mission."""
    state = mission(["marine", "biotech", "sniper"])
    state.agents["marine"].dead = state.agents["biotech"].dead = True
    os1.fire(state).flames = [1, 2]
    state.round = 8  # the Strategy phase after the last Event card
    objectives.mission_status(state, [])
    assert state.outcome == "accomplished"
    state.outcome, state.round = None, 6
    objectives.mission_status(state, [])
    assert state.outcome == "failed"


def test_every_missions_objectives_follow_the_printed_table_order() -> None:
    """Storybook 7's tables, row by row (a trailing row of ours ends a mission whose deck
    never runs out at its round limit)."""
    printed = {
        "os1": ["accomplished", "partial", "failed", "failed"],
        "os2": ["accomplished", "failed"],
        "os3": ["accomplished", "partial", "failed"],
        "os4": ["accomplished", "failed"],
        "os5": ["accomplished", "partial", "failed", "failed"],
        "os6": ["accomplished", "failed"],
    }
    for key, results in printed.items():
        rows = [o.result for o in mission_by_key(key).objectives]
        assert rows[: len(results)] == results, key
        assert all(r == "failed" for r in rows[len(results) :]), key


def test_seize_example_1_the_flying_critter_carries_the_immobilized_biotech_away() -> None:
    state = mission(["biotech"])
    state.signals, state.aliens = [], []
    biotech = state.agents["biotech"]
    assert biotech.hex is not None
    spot = next(
        h
        for h in neighbours(hx(biotech.hex))
        if free(state, h) and adjacent(state, biotech.hex, co(h))
    )
    critter = lifecycle.place_alien(state, "flying-critter-green", spot, [], "is placed")
    before, taken_from = critter.hex, biotech.hex
    # Talons 2 BLUE: hit+hit+bolt, alien = 2 Hits and a Bolt (Immobilize; Catcher). The
    # Biotech defends 2 dice with no Shield and no Bolt (faces 1, 1).
    events: list[Event] = []
    attack.alien_attack(state, critter, biotech, "melee", ScriptedDice([4, 1, 1, 1]), events, "t")
    assert "immobilize" in biotech.conditions
    assert critter.hex != before
    assert biotech.hex is not None and adjacent(state, biotech.hex, critter.hex)
    seized = next(e.text for e in events if "seizes" in e.text)
    # told from where the Biotech was taken (his hex, not the critter's) to where he lands
    assert f"from {label(hx(taken_from))} to {label(hx(biotech.hex))}" in seized, seized
    assert board_of(state).area_of[hx(critter.hex)] != board_of(state).area_of[hx(before)]
