"""Mission 6's overlays reach the board picture and its legend: the Moon Rift hexes, a
deployed Underground Probe and one lying on the ground."""

from __future__ import annotations

from engine.core.dice import SeededDice
from engine.galaxy import GAME
from engine.galaxy.board import label
from engine.galaxy.strikeback.mission_rules.os6 import hunt as hunt_of
from engine.galaxy.strikeback.play import mark_hex
from engine.galaxy.world import co
from renders import render_board
from renders.chrome import legend_items


def test_rifts_and_probes_are_drawn_and_explained() -> None:
    state = GAME.new("os6", ["marine", "hulk"], {}, SeededDice(3))
    assert state.expansion is not None
    plain = render_board(GAME.view(state, None))
    hunt = hunt_of(state)
    hunt.rifts = [co(mark_hex(state, "m1")), co(mark_hex(state, "m2"))]
    hunt.deployed = [3]
    hunt.dropped = [co(mark_hex(state, "m4"))]
    view = GAME.view(state, None)
    marks = {c.coord: c.marks for c in view.cells}
    assert "rift" in marks[label(mark_hex(state, "m1"))]
    assert "probe" in marks[label(mark_hex(state, "wp3"))]
    assert [(t.coord, t.kind) for t in view.tokens if t.kind == "probe"] == [
        (label(mark_hex(state, "m4")), "probe")
    ]
    legend = " ".join(legend_items(view))
    assert "Moon Rift" in legend and "Underground Probe" in legend
    assert render_board(view).data != plain.data
