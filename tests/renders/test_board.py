"""Structure, not pixels: sizes, figure placement, alt text."""

from __future__ import annotations

import io

from fixture_game import DashGame
from PIL import Image

from engine.core.dice import SeededDice
from engine.core.events import Attacked, Moved
from engine.core.view import CellView, FigureView, View
from renders import render_board, theme
from renders.board import HEADER_HEIGHT, figure_positions
from renders.geometry import place


def dash_view() -> View:
    game = DashGame()
    state = game.new("sprint", ["red", "blue"], {"pace": "2"}, SeededDice(1))
    return game.view(state, None)


def test_png_with_header_panel_and_sane_size() -> None:
    image = render_board(dash_view())
    assert image.png.startswith(b"\x89PNG") and len(image.png) < 2_000_000
    decoded = Image.open(io.BytesIO(image.png))
    assert decoded.size == (image.width, image.height)
    assert 400 <= image.width <= 2000 and 200 <= image.height <= 2000


def test_each_figure_is_drawn_where_its_cell_is() -> None:
    view = dash_view()
    image = Image.open(io.BytesIO(render_board(view).png)).convert("RGB")
    positions = figure_positions(view, place(view))
    for figure in view.figures:
        x, y = positions[figure.id]
        # Sample just off the label text, inside the token.
        pixel = image.getpixel((int(x) - 8, int(y) + HEADER_HEIGHT))
        assert pixel == theme.SIDE_FILL[figure.side], figure.id


def test_alt_text_names_every_figure() -> None:
    view = dash_view()
    alt = render_board(view).alt_text
    for figure in view.figures:
        assert f"{figure.name} ({figure.side}) at {figure.coord}" in alt


def test_spectator_view_carries_no_private_lines() -> None:
    game = DashGame()
    state = game.new("sprint", ["red"], {"pace": "2"}, SeededDice(1))
    from engine.core.game import Action

    state = game.apply(state, "red", Action(verb="act", args={"what": "peek"}), SeededDice(2)).state
    assert game.view(state, "red").private and not game.view(state, None).private


def test_hex_and_area_boards_render() -> None:
    hexes = [CellView(coord=f"H{q}{r}", col=q, row=r) for q in range(4) for r in range(3)]
    view = View(
        game="t",
        scenario="t",
        title="Hex",
        board="hex",
        cells=hexes,
        figures=[FigureView(id="a", label="A", name="agent", side="player", coord="H11")],
    )
    assert render_board(view, [Moved(figure="a", path=["H00", "H11"])]).png
    cells = [
        CellView(coord=f"c{x}{y}", col=x, row=y, area="R1" if x < 2 else "R2")
        for x in range(4)
        for y in range(2)
    ]
    area = View(
        game="t",
        scenario="t",
        title="Areas",
        board="area",
        cells=cells,
        figures=[
            FigureView(id="h", label="H", name="hero", side="player", coord="R1"),
            FigureView(id="e", label="E", name="enemy", side="enemy", coord="R2"),
        ],
    )
    image = render_board(area, [Attacked(attacker="h", target="e")])
    assert "hero (player) at R1" in image.alt_text
