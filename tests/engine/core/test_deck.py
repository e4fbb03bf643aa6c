import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.deck import Deck
from engine.core.dice import SeededDice
from engine.core.errors import RuleError


def make() -> Deck:
    return Deck.shuffled("events", [f"c{i}" for i in range(10)], SeededDice(3))


def test_draw_takes_from_top_and_reshuffles_discards() -> None:
    deck = make()
    top = deck.peek(1)[0]
    assert deck.draw(SeededDice(0)) == top
    drawn = [top, *deck.draw_many(9, SeededDice(0))]
    assert sorted(drawn) == sorted(f"c{i}" for i in range(10))
    for card in drawn:
        deck.discard(card)
    assert len(deck) == 0
    deck.draw(SeededDice(1))
    assert len(deck) == 9 and deck.discard_pile == []


def test_empty_deck_without_reshuffle_refuses() -> None:
    deck = Deck(name="wounds", draw_pile=[], discard_pile=["x"], reshuffle=False)
    with pytest.raises(RuleError, match="wounds deck is empty"):
        deck.draw(SeededDice(0))


def test_search_put_on_top_and_shuffle_into() -> None:
    deck = make()
    card = deck.search_and_take(lambda c: c == "c4")
    assert "c4" not in deck.all_cards()
    deck.put_on_top(card)
    assert deck.peek(1) == ["c4"]
    deck.shuffle_into(["x1", "x2"], SeededDice(9))
    assert len(deck) == 12
    with pytest.raises(RuleError):
        deck.search_and_take(lambda c: c == "missing")


def test_round_trips_through_json() -> None:
    deck = make()
    deck.discard(deck.draw(SeededDice(0)))
    assert Deck.model_validate_json(deck.model_dump_json()) == deck


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(["draw", "discard", "top", "shuffle"]), max_size=40), st.integers())
def test_cards_are_conserved(ops: list[str], seed: int) -> None:
    deck = make()
    hand: list[str] = []
    dice = SeededDice(seed)
    for op in ops:
        if op == "draw" and deck.all_cards():
            hand.append(deck.draw(dice))
        elif op == "discard" and hand:
            deck.discard(hand.pop())
        elif op == "top" and hand:
            deck.put_on_top(hand.pop())
        elif op == "shuffle":
            deck.shuffle_discards_in(dice)
        assert sorted(deck.all_cards() + hand) == sorted(f"c{i}" for i in range(10))
