"""Where each board cell is drawn: pixel outlines and centres, Area anchors and figure slots.

Square and area boards are grids of squares (an Area is a group of squares); hex boards use
pointy-top hexes at axial `col`/`row`, with the centre formula of `engine.core.hexgrid`.
A `Placement` depends only on the board's shape, so it is cached by `shape_key`.
"""

from __future__ import annotations

import math
import threading
from collections import OrderedDict
from dataclasses import dataclass, field

from engine.core.view import View
from renders import theme

SQRT3 = math.sqrt(3.0)
Point = tuple[float, float]
Segment = tuple[Point, Point]

# Default cell size in pixels per board kind (full view); the focus view scales up.
CELL_SIZE: dict[str, int] = {"square": 40, "hex": 52, "area": 64}
SQUARE_SIDES = {"N": (0, 1), "E": (1, 2), "S": (2, 3), "W": (3, 0)}


@dataclass
class Placement:
    """Pixel geometry of a board: cell outlines and centres, Area anchors, the board size."""

    board: str
    cell_size: int
    polygons: dict[str, list[Point]]
    centres: dict[str, Point]
    width: int
    height: int
    grid: dict[tuple[int, int], str] = field(default_factory=dict)
    area_cells: dict[str, list[str]] = field(default_factory=dict)
    area_anchor: dict[str, Point] = field(default_factory=dict)
    upper: dict[str, str] = field(default_factory=dict)
    _segments: dict[tuple[str, str], Segment | None] = field(default_factory=dict)

    @property
    def slots_per_cell(self) -> int:
        """Area boards seat four figures per cell when a quarter cell still holds a token with
        a legible label, else one per cell."""
        if self.board == "area" and self.cell_size * 0.21 >= 0.8 * theme.MIN_TEXT:
            return 4
        return 1

    @property
    def token_radius(self) -> float:
        """Tokens grow towards filling their cell on small boards, so that a two-letter label
        at the legible size fits inside."""
        cs = self.cell_size
        if self.board == "area" and self.slots_per_cell == 4:
            factor = 0.21
        else:
            factor = 0.33 if self.board == "hex" else 0.36
        return max(cs * factor, min(cs * 0.44, 0.8 * theme.MIN_TEXT))

    def resolve(self, coord: str) -> str | None:
        """The cell or Area id a typed coordinate names (case-insensitive)."""
        return self.upper.get(coord.upper())

    def anchor(self, coord: str) -> Point | None:
        """Pixel centre of a cell, or of an Area on area boards."""
        key = self.resolve(coord)
        if key is None:
            return None
        if key in self.area_anchor and key not in self.centres:
            return self.area_anchor[key]
        if self.board == "area" and key in self.area_anchor:
            return self.area_anchor[key]
        return self.centres.get(key)

    def segment(self, a: str, b: str) -> Segment | None:
        """The border segment between cell `a` and `b` (`b` may be `off:N` for the board edge)."""
        key = (a, b)
        if key not in self._segments:
            self._segments[key] = self._find_segment(a, b)
        return self._segments[key]

    def _find_segment(self, a: str, b: str) -> Segment | None:
        pa = self.polygons.get(a)
        if pa is None:
            return None
        if b.startswith("off:") and self.board != "hex":
            i, j = SQUARE_SIDES.get(b[4:5].upper(), (0, 1))
            return pa[i], pa[j]
        pb = self.polygons.get(b)
        if pb is None:
            return None
        return shared_side(pa, pb)


def _hex_corners(cx: float, cy: float, size: float) -> list[Point]:
    return [
        (
            cx + size * math.cos(math.radians(60 * i - 30)),
            cy + size * math.sin(math.radians(60 * i - 30)),
        )
        for i in range(6)
    ]


def shape_key(view: View, cell_size: int) -> tuple[object, ...]:
    """Everything the pixel geometry depends on: game, scenario, board kind and cell layout."""
    cells = tuple((c.coord, c.col, c.row, c.area) for c in view.cells)
    return (view.game, view.scenario, view.board, cell_size, hash(cells), len(cells))


_CACHE: OrderedDict[tuple[object, ...], Placement] = OrderedDict()
_CACHE_SIZE = 32
_LOCK = threading.Lock()


def place(view: View, cell_size: int | None = None, margin: int = 14) -> Placement:
    size = cell_size or CELL_SIZE[view.board]
    key = (*shape_key(view, size), margin)
    with _LOCK:
        hit = _CACHE.get(key)
        if hit is not None:
            _CACHE.move_to_end(key)
            return hit
    placement = _build(view, size, margin)
    with _LOCK:
        _CACHE[key] = placement
        while len(_CACHE) > _CACHE_SIZE:
            _CACHE.popitem(last=False)
    return placement


def _build(view: View, cell_size: int, margin: int) -> Placement:
    polygons: dict[str, list[Point]] = {}
    centres: dict[str, Point] = {}
    grid: dict[tuple[int, int], str] = {}
    cells = view.cells
    if view.board == "hex":
        size = cell_size / 2
        raw = {c.coord: (size * SQRT3 * (c.col + c.row / 2), size * 1.5 * c.row) for c in cells}
        min_x = min((x for x, _ in raw.values()), default=0.0) - size * SQRT3 / 2
        min_y = min((y for _, y in raw.values()), default=0.0) - size
        for coord, (x, y) in raw.items():
            cx, cy = x - min_x + margin, y - min_y + margin
            centres[coord] = (cx, cy)
            polygons[coord] = _hex_corners(cx, cy, size)
    else:
        min_col = min((c.col for c in cells), default=0)
        min_row = min((c.row for c in cells), default=0)
        for c in cells:
            x = margin + (c.col - min_col) * cell_size
            y = margin + (c.row - min_row) * cell_size
            right, bottom = x + cell_size, y + cell_size
            polygons[c.coord] = [(x, y), (right, y), (right, bottom), (x, bottom)]
            centres[c.coord] = (x + cell_size / 2, y + cell_size / 2)
    for c in cells:
        grid[(c.col, c.row)] = c.coord
    xs = [x for poly in polygons.values() for x, _ in poly] or [0.0]
    ys = [y for poly in polygons.values() for _, y in poly] or [0.0]
    placement = Placement(
        board=view.board,
        cell_size=cell_size,
        polygons=polygons,
        centres=centres,
        width=int(max(xs) + margin),
        height=int(max(ys) + margin),
        grid=grid,
    )
    for c in cells:
        if c.area:
            placement.area_cells.setdefault(c.area, []).append(c.coord)
    placement.area_anchor = {a: _anchor_of(cs, centres) for a, cs in placement.area_cells.items()}
    placement.upper = {k.upper(): k for k in centres}
    if view.board == "area":
        placement.upper.update({a.upper(): a for a in placement.area_cells})
    return placement


def _anchor_of(coords: list[str], centres: dict[str, Point]) -> Point:
    """The mean centre of an Area, or its nearest own cell when the mean falls outside it."""
    xs = [centres[c][0] for c in coords]
    ys = [centres[c][1] for c in coords]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    nearest = min(coords, key=lambda c: (centres[c][0] - mx) ** 2 + (centres[c][1] - my) ** 2)
    nx, ny = centres[nearest]
    spacing = min(
        (abs(centres[c][0] - nx) + abs(centres[c][1] - ny) for c in coords if c != nearest),
        default=1.0,
    )
    if abs(nx - mx) > spacing * 0.55 or abs(ny - my) > spacing * 0.55:
        return nx, ny
    return mx, my


def area_centres(view: View, placement: Placement) -> dict[str, Point]:
    """The anchor point of each Area (kept for callers of the first renderer)."""
    return dict(placement.area_anchor)


def area_slots(placement: Placement, area: str, radius: float) -> list[Point]:
    """Places for tokens inside an Area: a 2x2 sub-grid of each of its cells, nearest first."""
    coords = placement.area_cells.get(area, [])
    if not coords:
        return []
    ax, ay = placement.area_anchor[area]
    q = placement.cell_size / 4
    offsets = (-q, q) if placement.slots_per_cell == 4 else (0.0,)
    points = [
        (x + dx, y + dy)
        for c in coords
        for x, y in [placement.centres[c]]
        for dx in offsets
        for dy in offsets
    ]
    return sorted(points, key=lambda p: ((p[0] - ax) ** 2 + (p[1] - ay) ** 2, p[1], p[0]))


def shared_side(a: list[Point], b: list[Point]) -> Segment | None:
    """The segment two cell outlines share, if they are neighbours."""
    close = [p for p in a if any(abs(p[0] - q[0]) < 0.5 and abs(p[1] - q[1]) < 0.5 for q in b)]
    if len(close) >= 2:
        return close[0], close[1]
    return None
