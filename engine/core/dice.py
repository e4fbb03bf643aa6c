"""Randomness for the engine, always injected.

Nothing in `engine/` touches the global `random` module. Every roll, shuffle and random pick
goes through a `Dice` object: `SeededDice` for play (derived from the campaign seed and the step
number, so replaying a log reproduces every roll) and `ScriptedDice` for tests that reproduce
the rulebooks' worked examples face by face.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterable, Sequence
from typing import Protocol, TypeVar

T = TypeVar("T")


class DiceExhausted(AssertionError):
    """A scripted test rolled more dice than its script provides."""


class Dice(Protocol):
    """The source of every random outcome in a game."""

    def roll(self, sides: int = 6) -> int:
        """One die with faces 1..sides."""
        ...

    def randrange(self, n: int) -> int:
        """A uniform integer in 0..n-1 (picks, placements, shuffles)."""
        ...


def roll_many(dice: Dice, count: int, sides: int = 6) -> list[int]:
    """Roll `count` dice of `sides` faces."""
    return [dice.roll(sides) for _ in range(count)]


def pick(dice: Dice, items: Sequence[T]) -> T:
    """A uniformly random element of a non-empty sequence."""
    if not items:
        raise ValueError("cannot pick from an empty sequence")
    return items[dice.randrange(len(items))]


def shuffle(dice: Dice, items: Iterable[T]) -> list[T]:
    """A new list with the items in random order (Fisher-Yates over `randrange`)."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = dice.randrange(i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def derive_seed(*parts: object) -> int:
    """A stable 63-bit seed from any printable parts (campaign seed, step number, ...).

    Uses SHA-256 rather than `hash()` so the value is the same in every process and Python
    version: replay depends on it.
    """
    text = "\x1f".join(str(p) for p in parts).encode()
    return int.from_bytes(hashlib.sha256(text).digest()[:8], "big") >> 1


class SeededDice:
    """Reproducible dice backed by a private `random.Random`."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self._rng = random.Random(seed)
        self.rolled = 0

    def roll(self, sides: int = 6) -> int:
        if sides < 1:
            raise ValueError("a die needs at least one face")
        self.rolled += 1
        return self._rng.randint(1, sides)

    def randrange(self, n: int) -> int:
        if n < 1:
            raise ValueError("randrange needs n >= 1")
        self.rolled += 1
        return self._rng.randrange(n)


class ScriptedDice:
    """Dice that return a fixed script, for reproducing worked examples.

    `rolls` feeds `roll()`; `picks` feeds `randrange()` (defaulting to 0, the first option, when
    no picks were scripted). Rolling past the script or outside a die's faces fails loudly, so a
    test can never pass on dice it did not mean to roll.
    """

    def __init__(self, rolls: Iterable[int] = (), picks: Iterable[int] | None = None) -> None:
        self._rolls = list(rolls)
        self._picks = None if picks is None else list(picks)
        self.rolled = 0

    @property
    def remaining(self) -> int:
        return len(self._rolls)

    def roll(self, sides: int = 6) -> int:
        if not self._rolls:
            raise DiceExhausted(f"scripted dice exhausted after {self.rolled} rolls")
        value = self._rolls.pop(0)
        if not 1 <= value <= sides:
            raise DiceExhausted(f"scripted roll {value} is not a face of a d{sides}")
        self.rolled += 1
        return value

    def randrange(self, n: int) -> int:
        if self._picks is None:
            return 0
        if not self._picks:
            raise DiceExhausted("scripted picks exhausted")
        value = self._picks.pop(0)
        if not 0 <= value < n:
            raise DiceExhausted(f"scripted pick {value} is outside 0..{n - 1}")
        return value
