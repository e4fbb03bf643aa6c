"""Terrain as the rules define it, one renderer per board kind sharing the theme.

`static_layer` draws what does not change during a mission (floors, rooms, Areas, walls,
windows, marks such as vents, caches, Teleport Points, barracks, coordinates) and is cached per
map; `draw_dynamic` draws what steps change (doors by state, a view's own marks, smoke,
destroyed Teleport Points) on a copy of it.
"""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from dataclasses import dataclass, field

from PIL import Image, ImageDraw

from engine.core.view import CellView, EdgeView, View
from renders import paint, theme
from renders.areamarks import mark_boxes
from renders.geometry import Placement, Point, Segment, place, shape_key
from renders.labels import Box, Placer, placing
from renders.symbols import Symbols, marks_of, named_colour, stem_of

DYNAMIC_MARKS = frozenset({"blocked", "smoke", "suppressing-fire", "civilian"})
STATIC_EDGES = frozenset({"wall", "blocked", "area-border", "window", "airlock", "barrier"})
HEX_DIRECTIONS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


def is_dynamic_mark(mark: str, symbols: Symbols | None = None) -> bool:
    """Drawn per step (not with the cached board): the shared changing marks, and the marks a
    view brings (`View.symbols`) other than numbered map marks."""
    if symbols and mark in symbols and not symbols[mark].numbered:
        return True
    return mark in DYNAMIC_MARKS or mark.startswith("accessory") or mark.endswith(":destroyed")


def edge_base(kind: str) -> str:
    """`door-locked-key:D3` -> `door-locked-key`; `airlock:west` -> `airlock`."""
    return kind.split(":", 1)[0]


def is_static_edge(edge: EdgeView) -> bool:
    return edge_base(edge.kind) in STATIC_EDGES


@dataclass
class Layer:
    """A cached static terrain image of one map at one cell size, with its thumbnail."""

    image: Image.Image
    placement: Placement
    thumbnail: Image.Image | None = None
    # The static labels' texts and boxes: a step's labels are placed around them.
    labels: list[tuple[str, Box]] = field(default_factory=list)


_LAYERS: OrderedDict[tuple[object, ...], Layer] = OrderedDict()
_LAYER_CACHE_SIZE = 24
_LOCK = threading.Lock()
STATS = {"hits": 0, "misses": 0}
# The table service renders in worker threads: cache bookkeeping happens under a lock (a layer
# is never drawn on after it is cached; each step draws on a copy).


def layer_key(view: View, cell_size: int | None, margin: int = 14) -> tuple[object, ...]:
    placement = place(view, cell_size, margin)
    symbols = marks_of(view)
    marks = tuple(
        (c.coord, c.terrain, c.room, tuple(m for m in c.marks if not is_dynamic_mark(m, symbols)))
        for c in view.cells
    )
    edges = tuple((e.a, e.b, e.kind) for e in view.edges if is_static_edge(e))
    return (*shape_key(view, placement.cell_size), margin, hash(marks), hash(edges))


def static_layer(view: View, cell_size: int | None = None, margin: int = 14) -> Layer:
    key = layer_key(view, cell_size, margin)
    with _LOCK:
        hit = _LAYERS.get(key)
        if hit is not None:
            STATS["hits"] += 1
            _LAYERS.move_to_end(key)
            return hit
        STATS["misses"] += 1
    placement = place(view, cell_size, margin)
    image = Image.new("RGB", (placement.width, placement.height), theme.BACKGROUND)
    draw = ImageDraw.Draw(image)
    with placing(Placer(placement.width, placement.height)) as placer:
        RENDERERS[view.board].draw_static(draw, view, placement)
    if view.board != "area" and not coords_fit(view, placement):
        draw_rulers(draw, view, placement)
    layer = Layer(image, placement, labels=list(placer.labels))
    with _LOCK:
        _LAYERS[key] = layer
        while len(_LAYERS) > _LAYER_CACHE_SIZE:
            _LAYERS.popitem(last=False)
    return layer


def clear_cache() -> None:
    with _LOCK:
        _LAYERS.clear()
        STATS["hits"] = STATS["misses"] = 0


# --- coordinates ---------------------------------------------------------------------------

_COORD = re.compile(r"^([A-Za-z]+)(\d+)$")
RULER_MARGIN = 24


def coords_fit(view: View, placement: Placement) -> bool:
    """Whether every cell's coordinate fits in its cell at the legible text size."""
    if view.board == "area" or not view.cells:
        return True
    longest = max((c.coord for c in view.cells), key=lambda c: theme.text_width(c, 0))
    cs = placement.cell_size
    room = cs - 4 if view.board == "square" else cs * 0.866 * 0.8
    rows = cs / theme.MIN_TEXT
    return paint.fits(longest, room, bold=False) and rows >= (
        2.4 if view.board == "square" else 2.6
    )


def has_rulers(view: View) -> bool:
    """Letter+number coordinates (A1, B10) can be read off rulers when cells are too small."""
    return view.board != "area" and all(_COORD.match(c.coord) for c in view.cells)


def draw_rulers(draw: paint.Draw, view: View, placement: Placement) -> None:
    """Column letters above each column's topmost cell and row numbers left of each row, in
    the board's margin: the full view of a big board has no room for a coordinate per cell."""
    if not has_rulers(view):
        return
    tops: dict[str, Point] = {}
    lefts: dict[str, Point] = {}
    for cell in view.cells:
        m = _COORD.match(cell.coord)
        if m is None or cell.terrain in theme.BLOCKING_TERRAIN:
            continue
        letter, number = m.group(1).upper(), m.group(2)
        x, y = placement.centres[cell.coord]
        if letter not in tops or y < tops[letter][1]:
            tops[letter] = (x, y)
        if number not in lefts or x < lefts[number][0]:
            lefts[number] = (x, y)
    # Letters go along the top edge; one that would touch its neighbour goes to the bottom
    # edge instead (hex columns zigzag half a hex apart).
    last = {0: -1e9, 1: -1e9}
    for letter, (x, _) in sorted(tops.items(), key=lambda kv: kv[1][0]):
        half = theme.text_width(letter, theme.MIN_TEXT, True) / 2 + 2
        row = 0 if x - half > last[0] else 1
        if row == 1 and x - half <= last[1]:
            continue
        last[row] = x + half
        if row == 0:
            paint.text(draw, (x, 2), letter, theme.MIN_TEXT, theme.FAINT, True, "mt")
        else:
            bottom = placement.height - 2
            paint.text(draw, (x, bottom), letter, theme.MIN_TEXT, theme.FAINT, True, "mb")
    for number, (_, y) in lefts.items():
        paint.text(draw, (2, y), number, theme.MIN_TEXT, theme.FAINT, True, "lm")


# --- shared pieces -------------------------------------------------------------------------


def _wall(draw: paint.Draw, seg: Segment, width: int) -> None:
    draw.line(seg, fill=theme.WALL, width=width)
    for p in seg:
        r = width / 2
        draw.ellipse((p[0] - r, p[1] - r, p[0] + r, p[1] + r), fill=theme.WALL)


def _part(seg: Segment, t0: float, t1: float) -> Segment:
    (ax, ay), (bx, by) = seg
    return (ax + (bx - ax) * t0, ay + (by - ay) * t0), (ax + (bx - ax) * t1, ay + (by - ay) * t1)


def _mid(seg: Segment) -> Point:
    (ax, ay), (bx, by) = seg
    return (ax + bx) / 2, (ay + by) / 2


def draw_edge(draw: paint.Draw, edge: EdgeView, placement: Placement) -> None:
    seg = placement.segment(edge.a, edge.b)
    if seg is None:
        return
    base = edge_base(edge.kind)
    cs = placement.cell_size
    wall_w = max(4, int(cs / 9))
    small = paint.legible(cs / 5.5)
    if base in ("wall", "blocked"):
        _wall(draw, seg, wall_w)
    elif base == "area-border":
        draw.line(seg, fill=(150, 156, 168), width=2)
    elif base == "window":
        _wall(draw, seg, wall_w)
        draw.line(_part(seg, 0.18, 0.82), fill=theme.SKY, width=max(2, wall_w - 2))
    elif base == "barrier":  # a crack or crater edge: striped, only flyers cross it
        draw.line(seg, fill=theme.EDGE_COLOURS["barrier"], width=wall_w)
        for start in (0.1, 0.4, 0.7):
            draw.line(_part(seg, start, start + 0.15), fill=theme.WHITE, width=max(2, wall_w // 2))
    elif base == "airlock":
        _wall(draw, seg, wall_w)
        draw.line(_part(seg, 0.12, 0.88), fill=theme.BLUE, width=wall_w + 2)
        name = edge.kind.split(":", 1)[1] if ":" in edge.kind else ""
        paint.pill(draw, _mid(seg), name[:2].upper() or "A", small, theme.BLUE, theme.WHITE)
    elif "door" in base:
        _door(draw, base, seg, wall_w, small)
    else:
        draw.line(seg, fill=theme.EDGE_COLOURS.get(base, theme.ORANGE), width=wall_w)


def _door(draw: paint.Draw, base: str, seg: Segment, wall_w: int, small: int) -> None:
    """Doors by state and kind: open is a gap, closed a bar, locked/sealed carry letters."""
    _wall(draw, _part(seg, 0.0, 0.2), wall_w)
    _wall(draw, _part(seg, 0.8, 1.0), wall_w)
    security = base.startswith("security")
    if base.endswith("-open"):
        colour = theme.GREEN
        draw.line(_part(seg, 0.2, 0.3), fill=colour, width=wall_w + 2)
        draw.line(_part(seg, 0.7, 0.8), fill=colour, width=wall_w + 2)
        return
    if "locked" in base:
        colour = theme.VERMILION
        letter = "C" if base.endswith("code") else ("K" if base.endswith("key") else "L")
    elif base.endswith("sealed") or base.endswith("blocked"):
        colour, letter = theme.PURPLE, "X"
    elif security:
        colour, letter = theme.YELLOW, "S"
    else:
        colour, letter = theme.ORANGE, ""
    draw.line(_part(seg, 0.2, 0.8), fill=colour, width=wall_w + 2)
    if letter:
        ink = theme.WHITE if colour in (theme.VERMILION, theme.PURPLE) else theme.INK
        paint.pill(draw, _mid(seg), letter, small, colour, ink)


def _coord_label(draw: paint.Draw, xy: Point, text: str, size: int) -> None:
    paint.text(draw, xy, text, size, theme.FAINT, anchor="lt")


# --- square boards (Forlorn: Hope) ---------------------------------------------------------


class SquareBoard:
    board = "square"

    def draw_static(self, draw: paint.Draw, view: View, placement: Placement) -> None:
        cs = placement.cell_size
        size = paint.legible(cs / 4.6)
        for cell in view.cells:
            poly = placement.polygons[cell.coord]
            if cell.terrain in theme.BLOCKING_TERRAIN:
                draw.polygon(poly, fill=theme.TERRAIN.get(cell.terrain, theme.BACKGROUND))
                continue
            colour = theme.TERRAIN.get(cell.terrain, theme.TERRAIN["floor"])
            if cell.terrain == "floor" and cell.room is None:
                colour = theme.TERRAIN["corridor"]
            draw.polygon(poly, fill=colour, outline=theme.GRID)
        coords = coords_fit(view, placement)
        symbols = marks_of(view)
        for cell in view.cells:
            if cell.terrain in theme.BLOCKING_TERRAIN:
                continue
            (x0, y0) = placement.polygons[cell.coord][0]
            if coords:
                _coord_label(draw, (x0 + 2, y0 + 1), cell.coord, size)
            self._marks(draw, cell, placement, size, symbols)
        for edge in view.edges:
            if is_static_edge(edge):
                draw_edge(draw, edge, placement)

    def _marks(
        self, draw: paint.Draw, cell: CellView, placement: Placement, size: int, symbols: Symbols
    ) -> None:
        cs = placement.cell_size
        x0, y0 = placement.polygons[cell.coord][0]
        cx, cy = placement.centres[cell.coord]
        slot = 0
        for mark in cell.marks:
            if is_dynamic_mark(mark, symbols):
                continue
            name, _, arg = mark.partition(":")
            if name == "letter":
                paint.text(draw, (cx, cy), arg, int(cs * 0.7), (132, 126, 72), True, "mm")
                continue
            if name == "setup":
                t = cs * 0.22
                draw.polygon(
                    [(x0 + 1, y0 + cs - 1), (x0 + 1, y0 + cs - t), (x0 + t, y0 + cs - 1)],
                    fill=theme.GREEN,
                )
                continue
            text, fill, ink = {
                "vent": (f"V{arg}", theme.PURPLE, theme.INK),
                "cache": ("IT", theme.YELLOW, theme.INK),
                "airlock": ("AL", theme.BLUE, theme.WHITE),
                "exit": ("EX", theme.GREEN, theme.INK),
            }.get(name, (name[:2].upper(), theme.MUTED, theme.INK))
            paint.pill(
                draw,
                (x0 + cs - 2, y0 + 2 + slot * (size + 3)),
                text,
                size - 1,
                fill,
                ink,
                anchor="rt",
            )
            slot += 1
            if name == "vent":
                for i in range(3):
                    yy = y0 + cs * (0.62 + i * 0.1)
                    draw.line((x0 + cs * 0.3, yy, x0 + cs * 0.7, yy), fill=(120, 104, 140), width=2)

    def draw_dynamic(self, draw: paint.Draw, view: View, placement: Placement) -> None:
        for edge in view.edges:
            if not is_static_edge(edge):
                draw_edge(draw, edge, placement)


# --- hex boards with Areas (Galaxy Defenders) ----------------------------------------------


# Hex boards label a mark in the few characters a hex holds; the legend explains each form.
HEX_MARK_FORMS: dict[str, tuple[str, str, theme.RGB]] = {
    # prefix of the mark name -> (label prefix, legend, colour); digits after it are kept
    "wp": ("W", "W#: Waypoint", theme.YELLOW),
    "m": ("#", "#N: numbered hex mark", theme.YELLOW),
}
HEX_MARK_WORDS: dict[str, tuple[str, theme.RGB]] = {
    "blocked": ("BLOCK", theme.YELLOW),
    "civilian": ("CIVIL", theme.YELLOW),
}


def hex_mark_text(name: str, symbols: Symbols | None = None) -> tuple[str, theme.RGB]:
    """A hex mark's short label and colour: `wp3` -> W3, `m1` -> #1, a mark the view brings
    by its symbol (`View.symbols`)."""
    if symbols:
        if name in symbols and not symbols[name].numbered:
            return symbols[name].text, named_colour(symbols[name].colour)
        form = stem_of(name, symbols)
        if form is not None:
            return f"{form.text}{name[len(form.kind) :]}", named_colour(form.colour)
    if name in HEX_MARK_WORDS:
        return HEX_MARK_WORDS[name]
    stem = name.rstrip("0123456789")
    if stem in HEX_MARK_FORMS and stem != name:
        prefix, _, fill = HEX_MARK_FORMS[stem]
        return f"{prefix}{name[len(stem) :]}", fill
    return name[:5].upper(), theme.YELLOW


class HexBoard:
    board = "hex"

    def draw_static(self, draw: paint.Draw, view: View, placement: Placement) -> None:
        cs = placement.cell_size
        size = paint.legible(cs / 5)
        by_area: dict[str, list[CellView]] = {}
        for cell in view.cells:
            if cell.area:
                by_area.setdefault(cell.area, []).append(cell)
        area_marks = {
            a: {m for c in cells for m in c.marks if m in ("search", "exit")}
            for a, cells in by_area.items()
        }
        for cell in view.cells:
            poly = placement.polygons[cell.coord]
            colour = theme.TERRAIN.get(cell.terrain, theme.TERRAIN["floor"])
            flags = area_marks.get(cell.area or "", set())
            if "exit" in flags:
                colour = (62, 112, 92)
            elif "search" in flags:
                colour = (112, 104, 82)
            draw.polygon(poly, fill=colour, outline=theme.GRID)
        self._area_borders(draw, view, placement)
        coords = coords_fit(view, placement)
        symbols = marks_of(view)
        for cell in view.cells:
            cx, cy = placement.centres[cell.coord]
            if coords:
                paint.text(draw, (cx, cy - cs * 0.3), cell.coord, size, theme.FAINT, anchor="mm")
            self._marks(draw, cell, placement, size, symbols)
        for area, cells in by_area.items():
            flags = area_marks[area]
            centre = next((c for c in cells if "centre" in c.marks), cells[len(cells) // 2])
            cx, cy = placement.centres[centre.coord]
            if "exit" in flags:
                paint.pill(draw, (cx, cy + cs * 0.62), "EXIT", size, theme.GREEN)
            elif "search" in flags:
                paint.pill(draw, (cx, cy + cs * 0.62), "SEARCH", size, theme.ORANGE)
        for edge in view.edges:
            if is_static_edge(edge):
                draw_edge(draw, edge, placement)

    def _area_borders(self, draw: paint.Draw, view: View, placement: Placement) -> None:
        area = {(c.col, c.row): c.area for c in view.cells}
        for c in view.cells:
            for dq, dr in HEX_DIRECTIONS[:3]:
                other = (c.col + dq, c.row + dr)
                if other in area and area[other] != c.area:
                    seg = placement.segment(c.coord, placement.grid[other])
                    if seg:
                        draw.line(seg, fill=(168, 174, 186), width=2)

    def _marks(
        self, draw: paint.Draw, cell: CellView, placement: Placement, size: int, symbols: Symbols
    ) -> None:
        cs = placement.cell_size
        cx, cy = placement.centres[cell.coord]
        for mark in cell.marks:
            if is_dynamic_mark(mark, symbols):
                continue
            name, _, arg = mark.partition(":")
            if name == "centre":
                r = cs * 0.1
                draw.ellipse((cx - r, cy - r, cx + r, cy + r), outline=(170, 176, 188), width=2)
            elif name == "start":
                paint.pill(draw, (cx, cy + cs * 0.3), "S", size - 1, theme.SKY)
            elif name == "teleport":
                self.teleport(draw, cx, cy, cs, arg, size, destroyed=False)
            elif name not in ("search", "exit"):
                text, fill = hex_mark_text(name, symbols)
                paint.pill(draw, (cx, cy + cs * 0.3), text, size - 1, fill)

    @staticmethod
    def teleport(
        draw: paint.Draw, cx: float, cy: float, cs: int, arg: str, size: int, destroyed: bool
    ) -> None:
        r = cs * 0.36
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), outline=theme.PURPLE, width=3)
        text = arg.split(":")[0][:6] or "TP"  # the ring says Teleport Point; the pill its symbol
        paint.pill(draw, (cx, cy + cs * 0.3), text, size - 1, theme.PURPLE, theme.INK)
        if destroyed:
            draw.line((cx - r, cy - r, cx + r, cy + r), fill=theme.VERMILION, width=3)
            draw.line((cx - r, cy + r, cx + r, cy - r), fill=theme.VERMILION, width=3)

    def draw_dynamic(self, draw: paint.Draw, view: View, placement: Placement) -> None:
        size = paint.legible(placement.cell_size / 5)
        symbols = marks_of(view)
        for cell in view.cells:
            for mark in cell.marks:
                if not is_dynamic_mark(mark, symbols):
                    continue
                cx, cy = placement.centres[cell.coord]
                name, _, arg = mark.partition(":")
                if name == "teleport":
                    self.teleport(draw, cx, cy, placement.cell_size, arg, size, destroyed=True)
                    continue
                cover = symbols[name].cover if name in symbols else ""
                if cover:  # a mark over the whole hex (a chasm ...)
                    poly = placement.polygons[cell.coord]
                    draw.polygon(
                        poly, fill=named_colour(cover), outline=named_colour(symbols[name].colour)
                    )
                # beside the hex's own mark pill (a Waypoint's W#), not over it
                shift = placement.cell_size * (0.42 if len(cell.marks) > 1 else 0)
                text, fill = hex_mark_text(name, symbols)
                paint.pill(draw, (cx + shift, cy + placement.cell_size * 0.3), text, size - 1, fill)
        for edge in view.edges:
            if not is_static_edge(edge):
                draw_edge(draw, edge, placement)


# --- tile and Area boards (Reichbusters) ---------------------------------------------------


class AreaBoard:
    board = "area"

    def draw_static(self, draw: paint.Draw, view: View, placement: Placement) -> None:
        cs = placement.cell_size
        areas = list(placement.area_cells)
        tint = {a: theme.AREA_TINTS[i % len(theme.AREA_TINTS)] for i, a in enumerate(areas)}
        for cell in view.cells:
            poly = placement.polygons[cell.coord]
            if cell.terrain in theme.BLOCKING_TERRAIN:
                draw.polygon(poly, fill=theme.TERRAIN.get(cell.terrain, theme.BACKGROUND))
                continue
            colour = tint.get(cell.area or "", theme.TERRAIN["floor"])
            draw.polygon(poly, fill=colour, outline=(86, 90, 100))
        for edge in view.edges:
            if is_static_edge(edge):
                draw_edge(draw, edge, placement)
        size = paint.legible(cs / 5)
        for area, coords in placement.area_cells.items():
            first = min(coords, key=lambda c: (placement.centres[c][1], placement.centres[c][0]))
            x0, y0 = placement.polygons[first][0]
            paint.pill(draw, (x0 + 4, y0 + 4), area, size, (28, 30, 36), theme.TEXT, anchor="lt")
        symbols = marks_of(view)
        for cell in view.cells:
            self._marks(draw, cell, placement, size, dynamic=False, symbols=symbols)

    def _marks(
        self,
        draw: paint.Draw,
        cell: CellView,
        placement: Placement,
        size: int,
        dynamic: bool,
        symbols: Symbols,
    ) -> None:
        if not cell.marks or not cell.area:
            return
        cs = placement.cell_size
        if dynamic and "smoke" in cell.marks:
            for c in placement.area_cells.get(cell.area, []):
                px, py = placement.polygons[c][0]
                for k in range(0, cs, 8):
                    draw.line((px + k, py, px, py + k), fill=(150, 150, 150), width=1)
        # Static and dynamic marks share one layout so they never overlap.
        for mark, (text, fill, box) in zip(
            cell.marks, mark_boxes(placement, cell.area, cell.marks), strict=True
        ):
            if is_dynamic_mark(mark, symbols) != dynamic:
                continue
            ink = theme.WHITE if fill == theme.VERMILION else theme.INK
            paint.pill(draw, (box[0], (box[1] + box[3]) / 2), text, size - 1, fill, ink, "lm")

    def draw_dynamic(self, draw: paint.Draw, view: View, placement: Placement) -> None:
        size = paint.legible(placement.cell_size / 5)
        symbols = marks_of(view)
        for cell in view.cells:
            self._marks(draw, cell, placement, size, dynamic=True, symbols=symbols)
        for edge in view.edges:
            if not is_static_edge(edge):
                draw_edge(draw, edge, placement)


Renderer = SquareBoard | HexBoard | AreaBoard
RENDERERS: dict[str, Renderer] = {"square": SquareBoard(), "hex": HexBoard(), "area": AreaBoard()}
