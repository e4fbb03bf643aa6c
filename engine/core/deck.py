"""A deck of cards identified by content ids.

Cards are referred to by id (their text and values live in content files), so a deck is plain
data that serialises to JSON. The draw pile's top is its *last* element.
"""

from __future__ import annotations

from collections.abc import Callable

from pydantic import BaseModel, Field

from engine.core.dice import Dice, shuffle
from engine.core.errors import RuleError


class Deck(BaseModel):
    """Draw pile plus discard pile; reshuffles the discards when the draw pile runs out."""

    name: str = "deck"
    draw_pile: list[str] = Field(default_factory=list)
    discard_pile: list[str] = Field(default_factory=list)
    reshuffle: bool = True

    @classmethod
    def shuffled(cls, name: str, cards: list[str], dice: Dice, reshuffle: bool = True) -> Deck:
        return cls(name=name, draw_pile=shuffle(dice, cards), reshuffle=reshuffle)

    def __len__(self) -> int:
        return len(self.draw_pile)

    def all_cards(self) -> list[str]:
        """Every card the deck holds, in both piles (for conservation checks)."""
        return [*self.draw_pile, *self.discard_pile]

    def draw(self, dice: Dice) -> str:
        """Take the top card; shuffle the discards into a new draw pile if it is empty."""
        if not self.draw_pile:
            if not (self.reshuffle and self.discard_pile):
                raise RuleError(f"The {self.name} deck is empty.")
            self.draw_pile = shuffle(dice, self.discard_pile)
            self.discard_pile = []
        return self.draw_pile.pop()

    def draw_many(self, count: int, dice: Dice) -> list[str]:
        return [self.draw(dice) for _ in range(count)]

    def peek(self, count: int = 1) -> list[str]:
        """The top `count` cards, top first, without drawing them."""
        return list(reversed(self.draw_pile[-count:])) if count > 0 else []

    def discard(self, card: str) -> None:
        self.discard_pile.append(card)

    def put_on_top(self, card: str) -> None:
        self.draw_pile.append(card)

    def put_on_bottom(self, card: str) -> None:
        self.draw_pile.insert(0, card)

    def search_and_take(self, match: Callable[[str], bool], include_discards: bool = False) -> str:
        """Take the first matching card from the draw pile (top first), or the discards."""
        for pile in (self.draw_pile, self.discard_pile) if include_discards else (self.draw_pile,):
            for index in range(len(pile) - 1, -1, -1):
                if match(pile[index]):
                    return pile.pop(index)
        raise RuleError(f"No matching card in the {self.name} deck.")

    def shuffle_into(self, cards: list[str], dice: Dice) -> None:
        """Add cards to the draw pile and shuffle the whole pile."""
        self.draw_pile = shuffle(dice, [*self.draw_pile, *cards])

    def shuffle_discards_in(self, dice: Dice) -> None:
        self.shuffle_into(self.discard_pile, dice)
        self.discard_pile = []
