"""The expansion's cards (component list: 24 Close Encounters, 15 Events, 12 Alien cards and
1 Master Alien card): counts, the numbers the storybook and rulebook name, and how each Close
Encounter card reads for the Burrowing check (7.2.1)."""

from __future__ import annotations

from collections import Counter

from engine.galaxy.content import close_encounter, event_card
from engine.galaxy.strikeback import burrowing, cards, decks
from engine.galaxy.strikeback.missions import expansion_encounters


def test_the_box_counts() -> None:
    assert len(expansion_encounters()) == 24
    assert len(decks.events()) == 15
    normal = [c for c in cards.cards().values() if c.rank != "purple"]
    stages = [c for c in cards.cards().values() if c.rank == "purple"]
    assert len(normal) == 12
    assert sorted(c.stage for c in stages) == [1, 2]  # one double-sided Master Alien card


def test_the_numbered_cards_the_missions_and_rules_name_exist() -> None:
    numbers = Counter(c.number for c in expansion_encounters().values())
    for number in (1, 3, 4, 9, 12, 13, 14, 15, 16, 21, 22, 23, 24, 25, 26, 30, 31):
        assert numbers[number] == 1, number
    # missions 4, 1 and 2 use two copies (mission 2's DANGER #29: one shuffled in, one on top)
    assert numbers[11] == 2 and numbers[28] == 2 and numbers[29] == 2
    assert all(c.danger for c in expansion_encounters().values() if c.number == 29)


def test_event_cards_are_lettered_f1_to_t1_and_carry_the_63_balancers() -> None:
    assert sorted(decks.events()) == [f"os-{chr(c)}1" for c in range(ord("f"), ord("t") + 1)]
    balances = Counter(e.balance for e in decks.events().values())
    assert balances["sb-minus-aliens"] >= 2 and balances["sb-minus-threats"] >= 2
    assert event_card("m1", "os-g1").balance == "sb-minus-aliens"  # found from any mission


def test_close_encounters_read_as_the_rulebook_classifies_them_for_burrowing() -> None:
    wormoon = burrowing.AlienFacts(
        species="wormoon",
        color="purple",
        powers=frozenset({"burrowing", "archenemy"}),
        wounded=True,
        areas=frozenset({"engaged"}),
    )
    clear = {1, 3, 4, 16, 13, 15, 26, 12, 31, 29, 30}
    indirect = {14, 21, 22, 23, 24, 25}
    for card in expansion_encounters().values():
        kind = decks.activation(card)
        if card.number in indirect:
            assert not burrowing.clearly_matches(kind, wormoon), card.id
        elif card.number in clear:
            assert kind.kind in burrowing.CLEAR, card.id
    assert burrowing.clearly_matches(decks.activation(close_encounter("os-30")), wormoon)
    assert burrowing.clearly_matches(decks.activation(close_encounter("os-12")), wormoon)
    assert not burrowing.clearly_matches(decks.activation(close_encounter("os-31")), wormoon)
