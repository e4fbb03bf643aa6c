"""Collision-free placement of the pills drawn on a board (marks, Teleport Points, story tags,
ranks, badges): each label goes to the nearest free spot around where it asked to be, or is
left out (the strip's text still says it) rather than drawn over another label.

A placer is active for the duration of a `placing()` block; `paint.pill` asks it where to go.
The static terrain layer keeps its labels' boxes, so a step's labels avoid them too.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field

Box = tuple[float, float, float, float]
GRID = 48
GAP = 1.0


def overlap(a: Box, b: Box, gap: float = GAP) -> bool:
    return a[0] < b[2] + gap and b[0] < a[2] + gap and a[1] < b[3] + gap and b[1] < a[3] + gap


@dataclass
class Placer:
    """Boxes taken so far (labels, and obstacles such as figure tokens) in a grid index."""

    width: float
    height: float
    labels: list[tuple[str, Box]] = field(default_factory=list)
    dropped: list[str] = field(default_factory=list)
    _grid: dict[tuple[int, int], list[Box]] = field(default_factory=dict)

    def _cells(self, box: Box) -> Iterator[tuple[int, int]]:
        for gx in range(int(box[0] // GRID), int(box[2] // GRID) + 1):
            for gy in range(int(box[1] // GRID), int(box[3] // GRID) + 1):
                yield gx, gy

    def free(self, box: Box) -> bool:
        if box[0] < 0 or box[1] < 0 or box[2] > self.width or box[3] > self.height:
            return False
        return not any(
            overlap(box, other) for c in self._cells(box) for other in self._grid.get(c, ())
        )

    def take(self, box: Box, text: str | None = None) -> None:
        """Mark `box` as used: a label (with its text) or, without text, an obstacle."""
        for c in self._cells(box):
            self._grid.setdefault(c, []).append(box)
        if text is not None:
            self.labels.append((text, box))

    def place(self, box: Box, text: str) -> Box | None:
        """The nearest free box of the same size around `box` (taken), or None (dropped)."""
        w, h = box[2] - box[0], box[3] - box[1]
        for dx, dy in _offsets(w, h):
            moved = (box[0] + dx, box[1] + dy, box[2] + dx, box[3] + dy)
            if self.free(moved):
                self.take(moved, text)
                return moved
        self.dropped.append(text)
        return None

    def seed(self, labels: list[tuple[str, Box]]) -> None:
        for text, box in labels:
            self.take(box, text)


def _offsets(w: float, h: float) -> list[tuple[float, float]]:
    """Candidate shifts, nearest first: up, down, sideways, diagonals, in three rings."""
    out: list[tuple[float, float]] = [(0.0, 0.0)]
    for k in (1, 2, 3):
        dy, dx = (h + 2) * k, (w / 2 + 2) * k
        out += [(0, -dy), (0, dy), (dx, 0), (-dx, 0), (dx, -dy), (-dx, -dy), (dx, dy), (-dx, dy)]
    return out


_ACTIVE: ContextVar[Placer | None] = ContextVar("label_placer", default=None)


@contextmanager
def placing(placer: Placer) -> Iterator[Placer]:
    token = _ACTIVE.set(placer)
    try:
        yield placer
    finally:
        _ACTIVE.reset(token)


def active() -> Placer | None:
    return _ACTIVE.get()
