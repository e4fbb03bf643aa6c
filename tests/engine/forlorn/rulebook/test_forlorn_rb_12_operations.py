"""Rulebook chapter 12 (Operations), with 2.0's set-up order, probed through the Game protocol
(new, apply, advance, view) with scripted dice."""

from __future__ import annotations

from conftest import bare, put

from engine.core.dice import ScriptedDice, SeededDice
from engine.core.events import Note
from engine.core.game import Action
from engine.forlorn import GAME
from engine.forlorn.board import label
from engine.forlorn.state import ForlornState
from engine.forlorn.world import board_of, sq

END = Action(verb="end-turn")
KEEP = Action(verb="choose", args={"option": "keep"})
AUTO = Action(verb="choose", args={"option": "auto"})


def _xenos_on_map(state: ForlornState) -> list[str]:
    """The Xeno figures (Eggs aside) the Marines see on the board."""
    return [
        f.id for f in GAME.view(state, "marines").figures if f.side == "enemy" and f.kind != "egg"
    ]


def _on_vents(state: ForlornState) -> dict[int, list[str]]:
    board = board_of(state)
    return {
        n: [u.kind for u in state.at(label(v))]
        for n, v in sorted(board.vents.items())
        if state.at(label(v))
    }


def _in_room(state: ForlornState, room: str) -> list[str]:
    board = board_of(state)
    return [
        u.kind
        for u in state.active("xenos")
        if u.at and u.kind != "egg" and board.room_of(sq(u.at)) == room
    ]


def test_op01_automatic_xenos_arrive_after_the_marines_set_up() -> None:
    """2.0: the Marines set up, then the Xenos; Op 01 rolls its two vent Drones "after Marine
    set up" (issue #30, defect 6)."""
    state = GAME.new("op-01", ["marines"], {"difficulty": "standard"}, SeededDice(5))
    state = GAME.advance(state, ScriptedDice()).state
    assert state.phase == "deploy"
    assert _xenos_on_map(state) == []  # nothing but Eggs while the Marines set up
    state = GAME.apply(state, "marines", END, ScriptedDice()).state
    # The vent dice are rolled now: 3 and 5; then the first turn's two AP dice.
    state = GAME.advance(state, ScriptedDice([3, 5, 4, 2])).state
    assert state.phase == "marine"
    assert _on_vents(state) == {3: ["drone"], 5: ["drone"]}
    assert _in_room(state, "A") == ["drone", "drone"]


def test_op01_human_xeno_places_hers_after_the_set_up_and_the_vent_dice_follow_it() -> None:
    """With a Xeno player: no Xeno on the map at the mulligan or during the Marines' set-up;
    after it the vent Drones are rolled and she places her two Room A Drones."""
    seats = ["marines", "xeno"]
    state = GAME.new("op-01", seats, {"difficulty": "standard"}, SeededDice(5))
    assert state.phase == "mulligan"
    assert _xenos_on_map(state) == []
    state = GAME.apply(state, "xeno", KEEP, ScriptedDice()).state
    if state.phase == "xeno-place":  # 2.0: the dropped Eggs go down before the set-up
        state = GAME.apply(state, "xeno", AUTO, SeededDice(1)).state
    state = GAME.advance(state, ScriptedDice()).state
    assert state.phase == "deploy" and _xenos_on_map(state) == []
    state = GAME.apply(state, "marines", END, ScriptedDice()).state
    state = GAME.advance(state, ScriptedDice([2, 6])).state
    assert state.phase == "xeno-place"
    assert _on_vents(state) == {2: ["drone"], 6: ["drone"]}
    assert [p.zone for p in state.placements] == ["room:A", "room:A"]
    assert GAME.waiting_on(state).seats == ["xeno"]


def _turn4_end(blocker_on_vent_1: bool) -> ForlornState:
    """Op 03 at the end of turn 4: a Marine on the map, maybe a Drone on vent 1."""
    state = bare("op-03")
    put(state, "lt", "C13", "N")
    if blocker_on_vent_1:
        put(state, "d1", label(board_of(state).vents[1]))
    state.turn, state.phase = 4, "end"
    return state


def _blasters(state: ForlornState) -> list[str]:
    return sorted(u.at or "" for u in state.active("xenos") if u.kind == "blaster")


def test_op03_turn4_blaster_on_an_occupied_vent_is_not_spawned() -> None:
    """Op 03 rule 1: a Blaster whose vent is blocked is not spawned; a vent with a Xeno on it
    is blocked (11.0), not only the Maintenance Bot's (issue #30, defect 7)."""
    board_vent = board_of(_turn4_end(False)).vents
    state = _turn4_end(True)
    # Blaster dice 1 and 2; then the normal spawn (its d3) and turn 5's AP dice, spare dice.
    step = GAME.advance(state, ScriptedDice([1, 2] + [1] * 12))
    assert _blasters(step.state) == [label(board_vent[2])]
    assert any(isinstance(e, Note) and "vent 1 is blocked" in e.text for e in step.events)


def test_op03_two_blaster_dice_on_one_vent_give_one_blaster() -> None:
    """Rolls 1 and 1: the first Blaster takes vent 1, which then blocks the second (7.2)."""
    state = _turn4_end(False)
    step = GAME.advance(state, ScriptedDice([1, 1] + [1] * 12))
    vent1 = label(board_of(state).vents[1])
    assert _blasters(step.state) == [vent1]
    assert [u.kind for u in step.state.at(vent1)] == ["blaster"]
