"""Structure, not pixels: sizes, figure placement, hidden information, alt text, caching."""

from __future__ import annotations

import io
from functools import cache
from typing import Any

import pytest
from fixture_game import DashGame
from PIL import Image

from engine.core.dice import SeededDice, derive_seed
from engine.core.events import Attacked, Killed, Moved, Spawned
from engine.core.game import scenario_info
from engine.core.view import CellView, FigureView, View
from engine.registry import get_game
from engine.selfplay import default_seats
from renders import render_board, render_sheet, theme
from renders.bench import crowded
from renders.board import full_geometry
from renders.chrome import panel_sections
from renders.figures import short_labels
from renders.geometry import place
from renders.terrain import STATS, clear_cache, static_layer

OPENINGS = [
    ("forlorn-hope", "op-01"),
    ("forlorn-hope", "solo-b"),
    ("galaxy-defenders", "m1"),
    ("galaxy-defenders", "m4"),
    ("reichbusters", "radio-silence"),
    ("reichbusters", "wolffs-lair"),
]


@cache
def opening(game_key: str, scenario: str, seat: str | None = None) -> View:
    game: Any = get_game(game_key)
    info = scenario_info(game, scenario)
    seats = default_seats(game, scenario, None)
    state = game.new(scenario, seats, info.resolve_options({}), SeededDice(derive_seed(1, "s")))
    state = game.advance(state, SeededDice(derive_seed(1, 0))).state
    return game.view(state, seat)  # type: ignore[no-any-return]


def decode(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data)).convert("RGB")


def dash_view() -> View:
    game = DashGame()
    state = game.new("sprint", ["red", "blue"], {"pace": "2"}, SeededDice(1))
    return game.view(state, None)


def test_png_with_header_panel_and_sane_size() -> None:
    image = render_board(dash_view())
    assert image.png.startswith(b"\x89PNG") and len(image.png) < 2_000_000
    assert decode(image.png).size == (image.width, image.height)
    assert 400 <= image.width <= 2000 and 200 <= image.height <= 2000


@pytest.mark.parametrize(("game", "scenario"), OPENINGS)
def test_real_boards_full_and_focus_sizes(game: str, scenario: str) -> None:
    view = opening(game, scenario)
    full = render_board(view, [])
    focus = render_board(view, [], mode="focus")
    for image in (full, focus):
        assert len(image.png) < 2_000_000
        assert decode(image.png).size == (image.width, image.height)
    assert full.width <= 2000 and full.height <= 2000
    # Phone-sized: portrait-ish, no wider than a phone screen at 2x.
    assert 480 <= focus.width <= 720 and focus.height <= 1100


def _inside(point: tuple[float, float], poly: list[tuple[float, float]]) -> bool:
    xs, ys = [p[0] for p in poly], [p[1] for p in poly]
    return min(xs) <= point[0] <= max(xs) and min(ys) <= point[1] <= max(ys)


@pytest.mark.parametrize(("game", "scenario"), OPENINGS)
def test_each_figure_is_drawn_where_its_cell_is(game: str, scenario: str) -> None:
    view = opening(game, scenario)
    image = render_board(view, [])
    pixels = decode(image.png)
    placement = place(view, *full_geometry(view))
    counts: dict[str, int] = {}
    for f in view.figures:
        counts[f.coord.upper()] = counts.get(f.coord.upper(), 0) + 1
    offset_x, offset_y = _board_offset(image.positions, view, placement)
    r = placement.token_radius
    for f in view.figures:
        x, y = image.positions[f.id]
        board_xy = (x - offset_x, y - offset_y)
        key = placement.resolve(f.coord)
        assert key is not None, f.coord
        cells = placement.area_cells.get(key, [key]) if view.board == "area" else [key]
        assert any(_inside(board_xy, placement.polygons[c]) for c in cells), f.id
        if view.board != "area" and counts[f.coord.upper()] == 1:
            assert board_xy == placement.centres[key]
        # The token's own colour just below its label, inside every token shape.
        sample = pixels.getpixel((int(x), int(y + r * 0.62)))
        fill = theme.SIDE_FILL[f.side]
        if "down" not in [c.lower() for c in f.conditions]:
            assert sample == fill, (f.id, sample, fill)


def _board_offset(
    positions: dict[str, tuple[float, float]], view: View, placement: Any
) -> tuple[float, float]:
    """The board's offset in the image (centred under the header), from one figure."""
    from renders.figures import figure_positions

    board = figure_positions(view, placement)
    any_id = next(iter(board))
    return positions[any_id][0] - board[any_id][0], positions[any_id][1] - board[any_id][1]


def test_figures_sharing_a_cell_or_area_do_not_cover_each_other() -> None:
    view = opening("reichbusters", "wolffs-lair")
    image = render_board(view, [])
    spots = [image.positions[f.id] for f in view.figures]
    assert len(set(spots)) == len(spots)


def test_spectator_image_never_shows_private_lines_or_hidden_events() -> None:
    game: Any = get_game("forlorn-hope")
    info = scenario_info(game, "op-01")
    state = game.new("op-01", ["marines", "xeno"], info.resolve_options({}), SeededDice(1))
    state = game.advance(state, SeededDice(2)).state
    xeno, spectator = game.view(state, "xeno"), game.view(state, None)
    assert xeno.private and not spectator.private
    labels = short_labels(spectator)
    drawn = [line for s in panel_sections(spectator, labels) for line in [s.title, *s.lines]]
    assert not any(secret in line for secret in xeno.private for line in drawn)
    xeno_drawn = [line for s in panel_sections(xeno, labels) for line in s.lines]
    assert any(secret in xeno_drawn for secret in xeno.private)
    # The spectator image is exactly the xeno's image without the private part.
    assert (
        render_board(spectator, []).png
        == render_board(xeno.model_copy(update={"private": []}), []).png
    )
    assert render_board(spectator, []).png != render_board(xeno, []).png
    # An event only the xeno may see is never drawn for a spectator (a figure's move; before
    # the Xenos are placed, a Marine's).
    mover = next((f for f in spectator.figures if f.side == "enemy"), spectator.figures[0])
    secret = Moved(figure=mover.id, path=["A1", mover.coord], visible_to=["xeno"], text="x")
    assert render_board(spectator, [secret]).png == render_board(spectator, []).png
    assert (
        render_board(spectator, [secret], mode="focus").png
        == render_board(spectator, [], mode="focus").png
    )


@pytest.mark.parametrize(("game", "scenario"), OPENINGS)
def test_alt_text_names_every_figure(game: str, scenario: str) -> None:
    view = opening(game, scenario)
    alt = render_board(view, []).alt_text
    assert len(alt) <= 1000
    for figure in view.figures:
        assert figure.name in alt and figure.coord in alt


def test_alt_text_names_every_figure_on_a_crowded_board() -> None:
    view, events = crowded(opening("galaxy-defenders", "m4"), 34)
    for mode in ("full", "focus"):
        alt = render_board(view, events, mode=mode).alt_text
        assert len(alt) <= 1000
        for figure in view.figures:
            assert figure.name in alt or short_labels(view)[figure.id] in alt


@pytest.mark.parametrize(("game", "scenario"), OPENINGS)
def test_story_and_sheets_render_on_real_boards(game: str, scenario: str) -> None:
    view, events = crowded(opening(game, scenario), 32)
    full = render_board(view, events)
    focus = render_board(view, events, mode="focus")
    assert len(full.png) < 2_000_000 and len(focus.png) < 2_000_000
    for figure in view.figures[:3]:
        sheet = render_sheet(view, figure.id)
        assert sheet.width == theme.IMAGE_WIDTH and 200 <= sheet.height <= 1600
        assert figure.name in sheet.alt_text


def test_cache_reuses_the_terrain_layer() -> None:
    clear_cache()
    view = opening("forlorn-hope", "op-01")
    render_board(view, [])
    misses = STATS["misses"]
    moved = view.model_copy(
        update={"figures": [f.model_copy(update={"coord": "A1"}) for f in view.figures[:1]]}
    )
    render_board(moved, [Moved(figure=view.figures[0].id, path=[view.figures[0].coord, "A1"])])
    assert STATS["misses"] == misses and STATS["hits"] >= 1
    assert static_layer(view) is static_layer(moved)


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
    events = [
        Attacked(attacker="h", target="e", hits=0, result="miss"),
        Spawned(figure="e", at="R2"),
        Killed(figure="gone", at="R1"),
    ]
    image = render_board(area, events)
    assert "hero (player) at R1" in image.alt_text


def test_renders_from_worker_threads_share_the_cache() -> None:
    from concurrent.futures import ThreadPoolExecutor

    clear_cache()
    views = [opening(g, s) for g, s in OPENINGS[:4]] * 3
    with ThreadPoolExecutor(max_workers=4) as pool:
        images = list(pool.map(lambda v: render_board(v, []), views))
    assert all(i.png.startswith(b"\x89PNG") for i in images)
    assert images[0].png == images[4].png == images[8].png


def test_table_names_become_short_token_labels() -> None:
    """Enemies named as the table says them keep their number on the token: "Soldier 3" ->
    "S3", "Vril Acolyte 2" -> "VA2"; a one-of-a-kind name by its initials ("General Wolff" ->
    "GW"); a one-word label stays as it was ("FOX")."""
    names = {
        "soldier20": "Soldier 3",
        "acolyte7": "Vril Acolyte 2",
        "wolff91": "General Wolff",
        "exp601x": "Experiment 601",
        "fox": "FOX",
    }
    view = View(
        game="reichbusters",
        scenario="s",
        title="t",
        board="area",
        figures=[
            FigureView(id=key, label=label, name=label, side="enemy", coord="1A")
            for key, label in names.items()
        ],
    )
    assert short_labels(view) == {
        "soldier20": "S3",
        "acolyte7": "VA2",
        "wolff91": "GW",
        "exp601x": "E601",
        "fox": "FOX",
    }
