"""Mark Locking System (8.3) and Poison (9.3.2): two tokens that fade one step each Refresh
phase (6.1), applied simultaneously with the other refresh effects."""

from __future__ import annotations

from dataclasses import dataclass

from engine.galaxy.strikeback.status import FigureStatus


def apply_mark(status: FigureStatus, level: int) -> None:
    """A Mark 1 or 2 power: the token goes on at once; Mark 2 on a Mark 1 flips it to 2, and
    a Mark 1 never lowers a Mark 2."""
    if level not in (1, 2):
        raise ValueError("a Mark is level 1 or 2")
    status.mark = max(status.mark, level)


def marked(status: FigureStatus) -> bool:
    return status.mark > 0


@dataclass
class PoisonResult:
    wounds: int  # suffered at once (the lesser of two poisons is discarded with 1 wound)
    level: int


def apply_poison(status: FigureStatus, level: int) -> PoisonResult:
    """A Poison 1 or 2 effect. A target never holds two poisons: when a second one lands the
    greater stays, the lesser is discarded and the target suffers 1 wound at once."""
    if level not in (1, 2):
        raise ValueError("a Poison is level 1 or 2")
    if status.poison == 0:
        status.poison = level
        return PoisonResult(wounds=0, level=level)
    status.poison = max(status.poison, level)
    return PoisonResult(wounds=1, level=status.poison)


def refresh(status: FigureStatus) -> int:
    """Refresh phase: Mark 2 -> 1 -> gone; a poisoned figure suffers 1 wound and its token
    goes 2 -> 1 -> gone. Returns the wounds suffered (they cannot be avoided)."""
    status.mark = max(0, status.mark - 1)
    wounds = 1 if status.poison else 0
    status.poison = max(0, status.poison - 1)
    return wounds
