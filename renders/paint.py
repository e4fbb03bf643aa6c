"""Small drawing primitives shared by every renderer: tokens, badges, pills, arrows, wrapping."""

from __future__ import annotations

import math
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import lru_cache

from PIL import Image, ImageDraw

from renders import labels, theme
from renders.geometry import Point

Draw = ImageDraw.ImageDraw


@dataclass
class Record:
    """What a `recording()` block drew: every text's font size and every pill's box."""

    sizes: list[int] = field(default_factory=list)
    pills: list[tuple[str, tuple[float, float, float, float]]] = field(default_factory=list)


_RECORD: ContextVar[Record | None] = ContextVar("text_record", default=None)


@contextmanager
def recording() -> Iterator[Record]:
    """Collect the text sizes and pill boxes drawn inside the block (for legibility tests)."""
    record = Record()
    token = _RECORD.set(record)
    try:
        yield record
    finally:
        _RECORD.reset(token)


def legible(size: float) -> int:
    """`size` raised to the phone floor (`theme.MIN_TEXT`)."""
    return max(int(size), theme.MIN_TEXT)


def shape_points(shape: str, x: float, y: float, r: float) -> list[Point]:
    if shape == "diamond":
        k = r * 1.18
        return [(x, y - k), (x + k, y), (x, y + k), (x - k, y)]
    if shape == "square":
        return [(x - r, y - r), (x + r, y - r), (x + r, y + r), (x - r, y + r)]
    if shape == "hexagon":
        return [
            (x + r * math.cos(math.radians(60 * i)), y + r * math.sin(math.radians(60 * i)))
            for i in range(6)
        ]
    if shape == "triangle":
        return [(x, y - r * 1.1), (x + r, y + r * 0.75), (x - r, y + r * 0.75)]
    return []


def token(
    draw: Draw,
    shape: str,
    x: float,
    y: float,
    r: float,
    fill: theme.RGB | None,
    outline: theme.RGB,
    width: int = 2,
) -> None:
    if shape == "circle":
        draw.ellipse((x - r, y - r, x + r, y + r), fill=fill, outline=outline, width=width)
    elif fill is None:
        points = shape_points(shape, x, y, r)
        draw.line([*points, points[0], points[1]], fill=outline, width=width, joint="curve")
    else:
        # Two fills instead of a wide outline: Pillow draws wide polygon outlines through a
        # mask as large as the whole image.
        draw.polygon(shape_points(shape, x, y, r), fill=outline)
        draw.polygon(shape_points(shape, x, y, r - width * 1.2), fill=fill)


@lru_cache(maxsize=8192)
def _mask(
    text: str, size: int, bold: bool, anchor: str, condensed: bool = False
) -> tuple[Image.Image, int, int]:
    """A rendered text mask, cached: boards repeat the same labels step after step."""
    f = theme.font(size, bold, condensed)
    left, top, right, bottom = f.getbbox(text, anchor=anchor)
    mask = Image.new("L", (max(1, int(right - left)), max(1, int(bottom - top))), 0)
    ImageDraw.Draw(mask).text((-left, -top), text, font=f, fill=255, anchor=anchor)
    return mask, int(left), int(top)


def text(
    draw: Draw,
    xy: Point,
    content: str,
    size: int,
    fill: theme.RGB = theme.TEXT,
    bold: bool = False,
    anchor: str = "la",
    condensed: bool = False,
) -> None:
    """Draw text through the mask cache (FreeType rendering is the costliest part of a board)."""
    if not content:
        return
    size = legible(size)
    record = _RECORD.get()
    if record is not None:
        record.sizes.append(size)
    mask, left, top = _mask(content, size, bold, anchor, condensed)
    draw.bitmap((round(xy[0]) + left, round(xy[1]) + top), mask, fill=fill)


def label(
    draw: Draw,
    xy: Point,
    text: str,
    size: int,
    fill: theme.RGB = theme.TEXT,
    bold: bool = False,
    anchor: str = "mm",
) -> None:
    globals()["text"](draw, xy, text, size, fill, bold, anchor)


def fit_size(text: str, max_width: float, size: int, minimum: int = 7, bold: bool = True) -> int:
    """The largest font size (at most `size`, never below the legible floor) at which `text`
    fits `max_width`; the floor wins when nothing legible fits (callers shorten the text)."""
    minimum = legible(minimum)
    size = legible(size)
    while size > minimum and theme.text_width(text, size, bold) > max_width:
        size -= 1
    return size


def pill_box(
    xy: Point, text: str, size: int, anchor: str = "mm", bold: bool = True
) -> tuple[float, float, float, float]:
    """The box `pill` would draw, without drawing it."""
    size = legible(size)
    w = theme.text_width(text, size, bold)
    h = size * 1.25
    x, y = xy
    if anchor[0] == "l":
        left = x
    elif anchor[0] == "r":
        left = x - w - 6
    else:
        left = x - w / 2 - 3
    top = y - h / 2 if anchor[1] == "m" else (y if anchor[1] == "t" else y - h)
    return (left, top, left + w + 6, top + h)


def fits(text: str, max_width: float, bold: bool = True, condensed: bool = False) -> bool:
    """Whether `text` fits `max_width` at the legible floor."""
    return theme.text_width(text, theme.MIN_TEXT, bold, condensed) <= max_width


def pill(
    draw: Draw,
    xy: Point,
    text: str,
    size: int,
    fill: theme.RGB,
    ink: theme.RGB = theme.INK,
    anchor: str = "mm",
    bold: bool = True,
) -> tuple[float, float, float, float]:
    """Text on a rounded plate; returns the plate's box.

    Inside a `labels.placing()` block the plate moves to the nearest free spot, or is left
    out when there is none (so board labels never overlap)."""
    size = legible(size)
    box = pill_box(xy, text, size, anchor, bold)
    placer = labels.active()
    if placer is not None:
        placed = placer.place(box, text)
        if placed is None:
            return box
        box = placed
    record = _RECORD.get()
    if record is not None:
        record.pills.append((text, box))
    h = box[3] - box[1]
    draw.rounded_rectangle(box, radius=min(4, h / 2), fill=fill)
    globals()["text"](
        draw, ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), text, size, ink, bold, "mm"
    )
    return box


def arrow_head(draw: Draw, tip: Point, tail: Point, size: float, fill: theme.RGB) -> None:
    dx, dy = tip[0] - tail[0], tip[1] - tail[1]
    length = math.hypot(dx, dy) or 1.0
    ux, uy = dx / length, dy / length
    base = (tip[0] - ux * size, tip[1] - uy * size)
    left = (base[0] - uy * size * 0.55, base[1] + ux * size * 0.55)
    right = (base[0] + uy * size * 0.55, base[1] - ux * size * 0.55)
    draw.polygon([tip, left, right], fill=fill)


def dashed(draw: Draw, a: Point, b: Point, fill: theme.RGB, width: int, dash: float = 7) -> None:
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy)
    if length < 1:
        return
    steps = max(1, int(length // dash))
    for i in range(0, steps, 2):
        t0, t1 = i / steps, min(1.0, (i + 1) / steps)
        draw.line(
            (a[0] + dx * t0, a[1] + dy * t0, a[0] + dx * t1, a[1] + dy * t1), fill=fill, width=width
        )


def shorten(a: Point, b: Point, by_start: float, by_end: float) -> tuple[Point, Point]:
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy) or 1.0
    ux, uy = dx / length, dy / length
    return (a[0] + ux * by_start, a[1] + uy * by_start), (b[0] - ux * by_end, b[1] - uy * by_end)


def wrap(text: str, size: int, max_width: float, bold: bool = False) -> list[str]:
    """Greedy word wrap to a pixel width; over-long words are cut with an ellipsis."""
    lines: list[str] = []
    current = ""
    for word in text.split():
        trial = f"{current} {word}".strip()
        if theme.text_width(trial, size, bold) <= max_width:
            current = trial
            continue
        if current:
            lines.append(current)
        current = word
        while theme.text_width(current, size, bold) > max_width and len(current) > 2:
            current = current[:-2] + "…"
    if current:
        lines.append(current)
    return lines


def ellipsize(text: str, size: int, max_width: float, bold: bool = False) -> str:
    if theme.text_width(text, size, bold) <= max_width:
        return text
    while len(text) > 1 and theme.text_width(text + "…", size, bold) > max_width:
        text = text[:-1]
    return text + "…"


Blocks = list[tuple[str, list[str]]]


def blocks_height(blocks: Blocks, head: int, line: int, gap: int) -> int:
    """Height `draw_blocks` needs: a title row per block, `line + gap` per line, 8 after."""
    return sum(head + 10 + (line + gap) * len(lines) + 8 for _, lines in blocks)


def draw_blocks(
    draw: Draw,
    xy: Point,
    blocks: Blocks,
    head: int,
    line: int,
    gap: int,
    colours: tuple[theme.RGB, theme.RGB] = (theme.TEXT, theme.MUTED),
) -> float:
    """Titled blocks of lines (a sheet's or a summary's body); returns the y after them."""
    x, y = xy
    for title, lines in blocks:
        text(draw, (x, y), title, head, colours[0], True)
        y += head + 10
        for content in lines:
            text(draw, (x + 8, y), content, line, colours[1])
            y += line + gap
        y += 8
    return y
