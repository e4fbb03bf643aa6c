"""Shared look: a colour-blind-safe palette (Okabe-Ito) and the bundled font."""

from __future__ import annotations

from functools import lru_cache

from PIL import ImageFont

RGB = tuple[int, int, int]

BACKGROUND: RGB = (24, 26, 31)
HEADER: RGB = (36, 40, 48)
PANEL: RGB = (32, 35, 42)
TEXT: RGB = (235, 235, 235)
MUTED: RGB = (150, 155, 165)
GRID: RGB = (70, 74, 82)

# Okabe-Ito: distinguishable under the common colour-vision deficiencies.
ORANGE: RGB = (230, 159, 0)
SKY: RGB = (86, 180, 233)
GREEN: RGB = (0, 158, 115)
YELLOW: RGB = (240, 228, 66)
BLUE: RGB = (0, 114, 178)
VERMILION: RGB = (213, 94, 0)
PURPLE: RGB = (204, 121, 167)

TERRAIN: dict[str, RGB] = {
    "floor": (92, 97, 108),
    "room": (104, 108, 118),
    "corridor": (84, 90, 100),
    "wall": (28, 30, 34),
    "void": BACKGROUND,
    "door": (150, 110, 60),
    "airlock": (60, 120, 140),
    "vent": (80, 60, 90),
    "exit": (40, 110, 80),
    "barracks": (120, 60, 60),
}

SIDE_FILL: dict[str, RGB] = {"player": SKY, "enemy": VERMILION, "neutral": YELLOW}

EDGE_COLOURS: dict[str, RGB] = {
    "wall": (20, 20, 24),
    "blocked": (20, 20, 24),
    "door": ORANGE,
    "door-open": GREEN,
    "door-closed": ORANGE,
    "door-locked": VERMILION,
    "door-blocked": PURPLE,
    "window": SKY,
}

AREA_TINTS: tuple[RGB, ...] = (
    (96, 104, 118),
    (110, 102, 96),
    (98, 112, 100),
    (112, 100, 114),
    (104, 110, 94),
    (94, 106, 116),
)


@lru_cache(maxsize=16)
def font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """Pillow's bundled FreeType font (Aileron, open licence), identical on every machine."""
    return ImageFont.load_default(size)
