"""Figures and tokens: where each one stands, and how it is drawn.

A figure is its side's shape (circle: players, diamond: enemies, square: neutral) in its side's
colour, with a short label, a rank badge in letters, a facing pointer, health pips and
condition badges, so nothing depends on colour alone.
"""

from __future__ import annotations

import math
import re

from engine.core.view import FigureView, TokenView, View
from renders import paint, theme
from renders.areamarks import id_box, mark_boxes, overlaps
from renders.geometry import Placement, Point, area_slots
from renders.symbols import Symbols, named_colour

RANK_TAGS = {
    "copper": "Cu",
    "bronze": "Br",
    "silver": "Ag",
    "gold": "Au",
    "palladium": "Pd",
    "platinum": "Pt",
    # Operation Strikeback's ranks (9.8): two letters, so Galaxy never reads as green's G
    "earth": "Ea",
    "moon": "Mo",
    "galaxy": "Ga",
    "green": "G",
    "blue": "B",
    "red": "R",
    "yellow": "Y",
    "purple": "P",
    "orange": "O",
}
RANK_COLOURS = {
    "green": theme.GREEN,
    "blue": theme.BLUE,
    "red": theme.VERMILION,
    "yellow": theme.YELLOW,
    "orange": theme.ORANGE,
    "purple": theme.PURPLE,
}
# Facing names -> angle in degrees, clockwise from east (screen y grows downwards). On hex
# boards the diagonals are the pointy-top hex sides (60 degrees), on squares 45 degrees.
FACING_ANGLES = {"E": 0, "SE": 45, "S": 90, "SW": 135, "W": 180, "NW": 225, "N": 270, "NE": 315}
HEX_FACING_ANGLES = {"E": 0, "SE": 60, "SW": 120, "W": 180, "NW": 240, "NE": 300}


def facing_vector(facing: str | None, board: str) -> tuple[float, float] | None:
    if not facing:
        return None
    name = facing.strip().upper()
    table = HEX_FACING_ANGLES if board == "hex" else FACING_ANGLES
    angle = table.get(name, FACING_ANGLES.get(name))
    if angle is None:
        return None
    return math.cos(math.radians(angle)), math.sin(math.radians(angle))


_WORD_DIGITS = re.compile(r"^([A-Za-z]+)[-_ ]?(\d+)$")


def rank_tag(rank: str | None) -> str:
    if not rank:
        return ""
    tag = RANK_TAGS.get(rank.lower())
    if tag:
        return tag
    return rank if len(rank) <= 3 else rank[:1].upper()


def label_room(view: View, placement: Placement) -> float:
    """How wide a figure's label may be: its token, or its cell less a gap to the next one."""
    cs = placement.cell_size
    cell = cs * (0.866 if view.board == "hex" else 1.0) - 3
    if placement.slots_per_cell == 4:
        cell = cs / 2 - 2
    return max(placement.token_radius * 2 * 0.95, cell)


def short_labels(view: View, room: float | None = None) -> dict[str, str]:
    """A label of at most 4 characters per figure, unique on the board where possible.

    Games give labels such as "FOX", "x1" or "soldier13"; long word+number labels become the
    word's initial (or first two letters when two kinds share an initial) and the number.
    With `room`, a label wider than that at the legible size is cut to the longest prefix
    that fits and stays unique ("FOX" -> "FO"); the figure list pairs it with the name.
    """
    out = _labels(view)
    if room is None:
        return out
    taken = set(out.values())
    for key, text in out.items():
        if paint.fits(text, room, bold=False, condensed=True):
            continue
        # Two leading characters, else the number alone, else the initial: still unique.
        digits = "".join(ch for ch in text if ch.isdigit())
        candidates = [text[:2], digits, text[:1]] if digits else [text[:2], text[:1]]
        for cut in candidates:
            if cut == text or not cut or cut in taken:
                continue
            if paint.fits(cut, room, bold=False, condensed=True):
                taken.discard(text)
                taken.add(cut)
                out[key] = cut
                break
    return out


def _labels(view: View) -> dict[str, str]:
    out: dict[str, str] = {}
    initials: dict[str, set[str]] = {}
    for f in view.figures:
        m = _WORD_DIGITS.match(f.label)
        if m and len(f.label) > 3:
            initials.setdefault(m.group(1)[0].upper(), set()).add(m.group(1).lower())
    for f in view.figures:
        text = _initials(f.label)
        m = _WORD_DIGITS.match(text)
        if m and len(text) > 3:
            word = m.group(1)
            head = word[0].upper()
            if len(initials.get(head, ())) > 1:
                head = word[0].upper() + word[1].lower()
            text = head + m.group(2)
        out[f.id] = text[:4]
    return out


def _initials(label: str) -> str:
    """A name of several words as its initials and number ("Vril Acolyte 2" -> "VA2",
    "General Wolff" -> "GW"); words that start with a digit are left out ("Experiment 6XX 2"
    -> "E2"). A one-word label is kept."""
    words = label.split()
    if len(words) < 2:
        return label
    number = words.pop() if words[-1].isdigit() else ""
    if len(words) < 2:
        return label
    return "".join(w[0].upper() for w in words if w[0].isalpha()) + number


def species_tag(figure: FigureView, label: str) -> str:
    """A kind abbreviation when the label does not already say it ("x1" of a Spine Critter: SC).

    Labels such as "D1" (a Drone) or "S13" (a Soldier) start with their one-word kind's
    initial and need no second line; "x2" of a Xeno-Beta gets "XB".
    """
    kind = figure.kind.strip()
    if figure.side != "enemy" or not kind or kind.lower() == figure.id.lower():
        return ""
    words = [w for w in re.split(r"[-_ ]+", kind) if w]
    if len(words) == 1 and label[:1].upper() == kind[:1].upper():
        return ""
    if len(words) >= 2:
        return (words[0][0] + words[1][0]).upper()
    return words[0][:2].title() if words else ""


def conditions_of(figure: FigureView) -> list[str]:
    """Normalised condition names (the galaxy view appends "d" to names that end in "d")."""
    out = []
    for c in figure.conditions:
        key = theme.condition_key(c)
        if key.endswith("dd"):
            key = key[:-1]
        out.append(key)
    return out


def badges(figure: FigureView) -> list[tuple[str, theme.RGB]]:
    seen: list[tuple[str, theme.RGB]] = []
    for key in conditions_of(figure):
        if key in theme.QUIET_CONDITIONS:
            continue
        badge = theme.CONDITION_BADGES.get(key, (key[:2].title(), theme.MUTED))
        if badge not in seen:
            seen.append(badge)
    return seen


def figure_positions(view: View, placement: Placement) -> dict[str, Point]:
    """Pixel centre of every figure; figures sharing a cell or Area are spread apart."""
    groups: dict[str, list[FigureView]] = {}
    for figure in view.figures:
        key = placement.resolve(figure.coord)
        if key is not None:
            groups.setdefault(key, []).append(figure)
    out: dict[str, Point] = {}
    r = placement.token_radius
    marks: dict[str, list[str]] = {}
    if placement.board == "area":
        for c in view.cells:
            if c.marks and c.area:
                marks.setdefault(c.area, []).extend(c.marks)
    for key, figures in groups.items():
        if placement.board == "area":
            slots = _clear_first(placement, key, area_slots(placement, key, r), marks)
            slots = slots or [placement.area_anchor[key]]
            for i, figure in enumerate(figures):
                x, y = slots[i % len(slots)]
                shift = (i // len(slots)) * r * 0.5
                out[figure.id] = (x + shift, y + shift)
            continue
        cx, cy = placement.centres[key]
        if len(figures) == 1:
            out[figures[0].id] = (cx, cy)
            continue
        d = placement.cell_size * 0.2
        offsets = [(-d, -d), (d, d), (d, -d), (-d, d)]
        for i, figure in enumerate(figures):
            ox, oy = offsets[i % 4]
            out[figure.id] = (cx + ox, cy + oy)
    return out


def _clear_first(
    placement: Placement, area: str, slots: list[Point], marks: dict[str, list[str]]
) -> list[Point]:
    """An Area's slots, those where a figure stays clear of the Area's id and mark labels
    first (stable order; figures and tokens use the same order)."""
    boxes = [box for _, _, box in mark_boxes(placement, area, marks.get(area, []))]
    boxes.append(id_box(placement, area))
    return sorted(slots, key=lambda p: overlaps(p, placement.token_radius * 0.7, boxes))


def token_positions(
    view: View, placement: Placement, figures_at: set[str]
) -> list[tuple[TokenView, Point]]:
    """Tokens go to a cell's lower corner (or share an Area's free slots), never on a figure."""
    out: list[tuple[TokenView, Point]] = []
    per_key: dict[str, list[TokenView]] = {}
    for t in view.tokens:
        key = placement.resolve(t.coord)
        if key is not None and t.kind not in HIDDEN_TOKENS:
            per_key.setdefault(key, []).append(t)
    cs = placement.cell_size
    small = token_radius(placement)
    marks: dict[str, list[str]] = {}
    for c in view.cells:
        if c.marks and c.area:
            marks.setdefault(c.area, []).extend(c.marks)
    for key, tokens in per_key.items():
        if placement.board == "area":
            # The figures' slot order (clear of labels first), so tokens skip the taken ones.
            slots = _clear_first(placement, key, area_slots(placement, key, small), marks)
            taken = sum(1 for f in view.figures if placement.resolve(f.coord) == key)
            free = slots[taken:]
            # Keep tokens off the Area's id and mark labels.
            boxes = [box for _, _, box in mark_boxes(placement, key, marks.get(key, []))]
            boxes.append(id_box(placement, key))
            free = [p for p in free if not overlaps(p, small * 0.7, boxes)]
            free = free or slots or [placement.area_anchor[key]]
            for i, t in enumerate(tokens):
                x, y = free[-1 - (i % len(free))]
                out.append((t, (x, y)))
            continue
        cx, cy = placement.centres[key]
        if key not in figures_at and len(tokens) == 1:
            out.append((tokens[0], (cx, cy)))
            continue
        for i, t in enumerate(tokens):
            out.append((t, (cx + cs * 0.3 - i * small * 1.6, cy + cs * 0.28)))
    return out


# Tokens another layer already shows (an open door is drawn on its edge; the rest of a
# figure's base of several cells is drawn with the figure, `draw_bodies`).
HIDDEN_TOKENS = frozenset({"open-door", "body"})


def draw_bodies(
    draw: paint.Draw, view: View, placement: Placement, positions: dict[str, Point], r: float
) -> None:
    """A figure standing on several cells (a `body` token names the figure in its label): a
    band in the figure's colour joins the figure to each further cell of its base, which gets
    the figure's shape at a smaller size, so the whole base reads as one figure."""
    figures = {f.id: f for f in view.figures}
    for t in view.tokens:
        if t.kind != "body" or t.label not in figures or t.label not in positions:
            continue
        key = placement.resolve(t.coord)
        if key is None:
            continue
        figure = figures[t.label]
        fill = theme.SIDE_FILL.get(figure.side, theme.YELLOW)
        shape = theme.SIDE_SHAPE.get(figure.side, "circle")
        head, tail = positions[t.label], placement.centres[key]
        draw.line([head, tail], fill=theme.INK, width=max(3, int(r * 1.25)))
        draw.line([head, tail], fill=fill, width=max(2, int(r * 0.95)))
        paint.token(draw, shape, tail[0], tail[1], r * 0.8, fill, theme.WHITE, 2)
        size = paint.fit_size(figure.label, r * 1.2, paint.legible(r * 0.7), 6)
        paint.label(draw, tail, figure.label, size, theme.WHITE, True)


def token_radius(placement: Placement) -> float:
    return max(6.0, placement.token_radius * (0.8 if placement.board == "area" else 0.62))


TOKEN_STYLE: dict[str, tuple[str, theme.RGB, str]] = {
    # kind prefix -> (shape, fill, fallback text)
    "corpse": ("circle", (90, 90, 96), "✝"),
    "item": ("square", theme.GREEN, "It"),
    "blocked-vent": ("square", (60, 60, 66), "X"),
    "signal": ("hexagon", theme.PURPLE, "?"),
    "enemy-token": ("hexagon", theme.VERMILION, "E"),
    "loot": ("square", theme.YELLOW, "Lt"),
    "accessory": ("square", theme.MUTED, "Ac"),
    "egg": ("circle", theme.PURPLE, "Eg"),
    "smoke": ("circle", theme.MUTED, "Sm"),
    "power-suit": ("square", (150, 150, 158), "PS"),
}
MISSION_TOKEN = ("square", theme.SKY, "M")


def token_text(t: TokenView, symbols: Symbols | None = None) -> str:
    kind = t.kind.split(":", 1)[0]
    if symbols and kind in symbols:  # a token kind the view brings
        return symbols[kind].text
    if kind == "signal":
        return t.label[:3] or "?"
    if kind == "enemy-token":
        return t.label[:2] or "E"
    if kind == "corpse":
        return "✝"
    if kind == "item":
        name = t.kind.split(":", 1)[1] if ":" in t.kind else t.label
        return name[:2].title()
    if kind == "loot":
        return "Lt"
    if kind == "power-suit":
        return t.label[:3] or "PS"
    if kind in TOKEN_STYLE:
        return TOKEN_STYLE[kind][2]
    return (t.label or kind)[:3]


def token_style(t: TokenView, symbols: Symbols | None = None) -> tuple[str, theme.RGB]:
    kind = t.kind.split(":", 1)[0]
    if symbols and kind in symbols:
        return symbols[kind].shape, named_colour(symbols[kind].colour)
    if kind == "enemy-token":
        level = t.label[-1:]
        fill = {"1": theme.YELLOW, "2": theme.ORANGE, "3": theme.VERMILION}.get(level, theme.ORANGE)
        return "hexagon", fill
    if kind.endswith("-done"):
        return "square", theme.GRID
    shape, fill, _ = TOKEN_STYLE.get(kind, MISSION_TOKEN)
    return shape, fill


def draw_token(
    draw: paint.Draw, t: TokenView, xy: Point, r: float, symbols: Symbols | None = None
) -> None:
    shape, fill = token_style(t, symbols)
    paint.token(draw, shape, xy[0], xy[1], r, fill, theme.INK, 1)
    text = token_text(t, symbols)
    size = paint.fit_size(text, r * 1.8, paint.legible(r * 1.05), 6)
    ink = (
        theme.WHITE
        if fill in (theme.PURPLE, theme.VERMILION, (90, 90, 96), theme.GRID)
        else theme.INK
    )
    paint.label(
        draw, (xy[0], xy[1] + (r * 0.12 if shape == "triangle" else 0)), text, size, ink, True
    )


def draw_figure(
    draw: paint.Draw,
    figure: FigureView,
    xy: Point,
    r: float,
    text: str,
    active: bool = False,
    caption: str = "",
    board: str = "square",
    with_pills: bool = True,
) -> None:
    """The token with its label, facing pointer and health; with `with_pills` also its rank
    and condition pills (a board draws those in a second pass, around every token)."""
    x, y = xy
    shape = theme.SIDE_SHAPE.get(figure.side, "circle")
    fill = theme.SIDE_FILL.get(figure.side, theme.YELLOW)
    down = "down" in conditions_of(figure)
    if down:
        fill = tuple(int(c * 0.55) for c in fill)  # type: ignore[assignment]
    if active:
        paint.token(draw, shape, x, y, r + 4, None, theme.YELLOW, 3)
    vector = facing_vector(figure.facing, board)
    if vector is not None:
        dx, dy = vector
        tip = (x + dx * r * 1.6, y + dy * r * 1.6)
        base = [
            (x + dx * r * 0.9 + dy * r * 0.55, y + dy * r * 0.9 - dx * r * 0.55),
            (x + dx * r * 0.9 - dy * r * 0.55, y + dy * r * 0.9 + dx * r * 0.55),
        ]
        draw.polygon([tip, *base], fill=theme.YELLOW, outline=theme.INK)
    paint.token(draw, shape, x, y, r, fill, theme.WHITE if not down else theme.MUTED, 2)
    room = r * (1.55 if shape == "diamond" else 1.8)
    # A second line (the kind) only when both lines are legible inside the token.
    if caption and r * 1.6 >= 2 * theme.MIN_TEXT and paint.fits(caption + text, room * 1.4):
        small = paint.fit_size(caption, room * 0.8, paint.legible(r * 0.55))
        paint.label(draw, (x, y - r * 0.32), caption, small, theme.INK, True)
        size = paint.fit_size(text, room * 0.8, paint.legible(r * 0.55))
        paint.label(draw, (x, y + r * 0.3), text, size, theme.INK, False)
    else:
        size = paint.fit_size(text, room, paint.legible(r * 0.8))
        if theme.text_width(text, size, True) <= room:
            paint.label(draw, (x, y), text, size, theme.INK, True)
        else:
            # Small cells: the condensed cut, bold when it fits, spilling to the cell's edge.
            bold = theme.text_width(text, size, True, True) <= max(room, r * 2)
            paint.text(draw, (x, y), text, size, theme.INK, bold, "mm", condensed=True)
    _draw_health(draw, figure, x, y + r + (3 if shape != "diamond" else r * 0.2 + 3), r)
    if with_pills:
        draw_figure_pills(draw, figure, xy, r)


def draw_figure_pills(draw: paint.Draw, figure: FigureView, xy: Point, r: float) -> None:
    """Rank and condition pills at the token's upper corners.

    They need a token at least as big as legible text; on small tokens they would hide
    neighbours (the figure list under the board says them)."""
    x, y = xy
    tag = rank_tag(figure.rank)
    pills = r >= theme.MIN_TEXT * 0.9
    if tag and pills:
        bsize = paint.legible(r * 0.55)
        colour = RANK_COLOURS.get((figure.rank or "").lower(), (225, 225, 225))
        ink = theme.WHITE if colour in (theme.BLUE, theme.VERMILION) else theme.INK
        paint.pill(draw, (x + r * 0.75, y - r * 0.95), tag, bsize, colour, ink)
    marks = badges(figure)
    if marks and pills:
        bsize = paint.legible(r * 0.52)
        shown = marks[:2]
        bx = x - r * 1.05
        for i, (letters, colour) in enumerate(shown):
            ink = theme.WHITE if colour in (theme.BLUE, theme.VERMILION, theme.MUTED) else theme.INK
            paint.pill(draw, (bx, y - r * 0.95 + i * bsize * 1.3), letters, bsize, colour, ink)
        if len(marks) > 2:
            paint.pill(
                draw, (bx, y - r * 0.95 + 2 * bsize * 1.3), f"+{len(marks) - 2}", bsize, theme.MUTED
            )


def _draw_health(draw: paint.Draw, figure: FigureView, x: float, top: float, r: float) -> None:
    if figure.health is None or not figure.max_health:
        return
    health = max(0, figure.health)
    total = figure.max_health
    if total > 8:
        paint.pill(draw, (x, top + 4), f"{health}/{total}", paint.legible(r * 0.5), theme.GREEN)
        return
    pip = max(3.0, min(max(5.0, r * 0.22), r * 2 / (total * 1.5)))
    gap = pip * 0.5
    width = total * pip + (total - 1) * gap
    left = x - width / 2
    draw.rectangle((left - 1.5, top - 1.5, left + width + 1.5, top + pip + 1.5), fill=theme.INK)
    for i in range(total):
        px = left + i * (pip + gap)
        if i < health:
            draw.rectangle((px, top, px + pip, top + pip), fill=theme.GREEN)
        else:
            draw.rectangle((px, top, px + pip, top + pip), outline=theme.MUTED)
