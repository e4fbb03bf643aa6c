"""Draw a `View` and the step's events as a PNG: header band, board, side panel.

Pure: a view and events in, image bytes and alt text out. No Discord, no database.
"""

from __future__ import annotations

import io
from dataclasses import dataclass

from PIL import Image, ImageDraw

from engine.core.events import Attacked, Event, Killed, Moved, Revealed, Spawned
from engine.core.view import FigureView, View
from renders import theme
from renders.geometry import Placement, area_centres, place, shared_side

HEADER_HEIGHT = 56
PANEL_WIDTH = 240
MIN_BOARD_WIDTH = 360


@dataclass(frozen=True)
class RenderedImage:
    png: bytes
    alt_text: str
    width: int
    height: int
    filename: str = "board.png"


def figure_positions(view: View, placement: Placement) -> dict[str, tuple[float, float]]:
    """Pixel centre of every figure; figures sharing a cell or Area are fanned out."""
    anchors = dict(placement.centres)
    if view.board == "area":
        anchors.update(area_centres(view, placement))
    groups: dict[str, list[FigureView]] = {}
    for figure in view.figures:
        groups.setdefault(figure.coord.upper(), []).append(figure)
    upper = {k.upper(): v for k, v in anchors.items()}
    out: dict[str, tuple[float, float]] = {}
    step = placement.cell_size * 0.55
    for coord, figures in groups.items():
        if coord not in upper:
            continue
        cx, cy = upper[coord]
        count = len(figures)
        per_row = 1 if count == 1 else min(3, count)
        rows = (count + per_row - 1) // per_row
        for i, figure in enumerate(figures):
            col, row = i % per_row, i // per_row
            out[figure.id] = (
                cx + (col - (per_row - 1) / 2) * step,
                cy + (row - (rows - 1) / 2) * step,
            )
    return out


def _draw_terrain(draw: ImageDraw.ImageDraw, view: View, placement: Placement) -> None:
    areas = sorted({c.area for c in view.cells if c.area})
    tint = {a: theme.AREA_TINTS[i % len(theme.AREA_TINTS)] for i, a in enumerate(areas)}
    label_font = theme.font(9)
    for cell in view.cells:
        poly = placement.polygons[cell.coord]
        colour = theme.TERRAIN.get(cell.terrain, theme.TERRAIN["floor"])
        if view.board == "area" and cell.area and cell.terrain not in ("wall", "void"):
            colour = tint[cell.area]
        draw.polygon(poly, fill=colour, outline=theme.GRID)
        if cell.terrain in ("wall", "void"):
            continue
        x0, y0 = min(p[0] for p in poly), min(p[1] for p in poly)
        if view.board != "area":
            draw.text((x0 + 3, y0 + 2), cell.coord, font=label_font, fill=theme.MUTED)
        for mark in cell.marks:
            cx, cy = placement.centres[cell.coord]
            draw.text(
                (cx, cy + placement.cell_size * 0.28),
                mark[:8],
                font=label_font,
                fill=theme.YELLOW,
                anchor="mm",
            )
    if view.board == "area":
        centres = area_centres(view, placement)
        for area, (cx, cy) in centres.items():
            draw.text(
                (cx, cy - placement.cell_size * 0.6),
                area,
                font=theme.font(11),
                fill=theme.TEXT,
                anchor="mm",
            )


def _draw_edges(draw: ImageDraw.ImageDraw, view: View, placement: Placement) -> None:
    for edge in view.edges:
        a, b = placement.polygons.get(edge.a), placement.polygons.get(edge.b)
        if a is None or b is None:
            continue
        side = shared_side(a, b)
        if side is None:
            continue
        colour = theme.EDGE_COLOURS.get(edge.kind, theme.ORANGE)
        draw.line(side, fill=colour, width=5 if edge.kind in ("wall", "blocked") else 4)


def _draw_story(
    draw: ImageDraw.ImageDraw,
    events: list[Event],
    placement: Placement,
    positions: dict[str, tuple[float, float]],
) -> None:
    centres = {k.upper(): v for k, v in placement.centres.items()}
    for event in events:
        if isinstance(event, Moved) and len(event.path) > 1:
            points = [centres[c.upper()] for c in event.path if c.upper() in centres]
            if len(points) > 1:
                draw.line(points, fill=theme.YELLOW, width=3, joint="curve")
                x, y = points[0]
                draw.ellipse((x - 5, y - 5, x + 5, y + 5), outline=theme.YELLOW, width=2)
        elif isinstance(event, Attacked):
            start, end = positions.get(event.attacker), positions.get(event.target)
            if start and end:
                draw.line((start, end), fill=theme.VERMILION, width=3)
        elif isinstance(event, Spawned | Revealed | Killed) and event.at.upper() in centres:
            x, y = centres[event.at.upper()]
            r = placement.cell_size * 0.48
            colour = theme.VERMILION if isinstance(event, Killed) else theme.PURPLE
            draw.ellipse((x - r, y - r, x + r, y + r), outline=colour, width=3)


FACING_VECTORS = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}


def _draw_figures(
    draw: ImageDraw.ImageDraw,
    view: View,
    placement: Placement,
    positions: dict[str, tuple[float, float]],
) -> None:
    r = placement.cell_size * 0.34 if len(view.figures) else 0
    label_font = theme.font(max(9, int(r * 0.9)))
    for figure in view.figures:
        if figure.id not in positions:
            continue
        x, y = positions[figure.id]
        fill = theme.SIDE_FILL[figure.side]
        if figure.side == "enemy":
            shape = [(x, y - r), (x + r, y), (x, y + r), (x - r, y)]
            draw.polygon(shape, fill=fill, outline=theme.TEXT)
        else:
            draw.ellipse((x - r, y - r, x + r, y + r), fill=fill, outline=theme.TEXT, width=2)
        if figure.facing in FACING_VECTORS:
            dx, dy = FACING_VECTORS[figure.facing]
            tip = (x + dx * r * 1.45, y + dy * r * 1.45)
            base = [
                (x + dx * r + dy * r * 0.45, y + dy * r - dx * r * 0.45),
                (x + dx * r - dy * r * 0.45, y + dy * r + dx * r * 0.45),
            ]
            draw.polygon([tip, *base], fill=theme.YELLOW)
        draw.text((x, y), figure.label[:3], font=label_font, fill=(0, 0, 0), anchor="mm")
        if figure.health is not None and figure.max_health:
            pips = min(figure.max_health, 8)
            filled = round(pips * max(0, figure.health) / figure.max_health)
            width = pips * 5
            for i in range(pips):
                px = x - width / 2 + i * 5
                colour = theme.GREEN if i < filled else theme.GRID
                draw.rectangle((px, y + r + 2, px + 3, y + r + 5), fill=colour)


def _draw_header(draw: ImageDraw.ImageDraw, view: View, width: int) -> None:
    draw.rectangle((0, 0, width, HEADER_HEIGHT), fill=theme.HEADER)
    draw.text((12, 8), view.title, font=theme.font(18), fill=theme.TEXT)
    parts = [f"Round {view.round}" if view.round else "", view.phase]
    parts += [f"{k}: {v}" for k, v in view.header.items()]
    if view.finished:
        parts.append(f"Mission over: {view.outcome or 'ended'}")
    elif view.waiting:
        parts.append("Waiting on " + ", ".join(view.waiting))
    draw.text((12, 33), "  ·  ".join(p for p in parts if p), font=theme.font(12), fill=theme.MUTED)


def _draw_panel(draw: ImageDraw.ImageDraw, view: View, left: int, height: int) -> None:
    draw.rectangle((left, HEADER_HEIGHT, left + PANEL_WIDTH, height), fill=theme.PANEL)
    y = HEADER_HEIGHT + 10
    for panel in view.panels:
        draw.text((left + 10, y), panel.title, font=theme.font(13), fill=theme.TEXT)
        y += 18
        for line in panel.lines:
            draw.text((left + 14, y), line[:34], font=theme.font(11), fill=theme.MUTED)
            y += 14
        y += 8
        if y > height - 20:
            break


def alt_text(view: View) -> str:
    """A sentence-level description: the mission, the turn, and every figure on the board."""
    figures = "; ".join(
        f"{f.name} ({f.side}) at {f.coord}"
        + (f", {f.health}/{f.max_health} health" if f.health is not None and f.max_health else "")
        + (f", {', '.join(f.conditions)}" if f.conditions else "")
        for f in view.figures
    )
    turn = f"round {view.round}, {view.phase}" if view.round else view.phase
    head = f"{view.title}: {turn}."
    return (f"{head} Figures: {figures}." if figures else head)[:1000]


def render_board(
    view: View, events: list[Event] | None = None, cell_size: int = 36
) -> RenderedImage:
    placement = place(view, cell_size=cell_size)
    board_width = max(placement.width, MIN_BOARD_WIDTH)
    width = board_width + PANEL_WIDTH
    height = HEADER_HEIGHT + max(placement.height, 200)
    image = Image.new("RGB", (width, height), theme.BACKGROUND)
    board = Image.new("RGB", (placement.width, placement.height), theme.BACKGROUND)
    board_draw = ImageDraw.Draw(board)
    _draw_terrain(board_draw, view, placement)
    _draw_edges(board_draw, view, placement)
    positions = figure_positions(view, placement)
    _draw_story(board_draw, events or [], placement, positions)
    _draw_figures(board_draw, view, placement, positions)
    image.paste(board, (0, HEADER_HEIGHT))
    draw = ImageDraw.Draw(image)
    _draw_header(draw, view, width)
    _draw_panel(draw, view, board_width, height)
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", optimize=False, compress_level=6)
    return RenderedImage(buffer.getvalue(), alt_text(view), width, height)
