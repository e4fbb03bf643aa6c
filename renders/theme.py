"""Shared look: a colour-blind-safe palette (Okabe-Ito), the bundled font, glyph vocabulary.

Colour never carries meaning alone: every side has its own token shape, every rank and
condition its own letters, every mark its own glyph.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from PIL import ImageFont

RGB = tuple[int, int, int]
Font = ImageFont.FreeTypeFont

FONT_DIR = Path(__file__).with_name("fonts")
REGULAR = FONT_DIR / "DejaVuSans.ttf"
BOLD = FONT_DIR / "DejaVuSans-Bold.ttf"
# The condensed cut: figure labels inside tokens on small cells.
CONDENSED = FONT_DIR / "DejaVuSansCondensed.ttf"
CONDENSED_BOLD = FONT_DIR / "DejaVuSansCondensed-Bold.ttf"

BACKGROUND: RGB = (24, 26, 31)
HEADER: RGB = (36, 40, 48)
PANEL: RGB = (32, 35, 42)
TEXT: RGB = (235, 235, 235)
MUTED: RGB = (150, 155, 165)
FAINT: RGB = (168, 173, 184)
GRID: RGB = (70, 74, 82)
INK: RGB = (16, 16, 18)

# Okabe-Ito: distinguishable under the common colour-vision deficiencies.
ORANGE: RGB = (230, 159, 0)
SKY: RGB = (86, 180, 233)
GREEN: RGB = (0, 158, 115)
YELLOW: RGB = (240, 228, 66)
BLUE: RGB = (0, 114, 178)
VERMILION: RGB = (213, 94, 0)
PURPLE: RGB = (204, 121, 167)
WHITE: RGB = (245, 245, 245)
NIGHT: RGB = (22, 20, 26)  # a chasm or pit drawn over a hex

# The palette by name: a view's symbols (engine.core.view.SymbolView) name their colours.
NAMED: dict[str, RGB] = {
    "orange": ORANGE,
    "sky": SKY,
    "green": GREEN,
    "yellow": YELLOW,
    "blue": BLUE,
    "vermilion": VERMILION,
    "purple": PURPLE,
    "white": WHITE,
    "muted": MUTED,
    "grid": GRID,
    "night": NIGHT,
}

TERRAIN: dict[str, RGB] = {
    "floor": (92, 97, 108),
    "room": (104, 108, 118),
    "corridor": (84, 90, 100),
    "wall": (28, 30, 34),
    "space": (30, 32, 38),
    "void": BACKGROUND,
    "vent": (78, 70, 92),
    "exit": (40, 110, 80),
    "barracks": (120, 60, 60),
}
BLOCKING_TERRAIN = frozenset({"wall", "void", "space"})

SIDE_FILL: dict[str, RGB] = {"player": SKY, "enemy": VERMILION, "neutral": YELLOW}
SIDE_SHAPE: dict[str, str] = {"player": "circle", "enemy": "diamond", "neutral": "square"}

WALL: RGB = (14, 14, 16)
EDGE_COLOURS: dict[str, RGB] = {
    "wall": WALL,
    "blocked": WALL,
    "barrier": YELLOW,
    "door": ORANGE,
    "door-closed": ORANGE,
    "door-open": GREEN,
    "door-locked": VERMILION,
    "locked-door": VERMILION,
    "door-sealed": PURPLE,
    "door-blocked": PURPLE,
    "security-door": YELLOW,
    "security-door-open": GREEN,
    "security-door-sealed": PURPLE,
    "window": SKY,
    "airlock": BLUE,
}

AREA_TINTS: tuple[RGB, ...] = (
    (96, 104, 118),
    (112, 104, 96),
    (98, 112, 102),
    (110, 100, 114),
    (104, 110, 94),
    (92, 104, 116),
)

# Conditions: short letters on a badge (never colour alone), and a colour group.
CONDITION_BADGES: dict[str, tuple[str, RGB]] = {
    "bleeding": ("Bl", VERMILION),
    "engaged": ("En", ORANGE),
    "paralyzed": ("Pa", PURPLE),
    "paralysed": ("Pa", PURPLE),
    "immobilized": ("Im", PURPLE),
    "down": ("Dn", VERMILION),
    "jammed": ("Jm", ORANGE),
    "marked": ("Mk", YELLOW),
    "poisoned": ("Po", GREEN),
    "grappled": ("Gr", PURPLE),
    "guard": ("Gd", SKY),
    "guard-held": ("Gd", MUTED),
    "alpha": ("Al", YELLOW),
    "heroic": ("He", YELLOW),
    "surge": ("Su", SKY),
    "newborn": ("Nb", MUTED),
    "activated": ("Ac", MUTED),
    "wounded": ("Wd", VERMILION),
    "inactive": ("In", MUTED),
    "order": ("Or", SKY),
    "acting": ("▶", YELLOW),
    "shield": ("Sh", BLUE),
    "item": ("It", GREEN),
    "menace-1": ("M1", VERMILION),  # Operation Strikeback: the Menacing Agent's token
    "menace-2": ("M2", VERMILION),
    "fights-on": ("0!", PURPLE),  # a Master Alien fighting on at 0 Health points
    "power-suit": ("PS", SKY),
    "battery": ("Bt", YELLOW),
    "suit-shield": ("Sh", BLUE),
    "seizing": ("Sz", ORANGE),
}
# Conditions that describe the figure's state (drawn as badges) rather than bookkeeping.
QUIET_CONDITIONS = frozenset({"stack", "wound", "item"})


def condition_key(condition: str) -> str:
    return condition.split(":", 1)[0].strip().lower()


# Phone-first: every image is IMAGE_WIDTH pixels wide and shown about PHONE_WIDTH CSS pixels
# wide on a phone, where no text may be smaller than PHONE_MIN_TEXT pixels. MIN_TEXT is that
# floor in image pixels; `paint.text` never draws smaller.
PHONE_WIDTH = 390
PHONE_MIN_TEXT = 11
IMAGE_WIDTH = 585
MIN_TEXT = -(-PHONE_MIN_TEXT * IMAGE_WIDTH // PHONE_WIDTH)


def phone_size(size: float, width: int) -> float:
    """How tall `size`-pixel text looks once a `width`-pixel image is shown 390 px wide."""
    return size * PHONE_WIDTH / width


@lru_cache(maxsize=64)
def font(size: int, bold: bool = False, condensed: bool = False) -> Font:
    """The bundled DejaVu Sans, so images look the same on every machine."""
    if condensed:
        return ImageFont.truetype(str(CONDENSED_BOLD if bold else CONDENSED), size)
    return ImageFont.truetype(str(BOLD if bold else REGULAR), size)


@lru_cache(maxsize=4096)
def text_width(text: str, size: int, bold: bool = False, condensed: bool = False) -> float:
    """Width of `text` as `paint.text` draws it (never below the legible floor)."""
    return font(max(size, MIN_TEXT), bold, condensed).getlength(text)
