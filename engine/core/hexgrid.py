"""Hex grids in axial coordinates (pointy-top), after the usual cube-coordinate algebra.

A hex is `(q, r)`; the implied third cube coordinate is `s = -q - r`. Centres lie at
x = sqrt(3) * (q + r / 2), y = 3/2 * r (unit hex size), which the renderer shares.

Line of sight runs centre to centre. A line can run exactly along the side shared by two hexes;
`line` reports such a step as a pair, so each game applies its own rule for it (commonly: the
line is blocked only when both hexes of the pair block).
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import NamedTuple

SQRT3 = math.sqrt(3.0)


class Hex(NamedTuple):
    q: int
    r: int

    @property
    def s(self) -> int:
        return -self.q - self.r

    def __add__(self, other: object) -> Hex:
        if not isinstance(other, Hex):
            return NotImplemented
        return Hex(self.q + other.q, self.r + other.r)

    def __sub__(self, other: object) -> Hex:
        if not isinstance(other, Hex):
            return NotImplemented
        return Hex(self.q - other.q, self.r - other.r)


# Neighbour directions, clockwise from east; the side index i of a hex is shared with neighbour i.
DIRECTIONS: tuple[Hex, ...] = (Hex(1, 0), Hex(1, -1), Hex(0, -1), Hex(-1, 0), Hex(-1, 1), Hex(0, 1))


def neighbour(h: Hex, direction: int) -> Hex:
    return h + DIRECTIONS[direction % 6]


def neighbours(h: Hex) -> list[Hex]:
    return [h + d for d in DIRECTIONS]


def direction_to(a: Hex, b: Hex) -> int | None:
    """The side index of `a` that touches adjacent hex `b`, or None if not adjacent."""
    diff = b - a
    return DIRECTIONS.index(diff) if diff in DIRECTIONS else None


def distance(a: Hex, b: Hex) -> int:
    d = a - b
    return (abs(d.q) + abs(d.r) + abs(d.s)) // 2


def within(center: Hex, radius: int) -> Iterator[Hex]:
    """Every hex at distance <= radius of `center`."""
    for dq in range(-radius, radius + 1):
        for dr in range(max(-radius, -dq - radius), min(radius, -dq + radius) + 1):
            yield Hex(center.q + dq, center.r + dr)


def ring(center: Hex, radius: int) -> list[Hex]:
    if radius == 0:
        return [center]
    out: list[Hex] = []
    h = Hex(center.q + DIRECTIONS[4].q * radius, center.r + DIRECTIONS[4].r * radius)
    for side in range(6):
        for _ in range(radius):
            out.append(h)
            h = neighbour(h, side)
    return out


def to_pixel(h: Hex, size: float = 1.0) -> tuple[float, float]:
    return size * SQRT3 * (h.q + h.r / 2), size * 1.5 * h.r


def _round(qf: float, rf: float) -> Hex:
    sf = -qf - rf
    q, r, s = round(qf), round(rf), round(sf)
    dq, dr, ds = abs(q - qf), abs(r - rf), abs(s - sf)
    if dq > dr and dq > ds:
        q = -r - s
    elif dr > ds:
        r = -q - s
    return Hex(q, r)


def _nudged_line(a: Hex, b: Hex, eps: float) -> list[Hex]:
    # Unequal nudges on q and r (cube nudge (1, 2, -3) * eps) keep rounding free of ties, and are
    # not parallel to any line that runs along hex sides, so +eps and -eps fall on either side.
    n = distance(a, b)
    aq, ar = a.q + eps, a.r + 2 * eps
    bq, br = b.q + eps, b.r + 2 * eps
    return [_round(aq + (bq - aq) * i / n, ar + (br - ar) * i / n) for i in range(n + 1)]


def line(a: Hex, b: Hex) -> list[tuple[Hex, ...]]:
    """The hexes a centre-to-centre line passes through, step by step from `a` to `b`.

    Each step is one hex, or two hexes when the line runs exactly along their shared side.
    """
    if a == b:
        return [(a,)]
    left = _nudged_line(a, b, 1e-6)
    right = _nudged_line(a, b, -1e-6)
    steps: list[tuple[Hex, ...]] = []
    for x, y in zip(left, right, strict=True):
        steps.append((x,) if x == y else tuple(sorted((x, y))))
    return steps


def line_hexes(a: Hex, b: Hex) -> list[Hex]:
    """Every hex touched by the line, without the step structure."""
    seen: list[Hex] = []
    for step in line(a, b):
        for h in step:
            if h not in seen:
                seen.append(h)
    return seen
