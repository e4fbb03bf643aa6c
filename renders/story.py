"""The step's story drawn on the board from its events.

Paths a figure moved (its previous position faded), attack lines with the result (dashed when
nothing hit), reveals, spawns and deaths. `under` is drawn below the figures, `over` above.
"""

from __future__ import annotations

import re

from engine.core.events import Attacked, Event, Killed, Moved, Revealed, Spawned, Wounded
from engine.core.view import FigureView, View
from renders import paint, theme
from renders.geometry import Placement, Point

PATH = theme.YELLOW
ATTACK = theme.VERMILION


def story_positions(
    view: View, events: list[Event], placement: Placement, positions: dict[str, Point]
) -> dict[str, Point]:
    """Where each figure an event names stands; figures gone from the board use the event's cell."""
    out = dict(positions)
    for event in events:
        if isinstance(event, Killed | Spawned | Revealed) and event.figure not in out:
            anchor = placement.anchor(event.at)
            if anchor is not None:
                out[event.figure] = anchor
        elif isinstance(event, Moved) and event.figure not in out and event.path:
            anchor = placement.anchor(event.path[-1])
            if anchor is not None:
                out[event.figure] = anchor
    return out


def under(
    draw: paint.Draw,
    view: View,
    events: list[Event],
    placement: Placement,
    positions: dict[str, Point],
    labels: dict[str, str],
) -> None:
    figures = {f.id: f for f in view.figures}
    r = placement.token_radius
    for event in events:
        if not isinstance(event, Moved) or len(event.path) < 2:
            continue
        points = [p for p in (placement.anchor(c) for c in event.path) if p is not None]
        end = positions.get(event.figure)
        if end is not None and points:
            points[-1] = end
        points = [p for i, p in enumerate(points) if i == 0 or p != points[i - 1]]
        if len(points) < 2:
            continue
        _ghost(draw, figures.get(event.figure), points[0], r, labels.get(event.figure, ""))
        draw.line(points, fill=theme.INK, width=7, joint="curve")
        draw.line(points, fill=PATH, width=3, joint="curve")
        tail, tip = paint.shorten(points[-2], points[-1], 0, r + 2)
        paint.arrow_head(draw, tip, tail, max(9.0, r * 0.8), PATH)


def _ghost(draw: paint.Draw, figure: FigureView | None, xy: Point, r: float, text: str) -> None:
    """The previous position, faded: an outline of the figure's shape, no fill."""
    shape = theme.SIDE_SHAPE.get(figure.side if figure else "neutral", "circle")
    colour = theme.SIDE_FILL.get(figure.side if figure else "neutral", theme.MUTED)
    faded = tuple(int(c * 0.55 + 60 * 0.45) for c in colour)
    paint.token(draw, shape, xy[0], xy[1], r * 0.85, None, faded, 2)  # type: ignore[arg-type]
    if text:
        paint.label(draw, xy, text, paint.legible(r * 0.6), faded, True)  # type: ignore[arg-type]


def over(
    draw: paint.Draw,
    events: list[Event],
    placement: Placement,
    positions: dict[str, Point],
    labels: dict[str, str],
) -> None:
    r = placement.token_radius
    size = paint.legible(placement.cell_size / 4.2)
    wounds: dict[str, int] = {}
    rings: dict[Point, list[str]] = {}
    for event in events:
        if isinstance(event, Attacked):
            start, end = positions.get(event.attacker), positions.get(event.target)
            if start is None or end is None or start == end:
                continue
            a, b = paint.shorten(start, end, r, r + 3)
            hit = event.hits > 0 or event.result.lower() in ("hit", "success", "killed", "wound")
            if hit:
                draw.line((a, b), fill=theme.INK, width=6)
                draw.line((a, b), fill=ATTACK, width=3)
            else:
                paint.dashed(draw, a, b, ATTACK, 3)
            paint.arrow_head(draw, b, a, max(9.0, r * 0.75), ATTACK)
            text = _result_text(event)
            mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
            paint.pill(draw, mid, text, size, ATTACK if hit else theme.MUTED, theme.WHITE)
        elif isinstance(event, Spawned | Revealed):
            xy = positions.get(event.figure) or placement.anchor(event.at)
            if xy is None:
                continue
            word = "NEW" if isinstance(event, Spawned) else "REVEAL"
            tags = rings.setdefault(xy, [])
            if word not in tags:
                tags.append(word)
        elif isinstance(event, Killed):
            xy = placement.anchor(event.at) or positions.get(event.figure)
            if xy is None:
                continue
            x, y = xy
            k = r * 0.9
            for dx in (-k, k):
                draw.line((x - dx, y - k, x + dx, y + k), fill=theme.INK, width=8)
                draw.line((x - dx, y - k, x + dx, y + k), fill=ATTACK, width=4)
            name = labels.get(event.figure) or event.name or dead_name(event.figure)
            paint.pill(draw, (x, y - k - size * 0.6), f"✝ {name}", size - 1, ATTACK, theme.WHITE)
        elif isinstance(event, Wounded) and event.amount > 0:
            wounds[event.figure] = wounds.get(event.figure, 0) + event.amount
    for (x, y), tags in rings.items():
        ring = r + 5
        draw.ellipse((x - ring, y - ring, x + ring, y + ring), outline=theme.PURPLE, width=3)
        paint.pill(draw, (x, y - ring - size * 0.4), " ".join(tags), size - 1, theme.PURPLE)
    for figure, amount in wounds.items():
        xy = positions.get(figure)
        if xy is not None:
            paint.pill(
                draw,
                (xy[0] + r * 0.6, xy[1] + r * 0.7),
                f"-{amount}",
                size - 1,
                ATTACK,
                theme.WHITE,
                anchor="lm",
            )


def dead_name(figure: str) -> str:
    """A readable, uncut name for a figure no longer on the board: "soldier13" -> "Soldier 13"."""
    words = re.sub(r"(?<=[A-Za-z])(?=\d)", " ", figure.replace("-", " ").replace("_", " "))
    return " ".join(w[:1].upper() + w[1:] for w in words.split())


def _result_text(event: Attacked) -> str:
    if event.hits > 0:
        return f"{event.hits} hit" + ("s" if event.hits > 1 else "")
    return (event.result or "miss")[:10]


def last_actor(events: list[Event]) -> str | None:
    """The figure the step was about: the last one that moved or attacked."""
    for event in reversed(events):
        if isinstance(event, Moved) and event.figure:
            return event.figure
        if isinstance(event, Attacked) and event.attacker:
            return event.attacker
    return None
