"""What players read in Operation Strikeback play (issue #31, item 8): prompts that name what
they hand out, cards named when they enter a deck, a defence told once, and no Prone where
Fighting Poses are off."""

from __future__ import annotations

from engine.core.dice import ScriptedDice, SeededDice
from engine.core.events import Event
from engine.core.game import Action
from engine.core.hexgrid import neighbours
from engine.galaxy import GAME, attack, lifecycle
from engine.galaxy.state import GalaxyState
from engine.galaxy.strikeback import devices, play
from engine.galaxy.strikeback.status import StrikebackState
from engine.galaxy.world import board_of, co, hx


def texts(events: list[Event]) -> list[str]:
    return [e.text for e in events if e.text]


def test_the_device_hand_out_prompts_name_the_harpoon_and_the_jet_boots() -> None:
    """Mission 1's Special Event B hands out two devices in a row: each question names its
    device (both used to read "Who receives the device")."""
    state = GAME.new("os1", ["marine", "biotech"], {}, SeededDice(1))
    state.pending = None
    play.sb(state).asks = [f"{devices.ASK}harpoon", f"{devices.ASK}jet-boots"]
    play.ask_next(state)
    first = GAME.waiting_on(state).text
    assert "Harpoon" in first and "Jet Boots" not in first
    pending = state.pending
    assert pending is not None
    pick = Action(verb="choose", args={"option": pending.options[0]})
    state = GAME.apply(state, pending.seat, pick, SeededDice(1)).state
    second = GAME.waiting_on(state).text
    assert "Jet Boots" in second and "Harpoon" not in second


def test_the_close_encounter_cards_a_special_event_adds_are_named() -> None:
    state = GAME.new("os1", ["marine"], {}, SeededDice(1))
    events: list[Event] = []
    play.apply_effect(state, {"sb": "ce-shuffle", "card": "os-28a"}, SeededDice(2), events)
    play.apply_effect(state, {"sb": "ce-top", "card": "os-28b"}, SeededDice(2), events)
    said = texts(events)
    assert any("Close Encounter #28, Sky Hunters is shuffled into" in t for t in said), said
    assert any("Close Encounter #28, Sky Hunters goes on top" in t for t in said), said


def _layered() -> GalaxyState:
    state = GAME.new("m1", ["marine"], {"human-view": "off"}, SeededDice(7))
    state.expansion = StrikebackState()
    state.signals, state.aliens, state.pending = [], [], None
    state.phase, state.alpha = "agent", "marine"
    state.turn_order, state.turn_index = ["marine"], 0
    state.agents["marine"].hex = co(board_of(state).starts[0])
    return state


def test_a_defence_against_stacked_shields_is_told_once() -> None:
    """One line tells which stack cancelled how many Hits and the Defend roll (the absorbing
    stack used to be told twice: "stack 1 absorbs 2", then "Energy Shield cancels 2")."""
    state = _layered()
    marine = state.agents["marine"]
    assert marine.hex is not None
    spot = next(h for h in neighbours(hx(marine.hex)))
    delta = lifecycle.place_alien(state, "xeno-delta-blue", spot, [], "is placed")  # [2, 1]
    events: list[Event] = []
    attack.resolve_defence(
        state, marine, [delta.id], 3, 0, "ranged", "", ScriptedDice([2]), events, "rifle"
    )
    said = texts(events)
    assert sum("defends with" in t for t in said) == 1, said
    assert sum("Energy Shield" in t for t in said) == 1, said
    assert any("Energy Shield stack 1 cancels 2; defends with" in t for t in said), said


def test_the_quakes_of_missions_5_and_6_say_prone_only_with_fighting_poses_on() -> None:
    for key, kind in (("os5", "pose-roll"), ("os6", "shake")):
        for poses in ("off", "on"):
            state = GAME.new(key, ["marine", "biotech"], {"fighting-poses": poses}, SeededDice(1))
            events: list[Event] = []
            play.rules(state).apply_effect(state, kind, {}, ScriptedDice([1] * 4), events)
            said = " ".join(texts(events))
            assert "wound" in said.lower() or "Wound" in said, said
            assert ("Prone" in said) == (poses == "on"), (key, poses, said)
