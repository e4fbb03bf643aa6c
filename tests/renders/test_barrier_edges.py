"""Operation Strikeback Barrier sides (5.1) reach the board picture and its legend."""

from __future__ import annotations

import io

from PIL import Image

from engine.core.dice import SeededDice
from engine.core.view import EdgeView
from engine.galaxy import GAME
from renders import render_board
from renders.chrome import legend_items


def test_a_barrier_edge_is_drawn_and_explained() -> None:
    state = GAME.new("m1", ["marine"], {}, SeededDice(1))
    view = GAME.view(state, None)
    cell_a, cell_b = view.cells[0].coord, view.cells[1].coord
    plain = render_board(view)
    view.edges.append(EdgeView(a=cell_a, b=cell_b, kind="barrier"))
    striped = render_board(view)
    assert any("barrier" in item for item in legend_items(view))
    assert Image.open(io.BytesIO(striped.data)).format == "PNG"
    assert striped.data != plain.data
