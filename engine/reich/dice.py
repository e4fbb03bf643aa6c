"""The three Reichbusters dice, read off an ordinary d6 (our authored face distributions).

Each die has a Special Result (a star) on one face; the red Vril die also has an Overload face.
The distributions are chosen to be consistent with every worked example in the rulebook:

| d6 | black Attack | green Defense | red Vril |
|----|--------------|---------------|----------|
| 1  | blank        | blank         | Overload |
| 2  | blank        | 1             | blank    |
| 3  | 1            | 1             | 1        |
| 4  | 1            | 2             | 2        |
| 5  | 2            | 3             | 2        |
| 6  | star         | star          | star     |
"""

from __future__ import annotations

from engine.core.dice import Dice
from engine.reich.state import Die

FACES: dict[str, tuple[str, ...]] = {
    "black": ("blank", "blank", "1", "1", "2", "star"),
    "green": ("blank", "1", "1", "2", "3", "star"),
    "red": ("overload", "blank", "1", "2", "2", "star"),
}


def roll_die(dice: Dice, color: str) -> Die:
    return Die(color=color, face=FACES[color][dice.roll(6) - 1])


def face_value(face: str) -> int:
    """Successes shown by a face; a star counts 2 (rule: Special Result adds 2 Successes)."""
    if face == "star":
        return 2
    return int(face) if face.isdigit() else 0


def total(dice: list[Die], bonus: int) -> int:
    return sum(face_value(d.face) for d in dice) + bonus


def show(dice: list[Die]) -> list[str]:
    """Dice as players read them: "black blank", "green 3"."""
    return [f"{d.color} {d.face}" for d in dice]
