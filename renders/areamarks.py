"""Where an Area's mark labels (exit, barracks, entrance, smoke...) go on area boards.

Labels run along the Area's top edge after its id, then along its bottom edge, so they stay
clear of the figures gathered in the middle; tokens avoid the boxes computed here.
"""

from __future__ import annotations

from renders import theme
from renders.geometry import Placement

Box = tuple[float, float, float, float]

MARK_STYLE: dict[str, tuple[str, theme.RGB]] = {
    "exit": ("EXIT", theme.GREEN),
    "barracks": ("BARRACKS", theme.VERMILION),
    "entrance": ("ENTRANCE", theme.SKY),
    "smoke": ("SMOKE", theme.MUTED),
    "suppressing-fire": ("SUPPRESS", theme.ORANGE),
    "accessory": ("ACC", theme.YELLOW),
}


# Short forms for Areas too narrow for the word at the legible size (the legend says them).
MARK_SHORT: dict[str, str] = {
    "exit": "EX",
    "barracks": "BK",
    "entrance": "IN",
    "smoke": "SM",
    "suppressing-fire": "SF",
    "accessory": "AC",
}


def mark_text(mark: str, short: bool = False) -> tuple[str, theme.RGB]:
    name, _, arg = mark.partition(":")
    text, fill = MARK_STYLE.get(name, (name[:10].upper(), theme.MUTED))
    if short:
        text = MARK_SHORT.get(name, text[:2])
    if arg and name in ("barracks", "accessory"):
        text = f"{text} {arg[:10]}"
    return text, fill


def label_size(placement: Placement) -> int:
    return max(theme.MIN_TEXT, int(placement.cell_size / 5))


def id_box(placement: Placement, area: str) -> Box:
    coords = placement.area_cells[area]
    first = min(coords, key=lambda c: (placement.centres[c][1], placement.centres[c][0]))
    x0, y0 = placement.polygons[first][0]
    size = label_size(placement)
    width = theme.text_width(area, size, True) + 6
    return x0 + 4, y0 + 4, x0 + 4 + width, y0 + 4 + size * 1.25


def _row_extent(placement: Placement, area: str, top: bool) -> tuple[float, float, float]:
    """Left and right x of the Area's top (or bottom) row of squares, and that row's edge y."""
    coords = placement.area_cells[area]
    ys = [placement.polygons[c][0][1] for c in coords]
    y = min(ys) if top else max(ys)
    row = sorted(placement.polygons[c][0][0] for c in coords if placement.polygons[c][0][1] == y)
    left = row[0]
    right = left
    for x in row:
        if x > right + 0.5:
            break
        right = x + placement.cell_size
    edge = y if top else y + placement.cell_size
    return left, right, edge


def mark_boxes(
    placement: Placement, area: str, marks: list[str]
) -> list[tuple[str, theme.RGB, Box]]:
    """Each mark's text, colour and box (pixels), in the order given."""
    size = max(theme.MIN_TEXT, label_size(placement) - 1)
    height = size * 1.25
    out: list[tuple[str, theme.RGB, Box]] = []
    if area not in placement.area_cells:
        return out
    _, _, right_edge, bottom = id_box(placement, area)
    _, right, _ = _row_extent(placement, area, top=True)
    x, y = right_edge + 4, bottom - height
    b_left, b_right, b_edge = _row_extent(placement, area, top=False)
    band = 0  # 0: top band, then bottom bands going up
    for mark in marks:
        text, fill = mark_text(mark)
        width = theme.text_width(text, size, True) + 6
        if width > min(right - right_edge, b_right - b_left) - 8:
            text, fill = mark_text(mark, short=True)
            width = theme.text_width(text, size, True) + 6
        while True:
            limit = right if band == 0 else b_right
            if x + width <= limit - 3 or (band > 0 and x <= b_left + 4.5):
                break
            band += 1
            x = b_left + 4
            y = b_edge - 4 - band * (height + 3)
        out.append((text, fill, (x, y, x + width, y + height)))
        x += width + 4
    return out


def overlaps(point: tuple[float, float], radius: float, boxes: list[Box]) -> bool:
    px, py = point
    return any(
        b[0] - radius < px < b[2] + radius and b[1] - radius < py < b[3] + radius for b in boxes
    )
