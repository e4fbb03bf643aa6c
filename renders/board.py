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
from datetime import datetime
from typing import Literal

from PIL import Image, ImageDraw

from engine.core.events import Event
from engine.core.view import View
from renders import chrome, paint, story, theme
from renders.figures import (
    draw_bodies,
    draw_figure,
    draw_figure_pills,
    draw_token,
    figure_positions,
    label_room,
    short_labels,
    species_tag,
    token_positions,
    token_radius,
)
from renders.geometry import CELL_SIZE, Placement, Point, place, shape_key
from renders.labels import Placer, placing
from renders.labels import active as labels_placer
from renders.media import media_type
from renders.symbols import tokens_of
from renders.terrain import RENDERERS, RULER_MARGIN, Layer, coords_fit, static_layer
from renders.text import alt_text

Mode = Literal["full", "focus"]
Deadline = datetime | str | None
FOCUS_WIDTH = theme.IMAGE_WIDTH
FOCUS_HEIGHT = 560
FOCUS_SCALE = 1.3
INSET_WIDTH = 150

__all__ = ["RenderedImage", "alt_text", "figure_positions", "render_board", "render_panel"]


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


def board_labels(view: View) -> dict[str, str]:
    """One short label per figure for every image of this board: as long as fits a token of
    the full view at the legible size (so the full view, close-up and panel agree)."""
    return short_labels(view, label_room(view, place(view, full_geometry(view)[0])))


def draw_board(
    view: View, events: list[Event], cell_size: int | None = None, margin: int = 14
) -> BoardPicture:
    """The board alone: cached terrain, then doors, reach, story, tokens and figures."""
    layer = static_layer(view, cell_size, margin)
    image = layer.image.copy()
    draw = ImageDraw.Draw(image)
    placer = Placer(image.width, image.height)
    placer.seed(layer.labels)
    with placing(placer):
        return _draw_steps(view, events, layer, image, draw)


def _draw_steps(
    view: View, events: list[Event], layer: Layer, image: Image.Image, draw: ImageDraw.ImageDraw
) -> BoardPicture:
    placement = layer.placement
    RENDERERS[view.board].draw_dynamic(draw, view, placement)
    _draw_reach(draw, view, placement)
    positions = figure_positions(view, placement)
    labels = board_labels(view)
    where = story.story_positions(view, events, placement, positions)
    story.under(draw, view, events, placement, where, labels)
    occupied = {placement.resolve(f.coord) or "" for f in view.figures}
    occupied |= {placement.resolve(t.coord) or "" for t in view.tokens if t.kind == "body"}
    small = token_radius(placement)
    symbols = tokens_of(view)
    for token, xy in token_positions(view, placement, occupied):
        draw_token(draw, token, xy, small, symbols)
    r = placement.token_radius
    draw_bodies(draw, view, placement, positions, r)
    active = _active(view, events)
    for figure in view.figures:
        spot = positions.get(figure.id)
        if spot is not None:
            label = labels[figure.id]
            caption = species_tag(figure, label)
            draw_figure(
                draw, figure, spot, r, label, figure.id == active, caption, view.board, False
            )
    # Pills (ranks, conditions, the story's tags) keep clear of every token's middle, so a
    # label never hides a figure; a figure's own pills may still overlap its rim.
    placer = labels_placer()
    if placer is not None:
        k = r * 0.5
        for x, y in positions.values():
            placer.take((x - k, y - k, x + k, y + k))
    for figure in view.figures:
        spot = positions.get(figure.id)
        if spot is not None:
            draw_figure_pills(draw, figure, spot, r)
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


_GEOMETRY: dict[tuple[object, ...], tuple[int, int]] = {}


def _full_geometry(view: View) -> tuple[int, int]:
    """Cell size and margin for the full view: the board fills `IMAGE_WIDTH` (at most 1.5x
    the default cell size), with rulers in a wider margin when coordinates do not fit."""
    base = CELL_SIZE[view.board]
    natural = place(view, base)

    def fill(margin: int) -> int:
        avail = theme.IMAGE_WIDTH - 2 * margin
        size = int(base * min(1.5, avail / max(1, natural.width - 28)))
        while size > 8 and place(view, size, margin).width > theme.IMAGE_WIDTH:
            size -= 1
        return size

    size = fill(14)
    if coords_fit(view, place(view, size, 14)):
        return size, 14
    return fill(RULER_MARGIN), RULER_MARGIN


def full_geometry(view: View) -> tuple[int, int]:
    """`_full_geometry`, cached per map (bounded: cleared past 256 maps)."""
    key = shape_key(view, 0)
    hit = _GEOMETRY.get(key)
    if hit is None:
        if len(_GEOMETRY) > 256:
            _GEOMETRY.clear()
        hit = _GEOMETRY[key] = _full_geometry(view)
    return hit


def _strip_sections(
    view: View, labels: dict[str, str], events: list[Event]
) -> list[chrome.Section]:
    """The compact strip under the full board: the step, who is where, and the legend."""
    sections: list[chrome.Section] = []
    if view.private:
        # A seat's own look: its secrets (a spectator's view never carries any).
        more = [f"+{len(view.private) - 4} more in the side panel"] if len(view.private) > 4 else []
        sections.append(chrome.Section("Only you can see", view.private[:4] + more, theme.YELLOW))
    story_lines = chrome.story_lines(events, limit=5)
    if story_lines:
        sections.append(chrome.Section("This step", story_lines, theme.YELLOW))
    figures = chrome.figure_lines(view.figures, labels, grouped=True, compact=True)
    if figures:
        sections.append(chrome.Section("Figures", figures))
    items = chrome.legend_items(view)
    if items:
        # One paragraph instead of a line per symbol keeps the strip short.
        text = "  ·  ".join(items)
        lines = paint.wrap(text, chrome.SECTION_LINE, theme.IMAGE_WIDTH - 24)
        sections.append(chrome.Section("Legend", lines, theme.MUTED))
    return sections


def compose_full(
    view: View, events: list[Event], deadline: Deadline = None
) -> tuple[Image.Image, dict[str, Point]]:
    """Phone-first: the header, the whole board filling the width, then a compact strip (the
    step, the figures, the legend); the seats' panels are `render_panel`'s second image."""
    size, margin = full_geometry(view)
    picture = draw_board(view, events, size, margin)
    width = theme.IMAGE_WIDTH
    sections = _strip_sections(view, picture.labels, events)
    columns = chrome.panel_columns(sections, width, 100_000, max_columns=1)
    head = chrome.header_height(view, width, deadline)
    banner = chrome.banner_height(view)
    board_h = picture.image.height
    height = head + banner + board_h + chrome.columns_height(columns)
    image = Image.new("RGB", (width, height), theme.BACKGROUND)
    dx = (width - picture.image.width) // 2
    image.paste(picture.image, (dx, head + banner))
    draw = ImageDraw.Draw(image)
    chrome.draw_header(draw, view, width, deadline)
    chrome.draw_banner(draw, view, width, head)
    chrome.draw_columns(draw, columns, 0, head + banner + board_h, width, height)
    positions = {k: (x + dx, y + head + banner) for k, (x, y) in picture.positions.items()}
    return image, positions


def compose_panel(view: View, events: list[Event], deadline: Deadline = None) -> Image.Image:
    """The side panel as its own phone-width image: every seat's numbers, the figures, the
    step and the legend (the second picture of `/board view:full`)."""
    width = theme.IMAGE_WIDTH
    labels = board_labels(view)
    sections = chrome.panel_sections(view, labels, events)
    columns = chrome.panel_columns(sections, width, 100_000, max_columns=1)
    head = chrome.header_height(view, width, deadline)
    height = head + chrome.columns_height(columns)
    image = Image.new("RGB", (width, height), theme.BACKGROUND)
    draw = ImageDraw.Draw(image)
    chrome.draw_header(draw, view, width, deadline)
    chrome.draw_columns(draw, columns, 0, head, width, height)
    return image


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
    """The figure (or coordinate) the focus view is about: what changed.

    In order: the one asked for; the last figure on the board to move or attack in this step
    (a player's figure or an enemy, also one an enemy seat moves); the View's active figure;
    the first figure of a seat that must act now; the first player figure.
    """
    if focus:
        return focus
    on_board = {f.id for f in view.figures}
    actor = story.last_actor(events)
    if actor and actor in on_board:
        return actor
    if view.active:
        return view.active
    waiting = set(view.waiting)
    # Enemy figures may carry a seat too (the agent controlling an alien card): only players'
    # own figures count as "the figure whose turn it is".
    for f in view.figures:
        if f.side == "player" and f.seat in waiting:
            return f.id
    return next((f.id for f in view.figures if f.side == "player"), None)


def _crop_box(
    picture: BoardPicture, view: View, centre: Point, follow_reach: bool
) -> tuple[int, int, int, int]:
    w = min(FOCUS_WIDTH, picture.image.width)
    h = min(FOCUS_HEIGHT, picture.image.height)
    reach = view.reach if follow_reach else []
    points = [centre] + [p for p in (picture.placement.anchor(c) for c in reach) if p is not None]
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    cx, cy = centre
    if max(xs) - min(xs) < w * 0.9 and max(ys) - min(ys) < h * 0.9:
        cx, cy = (max(xs) + min(xs)) / 2, (max(ys) + min(ys)) / 2
    left = int(min(max(0, cx - w / 2), picture.image.width - w))
    top = int(min(max(0, cy - h / 2), picture.image.height - h))
    return left, top, left + w, top + h


def _thumbnail(view: View, layer: Layer) -> Image.Image:
    """The map in miniature, drawn from the cell outlines (no text: it would be illegible)."""
    if layer.thumbnail is None:
        scale = INSET_WIDTH / layer.image.width
        size = (INSET_WIDTH, max(1, int(layer.image.height * scale)))
        thumb = Image.new("RGB", size, theme.BACKGROUND)
        draw = ImageDraw.Draw(thumb)
        for cell in view.cells:
            poly = layer.placement.polygons.get(cell.coord)
            if poly and cell.terrain not in theme.BLOCKING_TERRAIN:
                colour = theme.TERRAIN.get(cell.terrain, theme.TERRAIN["floor"])
                draw.polygon([(x * scale, y * scale) for x, y in poly], fill=colour)
        layer.thumbnail = thumb
    return layer.thumbnail


def _inset(picture: BoardPicture, view: View, box: tuple[int, int, int, int]) -> Image.Image:
    layer = picture.layer
    scale = INSET_WIDTH / layer.image.width
    thumb = _thumbnail(view, layer).copy()
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
    view: View, events: list[Event], focus: str | None, deadline: Deadline = None
) -> tuple[Image.Image, dict[str, Point]]:
    picture = draw_board(view, events, int(CELL_SIZE[view.board] * FOCUS_SCALE))
    centre = focus_target(view, events, picture.placement, picture.positions, focus)
    focus_id = focus_figure(view, events, focus)
    # The reach belongs to the active figure: follow it only when the close-up is about it.
    box = _crop_box(picture, view, centre, focus_id == view.active)
    crop = picture.image.crop(box)
    width = FOCUS_WIDTH
    inset = _inset(picture, view, box)
    text_w = width - inset.width - 24
    sections = _focus_sections(view, events, picture, box, focus_id)
    columns = chrome.panel_columns(sections, text_w, 10_000, max_columns=1)
    footer = max(inset.height + 20, chrome.columns_height(columns))
    head = chrome.header_height(view, width, deadline)
    banner = chrome.banner_height(view)
    height = head + banner + crop.height + footer
    image = Image.new("RGB", (width, height), theme.BACKGROUND)
    image.paste(crop, ((width - crop.width) // 2, head + banner))
    draw = ImageDraw.Draw(image)
    chrome.draw_header(draw, view, width, deadline)
    chrome.draw_banner(draw, view, width, head)
    head += banner
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
    deadline: Deadline = None,
) -> RenderedImage:
    """Render one board image. `render_board(view, events)` is the full board.

    `deadline` (the campaign's turn deadline, a datetime or ready-made text) goes in the
    header when given.
    """
    shown = public_events(view, events)
    alt = alt_text(view, shown)
    if mode == "focus":
        image, positions = compose_focus(view, shown, focus, deadline)
        name = "focus.png"
        key = focus_figure(view, shown, focus)
        figure = next((f for f in view.figures if f.id == key), None)
        where = f"{figure.name} at {figure.coord}" if figure else (key or "the board")
        prefix = f"Close-up around {where}. "[:200]
        alt = prefix + alt_text(view, shown, 1000 - len(prefix))
    else:
        image, positions = compose_full(view, shown, deadline)
        name = "board.png"
    return RenderedImage(encode(image), alt, image.width, image.height, name, positions)


WEB_SCALE = 2.0  # the web page's board: twice the channel's cell size, crisp when zoomed


def render_wide(
    view: View, events: list[Event] | None = None, scale: float = WEB_SCALE
) -> RenderedImage:
    """The board alone at `scale` times the full view's cell size (the web page's picture,
    which a phone pinches and pans): no header or strip, the page says those in HTML."""
    shown = public_events(view, events)
    size, margin = full_geometry(view)
    picture = draw_board(view, shown, max(8, int(size * scale)), int(margin * scale))
    image = picture.image
    return RenderedImage(
        encode(image),
        alt_text(view, shown),
        image.width,
        image.height,
        "board.png",
        picture.positions,
    )


def render_panel(
    view: View, events: list[Event] | None = None, deadline: Deadline = None
) -> RenderedImage:
    """The full side panel (every seat's numbers, the figures, the step, the legend) as a
    second phone-width image to go with the full board (`/board view:full`)."""
    shown = public_events(view, events)
    image = compose_panel(view, shown, deadline)
    prefix = "Side panel: each seat's numbers and every figure. "
    alt = prefix + alt_text(view, shown, 1000 - len(prefix))
    return RenderedImage(encode(image), alt, image.width, image.height, "panel.png")
