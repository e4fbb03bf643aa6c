"""Where each board cell is drawn: pixel centres and outlines for square, hex and area boards."""

from __future__ import annotations

import math
from dataclasses import dataclass

from engine.core.view import CellView, View

SQRT3 = math.sqrt(3.0)


@dataclass(frozen=True)
class Placement:
    """Pixel geometry of a board: cell outline polygons and centres, and the board size."""

    cell_size: int
    polygons: dict[str, list[tuple[float, float]]]
    centres: dict[str, tuple[float, float]]
    width: int
    height: int


def _square_polygon(col: int, row: int, size: int, margin: int) -> list[tuple[float, float]]:
    x, y = margin + col * size, margin + row * size
    return [(x, y), (x + size, y), (x + size, y + size), (x, y + size)]


def _hex_corners(cx: float, cy: float, size: float) -> list[tuple[float, float]]:
    return [
        (
            cx + size * math.cos(math.radians(60 * i - 30)),
            cy + size * math.sin(math.radians(60 * i - 30)),
        )
        for i in range(6)
    ]


def place(view: View, cell_size: int = 36, margin: int = 12) -> Placement:
    polygons: dict[str, list[tuple[float, float]]] = {}
    centres: dict[str, tuple[float, float]] = {}
    cells: list[CellView] = view.cells
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
            poly = _square_polygon(c.col - min_col, c.row - min_row, cell_size, margin)
            polygons[c.coord] = poly
            centres[c.coord] = (poly[0][0] + cell_size / 2, poly[0][1] + cell_size / 2)
    xs = [x for poly in polygons.values() for x, _ in poly] or [0.0]
    ys = [y for poly in polygons.values() for _, y in poly] or [0.0]
    return Placement(
        cell_size=cell_size,
        polygons=polygons,
        centres=centres,
        width=int(max(xs) + margin),
        height=int(max(ys) + margin),
    )


def area_centres(view: View, placement: Placement) -> dict[str, tuple[float, float]]:
    """The mean centre of each Area's cells (area boards place figures by Area)."""
    sums: dict[str, list[float]] = {}
    for cell in view.cells:
        if cell.area is None:
            continue
        x, y = placement.centres[cell.coord]
        acc = sums.setdefault(cell.area, [0.0, 0.0, 0.0])
        acc[0] += x
        acc[1] += y
        acc[2] += 1
    return {area: (s[0] / s[2], s[1] / s[2]) for area, s in sums.items()}


def shared_side(
    a: list[tuple[float, float]], b: list[tuple[float, float]]
) -> tuple[tuple[float, float], tuple[float, float]] | None:
    """The segment two cell outlines share, if they are neighbours."""
    close = [p for p in a if any(abs(p[0] - q[0]) < 0.5 and abs(p[1] - q[1]) < 0.5 for q in b)]
    if len(close) >= 2:
        return close[0], close[1]
    return None
