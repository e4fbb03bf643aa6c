"""Measuring a picture as a phone shows it: the smallest text and the board labels' overlaps.

`measure(render)` runs a render with the terrain cache cleared (so the static layer's text is
drawn, and measured, too) and returns the image with the smallest font size drawn, scaled to
the 390-px phone width, and the board pills drawn (`tests/renders/test_legibility.py`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from itertools import combinations
from typing import Protocol

from renders import paint, theme
from renders.labels import Box, overlap
from renders.terrain import clear_cache


@dataclass(frozen=True)
class Measured:
    width: int
    smallest: float  # the smallest text's size in CSS pixels once shown 390 px wide
    pills: list[tuple[str, Box]]


class Sized(Protocol):
    @property
    def width(self) -> int: ...


def measure(render: Callable[[], Sized]) -> Measured:
    clear_cache()
    with paint.recording() as record:
        image = render()
    smallest = min(record.sizes, default=0)
    return Measured(image.width, theme.phone_size(smallest, image.width), list(record.pills))


def overlaps(pills: list[tuple[str, Box]]) -> list[tuple[str, str]]:
    """Pairs of pills whose boxes overlap (touching edges do not count)."""
    return [(a, b) for (a, ba), (b, bb) in combinations(pills, 2) if overlap(ba, bb, gap=-0.5)]
