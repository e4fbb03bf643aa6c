"""Board images: a `View` and the step's events in, PNG bytes and alt text out.

Two views: `full` (the whole board, header band, side panel) and `focus` (a phone-sized window
around the active figure and what it can reach, with an overview inset). The static terrain
comes from a per-map cache (`renders.terrain.static_layer`); each step draws doors, tokens,
figures and the story on a copy of it.
"""

from __future__ import annotations

import struct
import zlib
from dataclasses import dataclass, field
from typing import Literal

from PIL import Image, ImageDraw

from engine.core.events import Event
from engine.core.view import View
from renders import chrome, story, theme
from renders.figures import (
    draw_figure,
    draw_token,
    figure_positions,
    short_labels,
    species_tag,
    token_positions,
    token_radius,
)
from renders.geometry import CELL_SIZE, Placement, Point
from renders.media import media_type
from renders.terrain import RENDERERS, Layer, static_layer
from renders.text import alt_text

Mode = Literal["full", "focus"]
PANEL_COLUMN = 290
MIN_BOARD_WIDTH = 360
BESIDE_MAX_BOARD = 600
FOCUS_WIDTH = 660
FOCUS_HEIGHT = 600
FOCUS_SCALE = 1.3
INSET_WIDTH = 170

__all__ = ["RenderedImage", "alt_text", "figure_positions", "render_board"]


@dataclass(frozen=True)
class RenderedImage:
    png: bytes
    alt_text: str
    width: int
    height: int
    filename: str = "board.png"
    # Pixel centre of each figure in the image (for tests and clickable clients).
    positions: dict[str, Point] = field(default_factory=dict)

    @property
    def data(self) -> bytes:
        return self.png

    @property
    def content_type(self) -> str:
        """The MIME type read from the bytes (a GIF for animations, else PNG)."""
        return media_type(self.png)


def public_events(view: View, events: list[Event] | None) -> list[Event]:
    """Events the view's seat may see (all hidden ones are dropped for spectators)."""
    return [e for e in events or [] if e.visible_for(view.viewer)]


@dataclass
class BoardPicture:
    image: Image.Image
    placement: Placement
    positions: dict[str, Point]
    labels: dict[str, str]
    layer: Layer


def draw_board(view: View, events: list[Event], cell_size: int | None = None) -> BoardPicture:
    """The board alone: cached terrain, then doors, reach, story, tokens and figures."""
    layer = static_layer(view, cell_size)
    placement = layer.placement
    image = layer.image.copy()
    draw = ImageDraw.Draw(image)
    RENDERERS[view.board].draw_dynamic(draw, view, placement)
    _draw_reach(draw, view, placement)
    positions = figure_positions(view, placement)
    labels = short_labels(view)
    where = story.story_positions(view, events, placement, positions)
    story.under(draw, view, events, placement, where, labels)
    occupied = {placement.resolve(f.coord) or "" for f in view.figures}
    small = token_radius(placement)
    for token, xy in token_positions(view, placement, occupied):
        draw_token(draw, token, xy, small)
    r = placement.token_radius
    active = _active(view, events)
    for figure in view.figures:
        spot = positions.get(figure.id)
        if spot is not None:
            label = labels[figure.id]
            caption = species_tag(figure, label)
            draw_figure(draw, figure, spot, r, label, figure.id == active, caption, view.board)
    story.over(draw, events, placement, where, labels)
    return BoardPicture(image, placement, positions, labels, layer)


def _active(view: View, events: list[Event]) -> str | None:
    """The figure ringed in yellow: whose turn it is, else the last one to act."""
    return view.active or story.last_actor(events)


def _draw_reach(draw: ImageDraw.ImageDraw, view: View, placement: Placement) -> None:
    for coord in view.reach:
        key = placement.resolve(coord)
        if key is None:
            continue
        cells = placement.area_cells.get(key, [key]) if view.board == "area" else [key]
        for c in cells:
            poly = placement.polygons.get(c)
            if poly:
                draw.line([*poly, poly[0]], fill=theme.SKY, width=2)
                x, y = placement.centres[c]
                draw.ellipse((x - 3, y - 3, x + 3, y + 3), fill=theme.SKY)


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def encode(image: Image.Image) -> bytes:
    """A standard 8-bit RGB PNG with filter type 0 and fast deflate.

    Pillow's encoder tries every row filter (adaptive filtering), which costs more than the
    whole board drawing; flat-coloured boards compress well enough without filters.
    """
    rgb = image if image.mode == "RGB" else image.convert("RGB")
    width, height = rgb.size
    raw = rgb.tobytes()
    stride = width * 3
    rows = b"".join(b"\x00" + raw[i : i + stride] for i in range(0, stride * height, stride))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + _chunk(b"IHDR", header)
        + _chunk(b"IDAT", zlib.compress(rows, 1))
        + _chunk(b"IEND", b"")
    )


def compose_full(
    view: View, events: list[Event], layout: Literal["auto", "beside", "below"] = "auto"
) -> tuple[Image.Image, dict[str, Point]]:
    """The whole board under the header band, with the panel beside a narrow board or in
    columns below a wide one (so the image stays narrow enough for a phone)."""
    picture = draw_board(view, events)
    board_w = max(picture.image.width, MIN_BOARD_WIDTH)
    board_h = max(picture.image.height, 320)
    sections = chrome.panel_sections(view, picture.labels, events)
    # The layout depends on the board's width only, so a campaign's images keep one shape
    # from step to step: narrow boards get the panel beside them, wider ones below.
    beside = board_w < BESIDE_MAX_BOARD if layout == "auto" else layout == "beside"
    columns = chrome.panel_columns(sections, PANEL_COLUMN, 100_000, max_columns=1)
    if beside:
        width = board_w + PANEL_COLUMN
        body_h = max(board_h, chrome.columns_height(columns))
        column_w = PANEL_COLUMN
    else:
        count = max(2, board_w // PANEL_COLUMN)
        column_w = board_w // count
        columns = chrome.balanced_columns(sections, column_w, count)
        width = board_w
        body_h = board_h + chrome.columns_height(columns)
    head = chrome.header_height(view, width)
    height = head + body_h
    image = Image.new("RGB", (width, height), theme.BACKGROUND)
    image.paste(picture.image, ((board_w - picture.image.width) // 2, head))
    draw = ImageDraw.Draw(image)
    chrome.draw_header(draw, view, width)
    if beside:
        chrome.draw_columns(draw, columns, board_w, head, column_w, height)
    else:
        chrome.draw_columns(draw, columns, 0, head + board_h, column_w, height)
    dx = (board_w - picture.image.width) // 2
    positions = {k: (x + dx, y + head) for k, (x, y) in picture.positions.items()}
    return image, positions


def focus_target(
    view: View,
    events: list[Event],
    placement: Placement,
    positions: dict[str, Point],
    focus: str | None,
) -> Point:
    """Where the focus view centres: the named figure or cell, else the active figure."""
    key = focus_figure(view, events, focus)
    if key and key in positions:
        return positions[key]
    if key:
        anchor = placement.anchor(key)
        if anchor is not None:
            return anchor
    return placement.width / 2, placement.height / 2


def focus_figure(view: View, events: list[Event], focus: str | None = None) -> str | None:
    """The figure (or coordinate) the focus view is about.

    In order: the one asked for, the View's active figure, the last figure to act if its seat
    must act now, the first figure of a seat that must act, the last figure to act, the first
    player figure.
    """
    if focus:
        return focus
    if view.active:
        return view.active
    waiting = set(view.waiting)
    # Enemy figures may carry a seat too (the agent controlling an alien card): only players'
    # own figures count as "the figure whose turn it is".
    seats = {f.id: f.seat for f in view.figures if f.side == "player"}
    actor = story.last_actor(events)
    if actor and actor in seats and seats[actor] in waiting:
        return actor
    for f in view.figures:
        if f.side == "player" and f.seat in waiting:
            return f.id
    if actor and actor in seats:
        return actor
    return next((f.id for f in view.figures if f.side == "player"), None)


def _crop_box(picture: BoardPicture, view: View, centre: Point) -> tuple[int, int, int, int]:
    w = min(FOCUS_WIDTH, picture.image.width)
    h = min(FOCUS_HEIGHT, picture.image.height)
    points = [centre] + [
        p for p in (picture.placement.anchor(c) for c in view.reach) if p is not None
    ]
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    cx, cy = centre
    if max(xs) - min(xs) < w * 0.9 and max(ys) - min(ys) < h * 0.9:
        cx, cy = (max(xs) + min(xs)) / 2, (max(ys) + min(ys)) / 2
    left = int(min(max(0, cx - w / 2), picture.image.width - w))
    top = int(min(max(0, cy - h / 2), picture.image.height - h))
    return left, top, left + w, top + h


def _inset(picture: BoardPicture, view: View, box: tuple[int, int, int, int]) -> Image.Image:
    layer = picture.layer
    scale = INSET_WIDTH / layer.image.width
    if layer.thumbnail is None:
        size = (INSET_WIDTH, max(1, int(layer.image.height * scale)))
        layer.thumbnail = layer.image.resize(size, Image.Resampling.BILINEAR)
    thumb = layer.thumbnail.copy()
    draw = ImageDraw.Draw(thumb)
    for f in view.figures:
        xy = picture.positions.get(f.id)
        if xy is None:
            continue
        x, y = xy[0] * scale, xy[1] * scale
        fill = theme.SIDE_FILL.get(f.side, theme.YELLOW)
        if f.side == "enemy":
            draw.polygon([(x, y - 3), (x + 3, y), (x, y + 3), (x - 3, y)], fill=fill)
        else:
            draw.ellipse((x - 2.5, y - 2.5, x + 2.5, y + 2.5), fill=fill)
    draw.rectangle(tuple(int(v * scale) for v in box), outline=theme.YELLOW, width=2)
    draw.rectangle((0, 0, thumb.width - 1, thumb.height - 1), outline=theme.GRID)
    return thumb


def compose_focus(
    view: View, events: list[Event], focus: str | None
) -> tuple[Image.Image, dict[str, Point]]:
    picture = draw_board(view, events, int(CELL_SIZE[view.board] * FOCUS_SCALE))
    centre = focus_target(view, events, picture.placement, picture.positions, focus)
    box = _crop_box(picture, view, centre)
    crop = picture.image.crop(box)
    width = max(crop.width, 480)
    inset = _inset(picture, view, box)
    text_w = width - inset.width - 24
    focus_id = focus_figure(view, events, focus)
    sections = _focus_sections(view, events, picture, box, focus_id)
    columns = chrome.panel_columns(sections, text_w, 10_000, max_columns=1)
    footer = max(inset.height + 20, chrome.columns_height(columns))
    head = chrome.header_height(view, width)
    height = head + crop.height + footer
    image = Image.new("RGB", (width, height), theme.BACKGROUND)
    image.paste(crop, ((width - crop.width) // 2, head))
    draw = ImageDraw.Draw(image)
    chrome.draw_header(draw, view, width)
    top = head + crop.height
    draw.rectangle((0, top, width, height), fill=theme.PANEL)
    image.paste(inset, (10, top + 10))
    chrome.draw_columns(draw, columns, inset.width + 20, top, text_w, height)
    dx = (width - crop.width) // 2 - box[0]
    positions = {
        k: (x + dx, y - box[1] + head)
        for k, (x, y) in picture.positions.items()
        if box[0] <= x < box[2] and box[1] <= y < box[3]
    }
    return image, positions


def _focus_sections(
    view: View,
    events: list[Event],
    picture: BoardPicture,
    box: tuple[int, int, int, int],
    focus_id: str | None,
) -> list[chrome.Section]:
    sections: list[chrome.Section] = []
    figures = {f.id: f for f in view.figures}
    if focus_id in figures:
        f = figures[focus_id or ""]
        lines = [chrome.figure_line(f, picture.labels[f.id])]
        lines += [c for c in f.conditions if ":" in c][:3]
        panel = next((p for p in view.panels if p.seat == f.seat and f.side == "player"), None)
        if panel:
            lines += panel.lines[:4]
        sections.append(chrome.Section(f.name, lines, theme.YELLOW))
    visible = [
        f
        for f in view.figures
        if f.id != focus_id
        and f.id in picture.positions
        and box[0] <= picture.positions[f.id][0] < box[2]
        and box[1] <= picture.positions[f.id][1] < box[3]
    ]
    seen = chrome.figure_lines(visible, picture.labels, grouped=True)
    if seen:
        sections.append(
            chrome.Section(
                "In view", seen[:8] + ([f"+{len(seen) - 8} more"] if len(seen) > 8 else [])
            )
        )
    if view.private:
        sections.append(chrome.Section("Only you can see", view.private[:4], theme.YELLOW))
    texts = [e.text for e in events if e.text][-3:]
    if texts:
        sections.append(chrome.Section("This step", texts, theme.YELLOW))
    return sections


def render_board(
    view: View,
    events: list[Event] | None = None,
    mode: Mode = "full",
    focus: str | None = None,
) -> RenderedImage:
    """Render one board image. `render_board(view, events)` is the full board."""
    shown = public_events(view, events)
    alt = alt_text(view, shown)
    if mode == "focus":
        image, positions = compose_focus(view, shown, focus)
        name = "focus.png"
        key = focus_figure(view, shown, focus)
        figure = next((f for f in view.figures if f.id == key), None)
        where = f"{figure.name} at {figure.coord}" if figure else (key or "the board")
        prefix = f"Close-up around {where}. "[:200]
        alt = prefix + alt_text(view, shown, 1000 - len(prefix))
    else:
        image, positions = compose_full(view, shown)
        name = "board.png"
    return RenderedImage(encode(image), alt, image.width, image.height, name, positions)
