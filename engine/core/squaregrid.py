"""Square grids: 8-neighbour moves, four facings, front arcs and centre-to-centre lines.

A square is `(x, y)` with x growing east and y growing south (screen order).
"""

from __future__ import annotations

from collections.abc import Iterator
from enum import StrEnum
from fractions import Fraction
from typing import NamedTuple


class Square(NamedTuple):
    x: int
    y: int


class Facing(StrEnum):
    """The four facings of a unit, clockwise."""

    N = "N"
    E = "E"
    S = "S"
    W = "W"

    @property
    def delta(self) -> tuple[int, int]:
        return _DELTAS[self]

    def turned(self, quarter_turns: int) -> Facing:
        """Turned clockwise by `quarter_turns` (negative: counter-clockwise)."""
        return _CLOCKWISE[(_CLOCKWISE.index(self) + quarter_turns) % 4]

    @property
    def left(self) -> Facing:
        return self.turned(-1)

    @property
    def right(self) -> Facing:
        return self.turned(1)

    @property
    def back(self) -> Facing:
        return self.turned(2)


_CLOCKWISE: tuple[Facing, ...] = tuple(Facing)

_DELTAS: dict[Facing, tuple[int, int]] = {
    Facing.N: (0, -1),
    Facing.E: (1, 0),
    Facing.S: (0, 1),
    Facing.W: (-1, 0),
}

ORTHOGONAL: tuple[tuple[int, int], ...] = ((0, -1), (1, 0), (0, 1), (-1, 0))
DIAGONAL: tuple[tuple[int, int], ...] = ((1, -1), (1, 1), (-1, 1), (-1, -1))


def step(sq: Square, delta: tuple[int, int]) -> Square:
    return Square(sq.x + delta[0], sq.y + delta[1])


def neighbours(sq: Square) -> list[Square]:
    """The eight surrounding squares: orthogonal first, then diagonal."""
    return [step(sq, d) for d in (*ORTHOGONAL, *DIAGONAL)]


def is_diagonal(a: Square, b: Square) -> bool:
    return abs(a.x - b.x) == 1 and abs(a.y - b.y) == 1


def chebyshev(a: Square, b: Square) -> int:
    return max(abs(a.x - b.x), abs(a.y - b.y))


def manhattan(a: Square, b: Square) -> int:
    """Distance counting only orthogonal steps (no diagonals)."""
    return abs(a.x - b.x) + abs(a.y - b.y)


def ahead(origin: Square, facing: Facing, target: Square) -> int:
    """How many rows `target` lies in front of `origin` along `facing` (negative: behind)."""
    dx, dy = facing.delta
    return (target.x - origin.x) * dx + (target.y - origin.y) * dy


def in_front_arc(origin: Square, facing: Facing, target: Square) -> bool:
    """True when `target` is at least one row in front of `origin`, at any sideways offset."""
    return ahead(origin, facing, target) >= 1


def facing_towards(origin: Square, target: Square) -> Facing | None:
    """The facing that points straight at an orthogonally aligned `target`, if any."""
    dx, dy = target.x - origin.x, target.y - origin.y
    if (dx and dy) or not (dx or dy):
        return None
    unit = ((dx > 0) - (dx < 0), (dy > 0) - (dy < 0))
    return next(f for f in Facing if f.delta == unit)


def _segment_meets_box(
    p: tuple[int, int], q: tuple[int, int], lo: tuple[int, int], hi: tuple[int, int], closed: bool
) -> bool:
    """Liang-Barsky in exact arithmetic: does segment pq meet the box [lo, hi]?

    With `closed=False` the segment must enter the box's interior; touching its border or a
    corner does not count.
    """
    t0, t1 = Fraction(0), Fraction(1)
    for axis in (0, 1):
        d = q[axis] - p[axis]
        lo_gap, hi_gap = lo[axis] - p[axis], hi[axis] - p[axis]
        if d == 0:
            inside = lo_gap <= 0 <= hi_gap if closed else lo_gap < 0 < hi_gap
            if not inside:
                return False
            continue
        ta, tb = Fraction(lo_gap, d), Fraction(hi_gap, d)
        if ta > tb:
            ta, tb = tb, ta
        t0, t1 = max(t0, ta), min(t1, tb)
        if t0 > t1 or (not closed and t0 == t1):
            return False
    return True


def line_squares(a: Square, b: Square, touching: bool = True) -> list[Square]:
    """Squares met by the segment between the centres of `a` and `b`, ordered from `a`.

    With `touching=True` a square counts when the line merely touches its border or corner (the
    strict reading several rulebooks use for walls); with `touching=False` the line must cross its
    interior. Both endpoints are included.
    """
    # Work in doubled integer coordinates: the centre of (x, y) is (2x+1, 2y+1).
    p, q = (2 * a.x + 1, 2 * a.y + 1), (2 * b.x + 1, 2 * b.y + 1)
    xs = range(min(a.x, b.x) - 1, max(a.x, b.x) + 2)
    ys = range(min(a.y, b.y) - 1, max(a.y, b.y) + 2)
    met = [
        Square(x, y)
        for x in xs
        for y in ys
        if _segment_meets_box(p, q, (2 * x, 2 * y), (2 * x + 2, 2 * y + 2), touching)
    ]

    def progress(sq: Square) -> tuple[int, int, int]:
        cx, cy = 2 * sq.x + 1 - p[0], 2 * sq.y + 1 - p[1]
        return (cx * (q[0] - p[0]) + cy * (q[1] - p[1]), sq.x, sq.y)

    return sorted(met, key=progress)


def rect(width: int, height: int) -> Iterator[Square]:
    for y in range(height):
        for x in range(width):
            yield Square(x, y)
