"""The View: every hex, sides, figures, face-down Signals, panels and header."""

from __future__ import annotations

from galaxy_helpers import at, blank, put_agent, put_alien

from engine.core.dice import SeededDice
from engine.galaxy import GAME
from engine.galaxy.board import load_map
from engine.galaxy.state import SignalState


def test_view_describes_the_board_and_hides_signal_identity() -> None:
    state = blank(["marine", "sniper"], human_view="on")
    put_agent(state, "marine", "G5")
    put_agent(state, "sniper", "F5")
    beta = put_alien(state, "xeno-beta-blue-1", "C9", controller="sniper")
    state.signals = [SignalState(id="s1", token="alien-2", hex=at("J9"))]
    view = GAME.view(state, None)
    board = load_map("crash-site")
    assert view.board == "hex" and len(view.cells) == len(board.area_of)
    cell = next(c for c in view.cells if c.coord == "G5")
    assert cell.area == "d" and cell.room == "shuttle" and "centre" in cell.marks
    assert "teleport:hit" in next(c for c in view.cells if c.coord == "B3").marks
    kinds = {e.kind for e in view.edges}
    assert {"wall", "door", "window"} <= kinds
    figures = {f.id: f for f in view.figures}
    assert figures["marine"].side == "player" and figures["marine"].facing is not None
    assert figures[beta.id].side == "enemy" and figures[beta.id].seat == "sniper"
    assert figures[beta.id].health == 4
    assert [(t.kind, t.label) for t in view.tokens] == [("signal", "s1")]
    assert "alien-2" not in view.model_dump_json()
    assert {p.seat for p in view.panels} == {"marine", "sniper"}
    assert view.header["round"].startswith("1/")


def test_new_game_view_for_every_mission() -> None:
    for scenario in ("m1", "m2", "m3", "m4"):
        state = GAME.new(scenario, ["marine", "hulk"], {}, SeededDice(3))
        state = GAME.advance(state, SeededDice(4)).state
        view = GAME.view(state, "marine")
        assert view.title and view.cells and len(view.figures) >= 2
        assert not view.finished


def test_a_mission_lost_on_time_shows_the_rounds_played_not_one_more() -> None:
    state = blank(["marine"])
    put_agent(state, "marine", "G5")
    limit = int(GAME.view(state, None).header["round"].split("/")[1])
    state.round = limit + 1  # the mission ends as the round after the last one begins
    assert GAME.view(state, None).header["round"] == f"{limit}/{limit}"
