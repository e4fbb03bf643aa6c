"""The BLUE and RED dice of Galaxy Defenders: authored face layouts.

The rulebook gives only how often each symbol appears per die (BLUE: Hit 5, Shield 4, Bolt 2,
Ammo 1, Jam 1, Alien 1; RED: Hit 7, Bolt 3, GD 2, Ammo 1, Jam 1, Alien 1) and lets one face
carry several symbols. The layouts below match those counts exactly (checked by a test) and
reproduce both combat examples. A face is indexed by the d6 value rolled (1..6).

The BLUE die also picks the Teleport Point, one symbol a face (Hit over Shield on the same face,
as the rulebook says; Shield over Bolt is ours), so its layout must let every Point symbol a
map can hold (Hit, Shield, Bolt, Alien) come up: face 4 carries the Bolt with no Hit and no
Shield. Defence is as with any layout holding one Shield per face on four faces.
"""

from __future__ import annotations

from collections import Counter
from typing import Literal

from engine.core.dice import Dice
from engine.core.words import listed, some

Color = Literal["blue", "red"]

HIT, SHIELD, BOLT, GD, AMMO, JAM, ALIEN = "hit", "shield", "bolt", "gd", "ammo", "jam", "alien"

FACES: dict[str, tuple[tuple[str, ...], ...]] = {
    "blue": (
        (ALIEN,),
        (HIT, HIT, SHIELD),
        (HIT, HIT, SHIELD),
        (BOLT, AMMO, JAM),
        (SHIELD, BOLT),
        (HIT, SHIELD),
    ),
    "red": (
        (ALIEN,),
        (HIT, HIT, BOLT),
        (HIT, AMMO, GD),
        (HIT, JAM),
        (HIT, HIT, BOLT),
        (HIT, BOLT, GD),
    ),
}

RULEBOOK_COUNTS: dict[str, dict[str, int]] = {
    "blue": {HIT: 5, SHIELD: 4, BOLT: 2, AMMO: 1, JAM: 1, ALIEN: 1},
    "red": {HIT: 7, BOLT: 3, GD: 2, AMMO: 1, JAM: 1, ALIEN: 1},
}

# Teleport Point symbols: a face names the Point of its strongest symbol. The rulebook says Hit
# takes precedence over Shield on a shared face; we extend the order to Shield over Bolt (face 5).
# With the BLUE layout above: Hit on faces 2, 3, 6; Shield on 5; Bolt on 4; Alien on 1.
TELEPORT_ORDER = (HIT, SHIELD, BOLT, ALIEN)


def symbol_counts(color: str) -> Counter[str]:
    counts: Counter[str] = Counter()
    for face in FACES[color]:
        counts.update(face)
    return counts


def roll(dice: Dice, color: str, count: int) -> list[int]:
    """Roll `count` dice of `color`; returns the face numbers 1..6."""
    if color not in FACES:
        raise ValueError(f"unknown die colour {color}")
    return [dice.roll(6) for _ in range(max(0, count))]


def symbols(color: str, face: int) -> tuple[str, ...]:
    return FACES[color][face - 1]


def tally(color: str, faces: list[int]) -> Counter[str]:
    out: Counter[str] = Counter()
    for face in faces:
        out.update(symbols(color, face))
    return out


def describe(color: str, faces: list[int]) -> list[str]:
    """Faces as short strings for events' data: 'hit+hit+bolt' (narration uses `said`)."""
    return ["+".join(symbols(color, f)) for f in faces]


# A symbol as players name it (the rulebook's words), in the order a roll is told.
SYMBOL_WORDS = {
    HIT: "Hit",
    SHIELD: "Shield",
    BOLT: "Bolt",
    GD: "GD",
    AMMO: "Ammo",
    JAM: "Jam",
    ALIEN: "Alien",
}
PLURALS = {AMMO: "Ammo", GD: "GDs"}


def symbol_word(symbol: str) -> str:
    """One symbol as players name it ("hit" -> "Hit"): a Teleport Point's, say."""
    return SYMBOL_WORDS.get(symbol, symbol)


def said(color: str, faces: list[int]) -> str:
    """What a roll shows, as a person tells it: "2 Hits, a Bolt and an Alien" ("no dice")."""
    counts = tally(color, faces)
    parts = [
        some(counts[symbol], word, PLURALS.get(symbol, ""))
        for symbol, word in SYMBOL_WORDS.items()
        if counts[symbol]
    ]
    return listed(parts) or "no dice"


def teleport_faces(symbol: str) -> list[int]:
    """The BLUE faces that designate this Teleport Point symbol."""
    return [face for face in range(1, 7) if teleport_symbol(face) == symbol]


def teleport_symbol(face: int) -> str:
    """The Teleport Point symbol a BLUE face designates."""
    face_symbols = symbols("blue", face)
    for symbol in TELEPORT_ORDER:
        if symbol in face_symbols:
            return symbol
    return face_symbols[0]
